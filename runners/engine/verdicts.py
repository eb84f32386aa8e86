"""Verdicts for one execution, and signatures that group equal findings.

A run ends as one of: terminated, timeout (a suspected deadlock), crash
(non-zero exit, signal, runtime panic or exception, Go's "all goroutines are
asleep"), compile error or infrastructure error. Every generated program
terminates by construction, so anything but `terminated` is the runtime's fault
(or ours, for compile and infrastructure errors).

Signatures follow crash dashboards (ClusterFuzz's crash state = top 3 frames):
the exception or panic type plus the top frames, with the parts that vary from
program to program (program numbers, lambda numbers, line numbers, addresses)
taken out, so the same bug found by many programs is one finding. A hang's
signature is the shape of what its processes wait on, from the runtime's dump.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from enum import StrEnum


class Outcome(StrEnum):
    TERMINATED = "terminated"
    TIMEOUT = "timeout"
    CRASH = "crash"
    COMPILE_ERROR = "compile_error"
    INFRA_ERROR = "infra_error"


@dataclass(frozen=True)
class Classification:
    outcome: Outcome
    reason: str  # one line a person reads
    signature: str  # equal for the same bug; empty for terminated runs

    @property
    def is_finding(self) -> bool:
        return self.outcome in (Outcome.TIMEOUT, Outcome.CRASH)


TOP_FRAMES = 3
# How many top frames of a stack overflow are searched for the recursion.
RECURSION_WINDOW = 200

SIGNAL_NAMES = {
    4: "SIGILL",
    6: "SIGABRT",
    7: "SIGBUS",
    8: "SIGFPE",
    9: "SIGKILL",
    11: "SIGSEGV",
    15: "SIGTERM",
    24: "SIGXCPU",
    25: "SIGXFSZ",
}

_GO_DEADLOCK = "fatal error: all goroutines are asleep - deadlock!"
_GO_GOROUTINE = re.compile(r"^goroutine \d+(?: gp=\S+ m=\S+(?: mp=\S+)?)? \[([^\]]+)\]:", re.M)
_GO_FATAL = re.compile(r"^(panic|fatal error): (.*)$", re.M)
_JVM_EXCEPTION = re.compile(
    r"^(?:Exception in thread \"[^\"]*\" )?((?:[a-zA-Z_$][\w$]*\.)+[A-Z][\w$]*(?:Error|Exception))"
    r"(?::[^\n]*)?$",
    re.M,
)
_JVM_FRAME = re.compile(r"^\s+at ([\w$.<>/]+)\(", re.M)
_CRYSTAL_UNHANDLED = re.compile(
    # "in spawn" (Crystal 1.6) or "in spawn(name: …)" for a named fiber.
    r"^Unhandled exception(?: in spawn(?:\([^)]*\))?)?: (.*?)(?: \((\w+(?:::\w+)*)\))?$",
    re.M,
)
# Frames of Crystal's raising itself (a build without debug info names them first):
# the same for every exception, so no part of where the bug is.
_CRYSTAL_RAISING = re.compile(r"^(?:Exception::CallStack\b|raise\b)")
_JVM_NATIVE_OOM = "There is insufficient memory for the Java Runtime Environment to continue."
_CRYSTAL_FRAME = re.compile(r"^\s+from \S+ in '([^']+)'", re.M)
_CRYSTAL_SEGV = re.compile(r"^Invalid memory access \(signal (\d+)\)", re.M)


def normalise_frame(frame: str) -> str:
    """A frame name without the parts that differ between programs of one batch."""
    frame = re.sub(r"\bprog\d+", "prog", frame)
    frame = re.sub(r"(\.func|\$)\d+", r"\1N", frame)
    frame = re.sub(r"0x[0-9a-f]+", "ADDR", frame)
    return frame


def _message(text: str) -> str:
    return re.sub(r"0x[0-9a-f]+", "ADDR", text.strip())[:200]


def _go_goroutine_blocks(text: str) -> list[tuple[str, list[str]]]:
    """(state, function names top first) for every goroutine in a Go traceback or dump."""
    blocks = []
    matches = list(_GO_GOROUTINE.finditer(text))
    for i, m in enumerate(matches):
        end = matches[i + 1].start() if i + 1 < len(matches) else len(text)
        frames = []
        for line in text[m.end() : end].splitlines():
            # Frames are `pkg.func(args)` lines; file:line follows on a tab-indented line.
            if line[:1].isspace() or not line.endswith(")") or line.startswith("created by"):
                continue
            frames.append(line.rpartition("(")[0])
        blocks.append((m.group(1).split(",")[0], frames))
    return blocks


def _shape(states: list[str]) -> str:
    counts = Counter(states)
    return ", ".join(f"{state}×{n}" if n > 1 else state for state, n in sorted(counts.items()))


def go_blocked_shape(text: str) -> str:
    """What the program's own goroutines wait on, e.g. "chan receive×2, select".

    The runtime's service goroutines (GC, finalizers, …) have no `main.` frame
    and are left out, so a dump and a deadlock report give the same shape.
    """
    states = [
        re.sub(r", \d+ minutes?", "", state)
        for state, frames in _go_goroutine_blocks(text)
        if any(f.startswith("main.") for f in frames)
    ]
    return _shape(states)


def _go_crash(text: str) -> tuple[str, str] | None:
    if _GO_DEADLOCK in text:
        shape = go_blocked_shape(text)
        return "all goroutines are asleep - deadlock!", f"deadlock | {shape}"
    m = _GO_FATAL.search(text)
    if not m:
        return None
    kind, message = m.group(1), _message(m.group(2))
    blocks = _go_goroutine_blocks(text[m.end() :])
    frames = [normalise_frame(f) for f in blocks[0][1]][:TOP_FRAMES] if blocks else []
    return f"{kind}: {message}", f"{kind} | {message} | {' < '.join(frames)}"


def recursion_cycle(frames: list[str]) -> list[str] | None:
    """The frames of the recursion at the top of a stack, sorted; None if there is none.

    A stack overflow's top frames depend on where in the cycle the stack ran
    out, so one bug would show many "top 3 frames". The set of frames that
    repeat near the top is the same wherever the cut fell.
    """
    window = frames[:RECURSION_WINDOW]
    counts = Counter(window)
    cycle = sorted(f for f, n in counts.items() if n >= 2)
    return cycle or None


def _jvm_crash(text: str) -> tuple[str, str] | None:
    m = _JVM_EXCEPTION.search(text)
    if not m:
        return None
    exception = m.group(1)
    frames = [normalise_frame(f) for f in _JVM_FRAME.findall(text[m.end() :])]
    line = text[m.start() : m.end()].strip()
    cycle = recursion_cycle(frames) if exception.endswith("StackOverflowError") else None
    if cycle:
        return line[:300], f"{exception} | recursion through {' · '.join(cycle)}"
    return line[:300], f"{exception} | {' < '.join(frames[:TOP_FRAMES])}"


def _crystal_crash(text: str) -> tuple[str, str] | None:
    m = _CRYSTAL_SEGV.search(text)
    if m:
        frames = [normalise_frame(f) for f in _CRYSTAL_FRAME.findall(text[m.end() :])]
        return m.group(0), f"signal {m.group(1)} | {' < '.join(frames[:TOP_FRAMES])}"
    m = _CRYSTAL_UNHANDLED.search(text)
    if not m:
        return None
    message, cls = _message(m.group(1)), m.group(2) or "Exception"
    frames = [
        normalise_frame(f)
        for f in _CRYSTAL_FRAME.findall(text[m.end() :])
        if not _CRYSTAL_RAISING.match(f)
    ]
    return f"{cls}: {message}", f"{cls} | {message} | {' < '.join(frames[:TOP_FRAMES])}"


_CRASH_PARSERS = {
    "go": _go_crash,
    "kotlin": _jvm_crash,
    "flix": _jvm_crash,
    "crystal": _crystal_crash,
}


def hang_signature(language: str, dump: str | None) -> str:
    """Group hangs by target language and the shape of what is blocked."""
    if dump and language == "go":
        shape = go_blocked_shape(dump)
        if shape:
            return f"go | hang | {shape}"
    if dump and language in ("kotlin", "flix"):
        # JVM thread dump: coroutines are not threads, so what the worker
        # threads are parked in is the best shape the JVM gives.
        states = re.findall(r"java\.lang\.Thread\.State: (\w+)(?: \(([^)]*)\))?", dump)
        shape = _shape([f"{s} {how}".strip() for s, how in states])
        if shape:
            return f"{language} | hang | {shape}"
    return f"{language} | hang"


def classify_run(
    language: str,
    *,
    exit_code: int | None,
    signal: int | None,
    timed_out: bool,
    stdout: str,
    stderr: str,
    dump: str | None = None,
) -> Classification:
    """The verdict of one run of a program that must terminate with exit 0."""
    text = f"{stderr}\n{stdout}"
    parsed = _CRASH_PARSERS.get(language, lambda _t: None)(text)
    if timed_out:
        if parsed is not None:
            # An exception nothing caught ended one fiber or thread (Crystal prints
            # "Unhandled exception in spawn" and goes on), and whoever waited for
            # it waits for ever: the exception is the bug, the hang its consequence.
            reason, signature = parsed
            return Classification(
                Outcome.CRASH,
                f"no exit before the time limit, after: {reason}",
                f"{language} | {signature}",
            )
        return Classification(
            Outcome.TIMEOUT, "no exit before the time limit", hang_signature(language, dump)
        )
    if _JVM_NATIVE_OOM in text:
        # The JVM hit the sandbox's memory limit (RLIMIT_DATA or the container's):
        # our limit, not a verdict on the runtime under test.
        return Classification(
            Outcome.INFRA_ERROR,
            "the JVM ran out of memory under the sandbox's limit: " + _JVM_NATIVE_OOM,
            "",
        )
    if exit_code == 0 and signal is None and parsed is None:
        return Classification(Outcome.TERMINATED, "exit 0", "")
    how = (
        f"killed by signal {signal} ({SIGNAL_NAMES.get(signal, 'signal')})"
        if signal is not None
        else f"exit {exit_code}"
    )
    if parsed is not None:
        reason, signature = parsed
        return Classification(Outcome.CRASH, f"{how}: {reason}", f"{language} | {signature}")
    last = next((ln.strip() for ln in reversed(text.splitlines()) if ln.strip()), "")
    signature = f"{language} | {how}"
    return Classification(Outcome.CRASH, f"{how}: {last[:200]}" if last else how, signature)

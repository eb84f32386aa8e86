"""Verdicts for one execution, and signatures that group equal findings.

A run ends as one of: terminated, timeout (a suspected deadlock), crash
(non-zero exit, signal, runtime panic or exception, Go's "all goroutines are
asleep"), wrong value (the value oracle rendered into the program saw a message
arrive on the wrong channel, twice, or not at all: see generator/render/_common),
compile error or infrastructure error. Every generated program
terminates by construction, so anything but `terminated` is the runtime's fault
(or ours, for compile and infrastructure errors).

How a target's output is read (its crash messages, its thread dumps) is declared
by the target (:mod:`runners.targets`: ``read_crash``, ``hang_shape``,
``read_infra_error``); this module decides the verdict from them.

Signatures follow crash dashboards (ClusterFuzz's crash state = top 3 frames):
the exception or panic type plus the top frames, with the parts that vary from
program to program (program numbers, lambda numbers, line numbers, addresses)
taken out, so the same bug found by many programs is one finding. A hang's
signature is the shape of what its processes wait on, from the runtime's dump.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

from generator.render._common import ORACLE_PREFIX
from runners.targets import get_target


class Outcome(StrEnum):
    TERMINATED = "terminated"
    TIMEOUT = "timeout"
    CRASH = "crash"
    WRONG_VALUE = "wrong_value"
    COMPILE_ERROR = "compile_error"
    INFRA_ERROR = "infra_error"


@dataclass(frozen=True)
class Classification:
    outcome: Outcome
    reason: str  # one line a person reads
    signature: str  # equal for the same bug; empty for terminated runs

    @property
    def is_finding(self) -> bool:
        return self.outcome in FINDING_OUTCOMES


# The outcomes that are the runtime's fault: findings.
FINDING_OUTCOMES = (Outcome.CRASH, Outcome.TIMEOUT, Outcome.WRONG_VALUE)


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


def hang_signature(language: str, dump: str | None) -> str:
    """Group hangs by target language and the shape of what is blocked (from the dump)."""
    shape = get_target(language).hang_shape(dump) if dump else ""
    return f"{language} | hang | {shape}" if shape else f"{language} | hang"


def is_hang_signature(signature: str) -> bool:
    """Whether `signature` is one hang_signature made (the reports tell hangs from crashes)."""
    return signature.split(" | ")[1:2] == ["hang"]


_MULTIPLICITY = re.compile(r"×\d+(?=, |$)")


def same_bug(wanted: str, seen: str) -> bool:
    """Whether a run with signature `seen` shows the bug of signature `wanted`.

    Crashes must match exactly. A hang's shape counts how many processes wait
    in each state; a smaller program that hangs the same way has fewer of them,
    so for hangs only the set of states must match, not their counts.
    """
    if wanted == seen:
        return True
    if not (is_hang_signature(wanted) and is_hang_signature(seen)):
        return False
    return _MULTIPLICITY.sub("", wanted) == _MULTIPLICITY.sub("", seen)


_RECURSION = "recursion through "


def _frames(detail: str) -> list[str]:
    """A crash signature's frames without their packages: kotlinx.coroutines dropped its
    `.experimental` package at 1.0, and a frame is the same method for all that."""
    frames = detail.removeprefix(_RECURSION).split(
        " · " if detail.startswith(_RECURSION) else " < "
    )
    return [".".join(frame.split(".")[-2:]) for frame in frames]


def same_bug_across_releases(wanted: str, seen: str) -> bool:
    """Whether a run on another release, with signature `seen`, shows the bug `wanted`
    signs (what a bisection counts as bad): `same_bug`, or a crash of the same exception
    whose frames, packages left out, are `wanted`'s, or for a recursion, whose cycle shares
    at least half its frames with `wanted`'s (one recursion entered by another method,
    as kotlinx.coroutines#504's select overflow is by a send or by a receive)."""
    if same_bug(wanted, seen):
        return True
    if is_hang_signature(wanted) or is_hang_signature(seen):
        return False
    w, s = wanted.split(" | ", 2), seen.split(" | ", 2)
    if len(w) < 3 or len(s) < 3 or w[:2] != s[:2]:
        return False
    if w[2].startswith(_RECURSION) != s[2].startswith(_RECURSION):
        return False
    mine, theirs = _frames(w[2]), _frames(s[2])
    if not w[2].startswith(_RECURSION):
        return mine == theirs
    common = len(set(mine) & set(theirs))
    return 2 * common >= min(len(set(mine)), len(set(theirs)))


_WRONG_VALUE = re.compile(rf"^{re.escape(ORACLE_PREFIX)}(.+?): (.*)$", re.M)


def wrong_value(language: str, text: str) -> Classification | None:
    """The value oracle's verdict, when the program printed one: the kind of violation
    (with the operation that saw it) signs it; the detail names values and channels."""
    m = _WRONG_VALUE.search(text)
    if m is None:
        return None
    kind, detail = m.group(1), m.group(2).strip()
    return Classification(
        Outcome.WRONG_VALUE, f"wrong value: {kind}: {detail}", f"{language} | wrong value | {kind}"
    )


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
    target = get_target(language)
    text = f"{stderr}\n{stdout}"
    oracle = wrong_value(language, text)
    if oracle is not None:
        # The program checked and exited itself: a wrong message, whatever came after.
        return oracle
    parsed = target.read_crash(text)
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
    infra = target.read_infra_error(text)
    if infra is not None:
        # Our own limit was hit (the sandbox's memory, say): no verdict on the runtime.
        return Classification(Outcome.INFRA_ERROR, infra, "")
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

"""How a Rust program's run is read: the signature of a panic, a stack overflow or a fatal
runtime error from what it printed, and, for a hang, the stacks of its threads (taken from
outside by eu-stack: Rust prints nothing on SIGQUIT) and what they wait in. Every Rust
target reads its runs so (runners.targets.rust_cargo.target_spec)."""

from __future__ import annotations

import re

from runners.targets.reading import TOP_FRAMES, message, shape

# --- reading runs ----------------------------------------------------------------------------

# Rust ≥ 1.73: "thread 'main' panicked at src/main.rs:3:5:\nmessage", from 1.92 or so
# with the thread's id after its name ("thread 'main' (4242) panicked at …"); before
# 1.73: "thread 'main' panicked at 'message', src/main.rs:3:5".
_THREAD = r"^thread '([^']*)'(?: \(\d+\))?"
_PANIC_NEW = re.compile(_THREAD + r" panicked at ([^\n]+?):(\d+):(\d+):\n(.*)$", re.M)
_PANIC_OLD = re.compile(_THREAD + r" panicked at '(.*)', ([^\n]+?):(\d+):(\d+)$", re.M)
_OVERFLOW = re.compile(_THREAD + r" has overflowed its stack$", re.M)
_FATAL = re.compile(r"^fatal runtime error: (.*)$", re.M)
_FRAME = re.compile(r"^\s+\d+: (\S+)$", re.M)
# Frames of panicking itself: the same for every panic, no part of where the bug is.
_PANIC_MACHINERY = re.compile(
    r"^(std::|core::|rust_begin_unwind|__rustc::|__rust|<alloc::|alloc::|<core::|<std::)"
)


def _where(path: str, line: str) -> str:
    """A panic's location as part of a signature: the program's own lines vary by program
    (left out); a library's file and line name the check that failed (kept, its version
    taken out so that one bug over several releases stays one finding)."""
    if path.startswith("src/main.rs") or path.endswith("/main.rs"):
        return "the program"
    path = re.sub(r"^.*/registry/src/[^/]+/", "", path)
    path = re.sub(r"^([A-Za-z_][\w-]*?)-\d+\.\d+\.\d+[^/]*/", r"\1/", path)
    return f"{path}:{line}"


def read_crash(text: str) -> tuple[str, str] | None:
    m = _OVERFLOW.search(text)
    if m:
        return "stack overflow", "stack overflow"
    new = _PANIC_NEW.search(text)
    old = _PANIC_OLD.search(text)
    if new is not None and (old is None or new.start() <= old.start()):
        what, where = new.group(5), _where(new.group(2), new.group(3))
    elif old is not None:
        what, where = old.group(2), _where(old.group(3), old.group(4))
    else:
        fatal = _FATAL.search(text)
        if fatal is None:
            return None
        return f"fatal runtime error: {fatal.group(1)}", f"fatal | {message(fatal.group(1))}"
    # Thread names and numbers vary from run to run; the message does not.
    said = message(re.sub(r"\b(?:prog|p)\d+\b", "prog", what.splitlines()[0] if what else ""))
    frames = [
        f
        for f in _FRAME.findall(text[(new or old).end() :])
        if not _PANIC_MACHINERY.match(f) and not re.match(r"(chanfuzzprog|prog_[0-9a-f]+)::", f)
    ]
    frames = [re.sub(r"::h[0-9a-f]{16}$", "", f) for f in frames][:TOP_FRAMES]
    signature = f"panic | {said} | at {where}"
    if frames:
        signature += " | " + " < ".join(frames)
    return f"panic: {said} (at {where})", signature


# --- hangs ------------------------------------------------------------------------------------


def stack_dump(pid: int) -> list[str]:
    """The stack of every thread of a hung program, by elfutils' eu-stack, its names
    demangled by binutils' c++filt (Rust's legacy and v0 manglings): Rust's runtime prints
    nothing on SIGQUIT, so its dump is taken from outside (the sandbox runs this at the
    timeout)."""
    # Not gdb, which took 80-100 ms of CPU a dump (half of it gdb's own start) against
    # eu-stack's 10: on flume, which hangs in a seventh of its programs, a batch of 500
    # (74 hangs) ran in 12.1 s on one core with eu-stack, 17.4 s with gdb. eu-stack unwinds
    # from .eh_frame and names frames from .symtab, which Rust keeps. Its own demangling
    # (libstdc++'s) leaves v0 names and legacy escapes ($u7b$) mangled, so -r and c++filt,
    # which give the names gdb gave (the same shape from both on 151 hangs).
    return [
        "bash", "-c", 'set -o pipefail; eu-stack -r -p "$1" | c++filt', "eu-stack", str(pid),
    ]  # fmt: skip


# A thread's header and its frames as eu-stack prints them ("TID 4242:", "#1  0x… name")
# and as gdb did ("Thread 2 (Thread 0x… (LWP 4242) "name"):", "#1  0x… in name ()"): the
# dumps of findings recorded before 2026-12-04 are gdb's.
_STACK_THREAD = re.compile(r"^(?:TID \d+|Thread \d+ \(.*\)):$", re.M)
_STACK_FRAME = re.compile(r"^#\d+\s+(?:0x[0-9a-f]+ (?:in )?)?(\S+)", re.M)
# Where a blocked thread waits, named by the first frame in a channel or runtime
# library (not the program's own functions, not the OS's futex wait).
_WAITS_IN = re.compile(
    r"^(crossbeam_channel|crossbeam_utils|flume|chan|tokio|std::sync::(?:mpsc|mpmc))::"
)


def _frame_name(raw: str) -> str:
    name = re.sub(r"::h[0-9a-f]{16}$", "", raw)
    name = re.sub(r"\[[0-9a-f]{16}\]", "", name)  # std[e28293b1aa0f68bd]::…
    name = re.sub(r"<[^<>]*>", "", re.sub(r"<[^<>]*>", "", name))  # generics, two levels
    return name.replace("::{{closure}}", "")


def hang_shape(dump: str) -> str:
    """What the program's threads wait in, from their stacks (stack_dump): e.g.
    "crossbeam_channel::flavors::zero::Channel::recv×2"."""
    starts = [m.end() for m in _STACK_THREAD.finditer(dump)]
    states = []
    for start in starts:
        end = _STACK_THREAD.search(dump, start)
        block = dump[start : end.start() if end else len(dump)]
        names = [_frame_name(f) for f in _STACK_FRAME.findall(block)]
        waits = next((n for n in names if _WAITS_IN.match(n)), None)
        if waits is not None:
            states.append(waits)
    return shape(states)

"""What the JVM targets (Kotlin, Flix) share: finding a Java, and reading a JVM's output.

A crash is an exception nothing caught, signed by its class and top frames (a
stack overflow by the frames of its recursion, wherever the stack ran out); a
hang is signed by the states of the program's threads in the JVM's thread dump
(SIGQUIT), the JVM's own left out. A JVM that ran out of native memory hit the
sandbox's limit: that is our limit, never a verdict on the runtime under test.
"""

from __future__ import annotations

import re
import shutil
import time
import urllib.request
from pathlib import Path

from runners import config
from runners.targets.base import ToolchainUnavailable, executable
from runners.targets.reading import TOP_FRAMES, normalise_frame, recursion_cycle, shape

# The Java all Kotlin toolchains run on: every compiler from 1.2.41 runs on JDK 17;
# on Temurin 25 even 1.3.0 fails (ExceptionInInitializerError in intellij's FileUtil).
JAVA_MAJOR = 17


def cds_flags(archive: Path | str | None) -> tuple[str, ...]:
    """The JVM flags that map a class-data-sharing archive (none for None). A stale one
    (dumped by another JDK, or for another classpath) is simply not used, and says nothing."""
    if archive is None:
        return ()
    return (f"-XX:SharedArchiveFile={archive}", "-Xlog:cds=off,cds+dynamic=off")


def aot_cache_flags(cache: Path | str) -> tuple[str, ...]:
    """The Java 25 flags that map an AOT cache (JEP 483), as quiet as ``cds_flags``: a cache
    dumped by another JVM or for another classpath is not used, and says nothing.

    The cache maps at the address it was dumped for (``ArchiveRelocationMode=0``, Java
    17's default), and only where that address is taken elsewhere, like Java 25's default,
    at another: relocating it patches every pointer of its 13 MB first, about 5 ms of each
    Kotlin run's start here. Only where the JVM's own metadata lies changes, not what a
    program runs on."""
    return (
        f"-XX:AOTCache={cache}",
        "-XX:+UnlockDiagnosticVMOptions",
        "-XX:ArchiveRelocationMode=0",
        "-Xlog:aot=off,cds=off",
    )


def _java_home_major(java: Path) -> int | None:
    release = java.resolve().parent.parent / "release"
    if release.is_file():
        match = re.search(r'^JAVA_VERSION="(\d+)', release.read_text(), re.M)
        if match:
            return int(match.group(1))
    return None


def find_java(major: int = JAVA_MAJOR) -> Path:
    """A ``java`` of that major version: $CHANFUZZ_JAVA, $JAVA_HOME, PATH, /usr/lib/jvm."""
    configured = config.binary_override("CHANFUZZ_JAVA")
    if configured is not None:
        return executable(configured, "java ($CHANFUZZ_JAVA)")
    candidates = []
    java_home = config.text("JAVA_HOME")
    if java_home:
        candidates.append(Path(java_home) / "bin" / "java")
    if shutil.which("java"):
        candidates.append(Path(shutil.which("java") or ""))
    candidates += sorted(Path("/usr/lib/jvm").glob("*/bin/java"))
    for java in candidates:
        if java.exists() and _java_home_major(java) == major:
            return java.resolve()
    raise ToolchainUnavailable(
        f"no Java {major} (set CHANFUZZ_JAVA, or apt-get install openjdk-{major}-jdk-headless)"
    )


_JVM_EXCEPTION = re.compile(
    r"^(?:Exception in thread \"[^\"]*\" )?((?:[a-zA-Z_$][\w$]*\.)+[A-Z][\w$]*(?:Error|Exception))"
    r"(?::[^\n]*)?$",
    re.M,
)


_JVM_FRAME = re.compile(r"^\s+at ([\w$.<>/]+)\(", re.M)


_JVM_NATIVE_OOM = "There is insufficient memory for the Java Runtime Environment to continue."

# A thread of the dump and its state: the header line, then at once the state line (the
# JVM's own non-Java threads, GC and VM threads, have none).
_DUMP_THREAD = re.compile(
    r'^"(?P<name>[^"\n]*)"[^\n]*\n\s+java\.lang\.Thread\.State: (?P<state>\w+)'
    r"(?: \((?P<how>[^)]*)\))?",
    re.M,
)
# HotSpot's and the JDK's own threads, which a dump lists beside the program's. Which
# there are changes with the JDK (Java 17's "Sweeper thread" is gone from 20 on), the
# flags (Java 25 starts a "Training replay thread" with an AOT cache, JFR its own) and the
# machine (compiler threads start and stop with the load, more of them on more cores), and
# none of them waits on a channel, so a hang's shape leaves them out.
_JVM_OWN_THREAD = re.compile(
    r"Reference Handler|Finalizer|Signal Dispatcher|Service Thread|Monitor Deflation Thread"
    r"|C[12] CompilerThread\d+|JVMCI(?:-native)? CompilerThread\d+|Sweeper thread"
    r"|Notification Thread|Common-Cleaner|Attach Listener|Surrogate Locker Thread.*"
    r"|Training replay thread|JFR .*"
)


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


def read_crash(text: str) -> tuple[str, str] | None:
    return _jvm_crash(text)


def hang_shape(dump: str) -> str:
    """What the program's threads are in, the JVM's own left out (`_JVM_OWN_THREAD`):
    coroutines are not threads, so this is the best shape a JVM dump gives."""
    states = [
        f"{m['state']} {m['how'] or ''}".strip()
        for m in _DUMP_THREAD.finditer(dump)
        if not _JVM_OWN_THREAD.fullmatch(m["name"])
    ]
    return shape(states)


def dump_excerpt(dump: str) -> str:
    """The dump a bug report shows: the program's threads, each stack once. Left out: the
    JVM's own threads (`_JVM_OWN_THREAD`), HotSpot's threads that run no Java (no state
    line: GC, VM, compilers), the thread list and the heap summary. Threads with the same
    stack (a pool's idle workers) are shown once, the others named under it. In a
    kotlinx.coroutines hang of 233 lines the program's threads began at line 76."""
    shown: list[tuple[list[str], list[str]]] = []  # (lines, names of the same stack)
    by_stack: dict[str, list[str]] = {}
    for block in re.split(r"\n[ \t]*\n", dump.strip("\n")):
        lines = block.strip("\n").splitlines()
        if not lines:
            continue
        thread = _DUMP_THREAD.match("\n".join(lines))
        if thread is None:
            if lines[0].startswith("Full thread dump"):
                shown.append((lines[:1], []))
            elif not lines[0].startswith(('"', "Threads class SMR", "JNI ", "Heap")):
                shown.append((lines, []))  # not a thread: a deadlock report, an exception
            continue
        if _JVM_OWN_THREAD.fullmatch(thread["name"]):
            continue
        stack = "\n".join(lines[1:])
        if stack in by_stack:
            by_stack[stack].append(thread["name"])
            continue
        by_stack[stack] = []
        shown.append((lines, by_stack[stack]))
    parts = []
    for lines, same in shown:
        also = f"\n   (the same stack: {', '.join(same)})" if same else ""
        parts.append("\n".join(lines) + also)
    return "\n\n".join(parts)


def infra_error(text: str) -> str | None:
    """The JVM hit the sandbox's memory limit (RLIMIT_DATA or the container's)."""
    if _JVM_NATIVE_OOM in text:
        return "the JVM ran out of memory under the sandbox's limit: " + _JVM_NATIVE_OOM
    return None


def maven_fetch(url: str, attempts: int = 4) -> bytes:
    """The body at `url` (Maven Central: metadata, POMs), retried on network errors, which
    a release listing or an install should outlive."""
    for attempt in range(attempts):
        try:
            with urllib.request.urlopen(url, timeout=30) as response:  # noqa: S310 - https
                return response.read()
        except OSError:  # URLError and TimeoutError are OSErrors
            if attempt == attempts - 1:
                raise
            time.sleep(1 + attempt)
    raise AssertionError("unreachable")

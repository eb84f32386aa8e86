"""Compilers kept running between builds (issue #18): a JVM compiler started once
serves every batch of its toolchain instead of one cold start per batch.

A cold `kotlinc` spends most of a small batch loading and warming itself up (Kotlin
2.2.20 on one core: 50 programs in 11–12 s cold, 4–5 s from a compiler that already
compiled a few batches; 200 programs in 22 s against 13–18 s). A build whose plan
says how (`BuildPlan.resident`, a :class:`~runners.targets.base.ResidentCompile`)
hands its compiler arguments to a server, `toolchains/jvm/ResidentCompiler.java`,
which calls the tool's `exec(PrintStream, String[])` in its own JVM, one compile at a
time, and answers with the exit code and everything the compiler printed: the same
entry point and arguments `kotlinc` uses, so the same classes and messages. Clojure has
no such entry point: `toolchains/jvm/ClojureCompiler.java` is one, built with the server,
which compiles a batch's namespace as `clojure.main` does for a cold compile (70 go-block
programs on one core: about 3.2 s a batch from a warm server, 5.4 s cold).

Servers outlive the process that started them: rq forks a work horse per job, and a
server must serve the next job's horse too. Each listens on a Unix socket in
`<tmp>/chanfuzz-resident-<uid>/`, named after what it runs (java, flags, classpath and
the jars' times, the tool), with `$CHANFUZZ_RESIDENT_COMPILERS` of them per toolchain
(a slot each, held through a lock file for one compile at a time: batches under way
at once get one each, or wait). A server ends after `$CHANFUZZ_RESIDENT_IDLE_S`
seconds without a compile, and idle servers beyond `MAX_SERVERS` (all toolchains
together) are ended, least recently used first: a release sweep moves from toolchain
to toolchain. A server runs in the compile jail, as cold compiles do, but not bound
to its starter's life; the jail lets it write only to the temporary directory, so a
build whose work directory lies elsewhere compiles cold. The socket directory must be
this user's alone (another user could have made it first), or builds compile cold.

Whatever goes wrong with a server (it does not start, dies in a compile, answers
nonsense) is not the build's failure: :func:`compile` returns None and the build runs
its cold command. A compile that outlasts the build's timeout kills its server and
times out as a cold one would.
"""

from __future__ import annotations

import contextlib
import fcntl
import functools
import hashlib
import os
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from runners import config
from runners.engine.sandbox import compile_jail
from runners.engine.supervisor import ProcessResult, RLimits
from runners.targets.base import ResidentCompile

# The server and the tools of ours it can serve besides a compiler's own
# (ClojureCompiler), built together.
SERVER_SOURCES = tuple(sorted((config.REPO_ROOT / "toolchains" / "jvm").glob("*.java")))
SERVER_CLASS = "ResidentCompiler"
START_TIMEOUT_S = 60.0
# Servers of this user kept at most, all toolchains together (each holds a JVM's heap).
MAX_SERVERS = 4
# The most output a reply may carry: a longer one is garbled (the build keeps 64 KiB).
_MAX_REPLY = 64 << 20
# Servers this process started and has not yet seen end: held so that a Popen dropped
# while its server runs on (as it should) does not warn so, and reaped when they end.
_STARTED: list[subprocess.Popen] = []


def home() -> Path:
    """Where the servers' sockets, locks and logs live: private to this user."""
    directory = Path(tempfile.gettempdir()) / f"chanfuzz-resident-{os.getuid()}"
    directory.mkdir(mode=0o700, exist_ok=True)
    return directory


def _private(directory: Path) -> bool:
    """Whether only this user can reach `directory` (the temporary directory is shared:
    another user could have made it first, to answer our builds)."""
    info = directory.lstat()
    return info.st_uid == os.getuid() and not info.st_mode & 0o077 and directory.is_dir()


def servable(workdir: Path) -> bool:
    """Whether a server can write `workdir`: its jail lets it write to the temporary and
    scratch directories only."""
    places = compile_jail.resident_writes()
    return any(workdir.resolve().is_relative_to(place.resolve()) for place in places)


def serves(workdir: Path, *, quiet: bool = False) -> bool:
    """Whether servers take builds in `workdir`: there may be servers
    (`$CHANFUZZ_RESIDENT_COMPILERS`), they can write it, and their home is this user's
    alone (else builds compile cold, which is logged unless `quiet`)."""
    if config.resident_compilers() == 0 or not servable(workdir):
        return False
    if not _private(home()):
        if not quiet:
            _log(f"{home()} is not this user's alone: builds compile cold")
        return False
    return True


def server_name(spec: ResidentCompile) -> str:
    """A short name of what a server runs: a toolchain reinstalled in place (new jars),
    other flags or another scratch directory (its jail lets it write there) get another
    server."""
    digest = hashlib.sha256()
    parts = (
        str(spec.java),
        *spec.jvm_flags,
        spec.tool,
        _source_digest(),
        str(config.scratch_dir()),
    )
    for part in parts:
        digest.update(part.encode() + b"\0")
    for jar in spec.classpath:
        stamp = jar.stat().st_mtime_ns if jar.exists() else 0
        digest.update(f"{jar}\0{stamp}\0".encode())
    return digest.hexdigest()[:16]


def compile(
    spec: ResidentCompile,
    *,
    workdir: Path,
    env: dict[str, str],
    timeout_s: float,
    limits: RLimits,
) -> ProcessResult | None:
    """Compile with a resident server of `spec`; None where none can (the caller then
    compiles cold). `env` and `limits` are the cold compile's, given to a server it
    starts."""
    if not serves(workdir):
        return None
    slots = config.resident_compilers()
    started = time.monotonic()
    setup_s = 0.0  # starting a server, which serves the builds after this one too
    name = server_name(spec)
    deadline = started + timeout_s
    with _slot(name, slots) as slot:
        path = home() / f"{name}-{slot}.sock"
        # A server found running may be ending just then (its idle time ran out): one
        # that closes without an answer is replaced once by a new one.
        for attempt in range(2):
            conn = _connect(path) if attempt == 0 else None
            fresh = conn is None
            if fresh:
                starting = time.monotonic()
                conn = _start(spec, path, env=env, limits=limits)
                setup_s = time.monotonic() - starting
            if conn is None:
                return None
            with conn:
                try:
                    code, output = _ask(conn, spec.args, deadline=deadline)
                    break
                except TimeoutError:
                    _kill(path)
                    return ProcessResult(
                        exit_code=None,
                        signal=signal.SIGKILL,
                        duration_s=time.monotonic() - started,
                        stdout="",
                        stderr=f"compile timed out after {timeout_s:.0f} s (resident compiler)",
                        timed_out=True,
                    )
                except (OSError, ValueError) as exc:
                    _kill(path)  # died or garbled mid-compile
                    if fresh:
                        _log(f"the resident compiler failed ({exc}): this build compiles cold")
                        return None
    # The compiler names a source by its path from the working directory (the work
    # directory for a cold compile, the temporary directory for a server), or in full
    # when it lies elsewhere (the scratch directory).
    inside = os.path.relpath(workdir.resolve(), Path(tempfile.gettempdir()).resolve())
    for prefix in (str(workdir.resolve()), inside):
        output = output.replace(prefix + os.sep, "")
    return ProcessResult(
        exit_code=code,
        signal=None,
        duration_s=time.monotonic() - started,
        stdout="",
        stderr=output,
        timed_out=False,
        setup_s=setup_s,
    )


@contextlib.contextmanager
def _slot(name: str, slots: int) -> Iterator[int]:
    """One of the `slots` servers of `name`, held for one compile: a free one if any,
    else the wait for one picked by this process."""
    locks = []
    try:
        for slot in range(slots):
            handle = open(home() / f"{name}-{slot}.lock", "a+")  # noqa: SIM115 - held open
            locks.append(handle)
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                continue
            os.utime(handle.fileno())  # when this slot was last used (_evict)
            yield slot
            return
        slot = os.getpid() % slots
        fcntl.flock(locks[slot], fcntl.LOCK_EX)
        os.utime(locks[slot].fileno())
        yield slot
    finally:
        for handle in locks:
            handle.close()  # closing releases its lock


def _connect(path: Path) -> socket.socket | None:
    conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        conn.connect(str(path))
    except OSError:
        conn.close()
        return None
    return conn


@functools.cache
def _source_digest() -> str:
    """The server's sources, as a name: read once a process (every build asks)."""
    digest = hashlib.sha256()
    for source in SERVER_SOURCES:
        digest.update(source.name.encode() + b"\0" + source.read_bytes())
    return digest.hexdigest()[:12]


def _server_classes(spec: ResidentCompile) -> Path | None:
    """The server's compiled classes, built once per source by the toolchain's JDK."""
    classes = home() / f"classes-{_source_digest()}"
    if (classes / f"{SERVER_CLASS}.class").is_file():
        return classes
    javac = Path(spec.java).resolve().parent / "javac"
    if not javac.is_file():
        _log(f"no javac beside {spec.java}: builds compile cold")
        return None
    with open(home() / "javac.lock", "a+") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if (classes / f"{SERVER_CLASS}.class").is_file():
            return classes
        scratch = Path(tempfile.mkdtemp(prefix="classes-", dir=home()))
        done = subprocess.run(
            [str(javac), "--release", "17", "-d", str(scratch), *map(str, SERVER_SOURCES)],
            capture_output=True,
            text=True,
            timeout=120,
        )
        if done.returncode != 0:
            shutil.rmtree(scratch, ignore_errors=True)
            _log(f"javac could not build the resident compiler: {done.stderr.strip()}")
            return None
        scratch.rename(classes)
    return classes


def _start(
    spec: ResidentCompile, path: Path, *, env: dict[str, str], limits: RLimits
) -> socket.socket | None:
    """Start the server of slot `path` (the slot's lock is held) and connect to it."""
    classes = _server_classes(spec)
    if classes is None:
        return None
    _kill(path)  # a server that no longer answers, if any
    path.unlink(missing_ok=True)
    _evict(keep=max(MAX_SERVERS, config.resident_compilers()) - 1)
    _tidy()
    classpath = os.pathsep.join(map(str, (*spec.classpath, classes)))
    argv = [
        str(spec.java),
        *spec.jvm_flags,
        # Every jailed JVM is pid 2 in its namespace: a server holding the shared
        # hsperfdata file would make each cold compile's JVM warn that it is locked.
        "-XX:-UsePerfData",
        "-cp",
        classpath,
        SERVER_CLASS,
        str(path),
        str(config.resident_idle_s()),
        spec.tool,
    ]
    scratch = Path(tempfile.gettempdir())
    jailed = compile_jail.jail(argv, workdir=scratch, cwd=scratch, die_with_parent=False)
    log = path.with_suffix(".log")
    with open(log, "w") as out:
        server = subprocess.Popen(
            jailed,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
            env=env,
            start_new_session=True,  # its own group: killed alone, outliving its starter
            close_fds=True,
            preexec_fn=limits.preexec(),
        )
    _STARTED[:] = [*(p for p in _STARTED if p.poll() is None), server]
    path.with_suffix(".pid").write_text(str(server.pid))
    deadline = time.monotonic() + START_TIMEOUT_S
    while time.monotonic() < deadline:
        if server.poll() is not None:
            _log(f"the resident compiler ended at start ({server.returncode}): {_tail(log)}")
            return None
        conn = _connect(path) if path.exists() else None
        if conn is not None:
            return conn
        time.sleep(0.02)
    _log(f"the resident compiler did not listen within {START_TIMEOUT_S:.0f} s")
    _kill(path)
    return None


def _ask(conn: socket.socket, args: tuple[str, ...], *, deadline: float) -> tuple[int, str]:
    """Send one compile, read its exit code and output (TimeoutError at `deadline`)."""
    request = [struct.pack(">i", len(args))]
    for arg in args:
        data = arg.encode()
        request += [struct.pack(">i", len(data)), data]
    conn.settimeout(max(deadline - time.monotonic(), 0.001))
    conn.sendall(b"".join(request))
    code, length = struct.unpack(">ii", _read(conn, 8, deadline))
    if not 0 <= length <= _MAX_REPLY:
        raise ValueError(f"a reply of {length} bytes")
    return code, _read(conn, length, deadline).decode(errors="replace")


def _read(conn: socket.socket, size: int, deadline: float) -> bytes:
    chunks: list[bytes] = []
    got = 0
    while got < size:
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError
        conn.settimeout(left)
        chunk = conn.recv(min(size - got, 1 << 20))  # TimeoutError when `left` runs out
        if not chunk:
            raise ConnectionError("the resident compiler closed the connection")
        chunks.append(chunk)
        got += len(chunk)
    return b"".join(chunks)


def _kill(path: Path) -> None:
    """End the server of slot `path`, if its pid file names a live one."""
    pid_file = path.with_suffix(".pid")
    try:
        pid = int(pid_file.read_text())
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
    except (OSError, ValueError):
        cmdline = b""  # gone already
    # A pid outlives its process only as a number: kill it only while it is this server.
    if str(path).encode() in cmdline.split(b"\0"):
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(pid, signal.SIGKILL)
    pid_file.unlink(missing_ok=True)
    path.unlink(missing_ok=True)


def _evict(keep: int) -> None:
    """End the servers least recently used beyond `keep`, of those idle now (a release
    sweep moves from toolchain to toolchain: each would keep its servers' memory)."""
    running = sorted(
        home().glob("*.pid"), key=lambda p: _mtime(p.with_suffix(".lock")), reverse=True
    )
    for pid_file in running[keep:]:
        with open(pid_file.with_suffix(".lock"), "a+") as lock:
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                continue  # compiling now
            _kill(pid_file.with_suffix(".sock"))


def _tidy(older_than_s: float = 86_400.0) -> None:
    """Remove the locks and logs of servers gone for a day, and classes of old sources."""
    now = time.time()
    for path in [*home().glob("*.lock"), *home().glob("*.log")]:
        if not path.with_suffix(".pid").exists() and now - _mtime(path) > older_than_s:
            path.unlink(missing_ok=True)
    current = f"classes-{_source_digest()}"
    for classes in home().glob("classes-*"):
        if classes.name != current and now - _mtime(classes) > older_than_s:
            shutil.rmtree(classes, ignore_errors=True)


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0


def stop_all() -> int:
    """End every server in `home()`; how many there were (the tests end theirs with it)."""
    stopped = 0
    for pid_file in home().glob("*.pid"):
        _kill(pid_file.with_suffix(".sock"))
        stopped += 1
    return stopped


def _tail(log: Path, limit: int = 2000) -> str:
    try:
        return log.read_text(errors="replace")[-limit:].strip()
    except OSError:
        return ""


def _log(message: str) -> None:
    print(f"chanfuzz: {message}", file=sys.stderr)

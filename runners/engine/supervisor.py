"""The one process supervisor: timeouts, process-group kill, bounded output, rlimits.

This module owns how chanfuzz watches a process it does not trust to end by
itself -- a compiler on generated code, a program under test, the sandbox
around one. One event loop, :func:`supervise`, does it for builds and runs alike:

- it reads stdout and stderr as they come into an :class:`OutputCapture`, which
  keeps the first bytes of each stream and counts the rest: neither a full pipe
  blocks the program nor a flood the caller;
- it enforces the wall-clock deadline; there, optionally, it sends a dump
  signal (SIGQUIT: Go prints every goroutine's stack, the JVM a thread dump) and
  waits a grace period for the dump to be printed;
- then, or as soon as the run has ended, it kills everything the run started
  and drains what is left in the pipes.

*How* the end is noticed, a signal delivered and everything killed differs with
what runs, so the caller says it with callbacks. :func:`run_argv` (builds, and
artifacts run without a sandbox) runs an argv as the leader of its own process
group, with optional :class:`RLimits` set in the child before exec; the sandbox
backends (``runners.engine.sandbox``) signal their PID-1 helper or a container
engine instead.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import resource
import selectors
import signal
import subprocess
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

OUTPUT_LIMIT = 64 * 1024  # bytes of stdout and of stderr run_argv keeps by default

# After the run has ended or been killed, how long to keep reading pipes that
# are still open. Only a process that escaped the kill (one that called
# setsid(), in a plain process group) can hold them open that long.
DRAIN_S = 2.0
_CHUNK = 65536
_POLL_S = 0.05  # how often to ask whether the run ended, without an fd that says so


class OutputCapture:
    """Bounded capture of a program's stdout and stderr.

    Keeps the first ``limit`` bytes of each stream and counts the rest, so the
    program is never blocked by a full pipe and the caller never by a flood.
    With a ``dump_limit``, everything from either stream after
    :meth:`start_dump` goes to the dump instead (up to ``dump_limit`` bytes);
    without one, a dump stays in the streams it was written to. Thread-safe, so
    a caller may feed it from a reader thread.
    """

    def __init__(self, limit: int, dump_limit: int | None = None) -> None:
        self._limit = limit
        self._dump_limit = dump_limit
        self._buffers = {"stdout": bytearray(), "stderr": bytearray()}
        self._dropped = {"stdout": 0, "stderr": 0}
        self._dump: bytearray | None = None
        self._lock = threading.Lock()

    def feed(self, stream: str, data: bytes) -> None:
        with self._lock:
            if self._dump is not None and self._dump_limit is not None:
                room = max(0, self._dump_limit - len(self._dump))
                self._dump += data[:room]
                return
            buf = self._buffers[stream]
            room = max(0, self._limit - len(buf))
            buf += data[:room]
            self._dropped[stream] += max(0, len(data) - room)

    def start_dump(self) -> None:
        with self._lock:
            if self._dump is None and self._dump_limit is not None:
                self._dump = bytearray()

    def text(self, stream: str) -> str:
        with self._lock:
            return self._buffers[stream].decode("utf-8", errors="replace")

    def truncated(self, stream: str) -> bool:
        with self._lock:
            return self._dropped[stream] > 0

    def dump_text(self) -> str | None:
        with self._lock:
            return None if self._dump is None else self._dump.decode("utf-8", errors="replace")


# --- the event loop ----------------------------------------------------------------


@dataclass(frozen=True)
class Supervised:
    """How a supervised run went, as far as the loop can tell.

    ``end`` is the monotonic time the run ended or was killed; ``timeout_at``
    when its time ran out (None if it did not). ``aux`` holds what was read
    from each auxiliary fd. ``returncode`` is the child's, as :mod:`subprocess`
    reports it, when :func:`supervise_process` watched a child process.
    """

    timed_out: bool
    end: float
    timeout_at: float | None
    aux: Mapping[int, bytes]
    returncode: int | None = None
    quiet: bool = False  # timed out early: blocked for the quiet period
    quiet_at: float | None = None  # when it had been blocked for the quiet period
    # CPU seconds its processes had used at the quiet watch's last look; None: not watched.
    cpu_s: float | None = None


@dataclass
class QuietWatch:
    """Declares a run hung once its processes have been blocked for ``quiet_s``.

    ``probe()`` returns (CPU ticks used so far by the run's processes, whether
    any of their threads is running or runnable). The run is quiet while the
    ticks grow by at most ``tolerance`` of the wall time (a runtime's idle
    housekeeping, Go's sysmon, a JVM's timers, wakes now and then) and no
    sample finds a thread running, waiting for a CPU or waiting on the disk (a
    program starved by a busy machine is slow, not blocked). A livelock spins:
    never quiet. A ``witness`` only notes when the run went quiet (see
    :func:`supervise`): it does not end the run. ``on_blocked`` is called once, at the
    first sample that finds the run quiet for ``blocked_s`` (before ``quiet_s``).
    """

    probe: Callable[[], tuple[int, bool]]
    quiet_s: float
    # How often it samples: every 0.25 s, or twice a period shorter than half a second
    # (a shared run's, SHARED_QUIET_S), so that a run is cut at most half a period late.
    every_s: float | None = None
    tolerance: float = 0.02
    witness: bool = False
    blocked_s: float | None = None
    on_blocked: Callable[[], None] | None = None
    ticks_per_s: int = field(default_factory=lambda: os.sysconf("SC_CLK_TCK"))
    cpu_ticks: int | None = None  # what the last probe read: a run's CPU use so far
    _since: float | None = None
    _ticks: int = 0
    next_at: float = 0.0

    def __post_init__(self) -> None:
        # Not sampled more often for `on_blocked`: a run that never blocks is watched as
        # it was, and the call may come up to a sample late.
        if self.every_s is None:
            self.every_s = min(0.25, self.quiet_s / 2)

    @property
    def cpu_s(self) -> float | None:
        """CPU seconds the run had used at the last sample; None before one."""
        return None if self.cpu_ticks is None else self.cpu_ticks / self.ticks_per_s

    def sample(self, now: float) -> bool:
        """Take a sample; True when the run has been quiet for ``quiet_s``."""
        self.next_at = now + self.every_s
        try:
            ticks, busy = self.probe()
        except OSError:  # the processes are going away: not for us to judge
            return False
        self.cpu_ticks = ticks
        allowed = self.tolerance * self.ticks_per_s * (now - self._since if self._since else 0)
        if busy or self._since is None or ticks - self._ticks > max(allowed, 1):
            self._since, self._ticks = now, ticks
            return False
        blocked = now - self._since
        if self.on_blocked is not None and blocked >= (self.blocked_s or 0.0):
            told, self.on_blocked = self.on_blocked, None
            told()
        return blocked >= self.quiet_s


def supervise(
    *,
    start: float,
    timeout_s: float,
    streams: Mapping[int, str],
    capture: OutputCapture,
    exited: Callable[[], bool],
    send_signal: Callable[[int], None],
    kill_all: Callable[[], None],
    exit_fd: int | None = None,
    dump_signal: int | None = None,
    dump_grace_s: float = 0.0,
    aux_fds: tuple[int, ...] = (),
    ended_by_streams_eof: bool = False,
    drain_s: float = DRAIN_S,
    dump_action: Callable[[], None] | None = None,
    quiet: QuietWatch | None = None,
) -> Supervised:
    """Run the loop until the run has ended (or been killed) and its output is drained.

    ``streams`` maps read fds to "stdout"/"stderr", fed into ``capture``.
    ``exited()`` says whether the run has ended; ``exit_fd``, if given, becomes
    readable when it does (a pidfd, or a pipe a waiter thread writes to), else
    ``exited()`` is polled. At ``start + timeout_s``, when ``dump_signal`` is
    set and ``dump_grace_s`` > 0, the capture starts its dump and
    ``send_signal(dump_signal)`` goes to the program, which then has
    ``dump_grace_s`` seconds; ``dump_action()`` replaces the signal for a runtime
    that prints nothing on one (it dumps from outside, say a debugger attaching,
    and writes the dump into the capture itself). ``kill_all()`` SIGKILLs everything the run
    started: it is called when the time (and grace) is up, once the run has
    ended (for whatever it left behind), and on an exception here. ``aux_fds``
    are read to EOF and returned. With ``ended_by_streams_eof``, EOF on every
    stream also means the run has ended: true when the sandbox's PID 1 holds
    the streams open until it exits and its exit empties the sandbox (the
    helper in a container), and known sooner than from a container engine.
    With ``quiet``, a run found blocked for its quiet period times out there
    and then, as if its time had run out (dump included); a ``quiet.witness``
    only notes that moment (``quiet_at``) and the run goes on.
    The caller owns (and closes) every fd.
    """
    aux: dict[int, bytearray] = {fd: bytearray() for fd in aux_fds}
    selector = selectors.DefaultSelector()
    if exit_fd is not None:
        selector.register(exit_fd, selectors.EVENT_READ, "exit")
    for fd in (*streams, *aux):
        os.set_blocking(fd, False)
        selector.register(fd, selectors.EVENT_READ, "pipe")
    open_pipes = len(streams) + len(aux)
    open_streams = len(streams)

    deadline = start + timeout_s
    phase = "running"  # -> "dumping" (timeout with a dump signal) -> "draining"
    timeout_at: float | None = None
    end: float | None = None
    went_quiet = False
    quiet_at: float | None = None

    def finish(now: float) -> None:
        # The run ended or its time is up: kill what is left, then drain the
        # pipes for a moment.
        nonlocal phase, end, deadline
        kill_all()
        phase = "draining"
        end = now if end is None else end
        deadline = now + drain_s

    try:
        while True:
            now = time.monotonic()
            done = exited() or (ended_by_streams_eof and open_streams == 0)
            if done and phase != "draining":
                finish(now)
            if phase == "draining" and done and open_pipes == 0:
                break
            watching = quiet is not None and phase == "running" and quiet_at is None
            if watching and now >= quiet.next_at and quiet.sample(now):
                quiet_at = now
                watching = False
                if not quiet.witness:
                    went_quiet = True
                    deadline = now
            if now >= deadline:
                if phase == "draining":
                    break
                if phase == "running":
                    timeout_at = now
                    if (dump_signal is not None or dump_action is not None) and dump_grace_s > 0:
                        capture.start_dump()
                        if dump_action is not None:
                            dump_action()
                        else:
                            send_signal(dump_signal)
                        phase = "dumping"
                        deadline = now + dump_grace_s
                        continue
                finish(now)
                continue
            wait = deadline - now if exit_fd is not None else min(deadline - now, _POLL_S)
            if watching:
                wait = min(wait, quiet.next_at - now)
            for key, _ in selector.select(timeout=max(0.0, wait)):
                if key.data == "exit":
                    selector.unregister(key.fd)
                    continue
                try:
                    data = os.read(key.fd, _CHUNK)
                except BlockingIOError:
                    continue
                if not data:
                    selector.unregister(key.fd)
                    open_pipes -= 1
                    open_streams -= key.fd in streams
                elif key.fd in streams:
                    capture.feed(streams[key.fd], data)
                else:
                    aux[key.fd] += data
    finally:
        if phase != "draining":
            kill_all()  # an exception in the loop: still leave nothing behind
        selector.close()
    return Supervised(
        timed_out=timeout_at is not None,
        end=end if end is not None else time.monotonic(),
        timeout_at=timeout_at,
        aux={fd: bytes(buf) for fd, buf in aux.items()},
        quiet=went_quiet,
        quiet_at=quiet_at,
        cpu_s=None if quiet is None else quiet.cpu_s,
    )


# --- child processes ---------------------------------------------------------------


def process_exited(pid: int) -> bool:
    """Whether our child ``pid`` has ended, without reaping it.

    Until it is reaped its pid -- and, for a group leader, its process group id
    -- cannot be reused, so signalling it or its group cannot reach a stranger.
    """
    try:
        return os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None
    except ChildProcessError:
        return True  # already reaped


def _pidfd(pid: int) -> int | None:
    # A pidfd becomes readable when the process exits: exit and output wake the
    # same select() without polling (Linux >= 5.3; else the loop polls).
    try:
        return os.pidfd_open(pid)
    except (AttributeError, OSError):
        return None


def supervise_process(
    proc: subprocess.Popen[bytes],
    *,
    start: float,
    timeout_s: float,
    capture: OutputCapture,
    send_signal: Callable[[int], None],
    kill_all: Callable[[], None],
    dump_signal: int | None = None,
    dump_grace_s: float = 0.0,
    aux_fds: tuple[int, ...] = (),
    drain_s: float = DRAIN_S,
    dump_action: Callable[[], None] | None = None,
    quiet: QuietWatch | None = None,
) -> Supervised:
    """:func:`supervise` for a child process with piped stdout and stderr.

    The child's exit is noticed without reaping it (see :func:`process_exited`);
    it is reaped, and its pipes closed, before this returns. The result's
    ``returncode`` is the child's.
    """
    assert proc.stdout is not None and proc.stderr is not None
    pidfd = _pidfd(proc.pid)
    try:
        outcome = supervise(
            start=start,
            timeout_s=timeout_s,
            streams={proc.stdout.fileno(): "stdout", proc.stderr.fileno(): "stderr"},
            capture=capture,
            exited=lambda: process_exited(proc.pid),
            send_signal=send_signal,
            kill_all=kill_all,
            exit_fd=pidfd,
            dump_signal=dump_signal,
            dump_grace_s=dump_grace_s,
            aux_fds=aux_fds,
            drain_s=drain_s,
            dump_action=dump_action,
            quiet=quiet,
        )
    finally:
        if pidfd is not None:
            os.close(pidfd)
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=10)
        if proc.returncode is None:
            # kill_all() has been called: cannot happen unless the child
            # escaped it. Make it loud rather than leave a zombie unnoticed.
            proc.kill()
            proc.wait()
        proc.stdout.close()
        proc.stderr.close()
    return dataclasses.replace(outcome, returncode=proc.returncode)


class ProcessGroup:
    """The callbacks for a child that leads its own process group.

    For a child started with ``start_new_session=True``: signals go to the
    leader only (a dump is the program's business, not its children's), the
    kill to the whole group.
    """

    def __init__(self, pgid: int) -> None:
        self.pgid = pgid

    def signal(self, sig: int) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.kill(self.pgid, sig)

    def kill(self) -> None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.pgid, signal.SIGKILL)

    def kill_and_wait(self, limit_s: float = 2.0) -> None:
        """SIGKILL the group and wait until none of it runs any more.

        killpg only queues the signal: without waiting, a caller could see the
        program's children still running (and still holding CPU) afterwards.
        """
        deadline = time.monotonic() + limit_s
        while True:
            self.kill()
            try:
                os.killpg(self.pgid, 0)
            except (ProcessLookupError, PermissionError):
                return  # the common case: nothing left at all, one system call
            # Members remain, perhaps only as zombies waiting for init to reap them.
            if not self._live_members() or time.monotonic() > deadline:
                return
            time.sleep(0.002)

    def _live_members(self) -> bool:
        """Whether a process of the group is still alive (zombies are dead)."""
        for entry in os.scandir("/proc"):
            if not entry.name.isdigit():
                continue
            try:
                with open(f"/proc/{entry.name}/stat", "rb") as stat:
                    fields = stat.read().rsplit(b")", 1)[1].split()
            except OSError:
                continue  # exited meanwhile
            if int(fields[2]) == self.pgid and fields[0] not in (b"Z", b"X"):
                return True
        return False


# --- rlimits -------------------------------------------------------------------------


@dataclass(frozen=True)
class RLimits:
    """Resource limits a child gets before it execs, inherited by all it starts.

    Core dumps are always off: a compiler that crashes on generated code must
    not fill the disk with cores. ``cpu_s`` is CPU seconds per process (SIGXCPU
    at the limit, SIGKILL a second later), ``file_bytes`` the largest file a
    process may write (SIGXFSZ beyond), ``data_bytes`` its data segment --
    RLIMIT_DATA, not RLIMIT_AS, which breaks Go and the JVM: they reserve far
    more address space than they use. None leaves a limit as inherited. A limit
    above this process's own hard limit is lowered to it, since only root may
    raise a hard limit.
    """

    cpu_s: int | None = None
    file_bytes: int | None = None
    data_bytes: int | None = None

    def __post_init__(self) -> None:
        for name in ("cpu_s", "file_bytes", "data_bytes"):
            value = getattr(self, name)
            if value is not None and value <= 0:
                raise ValueError(f"{name} must be positive or None, not {value}")

    def settings(
        self, current: Callable[[int], tuple[int, int]] = resource.getrlimit
    ) -> list[tuple[int, tuple[int, int]]]:
        """``(resource, (soft, hard))`` pairs for setrlimit, within the ``current`` hard limits."""
        wanted = [(resource.RLIMIT_CORE, (0, 0))]
        if self.cpu_s is not None:
            wanted.append((resource.RLIMIT_CPU, (self.cpu_s, self.cpu_s + 1)))
        if self.file_bytes is not None:
            wanted.append((resource.RLIMIT_FSIZE, (self.file_bytes, self.file_bytes)))
        if self.data_bytes is not None:
            wanted.append((resource.RLIMIT_DATA, (self.data_bytes, self.data_bytes)))
        settings = []
        for which, (soft, hard) in wanted:
            allowed = current(which)[1]
            if allowed != resource.RLIM_INFINITY:
                hard = min(hard, allowed)
                soft = min(soft, hard)
            settings.append((which, (soft, hard)))
        return settings

    def preexec(self) -> Callable[[], None]:
        """A ``preexec_fn`` that sets these limits in the child, between fork and exec.

        preexec_fn is unsafe in a threaded program (and the fuzzer builds from
        several threads) when the function needs a lock another thread held at
        the fork. This one only calls setrlimit with values computed here,
        before the fork: it takes no lock.
        """
        settings = self.settings()

        def apply() -> None:
            for which, value in settings:
                resource.setrlimit(which, value)

        return apply


# --- run_argv ------------------------------------------------------------------------


@dataclass(frozen=True)
class ProcessResult:
    """What one process did. ``exit_code`` is None when a signal ended it."""

    exit_code: int | None
    signal: int | None
    duration_s: float
    stdout: str
    stderr: str
    timed_out: bool
    stdout_truncated: bool = False
    stderr_truncated: bool = False
    # Of duration_s, the seconds spent making ready what outlives this process's work (a
    # compiler server started for it and the builds after it: runners.engine.resident).
    setup_s: float = 0.0

    @property
    def ok(self) -> bool:
        return self.exit_code == 0 and not self.timed_out


# What is left in the pipes after the group is killed comes at once; anything
# holding them longer escaped the group, and waiting for it helps nobody.
_GROUP_DRAIN_S = 1.0


def run_argv(
    argv: Sequence[str],
    timeout_s: float,
    *,
    env: dict[str, str] | None = None,
    cwd: Path | None = None,
    output_limit: int = OUTPUT_LIMIT,
    dump_signal: int | None = None,
    dump_grace_s: float = 2.0,
    limits: RLimits | None = None,
) -> ProcessResult:
    """Run ``argv`` in a new process group; kill the whole group when done or on timeout.

    stdin is /dev/null. Output beyond ``output_limit`` bytes per stream is read
    and dropped (so the process never blocks on a full pipe). Anything the
    program left behind in its process group is killed when it exits, and
    everything in the group is killed (SIGKILL) when ``timeout_s`` runs out.
    With ``dump_signal`` (SIGQUIT: Go prints every goroutine's stack and exits,
    the JVM prints a thread dump), the process first gets that signal on
    timeout and ``dump_grace_s`` to print, so the dump ends up in the output;
    ``duration_s`` stops at the timeout all the same.

    ``limits`` (:class:`RLimits`) are set in the child before it execs, so
    they bind the program and everything it starts: no core dumps, and
    optionally CPU seconds, file size and data size. Without them the child
    inherits this process's limits.
    """
    capture = OutputCapture(output_limit)  # no dump limit: a dump stays in its stream
    start = time.monotonic()
    proc = subprocess.Popen(
        list(argv),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=cwd,
        env=env,
        start_new_session=True,  # own session and process group: killpg reaches every child
        preexec_fn=limits.preexec() if limits is not None else None,
    )
    group = ProcessGroup(proc.pid)
    try:
        outcome = supervise_process(
            proc,
            start=start,
            timeout_s=timeout_s,
            capture=capture,
            send_signal=group.signal,
            kill_all=group.kill,
            dump_signal=dump_signal,
            dump_grace_s=dump_grace_s,
            drain_s=_GROUP_DRAIN_S,
        )
    finally:
        group.kill_and_wait()  # nothing of the group survives, whatever happened
    code = outcome.returncode
    assert code is not None
    return ProcessResult(
        exit_code=code if code >= 0 else None,
        signal=-code if code < 0 else None,
        duration_s=(outcome.end if outcome.timeout_at is None else outcome.timeout_at) - start,
        stdout=capture.text("stdout"),
        stderr=capture.text("stderr"),
        timed_out=outcome.timed_out,
        stdout_truncated=capture.truncated("stdout"),
        stderr_truncated=capture.truncated("stderr"),
    )


_HAVE_CHILDREN_FILES = os.path.exists(f"/proc/self/task/{os.getpid()}/children")


def child_pids(pid: int) -> list[int]:
    """The pids of ``pid``'s children, in order (empty once it has exited)."""
    if _HAVE_CHILDREN_FILES:
        try:
            with open(f"/proc/{pid}/task/{pid}/children") as f:
                return sorted(int(p) for p in f.read().split())
        except FileNotFoundError:  # pid has exited
            return []
    else:  # scan /proc for processes whose parent is pid
        found = []
        for entry in os.listdir("/proc"):
            if entry.isdigit():
                with contextlib.suppress(OSError):
                    with open(f"/proc/{entry}/stat") as f:
                        # The command name (field 2) may hold spaces: split after it.
                        fields = f.read().rpartition(")")[2].split()
                    if int(fields[1]) == pid:
                        found.append(int(entry))
        return sorted(found)


def tree_cpu(pid: int) -> tuple[int, bool]:
    """CPU ticks (user + system) used so far by ``pid``'s descendants, and whether any of
    their threads is running, runnable or in disk wait (state R or D): a QuietWatch probe."""
    ticks, busy = 0, False
    todo = child_pids(pid)
    while todo:
        current = todo.pop()
        todo += child_pids(current)
        with contextlib.suppress(FileNotFoundError, ProcessLookupError):
            for task in os.listdir(f"/proc/{current}/task"):
                with contextlib.suppress(FileNotFoundError, ProcessLookupError):
                    with open(f"/proc/{current}/task/{task}/stat") as f:
                        # After the command name (which may hold spaces): state is
                        # field 3, utime and stime fields 14 and 15.
                        fields = f.read().rpartition(")")[2].split()
                    # R: running or runnable; D: waiting on the disk (a JVM loading
                    # classes on a busy machine), which is slow, not blocked for good.
                    busy = busy or fields[0] in ("R", "D")
                    ticks += int(fields[11]) + int(fields[12])
    return ticks, busy


# A debugger needs a few seconds to attach and walk every thread: more than a
# runtime printing its own dump is given.
EXTERNAL_DUMP_MIN_S = 20.0


def dump_program(
    pid: int | None, command: Callable[[int], Sequence[str]], capture: OutputCapture, grace_s: float
) -> None:
    """The dump of the program ``pid`` (None: it is gone) by ``command(pid)``, into ``capture``."""
    if pid is None:
        capture.feed("stdout", b"[chanfuzz: no dump: the program is gone]\n")
        return
    external_dump(command(pid), capture, timeout_s=max(EXTERNAL_DUMP_MIN_S, grace_s))


def external_dump(
    argv: Sequence[str], capture: OutputCapture, *, timeout_s: float, stream: str = "stdout"
) -> None:
    """Run a dump tool (a debugger attaching to the hung program) and keep what it prints.

    For runtimes that print nothing on a signal. The tool is ours, not the
    program under test: it runs with a plain timeout, and its output goes to
    ``capture`` (into the dump, once :meth:`OutputCapture.start_dump` was called).
    A tool that fails or times out leaves a line saying so instead of a dump.
    """
    try:
        done = subprocess.run(
            list(argv),
            stdin=subprocess.DEVNULL,
            capture_output=True,
            timeout=timeout_s,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as error:
        capture.feed(stream, f"[chanfuzz: no dump: {argv[0]}: {error}]\n".encode())
        return
    capture.feed(stream, done.stdout)
    if done.returncode != 0:
        capture.feed(stream, f"[chanfuzz: {argv[0]} exited {done.returncode}]\n".encode())
        capture.feed(stream, done.stderr[-2000:])

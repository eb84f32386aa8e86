"""The one process supervisor: run an argv in its own process group, bounded and killed whole.

This module owns how chanfuzz runs any process it does not trust to end by itself
(a compiler on generated code, a program under test): a new session and process
group, stdin from /dev/null, output read without ever letting a full pipe block
the process and cut at a limit, a wall-clock timeout with an optional dump signal
and grace period first, and SIGKILL of everything left in the group at the end.
"""

from __future__ import annotations

import contextlib
import os
import selectors
import signal
import subprocess
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

OUTPUT_LIMIT = 64 * 1024  # bytes of stdout and of stderr kept per run


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

    @property
    def ok(self) -> bool:
        return self.exit_code == 0 and not self.timed_out


def _kill_group(pgid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signal.SIGKILL)


def _live_members(pgid: int) -> bool:
    """Whether a process of group ``pgid`` is still alive (zombies are dead)."""
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat", "rb") as stat:
                fields = stat.read().rsplit(b")", 1)[1].split()
        except OSError:
            continue  # exited meanwhile
        if int(fields[2]) == pgid and fields[0] not in (b"Z", b"X"):
            return True
    return False


def _kill_group_and_wait(pgid: int, limit_s: float = 2.0) -> None:
    """SIGKILL the group and wait until none of it runs any more.

    killpg only queues the signal: without waiting, a caller could see the
    program's children still running (and still holding CPU) after run().
    """
    deadline = time.monotonic() + limit_s
    while True:
        _kill_group(pgid)
        try:
            os.killpg(pgid, 0)
        except (ProcessLookupError, PermissionError):
            return  # the common case: nothing left at all, one system call
        # Members remain, perhaps only as zombies waiting for init to reap them.
        if not _live_members(pgid) or time.monotonic() > deadline:
            return
        time.sleep(0.002)


def _exited(pid: int) -> bool:
    # WNOWAIT: look without reaping, so the pid (= the process group id) cannot
    # be reused by another process before the group has been killed.
    return os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None


def _pidfd(pid: int) -> int | None:
    # A pidfd becomes readable when the process exits: the select loop then
    # wakes up for exit and output alike, without polling (Linux >= 5.3).
    try:
        return os.pidfd_open(pid)
    except (AttributeError, OSError):
        return None


def run_argv(
    argv: Sequence[str],
    timeout_s: float,
    *,
    env: dict[str, str] | None = None,
    cwd: Path | None = None,
    output_limit: int = OUTPUT_LIMIT,
    dump_signal: int | None = None,
    dump_grace_s: float = 2.0,
) -> ProcessResult:
    """Run ``argv`` in a new process group; kill the whole group when done or on timeout.

    stdin is /dev/null. Output beyond ``output_limit`` bytes per stream is read
    and dropped (so the process never blocks on a full pipe). Anything the
    program left behind in its process group is killed when it exits, and
    everything in the group is killed (SIGKILL) when ``timeout_s`` runs out.
    With ``dump_signal`` (SIGQUIT: Go prints every goroutine's stack and exits,
    the JVM prints a thread dump), the process first gets that signal on
    timeout and ``dump_grace_s`` to print, so the dump ends up in the output.
    """
    start = time.monotonic()
    deadline = start + timeout_s
    proc = subprocess.Popen(
        list(argv),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=cwd,
        env=env,
        start_new_session=True,  # own session and process group: killpg reaches every child
    )
    assert proc.stdout is not None and proc.stderr is not None
    out_fd, err_fd = proc.stdout.fileno(), proc.stderr.fileno()
    chunks = {out_fd: bytearray(), err_fd: bytearray()}
    dropped = {out_fd: 0, err_fd: 0}
    open_pipes = 2
    exited = False
    end: float | None = None  # when it exited, or when its time ran out
    timed_out = False
    pidfd = _pidfd(proc.pid)
    selector = selectors.DefaultSelector()

    def on_exit() -> None:
        nonlocal exited, end, deadline
        exited = True
        now = time.monotonic()
        end = end if end is not None else now
        # The program is done; what it spawned into its group is not, and
        # would hold the pipes open. Then drain what is left, briefly.
        _kill_group(proc.pid)
        deadline = min(deadline, now + 1.0)

    try:
        for fd in (out_fd, err_fd):
            os.set_blocking(fd, False)
            selector.register(fd, selectors.EVENT_READ, "pipe")
        if pidfd is not None:
            selector.register(pidfd, selectors.EVENT_READ, "exit")
        while True:
            if not exited and pidfd is None and _exited(proc.pid):
                on_exit()
            if exited and open_pipes == 0:
                break
            now = time.monotonic()
            if now >= deadline:
                if exited or timed_out:
                    break  # done draining, or the dump's grace is over
                timed_out = True
                end = now
                if dump_signal is None:
                    break
                with contextlib.suppress(ProcessLookupError):
                    os.kill(proc.pid, dump_signal)
                deadline = now + dump_grace_s
                continue
            wait = deadline - now if pidfd is not None else min(deadline - now, 0.05)
            for key, _ in selector.select(timeout=wait):
                if key.data == "exit":
                    selector.unregister(key.fd)
                    on_exit()
                    continue
                try:
                    data = os.read(key.fd, 65536)
                except BlockingIOError:
                    continue
                if not data:
                    selector.unregister(key.fd)
                    open_pipes -= 1
                    continue
                room = max(0, output_limit - len(chunks[key.fd]))
                chunks[key.fd] += data[:room]
                dropped[key.fd] += len(data) - min(room, len(data))
    finally:
        # Normal end, timeout or an exception here: nothing of the group survives.
        _kill_group(proc.pid)
        proc.wait()
        _kill_group_and_wait(proc.pid)
        selector.close()
        if pidfd is not None:
            os.close(pidfd)
        proc.stdout.close()
        proc.stderr.close()
    code = proc.returncode
    return ProcessResult(
        exit_code=code if code >= 0 else None,
        signal=-code if code < 0 else None,
        duration_s=(end if end is not None else time.monotonic()) - start,
        stdout=chunks[out_fd].decode("utf-8", errors="replace"),
        stderr=chunks[err_fd].decode("utf-8", errors="replace"),
        timed_out=timed_out,
        stdout_truncated=dropped[out_fd] > 0,
        stderr_truncated=dropped[err_fd] > 0,
    )

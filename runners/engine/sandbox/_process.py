"""Supervising one sandboxed run from the outside: output, timeout, dump, kill.

This module owns the event loop every backend shares: it reads the program's
stdout/stderr (pipes, or FIFOs for containers) into an :class:`OutputCapture`
without ever letting a full pipe block the program, collects small auxiliary
pipes (the helper's status), enforces the wall-clock timeout, sends the dump
signal and waits the grace period, and kills whatever is left. *How* to
notice the end, to signal and to kill is the backend's business (an fd that
becomes readable at exit, and callbacks).
"""

from __future__ import annotations

import contextlib
import os
import selectors
import subprocess
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from runners.engine.sandbox.base import Limits, OutputCapture

# After the program is gone (or killed), how long to keep reading what is
# still in the pipes. Only a process that escaped the kill (possible with the
# unsafe "none" backend) can hold them open that long.
_DRAIN_S = 2.0
_CHUNK = 65536


@dataclass(frozen=True)
class Supervised:
    timed_out: bool
    end: float  # monotonic time the program ended or was killed
    aux: Mapping[int, bytes]


def supervise(
    *,
    start: float,
    streams: Mapping[int, str],
    exit_fd: int,
    exited: Callable[[], bool],
    capture: OutputCapture,
    limits: Limits,
    dump_signal: int | None,
    send_signal: Callable[[int], None],
    kill_all: Callable[[], None],
    aux_fds: tuple[int, ...] = (),
    ended_by_streams_eof: bool = False,
) -> Supervised:
    """Run the loop until the run has ended and its output is drained.

    ``streams`` maps read fds to "stdout"/"stderr". ``exit_fd`` becomes
    readable when the run ends (a pidfd, or a pipe a waiter thread writes
    to), and ``exited()`` says whether it has. ``send_signal(sig)`` delivers
    the dump signal to the program; ``kill_all()`` SIGKILLs everything the run
    started: it is called at the timeout (after the dump grace period, if
    any) and once the run has ended, for anything that escaped. ``aux_fds``
    are read to EOF and returned. With ``ended_by_streams_eof``, EOF on every
    stream also means the run has ended: true when the sandbox's PID 1 holds
    the streams open until it exits and its exit empties the sandbox (the
    helper in a container), and sooner than asking a container engine.
    The caller owns (and closes) every fd.
    """
    aux: dict[int, bytearray] = {fd: bytearray() for fd in aux_fds}
    selector = selectors.DefaultSelector()
    selector.register(exit_fd, selectors.EVENT_READ, "exit")
    for fd in (*streams, *aux):
        os.set_blocking(fd, False)
        selector.register(fd, selectors.EVENT_READ, "pipe")
    open_pipes = len(streams) + len(aux)
    open_streams = len(streams)

    deadline = start + limits.timeout_s
    phase = "running"  # -> "dumping" (timeout with a dump signal) -> "draining"
    timed_out = False
    end: float | None = None

    def finish(now: float) -> None:
        # The program ended or its time is up: kill what is left, then drain
        # the pipes for a moment.
        nonlocal phase, end, deadline
        kill_all()
        phase = "draining"
        end = now if end is None else end
        deadline = now + _DRAIN_S

    try:
        while True:
            now = time.monotonic()
            done = exited() or (ended_by_streams_eof and open_streams == 0)
            if done and phase != "draining":
                finish(now)
            if phase == "draining" and done and open_pipes == 0:
                break
            if now >= deadline:
                if phase == "draining":
                    break
                if phase == "running":
                    timed_out = True
                    if dump_signal is not None and limits.dump_grace_s > 0:
                        capture.start_dump()
                        send_signal(dump_signal)
                        phase = "dumping"
                        deadline = now + limits.dump_grace_s
                        continue
                finish(now)
                continue
            for key, _ in selector.select(timeout=max(0.0, deadline - now)):
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
        timed_out=timed_out,
        end=end if end is not None else time.monotonic(),
        aux={fd: bytes(buf) for fd, buf in aux.items()},
    )


def supervise_popen(
    proc: subprocess.Popen[bytes],
    *,
    start: float,
    capture: OutputCapture,
    limits: Limits,
    dump_signal: int | None,
    send_signal: Callable[[int], None],
    kill_all: Callable[[], None],
    aux_fds: tuple[int, ...] = (),
) -> Supervised:
    """:func:`supervise` for a child process with piped stdout/stderr; reaps it."""
    assert proc.stdout is not None and proc.stderr is not None
    # A pidfd becomes readable when the process exits: exit and output wake
    # the same select() without polling.
    pidfd = os.pidfd_open(proc.pid)
    try:
        return supervise(
            start=start,
            streams={proc.stdout.fileno(): "stdout", proc.stderr.fileno(): "stderr"},
            exit_fd=pidfd,
            exited=lambda: proc.poll() is not None,
            capture=capture,
            limits=limits,
            dump_signal=dump_signal,
            send_signal=send_signal,
            kill_all=kill_all,
            aux_fds=aux_fds,
        )
    finally:
        os.close(pidfd)
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=10)
        if proc.returncode is None:
            # Cannot happen with the backends here (bwrap dies with its
            # sandbox); make it loud rather than leave a zombie unnoticed.
            proc.kill()
            proc.wait()
        proc.stdout.close()
        proc.stderr.close()

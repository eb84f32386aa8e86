"""The sandbox interface every backend implements: limits, binds, results, errors.

This module owns the *contract* between the code that runs generated programs
and the backends that contain them (``local``: bubblewrap; ``docker``: a
container engine; ``none``: a plain subprocess, for debugging only). It holds
no backend logic: watching a run (output capture, timeout, dump, kill) is
``runners.engine.supervisor``'s, shared with builds, so that "what is captured,
what is dropped, what counts as the dump" means the same everywhere.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from signal import SIGXCPU
from typing import Protocol, runtime_checkable

KiB = 1024
MiB = 1024 * KiB

# What a program sees when the caller's env does not say otherwise: a PATH that
# finds the usual tools, and a HOME it may write to (uid 65534's passwd entry
# points at /nonexistent, and the JVM and Go's build cache look at HOME).
DEFAULT_ENV: Mapping[str, str] = {
    "PATH": "/usr/local/bin:/usr/bin:/bin",
    "HOME": "/tmp",
    "LANG": "C.UTF-8",
}


# Given the program's pid as the host sees it, the argv that prints its dump.
DumpCommand = Callable[[int], Sequence[str]]


class SandboxError(RuntimeError):
    """The sandbox could not run the program as asked (bad bind, missing
    executable, the sandbox itself failed). Never a verdict about the program."""


class SandboxUnavailable(SandboxError):
    """The backend cannot work on this machine; ``reason`` says why.

    Raised instead of silently running without containment."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class BlockedHook:
    """What to call, once, when a run has been blocked for `after_s` (Limits.blocked)."""

    after_s: float
    call: Callable[[], None]


@dataclass(frozen=True)
class Limits:
    """Resource limits of one run.

    ``memory_bytes`` is RLIMIT_DATA per process for the local backend (RLIMIT_AS
    would break Go and the JVM, which reserve far more address space than they
    use) and the container's memory limit for docker. ``max_procs`` counts
    processes *and threads* (a JVM needs about 40). ``cpu_s`` is CPU time per
    process; None means ``timeout_s`` times the number of CPUs, plus one, so that
    it can only catch what the wall-clock timeout would catch later anyway and
    never cuts a legitimately parallel program short. ``cpus`` is the container's
    CPU share (docker only: the local backend limits CPU time, not share).
    ``tmp_bytes`` sizes the private /tmp, the only writable place. Output beyond
    ``output_bytes`` per stream is read and dropped; a dump (see
    :meth:`Sandbox.run`) keeps up to ``dump_bytes``, collected for at most
    ``dump_grace_s`` seconds. ``quiet_s``: when set, a run whose processes have
    used (almost) no CPU time and had no thread running or runnable for that
    long is hung already: it is treated as timed out then (dump included),
    instead of waiting out ``timeout_s`` (backends that cannot watch the
    processes' CPU time ignore it; a livelock spins, so it still waits).
    ``quiet_witness``: watch as ``quiet_s`` says, but only note when the run
    went quiet (``SandboxResult.quiet_at_s``) and let it go on to ``timeout_s``:
    a run that then ends by itself was no hang, which is how bench/false_hangs.py
    counts false hangs. ``batch_scheduling``: the program runs under SCHED_BATCH, so
    that its threads preempt one another at the scheduler's tick and never on a
    wake-up (the targets that ask for it say why: ``TargetSpec.batch_scheduling``).
    ``blocked``: with ``quiet_s``, told once when the run has been blocked for its
    ``after_s`` (shorter than ``quiet_s``), and the run goes on (backends that cannot
    watch never tell).
    """

    timeout_s: float = 30.0
    memory_bytes: int = 512 * MiB
    max_procs: int = 256
    max_file_bytes: int = 16 * MiB
    cpu_s: int | None = None
    output_bytes: int = 64 * KiB
    tmp_bytes: int = 64 * MiB
    cpus: float = 2.0
    dump_bytes: int = 1 * MiB
    dump_grace_s: float = 1.0
    quiet_s: float | None = None
    quiet_witness: bool = False
    batch_scheduling: bool = False
    blocked: BlockedHook | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        if self.quiet_s is not None and not self.quiet_s > 0:
            raise ValueError(f"quiet_s must be positive or None, not {self.quiet_s}")
        if self.quiet_witness and self.quiet_s is None:
            raise ValueError("quiet_witness needs quiet_s")
        if not self.timeout_s > 0:
            raise ValueError(f"timeout_s must be positive, not {self.timeout_s}")
        for name in ("memory_bytes", "max_procs", "max_file_bytes", "tmp_bytes"):
            if getattr(self, name) <= 0:
                raise ValueError(f"{name} must be positive, not {getattr(self, name)}")
        if self.cpu_s is not None and self.cpu_s <= 0:
            raise ValueError(f"cpu_s must be positive or None, not {self.cpu_s}")
        if self.output_bytes < 0 or self.dump_bytes < 0 or self.dump_grace_s < 0:
            raise ValueError("output_bytes, dump_bytes and dump_grace_s must not be negative")
        if not self.cpus > 0:
            raise ValueError(f"cpus must be positive, not {self.cpus}")

    @property
    def effective_cpu_s(self) -> int:
        if self.cpu_s is not None:
            return self.cpu_s
        return math.ceil(self.timeout_s * (os.cpu_count() or 1)) + 1


def blocked_watch(limits: Limits) -> dict[str, object]:
    """A QuietWatch's keyword arguments for ``limits.blocked`` (none without one)."""
    hook = limits.blocked
    return {} if hook is None else {"blocked_s": hook.after_s, "on_blocked": hook.call}


@dataclass(frozen=True)
class Bind:
    """A host path made visible inside the sandbox at ``target`` (default: the
    same path), read-only unless ``writable``.

    Backends that drop privileges (all but ``none``) run the program as uid
    65534: the source must be readable (directories: searchable) by it.
    """

    source: str
    target: str | None = None
    writable: bool = False

    @property
    def dest(self) -> str:
        return self.target if self.target is not None else self.source

    def check(self) -> None:
        """Raise ValueError for paths no backend can bind."""
        if not os.path.isabs(self.source) or not os.path.isabs(self.dest):
            raise ValueError(f"bind paths must be absolute: {self.source} -> {self.dest}")
        if os.path.normpath(self.dest) == "/":
            raise ValueError("cannot bind over the sandbox's root")
        if not os.path.exists(self.source):
            raise ValueError(f"bind source does not exist: {self.source}")


@dataclass(frozen=True)
class SandboxResult:
    """How one run ended.

    ``exit_code`` / ``signal`` say how the program ended *on its own* (or in
    answer to the dump signal): exactly one of them is set then. Both are None
    when the sandbox had to kill it at the timeout. ``timed_out`` is True when
    the wall-clock timeout ran out, whatever happened next. ``stdout`` /
    ``stderr`` hold at most ``Limits.output_bytes`` bytes each (decoded as UTF-8,
    invalid bytes replaced) of what came *before* any dump signal; ``dump`` is
    everything (both streams, in arrival order) that came after it, or None
    when no dump signal was sent.
    """

    exit_code: int | None
    signal: int | None
    timed_out: bool
    duration_s: float
    stdout: str
    stderr: str
    stdout_truncated: bool
    stderr_truncated: bool
    dump: str | None
    backend: str
    # Timed out early: every process was blocked for Limits.quiet_s (see there).
    quiet: bool = False
    # Seconds from the start to when the run had been blocked for Limits.quiet_s,
    # whether that ended it or, with Limits.quiet_witness, it went on; None: never.
    quiet_at_s: float | None = None
    # CPU seconds the run's processes had used when the quiet watch last looked (at most
    # a quarter of a second before the run ended); None when no watch ran. A run that
    # timed out with this near its duration spun: a livelock, or a program too slow.
    cpu_s: float | None = None

    @property
    def ok(self) -> bool:
        """Exited 0 within the time limit."""
        return self.exit_code == 0 and not self.timed_out

    @property
    def out_of_time(self) -> bool:
        """Timed out, or killed by its CPU-time limit (SIGXCPU) first. That limit is set to
        catch only what the wall clock would catch later (Limits.cpu_s), so a run it stops
        spun through its time on every core, a wall-clock timeout delayed (a loaded
        machine): a livelock, not a crash."""
        return self.timed_out or self.signal == SIGXCPU


@runtime_checkable
class Sandbox(Protocol):
    """Runs one program contained and limited; see :class:`SandboxResult`."""

    name: str
    safe: bool  # False only for the "none" backend, which contains nothing

    def run(
        self,
        argv: Sequence[str],
        *,
        binds: Sequence[Bind] = (),
        workdir: str = "/tmp",
        env: Mapping[str, str] | None = None,
        limits: Limits | None = None,
        dump_signal: int | None = None,
        dump_command: DumpCommand | None = None,
    ) -> SandboxResult:
        """Run ``argv`` (``argv[0]`` as seen inside the sandbox) in ``workdir``.

        ``env`` is the program's whole environment, on top of
        :data:`DEFAULT_ENV`. On timeout, when ``dump_signal`` is set, that signal
        goes to the program first (SIGQUIT: Go prints its goroutines and exits,
        the JVM prints its threads and goes on); what it writes in the next
        ``limits.dump_grace_s`` seconds becomes ``dump``. A runtime that prints
        nothing on a signal is dumped from outside instead: ``dump_command(pid)``
        (the program's pid as this host sees it) gives an argv run then, e.g. a
        debugger printing every thread's stack, and its output becomes ``dump``.
        Then everything the run started is killed. Nothing of the run is left when this returns.

        Raises :class:`SandboxError` when the program could not be started at
        all (e.g. ``argv[0]`` missing inside the sandbox): that is never a
        verdict on the runtime under test.
        """
        ...


def program_env(env: Mapping[str, str] | None) -> dict[str, str]:
    """The environment a program gets: :data:`DEFAULT_ENV` overlaid with ``env``."""
    return {**DEFAULT_ENV, **(env or {})}

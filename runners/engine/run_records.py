"""What runs leave: each attempt at a program, the verdict on a program with the attempts
that led to it, and where a batch's time went (its stages), which the batch sizers and
bench/throughput.py read."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field

from runners.engine.verdicts import Classification, Outcome


@dataclass(frozen=True)
class Attempt:
    """One run of one program."""

    timeout_s: float
    outcome: Outcome
    exit_code: int | None
    signal: int | None
    timed_out: bool
    duration_s: float
    stdout: str
    stderr: str
    dump: str | None
    quiet: bool = False  # timed out early, every process blocked (Limits.quiet_s)
    threads: int | None = None  # the runtime threads it ran with, when a perturbed run chose
    # Programs that ran in the same process, one after another (1: alone). A shared run's
    # duration is its share: the run's time over the programs it ran.
    group: int = 1
    # CPU seconds it had used when the quiet watch last looked; None: not watched.
    cpu_s: float | None = None


@dataclass(frozen=True)
class ProgramRun:
    """The verdict on one program, with every attempt that led to it."""

    index: int
    classification: Classification
    attempts: tuple[Attempt, ...] = ()
    compile_output: str = ""
    hang_confirmed: bool | None = None  # None unless the first attempt timed out and re-ran
    # The runs this verdict took: the clean ones before it (Triage.runs) and its own.
    runs: int = 1

    @property
    def outcome(self) -> Outcome:
        return self.classification.outcome


@dataclass
class Stages:
    """Where a batch's time went, in seconds: rendering its source, compiling it (of which
    `compiler_start_s` started a compiler kept running for the batches after it too), the
    sandboxed runs (start-up and running together: bench/throughput.py tells them
    apart), and reading their verdicts; `runs` counts the runs, re-runs included."""

    render_s: float = 0.0
    compile_s: float = 0.0
    compiler_start_s: float = 0.0
    run_s: float = 0.0
    verdict_s: float = 0.0
    runs: int = 0
    # Of run_s, the batch's wait at its end for programs set aside (a quiet hang's own run
    # and re-runs): one hang's length a batch, however many programs it holds, so the batch
    # sizers count it with the compile's fixed cost, not per program.
    waited_s: float = 0.0
    # The same wait where the caller handed it to other work (on_waiting: fuzz's next
    # batch, a campaign's next chunk): no time of the batch's, not in run_s, but a fixed
    # cost to the sizers all the same (sizing_wait_s).
    handed_s: float = 0.0
    # Of run_s, runs their time limit cut, not a quiet period (a spin, a program too slow;
    # without a quiet watch any hang), with their re-runs' wall time (they go at once,
    # after the run or, for a program set aside, beside it), wherever in the batch they
    # ran: SPEC §9's full limit and longer re-runs, which no batching shortens
    # (bench/throughput.py shows this time apart).
    out_of_time_s: float = 0.0
    # A program's re-runs go at once (run_alone.run_one): their threads add to the same stages.
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    def add_run(self, run_s: float, verdict_s: float) -> None:
        """Count one run that took `run_s` and whose verdict took `verdict_s`."""
        with self._lock:
            self.run_s += run_s
            self.verdict_s += verdict_s
            self.runs += 1

    @property
    def sizing_compile_s(self) -> float:
        """The compile time the batch's size answers for: rendering and compiling, less a
        compiler server's start, which serves the batches after it too (it made Clojure's
        first batch of 25 slower than the next of 50, a line of no per-program cost)."""
        return self.render_s + self.compile_s - self.compiler_start_s

    @property
    def sizing_run_s(self) -> float:
        """The runs' time the batch's size answers for: run_s, and a wait at the end handed
        to other work (its hung programs' runs, under way then)."""
        return self.run_s + self.handed_s

    @property
    def sizing_wait_s(self) -> float:
        """Of sizing_run_s, the wait at the batch's end for programs set aside, whether the
        batch waited it or handed it to other work. Handed, it costs no wall time, yet the
        batches it left small cost more: fuzz on flume (one core, 600 programs, the same
        seeds), its batches sized without handed waits, made batches of 40-120 programs and
        took 23.9-26.1 s, the core idle 11.4 of 24.9 s (within the batches' runs: each batch
        started as the one before went to wait); sized with them, batches of 25, 50, 50 and
        475, 16.8-18.5 s; fixed batches of 300, 15.6-17.5 s, the core idle 4.4 of 17.3 s.
        Why a small batch's runs leave the core idle more was not pinned down: spreading
        its programs over the target's lanes (shared_runs_at_once) did not help."""
        return self.waited_s + self.handed_s


Progress = Callable[[ProgramRun], None]

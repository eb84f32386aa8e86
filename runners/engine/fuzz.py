"""A fuzzing run without a queue: generate, execute in batches, group findings.

This module owns the in-process fuzz loop and its summary (`FuzzSummary`, with
a `FuzzFinding` per signature; the database's findings are
`runners.campaigns.models.Finding`). `fuzz()` is what `manage.py fuzz` calls;
campaigns through RQ reuse the same pieces (generate_program, execute_batch)
per chunk. Program i of a run has seed `seed + i`, so a finding is reproduced
from its seed, the settings and the target alone.
"""

from __future__ import annotations

import functools
import queue
import shutil
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from generator.pipeline import Generated, generate_program
from generator.settings import GeneratorSettings
from runners.engine.batching import BatchSizer
from runners.engine.build import scratch
from runners.engine.execute import BatchReport, execute_batch
from runners.engine.run_alone import DEFAULT_TRIAGE, Triage
from runners.engine.run_records import ProgramRun
from runners.engine.run_target import RunTarget
from runners.engine.sandbox import Limits, Sandbox
from runners.engine.shared_runs import SharedRunSize
from runners.engine.verdicts import Outcome

MAX_JOBS = 64  # batches under way at once; each holds a compile or a run


class _Stopped(Exception):
    """Raised in a batch's result callback once the run has stopped: ends the batch."""


@dataclass
class FuzzFinding:
    """Programs whose runs share one signature: one bug, however many programs show it."""

    signature: str
    outcome: Outcome
    reason: str
    seeds: list[int] = field(default_factory=list)
    confirmed_hangs: int = 0


@dataclass
class FuzzSummary:
    target: str
    count: int = 0
    skipped: int = 0  # programs the target's language cannot express
    seconds: float = 0.0
    compile_s: float = 0.0
    # Runs their time limit cut while they used a core, and their re-runs
    # (Stages.out_of_time_s): a spin's SPEC §9 triage, often most of a run's time.
    out_of_time_s: float = 0.0
    outcomes: Counter[Outcome] = field(default_factory=Counter)
    findings: dict[str, FuzzFinding] = field(default_factory=dict)
    errors: list[tuple[int, Outcome, str]] = field(default_factory=list)  # compile/infra
    # When the first finding came: seconds since the run started (generation and
    # compiling included) and how many programs had run by then.
    first_finding_s: float | None = None
    first_finding_programs: int | None = None
    stopped_early: bool = False
    batch_sizes: list[int] = field(default_factory=list)  # in the order they were made

    @property
    def per_minute(self) -> float:
        return 60 * self.count / self.seconds if self.seconds else 0.0

    def record(self, generated: Generated, execution: ProgramRun, elapsed_s: float) -> None:
        self.count += 1
        verdict = execution.classification
        self.outcomes[verdict.outcome] += 1
        if verdict.is_finding:
            if self.first_finding_s is None:
                self.first_finding_s, self.first_finding_programs = elapsed_s, self.count
            finding = self.findings.setdefault(
                verdict.signature, FuzzFinding(verdict.signature, verdict.outcome, verdict.reason)
            )
            finding.seeds.append(generated.seed)
            finding.confirmed_hangs += bool(execution.hang_confirmed)
        elif verdict.outcome in (Outcome.COMPILE_ERROR, Outcome.INFRA_ERROR):
            detail = execution.compile_output or verdict.reason
            self.errors.append((generated.seed, verdict.outcome, detail[:2000]))


def fuzz(
    *,
    target: RunTarget,
    settings: GeneratorSettings,
    count: int,
    seed: int,
    sandbox: Sandbox,
    limits: Limits,
    batch_size: int | None = None,
    triage: Triage = DEFAULT_TRIAGE,
    workdir: Path | None = None,
    on_result: Callable[[Generated, ProgramRun], None] | None = None,
    stop_at_first: bool = False,
    stop_when: Callable[[Generated, ProgramRun], bool] | None = None,
    use_cache: bool = True,
    jobs: int = 1,
) -> FuzzSummary:
    """Run `count` generated programs (seeds seed, seed+1, …) on `target`.

    `stop_at_first` ends the run at the first finding, `stop_when` at the first
    result it accepts (time-to-bug figures; the summary's `seconds` and `count`
    are then those of the stop);
    `use_cache=False` compiles every batch even when the artifact cache has it,
    so a timing includes the compiles a first run on a fresh machine pays.
    `jobs` batches are under way at once, each compiling then running its
    programs one by one: a hang waits out its limit without using a core, and
    holds up only its own batch. `batch_size` None lets the measured costs of the
    batches so far choose each next one's size (runners.engine.batching); shared runs
    keep the size they grew to from batch to batch (runners.engine.execute). Results
    are recorded (and `on_result` called) in this thread as they come; with one
    job, in seed order, but for a program a shared run's quiet period cut: it runs
    alone beside its batch, and the next batch starts while its batch only waits for it
    (runners.engine.execute), so its verdict comes when its own run ends.
    """
    if not 1 <= jobs <= MAX_JOBS:
        raise ValueError(f"jobs must be from 1 to {MAX_JOBS}, not {jobs}")
    run = _FuzzRun(
        target=target,
        settings=settings,
        count=count,
        seed=seed,
        sizer=BatchSizer(high=target.spec.max_batch) if batch_size is None else None,
        batch_size=batch_size or 0,
        execute=functools.partial(
            execute_batch,
            target=target,
            sandbox=sandbox,
            limits=limits,
            triage=triage,
            use_cache=use_cache,
            shared_runs=SharedRunSize(),
        ),
        on_result=on_result,
        stop_at_first=stop_at_first,
        stop_when=stop_when,
    )
    with (
        scratch("chanfuzz-fuzz-") as tmp,
        ThreadPoolExecutor(max_workers=2 * jobs, thread_name_prefix="chanfuzz-batch") as pool,
    ):
        run.drive(pool, _batches_root(workdir or Path(tmp)), jobs)
    # Leaving the pool has waited for the batches: their time counts, unless
    # the run stopped early, whose time is that of the stop.
    return run.finish()


def _batches_root(root: Path) -> Path:
    # One build at a time per workdir (runners.engine.build): each batch gets
    # its own directory under this one.
    root.mkdir(parents=True, exist_ok=True)
    root.chmod(0o755)  # the sandbox's user reaches the batches' artifacts through it
    return root


class _FuzzRun:
    """One fuzz() run: the batches it generates, hands to the pool and records.

    Everything the batches tell the driving thread goes through one queue:
    ``(chunk, execution, recorded)`` per result, whose batch thread waits for
    ``recorded`` and so learns of a stop before it starts another run; and each
    batch's future when the batch ends. Only the driving thread records.
    """

    def __init__(
        self,
        *,
        target: RunTarget,
        settings: GeneratorSettings,
        count: int,
        seed: int,
        batch_size: int,
        sizer: BatchSizer | None,
        execute: Callable[..., BatchReport],
        on_result: Callable[[Generated, ProgramRun], None] | None,
        stop_at_first: bool,
        stop_when: Callable[[Generated, ProgramRun], bool] | None,
    ) -> None:
        self._target = target
        self._settings = settings
        self._count = count
        self._seed = seed
        self._batch_size = batch_size
        self._sizer = sizer
        self._execute = execute
        self._on_result = on_result
        self._stop_at_first = stop_at_first
        self._stop_when = stop_when
        self.summary = FuzzSummary(target.label)
        self._start = time.perf_counter()
        self._results: queue.Queue[Any] = queue.Queue()
        self._stopping = threading.Event()

    # --- in the driving thread ------------------------------------------------------

    def drive(self, pool: ThreadPoolExecutor, root: Path, jobs: int) -> None:
        """Keep `jobs` batches under way and record their results until all are done.
        A batch that only waits for hung programs beside it (execute_batch's
        `on_waiting`) is not under way: the next starts then, up to `jobs` such
        batches besides (the pool's threads)."""
        pending = enumerate(self._batches())
        running: dict[Future[BatchReport], Path] = {}
        waiting: set[Path] = set()  # the build dirs of batches that only wait
        exhausted = False

        def fill() -> None:
            nonlocal exhausted
            while not exhausted and not self._stopping.is_set():
                under_way = sum(d not in waiting for d in running.values())
                if under_way >= jobs or len(running) >= 2 * jobs:
                    return
                n, chunk = next(pending, (None, None))
                if chunk is None:
                    exhausted = True
                    return
                build_dir = root / f"batch-{n}"
                future = pool.submit(self._run_batch, chunk, build_dir)
                running[future] = build_dir
                future.add_done_callback(self._results.put)

        try:
            fill()
            while running:
                item = self._results.get()
                if isinstance(item, Future):
                    build_dir = running.pop(item)
                    waiting.discard(build_dir)
                    self._batch_done(item, build_dir)
                    fill()
                    continue
                if isinstance(item, Path):  # that batch only waits now
                    waiting.add(item)
                    fill()
                    continue
                chunk, execution, recorded = item
                if not self._stopping.is_set():
                    self._record(chunk, execution)
                recorded.set()
        finally:
            # An error here or in a batch, or a stop: the other batches end
            # after their current run, and leaving the pool waits for them.
            self._stopping.set()

    def finish(self) -> FuzzSummary:
        if not self.summary.stopped_early:
            self.summary.seconds = time.perf_counter() - self._start
        return self.summary

    def _batches(self) -> Iterator[list[Generated]]:
        """Chunks of programs the target can express, seed after seed: `batch_size`
        each, or as many as the sizer asks when the chunk is made (it has learnt from
        the batches done by then)."""
        options = dict(self._target.render_options)
        next_seed = self._seed
        first = 0
        while first < self._count:
            left = self._count - first
            size = self._sizer.size_for(left) if self._sizer else min(self._batch_size, left)
            self.summary.batch_sizes.append(size)
            first += size
            chunk: list[Generated] = []
            while len(chunk) < size:
                generated = generate_program(
                    next_seed, self._settings, self._target.spec.capabilities
                )
                next_seed += 1
                if self._target.spec.supports(generated.program, **options):
                    chunk.append(generated)
                else:
                    self.summary.skipped += 1
            yield chunk

    def _batch_done(self, future: Future[BatchReport], build_dir: Path) -> None:
        shutil.rmtree(build_dir, ignore_errors=True)
        report = future.result()  # a batch's error, raised
        self.summary.compile_s += report.compile_s
        self.summary.out_of_time_s += report.stages.out_of_time_s
        if self._sizer is not None:
            self._sizer.observe(len(report.executions), report.stages)

    def _record(self, chunk: list[Generated], execution: ProgramRun) -> None:
        generated = chunk[execution.index]
        self.summary.record(generated, execution, time.perf_counter() - self._start)
        if self._on_result:
            self._on_result(generated, execution)
        if self._should_stop(generated, execution):
            self.summary.seconds = time.perf_counter() - self._start
            self.summary.stopped_early = True
            self._stopping.set()

    def _should_stop(self, generated: Generated, execution: ProgramRun) -> bool:
        if self._stop_at_first and self.summary.findings:
            return True
        return self._stop_when is not None and self._stop_when(generated, execution)

    # --- in a batch's thread --------------------------------------------------------

    def _run_batch(self, chunk: list[Generated], build_dir: Path) -> BatchReport:
        report = BatchReport()
        try:
            return self._execute(
                [g.program for g in chunk],
                workdir=build_dir,
                render_seed=chunk[0].seed if chunk else 0,
                on_result=lambda execution: self._forward(chunk, execution),
                on_waiting=lambda: self._waiting(build_dir),
                report=report,
            )
        except _Stopped:
            return report  # what the batch cost until the run stopped: its compile

    def _waiting(self, build_dir: Path) -> bool:
        """Tell the driving thread that this batch only waits now: it starts the next."""
        self._results.put(build_dir)
        return True

    def _forward(self, chunk: list[Generated], execution: ProgramRun) -> None:
        """Hand one result to the driving thread; wait until it is recorded or the run stops."""
        recorded = threading.Event()
        self._results.put((chunk, execution, recorded))
        while not (recorded.is_set() or self._stopping.is_set()):
            recorded.wait(0.05)
        if self._stopping.is_set():
            raise _Stopped

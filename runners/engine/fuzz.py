"""A fuzzing run without a queue: generate, execute in batches, group findings.

`fuzz()` is what `manage.py fuzz` calls; campaigns through RQ reuse the same
pieces (generate_program, execute_batch) per chunk. Program i of a run has seed
`seed + i`, so a finding is reproduced from its seed, the settings and the
target alone.
"""

from __future__ import annotations

import queue
import shutil
import tempfile
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
from runners.engine.execute import (
    DEFAULT_TRIAGE,
    BatchReport,
    ProgramRun,
    Target,
    Triage,
    execute_batch,
)
from runners.engine.sandbox import Limits, Sandbox
from runners.engine.verdicts import Outcome

MAX_JOBS = 64  # batches under way at once; each holds a compile or a run


class _Stopped(Exception):
    """Raised in a batch's result callback once the run has stopped: ends the batch."""


@dataclass
class Finding:
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
    outcomes: Counter[Outcome] = field(default_factory=Counter)
    findings: dict[str, Finding] = field(default_factory=dict)
    errors: list[tuple[int, Outcome, str]] = field(default_factory=list)  # compile/infra
    # When the first finding came: seconds since the run started (generation and
    # compiling included) and how many programs had run by then.
    first_finding_s: float | None = None
    first_finding_programs: int | None = None
    stopped_early: bool = False

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
                verdict.signature, Finding(verdict.signature, verdict.outcome, verdict.reason)
            )
            finding.seeds.append(generated.seed)
            finding.confirmed_hangs += bool(execution.hang_confirmed)
        elif verdict.outcome in (Outcome.COMPILE_ERROR, Outcome.INFRA_ERROR):
            detail = execution.compile_output or verdict.reason
            self.errors.append((generated.seed, verdict.outcome, detail[:2000]))


def fuzz(
    *,
    target: Target,
    settings: GeneratorSettings,
    count: int,
    seed: int,
    sandbox: Sandbox,
    limits: Limits,
    batch_size: int = 50,
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
    holds up only its own batch. Results are recorded (and `on_result` called)
    in this thread as they come; with one job, in seed order.
    """
    if not 1 <= jobs <= MAX_JOBS:
        raise ValueError(f"jobs must be from 1 to {MAX_JOBS}, not {jobs}")
    summary = FuzzSummary(target.label)
    options = dict(target.render_options)
    start = time.perf_counter()
    # Everything the batches tell this thread, in one queue: (batch, execution,
    # recorded) per result, whose thread waits for `recorded` and so learns of a
    # stop before it starts another run; and each batch's future when it ends.
    results: queue.Queue[Any] = queue.Queue()
    stopping = threading.Event()

    def batches() -> Iterator[list[Generated]]:
        next_seed = seed
        for first in range(0, count, batch_size):
            chunk: list[Generated] = []
            while len(chunk) < min(batch_size, count - first):
                generated = generate_program(next_seed, settings, target.spec.capabilities)
                next_seed += 1
                if target.spec.supports(generated.program, **options):
                    chunk.append(generated)
                else:
                    summary.skipped += 1
            yield chunk

    def run_batch(chunk: list[Generated], build_dir: Path) -> BatchReport:
        def forward(execution: ProgramRun) -> None:
            recorded = threading.Event()
            results.put((chunk, execution, recorded))
            while not (recorded.is_set() or stopping.is_set()):
                recorded.wait(0.05)
            if stopping.is_set():
                raise _Stopped

        try:
            return execute_batch(
                [g.program for g in chunk],
                target,
                workdir=build_dir,
                sandbox=sandbox,
                limits=limits,
                render_seed=chunk[0].seed if chunk else 0,
                triage=triage,
                on_result=forward,
                use_cache=use_cache,
            )
        except _Stopped:
            return BatchReport()

    def record(chunk: list[Generated], execution: ProgramRun) -> None:
        generated = chunk[execution.index]
        summary.record(generated, execution, time.perf_counter() - start)
        if on_result:
            on_result(generated, execution)
        if (stop_at_first and summary.findings) or (
            stop_when is not None and stop_when(generated, execution)
        ):
            summary.seconds = time.perf_counter() - start
            summary.stopped_early = True
            stopping.set()

    with (
        tempfile.TemporaryDirectory(prefix="chanfuzz-fuzz-") as tmp,
        ThreadPoolExecutor(max_workers=jobs, thread_name_prefix="chanfuzz-batch") as pool,
    ):
        # One build at a time per workdir (runners.engine.build): each batch gets its own.
        root = workdir or Path(tmp)
        root.mkdir(parents=True, exist_ok=True)
        root.chmod(0o755)  # the sandbox's user reaches the batches' artifacts through it
        pending = enumerate(batches())
        running: dict[Future[BatchReport], Path] = {}

        def submit_next() -> None:
            n, chunk = next(pending, (None, None))
            if chunk is not None:
                build_dir = root / f"batch-{n}"
                future = pool.submit(run_batch, chunk, build_dir)
                running[future] = build_dir
                future.add_done_callback(results.put)

        try:
            for _ in range(jobs):
                submit_next()
            while running:
                item = results.get()
                if isinstance(item, Future):
                    shutil.rmtree(running.pop(item), ignore_errors=True)
                    summary.compile_s += item.result().compile_s  # a batch's error, raised
                    if not stopping.is_set():
                        submit_next()
                    continue
                chunk, execution, recorded = item
                if not stopping.is_set():
                    record(chunk, execution)
                recorded.set()
        finally:
            # An error here or in a batch, or a stop: the other batches end after
            # their current run, and leaving the pool waits for them.
            stopping.set()
    if not summary.stopped_early:
        summary.seconds = time.perf_counter() - start
    return summary

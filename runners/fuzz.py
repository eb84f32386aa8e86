"""A fuzzing run without a queue: generate, execute in batches, group findings.

`fuzz()` is what `manage.py fuzz` calls; campaigns through RQ reuse the same
pieces (generate_program, execute_batch) per chunk. Program i of a run has seed
`seed + i`, so a finding is reproduced from its seed, the settings and the
target alone.
"""

from __future__ import annotations

import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from generator.pipeline import Generated, generate_program
from generator.render import supports
from generator.settings import GeneratorSettings
from runners.execute import DEFAULT_TRIAGE, Execution, Target, Triage, execute_batch
from runners.sandbox import Limits, Sandbox
from runners.verdicts import Outcome


class _FirstFinding(Exception):
    """Raised from the result callback to end a stop-at-first run mid-batch."""


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

    def record(self, generated: Generated, execution: Execution, elapsed_s: float) -> None:
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
    on_result: Callable[[Generated, Execution], None] | None = None,
    stop_at_first: bool = False,
    stop_when: Callable[[Generated, Execution], bool] | None = None,
    use_cache: bool = True,
) -> FuzzSummary:
    """Run `count` generated programs (seeds seed, seed+1, …) on `target`.

    `stop_at_first` ends the run at the first finding, `stop_when` at the first
    result it accepts (time-to-bug figures; the summary's `seconds` and `count`
    are then those of the stop);
    `use_cache=False` compiles every batch even when the artifact cache has it,
    so a timing includes the compiles a first run on a fresh machine pays.
    """
    summary = FuzzSummary(target.label)
    options = dict(target.render_options)
    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="chanfuzz-fuzz-") as tmp:
        build_dir = workdir or Path(tmp)
        next_seed = seed
        for first in range(0, count, batch_size):
            chunk: list[Generated] = []
            while len(chunk) < min(batch_size, count - first):
                generated = generate_program(next_seed, settings)
                next_seed += 1
                if supports(generated.program, target.language, **options):
                    chunk.append(generated)
                else:
                    summary.skipped += 1

            def record(execution: Execution, chunk: list[Generated] = chunk) -> None:
                generated = chunk[execution.index]
                summary.record(generated, execution, time.perf_counter() - start)
                if on_result:
                    on_result(generated, execution)
                if (stop_at_first and summary.findings) or (
                    stop_when is not None and stop_when(generated, execution)
                ):
                    raise _FirstFinding

            try:
                report = execute_batch(
                    [g.program for g in chunk],
                    target,
                    workdir=build_dir,
                    sandbox=sandbox,
                    limits=limits,
                    render_seed=chunk[0].seed if chunk else 0,
                    triage=triage,
                    on_result=record,
                    use_cache=use_cache,
                )
            except _FirstFinding:
                summary.stopped_early = True
                break
            summary.compile_s += report.compile_s
    summary.seconds = time.perf_counter() - start
    return summary

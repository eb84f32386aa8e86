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

    @property
    def per_minute(self) -> float:
        return 60 * self.count / self.seconds if self.seconds else 0.0

    def record(self, generated: Generated, execution: Execution) -> None:
        self.count += 1
        verdict = execution.classification
        self.outcomes[verdict.outcome] += 1
        if verdict.is_finding:
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
) -> FuzzSummary:
    """Run `count` generated programs (seeds seed, seed+1, …) on `target`."""
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
                summary.record(generated, execution)
                if on_result:
                    on_result(generated, execution)

            report = execute_batch(
                [g.program for g in chunk],
                target,
                workdir=build_dir,
                sandbox=sandbox,
                limits=limits,
                render_seed=chunk[0].seed if chunk else 0,
                triage=triage,
                on_result=record,
            )
            summary.compile_s += report.compile_s
    summary.seconds = time.perf_counter() - start
    return summary

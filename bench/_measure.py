"""Shared by the throughput benchmarks: naive (one compile per program) vs batched runs.

Both ways go through runners.engine.execute with the same sandbox and the artifact
cache off, so the only difference is how many programs share a compile.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from generator.pipeline import generate_program  # noqa: E402
from generator.settings import settings_for  # noqa: E402
from runners.engine.execute import execute_batch, make_target  # noqa: E402
from runners.engine.sandbox import Limits, get_sandbox  # noqa: E402
from runners.engine.verdicts import Outcome  # noqa: E402
from runners.targets import get_target  # noqa: E402


@dataclass(frozen=True)
class Rate:
    programs: int
    seconds: float
    compile_s: float
    all_terminated: bool

    @property
    def per_minute(self) -> float:
        return 60 * self.programs / self.seconds


def pin_to_one_core() -> None:
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})


def programs(language: str, count: int, first_seed: int, options: dict) -> list:
    """`count` programs of heuristic A generated for what `language` can express."""
    spec = get_target(language)
    settings = settings_for("A")
    result = []
    seed = first_seed
    while len(result) < count:
        g = generate_program(seed, settings, spec.capabilities)
        if spec.supports(g.program, **options):
            result.append(g.program)
        seed += 1
    return result


def measure(
    language: str, *, naive: int, batched: int, batch_size: int, sandbox: str, repetitions: int
) -> tuple[Rate, Rate]:
    # The configuration `manage.py fuzz` runs (Kotlin on its thread pool included).
    target = make_target(language, repetitions=repetitions)
    options = dict(target.render_options)
    box = get_sandbox(sandbox)
    limits = Limits(timeout_s=30)
    rates = []
    # Distinct seeds for the two ways, so neither reuses the other's compiles.
    for count, size, first_seed in ((naive, 1, 10_000), (batched, batch_size, 20_000)):
        progs = programs(language, count, first_seed, options)
        with tempfile.TemporaryDirectory(prefix="chanfuzz-bench-") as tmp:
            os.chmod(tmp, 0o755)  # the sandbox runs programs as an unprivileged user
            start = time.perf_counter()
            compile_s = 0.0
            ok = True
            for i in range(0, count, size):
                report = execute_batch(
                    progs[i : i + size],
                    target,
                    workdir=Path(tmp),
                    sandbox=box,
                    limits=limits,
                    use_cache=False,
                )
                compile_s += report.compile_s
                for e in report.executions:
                    if e.outcome is not Outcome.TERMINATED:
                        ok = False
                        print(f"  {language}: {e.outcome}: {e.classification.reason[:300]}")
            rates.append(Rate(count, time.perf_counter() - start, compile_s, ok))
    return rates[0], rates[1]


def report(languages: list[str], **kwargs: object) -> None:
    print(
        f"{'language':9} {'naive/min':>10} {'(compile s)':>12} {'batched/min':>12} "
        f"{'(compile s)':>12} {'speed-up':>9} {'all exit 0':>10}"
    )
    for language in languages:
        naive, batched = measure(language, **kwargs)  # type: ignore[arg-type]
        print(
            f"{language:9} {naive.per_minute:10.0f} {naive.compile_s:12.1f} "
            f"{batched.per_minute:12.0f} {batched.compile_s:12.1f} "
            f"{batched.per_minute / naive.per_minute:8.1f}x "
            f"{'yes' if naive.all_terminated and batched.all_terminated else 'NO':>10}"
        )

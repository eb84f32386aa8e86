"""Time to the first kotlinx.coroutines#504 overflow on 0.19, as the Kotlin report's `first`
step measures it, with Kotlin programs sharing a JVM (the default) and each alone.

    python bench/kotlin_first_overflow.py [--trials 5] [--jobs 2]

The report's settings (runners/kotlin_study/report.py `ReportPlan`): heuristic E, 1,000
repetitions a run, a 30 s limit, batches of 10, `--jobs` batches under way at once,
compiling everything, stopped at the first select overflow, each trial from a fresh seed
range. Each trial runs both ways on the same seeds, alternating which goes first; prints
seconds and programs per trial, then the medians. Issue #18 item 4 aims at a median under
5 s (10.1 s with programs alone, 2 jobs, in the report). A figure, not an assertion.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "chanfuzz_site.settings")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=5)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    import django

    django.setup()
    from runners.engine.sandbox import get_sandbox
    from runners.kotlin_study.report import ReportPlan, first_finding_trials

    sandbox = get_sandbox("local", language="kotlin")
    plan = replace(ReportPlan(), first_trials=1, first_jobs=args.jobs)
    print(f"kotlinx.coroutines {plan.release}, heuristic {plan.first_heuristic}, "
          f"{plan.repetitions} repetitions, {args.jobs} jobs, {args.trials} trials")  # fmt: skip
    ways = {"alone": "1", "shared": ""}
    results: dict[str, list[tuple[float, int, bool]]] = {name: [] for name in ways}
    for trial in range(args.trials):
        order = list(ways) if trial % 2 == 0 else list(reversed(ways))
        row = []
        for name in order:
            os.environ["CHANFUZZ_SHARED_RUN_SIZE"] = ways[name]
            # The report's seeds: trial n from 1,000,000 × (n + 1).
            trial_plan = replace(plan, first_seed=1_000_000 * (trial + 1))
            (t,) = first_finding_trials(trial_plan, sandbox=sandbox)
            results[name].append((t.seconds, t.programs, t.found))
            row.append(f"{name} {t.seconds:6.1f} s " + (f"@{t.programs}" if t.found else "none"))
        print(f"trial {trial + 1}: " + " | ".join(sorted(row)), flush=True)
    os.environ.pop("CHANFUZZ_SHARED_RUN_SIZE", None)
    for name, rows in results.items():
        print(
            f"{name}: median {statistics.median(r[0] for r in rows):.1f} s, "
            f"{statistics.median(r[1] for r in rows):.0f} programs, "
            f"found in {sum(r[2] for r in rows)} of {len(rows)}"
        )


if __name__ == "__main__":
    main()

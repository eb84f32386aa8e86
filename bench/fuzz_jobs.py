"""Fuzzing throughput with one batch at a time against several under way at once.

    python bench/fuzz_jobs.py [--lang kotlin] [--version 0.19] [--count 60] [--jobs 2]
                              [--heuristic E] [--repetitions 1000] [--timeout 30] [--rounds 2]

Runs `runners.engine.fuzz.fuzz` on the same seeds with `--jobs 1` and with `--jobs N`,
alternating, `--rounds` times each (artifact cache off, so every batch is
compiled), and prints programs per minute, how many hangs each run waited out,
and the ratio of the medians. Figures, not assertions: compare the ratio, which
one run on one machine gives, not the absolute numbers.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "chanfuzz_site.settings")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lang", default="kotlin")
    parser.add_argument("--version", default="0.19")
    parser.add_argument("--count", type=int, default=60)
    parser.add_argument("--batch-size", type=int, default=10)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--heuristic", default="E")
    parser.add_argument("--repetitions", type=int, default=1000)
    parser.add_argument("--timeout", type=float, default=30.0)
    parser.add_argument("--seed", type=int, default=7_000_000)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()

    import django

    django.setup()
    from generator.settings import settings_for
    from runners.engine.fuzz import fuzz
    from runners.engine.run_alone import Triage
    from runners.engine.run_target import make_target
    from runners.engine.sandbox import Limits, get_sandbox
    from runners.engine.verdicts import Outcome

    # "" (--version "") is the newest installed.
    target = make_target(args.lang, args.version or None, repetitions=args.repetitions)
    sandbox = get_sandbox()
    print(
        f"{target.label}: {args.count} programs of heuristic {args.heuristic} from seed "
        f"{args.seed}, batches of {args.batch_size}, {args.repetitions} repetitions, "
        f"{args.timeout:g} s limit, no re-runs, sandbox {sandbox.name}, {os.cpu_count()} cores"
    )
    rates: dict[int, list[float]] = {1: [], args.jobs: []}
    for round_no in range(1, args.rounds + 1):
        for jobs in rates:
            summary = fuzz(
                target=target,
                settings=settings_for(args.heuristic),
                count=args.count,
                seed=args.seed,
                sandbox=sandbox,
                limits=Limits(timeout_s=args.timeout),
                batch_size=args.batch_size,
                triage=Triage(retries=0),
                use_cache=False,
                jobs=jobs,
            )
            rates[jobs].append(summary.per_minute)
            print(
                f"  round {round_no}, jobs {jobs}: {summary.count} programs in "
                f"{summary.seconds:.1f} s = {summary.per_minute:.0f}/min "
                f"(hangs {summary.outcomes[Outcome.TIMEOUT]}, "
                f"crashes {summary.outcomes[Outcome.CRASH]}, compiling {summary.compile_s:.1f} s)"
            )
    one, many = statistics.median(rates[1]), statistics.median(rates[args.jobs])
    print(f"median programs/min: jobs 1 {one:.0f}, jobs {args.jobs} {many:.0f}")
    print(f"ratio jobs {args.jobs} / jobs 1: {many / one:.2f}×")


if __name__ == "__main__":
    main()

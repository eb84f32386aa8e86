"""Fuzzing throughput per core: naive (one compile per program, as the paper did) vs ours.

    python bench/throughput.py [--naive 10] [--batched 200] [--languages go,kotlin,crystal]

Pinned to one core. Both ways run the same kind of generated programs through
the same sandbox with the same verdict logic; "ours" compiles `--batch-size`
programs per compilation unit (artifact cache off, so nothing is free). The
figure the issue asks for is the speed-up column (target ≥ 10×).
"""

from __future__ import annotations

import argparse

from _measure import pin_to_one_core, report

BATCH_SIZES = {"go": 200, "crystal": 200, "kotlin": 200}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--naive", type=int, default=10)
    parser.add_argument("--batched", type=int, default=200)
    parser.add_argument("--repetitions", type=int, default=10)
    parser.add_argument("--languages", default="go,kotlin,crystal")
    parser.add_argument("--sandbox", default="local")
    args = parser.parse_args()
    pin_to_one_core()
    print(
        f"one core, sandbox {args.sandbox}, {args.repetitions} repetitions per program; "
        f"naive: {args.naive} programs, one compile each; "
        f"ours: {args.batched} programs, batches of {BATCH_SIZES}"
    )
    for language in args.languages.split(","):
        report(
            [language],
            naive=args.naive,
            batched=args.batched,
            batch_size=BATCH_SIZES.get(language, 100),
            sandbox=args.sandbox,
            repetitions=args.repetitions,
        )


if __name__ == "__main__":
    main()

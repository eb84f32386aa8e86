"""Programs per minute, naive vs batched, for each runnable language, in one run.

    python bench/render_run.py [--naive 10] [--batched 100] [--batch-size 50]
                               [--languages go,crystal,kotlin] [--one-core]

Naive: one compile per generated program, then its run (as the paper did).
Batched: one compile for `--batch-size` programs behind a dispatcher, then one
run each. Same generated programs' settings, same sandbox, artifact cache off.
"""

from __future__ import annotations

import argparse

from _measure import add_seed_option, fresh_seed, pin_to_one_core, report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--naive", type=int, default=10)
    parser.add_argument("--batched", type=int, default=100)
    parser.add_argument("--batch-size", type=int, default=50)
    parser.add_argument("--repetitions", type=int, default=1)
    parser.add_argument("--languages", default="go,crystal,kotlin")
    parser.add_argument("--sandbox", default="local")
    add_seed_option(parser)
    parser.add_argument("--one-core", action="store_true")
    args = parser.parse_args()
    seed = fresh_seed(args.seed)
    if args.one_core:
        pin_to_one_core()
    print(
        f"render + compile + run: naive {args.naive} programs, batched {args.batched} "
        f"in batches of {args.batch_size}, repetitions {args.repetitions}, "
        f"sandbox {args.sandbox}, {'one core' if args.one_core else 'all cores'}"
        f", seeds from {seed}"
    )
    report(
        args.languages.split(","),
        naive=args.naive,
        batched=args.batched,
        batch_size=args.batch_size,
        sandbox=args.sandbox,
        repetitions=args.repetitions,
        seed=seed,
    )


if __name__ == "__main__":
    main()

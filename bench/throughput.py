"""Fuzzing throughput per core: naive (one compile per program, as the paper did) vs ours.

    python bench/throughput.py [--naive 10] [--batched 200] [--languages go,kotlin,...]

Pinned to one core. Both ways run the same kind of generated programs through
the same sandbox with the same verdict logic; "ours" compiles `--batch-size`
programs per compilation unit (artifact cache off, so nothing is free). It prints
the speed-up of each target, then where each way's time goes, stage by stage
(generation, checking, rendering, compiling, start-up, running, verdicts, storing:
bench/_measure.py says how each is taken), so a speed-up that stays short shows the
stage that holds it back (issue #18).
"""

from __future__ import annotations

import argparse

from _measure import add_seed_option, fresh_seed, pin_to_one_core, report

from runners.targets import runnable_names

BATCH_SIZE = 200  # programs per compilation unit, for every target


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--naive", type=int, default=10)
    parser.add_argument("--batched", type=int, default=200)
    parser.add_argument("--repetitions", type=int, default=10)
    parser.add_argument(
        "--languages",
        default=",".join(runnable_names()),
        help="targets of the registry (default: every one that runs programs)",
    )
    parser.add_argument("--sandbox", default="local")
    add_seed_option(parser)
    parser.add_argument(
        "--hang-quiet", type=float, default=None,
        help="seconds with every thread blocked after which a run is hung (default: off)",
    )  # fmt: skip
    args = parser.parse_args()
    seed = fresh_seed(args.seed)
    pin_to_one_core()
    print(
        f"one core, sandbox {args.sandbox}, {args.repetitions} repetitions per program; "
        f"naive: {args.naive} programs, one compile each; "
        f"ours: {args.batched} programs, batches of {BATCH_SIZE}; seeds from {seed}"
    )
    report(
        args.languages.split(","),
        naive=args.naive,
        batched=args.batched,
        batch_size=BATCH_SIZE,
        sandbox=args.sandbox,
        repetitions=args.repetitions,
        seed=seed,
        hang_quiet_s=args.hang_quiet,
    )


if __name__ == "__main__":
    main()

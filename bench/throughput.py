"""Fuzzing throughput per core: naive (one compile per program, as the paper did) vs ours.

    python bench/throughput.py [--naive 10] [--batched 1000] [--batch-size N|auto]
                               [--languages go,kotlin,...]

Pinned to one core. Both ways run the same kind of generated programs through
the same sandbox with the same verdict logic; "ours" compiles many programs per
compilation unit (artifact cache off, so nothing is free): `--batch-size auto`, the
default, sizes each batch from the costs of those before it as `fuzz` does (the first
two are small, so take `--batched` large enough for the sizes to settle); a number
fixes the size. The naive loop starts a compiler for each program; ours hands its
batches to compilers kept running where a target has them (Kotlin's;
`CHANFUZZ_RESIDENT_COMPILERS=0` starts one per batch instead). It prints
the speed-up of each target, then where each way's time goes, stage by stage
(generation, checking, rendering, compiling, start-up, running, verdicts, storing:
bench/_measure.py says how each is taken) and the runs that ran out of their limit (a
spin's triage) apart, so a speed-up that stays short shows the stage that holds it back
(issue #18); and the speed-up without such runs, and with the naive loop's hangs as
frequent as ours met them, which a naive sample of tens of programs gets by chance.
`--fuzz` also runs as many programs through `fuzz`'s own loop, which starts its next
batch while one only waits for programs a quiet period set aside; ours, as above, waits
at each batch's end.
"""

from __future__ import annotations

import argparse

from _measure import add_seed_option, fresh_seed, pin_to_one_core, report

from runners.targets import runnable_names


def _batch_size(text: str) -> int | None:
    if text == "auto":
        return None
    size = int(text)
    if size < 1:
        raise argparse.ArgumentTypeError("a batch holds at least 1 program")
    return size


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--naive", type=int, default=10)
    parser.add_argument("--batched", type=int, default=1000)
    parser.add_argument(
        "--batch-size", type=_batch_size, default=None, metavar="N|auto",
        help="programs per compile for ours (default auto: sized from measured costs)",
    )  # fmt: skip
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
    parser.add_argument(
        "--fuzz", action="store_true",
        help="also run as many programs through fuzz's own loop (fresh seeds, one core)",
    )  # fmt: skip
    args = parser.parse_args()
    seed = fresh_seed(args.seed)
    pin_to_one_core()
    print(
        f"one core, sandbox {args.sandbox}, {args.repetitions} repetitions per program; "
        f"naive: {args.naive} programs, one compile each; "
        f"ours: {args.batched} programs, batches of {args.batch_size or 'measured size'}; "
        f"seeds from {seed}"
    )
    report(
        args.languages.split(","),
        naive=args.naive,
        batched=args.batched,
        batch_size=args.batch_size,
        sandbox=args.sandbox,
        repetitions=args.repetitions,
        seed=seed,
        hang_quiet_s=args.hang_quiet,
        with_fuzz=args.fuzz,
    )


if __name__ == "__main__":
    main()

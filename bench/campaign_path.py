"""Programs per minute on the campaign path (RQ, database writes) against `fuzz` (issue #18).

    python bench/campaign_path.py [--lang go] [--count 1000] [--heuristic A] [--workers 2]
                                  [--chunk-size 0] [--timeout 10] [--repetitions 10]
                                  [--hang-quiet 2] [--rounds 1]

Runs, in a fresh var directory of its own (SQLite, a private Redis), the same number of
programs of the same settings twice, alternating, `--rounds` times each, from fresh seeds
(a compiler's cache would serve a repeated run; `--seed` repeats one): with
`runners.engine.fuzz.fuzz` (`--workers` batches under way at once, batch sizes chosen
from measured costs) and as a campaign (chunks of `--chunk-size` through RQ, 0: each chunk
sized from what the earlier ones cost, as campaigns are by default; `--workers` workers,
every execution written to the database). The seeds differ (the artifact cache
would otherwise serve one run the other's batches; fuzz compiles every batch, with the
cache off), and each side is warmed first by a few programs so that neither pays for
a cold compiler cache. Prints programs per minute of each and their ratio. Figures, not
assertions: compare the ratio, which one run on one machine gives.

The campaign's time is from its creation to its last chunk done (queueing included:
what a user waits); its first chunk's start to its end is printed too.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

from _measure import add_seed_option, fresh_seed
from _site import fresh_site


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lang", default="go")
    parser.add_argument("--version", default="", help="toolchain version (default: newest)")
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--heuristic", default="A")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--chunk-size", type=int, default=0, help="0: sized from costs")
    parser.add_argument("--timeout", type=float, default=10.0)
    parser.add_argument("--hang-quiet", type=float, default=None)
    parser.add_argument("--repetitions", type=int, default=10)
    add_seed_option(parser)
    parser.add_argument("--rounds", type=int, default=1)
    args = parser.parse_args()
    args.seed = fresh_seed(args.seed)

    var = fresh_site("chanfuzz-bench-campaign-")  # before Django reads its settings
    from generator.settings import settings_for
    from runners.campaigns import services, studies
    from runners.campaigns.local_workers import local_workers
    from runners.engine.fuzz import fuzz
    from runners.engine.run_alone import Triage
    from runners.engine.run_target import make_target
    from runners.engine.sandbox import Limits, get_sandbox

    target = make_target(args.lang, args.version or None, repetitions=args.repetitions)
    sandbox = get_sandbox(language=args.lang)
    limits = Limits(timeout_s=args.timeout, quiet_s=args.hang_quiet)
    print(
        f"{target.label}: {args.count} programs of heuristic {args.heuristic}, "
        f"{args.repetitions} repetitions, {args.timeout:g} s limit, 2 re-runs of a hang, "
        f"{args.workers} at once, campaign chunks of {args.chunk_size or 'measured size'}, "
        f"sandbox {sandbox.name}, "
        f"{os.cpu_count()} cores, seeds from {args.seed}, var {var}"
    )

    def run_fuzz(seed: int, count: int, use_cache: bool) -> float:
        began = time.perf_counter()
        summary = fuzz(
            target=target,
            settings=settings_for(args.heuristic),
            count=count,
            seed=seed,
            sandbox=sandbox,
            limits=limits,
            jobs=args.workers,
            triage=Triage(retries=2),
            use_cache=use_cache,
        )
        if summary.errors:
            print(f"  fuzz: {len(summary.errors)} batch(es) with errors: {summary.errors[0]}")
        return time.perf_counter() - began

    def run_campaign(seed: int, count: int) -> tuple[float, float]:
        began = time.perf_counter()
        campaign = services.create_campaign(
            name=f"bench {seed}",
            heuristic=args.heuristic,
            targets=[(args.lang, args.version or None)],
            count=count,
            timeout_s=args.timeout,
            hang_quiet_s=args.hang_quiet,
            repetitions=args.repetitions,
            seed=seed,
            chunk_size=min(args.chunk_size, count),  # 0: sized from costs
            triage_retries=2,
        )
        studies.wait_for([campaign], poll_s=0.5)
        campaign.refresh_from_db()
        return time.perf_counter() - began, studies.campaign_seconds(campaign)

    fuzz_rates, campaign_rates = [], []
    with local_workers(args.workers):
        run_fuzz(args.seed - 1000, 10, use_cache=False)  # warm-up
        run_campaign(args.seed - 2000, 10)
        for round_no in range(1, args.rounds + 1):
            seed = args.seed + 2 * round_no * args.count
            fuzz_s = run_fuzz(seed, args.count, use_cache=False)
            wall_s, chunks_s = run_campaign(seed + args.count, args.count)
            fuzz_rates.append(60 * args.count / fuzz_s)
            campaign_rates.append(60 * args.count / wall_s)
            print(
                f"round {round_no}: fuzz {fuzz_s:.1f} s ({fuzz_rates[-1]:.0f}/min); campaign "
                f"{wall_s:.1f} s ({campaign_rates[-1]:.0f}/min; first chunk to last "
                f"{chunks_s:.1f} s)"
            )
    f, c = statistics.median(fuzz_rates), statistics.median(campaign_rates)
    print(f"median programs/min: fuzz {f:.0f}, campaign {c:.0f}: campaign/fuzz = {c / f:.2f}")


if __name__ == "__main__":
    main()

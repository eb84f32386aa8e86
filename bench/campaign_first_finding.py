"""Time to the first kotlinx.coroutines#504 overflow on the campaign path (issue #18).

    python bench/campaign_first_finding.py [--version 0.19] [--trials 5] [--workers 2]
                                           [--chunk-size 0] [--max-programs 300]
                                           [--hang-quiet SECONDS] [--runs 1]

Each trial is a campaign on the buggy release (heuristic E, 1,000 repetitions, a 30 s
limit, no re-runs of a hang: the Kotlin report's first-finding settings; with
`--hang-quiet`, a run blocked that long is a hang then; with `--runs N`, each program
runs up to N times, a JVM each, while it ends clean) from seeds no
trial used, through RQ workers that are already running and warmed by a small campaign
first: what a user waits for from "create" to the first overflow on the campaign's page,
compiling included (new seeds and an artifact cache of its own: no artifact is cached).
The trial's campaign is cancelled at its first overflow (or after `--max-programs`), and
the next starts once its chunks have stopped. Chunks are sized from measured costs unless
`--chunk-size` is given. The median comes with the interval that holds it with 95 %
confidence (bench/_stats.py): a race sets these times, and a few trials cannot tell a
change of a second or two from the race's spread.
Figures, not assertions.
"""

from __future__ import annotations

import argparse
import atexit
import math
import os
import shutil
import statistics
import tempfile
import time
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from _site import fresh_site
from _stats import describe

if TYPE_CHECKING:
    from runners.campaigns.models import Campaign, Execution

SETTINGS = {"heuristic": "E", "repetitions": 1000, "timeout_s": 30.0, "triage_retries": 0}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--version", default="0.19", help="kotlinx.coroutines release")
    parser.add_argument("--trials", type=int, default=5)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--chunk-size", type=int, default=0, help="0: sized from costs")
    parser.add_argument("--max-programs", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1_000_000)
    parser.add_argument(
        "--hang-quiet", type=float, default=None, metavar="SECONDS",
        help="declare a run hung once blocked this long (default: wait out the 30 s limit)",
    )  # fmt: skip
    parser.add_argument(
        "--runs", type=int, default=1,
        help="runs of each program, a JVM each, while it ends clean (Campaign.runs)",
    )  # fmt: skip
    args = parser.parse_args()

    var = fresh_site("chanfuzz-bench-first-")  # before Django reads its settings
    # An artifact cache of its own: a campaign's chunks use the cache, and a chunk of an
    # earlier run with the same seeds and bounds (every run's first chunks) would be free.
    # Not in `var`, which only its owner may enter: the sandbox's user runs the artifacts.
    cache = Path(tempfile.mkdtemp(prefix="chanfuzz-bench-cache-"))
    cache.chmod(0o755)
    # 70-90 MB of compiled trials that nothing reads afterwards (`var`, printed, stays).
    atexit.register(shutil.rmtree, cache, ignore_errors=True)
    os.environ["CHANFUZZ_CACHE_DIR"] = str(cache)
    from django.db.models import Sum
    from django.utils import timezone

    from runners.campaigns import services, studies
    from runners.campaigns.local_workers import local_workers
    from runners.campaigns.models import Chunk, Execution
    from runners.kotlin_study.report import is_select_overflow

    hangs = f"hung after {args.hang_quiet:g} s blocked" if args.hang_quiet else "no quiet period"
    print(
        f"kotlin {args.version}: heuristic E, 1000 repetitions, 30 s limit, no re-runs, "
        f"{hangs}, up to {args.runs} run(s) a program; {args.workers} workers, "
        f"chunks of {args.chunk_size or 'measured size'}, "
        f"at most {args.max_programs} programs a trial, var {var}"
    )

    def campaign(seed: int, count: int) -> object:
        return services.create_campaign(
            name=f"first finding {seed}", targets=[("kotlin", args.version)], count=count,
            seed=seed, chunk_size=args.chunk_size, hang_quiet_s=args.hang_quiet,
            runs=args.runs, **SETTINGS,
        )  # fmt: skip

    times: list[float] = []  # to the first overflow; a trial without one counts as infinite
    programs: list[int] = []  # recorded by then, in the trials with one
    with local_workers(args.workers):
        studies.wait_for([campaign(args.seed - 1000, 4)], poll_s=0.5)  # warm-up
        for trial in range(args.trials):
            seed = args.seed + trial * 1_000_000
            began = time.perf_counter()
            began_at = timezone.now()
            running = campaign(seed, args.max_programs)
            found = None
            while found is None:
                rows = Execution.objects.filter(campaign=running, finding__isnull=False)
                found = next(
                    (
                        e
                        for e in rows.only("signature", "index", "created_at", "duration_s")
                        if is_select_overflow(e.signature)
                    ),
                    None,
                )
                running.refresh_from_db()
                if found is None and not running.is_active:
                    break
                time.sleep(0.1)
            took = time.perf_counter() - began
            recorded = Execution.objects.filter(campaign=running)
            ran = recorded.count()
            processes = recorded.aggregate(n=Sum("runs"))["n"] or 0
            services.cancel_campaign(campaign=running)
            while Chunk.objects.filter(target__campaign=running, state="running").exists():
                time.sleep(0.2)
            if found is None:
                times.append(math.inf)
                print(f"trial {trial + 1} (seeds from {seed}): no overflow in {ran} programs, "
                      f"{took:.1f} s")  # fmt: skip
                continue
            times.append(took)
            programs.append(ran)
            print(f"trial {trial + 1} (seeds from {seed}): overflow after {took:.1f} s, "
                  f"{ran} programs recorded by then, {processes} runs (program {found.index}); "
                  f"{_where_time_went(running, found, began_at)}")  # fmt: skip
    if times:
        recorded = f", {statistics.median(programs):.0f} programs" if programs else ""
        print(f"overflow in {len(programs)} of {args.trials} trials: {describe(times)}{recorded}")


def _where_time_went(campaign: Campaign, found: Execution, began_at: datetime) -> str:
    """When the first chunk started, when the first verdict of any program was stored (a
    chunk's compile before it), how long the overflowing run took, and when its execution
    was stored, all from the trial's start: what a faster first finding must cut."""
    from runners.campaigns.models import Chunk, Execution

    starts = Chunk.objects.filter(target__campaign=campaign, started_at__isnull=False)
    first = min((c.started_at for c in starts), default=None)
    started = f"{(first - began_at).total_seconds():.1f} s" if first else "?"
    verdicts = Execution.objects.filter(campaign=campaign).order_by("created_at")
    first_verdict = verdicts.values_list("created_at", flat=True).first()
    verdict = f"{(first_verdict - began_at).total_seconds():.1f} s" if first_verdict else "?"
    stored = (found.created_at - began_at).total_seconds()
    took = f"{found.duration_s:.1f} s"
    return (
        f"first chunk started at {started}, first verdict stored at {verdict}, "
        f"the run took {took}, stored at {stored:.1f} s"
    )


if __name__ == "__main__":
    main()

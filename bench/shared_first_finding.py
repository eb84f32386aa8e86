"""Do shared runs find a bug sooner? Time to the first finding with programs sharing a
process (the default on Clojure and Racket) and with each program alone.

    python bench/shared_first_finding.py [--lang racket] [--version V] [--trials 5]
                                         [--count 300] [--heuristic E] [--seed 9000]

Each trial runs `manage.py fuzz --stop-at-first` twice on the same seeds, once with
`CHANFUZZ_SHARED_RUN_SIZE=1` (every program in a process of its own)
and once with the default, as bench/pct_first_finding.py does (artifact cache off,
hangs declared after 2 s blocked, the order alternating between trials). Prints each
trial's seconds and programs to the first finding (or "none" within `--count`), then the
medians, their ratio and each median's 95 % interval. Fewer process starts make each
program cheaper; whether a bug shows as often when programs share a runtime is what the
programs-to-first-finding column tells. A figure, not an assertion (issue #18).
"""

from __future__ import annotations

import math
import statistics

from _stats import describe
from pct_first_finding import first_finding, trial_parser


def main() -> None:
    parser = trial_parser(__doc__.splitlines()[0])
    parser.set_defaults(lang="racket", version="")  # the newest; a target that shares runs
    args = parser.parse_args()
    print(f"{args.lang} {args.version or '(newest)'}, heuristic {args.heuristic}, "
          f"{args.trials} trials of at most {args.count} programs")  # fmt: skip
    ways = {"alone": {"CHANFUZZ_SHARED_RUN_SIZE": "1"}, "shared": {}}
    times: dict[str, list[float]] = {name: [] for name in ways}
    # The same with no finding as infinite (`times` holds a lower bound): the intervals'.
    found: dict[str, list[float]] = {name: [] for name in ways}
    for trial in range(args.trials):
        seed = args.seed + trial * 100_000
        order = list(ways) if trial % 2 == 0 else list(reversed(ways))
        row = []
        for name in order:
            seconds, programs = first_finding(args, seed, None, ways[name])
            times[name].append(seconds)
            found[name].append(seconds if programs > 0 else math.inf)
            row.append(f"{name} {seconds:6.1f} s " + (f"@{programs}" if programs > 0 else "none"))
        print(f"trial {trial + 1} (seeds {seed}…): " + " | ".join(sorted(row)), flush=True)
    alone, shared = statistics.median(times["alone"]), statistics.median(times["shared"])
    print(f"median seconds to the first finding: alone {alone:.1f}, shared {shared:.1f}, "
          f"ratio shared/alone {shared / alone:.2f}")  # fmt: skip
    for name in found:
        print(f"{name}: {describe(found[name])}")


if __name__ == "__main__":
    main()

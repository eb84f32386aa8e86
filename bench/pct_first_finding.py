"""Does schedule perturbation find a bug sooner? Time to the first finding, with and without.

    python bench/pct_first_finding.py [--lang kotlin] [--version 0.19] [--depth 3]
                                      [--trials 5] [--count 300] [--heuristic E] [--seed 9000]

Each trial runs `manage.py fuzz --stop-at-first` twice on the same seeds, once plain and
once with `--pct-depth D`, one batch at a time, compiling everything (artifact cache
off), hangs declared after 2 s blocked; the two runs of a trial alternate which goes
first, so that a machine that gets busier favours neither. Prints each trial's seconds
and programs to the first finding (or "none" within `--count`), then the medians,
their ratio and the interval that holds each median with 95 % confidence. A figure, not
an assertion (issue #15 item 4).
"""

from __future__ import annotations

import argparse
import math
import os
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

from _stats import describe

REPO = Path(__file__).resolve().parents[1]
FIRST = re.compile(r"first\s+finding after ([\d.]+) s, at program (\d+)")


def first_finding(
    args: argparse.Namespace, seed: int, depth: int | None, env: dict[str, str] | None = None
) -> tuple[float, int]:
    """Seconds and programs to the first finding (wall time of the whole command when
    none was found: a lower bound); `env` adds to the command's environment."""
    argv = [
        sys.executable, "manage.py", "fuzz", "--lang", args.lang, "--count", str(args.count),
        "--heuristic", args.heuristic, "--seed", str(seed), "--stop-at-first", "--jobs", "1",
        "--batch-size", str(args.batch_size), "--timeout", "10", "--hang-quiet", "2",
        "--retries", "1", "--no-cache", "--no-progress",
    ]  # fmt: skip
    if args.version:
        argv += ["--version", args.version]
    if depth is not None:
        argv += ["--pct-depth", str(depth)]
    started = time.monotonic()
    done = subprocess.run(
        argv, cwd=REPO, capture_output=True, text=True, timeout=3600,
        env={**os.environ, **(env or {})},
    )  # fmt: skip
    found = FIRST.search(done.stdout)
    if found is None:
        return time.monotonic() - started, -1
    return float(found[1]), int(found[2])


def trial_parser(description: str) -> argparse.ArgumentParser:
    """The options of a first-finding trial (shared with bench/shared_first_finding.py)."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--lang", default="kotlin")
    parser.add_argument("--version", default="0.19")
    parser.add_argument("--trials", type=int, default=5)
    parser.add_argument("--count", type=int, default=300)
    parser.add_argument("--batch-size", type=int, default=25)
    parser.add_argument("--heuristic", default="E")
    parser.add_argument("--seed", type=int, default=9000)
    return parser


def main() -> None:
    parser = trial_parser(__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, default=3)
    args = parser.parse_args()
    print(f"{args.lang} {args.version}, heuristic {args.heuristic}, PCT depth {args.depth}, "
          f"{args.trials} trials of at most {args.count} programs")  # fmt: skip
    times: dict[str, list[float]] = {"plain": [], "pct": []}
    # The same with no finding as infinite (`times` holds a lower bound): the intervals'.
    found: dict[str, list[float]] = {"plain": [], "pct": []}
    for trial in range(args.trials):
        seed = args.seed + trial * 100_000
        order = [("plain", None), ("pct", args.depth)]
        if trial % 2:
            order.reverse()
        row = []
        for name, depth in order:
            seconds, programs = first_finding(args, seed, depth)
            times[name].append(seconds)
            found[name].append(seconds if programs > 0 else math.inf)
            row.append(f"{name} {seconds:6.1f} s " + (f"@{programs}" if programs > 0 else "none"))
        print(f"trial {trial + 1} (seeds {seed}…): " + " | ".join(sorted(row)))
    plain, pct = statistics.median(times["plain"]), statistics.median(times["pct"])
    print(f"median seconds to the first finding: plain {plain:.1f}, PCT {pct:.1f}, "
          f"ratio PCT/plain {pct / plain:.2f}")  # fmt: skip
    for name in found:
        print(f"{name}: {describe(found[name])}")


if __name__ == "__main__":
    main()

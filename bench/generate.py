"""Generation speed and termination-checker cost, per preset, on one core.

    python bench/generate.py [--count N] [--all-cores]

Prints, for each heuristic A–F: effects/s, whole programs/s (effect + λ_chan
synthesis), and the checker's p50/p99/max time and state counts over the same
programs, with how many it decided. Figures, not assertions: machines are noisy.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from generator.pipeline import generate_program  # noqa: E402
from generator.rules import generate_effect  # noqa: E402
from generator.settings import PRESETS  # noqa: E402
from generator.termination import check_effect  # noqa: E402


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=3000)
    parser.add_argument("--all-cores", action="store_true", help="do not pin to one core")
    args = parser.parse_args()
    if not args.all_cores and hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})
    n = args.count
    print(
        f"{n} programs per preset, default sizes, seeds 0..{n - 1}, "
        f"{'all cores' if args.all_cores else 'one core'}"
    )
    header = (
        f"{'preset':6} {'effects/s':>10} {'programs/s':>11} {'check p50':>10} {'p99':>9} "
        f"{'max':>9} {'states p50':>10} {'p99':>6} {'max':>6} {'decided':>9}"
    )
    print(header)
    for name, settings in PRESETS.items():
        start = time.perf_counter()
        for seed in range(n):
            generate_effect(random.Random(seed), settings)
        effects_per_s = n / (time.perf_counter() - start)
        start = time.perf_counter()
        generated = [generate_program(seed, settings) for seed in range(n)]
        programs_per_s = n / (time.perf_counter() - start)
        times: list[float] = []
        states: list[float] = []
        decided = 0
        for g in generated:
            t = time.perf_counter()
            verdict = check_effect(g.effect)
            times.append(time.perf_counter() - t)
            states.append(verdict.states)
            decided += verdict.terminating is not None
        print(
            f"{name:6} {effects_per_s:10.0f} {programs_per_s:11.0f} "
            f"{percentile(times, 0.5) * 1e3:8.2f}ms {percentile(times, 0.99) * 1e3:7.2f}ms "
            f"{max(times) * 1e3:7.1f}ms {percentile(states, 0.5):10.0f} "
            f"{percentile(states, 0.99):6.0f} {max(states):6.0f} {decided:>5}/{n}"
        )


if __name__ == "__main__":
    main()

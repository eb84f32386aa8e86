"""`manage.py sample --count N --heuristic H`: generate programs and check each one terminates.

A self-check of the generator and a rough speed measure: programs are made
from consecutive seeds, every effect goes through the termination checker, and
a summary gives throughput, the checker's state counts (p50/p99) and one
example. Exit status 1 when any generated program deadlocks (a generator bug:
they are terminating by construction), 3 when none does but some were left
undecided by the state limit, 2 on bad arguments, 0 otherwise.
"""

from __future__ import annotations

import math
import sys
import textwrap
import time
from collections.abc import Sequence
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from generator import effects
from generator.pipeline import generate_program
from generator.settings import PRESETS, settings_for
from generator.termination import check_effect

EXIT_DEADLOCK = 1
EXIT_BAD_INPUT = 2
EXIT_UNDECIDED = 3


def percentile(sorted_values: Sequence[int], q: float) -> int:
    """Nearest-rank percentile (q in 0..100) of an ascending, non-empty sequence."""
    rank = max(1, math.ceil(q / 100 * len(sorted_values)))
    return sorted_values[rank - 1]


class Command(BaseCommand):
    help = "Generate programs from consecutive seeds, check each terminates, print a summary."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--count", type=int, default=200, help="how many programs (default 200)"
        )
        parser.add_argument(
            "--heuristic",
            type=str.upper,
            choices=sorted(PRESETS),
            default="A",
            help="weight preset of SPEC §7 (default A)",
        )
        parser.add_argument("--start-seed", type=int, default=0, help="first seed (default 0)")
        parser.add_argument(
            "--max-states",
            type=int,
            help="state limit per program for the checker (default: the checker's own)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        count: int = options["count"]
        if count < 1:
            raise CommandError("--count must be at least 1", returncode=EXIT_BAD_INPUT)
        if options["max_states"] is not None and options["max_states"] < 1:
            raise CommandError("--max-states must be at least 1", returncode=EXIT_BAD_INPUT)
        heuristic: str = options["heuristic"]
        first: int = options["start_seed"]
        settings = settings_for(heuristic)
        limit = {} if options["max_states"] is None else {"max_states": options["max_states"]}

        states: list[int] = []
        deadlocked: list[tuple[int, Any]] = []
        undecided: list[int] = []
        example = ""
        generate_s = check_s = 0.0
        for seed in range(first, first + count):
            t0 = time.perf_counter()
            generated = generate_program(seed, settings)
            t1 = time.perf_counter()
            verdict = check_effect(generated.effect, **limit)
            t2 = time.perf_counter()
            generate_s += t1 - t0
            check_s += t2 - t1

            states.append(verdict.states)
            if not example:
                example = effects.to_text(generated.effect)
            if verdict.terminating is None:
                undecided.append(seed)
            elif not verdict.terminating:
                deadlocked.append((seed, verdict))

        total_s = generate_s + check_s
        states.sort()
        all_ok = not deadlocked and not undecided
        out = self.stdout.write
        out(f"heuristic {heuristic}, seeds {first}..{first + count - 1}")
        out(
            f"programs: {count} in {total_s:.2f} s, {count / max(total_s, 1e-9):.1f} programs/s "
            f"(generate {generate_s:.2f} s, check {check_s:.2f} s)"
        )
        out(f"states: p50 {percentile(states, 50)}, p99 {percentile(states, 99)}, max {states[-1]}")
        out(f"all terminating: {'yes' if all_ok else 'no'}")
        if undecided:
            out(f"undecided (state limit): {len(undecided)}, seeds {_seeds(undecided)}")
        if deadlocked:
            out(f"deadlocked: {len(deadlocked)}, seeds {_seeds([s for s, _ in deadlocked])}")
            seed, verdict = deadlocked[0]
            if verdict.counterexample is not None:
                out(f"trace of seed {seed}:")
                out(textwrap.indent(verdict.counterexample.describe().rstrip("\n"), "  "))
        out(f"example (seed {first}): {example}")

        if deadlocked:
            sys.exit(EXIT_DEADLOCK)
        if undecided:
            sys.exit(EXIT_UNDECIDED)


def _seeds(seeds: list[int], shown: int = 10) -> str:
    """The first few seeds, comma-separated, with a count of the rest."""
    text = ", ".join(str(s) for s in seeds[:shown])
    return text + (f" and {len(seeds) - shown} more" if len(seeds) > shown else "")

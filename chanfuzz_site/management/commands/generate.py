"""`manage.py generate --seed N [--heuristic A..F] [--format effect|lambda]`: print one program.

The same seed and heuristic always give the same program, so a seed is all it
takes to reproduce a finding.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from generator import effects, lambda_chan
from generator.pipeline import Generated, generate_program
from generator.settings import PRESETS, settings_for

# What `--format` can print, each from the generated program. Target-language
# source (Go, Kotlin, Crystal, Flix) will come through a separate `--lang`
# option backed by runners/, added in `add_arguments` and `handle` below.
FORMATS: dict[str, Callable[[Generated], str]] = {
    "effect": lambda g: effects.to_text(g.effect),
    "lambda": lambda g: lambda_chan.to_text(g.program),
}


class Command(BaseCommand):
    help = "Generate one terminating program from a seed and print it."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--seed", type=int, required=True, help="random seed (an integer)")
        parser.add_argument(
            "--heuristic",
            type=str.upper,
            choices=sorted(PRESETS),
            default="A",
            help="weight preset of SPEC §7 (default A)",
        )
        parser.add_argument(
            "--format",
            choices=sorted(FORMATS),
            default="effect",
            help="print the effect (SPEC §10 syntax) or the λ_chan program (default effect)",
        )
        # --lang goes here.

    def handle(self, *args: Any, **options: Any) -> None:
        generated = generate_program(options["seed"], settings_for(options["heuristic"]))
        # With --lang, render to that language here instead of FORMATS.
        text = FORMATS[options["format"]](generated)
        self.stdout.write(text.rstrip("\n"))

"""`manage.py generate --seed N [--heuristic A..F] [--buffered] [--format F] [--lang L]`.

Prints one program: its effect, its λ_chan form (`--format effect|lambda`), or
(with `--lang`) the complete source file in that language.

`--buffered` goes beyond the paper (issue #15): buffered channels, close and
range, as far as the target (`--lang`; without it, every construct) can write
them; what the target lacks is said on stderr, so stdout stays the program.

The same seed and heuristic always give the same program, so a seed is all it
takes to reproduce a finding.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from chanfuzz_site.beyond_paper import missing_note
from generator import effects, lambda_chan
from generator.capabilities import FULL
from generator.pipeline import Generated, generate_program
from generator.settings import PRESETS, settings_for
from runners.engine.run_target import MAX_REPETITIONS
from runners.engine.toolchains import ToolchainUnavailable, find_toolchain
from runners.targets import get_target, names
from runners.targets.base import Toolchain

# What `--format` can print, each from the generated program.
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
            "--buffered",
            action="store_true",
            help="beyond the paper: buffered channels, close and range where the target "
            "has them (off by default: the paper's unbuffered programs)",
        )
        parser.add_argument(
            "--format",
            choices=sorted(FORMATS),
            default="effect",
            help="print the effect (SPEC §10 syntax) or the λ_chan program (default effect)",
        )
        parser.add_argument(
            "--lang",
            choices=names(),
            help="print the program's source in this language instead (overrides --format); "
            "the program uses only what the language can express",
        )
        parser.add_argument(
            "--version",
            help="with --lang: render as fuzz runs it on this installed toolchain (version or"
            " id: a Kotlin release's package layout); default: the renderer's current layout",
        )
        parser.add_argument(
            "--repetitions",
            type=int,
            default=1,
            help="with --lang: how many times the program body runs (SPEC §8a, default 1)",
        )
        parser.add_argument(
            "--option",
            action="append",
            default=[],
            metavar="NAME=VALUE",
            help="with --lang: a renderer option, e.g. package_layout=experimental",
        )

    def create_parser(self, prog_name: str, subcommand: str, **kwargs: Any) -> CommandParser:
        # Django's own --version (its release) would shadow ours, as in fuzz and reproduce.
        return super().create_parser(prog_name, subcommand, conflict_handler="resolve", **kwargs)

    def handle(self, *args: Any, **options: Any) -> None:
        shaping = options["option"] or options["repetitions"] != 1 or options["version"]
        if not options["lang"] and shaping:
            # They shape a language's source: without --lang they were silently ignored.
            raise CommandError("--option, --repetitions and --version need --lang", returncode=2)
        if not 1 <= options["repetitions"] <= MAX_REPETITIONS:
            # Larger, and Go's loop bound overflowed its int: a program that did not compile.
            raise CommandError(f"--repetitions must be from 1 to {MAX_REPETITIONS}", returncode=2)
        target = get_target(options["lang"]) if options["lang"] else None
        try:
            capabilities = target.capabilities if target else FULL
            settings = settings_for(options["heuristic"], buffered=options["buffered"])
            generated = generate_program(options["seed"], settings, capabilities)
        except ValueError as exc:  # settings the target can express nothing of
            raise CommandError(str(exc), returncode=2) from exc
        note = missing_note(capabilities, [options["lang"]]) if options["buffered"] else ""
        if note:
            self.stderr.write(note)
        if target is not None:
            # The target's own options (a Rust library's flavour), then the user's.
            render_options = {
                **target.source_options(_toolchain(options["lang"], options["version"])),
                **dict(_option(o) for o in options["option"]),
            }
            try:
                text = target.render(
                    generated.program,
                    seed=options["seed"],
                    repetitions=options["repetitions"],
                    **render_options,
                )
            except ValueError as exc:  # UnsupportedProgram, bad option or repetitions
                raise CommandError(str(exc), returncode=2) from exc
        else:
            text = FORMATS[options["format"]](generated)
        self.stdout.write(text.rstrip("\n"))


def _toolchain(language: str, version: str | None) -> Toolchain | None:
    """The installed toolchain `--version` names (None without one)."""
    if version is None:
        return None
    try:
        return find_toolchain(language, version)
    except ToolchainUnavailable as exc:
        raise CommandError(exc.reason, returncode=2) from exc


def _option(text: str) -> tuple[str, str | bool]:
    """NAME=VALUE; true and false are the booleans a renderer's flags take (`values=false`
    was refused as "expected true or false, not 'false'")."""
    name, sep, value = text.partition("=")
    if not sep or not name:
        raise CommandError(f"--option takes NAME=VALUE, not {text!r}", returncode=2)
    words = {"true": True, "false": False}
    return name, words.get(value.strip().lower(), value)

"""Renderers: λ_chan programs as complete source files in Go, Kotlin, Crystal and Flix.

`render` gives a standalone program; `render_batch` gives one compilation unit
holding several programs, each its own function, and a dispatcher `main` that
runs program number i given as the first command-line argument (`./bin 17`;
Flix 0.5 passes no arguments to `main`, so there it is the environment
variable `CHANFUZZ_PROGRAM`). One compile then serves many programs, each
still run as its own process.

Both are deterministic: every choice of syntax comes from
`random.Random(seed)`, so the same inputs give byte-identical output.

Semantics kept in every language (SPEC §2, §8, §8a): channels are unbuffered,
carry unit and are created at the top of each run; every spawned process is
joined, transitively, before the run ends; a run is repeated `repetitions`
times, each time with fresh channels. How each language joins is told in its
module: `go`, `kotlin`, `crystal`, `flix`.

Options (keyword arguments, checked: an unknown one is a ValueError):
  go:      gomaxprocs=int
  kotlin:  package_layout="modern" | "experimental"
  flix:    flix_version="current" | "0.5"
Flix's `select` can only receive, in both syntaxes: a program with a put case
in a select raises `UnsupportedProgram` (a ValueError); `supports` tells in
advance.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from types import ModuleType

from generator.lambda_chan import Program
from generator.render import crystal, flix, go, kotlin
from generator.render._common import UnsupportedProgram, check_repetitions, lower

LANGUAGES = ("go", "kotlin", "crystal", "flix")

_MODULES = {"go": go, "kotlin": kotlin, "crystal": crystal, "flix": flix}

# What the run command names the file it compiles (Kotlin derives the class from it).
SOURCE_FILE = {"go": "main.go", "kotlin": "Main.kt", "crystal": "main.cr", "flix": "Main.flix"}

__all__ = [
    "LANGUAGES",
    "SOURCE_FILE",
    "UnsupportedProgram",
    "render",
    "render_batch",
    "supports",
]


def _module(lang: str) -> ModuleType:
    try:
        return _MODULES[lang]
    except (KeyError, TypeError):
        raise ValueError(f"unknown language {lang!r}; supported: {', '.join(LANGUAGES)}") from None


def render(
    program: Program,
    lang: str,
    *,
    seed: int = 0,
    repetitions: int = 1,
    **options: object,
) -> str:
    """A complete source file in `lang` whose `main` runs `program` `repetitions` times."""
    module = _module(lang)
    check_repetitions(repetitions)
    return module.render_file(
        [program], rng=random.Random(seed), repetitions=repetitions, dispatcher=False, **options
    )


def render_batch(
    programs: Sequence[Program],
    lang: str,
    *,
    seed: int = 0,
    repetitions: int = 1,
    **options: object,
) -> str:
    """One compilation unit with every program as its own function and a dispatcher `main`:
    program i (0-based, in the order given) runs when i is the first argument."""
    module = _module(lang)
    check_repetitions(repetitions)
    if not programs:
        raise ValueError("a batch needs at least one program")
    return module.render_file(
        list(programs), rng=random.Random(seed), repetitions=repetitions, dispatcher=True, **options
    )


def supports(program: Program, lang: str, **options: object) -> bool:
    """Whether `render(program, lang, **options)` can express the program."""
    module = _module(lang)
    reason = getattr(module, "unsupported_reason", None)
    return reason is None or reason(lower(program), **options) is None

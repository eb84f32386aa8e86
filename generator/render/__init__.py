"""Renderers: λ_chan programs as complete source files in Go, Kotlin, Crystal, Flix and Rust.

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
module: `go`, `kotlin`, `crystal`, `flix`, `rust`. A module of this package that
defines `render_file` is a renderer, found by its file name (`renderers()`); the
target registry (runners/targets/) says which renderer and options each target uses.

Options (keyword arguments, checked: an unknown one is a ValueError):
  every renderer that has the value oracle (`has_value_oracle`): values=bool
  every renderer that perturbs schedules (`has_schedule_perturbation`): pct_depth=int
    (yields before d−1 communication steps drawn from the program: `_common.perturb`)
  go:      gomaxprocs=int, reflect_select=bool, quiet=bool
  kotlin:  package_layout="modern" | "experimental"
  flix:    flix_version="current" | "0.5"
  rust:    flavour="crossbeam" | "flume" | "flume-async" | "chan" | "std", threads=int,
           quiet=bool
Flix's `select` can only receive, in both syntaxes: a program with a put case
in a select raises `UnsupportedProgram` (a ValueError); `supports` tells in
advance.

Beyond the paper (issue #15): a renderer that writes buffered channels, close
and range says so in its module's ``BEYOND_PAPER`` (a subset of
``{"buffered", "close"}``; close covers receiving from a closed channel and
range). A program using what its renderer does not declare is refused here,
before the renderer sees it: a buffered channel printed as an unbuffered one
would deadlock and be reported as a runtime bug.
"""

from __future__ import annotations

import importlib
import pkgutil
import random
from collections.abc import Sequence
from functools import cache
from types import ModuleType

from generator.effects import UNBOUNDED
from generator.lambda_chan import Program
from generator.render._common import (
    GROUP_DONE,
    MAX_PCT_DEPTH,
    THREADS_VARIABLE,
    CloseS,
    Lowered,
    RangeS,
    UnsupportedProgram,
    check_repetitions,
    has_select_default,
    lower,
    take_options,
    walk,
)
from generator.render._common import pct_depth as check_pct_depth

__all__ = [
    "GROUP_DONE",
    "MAX_PCT_DEPTH",
    "THREADS_VARIABLE",
    "UnsupportedProgram",
    "beyond_paper",
    "check_pct_depth",
    "has_schedule_perturbation",
    "has_value_oracle",
    "quiet_check",
    "render",
    "render_batch",
    "renderers",
    "runs_in_groups",
    "supports",
    "unsupported_reason",
]


@cache
def renderers() -> tuple[str, ...]:
    """The renderer modules of this package (``go``, ``kotlin``, …), found by their files.

    A module is a renderer when it defines ``render_file``; adding a target's
    renderer is adding its module, nothing here.
    """
    names = []
    for info in pkgutil.iter_modules(__path__):
        if not info.name.startswith("_") and hasattr(_import(info.name), "render_file"):
            names.append(info.name)
    return tuple(sorted(names))


def has_value_oracle(lang: str) -> bool:
    """Whether renderer `lang` takes `values=True`: every send a value of its own, checked
    by the program as it runs (the value oracle, see `_common`)."""
    return bool(getattr(_module(lang), "VALUE_ORACLE", False))


def runs_in_groups(lang: str) -> bool:
    """Whether a batch of renderer `lang` runs several programs in one process: given more
    than one index, its dispatcher runs each in turn and prints `GROUP_DONE` and the index
    on stdout after each; a crash ends the process, so what follows the last mark is the
    next program's (runners.engine.execute runs those alone)."""
    return bool(getattr(_module(lang), "GROUP_RUNS", False))


def has_schedule_perturbation(lang: str) -> bool:
    """Whether renderer `lang` takes `pct_depth=d`: yields at d−1 change points."""
    return "pct_depth" in getattr(_module(lang), "OPTIONS", {})


def _import(name: str) -> ModuleType:
    return importlib.import_module(f"{__name__}.{name}")


def _module(lang: str) -> ModuleType:
    if not isinstance(lang, str) or lang not in renderers():
        raise ValueError(f"unknown language {lang!r}; supported: {', '.join(renderers())}")
    return _import(lang)


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
    _refuse_beyond_paper(module, [program])
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
    _refuse_beyond_paper(module, programs)
    return module.render_file(
        list(programs), rng=random.Random(seed), repetitions=repetitions, dispatcher=True, **options
    )


def supports(program: Program, lang: str, **options: object) -> bool:
    """Whether `render(program, lang, **options)` can express the program."""
    return unsupported_reason(program, lang, **options) is None


def check_options(lang: str, **options: object) -> None:
    """ValueError naming the option unless `lang`'s renderer takes every one of `options`
    with its value: what `render` would refuse, said before any program is generated."""
    take_options(options, _module(lang).OPTIONS, lang)


def unsupported_reason(program: Program, lang: str, **options: object) -> str | None:
    """Why `render(program, lang, **options)` cannot express the program; None if it can.
    A bad option is a ValueError here as in `render`."""
    module = _module(lang)
    checked = take_options(options, module.OPTIONS, lang)  # the values render would use
    lowered = lower(program)
    beyond = _beyond_paper_reason(module, lowered)
    if beyond is not None:
        return beyond
    reason = getattr(module, "unsupported_reason", None)
    return None if reason is None else reason(lowered, **checked)


# Everything a renderer may declare in BEYOND_PAPER.
BEYOND_PAPER_CONSTRUCTS = frozenset({"buffered", "close", "default", "unbounded"})


def quiet_check(lang: str, **options: object) -> str | None:
    """The version (a short hash of its code) of the quiet-channel check that renderer
    `lang`'s programs end with under `options`, or None when they end with none: programs
    with another version are other programs (runners.mutation_study names campaigns so)."""
    which = getattr(_module(lang), "quiet_check_id", None)
    return None if which is None else which(**options)


def beyond_paper(lang: str) -> frozenset[str]:
    """What renderer `lang` writes beyond the paper: "buffered", "close" (issue #15),
    "default" (a select with a default), "unbounded" (a channel whose sends never wait)."""
    return frozenset(getattr(_module(lang), "BEYOND_PAPER", ()))


def _beyond_paper_reason(module: ModuleType, lowered: Lowered) -> str | None:
    allowed = frozenset(getattr(module, "BEYOND_PAPER", ()))
    name = module.__name__.rsplit(".", 1)[-1]
    if lowered.capacities and "buffered" not in allowed:
        return f"the {name} renderer writes no buffered channel"
    if "unbounded" not in allowed and any(k == UNBOUNDED for _, k in lowered.capacities):
        return f"the {name} renderer writes no unbounded channel"
    if "close" not in allowed and any(isinstance(s, CloseS | RangeS) for s in walk(lowered.body)):
        return f"the {name} renderer writes no close or range"
    if "default" not in allowed and has_select_default(lowered.body):
        return f"the {name} renderer writes no select with a default"
    return None


def _refuse_beyond_paper(module: ModuleType, programs: Sequence[Program]) -> None:
    if frozenset(getattr(module, "BEYOND_PAPER", ())) >= BEYOND_PAPER_CONSTRUCTS:
        return
    for program in programs:
        reason = _beyond_paper_reason(module, lower(program))
        if reason is not None:
            raise UnsupportedProgram(reason)

"""What programs run on: a toolchain, and how its target renders and builds programs for it.

A RunTarget is the one value the engine passes around for "this language at this release,
these repetitions, these render options": execute_batch, fuzz, the campaigns' chunks and
the reducer all take one, made from the target's declaration in the registry
(runners.targets) by make_target or target_for.
"""

from __future__ import annotations

from dataclasses import dataclass

from runners.engine.toolchains import Toolchain, find_toolchain
from runners.targets import get_target
from runners.targets.base import RunSettings, TargetSpec

# Runs of a program's body in one process, wherever a user chooses them (the playground has
# a smaller bound). Go's loop counter is an int: a bound past it does not compile.
MAX_REPETITIONS = 100_000


@dataclass(frozen=True)
class RunTarget:
    """What programs run on: a toolchain plus how to render and build for it."""

    toolchain: Toolchain
    repetitions: int = 20
    render_options: tuple[tuple[str, object], ...] = ()
    build_flags: tuple[str, ...] = ()

    @property
    def language(self) -> str:
        return self.toolchain.language

    @property
    def spec(self) -> TargetSpec:
        """The target's declaration in the registry."""
        return get_target(self.toolchain.language)

    @property
    def label(self) -> str:
        return f"{self.toolchain.language} {self.toolchain.version}"


def make_target(
    language: str,
    version: str | None = None,
    *,
    repetitions: int = 10,
    threads: int | None = None,
    values: bool = True,
    pct_depth: int | None = None,
) -> RunTarget:
    """The target for a language and version (ToolchainUnavailable when not installed)."""
    toolchain = find_toolchain(language, version)
    return target_for(
        toolchain, repetitions=repetitions, threads=threads, values=values, pct_depth=pct_depth
    )


def target_for(
    toolchain: Toolchain,
    *,
    repetitions: int = 10,
    threads: int | None = None,
    values: bool = True,
    pct_depth: int | None = None,
) -> RunTarget:
    """How programs are rendered and built for `toolchain`, as its target declares:
    its render options (package layout, duplicate clauses, a dispatcher pool of
    `threads` where the runtime has one; None: the target's default; the value
    oracle unless `values` is false; yields at PCT change points with `pct_depth`),
    and the build flags of the parallel scheduler. ValueError when the renderer refuses
    an option's value (`threads` out of its range)."""
    spec = get_target(toolchain.language)
    settings = RunSettings(
        repetitions=repetitions, threads=threads, values=values, pct_depth=pct_depth
    )
    options = spec.run_options(toolchain, settings)
    spec.check_options(**options)  # a bad --threads is an error before any program is made
    return RunTarget(
        toolchain,
        repetitions=repetitions,
        render_options=tuple(sorted(options.items())),
        build_flags=spec.build_flags,
    )

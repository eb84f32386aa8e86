"""What a Rust target tests, and the Cargo project of its programs: a :class:`RustLibrary`
(the crate, its features, the crates beside it) and the ``Cargo.toml`` every program of
it is built with, at one release (batches, reproducer bundles, mutants, tests).
"""

from __future__ import annotations

from dataclasses import dataclass

from runners.targets.base import version_key

SOURCE_FILE = "src/main.rs"
PACKAGE = "chanfuzzprog"


@dataclass(frozen=True)
class Dependency:
    """A crate every program of a flavour needs besides the library under test."""

    name: str
    requirement: str
    features: tuple[str, ...] = ()


@dataclass(frozen=True)
class RustLibrary:
    """One Rust channel library under test: what the target module declares.

    ``crate`` None is the standard library (its version is rustc's). ``flavour``
    is the Rust renderer's option. ``features`` are the crate's features the
    renderer's code uses (default features too unless ``default_features`` is
    False); ``extra`` are other crates the programs need (tokio).
    ``since`` names the program's own Cargo features that code it renders is
    gated on, each with the first release whose API that code calls: the
    feature is on for that release and later ones (one file serves every release).
    """

    target: str
    crate: str | None
    flavour: str
    features: tuple[str, ...] = ()
    default_features: bool = True
    extra: tuple[Dependency, ...] = ()
    threads_option: bool = False  # the renderer takes a `threads` option (tokio workers)
    since: tuple[tuple[str, str], ...] = ()


def program_features(library: RustLibrary, version: str) -> list[str]:
    """The program's own features (``library.since``) that are on at ``version``."""
    return [name for name, first in library.since if version_key(version) >= version_key(first)]


def features_section(library: RustLibrary, version: str, on: str | None = None) -> list[str]:
    """The ``[features]`` lines of a program's Cargo.toml (none without ``library.since``):
    every feature declared, those ``version`` has on by default; ``on``, a TOML list's
    inside (a shell variable in a reproducer's script), says which instead."""
    if not library.since:
        return []
    if on is None:
        on = ", ".join(f'"{f}"' for f in program_features(library, version))
    return ["[features]", f"default = [{on}]", *(f"{name} = []" for name, _ in library.since)]


def manifest_text(
    library: RustLibrary,
    version: str,
    *,
    bin_name: str = PACKAGE,
    exact: bool = False,
    features_on: str | None = None,
) -> str:
    """The Cargo.toml of every program of ``library`` at ``version``; ``exact`` pins the
    release in the manifest itself (a standalone project has no lock file of ours).
    ``features_on`` is the list of the program's features that are on, as TOML (a shell
    variable in a reproducer's script); else the ones ``version`` has."""
    lines = [
        "[package]",
        f'name = "{PACKAGE}"',
        'version = "0.0.0"',
        'edition = "2021"',
        "publish = false",
        "",
        "[[bin]]",
        f'name = "{bin_name}"',
        f'path = "{SOURCE_FILE}"',
        "",
        "[dependencies]",
    ]
    if library.crate is not None:
        spec = [f'version = "{"=" + version if exact else _requirement(version)}"']
        if not library.default_features:
            spec.append("default-features = false")
        if library.features:
            spec.append("features = [" + ", ".join(f'"{f}"' for f in library.features) + "]")
        lines.append(f"{library.crate} = {{ {', '.join(spec)} }}")
    for dep in library.extra:
        spec = [f'version = "{dep.requirement}"']
        if dep.features:
            spec.append("features = [" + ", ".join(f'"{f}"' for f in dep.features) + "]")
        lines.append(f"{dep.name} = {{ {', '.join(spec)} }}")
    features = features_section(library, version, features_on)
    lines += ["", *features] if features else []
    lines += [
        "",
        "[profile.release]",
        # Symbols stay (a panic's backtrace names its frames); no debug info: faster builds.
        "debug = false",
        "incremental = false",
        # A panic is a finding, and the first one ends the run: nothing is unwound, so no
        # other thread can block on what the panicking one held, and none of the landing
        # pads that made half of an unoptimised program's code is compiled.
        'panic = "abort"',
        "",
        # The generated program itself is not optimised: its straight-line code made
        # optimising cost 4x the compile time (crossbeam, 200 programs, batches of 50:
        # 266 programs/min at opt-level 3, 1,106 at 0). The channel crates and their
        # non-generic code stay at opt-level 3; their generic code (a Channel<T>) is
        # instantiated in this package, so a bug report also names this profile.
        f"[profile.release.package.{PACKAGE}]",
        "opt-level = 0",
        "",
    ]
    return "\n".join(lines)


def _requirement(version: str) -> str:
    # Cargo refuses to resolve a yanked release that is required exactly; the lock
    # file pins the release instead (cargo update --precise), and builds are
    # --locked, so the requirement only has to admit it.
    return f"^{version}"

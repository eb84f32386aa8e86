"""Mutants of the flume and crossbeam-channel crates, made by cargo-mutants, as toolchains.

Two kinds: ``flume`` (its mutants become toolchains of rust-flume and
rust-flume-async, which both run the flume crate) and ``crossbeam-channel``
(rust-crossbeam). The mutants are cargo-mutants' own (runners.mutation.cargo_mutants:
`cargo mutants --list --json`, a pinned version built once into
``$CHANFUZZ_VAR_DIR/tools``) on the release's source as cargo unpacked it,
limited to the files that hold channel code (:data:`FLUME` and
:data:`CROSSBEAM` name them; the flavours chanfuzz never makes, crossbeam's
at/tick/never, are left out; its list flavour, the unbounded channel, is in since
programs with buffered channels have unbounded ones too). Its genres: a function's
body replaced by a value of its type (``Default::default()``, ``true``/``false``, ``()``…), a
binary operator swapped, a ``!`` deleted, a match arm or guard deleted or made
``true``. That gives hundreds of mutants per crate (flume 0.12.0: 437,
crossbeam-channel 0.5.17: 588), so no line operators of our own are added;
what the genres miss is the removal of one call inside a longer function (Go's
``drop``): a wake-up is removed by replacing the waking function instead
(flume's ``SyncSignal::fire``, crossbeam's ``Context::unpark``).

The listing is asked once per release and cached (it is deterministic:
cargo-mutants walks the files in order); an id is
``<file stem>-<line>-<column>-<n>``, the n-th mutant (from 0) cargo-mutants
makes at that place, so the id alone names the same change for a given
release and cargo-mutants version. The change is made the way cargo-mutants
makes it (the span's text replaced, its marker comment after), checked
against its own ``--diff`` by the tests.

A mutant toolchain (:func:`install`) is a copy of the crate's source with the
change, patched into the base release's programs by a cargo ``[patch]``; its
probe build compiles the dependencies at install time, so batch builds stay
offline and fast (runners.targets.rust_cargo finds and builds it). One that
does not compile is reported then with the compiler's words and its
``mutant.json`` says ``"compiles": false``; its builds fail the same way.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from runners.mutation.base import Mutant, MutantKind
from runners.mutation.cargo_mutants import (
    CARGO_MUTANTS_VERSION,
    changes_by_id,
    crate_source,
    mutants_of,
    mutated_text,
    raw_listing,
)
from runners.targets import rust_cargo
from runners.targets.base import InstallError, Log, Toolchain, stderr_log
from runners.targets.rust_cargo import MUTANT_CRATE_DIR
from runners.targets.rust_library import RustLibrary


@dataclass(frozen=True)
class Crate:
    """One mutated crate: its kind's name, the targets that run it, its channel code."""

    kind: str
    crate: str
    targets: tuple[str, ...]
    files: tuple[str, ...]  # relative to the crate's root; those a release lacks are skipped


FLUME = Crate(
    "flume", "flume", ("rust-flume", "rust-flume-async"),
    ("src/lib.rs", "src/select.rs", "src/async.rs", "src/signal.rs"),
)  # fmt: skip
CROSSBEAM = Crate(
    "crossbeam-channel", "crossbeam-channel", ("rust-crossbeam",),
    ("src/channel.rs", "src/context.rs", "src/counter.rs", "src/select.rs", "src/waker.rs",
     "src/flavors/array.rs", "src/flavors/list.rs", "src/flavors/zero.rs"),
)  # fmt: skip
CRATES = (FLUME, CROSSBEAM)


def _texts(source: Path, entries: Sequence[Mapping[str, Any]]) -> dict[str, str]:
    return {file: (source / file).read_text() for file in {e["file"] for e in entries}}


def list_mutants(crate: Crate, base: Toolchain) -> list[Mutant]:
    """Every mutant of ``base``'s release of ``crate``, in cargo-mutants' order."""
    entries = raw_listing(crate.crate, crate.files, base)
    return mutants_of(entries, _texts(crate_source(base, crate.crate), entries))


# --- mutant toolchains ------------------------------------------------------------------------


def library_of(target: str) -> RustLibrary:
    from runners.targets import get_target

    get_target(target)  # loads the target's module, which declares its library
    return rust_cargo.LIBRARIES[target]


def mutant_dir(crate: Crate, base: Toolchain, mutant_id: str) -> Path:
    return rust_cargo.mutants_dir(crate.crate) / base.id / mutant_id


def install(crate: Crate, mutant: Mutant, base: Toolchain, log: Log = stderr_log) -> Path:
    """Make ``mutant`` of ``base`` a toolchain (idempotent); return its directory."""
    if base.origin == "mutant":
        raise InstallError(f"{base.id} is a mutant: mutate a release")
    directory = mutant_dir(crate, base, mutant.id)
    meta_path = directory / "mutant.json"
    if meta_path.is_file() and json.loads(meta_path.read_text()).get("mutant") == asdict(mutant):
        return directory
    change = changes_by_id(raw_listing(crate.crate, crate.files, base))[mutant.id]
    source = crate_source(base, crate.crate)
    if directory.exists():
        shutil.rmtree(directory)
    directory.parent.mkdir(parents=True, exist_ok=True)
    copy = directory / MUTANT_CRATE_DIR
    shutil.copytree(source, copy, ignore=shutil.ignore_patterns(".cargo-ok", "target"))
    path = copy / change.file
    path.write_text(mutated_text(path.read_text(), change))
    log(f"compiling {crate.crate} {base.version} with mutant {mutant.id}: {mutant.describe()}")
    error = rust_cargo.build_mutant(library_of(base.language), base, directory)
    if error:
        log(f"mutant {mutant.id} does not compile:\n{error}")
    meta = {
        "id": mutant.id, "file": mutant.file, "line": mutant.line, "operator": mutant.operator,
        "crate": crate.crate, "version": base.version, "base": base.id,
        "base_home": str(base.home), "cargo_home": str(rust_cargo.base_cargo_home(base)),
        "cargo_mutants": CARGO_MUTANTS_VERSION, "description": change.description,
        "compiles": error is None, "build_error": error or "", "mutant": asdict(mutant),
    }  # fmt: skip
    # The sandbox (another user) binds a toolchain's home: the mutant's directory.
    for path in (directory, directory.parent, directory.parent.parent):
        path.chmod(0o755)
    meta_path.write_text(json.dumps(meta, indent=1) + "\n")
    return directory


def build_error(toolchain: Toolchain) -> str | None:
    """The compiler's words when an installed mutant toolchain does not compile, else None."""
    meta = json.loads((toolchain.home / "mutant.json").read_text())
    return None if meta.get("compiles", True) else meta.get("build_error", "does not compile")


# --- the kinds --------------------------------------------------------------------------------


def _kind(crate: Crate) -> MutantKind:
    from runners.mutation.rust_runtime_tests import NAME, cargo_runtime_tests

    install_one: Callable[[Mutant, Toolchain], Path] = lambda m, b: install(crate, m, b)  # noqa: E731
    return MutantKind(
        name=crate.kind,
        targets=crate.targets,
        source=f"the {crate.crate} crate's {', '.join(crate.files)}",
        list_mutants=lambda base: list_mutants(crate, base),
        install=install_one,
        runtime_tests=cargo_runtime_tests,
        runtime_tests_name=NAME,
    )


def flume_kind() -> MutantKind:
    """The flume crate as a kind of mutant (rust-flume and rust-flume-async)."""
    return _kind(FLUME)


def crossbeam_kind() -> MutantKind:
    """The crossbeam-channel crate as a kind of mutant (rust-crossbeam)."""
    return _kind(CROSSBEAM)


def kinds() -> list[MutantKind]:
    """This module's kinds, for runners.mutation.kinds."""
    return [flume_kind(), crossbeam_kind()]


__all__ = [
    "CROSSBEAM",
    "FLUME",
    "Crate",
    "build_error",
    "crossbeam_kind",
    "flume_kind",
    "install",
    "kinds",
    "list_mutants",
]

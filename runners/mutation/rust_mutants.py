"""Mutants of the flume and crossbeam-channel crates, made by cargo-mutants, as toolchains.

Two kinds: ``flume`` (its mutants become toolchains of rust-flume and
rust-flume-async, which both run the flume crate) and ``crossbeam-channel``
(rust-crossbeam). The mutants are cargo-mutants' own (`cargo mutants --list
--json`, version :data:`CARGO_MUTANTS_VERSION`, built once by
:func:`cargo_mutants` into ``$CHANFUZZ_VAR_DIR/tools``) on the release's
source as cargo unpacked it into the shared cargo home, limited to the files
that hold channel code (:data:`FLUME` and :data:`CROSSBEAM` name them; the
flavours chanfuzz never makes, crossbeam's list/at/tick/never, are left out).
Its genres: a function's body replaced by a value of its type
(``Default::default()``, ``true``/``false``, ``()``…), a binary operator
swapped, a ``!`` deleted, a match arm or guard deleted or made ``true``. That
gives hundreds of mutants per crate (flume 0.12.0: 437, crossbeam-channel
0.5.17: 588), so no line operators of our own are added; what the
genres miss is the removal of one call inside a longer function (Go's
``drop``): a wake-up is removed by replacing the waking function (flume's
``SyncSignal::fire``, crossbeam's ``SyncWaker::notify``) instead.

The listing is asked once per release and cached (it is deterministic:
cargo-mutants walks the files in order); an id is
``<file stem>-<line>-<column>-<n>``, the n-th mutant (from 0) cargo-mutants
makes at that place, so the id alone names the same change for a given
release and cargo-mutants version. :func:`mutated_text` applies one
the way cargo-mutants does (the span's text replaced, its marker comment
after), checked against its own ``--diff`` by the tests.

A mutant toolchain (:func:`install`) is a copy of the crate's source with the
change, patched into the base release's programs by a cargo ``[patch]``; its
probe build compiles the dependencies at install time, so batch builds stay
offline and fast (runners.targets.rust_cargo finds and builds it). One that
does not compile is reported then with the compiler's words and its
``mutant.json`` says ``"compiles": false``; its builds fail the same way.
"""

from __future__ import annotations

import json
import re
import shutil
import tempfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from runners import config
from runners.engine.supervisor import run_argv
from runners.mutation.base import Mutant, MutantKind
from runners.targets import rust_cargo
from runners.targets.base import InstallError, Log, Toolchain, clean_env, stderr_log, tail
from runners.targets.rust_cargo import MUTANT_CRATE_DIR, RustLibrary

CARGO_MUTANTS_VERSION = "27.1.0"
MARKER = " /* ~ changed by cargo-mutants ~ */"  # what cargo-mutants puts after a change
INSTALL_TIMEOUT_S = 1800.0
LIST_TIMEOUT_S = 300.0
_FN = re.compile(r"^\s*(?:pub(?:\([^)]*\))? )?(?:const |async |unsafe )*fn ")


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
     "src/flavors/array.rs", "src/flavors/zero.rs"),
)  # fmt: skip
CRATES = (FLUME, CROSSBEAM)


@dataclass(frozen=True)
class Change:
    """One cargo-mutants mutant: the span (1-based lines and columns, end exclusive) whose
    text becomes ``replacement``."""

    file: str
    start: tuple[int, int]
    end: tuple[int, int]
    replacement: str
    genre: str
    description: str  # cargo-mutants' words: "replace || with && in Hook::wait_send"
    function_line: int  # the line of the function holding it (0 when none)


# --- cargo-mutants --------------------------------------------------------------------------


def tool_root() -> Path:
    return config.var_dir() / "tools" / f"cargo-mutants-{CARGO_MUTANTS_VERSION}"


def cargo_mutants(log: Log = stderr_log) -> Path:
    """cargo-mutants at the pinned version, built with the machine's cargo the first time
    (about 3 minutes; crates.io must answer then). InstallError saying why when it cannot."""
    executable = tool_root() / "bin" / "cargo-mutants"
    if executable.is_file():
        return executable
    cargo = rust_cargo.find_cargo()
    tool_root().parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".cargo-mutants-", dir=tool_root().parent))
    log(f"building cargo-mutants {CARGO_MUTANTS_VERSION} into {tool_root()} (once)")
    argv = [str(cargo), "install", "--locked", f"cargo-mutants@{CARGO_MUTANTS_VERSION}",
            "--root", str(staging)]  # fmt: skip
    # Its own build: nobody's target directory or flags; the user's cargo home is fine.
    env = clean_env(("CARGO_TARGET_DIR", "CARGO_BUILD", "RUSTFLAGS", "RUSTC"))
    result = run_argv(argv, INSTALL_TIMEOUT_S, env=env)
    try:
        if not result.ok:
            how = " (timed out)" if result.timed_out else ""
            raise InstallError(
                f"cannot install cargo-mutants {CARGO_MUTANTS_VERSION} with {cargo}{how}: "
                f"{tail(result.stderr + result.stdout)}"
            )
        if not executable.is_file():  # another process may have finished first
            staging.rename(tool_root())
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return executable


def crate_source(base: Toolchain, crate: str) -> Path:
    """The release's source as cargo unpacked it in the base's cargo home."""
    home = rust_cargo.base_cargo_home(base)
    found = sorted(home.glob(f"registry/src/*/{crate}-{base.version}/Cargo.toml"))
    if not found:
        raise InstallError(f"no source of {crate} {base.version} in {home}: install {base.id}")
    return found[0].parent


def _listing_cache(crate: Crate, version: str) -> Path:
    name = f"{crate.crate}-{version}.cargo-mutants-{CARGO_MUTANTS_VERSION}.json"
    return config.cache_dir() / "mutation" / name


def raw_listing(crate: Crate, base: Toolchain) -> list[dict[str, Any]]:
    """cargo-mutants' JSON listing of the channel files of ``base``'s release (cached)."""
    cache = _listing_cache(crate, base.version)
    if cache.is_file():
        return json.loads(cache.read_text())
    source = crate_source(base, crate.crate)
    files = [f for f in crate.files if (source / f).is_file()]
    if not files:
        raise InstallError(f"{crate.crate} {base.version} has none of {', '.join(crate.files)}")
    tool = cargo_mutants()
    with tempfile.TemporaryDirectory(prefix="chanfuzz-list-") as tmp:
        # A copy: cargo metadata may write a lock file, the registry's copy stays as it is.
        copy = Path(tmp) / source.name
        shutil.copytree(source, copy)
        argv = [str(tool), "mutants", "--list", "--json", "--no-config", "-d", str(copy)]
        for file in files:
            argv += ["-f", file]
        env = rust_cargo.cargo_env(Path(tmp) / "target", rust_cargo.base_cargo_home(base))
        env.update(CARGO=str(base.executable), CARGO_NET_OFFLINE="true")
        result = run_argv(argv, LIST_TIMEOUT_S, env=env, cwd=Path(tmp), output_limit=64 << 20)
    if not result.ok:
        raise InstallError(f"cargo-mutants cannot list {crate.crate} {base.version}: "
                           f"{tail(result.stderr + result.stdout)}")  # fmt: skip
    entries = [_kept(e) for e in json.loads(result.stdout)]
    cache.parent.mkdir(parents=True, exist_ok=True)
    partial = cache.with_suffix(".partial")
    partial.write_text(json.dumps(entries, indent=0) + "\n")
    partial.replace(cache)
    return entries


def _kept(entry: dict[str, Any]) -> dict[str, Any]:
    """What a mutant needs of cargo-mutants' entry (its diff is made again from the span)."""
    keys = ("file", "genre", "name", "replacement", "span", "function")
    return {k: entry[k] for k in keys if k in entry}


# --- mutants from a listing -----------------------------------------------------------------


def change_of(entry: Mapping[str, Any]) -> Change:
    span = entry["span"]
    function = entry.get("function") or {}
    prefix = f"{entry['file']}:{span['start']['line']}:{span['start']['column']}: "
    name = entry["name"]
    return Change(
        file=entry["file"],
        start=(span["start"]["line"], span["start"]["column"]),
        end=(span["end"]["line"], span["end"]["column"]),
        replacement=entry["replacement"],
        genre=entry["genre"],
        description=name[len(prefix) :] if name.startswith(prefix) else name,
        function_line=(function.get("span") or {}).get("start", {}).get("line", 0),
    )


def changes_by_id(entries: Sequence[Mapping[str, Any]]) -> dict[str, Change]:
    """Each change under its id ``<stem>-<line>-<column>-<n>``, in the listing's order."""
    found: dict[str, Change] = {}
    at: dict[tuple[str, int, int], int] = {}
    for entry in entries:
        change = change_of(entry)
        place = (change.file, *change.start)
        n = at.get(place, 0)
        at[place] = n + 1
        found[f"{Path(change.file).stem}-{change.start[0]}-{change.start[1]}-{n}"] = change
    return found


def _offset(text: str, line: int, column: int) -> int:
    """The index in ``text`` of 1-based (line, column), columns counted in characters."""
    index = 0
    for _ in range(line - 1):
        index = text.index("\n", index) + 1
    return index + column - 1


def mutated_text(text: str, change: Change) -> str:
    """The file's text with the change made as cargo-mutants makes it."""
    start, end = _offset(text, *change.start), _offset(text, *change.end)
    return text[:start] + change.replacement + MARKER + text[end:]


def _signature(lines: Sequence[str], first: int, body: int) -> str:
    """The line naming the function: its span starts at its doc comment or attributes."""
    for number in range(first, body + 1):
        if _FN.search(lines[number - 1]):
            return lines[number - 1]
    return lines[first - 1]


def mutant_of(mutant_id: str, change: Change, text: str) -> Mutant:
    """The change as a Mutant: a one-line change shows the line before and after; a longer
    one (a function's body) its function's first line and what replaced the body."""
    lines = text.split("\n")
    line = change.start[0]
    if change.start[0] == change.end[0]:
        start, end = change.start[1] - 1, change.end[1] - 1
        before = lines[line - 1]
        after = before[:start] + change.replacement + before[end:]
    elif change.genre == "FnValue" and change.function_line:
        before = _signature(lines, change.function_line, line)
        after = f"body replaced with {change.replacement}"
    else:
        before, after = lines[line - 1], change.description
    return Mutant(mutant_id, change.file, line, change.genre, before, after)


def mutants_of(entries: Sequence[Mapping[str, Any]], texts: Mapping[str, str]) -> list[Mutant]:
    """The mutants of a listing, given the text of each file it names."""
    return [
        mutant_of(mutant_id, change, texts[change.file])
        for mutant_id, change in changes_by_id(entries).items()
    ]


def _texts(source: Path, entries: Sequence[Mapping[str, Any]]) -> dict[str, str]:
    return {file: (source / file).read_text() for file in {e["file"] for e in entries}}


def list_mutants(crate: Crate, base: Toolchain) -> list[Mutant]:
    """Every mutant of ``base``'s release of ``crate``, in source order."""
    entries = raw_listing(crate, base)
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
    change = changes_by_id(raw_listing(crate, base))[mutant.id]
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
    "CARGO_MUTANTS_VERSION",
    "CROSSBEAM",
    "FLUME",
    "Change",
    "Crate",
    "build_error",
    "cargo_mutants",
    "changes_by_id",
    "crossbeam_kind",
    "flume_kind",
    "install",
    "kinds",
    "list_mutants",
    "mutants_of",
    "mutated_text",
]

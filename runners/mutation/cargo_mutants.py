"""cargo-mutants, pinned, and what its listing says: the Rust crates' mutants
(runners.mutation.rust_mutants) are its own.

:func:`tool` builds it once (``cargo install --locked`` into
``$CHANFUZZ_VAR_DIR/tools``); :func:`raw_listing` asks it for every mutant of
some files of a crate release (`cargo mutants --list --json -f FILE …`, on a
copy of the source cargo unpacked into the base's cargo home, offline) and
caches the answer. :func:`changes_by_id` names each :class:`Change` by its
place, :func:`mutated_text` makes it as cargo-mutants does (the span's text
replaced, its marker comment after), and :func:`mutant_of` shows it as a
:class:`Mutant`.
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from runners import config
from runners.engine.supervisor import run_argv
from runners.mutation.base import Mutant
from runners.targets import rust_cargo, rust_crates
from runners.targets.base import InstallError, Log, Toolchain, clean_env, stderr_log, tail

CARGO_MUTANTS_VERSION = "27.1.0"
MARKER = " /* ~ changed by cargo-mutants ~ */"  # what cargo-mutants puts after a change
INSTALL_TIMEOUT_S = 1800.0
LIST_TIMEOUT_S = 300.0
_FN = re.compile(r"^\s*(?:pub(?:\([^)]*\))? )?(?:const |async |unsafe )*fn ")


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


def tool(log: Log = stderr_log) -> Path:
    """cargo-mutants at the pinned version, built with the machine's cargo the first time
    (under a minute; crates.io must answer then). InstallError saying why when it cannot."""
    executable = tool_root() / "bin" / "cargo-mutants"
    if executable.is_file():
        return executable
    cargo = rust_crates.find_cargo()
    tool_root().parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".cargo-mutants-", dir=tool_root().parent))
    log(f"building cargo-mutants {CARGO_MUTANTS_VERSION} into {tool_root()} (once)")
    argv = [str(cargo), "install", "--locked", f"cargo-mutants@{CARGO_MUTANTS_VERSION}",
            "--root", str(staging)]  # fmt: skip
    # Its own build: nobody's target directory or flags; the user's cargo home is fine.
    env = clean_env(("CARGO_TARGET_DIR", "CARGO_BUILD", "RUSTFLAGS", "RUSTC"))
    # Unoptimised: it only lists mutants, once a release (cached), and that takes a second
    # where an optimised build would take two and a half minutes more to make (41 s against
    # 147 s here), with the same listings.
    env["CARGO_PROFILE_RELEASE_OPT_LEVEL"] = "0"
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


def _listing_cache(crate: str, version: str, files: Sequence[str]) -> Path:
    # The files asked for are part of the key: another choice of files, another listing.
    chosen = hashlib.sha256("\n".join(files).encode()).hexdigest()[:8]
    name = f"{crate}-{version}.{chosen}.cargo-mutants-{CARGO_MUTANTS_VERSION}.json"
    return config.cache_dir() / "mutation" / name


def raw_listing(crate: str, files: Sequence[str], base: Toolchain) -> list[dict[str, Any]]:
    """cargo-mutants' JSON listing of ``files`` of ``base``'s release of ``crate`` (cached;
    files the release lacks are left out)."""
    cache = _listing_cache(crate, base.version, files)
    if cache.is_file():
        return json.loads(cache.read_text())
    source = crate_source(base, crate)
    present = [f for f in files if (source / f).is_file()]
    if not present:
        raise InstallError(f"{crate} {base.version} has none of {', '.join(files)}")
    executable = tool()
    with tempfile.TemporaryDirectory(prefix="chanfuzz-list-") as tmp:
        # A copy: cargo metadata may write a lock file, the registry's copy stays as it is.
        copy = Path(tmp) / source.name
        shutil.copytree(source, copy)
        argv = [str(executable), "mutants", "--list", "--json", "--no-config", "-d", str(copy)]
        for file in present:
            argv += ["-f", file]
        env = rust_crates.cargo_env(Path(tmp) / "target", rust_cargo.base_cargo_home(base))
        env.update(CARGO=str(base.executable), CARGO_NET_OFFLINE="true")
        result = run_argv(argv, LIST_TIMEOUT_S, env=env, cwd=Path(tmp), output_limit=64 << 20)
    if not result.ok:
        raise InstallError(f"cargo-mutants cannot list {crate} {base.version}: "
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


__all__ = [
    "CARGO_MUTANTS_VERSION",
    "MARKER",
    "Change",
    "tool",
    "change_of",
    "changes_by_id",
    "crate_source",
    "mutant_of",
    "mutants_of",
    "mutated_text",
    "raw_listing",
]

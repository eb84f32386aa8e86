"""The machine's cargo and rustc, and a crate's releases on crates.io: what every Rust
toolchain is found with, built with and chosen from.

The list of releases comes from crates.io's sparse index, asked at most once a day
(cached beside the toolchains).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

from runners import config
from runners.targets.base import (
    ToolchainUnavailable,
    clean_env,
    executable,
    mtime_ns,
    run_probe,
    version_key,
)

SPARSE_INDEX = "https://index.crates.io"
INDEX_MAX_AGE_S = 24 * 3600


def find_cargo() -> Path:
    """``$CHANFUZZ_CARGO``, else cargo on PATH, else rustup's or Debian's."""
    configured = config.binary_override("CHANFUZZ_CARGO")
    if configured is not None:
        return executable(configured, "cargo ($CHANFUZZ_CARGO)")
    for candidate in (
        shutil.which("cargo"),
        str(Path.home() / ".cargo" / "bin" / "cargo"),
        "/usr/bin/cargo",
    ):
        if candidate and Path(candidate).exists():
            return executable(Path(candidate), "cargo")
    raise ToolchainUnavailable("no cargo on this machine: apt-get install cargo (or rustup)")


def _rustc_for(cargo: Path) -> Path:
    beside = cargo.parent / "rustc"
    if beside.exists():
        return beside
    found = shutil.which("rustc")
    if found is None:
        raise ToolchainUnavailable(f"no rustc beside {cargo} or on PATH")
    return Path(found)


def rustc_version(cargo: Path) -> str:
    rustc = _rustc_for(cargo)
    out = run_probe((str(rustc), "--version"), mtime_ns(rustc)).strip()
    match = re.match(r"rustc (\d+\.\d+\.\d+\S*)", out)
    if not match:
        raise ToolchainUnavailable(f"cannot tell the version of {rustc} (got {out!r})")
    return match.group(1)


def cargo_home() -> Path:
    """The cargo home every Rust toolchain shares: crates fetched once, builds offline."""
    return config.toolchains_dir() / ".cargo-home"


def cargo_env(target_dir: Path, home: Path | None = None) -> dict[str, str]:
    """The environment of every cargo run: `home` the cargo home (default: the shared one)."""
    # The caller's RUSTFLAGS, CARGO_* settings or rustup override must not change
    # what gets built; rustup's own variables (RUSTUP_HOME, RUSTUP_TOOLCHAIN) are
    # kept so that its cargo proxy finds its toolchain.
    env = clean_env(("CARGO", "RUSTFLAGS", "RUSTDOCFLAGS", "RUSTC"))
    env.update(
        CARGO_HOME=str(home or cargo_home()),
        CARGO_TARGET_DIR=str(target_dir),
        CARGO_TERM_COLOR="never",
        CARGO_INCREMENTAL="0",
    )
    return env


# --- crates.io's releases -------------------------------------------------------------------


@dataclass(frozen=True)
class CrateRelease:
    version: str
    yanked: bool


def _index_path(crate: str) -> str:
    name = crate.lower()
    if len(name) <= 2:
        return f"{len(name)}/{name}"
    if len(name) == 3:
        return f"3/{name[0]}/{name}"
    return f"{name[:2]}/{name[2:4]}/{name}"


def parse_index(text: str) -> list[CrateRelease]:
    """Stable releases in a sparse-index file (one JSON object per line), oldest first."""
    releases = []
    for line in text.splitlines():
        if not line.strip():
            continue
        entry = json.loads(line)
        version = entry["vers"]
        if re.fullmatch(r"\d+\.\d+\.\d+", version):
            releases.append(CrateRelease(version, bool(entry.get("yanked"))))
    return sorted(releases, key=lambda r: version_key(r.version))


def crate_releases(
    crate: str, *, refresh: bool = False, offline: bool = False
) -> list[CrateRelease]:
    """Every stable release of ``crate`` on crates.io (asked at most daily)."""
    cache = config.toolchains_dir() / ".cache" / f"crates-{crate}.json"
    if not refresh and cache.is_file():
        fresh = os.path.getmtime(cache) > time.time() - INDEX_MAX_AGE_S
        if offline or fresh:
            data = json.loads(cache.read_text())
            return [CrateRelease(v, y) for v, y in data["releases"]]
    if offline:
        raise ToolchainUnavailable(f"offline, and no list of {crate}'s releases is cached")
    url = f"{SPARSE_INDEX}/{_index_path(crate)}"
    try:
        with urllib.request.urlopen(url, timeout=60) as response:  # noqa: S310 - a fixed https URL
            text = response.read().decode()
    except (urllib.error.URLError, TimeoutError, OSError) as error:
        raise ToolchainUnavailable(
            f"crates.io's index did not answer for {crate}: {error}"
        ) from None
    releases = parse_index(text)
    cache.parent.mkdir(parents=True, exist_ok=True)
    cache.write_text(json.dumps({"releases": [[r.version, r.yanked] for r in releases]}) + "\n")
    return releases

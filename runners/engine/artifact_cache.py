"""The artifact cache's size cap: least recently used entries go first.

Every compiled batch is kept (runners.engine.build), so a long campaign fills
the disk unless something evicts. An entry's last use is the modification
time of its ``meta.json`` (set when it is published, touched on every hit);
its size is recorded there when it is published. ``prune`` removes the least
recently used entries until the cache is under its cap again, but never an
entry used in the last ``min_age_s`` seconds: a batch may still be running
programs from it, and a binary removed under it would fail those runs.
``maybe_prune`` is what builds call: at most once per ``PRUNE_EVERY_S`` per
process, since it reads every entry's ``meta.json``.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from runners import config

PRUNE_EVERY_S = 60.0
MIN_AGE_S = 3600.0

_lock = threading.Lock()
_last_prune: dict[Path, float] = {}


@dataclass(frozen=True)
class Pruned:
    entries: int
    bytes_freed: int
    bytes_left: int


def tree_bytes(path: Path) -> int:
    """Bytes of the files under `path` (what an entry takes on disk, near enough)."""
    total = 0
    for root, _dirs, files in os.walk(path):
        for name in files:
            with contextlib.suppress(OSError):
                total += os.lstat(os.path.join(root, name)).st_size
    return total


def touch(entry: Path) -> None:
    """Mark `entry` as just used."""
    with contextlib.suppress(OSError):
        os.utime(entry / "meta.json")


def _entries(root: Path) -> list[tuple[float, int, Path]]:
    """(last use, bytes, path) of every complete entry under `root`."""
    found = []
    for toolchain_dir in root.iterdir() if root.is_dir() else ():
        if not toolchain_dir.is_dir():
            continue
        for entry in toolchain_dir.iterdir():
            meta = entry / "meta.json"
            try:
                used = meta.stat().st_mtime
                size = json.loads(meta.read_text()).get("bytes")
            except (OSError, ValueError):
                continue  # being published, or not an entry
            found.append((used, size if isinstance(size, int) else tree_bytes(entry), entry))
    return found


def prune(
    root: Path, *, max_bytes: int, min_age_s: float = MIN_AGE_S, now: float | None = None
) -> Pruned:
    """Remove least recently used entries of `root` until it holds at most `max_bytes`."""
    now = time.time() if now is None else now
    entries = sorted(_entries(root))
    total = sum(size for _, size, _ in entries)
    freed = removed = 0
    for used, size, entry in entries:
        if total - freed <= max_bytes:
            break
        if now - used < min_age_s:
            break  # everything after it was used more recently still
        shutil.rmtree(entry, ignore_errors=True)
        freed += size
        removed += 1
    return Pruned(removed, freed, total - freed)


def maybe_prune(root: Path) -> Pruned | None:
    """`prune` with the configured cap, if this process has not pruned `root` lately."""
    with _lock:
        now = time.monotonic()
        if now - _last_prune.get(root, -PRUNE_EVERY_S) < PRUNE_EVERY_S:
            return None
        _last_prune[root] = now
    return prune(root, max_bytes=config.artifact_cache_max_bytes())


__all__ = ["Pruned", "maybe_prune", "prune", "touch", "tree_bytes"]

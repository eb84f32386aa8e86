"""The artifact cache's cap: least recently used entries go, recent ones never; a real
Go build records its size and a cache hit marks the entry used."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

from runners.engine import artifact_cache
from runners.engine.build import build
from tests.runners.conftest import require_toolchain

GO_SOURCE = "package main\n\nfunc main() {}\n"


def _entry(root: Path, name: str, size: int, used: float) -> Path:
    entry = root / "go-x" / name
    entry.mkdir(parents=True)
    (entry / "prog").write_bytes(b"\0" * size)
    (entry / "meta.json").write_text(json.dumps({"bytes": size}))
    os.utime(entry / "meta.json", (used, used))
    return entry


def test_prune_removes_the_least_recently_used_until_under_the_cap(tmp_path: Path) -> None:
    now = time.time()
    old = _entry(tmp_path, "old", 400, now - 3 * 86400)
    older = _entry(tmp_path, "older", 400, now - 4 * 86400)
    recent = _entry(tmp_path, "recent", 400, now - 2 * 3600)
    pruned = artifact_cache.prune(tmp_path, max_bytes=500, now=now)
    assert (pruned.entries, pruned.bytes_freed, pruned.bytes_left) == (2, 800, 400)
    assert not older.exists() and not old.exists() and recent.exists()


def test_prune_never_removes_an_entry_used_within_the_hour(tmp_path: Path) -> None:
    now = time.time()
    busy = _entry(tmp_path, "busy", 1000, now - 60)
    pruned = artifact_cache.prune(tmp_path, max_bytes=10, now=now)
    assert pruned.entries == 0 and busy.exists()


def test_a_real_build_records_its_size_and_a_hit_marks_it_used(tmp_path: Path) -> None:
    go = require_toolchain("go")
    cache = tmp_path / "artifacts"
    first = build(go, GO_SOURCE, tmp_path / "w", cache_dir=cache)
    meta = first.path.parent / "meta.json"
    recorded = json.loads(meta.read_text())["bytes"]
    assert recorded == artifact_cache.tree_bytes(first.path.parent) - meta.stat().st_size
    os.utime(meta, (1, 1))
    again = build(go, GO_SOURCE, tmp_path / "w", cache_dir=cache)
    assert again.cached and meta.stat().st_mtime > time.time() - 60

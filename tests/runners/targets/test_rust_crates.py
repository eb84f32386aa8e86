"""crates.io's sparse index: where a crate's file is, and the releases it lists."""

from __future__ import annotations

import json

from runners.targets.rust_crates import CrateRelease, _index_path, parse_index


def test_index_paths_follow_the_sparse_index_layout() -> None:
    assert _index_path("flume") == "fl/um/flume"
    assert _index_path("chan") == "ch/an/chan"
    assert _index_path("sha") == "3/s/sha"
    assert _index_path("cc") == "2/cc"


def test_the_index_gives_stable_releases_oldest_first_with_yanked_marked() -> None:
    text = "\n".join(
        json.dumps({"name": "x", "vers": v, "yanked": y})
        for v, y in [("0.10.0", False), ("0.2.0", False), ("0.3.0-alpha", False), ("0.10.6", True)]
    )
    assert parse_index(text) == [
        CrateRelease("0.2.0", False),
        CrateRelease("0.10.0", False),
        CrateRelease("0.10.6", True),
    ]

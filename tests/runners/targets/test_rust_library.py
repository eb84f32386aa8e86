"""The Cargo.toml of a Rust target's programs: the release, the crates beside it, the
program's own features."""

from __future__ import annotations

from generator.render.rust import FLUME_COUNTS
from runners.targets.rust_flume_async import LIBRARY as FLUME_ASYNC
from runners.targets.rust_library import RustLibrary, manifest_text, program_features

FLUME = RustLibrary(target="rust-flume", crate="flume", flavour="flume")


def test_the_manifest_admits_the_locked_release_and_names_the_extra_crates() -> None:
    text = manifest_text(FLUME_ASYNC, "0.12.0", bin_name="prog_1")
    assert 'flume = { version = "^0.12.0" }' in text
    assert 'tokio = { version = "1", features = ["rt-multi-thread", "macros"] }' in text
    assert 'name = "prog_1"' in text and 'path = "src/main.rs"' in text
    std = manifest_text(RustLibrary(target="rust-std", crate=None, flavour="std"), "1.95.0")
    assert "[dependencies]\n\n" in std
    # A standalone project pins the release itself; the extra crates stay as they were.
    exact = manifest_text(FLUME_ASYNC, "0.12.0", exact=True)
    assert 'flume = { version = "=0.12.0" }' in exact and 'tokio = { version = "1"' in exact


def test_the_program_feature_is_on_from_the_release_that_has_the_api() -> None:
    # flume's sender_count()/receiver_count(): 0.10.14 has none, 0.11.1 on have both.
    assert program_features(FLUME_ASYNC, "0.10.14") == []
    assert program_features(FLUME_ASYNC, "0.11.1") == [FLUME_COUNTS]
    assert program_features(FLUME_ASYNC, "0.12.0") == [FLUME_COUNTS]
    new, old = manifest_text(FLUME_ASYNC, "0.12.0"), manifest_text(FLUME_ASYNC, "0.10.14")
    assert f'default = ["{FLUME_COUNTS}"]\n{FLUME_COUNTS} = []' in new
    assert f"default = []\n{FLUME_COUNTS} = []" in old
    assert "[features]" not in manifest_text(FLUME, "0.12.0")  # a library without

"""The Rust targets' shared machinery: installs, the listing of releases, bundles."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from runners.targets import get_target
from runners.targets.base import InstallError, ToolchainUnavailable
from runners.targets.rust_cargo import bundle_script, candidates, install
from runners.targets.rust_flume_async import LIBRARY as FLUME_ASYNC
from runners.targets.rust_library import RustLibrary

FLUME = RustLibrary(target="rust-flume", crate="flume", flavour="flume")


def test_a_bundle_builds_the_pinned_release_without_chanfuzz() -> None:
    script = bundle_script(FLUME)
    assert "VERSION=${VERSION:-0.12.0}" in script
    assert 'flume = { version = "=$VERSION" }' in script
    assert "cargo" in script and "./target/release/chanfuzzprog" in script


@pytest.mark.parametrize(
    "version, expected", [("0.10.14", "[]"), ("0.11.1", '["counts"]'), ("0.12.0", '["counts"]')]
)
def test_a_bundle_turns_the_feature_on_by_its_release(version: str, expected: str) -> None:
    script = bundle_script(FLUME_ASYNC)
    head = script[: script.index("mkdir")]
    shown = subprocess.run(
        ["sh", "-c", head + 'echo "[$FEATURES]"'],
        env={"VERSION": version, "PATH": os.environ["PATH"]},
        capture_output=True,
        text=True,
        check=True,
    )
    assert shown.stdout.strip() == expected
    assert "default = [$FEATURES]" in script


def test_an_unknown_release_names_the_ones_that_exist(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("CHANFUZZ_TOOLCHAINS_DIR", str(tmp_path))
    cache = tmp_path / ".cache" / "crates-flume.json"
    cache.parent.mkdir(parents=True)
    cache.write_text(json.dumps({"releases": [["0.10.14", False], ["0.11.1", False]]}))
    with pytest.raises(
        InstallError, match=r"9\.9\.9 is not a release of flume.*0\.10\.14, 0\.11\.1"
    ):
        install(FLUME)("9.9.9", log=lambda _m: None)
    assert not (tmp_path / ".failed").exists()  # a typo is not a broken release


def test_no_installed_release_says_how_to_install_one(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("CHANFUZZ_TOOLCHAINS_DIR", str(tmp_path))
    (only,) = list(candidates(FLUME)())
    with pytest.raises(ToolchainUnavailable, match="toolchains install rust-flume VERSION"):
        only.locate()


def test_rust_flume_does_not_see_rust_flume_async_releases(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("CHANFUZZ_TOOLCHAINS_DIR", str(tmp_path))
    other = tmp_path / "rust-flume-async-0.12.0"
    other.mkdir()
    (other / "toolchain.json").write_text("{}")
    (only,) = list(candidates(FLUME)())
    with pytest.raises(ToolchainUnavailable, match="no flume release installed"):
        only.locate()


def test_rust_std_has_no_select_and_installs_nothing() -> None:
    std = get_target("rust-std")
    assert std.capabilities.select is False
    assert std.install is None and "comes with rustc" in std.not_installable


def test_the_listing_has_every_release_with_why_it_is_not_installed(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from runners.engine.toolchains import available_toolchains
    from runners.targets.base import record_failure
    from runners.targets.rust_cargo import known

    monkeypatch.setenv("CHANFUZZ_TOOLCHAINS_DIR", str(tmp_path))
    cache = tmp_path / ".cache" / "crates-flume.json"
    cache.parent.mkdir(parents=True)
    cache.write_text(json.dumps({"releases": [["0.10.6", True], ["0.10.14", False]]}))
    record_failure("rust-flume", "0.10.6", "cannot build with rustc 1.95.0: error[E0658]")
    listed = known(FLUME)(True, available_toolchains("rust-flume"))
    # No line for the place holder that says "none installed": the releases say it.
    assert [(k.version, k.state, k.note) for k in listed] == [
        ("0.10.6", "unavailable", "yanked on crates.io"),
        ("0.10.14", "not installed", ""),
    ]
    assert "E0658" in listed[0].detail
    assert listed[1].detail == "run manage.py toolchains install rust-flume 0.10.14"


def test_rust_batches_cut_hangs_sooner_and_keep_more_aside_than_a_jvms() -> None:
    from runners.targets.base import HANGS_ASIDE, SHARED_QUIET_S

    flume, clojure = get_target("rust-flume"), get_target("clojure-go")
    assert flume.shared_quiet_s < clojure.shared_quiet_s == SHARED_QUIET_S
    assert flume.hangs_aside > clojure.hangs_aside == HANGS_ASIDE

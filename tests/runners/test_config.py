"""runners.config: the one module that reads the environment, and the README that lists it."""

from __future__ import annotations

import os
import re
import subprocess
import tempfile
import types
from collections.abc import Callable
from pathlib import Path

import pytest

from runners import config
from runners.config import ConfigError

REPO = Path(config.REPO_ROOT)


@pytest.mark.parametrize("raw", ["1", "true", "True", "YES", "on", " true "])
def test_flag_true(monkeypatch: pytest.MonkeyPatch, raw: str) -> None:
    monkeypatch.setenv("X_FLAG", raw)
    assert config.flag("X_FLAG", False) is True


@pytest.mark.parametrize("raw", ["0", "false", "False", "no", "OFF"])
def test_flag_false(monkeypatch: pytest.MonkeyPatch, raw: str) -> None:
    monkeypatch.setenv("X_FLAG", raw)
    assert config.flag("X_FLAG", True) is False


def test_flag_unset_or_empty_gives_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("X_FLAG", raising=False)
    assert config.flag("X_FLAG", True) is True
    monkeypatch.setenv("X_FLAG", "")
    assert config.flag("X_FLAG", False) is False


def test_flag_rejects_other_words(monkeypatch: pytest.MonkeyPatch) -> None:
    # A typo must not silently flip debug on or off.
    monkeypatch.setenv("X_FLAG", "ture")
    with pytest.raises(ConfigError, match="X_FLAG='ture'"):
        config.flag("X_FLAG", False)


def test_words(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("X_LIST", raising=False)
    assert config.words("X_LIST", ["a"]) == ["a"]
    monkeypatch.setenv("X_LIST", " example.org, ,localhost ")
    assert config.words("X_LIST", ["a"]) == ["example.org", "localhost"]


def test_text(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("X_STR", "")
    assert config.text("X_STR", "d") == "d"
    monkeypatch.setenv("X_STR", "v")
    assert config.text("X_STR", "d") == "v"


def test_paths_follow_the_environment_at_call_time(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("CHANFUZZ_TOOLCHAINS_DIR", str(tmp_path / "t"))
    monkeypatch.setenv("CHANFUZZ_CACHE_DIR", str(tmp_path / "c"))
    assert config.toolchains_dir() == tmp_path / "t"
    assert config.cache_dir() == tmp_path / "c"
    monkeypatch.delenv("CHANFUZZ_CACHE_DIR")
    assert config.cache_dir() == REPO / "var" / "cache"


def test_the_scratch_directory_is_memory_with_room_else_the_temporary_directory(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    if not os.access("/dev/shm", os.W_OK | os.X_OK):
        pytest.skip("no /dev/shm this user can write here")
    monkeypatch.delenv("CHANFUZZ_SCRATCH_DIR", raising=False)
    real = os.statvfs

    def room(free: int) -> Callable[[object], object]:
        def statvfs(path: object) -> object:
            got = real(path)
            if str(path) != "/dev/shm":
                return got
            return types.SimpleNamespace(f_bavail=free // got.f_frsize, f_frsize=got.f_frsize)

        return statvfs

    monkeypatch.setattr(os, "statvfs", room(config.SCRATCH_FREE_BYTES))
    assert config.scratch_dir() == Path("/dev/shm")
    monkeypatch.setattr(os, "statvfs", room(config.SCRATCH_FREE_BYTES - (1 << 20)))
    assert config.scratch_dir() == Path(tempfile.gettempdir())  # a container's small /dev/shm
    monkeypatch.setenv("CHANFUZZ_SCRATCH_DIR", str(tmp_path))
    assert config.scratch_dir() == tmp_path


def test_the_campaign_periods_are_whole_seconds_of_at_least_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert (config.heartbeat_s(), config.sweep_every_s()) == (10, 30)
    monkeypatch.setenv("CHANFUZZ_HEARTBEAT_S", "2")
    monkeypatch.setenv("CHANFUZZ_SWEEP_EVERY_S", "0")
    assert (config.heartbeat_s(), config.sweep_every_s()) == (2, 1)
    monkeypatch.setenv("CHANFUZZ_HEARTBEAT_S", "1.5")
    with pytest.raises(config.ConfigError, match="CHANFUZZ_HEARTBEAT_S"):
        config.heartbeat_s()


def _names_used_in_the_tree() -> set[str]:
    files = subprocess.run(
        ["git", "ls-files", "*.py", "*.sh", "*.Dockerfile", ".ci/*"],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    found: set[str] = set()
    for name in files:
        path = REPO / name
        if path.is_file():
            found.update(re.findall(r"\bCHANFUZZ_[A-Z][A-Z0-9_]*\b", path.read_text()))
    # Markers the test suite invents for its own programs, not settings.
    return {n for n in found if not n.startswith("CHANFUZZ_TEST_")}


def test_every_chanfuzz_variable_in_the_tree_is_declared_in_config() -> None:
    declared = {v.name for v in config.VARIABLES}
    assert _names_used_in_the_tree() <= declared, _names_used_in_the_tree() - declared


def test_every_declared_variable_is_in_the_readme_with_its_default() -> None:
    readme = (REPO / "README.md").read_text()
    rows = {
        m.group(1): m.group(2)
        for m in re.finditer(r"^\| `([A-Z][A-Z0-9_]*)` \| ([^|]*) \|", readme, re.M)
    }
    missing = [v.name for v in config.VARIABLES if v.name not in rows]
    assert not missing, f"README's Configuration table lacks {missing}"
    for variable in config.VARIABLES:
        assert rows[variable.name].strip() == variable.default, variable.name

"""`manage.py toolchains list|install`: every known version, and why one is not installed."""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from runners.engine.toolchains import available_toolchains
from runners.targets.base import failure_record


@pytest.fixture
def toolchains_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    base = tmp_path / "toolchains"
    base.mkdir()
    monkeypatch.setenv("CHANFUZZ_TOOLCHAINS_DIR", str(base))
    monkeypatch.delenv("CHANFUZZ_FLIX_JAR", raising=False)
    return base


def _list(*args: str) -> str:
    out = StringIO()
    call_command("toolchains", "list", *args, stdout=out)
    return out.getvalue()


def test_list_kotlin_shows_every_release_and_how_to_install_it(toolchains_dir: Path) -> None:
    text = _list("kotlin")
    lines = text.splitlines()
    assert any(
        line.split()[:2] == ["kotlin", "0.22.5"]
        and "not installed" in line
        and "run manage.py toolchains install kotlin 0.22.5" in line
        and "Kotlin 1.2.41 instead of 1.2.21" in line
        for line in lines
    ), text
    assert any(line.split()[:2] == ["kotlin", "0.19"] for line in lines)
    assert any(line.split()[:2] == ["kotlin", "1.3.3"] for line in lines)


def test_list_flix_says_why_it_is_unavailable(toolchains_dir: Path) -> None:
    text = _list("flix")
    assert "unavailable" in text
    assert "Flix is on no registry reachable here; set CHANFUZZ_FLIX_JAR=/path/to/flix.jar" in text


def test_list_crystal_gives_each_place_its_state_and_how_to_get_it(toolchains_dir: Path) -> None:
    # Whatever this machine has: one line per place the registry looks, in its order.
    places = available_toolchains("crystal")
    *lines, last = _list("crystal").splitlines()
    assert last == (
        "crystal  no other version: Crystal comes from Debian only: apt-get install crystal"
    )
    assert len(lines) == len(places) > 0, lines
    for line, place in zip(lines, places, strict=True):
        words = line.split()
        assert words[0] == "crystal", line
        if place.toolchain is not None:
            assert words[1:4] == [place.toolchain.version, "installed", place.toolchain.id], line
        else:
            assert words[1] == "?", line
            assert line.split(None, 2)[2].startswith(("not installed ", "unavailable ")), line
            assert (place.hint or place.reason.partition("\n")[0]) in line, line


def test_list_go_offline_without_a_cached_list_says_why(toolchains_dir: Path) -> None:
    lines = _list("go", "--offline").splitlines()
    proxy = [line for line in lines if "Go module proxy" in line]
    assert len(proxy) == 1, lines
    assert proxy[0].split()[0] == "go" and proxy[0].split()[2] == "unavailable", proxy
    assert "offline, and no list of the Go module proxy is cached" in proxy[0]


def test_list_json(toolchains_dir: Path) -> None:
    entries = json.loads(_list("kotlin", "--json"))
    entry = next(e for e in entries if e["version"] == "0.19.3")
    assert entry["state"] == "not installed"
    assert entry["language"] == "kotlin"


def test_install_refuses_what_cannot_be_installed(toolchains_dir: Path) -> None:
    with pytest.raises(CommandError, match="Debian"):
        call_command("toolchains", "install", "crystal", "1.6.0", stdout=StringIO())
    with pytest.raises(CommandError, match="--compiler does not apply to go"):
        call_command("toolchains", "install", "go", "1.22.12", "--kotlin", "1.3.0")


def test_list_says_a_release_that_no_longer_builds_in_one_line(toolchains_dir: Path) -> None:
    complaint = "cannot build with rustc 1.95.0: error[E0119]: conflicting implementations\n"
    record = failure_record("rust-chan", "0.1.2")
    record.parent.mkdir(parents=True, exist_ok=True)
    record.write_text(json.dumps({"reason": complaint + "  --> src/lib.rs:7:1\n  |\n"}))
    lines = _list("rust-chan").splitlines()
    (line,) = [x for x in lines if x.split()[:2] == ["rust-chan", "0.1.2"]]
    assert "unavailable" in line and line.endswith("conflicting implementations […]")
    # The whole complaint is kept for --json.
    entries = json.loads(_list("rust-chan", "--json"))
    entry = next(e for e in entries if e["version"] == "0.1.2")
    assert entry["detail"].endswith("  |\n")

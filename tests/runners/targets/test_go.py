"""The Go target's build plan (runners/targets/go.py)."""

from __future__ import annotations

from pathlib import Path

from runners.targets.base import Toolchain
from runners.targets.go import BUILD_GOGC, _go_plan, go_env


def _toolchain(tmp_path: Path) -> Toolchain:
    return Toolchain(
        language="go",
        version="1.26.8",
        id="go-1.26.8",
        origin="installed",
        home=tmp_path / "go",
        executable=tmp_path / "go" / "bin" / "go",
    )


def test_only_the_build_collects_garbage_less_often(tmp_path: Path) -> None:
    toolchain = _toolchain(tmp_path)
    work = tmp_path / "work"
    work.mkdir()
    plan = _go_plan(toolchain, work, [])
    assert plan.env["GOGC"] == BUILD_GOGC and int(BUILD_GOGC) > 100
    # The runtime's own tests (runners.mutation) and the programs keep Go's default GC.
    assert "GOGC" not in go_env(toolchain)
    assert plan.env["GOPROXY"] == "off" and plan.env["GOTOOLCHAIN"] == "local"
    assert "-gcflags=-N -l -dwarf=false" in plan.argv and plan.product == work / "prog"
    assert dict(plan.files)["go.mod"].startswith("module chanfuzzprog\n\ngo 1.26\n")

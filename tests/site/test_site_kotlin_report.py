"""`manage.py kotlin_report`: campaigns through a real Redis and RQ workers, read back into
the JSON and Markdown report, and found again by name on the next run."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from runners.engine.redis_server import free_port
from tests.runners.conftest import require_toolchain
from tests.site.site_helpers import REPO, clean_env


def _manage(tmp_path: Path, *args: str, timeout: float = 900) -> subprocess.CompletedProcess[str]:
    env = clean_env(
        CHANFUZZ_VAR_DIR=str(tmp_path / "var"),
        # Nothing answers there: the command starts a private redis-server.
        REDIS_URL=f"redis://127.0.0.1:{free_port()}/0",
    )
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--steps", "everything"], "unknown steps ['everything']"),
        (["--steps", "none", "--releases", "0.0.7"], "not installed: 0.0.7"),
        (["--steps", "none", "--heuristics", "AZ"], "--heuristics: letters from A to F"),
        (["--steps", "none", "--workers", "99"], "--workers must be from 0 to 16"),
    ],
)
def test_bad_arguments_are_refused_with_exit_2(
    tmp_path: Path, args: list[str], message: str
) -> None:
    with pytest.raises(CommandError, match=re.escape(message)) as refused:
        call_command("kotlin_report", "--output", str(tmp_path), *args)
    assert refused.value.returncode == 2
    assert not (tmp_path / "kotlin-report.md").exists()


@pytest.mark.slow
def test_campaigns_run_through_rq_and_are_found_again(tmp_path: Path) -> None:
    require_toolchain("kotlin", "1.0.1")
    require_toolchain("kotlin", "1.11.0")
    out = tmp_path / "docs"
    assert _manage(tmp_path, "migrate", "-v0").returncode == 0
    # Program 984 of heuristic A is the regression fixture: with 100,000 repetitions it
    # crashed 1.0.1 in 6 of 6 runs, so Table 2 almost surely finds it and the sweep runs it.
    args = [
        "kotlin_report", "--release", "1.0.1", "--heuristics", "A", "--programs", "2",
        "--seed", "984", "--sweep-programs", "2", "--releases", "1.0.1,1.11.0",
        "--repetitions", "100000", "--workers", "1", "--output", str(out),
    ]  # fmt: skip
    first = _manage(tmp_path, *args, "--steps", "campaigns")
    assert first.returncode == 0, first.stdout + first.stderr
    data = json.loads((out / "kotlin-report.json").read_text())
    (row,) = data["table2"]
    assert (row["heuristic"], row["programs"], row["paper"]) == ("A", 2, 48)
    assert all(c["status"] == "done" for c in data["campaigns"])
    if row["revealing"]:
        sweep = {r["version"]: r for r in data["sweep"]}
        assert [(v, r["programs"]) for v, r in sweep.items()] == [("1.0.1", 1), ("1.11.0", 1)]
        assert sweep["1.11.0"]["revealing"] == 0  # the fixed release never crashes
        # The sweep runs it again from its effect: the shortest has that effect.
        assert row["example"] == "wsmlgu7owht3"
        assert data["shortest"]["effect"].startswith("Spawn(SelPut(c1, eps) (+) SelPut(c1, eps)")
    else:  # the race did not show in its one run
        assert "no program revealed the bug: no release sweep" in first.stdout
        assert data["sweep"] == []
    markdown = (out / "kotlin-report.md").read_text()
    assert f"[#{row['campaign_id']}](/campaigns/{row['campaign_id']}/)" in markdown
    assert "| 1.11.0 | `kotlin-2.2.20-coroutines-1.11.0` |" in markdown

    again = _manage(tmp_path, *args, "--steps", "campaigns", timeout=300)
    assert again.returncode == 0, again.stdout + again.stderr
    assert json.loads((out / "kotlin-report.json").read_text())["campaigns"] == data["campaigns"]

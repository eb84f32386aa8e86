"""`manage.py kotlin_report`: campaigns through a real Redis and RQ workers, read back into
the JSON and Markdown report, and found again by name on the next run."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from runners.redis_server import free_port
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


def test_unknown_step_and_missing_release_are_refused(tmp_path: Path) -> None:
    assert _manage(tmp_path, "migrate", "-v0").returncode == 0
    bad = _manage(tmp_path, "kotlin_report", "--steps", "everything")
    assert bad.returncode == 2 and "unknown steps ['everything']" in bad.stderr
    missing = _manage(tmp_path, "kotlin_report", "--steps", "none", "--releases", "0.0.7")
    assert missing.returncode == 2 and "not installed: 0.0.7" in missing.stderr


@pytest.mark.slow
def test_campaigns_run_through_rq_and_are_found_again(tmp_path: Path) -> None:
    require_toolchain("kotlin", "1.0.1")
    require_toolchain("kotlin", "1.11.0")
    out = tmp_path / "docs"
    assert _manage(tmp_path, "migrate", "-v0").returncode == 0
    args = [
        "kotlin_report", "--release", "1.0.1", "--heuristics", "E", "--programs", "3",
        "--sweep-programs", "2", "--releases", "1.0.1,1.11.0", "--repetitions", "20",
        "--workers", "1", "--output", str(out),
    ]  # fmt: skip
    first = _manage(tmp_path, *args, "--steps", "campaigns")
    assert first.returncode == 0, first.stdout + first.stderr
    data = json.loads((out / "kotlin-report.json").read_text())
    (row,) = data["table2"]
    assert (row["heuristic"], row["programs"], row["paper"]) == ("E", 3, 148)
    assert [(r["version"], r["programs"]) for r in data["sweep"]] == [("1.0.1", 2), ("1.11.0", 2)]
    assert all(c["status"] == "done" for c in data["campaigns"])
    markdown = (out / "kotlin-report.md").read_text()
    assert f"[#{row['campaign_id']}](/campaigns/{row['campaign_id']}/)" in markdown
    assert "| 1.11.0 | `kotlin-2.2.20-coroutines-1.11.0` |" in markdown

    again = _manage(tmp_path, *args, "--steps", "campaigns", timeout=300)
    assert again.returncode == 0, again.stdout + again.stderr
    assert json.loads((out / "kotlin-report.json").read_text())["campaigns"] == data["campaigns"]

"""`manage.py rust_report`: bad arguments refused; campaigns through a real Redis and RQ
workers on a real crate release, read back into the JSON and Markdown report, bisected,
and a bug report written for what they found."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from tests.runners.conftest import require_toolchain
from tests.site.site_helpers import Manage


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--steps", "everything"], "unknown steps ['everything']"),
        (["--steps", "none", "--targets", "rust-tokio"], "unknown targets ['rust-tokio']"),
        (["--steps", "none", "--heuristics", "AZ"], "--heuristics: letters from A to F"),
        (["--steps", "none", "--workers", "99"], "--workers must be from 0 to 16"),
        (["--steps", "none", "--programs", "0"], "--programs must be from 1 to 1000000"),
    ],
)
def test_bad_arguments_are_refused_with_exit_2(
    tmp_path: Path, args: list[str], message: str
) -> None:
    with pytest.raises(CommandError, match=re.escape(message)) as refused:
        call_command("rust_report", "--output", str(tmp_path), *args)
    assert refused.value.returncode == 2
    assert not (tmp_path / "rust-report.md").exists()


def test_clojure_racket_report_refuses_a_rust_target(tmp_path: Path) -> None:
    message = (
        "unknown targets ['rust-flume']: choose from ['clojure-go', 'clojure-thread', 'racket']"
    )
    with pytest.raises(CommandError, match=re.escape(message)):
        call_command(
            "clojure_racket_report", "--output", str(tmp_path), "--steps", "none",
            "--targets", "rust-flume",
        )  # fmt: skip
    assert not list(tmp_path.iterdir())


@pytest.mark.slow
def test_flume_study_runs_bisects_and_writes_a_bug_report(
    tmp_path: Path, study_process: Manage
) -> None:
    require_toolchain("rust-flume", "0.10.14")
    require_toolchain("rust-flume", "0.12.0")
    manage = study_process
    out = tmp_path / "docs"
    # Seeds 1000… of heuristic A: about one flume 0.12.0 program in eight hangs (its
    # Selector completes more than one send), so 24 programs almost surely find one.
    args = [
        "rust_report", "--targets", "rust-flume", "--releases", "0.10.14,0.12.0",
        "--heuristics", "A", "--programs", "24", "--seed", "1000",
        "--newest-budget", "300", "--oldest-budget", "30", "--bisect-findings", "1",
        "--bisect-runs", "3", "--rate-runs", "5", "--workers", "2", "--output", str(out),
        "--hang-quiet", "1",
    ]  # fmt: skip
    ran = manage(*args, "--steps", "campaigns,bisect,bugs")
    assert ran.returncode == 0, ran.stdout + ran.stderr
    data = json.loads((out / "rust-report.json").read_text())
    flume = data["targets"]["rust-flume"]
    assert flume["newest"] == "0.12.0" and flume["oldest"] == "0.10.14"
    newest = flume["releases"]["0.12.0"]
    (row,) = newest["heuristics"]
    assert row["heuristic"] == "A" and row["programs"] == 24 and not row["stopped_at_budget"]
    assert flume["releases"]["0.10.14"]["heuristics"][0]["programs"] > 0
    markdown = (out / "rust-report.md").read_text()
    (campaign,) = row["campaigns"]
    assert f"[#{campaign['id']}](/campaigns/{campaign['id']}/)" in markdown
    # Each round says how its hangs were declared: rounds may differ.
    assert ", 24 programs asked per target and release; budget 300 s" in markdown
    assert "; 2 RQ workers; hung after 1.0 s blocked" in markdown
    # Only crashes and confirmed hangs are bisected and reported: a hang whose re-run
    # ended (a stall of the machine, or a rare race) is counted apart.
    confirmed = [f for f in newest["findings"] if not f["is_hang"] or f["confirmed_hangs"]]
    unconfirmed = [f for f in newest["findings"] if f not in confirmed]
    assert all(f["bisection"] is None for f in unconfirmed)
    if confirmed:
        finding = confirmed[0]
        tried = [r["version"] for r in finding["bisection"]["results"]]
        assert tried == ["0.10.14", "0.12.0"]
        (bug,) = data["bug_reports"]
        project = out / bug["directory"]
        assert 'flume = { version = "=0.12.0" }' in (project / "Cargo.toml").read_text()
        assert "fn main" in (project / "src" / "main.rs").read_text()
        readme = (project / "README.md").read_text()
        verb = "hung" if finding["is_hang"] else "crashed"
        assert f"{bug['bad_runs']} of 5 runs {verb}" in readme
        assert "Cargo.toml pins the release exactly" in readme
    elif not unconfirmed:  # the race did not show: still a complete report, saying so
        assert "No crash or hang." in markdown

    # Found again by name: a second run reads the same campaigns instead of new ones.
    again = manage(*args, "--steps", "campaigns")
    assert again.returncode == 0, again.stdout + again.stderr
    data = json.loads((out / "rust-report.json").read_text())
    assert data["targets"]["rust-flume"]["releases"]["0.12.0"]["heuristics"][0] == {
        **row,
        "seconds": pytest.approx(row["seconds"]),
        "minutes": pytest.approx(row["minutes"]),
        "per_minute": pytest.approx(row["per_minute"]),
    }


def test_each_report_command_takes_its_family_from_its_defaults() -> None:
    from chanfuzz_site.management.commands import clojure_racket_report, rust_report

    assert rust_report.Command().family.name == "rust"
    assert clojure_racket_report.Command().family.name == "clojure-racket"

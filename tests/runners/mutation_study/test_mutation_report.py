"""`manage.py mutation_report` through real RQ workers and Redis on real Go mutants: one
that loses a wake-up (killed by chanfuzz and by Go's own tests) and one in code no
program reaches (survives both: an equivalent mutant)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from runners.mutation import go_mutants
from tests.runners.campaigns.test_jobs import Site, site  # noqa: F401 - the fixture
from tests.runners.conftest import require_toolchain

pytestmark = pytest.mark.slow


def _mutant_id(base, before: str, operator: str = "drop") -> str:  # noqa: ANN001
    return next(
        m.id
        for m in go_mutants.list_mutants(base.home)
        if m.operator == operator and m.before.strip().startswith(before)
    )


def _report(site: Site, out: Path, *args: str) -> dict:  # noqa: F811
    ran = site.manage(
        "mutation_report", "--kinds", "go", "--heuristics", "F", "--programs", "6",
        "--budget", "240", "--workers", "2", "--output", str(out), *args, timeout=1800,
    )  # fmt: skip
    assert ran.returncode == 0, ran.stdout[-3000:] + ran.stderr[-3000:]
    assert (out / "mutation-report.md").exists()
    return json.loads((out / "mutation-report.json").read_text())


def test_a_lost_wake_up_is_killed_by_both_and_an_equivalent_mutant_by_neither(
    site: Site,  # noqa: F811
    tmp_path: Path,
) -> None:
    base = require_toolchain("go")
    # send() hands the value to a waiting receiver without waking it (chansend's goready).
    lost_wake_up = _mutant_id(base, "goready(gp, skip+1)")
    data = _report(site, tmp_path / "killed", "--mutant-ids", lost_wake_up)
    (kind,) = data["kinds"]
    (mutant,) = kind["mutants"]
    assert kind["control_signatures"] == []
    assert (mutant["id"], mutant["status"]) == (lost_wake_up, "killed")
    # Go reports every goroutine asleep: a crash, found by the first program.
    assert mutant["heuristics"]["F"]["outcome"] == "crash"
    assert mutant["heuristics"]["F"]["programs"] == 1
    assert mutant["runtime_tests"]["status"] == "killed"

    # msanwrite does nothing unless built with -msan.
    equivalent = _mutant_id(base, "msanwrite(")
    data = _report(site, tmp_path / "equivalent", "--mutant-ids", equivalent,
                   "--no-runtime-tests")  # fmt: skip
    (mutant,) = data["kinds"][0]["mutants"]
    assert mutant["status"] == "survived"
    assert mutant["heuristics"]["F"] == {**mutant["heuristics"]["F"], "killed": False,
                                         "programs": 6, "compile_errors": 0}  # fmt: skip
    report = (tmp_path / "equivalent" / "mutation-report.md").read_text()
    assert f"| `{equivalent}` |" in report and "| **survived** | not run |" in report


def test_an_unknown_mutant_id_is_refused(site: Site, tmp_path: Path) -> None:  # noqa: F811
    ran = site.manage("mutation_report", "--kinds", "go", "--mutant-ids", "chan-0-nothing",
                      "--workers", "0", "--output", str(tmp_path))  # fmt: skip
    assert ran.returncode == 2
    assert "no mutants ['chan-0-nothing']" in ran.stderr

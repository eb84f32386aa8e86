"""`manage.py clojure_racket_report`: the release study of issue #19 on real toolchains:
campaigns through a real Redis and RQ workers on a core.async release and its oldest
that builds, and on Racket (one release: no oldest), read back into the report."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.runners.conftest import require_toolchain
from tests.site.site_helpers import Manage


@pytest.mark.slow
def test_core_async_and_racket_study_runs_and_writes_its_report(
    tmp_path: Path, study_process: Manage
) -> None:
    require_toolchain("racket")
    require_toolchain("clojure-thread", "0.3.443")
    require_toolchain("clojure-thread", "1.9.865")
    manage = study_process
    out = tmp_path / "docs"
    ran = manage(
        "clojure_racket_report", "--targets", "clojure-thread,racket",
        # Each target keeps the releases of the list it has.
        "--releases", "0.3.443,1.9.865,8.7", "--heuristics", "A", "--programs", "12",
        "--newest-budget", "300", "--oldest-budget", "300", "--workers", "2",
        "--steps", "campaigns,bisect,bugs", "--output", str(out),
    )  # fmt: skip
    assert ran.returncode == 0, ran.stdout + ran.stderr
    assert "racket: one release installed, no older one to study" in ran.stdout
    data = json.loads((out / "clojure-racket-report.json").read_text())
    # The family's defaults: a JVM's limit, and hangs told by every thread blocked.
    assert data["plan"]["family"] == "clojure-racket"
    assert (data["plan"]["timeout_s"], data["plan"]["hang_quiet_s"]) == (10.0, 2.0)
    thread = data["targets"]["clojure-thread"]
    assert (thread["newest"], thread["oldest"]) == ("1.9.865", "0.3.443")
    racket = data["targets"]["racket"]
    assert racket["newest"] == "8.7" and "oldest" not in racket
    for target, version in (("clojure-thread", "1.9.865"), ("clojure-thread", "0.3.443"),
                            ("racket", "8.7")):  # fmt: skip
        (row,) = data["targets"][target]["releases"][version]["heuristics"]
        assert row["programs"] == 12 and row["errors"] == 0, (target, version, row)
    markdown = (out / "clojure-racket-report.md").read_text()
    assert markdown.startswith("# Clojure core.async and Racket channels: what chanfuzz found")
    assert "| `racket` | 8.7 (the only release installed) | 12 (12) |" in markdown
    assert "| `clojure-thread` | 0.3.443 (oldest that builds) | 12 (12) |" in markdown

"""A finding's standalone reproducer and bug report: a real Go deadlock found by a real
run, its reproducer run with plain `sh` (no chanfuzz), and the report's content."""

from __future__ import annotations

import os
import subprocess
from datetime import timedelta
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from runners.campaigns import bug_reports, services
from runners.campaigns.models import Finding, Reduction
from runners.campaigns.programs import build_from_effect, campaign_program, store_program
from runners.engine.execute import execute_batch
from runners.engine.run_target import target_for
from runners.engine.sandbox import Limits, get_sandbox
from tests.runners.conftest import require_toolchain

pytestmark = [pytest.mark.django_db, pytest.mark.slow]  # each test runs Go for real

STUCK = "Spawn(Get(c2)) ; Get(c1) ; Put(c2)"  # deadlocks on every runtime


def _go_finding(tmp_path: Path) -> Finding:
    """A campaign of STUCK on Go whose one program was really run and recorded."""
    go = require_toolchain("go")
    campaign = services.campaign_from_programs(
        effects=[STUCK], targets=[("go", go.id)], timeout_s=5, repetitions=2, enqueue=False
    )
    target_row = campaign.targets.get()
    built = campaign_program(campaign, 0)
    result = execute_batch(
        [built.program], target_for(go, repetitions=2), workdir=tmp_path / "build",
        sandbox=get_sandbox("local"), limits=Limits(timeout_s=5),
    ).executions[0]  # fmt: skip
    services.record_execution(
        program=store_program(built), index=0, result=result, language="go", target=target_row
    )
    return Finding.objects.get()


def test_the_reproducer_runs_without_chanfuzz_until_the_program_fails(tmp_path: Path) -> None:
    finding = _go_finding(tmp_path)
    ev = bug_reports.evidence(finding)
    assert (ev.program, ev.failures, ev.runs, ev.repetitions) == (finding.example, 1, 1, 2)
    script = bug_reports.reproducer_script(finding, ev, permalink="https://x/p/1")
    path = tmp_path / bug_reports.reproducer_name(finding)
    path.write_text(script)
    go = require_toolchain("go")
    env = {"PATH": os.environ["PATH"], "HOME": str(tmp_path), "GO": str(go.home / "bin" / "go"),
           "GOCACHE": str(tmp_path / "gocache"), "GOFLAGS": "-modcacherw", "RUNS": "5"}  # fmt: skip
    done = subprocess.run(["sh", str(path)], env=env, capture_output=True, text=True, timeout=300)
    # Go sees every goroutine asleep on the first run and exits 2.
    assert done.returncode == 2, done.stdout + done.stderr
    assert "all goroutines are asleep" in done.stderr
    assert "crashed (exit 2) after 0 passing runs" in done.stdout
    assert f"# Signature: {finding.signature}" in script and go.summary() in script


def test_the_bug_report_has_versions_rate_output_and_program(tmp_path: Path) -> None:
    finding = _go_finding(tmp_path)
    ev = bug_reports.evidence(finding)
    text = bug_reports.report_markdown(finding, ev, permalink="https://x/p/1", script_url="u")
    go = require_toolchain("go")
    # STUCK was given, not generated, and can deadlock: the report does not call it a
    # program that must terminate.
    assert text.startswith(f"# Go {go.version}: a program whose effect can deadlock crashes")
    assert f"- Signature: `{finding.signature}`" in text
    assert "1 of 1 runs failed (100 %)" in text and go.summary() in text
    assert "```go\n" in text and "package main" in text and "all goroutines are asleep" in text
    assert ev.program.effect_text in text


def test_a_finished_reduction_gives_the_reported_program(tmp_path: Path) -> None:
    finding = _go_finding(tmp_path)
    smaller = store_program(build_from_effect("Spawn(Get(c2)) ; Get(c1)", 0))
    state = {"final_failures": 7, "final_runs": 8}
    Reduction.objects.create(
        finding=finding, program=finding.example, reduced=smaller, language="go",
        toolchain_id=require_toolchain("go").id, signature=finding.signature, timeout_s=5,
        repetitions=2, status="done", state=state,
    )  # fmt: skip
    ev = bug_reports.evidence(finding)
    assert (ev.program, ev.reduced_from, ev.failures, ev.runs) == (smaller, finding.example, 7, 8)
    text = bug_reports.report_markdown(finding, ev, permalink="p", script_url="u")
    assert f"Reduced by chanfuzz from program {finding.example_id}" in text


def test_a_reduction_that_kept_nothing_gives_its_measured_rate(tmp_path: Path) -> None:
    finding = _go_finding(tmp_path)
    Reduction.objects.create(
        finding=finding, program=finding.example, reduced=None, language="go",
        toolchain_id=require_toolchain("go").id, signature=finding.signature, timeout_s=7,
        repetitions=3, status="done", state={"final_failures": 9, "final_runs": 10},
    )  # fmt: skip
    ev = bug_reports.evidence(finding)
    assert (ev.program, ev.reduced_from) == (finding.example, None)
    assert (ev.failures, ev.runs, ev.repetitions, ev.timeout_s) == (9, 10, 3, 7)
    text = bug_reports.report_markdown(finding, ev, permalink="p", script_url="u")
    assert "9 of 10 runs failed (90 %)" in text and "Reduced by chanfuzz" not in text
    # One that kept a smaller program wins, however old.
    smaller = store_program(build_from_effect("Spawn(Get(c2)) ; Get(c1)", 0))
    Reduction.objects.create(
        finding=finding, program=finding.example, reduced=smaller, language="go",
        toolchain_id=require_toolchain("go").id, signature=finding.signature, timeout_s=5,
        repetitions=2, status="done", state={"final_failures": 7, "final_runs": 8},
        finished_at=timezone.now() - timedelta(days=30),
    )  # fmt: skip
    assert bug_reports.evidence(finding).program == smaller


def test_report_and_reproducer_are_served_as_text(client: Client, tmp_path: Path) -> None:
    finding = _go_finding(tmp_path)
    report = client.get(reverse("finding_report", args=[finding.pk]))
    assert report.status_code == 200 and report["Content-Type"].startswith("text/plain")
    assert f"http://testserver/p/{finding.example_id}" in report.content.decode()
    script = client.get(reverse("finding_reproducer", args=[finding.pk]))
    assert script.status_code == 200 and script.content.decode().startswith("#!/bin/sh")
    page = client.get(reverse("finding_detail", args=[finding.pk])).content.decode()
    assert reverse("finding_reproducer", args=[finding.pk]) in page and "bug-report" in page
    assert client.get(reverse("finding_report", args=[999999])).status_code == 404


def test_the_bundle_of_the_reported_program_carries_reproducer_and_report(
    client: Client, tmp_path: Path
) -> None:
    import io
    import zipfile

    finding = _go_finding(tmp_path)
    data = client.get(f"/p/{finding.example_id}.zip").content
    names = zipfile.ZipFile(io.BytesIO(data)).namelist()
    root = f"chanfuzz-{finding.example_id}"
    assert f"{root}/findings/chanfuzz-finding-{finding.pk}.sh" in names
    assert f"{root}/findings/chanfuzz-finding-{finding.pk}.md" in names

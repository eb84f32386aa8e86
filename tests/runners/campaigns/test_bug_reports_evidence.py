"""What a bug report claims, read from the rows alone (nothing is run): the release it
names, the program it shows, and whether that program must terminate."""

from __future__ import annotations

import pytest
from django.utils import timezone

from runners.campaigns import bug_reports, services
from runners.campaigns.models import Execution, Finding, Program
from runners.campaigns.programs import build_from_effect, campaign_program, store_program
from runners.engine.toolchains import ToolchainUnavailable, find_toolchain
from tests.runners.conftest import require_toolchain

pytestmark = pytest.mark.django_db

TERMINATING = "Spawn(Put(c1)) ; Get(c1)"
STUCK = "Spawn(Get(c2)) ; Get(c1) ; Put(c2)"  # deadlocks on every runtime


def _finding(language: str, example: Program) -> Finding:
    now = timezone.now()
    return Finding.objects.create(
        signature=f"{language} | crash | x", outcome="crash", language=language,
        title="exit 2", first_seen=now, last_seen=now, execution_count=1, program_count=1,
        example=example,
    )  # fmt: skip


def _ran_on_go(finding: Finding, effect: str, repetitions: int) -> Program:
    """A Go campaign of `effect` whose one run showed `finding` (recorded, not run)."""
    go = require_toolchain("go")
    campaign = services.campaign_from_programs(
        effects=[effect], targets=[("go", go.id)], timeout_s=4, repetitions=repetitions,
        enqueue=False,
    )  # fmt: skip
    row = store_program(campaign_program(campaign, 0))
    Execution.objects.create(
        target=campaign.targets.get(), campaign=campaign, program=row, index=0,
        outcome="crash", reason="exit 2", signature=finding.signature, finding=finding,
        attempts=[{"outcome": "crash"}, {"outcome": "ok"}], stderr="fatal error",
    )  # fmt: skip
    return row


def _newest(language: str) -> str:
    try:
        return find_toolchain(language).summary()
    except ToolchainUnavailable:
        return "no toolchain installed"


def test_a_finding_no_campaign_here_ran_names_no_release() -> None:
    # As one loaded with the documentation: the newest installed release was named as
    # where it was seen, though the bug may be fixed there.
    finding = _finding("go", store_program(build_from_effect(TERMINATING, 0)))
    ev = bug_reports.evidence(finding)
    assert (ev.toolchain_id, ev.version, ev.runs) == ("", "", 0)
    assert (ev.repetitions, ev.timeout_s) == (10, 10.0)
    text = bug_reports.report_markdown(finding, ev, permalink="p", script_url="u")
    assert text.startswith("# Go: a program that must terminate crashes\n")
    assert "not run on this installation" in text and _newest("go") not in text
    script = bug_reports.reproducer_script(finding, ev, permalink="p")
    assert "not run on this installation" in script and "seen on" not in script


def test_a_finding_shown_here_by_another_program_is_reported_with_that_program() -> None:
    finding = _finding("go", store_program(build_from_effect(TERMINATING, 0)))
    ran = _ran_on_go(finding, "Spawn(Put(c1) ; Put(c1)) ; Get(c1) ; Get(c1)", repetitions=3)
    ev = bug_reports.evidence(finding)
    go = require_toolchain("go")
    assert (ev.program, ev.repetitions, ev.version) == (ran, 3, go.version)
    assert (ev.failures, ev.runs) == (1, 2)
    # The report is public: the release and its components, not where it is installed.
    text = bug_reports.report_markdown(finding, ev, permalink="p", script_url="u")
    assert f"- Versions: {go.summary()}\n" in text and str(go.home) not in text
    assert str(go.home) not in bug_reports.reproducer_script(finding, ev, permalink="p")


def test_a_given_effect_that_can_deadlock_is_not_called_one_that_must_terminate() -> None:
    finding = _finding("go", store_program(build_from_effect(STUCK, 0)))
    _ran_on_go(finding, STUCK, repetitions=2)
    ev = bug_reports.evidence(finding)
    assert ev.terminating is False
    text = bug_reports.report_markdown(finding, ev, permalink="p", script_url="u")
    assert "a program whose effect can deadlock crashes" in text.splitlines()[0]
    assert "must terminate" not in text and "check that before filing" in text
    script = bug_reports.reproducer_script(finding, ev, permalink="p")
    assert "a program whose effect can deadlock crashes." in script


def test_a_generated_program_is_terminating_by_construction() -> None:
    go = require_toolchain("go")
    campaign = services.create_campaign(targets=[("go", go.id)], count=1, seed=5, enqueue=False)
    row = store_program(campaign_program(campaign, 0))
    assert row.source == Program.Source.GENERATED
    ev = bug_reports.evidence(_finding("go", row))
    assert ev.terminating is True and ev.claim == "a program that must terminate"


def test_a_kotlin_reproducer_runs_the_program_on_the_pool_campaigns_use() -> None:
    finding = _finding("kotlin", store_program(build_from_effect(TERMINATING, 0)))
    ev = bug_reports.evidence(finding)
    assert 'newFixedThreadPoolContext(8, "chanfuzz")' in ev.source
    assert "Dispatchers.Default" not in ev.source
    # Its version is the library's release, not Kotlin's.
    text = bug_reports.report_markdown(finding, ev, permalink="p", script_url="u")
    assert text.startswith("# kotlinx.coroutines: a program that must terminate crashes\n")


def test_a_kotlin_hangs_report_shows_the_programs_threads_not_the_jvms() -> None:
    from tests.runners.targets.test_jvm import HOTSPOT_DUMP

    row = store_program(build_from_effect(TERMINATING, 0))
    now = timezone.now()
    finding = Finding.objects.create(
        signature="kotlin | hang | WAITING parking", outcome="timeout", language="kotlin",
        title="no end", first_seen=now, last_seen=now, execution_count=1, program_count=1,
        example=row,
    )  # fmt: skip
    Execution.objects.create(
        program=row, index=0, outcome="timeout", reason="no end", signature=finding.signature,
        finding=finding, dump=HOTSPOT_DUMP,
    )  # fmt: skip
    ev = bug_reports.evidence(finding)
    text = bug_reports.report_markdown(finding, ev, permalink="p", script_url="u")
    dump = text.split("## Dump at the time limit\n", 1)[1]
    assert "MainKt.main(Main.kt:615)" in dump and "(the same stack: chanfuzz-2)" in dump
    assert "Reference Handler" not in dump

"""The Kotlin study: recognising the #504 overflow, reading campaigns back, the Markdown."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.template.loader import render_to_string

from runners.campaigns import programs, services
from runners.engine.run_records import Attempt, ProgramRun
from runners.engine.verdicts import Classification, Outcome, classify_run, is_hang_signature
from runners.kotlin_study import report
from tests.runners.conftest import require_toolchain

SAMPLES = Path(__file__).parents[1] / "samples"


def _jvm_signature(sample: str) -> str:
    return classify_run(
        "kotlin",
        exit_code=1,
        signal=None,
        timed_out=False,
        stdout="",
        stderr=(SAMPLES / sample).read_text(),
    ).signature


@pytest.mark.parametrize(
    "sample",
    [
        "jvm_select_stackoverflow_5.txt",
        "jvm_select_stackoverflow_73.txt",
        "jvm_select_stackoverflow_96.txt",
    ],
)
def test_real_select_overflows_are_recognised(sample: str) -> None:
    assert report.is_select_overflow(_jvm_signature(sample))


def test_other_stack_overflows_and_hangs_are_not_the_select_bug() -> None:
    assert not report.is_select_overflow(_jvm_signature("jvm_stackoverflow.txt"))
    assert not report.is_select_overflow("kotlin | hang | TIMED_WAITING parking, WAITING parking×8")


def test_plan_names_are_stable_and_say_what_ran() -> None:
    plan = report.ReportPlan(release="0.22.5", programs=700)
    assert plan.table2_name("B") == (
        "kotlin report: Table 2 heuristic B on kotlinx.coroutines 0.22.5 (700 programs)"
    )
    assert plan.sweep_name([]).endswith("crashed 0.22.5, on 0 kotlinx.coroutines releases (none)")


@pytest.mark.django_db
def test_table2_rows_count_programs_that_revealed_the_bug() -> None:
    toolchain = require_toolchain("kotlin", "1.0.1")
    plan = report.ReportPlan(release="1.0.1", heuristics="E", programs=4)
    campaign = services.create_campaign(
        name=plan.table2_name("E"),
        heuristic="E",
        targets=[("kotlin", toolchain.id)],
        count=4,
        enqueue=False,
    )
    target = campaign.targets.get()
    overflow = _jvm_signature("jvm_select_stackoverflow_5.txt")
    verdicts = [
        Classification(Outcome.CRASH, "java.lang.StackOverflowError", overflow),
        Classification(Outcome.TERMINATED, "exit 0", ""),
        Classification(Outcome.TIMEOUT, "no exit within 30 s", "kotlin | hang | WAITING×8"),
        Classification(Outcome.COMPILE_ERROR, "compile failed", ""),
    ]

    def attempt(outcome: Outcome) -> Attempt:
        timed_out = outcome is Outcome.TIMEOUT
        return Attempt(30.0, outcome, None if timed_out else 0, None, timed_out, 1.0, "", "", None)

    # The hang hung again in its first re-run.
    hang_attempts = tuple(map(attempt, (Outcome.TIMEOUT, Outcome.TIMEOUT, Outcome.TERMINATED)))
    for index, verdict in enumerate(verdicts):
        row = programs.store_program(programs.campaign_program(campaign, index))
        attempts = hang_attempts if verdict.outcome is Outcome.TIMEOUT else ()
        services.record_execution(
            program=row,
            index=index,
            result=ProgramRun(index, verdict, attempts),
            language="kotlin",
            target=target,
        )
    (row,) = report.table2_rows(plan, [campaign])
    assert (row["programs"], row["revealing"], row["other_findings"], row["errors"]) == (4, 1, 1, 1)
    assert row["percent"] == 25.0 and row["paper"] == 148
    first = programs.campaign_program(campaign, 0).id
    assert row["example"] == first
    assert report.shortest_revealing_program([campaign]).id == first
    assert report.shortest_revealing_program([campaign], min_channels=99) is None
    assert (
        report.shortest_repeating_hang([campaign]).id == programs.campaign_program(campaign, 2).id
    )
    findings = report.report_findings([campaign])
    # One program each; ties in the order first seen.
    assert [(f["is_select_overflow"], f["programs"]) for f in findings] == [(True, 1), (False, 1)]


def test_markdown_marks_releases_seen_by_sweep_or_fixture() -> None:
    data = {
        "generated_at": "2026-11-22T00:00:00+00:00",
        "plan": {**vars(report.ReportPlan()), "threads": 8},
        "registry_releases": ["0.19", "0.20", "1.3.2", "1.4.0"],
        "installed_toolchains": {
            "0.19": "kotlin-1.2.41-coroutines-0.19",
            "0.20": "kotlin-1.2.41-coroutines-0.20",
            "1.3.2": "kotlin-1.3.50-coroutines-1.3.2",
        },
        "sweep": [
            {"version": "0.19", "revealing": 2, "programs": 24, "other_findings": 1},
            {"version": "0.20", "revealing": 0, "programs": 24, "other_findings": 0},
            {"version": "1.3.2", "revealing": 0, "programs": 24, "other_findings": 0},
        ],
        "fixture": {
            "runs": 6,
            "repetitions": 20000,
            "results": [
                {"version": "0.19", "bad_runs": 5, "runs": 6},
                {"version": "0.20", "bad_runs": 6, "runs": 6},
                {"version": "1.3.2", "bad_runs": 0, "runs": 6},
            ],
            "buggy": ["0.19", "0.20"],
            "fixed": ["1.3.2"],
            "last_bad": "0.20",
            "first_good": "1.3.2",
        },
        "table2": [],
        "campaigns": [],
        "findings": [],
    }
    context = report.markdown_context(data)
    assert (context["first_seen"], context["last_seen"], context["first_clean"]) == (
        "0.19",
        "0.20",
        "1.3.2",
    )
    assert context["uninstalled"] == ["1.4.0"]
    text = render_to_string("reports/kotlin.md", context)
    assert (
        "| 0.20 | `kotlin-1.2.41-coroutines-0.20` | 0 / 24 | 0 | 6 / 6 | – | **crash** | – |"
        in text
    )
    assert (
        "| 1.3.2 | `kotlin-1.3.50-coroutines-1.3.2` | 0 / 24 | 0 | 0 / 6 | – | not seen | – |"
        in text
    )
    assert "Not installed, so not run: 1.4.0." in text
    assert "from **0.19** to **0.20**" in text


def test_markdown_sets_the_first_finding_trials_of_each_jobs_setting_side_by_side() -> None:
    def trial(seed: int, seconds: float, programs: int) -> report.FirstFindingTrial:
        return report.FirstFindingTrial(seed, True, seconds, programs, seconds, programs, "x")

    one = {**report.trials_summary([trial(1, 40.0, 13), trial(2, 80.0, 28)]), "jobs": 1}
    two = {**report.trials_summary([trial(1, 10.0, 16), trial(2, 30.0, 35)]), "jobs": 2}
    for figures, when in ((one, "T1"), (two, "T2")):
        figures["measured_at"] = when
    data = {
        "plan": {**vars(report.ReportPlan()), "threads": 8},
        "first_finding": two,
        "first_finding_by_jobs": {"2": two, "1": one},
        "table2": [],
        "campaigns": [],
        "findings": [],
    }
    text = render_to_string("reports/kotlin.md", report.markdown_context(data))
    assert "2 batches under way at once (`--jobs`)" in text
    assert "| 1 | 2 of 2 | 60.0 | 20.5 | 80.0 | 60.0 | T1 |" in text
    assert "| 2 | 2 of 2 | 20.0 | 25.5 | 30.0 | 20.0 | T2 |" in text
    assert text.index("| 1 | 2 of 2") < text.index("| 2 | 2 of 2")  # fewest jobs first
    # One setting measured: no side-by-side table.
    del data["first_finding_by_jobs"]["1"]
    text = render_to_string("reports/kotlin.md", report.markdown_context(data))
    assert "| Batches at once |" not in text


def test_hang_signatures_are_told_from_crashes() -> None:
    assert is_hang_signature("kotlin | hang | TIMED_WAITING parking, WAITING parking×8")
    assert not is_hang_signature(_jvm_signature("jvm_select_stackoverflow_5.txt"))
    assert not is_hang_signature("kotlin | java.lang.IllegalStateException | hang")
    # The shapes runners.targets.jvm.hang_shape gives: the program's threads only.
    parked = "kotlin | hang | TIMED_WAITING parking, WAITING parking×8"
    assert report.is_parked_hang(parked)
    assert not report.is_parked_hang("kotlin | hang | RUNNABLE×6, WAITING parking×2")


def test_channel_count_counts_distinct_channels() -> None:
    assert report.channel_count("Spawn(SelPut(c1, eps) (+) SelPut(c1, eps)) ; Get(c1)") == 1
    assert report.channel_count("Spawn(Put(c12)) ; SelGet(c2, Get(c12)) ; Get(c2)") == 2
    assert report.channel_count("eps") == 0


@pytest.mark.slow
@pytest.mark.django_db
def test_fixture_bisection_is_stored_on_the_finding_it_matches() -> None:
    from django.utils import timezone

    from runners.campaigns.models import Finding
    from runners.engine.sandbox import get_sandbox
    from tests.runners.kotlin_study.test_kotlin_regression import fixture_program

    require_toolchain("kotlin", "0.19")
    require_toolchain("kotlin", "1.3.0")
    program = programs.store_program(fixture_program())
    now = timezone.now()
    common = {"language": "kotlin", "first_seen": now, "last_seen": now, "example": program}
    overflow = Finding.objects.create(
        signature=_jvm_signature("jvm_select_stackoverflow_5.txt"),
        outcome="crash",
        title="java.lang.StackOverflowError",
        **common,
    )
    hang = Finding.objects.create(
        signature="kotlin | hang | WAITING×8", outcome="timeout", title="hang", **common
    )
    # The overflow is a race: 0.19 crashes in about 5 runs of 6 (the fixture's rates; 25 of
    # 30 on 2026-12-04), so 2 runs missed it about once in 36 (a CI run did), 10 about once
    # in 60 million. A crash ends a run early: the runs cost 1.3.0, which never crashes.
    plan = report.ReportPlan(releases=("0.19", "1.3.0"), fixture_runs=10)
    result = report.bisect_fixture(program, plan, sandbox=get_sandbox(), must_crash=["0.19"])
    assert (result.last_bad, result.first_good, result.missed) == ("0.19", "1.3.0", None)
    overflow.refresh_from_db()
    hang.refresh_from_db()
    assert overflow.bisection["summary"] == "last bad 0.19, first good 1.3.0"
    assert [r["version"] for r in overflow.bisection["results"]] == ["0.19", "1.3.0"]
    assert overflow.bisected_at is not None
    assert hang.bisection is None  # not the finding this bisection looked for

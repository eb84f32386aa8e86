"""Schedule perturbation on the campaign path: a campaign's PCT depth reaches its runs,
and a finding it found is reproduced, reduced and reported with the same yields."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.utils import timezone

from generator.render._common import communication_steps, lower
from runners.campaigns import bug_reports, jobs, selectors, services
from runners.campaigns.models import Execution, Finding, Reproduction
from runners.campaigns.programs import campaign_program, program_object, store_program
from runners.campaigns.reductions import start_reduction
from runners.engine.run_records import Attempt, ProgramRun
from runners.engine.schedule import threads_for
from runners.engine.verdicts import Classification, Outcome
from tests.runners.conftest import require_toolchain

pytestmark = pytest.mark.django_db

STUCK = "Spawn(Get(c2)) ; Get(c1) ; Put(c2)"  # deadlocks on every runtime


def test_a_campaigns_runs_yield_at_its_pct_depth() -> None:
    require_toolchain("go")
    campaign = services.create_campaign(
        targets=[("go", None)], count=2, pct_depth=3, seed=14, enqueue=False
    )
    assert campaign.pct_depth == 3
    target = jobs.campaign_target(campaign.targets.get())
    options = dict(target.render_options)
    assert options["pct_depth"] == 3
    program = campaign_program(campaign, 0).program
    source = target.spec.render_batch([program], seed=1, **options)
    assert source.count("runtime.Gosched()") == min(2, communication_steps(lower(program).body))
    plain = services.create_campaign(targets=[("go", None)], count=1, enqueue=False)
    assert "pct_depth" not in dict(jobs.campaign_target(plain.targets.get()).render_options)


@pytest.mark.parametrize("bad", [0, 65])
def test_a_pct_depth_out_of_range_is_refused_before_anything_is_stored(bad: int) -> None:
    require_toolchain("go")
    with pytest.raises(ValueError, match="pct_depth must be a whole number from 1 to 64"):
        services.create_campaign(targets=[("go", None)], count=1, pct_depth=bad, enqueue=False)
    assert not Execution.objects.exists()


def _finding_under_perturbation(depth: int) -> Finding:
    """A Go campaign of STUCK with schedule perturbation, whose one run hung."""
    go = require_toolchain("go")
    campaign = services.campaign_from_programs(
        effects=[STUCK], targets=[("go", go.id)], timeout_s=5, repetitions=2,
        pct_depth=depth, enqueue=False,
    )  # fmt: skip
    row = store_program(campaign_program(campaign, 0))
    now = timezone.now()
    finding = Finding.objects.create(
        signature="go|timeout|chanrecv", outcome="timeout", language="go", title="no end",
        first_seen=now, last_seen=now, execution_count=1, program_count=1, example=row,
    )  # fmt: skip
    Execution.objects.create(
        target=campaign.targets.get(), campaign=campaign, program=row, index=0,
        outcome="timeout", reason="no end", signature=finding.signature, finding=finding,
        attempts=[{"outcome": "timeout"}], dump="goroutine 1 [chan receive]:",
    )  # fmt: skip
    return finding


def test_a_finding_found_under_perturbation_is_reproduced_reduced_and_reported_with_it(
    tmp_path: Path,
) -> None:
    finding = _finding_under_perturbation(2)
    program = finding.example
    original = selectors.original_runs(program)
    assert original is not None and original.pct_depth == 2
    # The bug report's program is the one that ran: with its yield, and saying so.
    ev = bug_reports.evidence(finding)
    assert ev.pct_depth == 2
    assert ev.source.count("runtime.Gosched()") == 1
    report = bug_reports.report_markdown(finding, ev, permalink="https://x/p/1", script_url="u")
    assert (
        "- Schedule: the program yields to the scheduler before 1 of its channel operations "
        "(chanfuzz's schedule perturbation, PCT depth 2)"
    ) in report
    script = bug_reports.reproducer_script(finding, ev, permalink="p")
    assert "runtime.Gosched()" in script
    # And it runs with the thread count chanfuzz gave it.
    threads = threads_for(program_object(program), 2)
    assert ev.schedule_env == {"GOMAXPROCS": str(threads)}
    assert f"export GOMAXPROCS={threads}  # the thread count it ran with" in script
    assert f"it ran with `GOMAXPROCS={threads}`" in report
    # A reduction keeps the schedule perturbation it was found with.
    reduction = start_reduction(finding=finding, enqueue=False)
    assert reduction.pct_depth == 2
    # A reproduction without it is another experiment, and its verdict says so.
    repro = services.reproduce(
        program=program, language="go", version=original.toolchain_id, times=1, timeout_s=5,
        repetitions=2, enqueue=False,
    )  # fmt: skip
    Reproduction.objects.filter(pk=repro.pk).update(status=Reproduction.Status.DONE, completed=1)
    repro.refresh_from_db()
    verdict = selectors.reproduction_verdict(repro, original)
    assert "Not the same settings: PCT depth none (found with 2)." in verdict
    same = services.reproduce(
        program=program, language="go", version=original.toolchain_id, times=1, timeout_s=5,
        repetitions=2, pct_depth=2, enqueue=False,
    )  # fmt: skip
    Reproduction.objects.filter(pk=same.pk).update(status=Reproduction.Status.DONE, completed=1)
    same.refresh_from_db()
    assert "Not the same settings" not in selectors.reproduction_verdict(same, original)
    with pytest.raises(ValueError, match="pct_depth must be a whole number from 1 to 64"):
        services.reproduce(program=program, language="go", times=1, pct_depth=99, enqueue=False)


def test_each_attempt_records_the_threads_it_ran_with() -> None:
    finding = _finding_under_perturbation(3)
    campaign_target = finding.example.executions.get().target
    hung = Attempt(5.0, Outcome.TIMEOUT, None, None, True, 5.0, "", "", None, threads=4)
    run = ProgramRun(1, Classification(Outcome.TIMEOUT, "no end", "go|timeout|x"), (hung,))
    row = services.record_execution(
        program=finding.example, index=1, result=run, language="go", target=campaign_target
    )
    assert row.attempts[0]["threads"] == 4


@pytest.mark.slow
def test_a_reproduction_runs_with_its_pct_depth() -> None:
    finding = _finding_under_perturbation(2)
    repro = services.reproduce(
        program=finding.example, language="go", times=2, timeout_s=5, repetitions=2,
        pct_depth=2, enqueue=False,
    )  # fmt: skip
    jobs.run_reproduction(repro.pk)
    repro.refresh_from_db()
    # STUCK deadlocks whatever the schedule: Go sees every goroutine asleep, each run.
    assert (repro.status, repro.completed, repro.crashed) == ("done", 2, 2), repro.last_error
    # Each run had the thread count the campaign's run of it had.
    threads = threads_for(program_object(finding.example), 2)
    ran = [e.attempts[0]["threads"] for e in Execution.objects.filter(reproduction=repro)]
    assert ran == [threads, threads]

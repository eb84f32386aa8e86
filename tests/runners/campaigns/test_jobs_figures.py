"""The figures a campaign's and a reproduction's pages show, from the code that computes
them: a campaign's progress (done/total over all its targets, programs per minute), and a
reproduction's counts and rate as `run_reproduction` leaves them.

No toolchain and no Redis: the campaign rows are made directly, and `run_reproduction`
runs for real with only the compile and the sandboxed runs replaced by recorded verdicts
(the slow tests in test_jobs.py run real programs through a worker).
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from runners.campaigns import jobs, programs, selectors
from runners.campaigns.models import (
    Campaign,
    CampaignTarget,
    Chunk,
    Execution,
    Finding,
    Program,
    Reproduction,
)
from runners.campaigns.selectors import OriginalRuns
from runners.engine.run_alone import Triage
from runners.engine.run_records import ProgramRun
from runners.engine.run_target import target_for
from runners.engine.sandbox import Limits
from runners.engine.verdicts import Classification, Outcome
from tests.runners.conftest import fake_toolchain

pytestmark = pytest.mark.django_db


def _campaign(*, program_count: int, languages: list[str]) -> Campaign:
    campaign = Campaign.objects.create(
        name="figures",
        heuristic="A",
        settings={},
        seed=1,
        program_count=program_count,
        timeout_s=5.0,
        repetitions=1,
        chunk_size=program_count,
        generator_version="test",
    )
    for language in languages:
        CampaignTarget.objects.create(
            campaign=campaign, language=language, toolchain_id=f"{language}-test"
        )
    return campaign


def _execute(campaign: Campaign, target: CampaignTarget, outcomes: list[str]) -> None:
    program = programs.store_program(programs.build_from_effect("Get(c1)"))
    for index, outcome in enumerate(outcomes):
        Execution.objects.create(
            campaign=campaign, target=target, index=index, program=program, outcome=outcome
        )


def test_progress_total_counts_every_program_on_every_target() -> None:
    campaign = _campaign(program_count=4, languages=["go", "crystal", "kotlin"])
    go, crystal, _ = campaign.targets.order_by("pk")
    _execute(campaign, go, ["terminated", "crash", "terminated"])
    _execute(campaign, crystal, ["timeout"])
    progress = selectors.campaign_progress(campaign)
    assert (progress.done, progress.total) == (4, 12)
    assert progress.fraction == pytest.approx(4 / 12)
    assert [(t.done, t.total) for t in progress.targets] == [(3, 4), (1, 4), (0, 4)]


def test_programs_per_minute_of_a_finished_campaign_stop_at_its_end() -> None:
    # Started 30 minutes ago, finished 20 minutes ago: 6 runs in 10 minutes, whatever
    # the clock says now.
    campaign = _campaign(program_count=6, languages=["go"])
    _execute(campaign, campaign.targets.get(), ["terminated"] * 6)
    now = timezone.now()
    Campaign.objects.filter(pk=campaign.pk).update(
        started_at=now - timedelta(minutes=30), finished_at=now - timedelta(minutes=20)
    )
    campaign.refresh_from_db()
    assert selectors.campaign_progress(campaign).per_minute == pytest.approx(0.6, rel=1e-6)


def test_programs_per_minute_of_a_running_campaign_count_until_now() -> None:
    campaign = _campaign(program_count=6, languages=["go"])
    _execute(campaign, campaign.targets.get(), ["terminated"] * 3)
    Campaign.objects.filter(pk=campaign.pk).update(
        started_at=timezone.now() - timedelta(minutes=60), status="running"
    )
    campaign.refresh_from_db()
    # 3 runs in 60 minutes and the moment this test took (well under a minute).
    assert selectors.campaign_progress(campaign).per_minute == pytest.approx(0.05, rel=0.02)


# ---------------------------------------------------------------- reproductions

FAKE_GO = fake_toolchain("go")


class _Killed(Exception):
    """The worker died between two runs."""


def _verdict(outcome: Outcome) -> Classification:
    signature = "" if outcome is Outcome.TERMINATED else f"go | {outcome} | figures"
    return Classification(outcome, str(outcome), signature)


@pytest.fixture
def scripted_runs(monkeypatch: pytest.MonkeyPatch):  # noqa: ANN201 - the setter below
    """Replace the compile and the runs of `run_reproduction` with a list of verdicts;
    an exception in the list is raised by that run instead."""
    script: list[Outcome | Exception] = []
    built: list[str] = []

    def fake_run_one(target, artifact, index, **_kwargs):  # noqa: ANN001, ANN202
        step = script.pop(0)
        if isinstance(step, Exception):
            raise step
        return ProgramRun(index=index, classification=_verdict(step))

    monkeypatch.setattr(
        jobs,
        "make_target",
        lambda lang, tid, repetitions, pct_depth=None: target_for(FAKE_GO, repetitions=1),
    )
    monkeypatch.setattr(jobs, "build", lambda *args, **kwargs: built.append("built") or object())
    monkeypatch.setattr(jobs, "get_sandbox", lambda **kwargs: None)
    monkeypatch.setattr(jobs, "run_one", fake_run_one)

    def set_script(steps: list[Outcome | Exception]) -> list[str]:
        script[:] = steps
        return built

    return set_script


def _reproduction(times: int) -> Reproduction:
    program = programs.store_program(programs.build_from_effect("Spawn(Put(c1)) ; Get(c1)"))
    return Reproduction.objects.create(
        program=program,
        language="go",
        toolchain_id=FAKE_GO.id,
        times=times,
        timeout_s=5.0,
        repetitions=1,
    )


def test_reproduction_counts_each_run_under_its_own_verdict(scripted_runs) -> None:  # noqa: ANN001
    built = scripted_runs(
        [
            Outcome.CRASH,
            Outcome.TERMINATED,
            Outcome.TIMEOUT,
            Outcome.CRASH,
            Outcome.WRONG_VALUE,
            Outcome.TERMINATED,
        ]
    )
    repro = _reproduction(times=6)
    summary = jobs.run_reproduction(repro.pk)
    repro.refresh_from_db()
    assert built == ["built"]  # compiled once for every run
    assert repro.status == Reproduction.Status.DONE
    assert (repro.completed, repro.crashed, repro.hung, repro.wrong_values) == (6, 2, 1, 1)
    assert repro.rate == pytest.approx(4 / 6)
    assert summary == {"reproduction": repro.pk, "completed": 6, "rate": pytest.approx(4 / 6)}
    assert list(
        Execution.objects.filter(reproduction=repro)
        .order_by("index")
        .values_list("index", "outcome")
    ) == [
        (0, "crash"),
        (1, "terminated"),
        (2, "timeout"),
        (3, "crash"),
        (4, "wrong_value"),
        (5, "terminated"),
    ]


def test_crashes_alone_are_not_counted_as_hangs(scripted_runs) -> None:  # noqa: ANN001
    scripted_runs([Outcome.CRASH, Outcome.CRASH, Outcome.CRASH])
    repro = _reproduction(times=3)
    jobs.run_reproduction(repro.pk)
    repro.refresh_from_db()
    assert (repro.completed, repro.crashed, repro.hung, repro.wrong_values) == (3, 3, 0, 0)
    assert repro.rate == 1.0


def test_a_reproduction_cut_short_rates_the_runs_it_completed(scripted_runs) -> None:  # noqa: ANN001
    # Two of four runs done, one hung, then the worker died: the rate is 1 in 2, not 1 in 4.
    scripted_runs([Outcome.TIMEOUT, Outcome.TERMINATED, _Killed("worker lost")])
    repro = _reproduction(times=4)
    with pytest.raises(_Killed, match="worker lost"):
        jobs.run_reproduction(repro.pk)
    repro.refresh_from_db()
    assert repro.status == Reproduction.Status.FAILED
    assert "_Killed: worker lost" in repro.last_error
    assert (repro.times, repro.completed, repro.hung) == (4, 2, 1)
    assert repro.rate == 0.5


def test_a_reproduction_before_any_run_has_no_rate() -> None:
    repro = _reproduction(times=3)
    assert repro.rate is None


def test_a_chunk_of_a_deleted_campaign_is_skipped_with_the_reason() -> None:
    # A job that was queued when its campaign was deleted finds no chunk: it ends
    # saying so, instead of failing in the worker.
    assert jobs.run_chunk(987654) == {
        "chunk": 987654,
        "skipped": "chunk gone: its campaign was deleted",
    }


def test_a_reproduction_rate_counts_crashes_hangs_and_wrong_values_over_completed_runs() -> None:
    repro = _reproduction(times=10)
    repro.completed, repro.crashed, repro.hung, repro.wrong_values = 8, 1, 2, 3
    assert repro.failed == 6
    assert repro.rate == 6 / 8


# ---------------------------------------------------------------- progress, exactly


def test_progress_counts_per_target_verdict_and_chunk_state() -> None:
    campaign = _campaign(program_count=3, languages=["go", "crystal"])
    go, crystal = campaign.targets.order_by("pk")
    _execute(campaign, go, ["terminated", "crash", "crash"])
    Chunk.objects.create(target=go, start=0, end=2, state="done")
    Chunk.objects.create(target=go, start=2, end=3, state="done")
    Chunk.objects.create(target=crystal, start=0, end=3, state="queued")
    progress = selectors.campaign_progress(campaign)
    assert [(t.target, t.done, t.total, t.counts, t.chunks) for t in progress.targets] == [
        (go, 3, 3, {"terminated": 1, "crash": 2}, {"done": 2}),
        (crystal, 0, 3, {}, {"queued": 1}),
    ]
    assert (progress.campaign, progress.done, progress.total) == (campaign, 3, 6)
    assert progress.fraction == 0.5
    # Not started: no rate yet.
    assert progress.per_minute == 0.0


def test_progress_counts_distinct_findings_of_this_campaign_only() -> None:
    campaign = _campaign(program_count=3, languages=["go"])
    other = _campaign(program_count=3, languages=["go"])
    # The terminated run has no finding: it is not one more.
    _execute(campaign, campaign.targets.get(), ["crash", "crash", "timeout", "terminated"])
    _execute(other, other.targets.get(), ["crash"])
    now = timezone.now()
    crash, hang = (
        Finding.objects.create(
            signature=signature,
            outcome=outcome,
            language="go",
            title=signature,
            first_seen=now,
            last_seen=now,
        )
        for signature, outcome in (("go | crash", "crash"), ("go | hang", "timeout"))
    )
    Execution.objects.filter(campaign=campaign, index__in=[0, 1]).update(finding=crash)
    Execution.objects.filter(campaign=campaign, index=2).update(finding=hang)
    Execution.objects.filter(campaign=other).update(finding=crash)
    assert selectors.campaign_progress(campaign).findings == 2
    assert selectors.campaign_progress(other).findings == 1


def test_an_empty_campaign_is_complete_and_has_no_rate() -> None:
    campaign = _campaign(program_count=0, languages=[])
    Campaign.objects.filter(pk=campaign.pk).update(started_at=timezone.now())
    campaign.refresh_from_db()
    progress = selectors.campaign_progress(campaign)
    assert (progress.done, progress.total, progress.fraction, progress.per_minute) == (
        0,
        0,
        1.0,
        0.0,
    )
    assert progress.findings == 0


def test_programs_per_minute_count_at_least_one_second() -> None:
    # Finished the moment it started: 2 runs in (at least) one second, 120 a minute.
    campaign = _campaign(program_count=2, languages=["go"])
    _execute(campaign, campaign.targets.get(), ["terminated"] * 2)
    now = timezone.now()
    Campaign.objects.filter(pk=campaign.pk).update(started_at=now, finished_at=now)
    campaign.refresh_from_db()
    assert selectors.campaign_progress(campaign).per_minute == pytest.approx(120.0, rel=1e-9)


def test_programs_per_minute_of_a_campaign_started_without_runs_is_zero() -> None:
    campaign = _campaign(program_count=2, languages=["go"])
    Campaign.objects.filter(pk=campaign.pk).update(started_at=timezone.now() - timedelta(minutes=5))
    campaign.refresh_from_db()
    assert selectors.campaign_progress(campaign).per_minute == 0.0


# ---------------------------------------------------------------- original runs, verdicts


def _found(
    program_outcomes: list[list[str]], *, repetitions: int = 2, runs: list[int] | None = None
) -> Program:
    """A program a campaign found a finding with; one execution per list of attempts, each
    after `runs[i]` - 1 clean runs (default none)."""
    campaign = _campaign(program_count=len(program_outcomes), languages=["go"])
    Campaign.objects.filter(pk=campaign.pk).update(repetitions=repetitions, timeout_s=7.5)
    target = campaign.targets.get()
    program = programs.store_program(programs.build_from_effect("Get(c1)"))
    now = timezone.now()
    finding = Finding.objects.create(
        signature="go | hang",
        outcome="timeout",
        language="go",
        title="hang",
        first_seen=now,
        last_seen=now,
    )
    for index, outcomes in enumerate(program_outcomes):
        Execution.objects.create(
            campaign=campaign,
            target=target,
            index=index,
            program=program,
            outcome=outcomes[0],
            attempts=[{"outcome": o} for o in outcomes],
            finding=finding,
            runs=runs[index] if runs else 1,
        )
    return program


def test_original_runs_count_every_attempt_of_the_program_on_its_target() -> None:
    program = _found([["timeout", "terminated", "timeout"], ["crash", "wrong_value"], ["x"]])
    assert selectors.original_runs(program) == OriginalRuns(
        language="go",
        toolchain_id="go-test",
        repetitions=2,
        timeout_s=7.5,
        bad_runs=4,
        runs=6,
    )


def test_original_runs_count_the_clean_runs_before_each_verdict() -> None:
    # Run up to 3 times (Campaign.runs): clean twice, then crashed; clean three times.
    program = _found([["crash"], ["terminated"]], runs=[3, 3])
    original = selectors.original_runs(program)
    assert (original.bad_runs, original.runs) == (1, 6)


def test_original_runs_carry_the_campaigns_quiet_period_and_schedule_perturbation() -> None:
    # A reproduction must run as the campaign did to be a fair test of its rate.
    program = _found([["timeout"]])
    Campaign.objects.filter(executions__program=program).update(hang_quiet_s=2.5, pct_depth=3)
    original = selectors.original_runs(program)
    assert (original.hang_quiet_s, original.pct_depth) == (2.5, 3)


def test_original_runs_of_a_program_no_campaign_found_anything_with_are_none() -> None:
    program = programs.store_program(programs.build_from_effect("Put(c1)"))
    assert selectors.original_runs(program) is None
    campaign = _campaign(program_count=1, languages=["go"])
    Execution.objects.create(
        campaign=campaign, target=campaign.targets.get(), index=0, program=program, outcome="crash"
    )
    assert selectors.original_runs(program) is None


def test_original_runs_rate_and_chance_of_none() -> None:
    runs = OriginalRuns("go", "go-1", 1, 5.0, bad_runs=1, runs=4)
    assert runs.rate == 0.25
    assert runs.chance_of_none(2) == 0.75**2
    assert runs.chance_of_none(0) == 1.0
    empty = OriginalRuns("go", "go-1", 1, 5.0, bad_runs=0, runs=0)
    assert empty.rate == 0.0
    assert empty.chance_of_none(3) == 1.0


def _done(
    *, completed: int, failed: int = 0, toolchain_id: str = "go-1", repetitions: int = 1
) -> Reproduction:
    repro = _reproduction(times=completed)
    repro.toolchain_id = toolchain_id
    repro.repetitions = repetitions
    repro.status = Reproduction.Status.DONE
    repro.completed = completed
    repro.crashed = failed
    return repro


ORIGINAL = OriginalRuns("go", "go-1", repetitions=1, timeout_s=5.0, bad_runs=1, runs=4)


def test_reproduction_verdict_says_nothing_while_running_or_without_original() -> None:
    repro = _done(completed=3)
    assert selectors.reproduction_verdict(repro, None) == ""
    repro.status = Reproduction.Status.RUNNING
    assert selectors.reproduction_verdict(repro, ORIGINAL) == ""


def test_reproduction_verdict_of_enough_passing_runs_says_the_bug_is_likely_absent() -> None:
    # 0.75 ** 11 = 4.2 %: under 5 %.
    assert selectors.reproduction_verdict(_done(completed=11), ORIGINAL) == (
        "Originally 1 of 4 run(s) failed (25 %)."
        " At that rate, 11 passing run(s) in a row happen with chance 4.2 %:"
        " the bug is most likely not present with these settings."
    )


def test_reproduction_verdict_of_too_few_passing_runs_asks_for_more() -> None:
    # 0.75 ** 10 = 5.6 %: not under 5 %.
    assert selectors.reproduction_verdict(_done(completed=10), ORIGINAL) == (
        "Originally 1 of 4 run(s) failed (25 %)."
        " At that rate, 10 passing run(s) in a row happen with chance 5.6 %:"
        " too few runs to tell; run more."
    )


def test_reproduction_verdict_of_failing_runs_or_no_run_only_gives_the_original_rate() -> None:
    assert selectors.reproduction_verdict(_done(completed=11, failed=1), ORIGINAL) == (
        "Originally 1 of 4 run(s) failed (25 %)."
    )
    assert selectors.reproduction_verdict(_done(completed=0), ORIGINAL) == (
        "Originally 1 of 4 run(s) failed (25 %)."
    )
    never = OriginalRuns("go", "go-1", repetitions=1, timeout_s=5.0, bad_runs=0, runs=3)
    assert selectors.reproduction_verdict(_done(completed=11), never) == (
        "Originally 0 of 3 run(s) failed (0 %)."
    )


def test_reproduction_verdict_with_other_settings_names_each_difference() -> None:
    repro = _done(completed=30, toolchain_id="go-2", repetitions=3)
    repro.timeout_s = 2.5
    assert selectors.reproduction_verdict(repro, ORIGINAL) == (
        "Originally 1 of 4 run(s) failed (25 %)."
        " Not the same settings: repetitions 3 (found with 1); timeout 2.5 (found with 5);"
        " toolchain go-2 (found on go-1)."
    )
    only_timeout = _done(completed=30)
    only_timeout.timeout_s = 10.0
    assert selectors.reproduction_verdict(only_timeout, ORIGINAL) == (
        "Originally 1 of 4 run(s) failed (25 %). Not the same settings: timeout 10 (found with 5)."
    )


def test_reproduction_verdict_names_a_different_schedule_perturbation() -> None:
    perturbed = _done(completed=30)
    perturbed.pct_depth = 3
    assert selectors.reproduction_verdict(perturbed, ORIGINAL) == (
        "Originally 1 of 4 run(s) failed (25 %). Not the same settings: PCT depth 3 (found with"
        " none)."
    )
    plain = _done(completed=30)
    found_perturbed = OriginalRuns("go", "go-1", 1, 5.0, bad_runs=1, runs=4, pct_depth=2)
    assert selectors.reproduction_verdict(plain, found_perturbed) == (
        "Originally 1 of 4 run(s) failed (25 %). Not the same settings: PCT depth none (found"
        " with 2)."
    )


def test_reproduction_verdict_of_a_program_that_always_failed() -> None:
    always = OriginalRuns("go", "go-1", repetitions=1, timeout_s=5.0, bad_runs=4, runs=4)
    assert selectors.reproduction_verdict(_done(completed=1), always) == (
        "Originally 4 of 4 run(s) failed (100 %)."
        " At that rate, 1 passing run(s) in a row happen with chance 0.0 %:"
        " the bug is most likely not present with these settings."
    )


@pytest.mark.parametrize("status", [Reproduction.Status.DONE, Reproduction.Status.FAILED])
def test_a_finished_reproduction_is_not_run_again(status) -> None:  # noqa: ANN001
    repro = _reproduction(times=3)
    Reproduction.objects.filter(pk=repro.pk).update(status=status, completed=3, crashed=1)
    assert jobs.run_reproduction(repro.pk) == {
        "reproduction": repro.pk,
        "skipped": f"already {status}",
    }
    repro.refresh_from_db()
    assert (repro.status, repro.completed, repro.crashed) == (status, 3, 1)


def test_a_retried_reproduction_starts_its_counts_over(scripted_runs, monkeypatch) -> None:  # noqa: ANN001
    # A killed attempt left counts and runs behind; the campaign's runs are not its own.
    repro = _reproduction(times=2)
    Reproduction.objects.filter(pk=repro.pk).update(
        status=Reproduction.Status.QUEUED, completed=5, crashed=2, hung=1, wrong_values=1
    )
    Execution.objects.create(reproduction=repro, index=0, program=repro.program, outcome="crash")
    campaign = _campaign(program_count=1, languages=["go"])
    _execute(campaign, campaign.targets.get(), ["crash"])
    seen: list[tuple] = []

    def count_then_fail(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
        now = Reproduction.objects.get(pk=repro.pk)
        seen.append(
            (now.status, now.completed, now.crashed, now.hung, now.wrong_values)
            + (Execution.objects.filter(reproduction=repro).count(),)
        )
        raise _Killed("worker lost")

    scripted_runs([])
    monkeypatch.setattr(jobs, "run_one", count_then_fail)
    with pytest.raises(_Killed, match="worker lost"):
        jobs.run_reproduction(repro.pk)
    assert seen == [(Reproduction.Status.RUNNING, 0, 0, 0, 0, 0)]
    repro.refresh_from_db()
    assert repro.finished_at is not None
    assert (repro.status, repro.completed, repro.crashed, repro.hung, repro.wrong_values) == (
        Reproduction.Status.FAILED,
        0,
        0,
        0,
        0,
    )
    assert Execution.objects.filter(campaign=campaign).count() == 1


def test_a_reproduction_builds_and_runs_its_program_as_it_was_asked(monkeypatch) -> None:  # noqa: ANN001
    # Every argument the compile and the runs get, recorded instead of run.
    repro = _reproduction(times=2)
    Reproduction.objects.filter(pk=repro.pk).update(pct_depth=2, repetitions=3, timeout_s=4.5)
    target = target_for(FAKE_GO, repetitions=1)
    sandbox, artifact = object(), object()
    calls: list[tuple] = []

    def fake_make_target(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
        calls.append(("make_target", args, kwargs))
        return target

    def fake_build(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
        workdir = args[2]
        calls.append(("build", args[:2], kwargs, workdir.stat().st_mode & 0o777))
        return artifact

    def fake_run_one(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
        calls.append(("run_one", args, kwargs))
        return ProgramRun(index=args[2], classification=_verdict(Outcome.TERMINATED))

    monkeypatch.setattr(jobs, "make_target", fake_make_target)
    monkeypatch.setattr(jobs, "build", fake_build)
    monkeypatch.setattr(
        jobs, "get_sandbox", lambda **kwargs: calls.append(("sandbox", kwargs)) or sandbox
    )
    monkeypatch.setattr(jobs, "run_one", fake_run_one)
    jobs.run_reproduction(repro.pk)
    program = programs.program_object(repro.program)
    source = target.spec.render_batch(
        [program],
        seed=repro.program.render_seed,
        repetitions=target.repetitions,
        **dict(target.render_options),
    )
    run = (
        "run_one",
        (target, artifact, 0),
        {
            "sandbox": sandbox,
            "limits": Limits(timeout_s=4.5),
            "triage": Triage(retries=0),
            "program": program,  # under perturbation, its own thread count
        },
    )
    assert calls == [
        ("make_target", ("go", FAKE_GO.id), {"repetitions": 3, "pct_depth": 2}),
        ("sandbox", {"language": "go"}),
        ("build", (FAKE_GO, source), {"flags": target.build_flags}, 0o755),
        run,
        run,
    ]
    assert list(Execution.objects.filter(reproduction=repro).values_list("index", "outcome")) == [
        (0, "terminated"),
        (1, "terminated"),
    ]


def _finding(signature: str) -> Finding:
    now = timezone.now()
    return Finding.objects.create(
        signature=signature,
        outcome="crash",
        language="go",
        title=signature,
        first_seen=now,
        last_seen=now,
    )


def test_original_runs_count_only_this_program_on_the_target_of_its_latest_finding() -> None:
    program = programs.store_program(programs.build_from_effect("Spawn(Put(c1)) ; Get(c1)"))
    other_program = programs.store_program(programs.build_from_effect("Put(c2)"))
    older = _campaign(program_count=5, languages=["go"])
    newer = _campaign(program_count=5, languages=["go", "crystal"])
    Campaign.objects.filter(pk=newer.pk).update(repetitions=4, timeout_s=9.0)
    go, crystal = newer.targets.order_by("pk")
    finding = _finding("go | crash")
    bad, good = [{"outcome": "crash"}], [{"outcome": "terminated"}]
    rows = [
        (newer, go, program, bad + good, finding),
        (newer, go, other_program, bad * 5, finding),  # another program: not counted
        (newer, crystal, program, bad * 7, None),  # another target: not counted
        (older, older.targets.get(), program, bad * 3, finding),  # last made, but older
        (newer, crystal, other_program, bad, finding),  # the latest finding, another program's
    ]
    for index, (campaign, target, prog, attempts, found) in enumerate(rows):
        Execution.objects.create(
            campaign=campaign,
            target=target,
            index=index,
            program=prog,
            outcome=attempts[0]["outcome"],
            attempts=attempts,
            finding=found,
        )
    # A reproduction's run with the finding, newer still: not a campaign's.
    repro = _reproduction(times=1)
    Execution.objects.create(
        reproduction=repro, index=0, program=program, outcome="crash", finding=finding
    )
    # The older campaign's row has the highest id, not the latest time.
    past = timezone.now() - timedelta(hours=1)
    Execution.objects.filter(campaign=older).update(created_at=past)
    assert selectors.original_runs(program) == OriginalRuns(
        language="go", toolchain_id="go-test", repetitions=4, timeout_s=9.0, bad_runs=1, runs=2
    )


def test_original_runs_of_equally_old_findings_take_the_last_one() -> None:
    program = programs.store_program(programs.build_from_effect("Get(c3)"))
    first = _campaign(program_count=1, languages=["go"])
    second = _campaign(program_count=1, languages=["crystal"])
    finding = _finding("x | crash")
    for campaign in (first, second):
        Execution.objects.create(
            campaign=campaign,
            target=campaign.targets.get(),
            index=0,
            program=program,
            outcome="crash",
            attempts=[{"outcome": "crash"}],
            finding=finding,
        )
    Execution.objects.filter(program=program).update(created_at=timezone.now())
    assert selectors.original_runs(program).toolchain_id == "crystal-test"


def test_original_runs_of_a_campaign_run_without_its_target_are_none() -> None:
    program = programs.store_program(programs.build_from_effect("Get(c4)"))
    campaign = _campaign(program_count=1, languages=[])
    Execution.objects.create(
        campaign=campaign, index=0, program=program, outcome="crash", finding=_finding("y")
    )
    assert selectors.original_runs(program) is None


def test_a_finished_reproduction_says_when(scripted_runs) -> None:  # noqa: ANN001
    scripted_runs([Outcome.TERMINATED])
    repro = _reproduction(times=1)
    before = timezone.now()
    jobs.run_reproduction(repro.pk)
    repro.refresh_from_db()
    assert before <= repro.finished_at <= timezone.now()


def test_a_failed_reproductions_error_is_cut_to_8000_characters(scripted_runs) -> None:  # noqa: ANN001
    scripted_runs([_Killed("x" * 9000)])
    repro = _reproduction(times=1)
    with pytest.raises(_Killed):
        jobs.run_reproduction(repro.pk)
    repro.refresh_from_db()
    assert repro.last_error == ("_Killed: " + "x" * 9000)[:8000]
    assert len(repro.last_error) == 8000

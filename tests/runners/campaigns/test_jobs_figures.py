"""The figures a campaign's and a reproduction's pages show, from the code that computes
them: a campaign's progress (done/total over all its targets, programs per minute), and a
reproduction's counts and rate as `run_reproduction` leaves them.

No toolchain and no Redis: the campaign rows are made directly, and `run_reproduction`
runs for real with only the compile and the sandboxed runs replaced by recorded verdicts
(the slow tests in test_jobs.py run real programs through a worker).
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest
from django.utils import timezone

from runners.campaigns import jobs, programs, selectors
from runners.campaigns.models import Campaign, CampaignTarget, Execution, Reproduction
from runners.engine.execute import ProgramRun, target_for
from runners.engine.verdicts import Classification, Outcome
from runners.targets.base import Toolchain

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

FAKE_GO = Toolchain(
    language="go",
    version="1.0",
    id="go-1.0-test",
    origin="path",
    home=Path("/nonexistent"),
    executable=Path("/nonexistent/go"),
)


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
        jobs, "make_target", lambda lang, tid, repetitions: target_for(FAKE_GO, repetitions=1)
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

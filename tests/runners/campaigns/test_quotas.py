"""Quotas (runners.campaigns.quotas) on a real database: who is bound, what counts as
run-seconds, which limit a refusal names, and the chunk that pauses a campaign whose
owner's daily budget is spent."""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import timedelta

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.utils import timezone

from generator.settings import GeneratorSettings
from runners.campaigns import quotas, services
from runners.campaigns.jobs import _claim
from runners.campaigns.models import Campaign, Chunk, Execution, Finding, Reduction
from runners.campaigns.programs import build_generated, store_program
from runners.campaigns.quotas import QuotaExceeded
from tests.runners.conftest import require_toolchain

pytestmark = [pytest.mark.django_db, pytest.mark.security]

SMALL = replace(
    settings.QUOTAS, programs=100, campaigns=2, run_seconds=60, timeout_s=20.0,
    repetitions=50, reproduction_runs=10, reduction_minutes=5,
)  # fmt: skip


@pytest.fixture(autouse=True)
def small_quotas(settings) -> None:  # noqa: ANN001 - pytest-django's settings fixture
    settings.QUOTAS = SMALL


@pytest.fixture
def ada() -> User:
    return User.objects.create_user("ada", password="x-not-used-1")


def _campaign(owner: User | None, count: int = 4) -> Campaign:
    require_toolchain("go")
    return services.create_campaign(targets=[("go", None)], count=count, chunk_size=2,
                                    enqueue=False, owner=owner)  # fmt: skip


def _ran(
    campaign: Campaign, seconds: list[float], *, ago: timedelta = timedelta(), runs: int = 1
) -> None:
    """Executions of `campaign` that took `seconds` each, created `ago` in the past, each
    after `runs` - 1 clean runs before it."""
    target = campaign.targets.get()
    settings_ = GeneratorSettings(**campaign.settings)
    for i, duration in enumerate(seconds):
        program = store_program(build_generated(campaign.seed + i, settings_))
        execution = Execution.objects.create(
            target=target, campaign=campaign, program=program, index=i, outcome="terminated",
            reason="exit 0", duration_s=duration, runs=runs,
        )  # fmt: skip
        Execution.objects.filter(pk=execution.pk).update(created_at=timezone.now() - ago)


def test_staff_and_the_command_line_are_not_bound(ada: User) -> None:
    ada.is_staff = True
    assert quotas.quotas_for(ada) is None
    assert quotas.quotas_for(None) is None
    assert quotas.quotas_for(User(username="bob")) is SMALL


def test_run_seconds_count_the_last_day_of_the_owners_work_only(ada: User) -> None:
    mine, theirs = _campaign(ada), _campaign(None)
    _ran(mine, [1.5, 2.5])
    _ran(theirs, [100.0])
    assert quotas.run_seconds_used(ada) == pytest.approx(4.0)
    _ran(_campaign(ada), [7.0], ago=timedelta(hours=25))  # yesterday's: not counted
    assert quotas.run_seconds_used(ada) == pytest.approx(4.0)


def test_run_seconds_count_the_clean_runs_before_a_verdict_as_long_as_it(ada: User) -> None:
    _ran(_campaign(ada), [1.5, 2.5], runs=3)
    assert quotas.run_seconds_used(ada) == pytest.approx(12.0)


def test_a_reduction_counts_its_wall_time_times_its_parallel_runs(ada: User) -> None:
    campaign = _campaign(ada)
    _ran(campaign, [0.0])
    program = campaign.targets.get().executions.get().program

    now = timezone.now()
    finding = Finding.objects.create(signature="s", outcome="crash", language="go", title="t",
                                     first_seen=now, last_seen=now)  # fmt: skip
    reduction = Reduction.objects.create(
        finding=finding, program=program, language="go", toolchain_id="x", signature="s",
        timeout_s=1.0, repetitions=1, jobs=3, owner=ada,
    )  # fmt: skip
    Reduction.objects.filter(pk=reduction.pk).update(
        created_at=now - timedelta(seconds=100), finished_at=now - timedelta(seconds=90)
    )
    assert quotas.run_seconds_used(ada, now=now) == pytest.approx(30.0)

    # One still running counts until now; one shorter than a second, its fraction.
    running = Reduction.objects.create(
        finding=finding, program=program, language="go", toolchain_id="x", signature="s",
        timeout_s=1.0, repetitions=1, jobs=2, owner=ada,
    )  # fmt: skip
    short = Reduction.objects.create(
        finding=finding, program=program, language="go", toolchain_id="x", signature="s",
        timeout_s=1.0, repetitions=1, jobs=1, owner=ada,
    )  # fmt: skip
    Reduction.objects.filter(pk=running.pk).update(created_at=now - timedelta(seconds=5))
    Reduction.objects.filter(pk=short.pk).update(
        created_at=now - timedelta(seconds=60), finished_at=now - timedelta(seconds=59.5)
    )
    assert quotas.run_seconds_used(ada, now=now) == pytest.approx(30.0 + 10.0 + 0.5)


@pytest.mark.parametrize(
    ("overrides", "field", "message"),
    [
        ({"count": 101}, "count", "at most 100 programs per campaign (asked 101)"),
        ({"timeout_s": 21.0}, "timeout_s", "at most 20 seconds of timeout per run"),
        ({"repetitions": 51}, "repetitions", "at most 50 repetitions"),
        # Each run of a program counts: 34 programs run 3 times each are 102 runs.
        (
            {"count": 34, "runs": 3},
            "runs",
            "at most 100 program runs per campaign (count × runs) (asked 102)",
        ),
    ],
)
def test_an_over_quota_size_names_its_field_and_limit(
    ada: User, overrides: dict, field: str, message: str
) -> None:
    asked = {"count": 4, "timeout_s": 5.0, "repetitions": 3, **overrides}
    with pytest.raises(QuotaExceeded, match=re.escape(message)) as refused:
        quotas.check_campaign(owner=ada, **asked)
    assert refused.value.field == field
    quotas.check_campaign(owner=None, **asked)  # the command line is not bound


def test_a_campaign_at_its_limits_runs_each_program_once_by_default(ada: User) -> None:
    at_limits = {"count": 100, "timeout_s": 20.0, "repetitions": 50}
    quotas.check_campaign(owner=ada, **at_limits)
    quotas.check_campaign(owner=ada, **{**at_limits, "count": 50}, runs=2)


def test_campaigns_at_once_and_the_daily_budget_refuse_new_work(ada: User) -> None:
    first = _campaign(ada)
    _campaign(ada)
    with pytest.raises(QuotaExceeded, match=r"at most 2 campaigns queued or running at once"):
        _campaign(ada)
    services.cancel_campaign(campaign=first)
    _ran(first, [61.0])
    with pytest.raises(QuotaExceeded, match=r"quota is 60 run-seconds a day"):
        _campaign(ada)
    with pytest.raises(QuotaExceeded, match=r"quota is 60 run-seconds a day"):
        quotas.check_reproduction(owner=ada, times=1, timeout_s=1.0, repetitions=1)
    with pytest.raises(QuotaExceeded, match=r"at most 10 runs per reproduction"):
        quotas.check_reproduction(owner=ada, times=11, timeout_s=1.0, repetitions=1)
    with pytest.raises(QuotaExceeded, match=r"at most 5 minutes per reduction"):
        quotas.check_reduction(owner=ada, max_seconds=301)


def test_a_chunk_pauses_a_campaign_whose_owner_spent_the_day(ada: User) -> None:
    campaign = _campaign(ada, count=4)
    first, second = Chunk.objects.filter(target__campaign=campaign).order_by("start")
    chunk, why = _claim(first.pk)
    assert chunk is not None and why == ""
    _ran(campaign, [30.0, 31.0])  # the first chunk's two programs spent the budget
    chunk, why = _claim(second.pk)
    assert chunk is None and "over the quota of 60 run-seconds a day" in why
    campaign.refresh_from_db()
    assert campaign.status == Campaign.Status.PAUSED
    assert campaign.status_note == why
    second.refresh_from_db()
    assert second.state == Chunk.State.QUEUED  # resume runs it
    # Resuming clears the note (its jobs are enqueued on commit, which this test never does).
    services.resume_campaign(campaign=campaign)
    campaign.refresh_from_db()
    assert (campaign.status, campaign.status_note) == (Campaign.Status.RUNNING, "")

"""What one user of the web app may ask for: the quotas, checked before work is queued.

The limits are settings (`settings.QUOTAS`, from CHANFUZZ_QUOTA_PROGRAMS and the other
quota variables in runners/config.py). They bind users who are not staff; staff, and
work started from the command line (no owner), are bound only by the services' hard
ranges (services.MAX_*). An over-quota request raises `QuotaExceeded`, a ValueError naming
the form field and the limit, so a form shows which limit was hit.

Run-seconds are what a user's work ran in the last 24 hours: the durations of the
executions of their campaigns and reproductions, and the wall time of their
reductions times their parallel runs. A campaign started under the quota can run
past it: its next chunk finds the budget spent and pauses it (`budget_note`).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import F, Q, Sum
from django.utils import timezone

from runners.campaigns.models import Campaign, Execution, Reduction
from runners.config import Quotas

WINDOW = timedelta(hours=24)


class QuotaExceeded(ValueError):
    """A request over one of the owner's quotas; `field` is the form field at fault (or None)."""

    def __init__(self, field: str | None, message: str) -> None:
        super().__init__(message)
        self.field = field


def quotas_for(owner: object | None) -> Quotas | None:
    """The quotas binding `owner`, or None: no owner (the CLI), or staff."""
    if owner is None or getattr(owner, "is_staff", False):
        return None
    return settings.QUOTAS


def _at_most(field: str, value: float, limit: float, what: str) -> None:
    if value > limit:
        raise QuotaExceeded(field, f"over your quota: at most {limit:,g} {what} (asked {value:,g})")


def run_seconds_used(owner: object, *, now: datetime | None = None) -> float:
    """What `owner`'s campaigns, reproductions and reductions ran in the last 24 hours."""
    now = now or timezone.now()
    since = now - WINDOW
    executions = (
        Execution.objects.filter(created_at__gte=since)
        .filter(Q(campaign__owner=owner) | Q(reproduction__owner=owner))
        # A verdict's clean runs before it (Execution.runs) are taken to be as long.
        .aggregate(total=Sum(F("duration_s") * F("runs")))["total"]
    )
    reduced = 0.0
    for created, finished, jobs in (
        Reduction.objects.filter(owner=owner)
        .filter(Q(finished_at__isnull=True) | Q(finished_at__gte=since))
        .values_list("created_at", "finished_at", "jobs")
    ):
        start, end = max(created, since), finished or now
        reduced += max((end - start).total_seconds(), 0.0) * jobs
    return float(executions or 0.0) + reduced


def _check_budget(owner: object, quotas: Quotas) -> None:
    used = run_seconds_used(owner)
    if used >= quotas.run_seconds:
        raise QuotaExceeded(
            None,
            f"over your quota: your work ran {used:,.0f} s in the last 24 hours, and the "
            f"quota is {quotas.run_seconds:,} run-seconds a day; wait, or ask staff",
        )


def check_campaign(
    *, owner: object | None, count: int, timeout_s: float, repetitions: int, runs: int = 1
) -> None:
    """QuotaExceeded unless `owner` may start a campaign of this size now (a program run
    `runs` times counts as that many)."""
    quotas = quotas_for(owner)
    if quotas is None:
        return
    _at_most("count", count, quotas.programs, "programs per campaign")
    _at_most("runs", count * runs, quotas.programs, "program runs per campaign (count × runs)")
    _at_most("timeout_s", timeout_s, quotas.timeout_s, "seconds of timeout per run")
    _at_most("repetitions", repetitions, quotas.repetitions, "repetitions")
    active = Campaign.objects.filter(
        owner=owner, status__in=[Campaign.Status.QUEUED, Campaign.Status.RUNNING]
    ).count()
    if active >= quotas.campaigns:
        raise QuotaExceeded(
            None,
            f"over your quota: at most {quotas.campaigns} campaigns queued or running at once "
            f"(you have {active}); wait for one to end, or pause or cancel one",
        )
    _check_budget(owner, quotas)


def check_reproduction(
    *, owner: object | None, times: int, timeout_s: float, repetitions: int
) -> None:
    """QuotaExceeded unless `owner` may queue this reproduction now."""
    quotas = quotas_for(owner)
    if quotas is None:
        return
    _at_most("times", times, quotas.reproduction_runs, "runs per reproduction")
    _at_most("timeout_s", timeout_s, quotas.timeout_s, "seconds of timeout per run")
    _at_most("repetitions", repetitions, quotas.repetitions, "repetitions")
    _check_budget(owner, quotas)


def check_reduction(*, owner: object | None, max_seconds: float) -> None:
    """QuotaExceeded unless `owner` may start a reduction with this time budget now."""
    quotas = quotas_for(owner)
    if quotas is None:
        return
    _at_most("max_minutes", max_seconds / 60, quotas.reduction_minutes, "minutes per reduction")
    _check_budget(owner, quotas)


def budget_note(campaign: Campaign) -> str:
    """Why `campaign` must not run on now (its owner's daily run-seconds are spent), or ""."""
    quotas = quotas_for(campaign.owner)
    if quotas is None:
        return ""
    used = run_seconds_used(campaign.owner)
    if used < quotas.run_seconds:
        return ""
    return (
        f"paused: its owner's work ran {used:,.0f} s in the last 24 hours, over the quota of "
        f"{quotas.run_seconds:,} run-seconds a day; resume it later"
    )

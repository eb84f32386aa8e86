"""What the report commands' studies share: campaigns found again by name, waited
for (or stopped at a time budget), and described for a report's JSON document.

A study (runners.kotlin_study, runners.release_study) runs ordinary campaigns, so the
web app shows them like any other; naming them lets a report cut off halfway
resume its campaigns instead of starting them over.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

from django.utils import timezone

from runners.campaigns import selectors, services
from runners.campaigns.models import Campaign, Execution

ProgressHook = Callable[[Campaign, selectors.CampaignProgress], None]


def find_or_create(name: str, create: Callable[[], Campaign]) -> Campaign:
    """The campaign called `name` that was not cancelled, resumed if paused; else a new one."""
    existing = Campaign.objects.filter(name=name).exclude(status=Campaign.Status.CANCELLED).first()
    if existing is None:
        return create()
    if existing.status == Campaign.Status.PAUSED:
        return services.resume_campaign(campaign=existing)
    return existing


def wait_for(
    campaigns: Sequence[Campaign],
    *,
    poll_s: float = 10.0,
    on_progress: ProgressHook | None = None,
    deadline: float | None = None,
) -> bool:
    """Block until every campaign is done (or cancelled); True then. With `deadline`
    (a time.monotonic() value), the campaigns still running then are paused, and
    False says so. The workers requeue the chunks of dead workers
    (runners.campaigns.worker), so a killed worker delays, never stalls."""
    pending = {c.pk for c in campaigns}
    while pending:
        for campaign in Campaign.objects.filter(pk__in=pending):
            if on_progress:
                on_progress(campaign, selectors.campaign_progress(campaign))
            if campaign.status == Campaign.Status.PAUSED:
                raise RuntimeError(f"campaign {campaign.pk} was paused; resume it to go on")
            if not campaign.is_active:
                pending.discard(campaign.pk)
        if pending and deadline is not None and time.monotonic() >= deadline:
            for campaign in Campaign.objects.filter(pk__in=pending):
                services.pause_campaign(campaign=campaign)
            return False
        if pending:
            left = None if deadline is None else max(0.1, deadline - time.monotonic())
            time.sleep(poll_s if left is None else min(poll_s, left))
    return True


def campaign_seconds(campaign: Campaign) -> float:
    """Wall clock from the first chunk's start to its end; a campaign paused (at a
    budget) or still running ends, so far, at its last execution."""
    if not campaign.started_at:
        return 0.0
    end = campaign.finished_at or (
        Execution.objects.filter(campaign=campaign)
        .order_by("-created_at")
        .values_list("created_at", flat=True)
        .first()
    )
    return (end - campaign.started_at).total_seconds() if end else 0.0


def iso(moment: datetime | None) -> str | None:
    return moment.isoformat(timespec="seconds") if moment else None


def now_iso() -> str:
    return timezone.now().isoformat(timespec="seconds")


def campaign_dict(campaign: Campaign) -> dict[str, Any]:
    """What a report's JSON document says of a campaign."""
    return {
        "id": campaign.pk,
        "name": campaign.name,
        "status": campaign.status,
        "heuristic": campaign.heuristic,
        "programs": campaign.program_count,
        "targets": campaign.targets.count(),
        "seconds": campaign_seconds(campaign),
        "started_at": iso(campaign.started_at),
        "finished_at": iso(campaign.finished_at),
        "url": f"/campaigns/{campaign.pk}/",
    }

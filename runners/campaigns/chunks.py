"""The life of a chunk's job: enqueue, heartbeat, stale-chunk recovery, completion.

- `assign_job`: a fresh RQ job id for a chunk, enqueued once the transaction
  commits (a worker must find the rows it is given).
- A running chunk job (runners.campaigns.jobs) beats `Chunk.heartbeat_at`
  every ``CHANFUZZ_HEARTBEAT_S``; `requeue_stale_chunks` gives the chunks whose beat stopped
  (or whose job is gone) to a new job, or fails them after MAX_CHUNK_ATTEMPTS.
  The chanfuzz worker (runners.campaigns.worker) runs it between jobs;
  `manage.py campaign requeue` runs it by hand.
- `finish_campaign_if_complete`: a campaign is done when no chunk is left to run.

Used by services (create, resume), jobs and the worker; imports neither.
"""

from __future__ import annotations

import uuid
from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from runners import config
from runners.campaigns.models import Campaign, Chunk
from runners.campaigns.queueing import COMPILE_ALLOWANCE_S, RUN_CHUNK, get_queue, job_statuses
from runners.engine.run_alone import DEFAULT_TRIAGE

# A chunk that failed this many times is given up (state failed, see last_error).
MAX_CHUNK_ATTEMPTS = 5
# How old a running chunk job's last heartbeat may be, in beats, before the chunk counts
# as its dead worker's.
STALE_AFTER_BEATS = 6


def stale_after_s() -> float:
    """How old a chunk's heartbeat may be before the chunk is its dead worker's."""
    return float(STALE_AFTER_BEATS * config.heartbeat_s())


_DEAD_JOB = {"failed", "stopped", "canceled", None}


def _chunk_job_timeout(campaign: Campaign, size: int) -> int:
    # Clean runs before the last (Campaign.runs), then a timeout's re-runs.
    runs = campaign.runs + campaign.triage_retries * DEFAULT_TRIAGE.factor
    return int(size * (campaign.timeout_s * runs + 5 * campaign.runs) + COMPILE_ALLOWANCE_S)


def assign_job(chunk: Chunk) -> None:
    """Give `chunk` a fresh RQ job id now and enqueue it when the transaction commits.

    The id is saved first, so a job that finds another id on its chunk knows it
    was superseded (requeued) and leaves the chunk to the newer job.
    """
    job_id = f"chunk-{chunk.pk}-{uuid.uuid4().hex[:8]}"
    chunk.rq_job_id = job_id
    chunk.save(update_fields=["rq_job_id", "state"])
    timeout = _chunk_job_timeout(chunk.target.campaign, chunk.end - chunk.start)

    def enqueue() -> None:
        get_queue().enqueue(
            RUN_CHUNK,
            chunk.pk,
            job_id=job_id,
            job_timeout=timeout,
            result_ttl=24 * 3600,
            failure_ttl=7 * 24 * 3600,
            description=f"campaign {chunk.target.campaign_id} {chunk}",
        )

    transaction.on_commit(enqueue)


def finish_campaign_if_complete(*, campaign_id: int) -> bool:
    """Mark an active campaign done when none of its chunks is queued or running."""
    unfinished = Chunk.objects.filter(
        target__campaign_id=campaign_id, state__in=[Chunk.State.QUEUED, Chunk.State.RUNNING]
    ).exists()
    if unfinished:
        return False
    return bool(
        Campaign.objects.filter(
            pk=campaign_id, status__in=[Campaign.Status.QUEUED, Campaign.Status.RUNNING]
        ).update(status=Campaign.Status.DONE, finished_at=timezone.now())
    )


def requeue_stale_chunks(*, older_than_s: float | None = None) -> list[Chunk]:
    """Enqueue again the chunks of active campaigns that no worker is running.

    A chunk is stale when it is running but its heartbeat (every `config.heartbeat_s()`
    from the job) is older than `older_than_s` (default `stale_after_s()`: its
    worker was killed), or when its RQ job failed, was stopped, or is gone
    (Redis flushed) while the chunk is queued or running. A chunk past
    MAX_CHUNK_ATTEMPTS is marked failed instead. Returns the chunks requeued or
    failed. Safe to run from cron or from every worker's start: a chunk that is
    alive keeps its heartbeat fresh.
    """
    if older_than_s is None:
        older_than_s = stale_after_s()
    cutoff = timezone.now() - timedelta(seconds=older_than_s)
    active = [Campaign.Status.QUEUED, Campaign.Status.RUNNING]
    candidates = list(
        Chunk.objects.select_related("target__campaign").filter(
            target__campaign__status__in=active,
            state__in=[Chunk.State.QUEUED, Chunk.State.RUNNING],
        )
    )
    statuses = job_statuses([c.rq_job_id for c in candidates if c.rq_job_id])
    stale = []
    for chunk in candidates:
        status = statuses.get(chunk.rq_job_id) if chunk.rq_job_id else None
        if chunk.state == Chunk.State.RUNNING:
            beat = chunk.heartbeat_at or chunk.started_at
            dead = beat is None or beat < cutoff or status in ("failed", "stopped", "canceled")
        else:
            # Queued and no job to run it; but a chunk created a moment ago may
            # not be enqueued yet (on_commit), so give it the same grace.
            dead = (
                status in _DEAD_JOB
                and (chunk.heartbeat_at or chunk.target.campaign.created_at) < cutoff
            )
        if dead:
            stale.append(chunk)
    changed = []
    for chunk in stale:
        with transaction.atomic():
            # Re-read under lock: the chunk may have moved on since.
            fresh = (
                Chunk.objects.select_for_update()
                .select_related("target__campaign")
                .get(pk=chunk.pk)
            )
            if fresh.state != chunk.state or fresh.rq_job_id != chunk.rq_job_id:
                continue
            if fresh.attempts >= MAX_CHUNK_ATTEMPTS:
                fresh.state = Chunk.State.FAILED
                fresh.last_error = fresh.last_error or f"given up after {fresh.attempts} attempts"
                fresh.save(update_fields=["state", "last_error"])
                finish_campaign_if_complete(campaign_id=fresh.target.campaign_id)
            else:
                fresh.state = Chunk.State.QUEUED
                assign_job(fresh)
            changed.append(fresh)
    return changed

"""The RQ queue campaigns and reproductions run through, and what is asked of it.

Jobs are enqueued by dotted path ("runners.campaigns.jobs.run_chunk"), never by
function object: the modules that enqueue (services, chunks) do not import
runners.campaigns.jobs, which imports them. rq and django_rq are imported
lazily, so importing this module needs neither Redis nor a worker.
"""

from __future__ import annotations

QUEUE_NAME = "default"
# How long compiling may take, on top of a job's runs, before RQ kills the job.
COMPILE_ALLOWANCE_S = 900

RUN_CHUNK = "runners.campaigns.jobs.run_chunk"
RUN_REPRODUCTION = "runners.campaigns.jobs.run_reproduction"
RUN_REDUCTION = "runners.campaigns.reductions.run_reduction"


def get_queue(name: str = QUEUE_NAME):  # -> rq.Queue (typed loosely: rq is imported lazily)
    """The RQ queue `name` (settings.RQ_QUEUES, read on each call); campaigns run through
    "default"."""
    import django_rq

    # Enqueue now: callers choose when (transaction.on_commit) themselves.
    return django_rq.get_queue(name, commit_mode="auto")


def interactive_queue_name() -> str:
    """Where reproductions go: settings.INTERACTIVE_QUEUE (CHANFUZZ_INTERACTIVE_QUEUE) when
    RQ_QUEUES has it, else "default" (one queue for everything, as a single host runs)."""
    from django.conf import settings

    name = getattr(settings, "INTERACTIVE_QUEUE", QUEUE_NAME)
    return name if name in settings.RQ_QUEUES else QUEUE_NAME


def enqueue_or_fail(
    rows,  # noqa: ANN001
    function: str,
    *args: object,
    queue_name: str = QUEUE_NAME,
    **kwargs: object,
) -> None:
    """Enqueue `function` on `queue_name`; if the queue refuses, mark `rows` (a queryset of
    the job's own Reproduction or Reduction) failed with the reason before raising, so a row
    is never left "queued" for a job that does not exist."""
    from django.utils import timezone

    try:
        get_queue(queue_name).enqueue(function, *args, **kwargs)
    except Exception as exc:
        rows.update(
            status="failed",
            last_error=f"the queue is unavailable ({type(exc).__name__}: {exc})"[:8000],
            finished_at=timezone.now(),
        )
        raise


def job_statuses(job_ids: list[str]) -> dict[str, str | None]:
    """RQ status of each job id ("queued", "started", "failed", …; None: no such job,
    e.g. Redis lost it)."""
    from rq.job import Job

    queue = get_queue()
    jobs = Job.fetch_many(job_ids, connection=queue.connection) if job_ids else []
    # JobStatus is a str enum whose str() is "JobStatus.FAILED" on Python 3.11: its value.
    return {
        job_id: (job.get_status(refresh=False).value if job is not None else None)
        for job_id, job in zip(job_ids, jobs, strict=True)
    }


def cancel_jobs(job_ids: list[str]) -> None:
    """Take queued jobs off the queue (best effort: a job that started sees the status)."""
    from rq.exceptions import NoSuchJobError
    from rq.job import Job

    queue = get_queue()
    for job_id in job_ids:
        try:
            Job.fetch(job_id, connection=queue.connection).cancel()
        except (NoSuchJobError, Exception):  # noqa: BLE001 - finished, gone, or Redis down
            continue

"""The RQ job of the mutation study: a channel implementation's own tests on one mutant.

The result is a MutantTests row (the database is the state of record; RQ only
carries the work), so a report cut off halfway finds the finished ones again.
"""

from __future__ import annotations

import uuid

from django.db import close_old_connections, transaction
from django.utils import timezone

from runners.campaigns.models import MutantTests
from runners.campaigns.queueing import enqueue_or_fail, job_statuses
from runners.engine.toolchains import find_toolchain
from runners.mutation.kinds import kind_for

RUN_RUNTIME_TESTS = "runners.mutation_study.jobs.run_runtime_tests"
# Go's channel tests and test/chan take about 90 s on a mutant; a hanging one is
# cut by the suite's own limits (runners.mutation.runtime_tests) well before this.
JOB_TIMEOUT_S = 3 * 3600
LIVE_JOB = ("queued", "started", "deferred", "scheduled")


def request_runtime_tests(*, language: str, toolchain_id: str, kind: str) -> MutantTests:
    """The row of the mutant's runtime tests: as it is when done or under way, else
    (new, or failed before) queued now."""
    row, _ = MutantTests.objects.get_or_create(
        toolchain_id=toolchain_id, defaults={"kind": kind, "language": language}
    )
    if not row.is_done and row.rq_job_id:
        # Queued or running: still so, unless Redis lost the job or its worker was
        # killed (RQ then marks it failed, and the row would wait for ever).
        if job_statuses([row.rq_job_id])[row.rq_job_id] in LIVE_JOB:
            return row
    elif row.is_done and row.status != MutantTests.Status.FAILED:
        return row
    job_id = f"rtests-{row.pk}-{uuid.uuid4().hex[:8]}"
    MutantTests.objects.filter(pk=row.pk).update(
        status=MutantTests.Status.QUEUED, rq_job_id=job_id, last_error=""
    )
    transaction.on_commit(
        lambda: enqueue_or_fail(
            MutantTests.objects.filter(pk=row.pk),
            RUN_RUNTIME_TESTS,
            row.pk,
            job_id=job_id,
            job_timeout=JOB_TIMEOUT_S,
            description=f"runtime tests on {toolchain_id}",
        )
    )
    row.refresh_from_db()
    return row


def run_runtime_tests(row_id: int) -> dict[str, object]:
    """Run the kind's own test suite on the mutant toolchain of row `row_id`."""
    close_old_connections()
    row = MutantTests.objects.get(pk=row_id)
    if row.is_done and row.status != MutantTests.Status.FAILED:
        return {"mutant": row.toolchain_id, "skipped": f"already {row.status}"}
    MutantTests.objects.filter(pk=row.pk).update(status=MutantTests.Status.RUNNING)
    try:
        kind = kind_for(row.language)
        result = kind.runtime_tests(find_toolchain(row.language, row.toolchain_id))
    except BaseException as exc:
        MutantTests.objects.filter(pk=row.pk).update(
            status=MutantTests.Status.FAILED,
            last_error=f"{type(exc).__name__}: {exc}"[:8000],
            finished_at=timezone.now(),
        )
        raise
    MutantTests.objects.filter(pk=row.pk).update(
        status=result.status,
        by=result.by[:500],
        seconds=result.seconds,
        output=result.output[-8000:],
        finished_at=timezone.now(),
    )
    return {"mutant": row.toolchain_id, "status": result.status, "by": result.by}

"""Campaign services against a real Redis: validation, enqueue after commit, cancel,
resume, requeue of stale chunks, progress. No worker runs here (see test_jobs.py)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta

import pytest
from django.test import override_settings
from django.utils import timezone
from rq.job import Job

from runners.campaigns import chunks, jobs, programs, queueing, selectors, services
from runners.campaigns.models import Campaign, Chunk, Execution
from tests.runners.conftest import require_toolchain
from tests.runners.redis_helpers import running_redis

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_redis(tmp_path_factory.mktemp("redis")) as server:
        yield server.url


@pytest.fixture
def queue(redis_url: str) -> Iterator[object]:
    with override_settings(RQ_QUEUES={"default": {"URL": redis_url}}):
        q = queueing.get_queue()
        q.connection.flushdb()
        yield q


@pytest.fixture
def go() -> str:
    return require_toolchain("go").id


def test_bad_arguments_are_refused_with_a_reason(queue: object, go: str) -> None:
    base = {"targets": [("go", None)], "count": 10}
    with pytest.raises(ValueError, match="count must be from 1"):
        services.create_campaign(**{**base, "count": 0})
    with pytest.raises(ValueError, match="unknown language 'cobol'"):
        services.create_campaign(**{**base, "targets": [("cobol", None)]})
    with pytest.raises(ValueError, match=r"target go 0\.0\.1: .*not installed"):
        services.create_campaign(**{**base, "targets": [("go", "0.0.1")]})
    with pytest.raises(ValueError, match="given twice"):
        services.create_campaign(**{**base, "targets": [("go", go), ("go", go)]})
    with pytest.raises(ValueError, match="unknown heuristic"):
        services.create_campaign(**base, heuristic="Z")
    with pytest.raises(ValueError, match="weight G-Select"):
        services.create_campaign(**base, weights={"g_select": -1})
    with pytest.raises(ValueError, match="effect 2"):
        services.campaign_from_programs(effects=["Get(c1)", "Get(("], targets=[("go", None)])
    assert Campaign.objects.count() == 0


def test_create_enqueues_one_job_per_chunk_after_commit(
    queue: object, go: str, django_capture_on_commit_callbacks: object
) -> None:
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        campaign = services.create_campaign(
            targets=[("go", go)], count=23, chunk_size=10, seed=5, weights={"g_select": 15}
        )
        # The rows exist in this transaction, but no worker can see a job yet.
        assert queue.count == 0
    assert len(callbacks) == 3
    assert campaign.heuristic == "custom" and campaign.settings["g_select"] == 15
    rows = list(Chunk.objects.filter(target__campaign=campaign).order_by("start"))
    assert [(c.start, c.end) for c in rows] == [(0, 10), (10, 20), (20, 23)]
    assert sorted(queue.job_ids) == sorted(c.rq_job_id for c in rows)
    job = Job.fetch(rows[0].rq_job_id, connection=queue.connection)
    assert job.func_name == "runners.campaigns.jobs.run_chunk" and job.args == (rows[0].pk,)
    assert campaign.targets.get().toolchain_id == go


def test_cancel_takes_jobs_off_the_queue_and_resume_puts_them_back(
    queue: object, go: str, django_capture_on_commit_callbacks: object
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        campaign = services.create_campaign(targets=[("go", go)], count=4, chunk_size=2)
    assert queue.count == 2
    with django_capture_on_commit_callbacks(execute=True):
        campaign = services.cancel_campaign(campaign=campaign)
    assert campaign.status == Campaign.Status.CANCELLED and queue.count == 0
    with django_capture_on_commit_callbacks(execute=True):
        campaign = services.resume_campaign(campaign=campaign)
    assert campaign.status == Campaign.Status.QUEUED
    ids = set(Chunk.objects.filter(target__campaign=campaign).values_list("rq_job_id", flat=True))
    assert set(queue.job_ids) == ids and len(ids) == 2


def test_requeue_stale_chunks(
    queue: object, go: str, django_capture_on_commit_callbacks: object
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        campaign = services.create_campaign(targets=[("go", go)], count=6, chunk_size=2)
    stale, alive, waiting = Chunk.objects.filter(target__campaign=campaign).order_by("start")
    long_ago = timezone.now() - timedelta(minutes=10)
    Chunk.objects.filter(pk=stale.pk).update(
        state="running", heartbeat_at=long_ago, started_at=long_ago, attempts=1
    )
    Chunk.objects.filter(pk=alive.pk).update(
        state="running", heartbeat_at=timezone.now(), started_at=long_ago, attempts=1
    )
    with django_capture_on_commit_callbacks(execute=True):
        requeued = chunks.requeue_stale_chunks(older_than_s=60)
    # Only the chunk whose worker stopped beating; a queued chunk with its job waiting stays.
    assert [c.pk for c in requeued] == [stale.pk]
    stale.refresh_from_db()
    assert stale.state == "queued" and stale.rq_job_id in queue.job_ids
    # A chunk that keeps failing is given up, and then the campaign is over.
    Chunk.objects.filter(target__campaign=campaign).update(state="done")
    Chunk.objects.filter(pk=waiting.pk).update(
        state="running", heartbeat_at=long_ago, attempts=chunks.MAX_CHUNK_ATTEMPTS
    )
    assert [c.pk for c in chunks.requeue_stale_chunks(older_than_s=60)] == [waiting.pk]
    waiting.refresh_from_db()
    campaign.refresh_from_db()
    assert waiting.state == "failed" and "given up" in waiting.last_error
    assert campaign.status == Campaign.Status.DONE and campaign.finished_at is not None


def test_a_chunk_is_stale_after_six_heartbeats_of_the_environments_period(
    queue: object, go: str, django_capture_on_commit_callbacks: object,
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    with django_capture_on_commit_callbacks(execute=True):
        campaign = services.create_campaign(targets=[("go", go)], count=4, chunk_size=2)
    older, newer = Chunk.objects.filter(target__campaign=campaign).order_by("start")
    for chunk, age_s in ((older, 13), (newer, 11)):
        beat = timezone.now() - timedelta(seconds=age_s)
        Chunk.objects.filter(pk=chunk.pk).update(
            state="running", heartbeat_at=beat, started_at=beat, attempts=1
        )
    assert chunks.requeue_stale_chunks() == []  # the default beat, 10 s: a minute
    monkeypatch.setenv("CHANFUZZ_HEARTBEAT_S", "2")
    assert chunks.stale_after_s() == 12
    with django_capture_on_commit_callbacks(execute=True):
        assert [c.pk for c in chunks.requeue_stale_chunks()] == [older.pk]
    assert jobs._Heartbeat(newer.pk, "job").interval == 2


def test_queued_chunks_whose_jobs_redis_lost_are_requeued(
    queue: object, go: str, django_capture_on_commit_callbacks: object
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        campaign = services.create_campaign(targets=[("go", go)], count=2, chunk_size=2)
    queue.connection.flushdb()
    assert chunks.requeue_stale_chunks(older_than_s=60) == []  # created a moment ago
    Campaign.objects.filter(pk=campaign.pk).update(created_at=timezone.now() - timedelta(minutes=5))
    with django_capture_on_commit_callbacks(execute=True):
        assert len(chunks.requeue_stale_chunks(older_than_s=60)) == 1
    assert queue.count == 1


@pytest.mark.django_db(transaction=True)
def test_campaign_without_redis_is_kept_and_says_how_to_resume(go: str) -> None:
    # A real commit (transaction=True): the enqueue runs, and fails, inside create_campaign.
    with (
        override_settings(RQ_QUEUES={"default": {"URL": "redis://127.0.0.1:1/0"}}),
        pytest.raises(services.QueueUnavailable, match="campaign resume"),
    ):
        services.create_campaign(targets=[("go", go)], count=2)
    assert Chunk.objects.filter(state="queued").count() == 1


def test_progress_counts_per_target_and_verdict(go: str) -> None:
    campaign = services.create_campaign(targets=[("go", go)], count=5, enqueue=False)
    target = campaign.targets.get()
    program = programs.store_program(programs.build_from_effect("Get(c1)"))
    for index, outcome in enumerate(["terminated", "terminated", "crash"]):
        Execution.objects.create(
            campaign=campaign, target=target, index=index, program=program, outcome=outcome
        )
    Campaign.objects.filter(pk=campaign.pk).update(
        started_at=timezone.now() - timedelta(minutes=1), status="running"
    )
    campaign.refresh_from_db()
    progress = selectors.campaign_progress(campaign)
    assert (progress.done, progress.total) == (3, 5)
    assert progress.targets[0].counts == {"terminated": 2, "crash": 1}
    assert progress.targets[0].chunks == {"queued": 1}
    assert 2.0 < progress.per_minute < 3.1
    assert chunks.finish_campaign_if_complete(campaign_id=campaign.pk) is False
    assert [e.index for e in selectors.campaign_executions(campaign, outcome="crash")] == [2]


def test_a_campaigns_hang_quiet_period_is_kept_and_checked() -> None:
    go = require_toolchain("go").id
    campaign = services.create_campaign(
        targets=[("go", go)], count=2, timeout_s=10, hang_quiet_s=2.5, enqueue=False
    )
    assert Campaign.objects.get(pk=campaign.pk).hang_quiet_s == 2.5
    with pytest.raises(ValueError, match="hang_quiet_s must be"):
        services.create_campaign(
            targets=[("go", go)], count=2, timeout_s=10, hang_quiet_s=20, enqueue=False
        )


def test_a_campaign_checks_values_unless_told_not_to() -> None:
    go = require_toolchain("go").id
    checked = services.create_campaign(targets=[("go", go)], count=2, enqueue=False)
    plain = services.create_campaign(
        targets=[("go", go)], count=2, enqueue=False, value_oracle=False
    )
    assert (checked.value_oracle, plain.value_oracle) == (True, False)
    options = [
        dict(jobs.campaign_target(c.targets.get()).render_options) for c in (checked, plain)
    ]
    assert [o.get("values", False) for o in options] == [True, False]


def test_job_statuses_are_rqs_words(queue) -> None:  # noqa: ANN001
    job = queue.enqueue("builtins.print", job_id="words-1")
    assert queueing.job_statuses(["words-1", "no-such-job"]) == {
        "words-1": "queued", "no-such-job": None,
    }  # fmt: skip
    job.set_status("failed")
    # The word, not "JobStatus.FAILED": callers compare it with "failed".
    assert queueing.job_statuses(["words-1"]) == {"words-1": "failed"}

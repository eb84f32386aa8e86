"""The chanfuzz RQ worker's sweep against a real Redis (no job runs here; a plain
worker requeueing a dead worker's chunk end to end is in test_jobs.py)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta

import pytest
from django.conf import settings
from django.db import OperationalError
from django.test import override_settings
from django.utils import timezone
from django_rq.workers import get_worker_class

from runners.campaigns import chunks, queueing, services
from runners.campaigns.models import Chunk
from runners.campaigns.worker import SWEEP_LOCK_KEY, ChanfuzzWorker
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


def _worker(queue: object) -> ChanfuzzWorker:
    return ChanfuzzWorker([queue], connection=queue.connection)


def _dead_chunks(count: int, django_capture_on_commit_callbacks: object) -> list[Chunk]:
    go = require_toolchain("go").id
    with django_capture_on_commit_callbacks(execute=True):
        campaign = services.create_campaign(targets=[("go", go)], count=count, chunk_size=1)
    long_ago = timezone.now() - timedelta(hours=1)
    dead = list(Chunk.objects.filter(target__campaign=campaign).order_by("start"))
    Chunk.objects.filter(pk__in=[c.pk for c in dead]).update(
        state="running", heartbeat_at=long_ago, started_at=long_ago, attempts=1
    )
    return dead


def test_manage_rqworker_runs_the_chanfuzz_worker() -> None:
    assert settings.RQ["WORKER_CLASS"] == "runners.campaigns.worker.ChanfuzzWorker"
    assert get_worker_class() is ChanfuzzWorker


def test_an_idle_worker_wakes_in_time_for_the_next_sweep(queue: object) -> None:
    worker = _worker(queue)
    assert worker.maintenance_interval == 30
    assert worker.dequeue_timeout == 30  # rq's own: 405 s


def test_the_sweep_period_comes_from_the_environment(
    queue: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CHANFUZZ_SWEEP_EVERY_S", "5")
    worker = _worker(queue)
    assert worker.maintenance_interval == 5 and worker.dequeue_timeout == 5


def test_one_worker_of_many_sweeps_per_period(
    queue: object, django_capture_on_commit_callbacks: object
) -> None:
    first, second = _dead_chunks(2, django_capture_on_commit_callbacks)
    Chunk.objects.filter(pk=second.pk).update(heartbeat_at=timezone.now())  # alive, for now
    with django_capture_on_commit_callbacks(execute=True):
        assert [c.pk for c in _worker(queue).requeue_stale_chunks()] == [first.pk]
    Chunk.objects.filter(pk=second.pk).update(heartbeat_at=timezone.now() - timedelta(hours=1))
    other = _worker(queue)
    assert other.requeue_stale_chunks() == []  # the first worker swept this period
    assert 0 < queue.connection.ttl(SWEEP_LOCK_KEY) < 30
    queue.connection.delete(SWEEP_LOCK_KEY)  # the period is over
    with django_capture_on_commit_callbacks(execute=True):
        assert [c.pk for c in other.requeue_stale_chunks()] == [second.pk]
    second.refresh_from_db()
    assert second.state == "queued" and second.rq_job_id in queue.job_ids


def test_maintenance_sweeps_after_rqs_own_clean_up(
    queue: object, django_capture_on_commit_callbacks: object
) -> None:
    (chunk,) = _dead_chunks(1, django_capture_on_commit_callbacks)
    worker = _worker(queue)
    assert worker.should_run_maintenance_tasks  # at start, as rq's work loop asks
    with django_capture_on_commit_callbacks(execute=True):
        worker.run_maintenance_tasks()
    chunk.refresh_from_db()
    assert chunk.state == "queued" and worker.last_cleaned_at is not None


def test_a_database_error_is_logged_and_the_worker_goes_on(
    queue: object, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def down(**_: object) -> list[Chunk]:
        raise OperationalError("database is locked")

    monkeypatch.setattr(chunks, "requeue_stale_chunks", down)
    worker = _worker(queue)
    assert worker.requeue_stale_chunks() == []
    assert "requeueing stale chunks failed" in caplog.text
    assert "database is locked" in caplog.text

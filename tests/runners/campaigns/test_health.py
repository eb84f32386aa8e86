"""`/healthz` and the dashboard's queue figures, against a real Redis (runners.campaigns.health).

A worker is "alive" when it is in RQ's worker registry: a real `ChanfuzzWorker` registers
its birth there (and leaves at its death) without running any job.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from django.db import connection
from django.test import override_settings

from runners.campaigns import health, queueing
from runners.campaigns.worker import ChanfuzzWorker
from runners.engine.redis_server import free_port
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
def worker(queue) -> Iterator[ChanfuzzWorker]:  # noqa: ANN001
    w = ChanfuzzWorker([queue], connection=queue.connection, name="health-test-worker")
    w.register_birth()
    yield w
    w.register_death()


def test_all_up_is_ok_with_the_worker_and_queue_figures(queue, worker) -> None:  # noqa: ANN001
    queue.enqueue("builtins.print", "waiting")
    result = health.check()
    assert result.ok
    assert result.database.ok and result.database.detail == connection.vendor
    assert result.redis.ok and result.workers.ok
    body = result.as_dict(workers=True)
    assert body["status"] == "ok"
    assert body["workers"]["count"] == 1
    assert body["workers"]["list"][0]["name"] == "health-test-worker"
    assert body["workers"]["list"][0]["queues"] == ["default"]
    assert body["queues"] == {"default": 1}
    json.dumps(body)  # what the view sends


def test_no_worker_alive_is_failing(queue) -> None:  # noqa: ANN001
    result = health.check()
    assert result.database.ok and result.redis.ok
    assert not result.workers.ok and "no RQ worker is alive" in result.workers.detail
    assert not result.ok and result.as_dict()["status"] == "failing"


def test_a_dead_worker_leaves_the_registry(queue, worker) -> None:  # noqa: ANN001
    assert health.check().ok
    worker.register_death()
    assert not health.check().workers.ok


def test_redis_down_is_failing_with_the_reason() -> None:
    with override_settings(RQ_QUEUES={"default": {"URL": f"redis://127.0.0.1:{free_port()}/0"}}):
        result = health.check()
    assert result.database.ok
    assert not result.redis.ok and "ConnectionError" in result.redis.detail
    assert not result.workers.ok and result.workers.detail == "Redis does not answer"
    assert result.figures.error


def test_database_down_is_failing(queue, worker, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: ANN001
    from django.db import OperationalError

    def refuse(*args: object, **kwargs: object) -> None:
        raise OperationalError("could not connect to server")

    monkeypatch.setattr(connection, "cursor", refuse)
    result = health.check()
    assert not result.database.ok and "could not connect" in result.database.detail
    assert result.redis.ok and result.workers.ok and not result.ok


def test_healthz_is_200_when_up_and_503_otherwise(client, queue, worker) -> None:  # noqa: ANN001
    up = client.get("/healthz")
    assert up.status_code == 200 and up["Content-Type"] == "application/json"
    assert up.json()["status"] == "ok" and up.json()["workers"]["count"] == 1
    assert "list" not in up.json()["workers"]  # names and hosts: staff only
    assert up.json()["redis"] == {"ok": True, "detail": "answers"}  # no address
    assert "no-cache" in up["Cache-Control"]
    worker.register_death()
    down = client.get("/healthz")
    assert down.status_code == 503 and down.json()["workers"]["ok"] is False


@override_settings(SECURE_SSL_REDIRECT=True)
def test_healthz_is_answered_over_plain_http(client, queue, worker) -> None:  # noqa: ANN001
    assert client.get("/healthz").status_code == 200
    assert client.get("/about/").status_code == 301  # the rest still goes to HTTPS


def test_staff_see_each_worker_in_healthz(client, queue, worker, django_user_model) -> None:  # noqa: ANN001
    staff = django_user_model.objects.create_user("ops", password="not-a-real-1", is_staff=True)
    client.force_login(staff)
    [listed] = client.get("/healthz").json()["workers"]["list"]
    assert listed["name"] == "health-test-worker" and listed["queues"] == ["default"]


def test_the_dashboard_shows_workers_and_waiting_jobs(
    client,
    queue,
    worker,
    django_user_model,  # noqa: ANN001
) -> None:
    queue.enqueue("builtins.print", "one")
    queue.enqueue("builtins.print", "two")
    page = client.get("/campaigns/").content.decode()
    assert "Workers: <strong>1</strong> alive, 0 busy." in page
    assert "health-test-worker" not in page  # names and hosts: staff only
    assert "Jobs waiting: default <strong>2</strong>" in page
    staff = django_user_model.objects.create_user("ops", password="not-a-real-1", is_staff=True)
    client.force_login(staff)
    page = client.get("/campaigns/").content.decode()
    assert "<code>health-test-worker</code> on default" in page


def test_the_dashboard_says_when_redis_does_not_answer(client) -> None:  # noqa: ANN001
    with override_settings(RQ_QUEUES={"default": {"URL": f"redis://127.0.0.1:{free_port()}/0"}}):
        page = client.get("/campaigns/")
    assert page.status_code == 200
    assert "Job queue: Redis does not answer" in page.content.decode()

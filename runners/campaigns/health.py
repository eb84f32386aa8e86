"""Is the site whole: the database, Redis and at least one RQ worker (`/healthz`, issue #20).

`check()` asks each part once, with short timeouts, and never raises: a part that does not
answer is reported with the reason. `queue_figures()` is what the campaigns dashboard shows:
jobs waiting per queue and the workers RQ's registry holds (each worker's key expires when
it stops sending heartbeats, so a killed worker drops out within its TTL).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from django.conf import settings
from django.db import connection

from runners.campaigns.queueing import QUEUE_NAME

TIMEOUT_S = 2.0


@dataclass
class Part:
    ok: bool
    detail: str = ""


@dataclass
class Worker:
    name: str
    queues: list[str]
    state: str
    host: str
    current_job: str | None


@dataclass
class QueueFigures:
    """Jobs waiting per queue and the live workers; `error` when Redis did not answer."""

    queued: dict[str, int] = field(default_factory=dict)
    workers: list[Worker] = field(default_factory=list)
    error: str = ""

    @property
    def busy(self) -> int:
        return sum(1 for w in self.workers if w.state == "busy")


@dataclass
class Health:
    database: Part
    redis: Part
    workers: Part
    figures: QueueFigures

    @property
    def ok(self) -> bool:
        return self.database.ok and self.redis.ok and self.workers.ok

    def as_dict(self, *, workers: bool = False) -> dict[str, Any]:
        """The JSON of /healthz; `workers` adds each worker's name, host, queues and job
        (staff only: host names are the deployment's business)."""
        body = {
            "status": "ok" if self.ok else "failing",
            "database": asdict(self.database),
            "redis": asdict(self.redis),
            "workers": {
                **asdict(self.workers),
                "count": len(self.figures.workers),
                "busy": self.figures.busy,
            },
            "queues": self.figures.queued,
        }
        if workers:
            body["workers"]["list"] = [asdict(w) for w in self.figures.workers]
        return body


def redis_url() -> str:
    """The Redis of the job queue (settings.RQ_QUEUES, read on each call: tests override it)."""
    return settings.RQ_QUEUES[QUEUE_NAME]["URL"]


def _redis():  # -> redis.Redis
    import redis

    return redis.Redis.from_url(
        redis_url(), socket_connect_timeout=TIMEOUT_S, socket_timeout=TIMEOUT_S
    )


def _why(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}"[:500]


def check_database() -> Part:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as exc:  # noqa: BLE001 - any failure is the answer
        return Part(False, _why(exc))
    return Part(True, connection.vendor)


def queue_figures(client=None) -> QueueFigures:  # noqa: ANN001 - a redis.Redis
    """Jobs waiting in every queue RQ knows of and the workers in RQ's registry."""
    from rq import Queue
    from rq import Worker as RqWorker

    client = client or _redis()
    try:
        queues = {q.name: q.count for q in Queue.all(connection=client)}
        for name in settings.RQ_QUEUES:  # configured, even before their first job
            queues.setdefault(name, 0)
        workers = [
            Worker(
                name=w.name,
                queues=w.queue_names(),
                state=str(getattr(w.get_state(), "value", w.get_state())),
                host=w.hostname or "",
                current_job=w.get_current_job_id(),
            )
            for w in RqWorker.all(connection=client)
        ]
    except Exception as exc:  # noqa: BLE001 - Redis down or unreachable
        return QueueFigures(error=_why(exc))
    return QueueFigures(queued=dict(sorted(queues.items())), workers=workers)


def check() -> Health:
    database = check_database()
    client = _redis()
    try:
        client.ping()
        redis = Part(True, "answers")
    except Exception as exc:  # noqa: BLE001
        redis = Part(False, _why(exc))
    figures = queue_figures(client) if redis.ok else QueueFigures(error=redis.detail)
    if not redis.ok:
        workers = Part(False, "Redis does not answer")
    elif figures.error:
        workers = Part(False, figures.error)
    elif not figures.workers:
        workers = Part(False, "no RQ worker is alive (manage.py rqworker)")
    else:
        workers = Part(True, f"{len(figures.workers)} alive")
    return Health(database=database, redis=redis, workers=workers, figures=figures)

"""Redis and RQ workers started for as long as one command needs them.

`manage.py worker_services` (scripts/run.sh) and `manage.py kotlin_report`
need a Redis and workers on a machine where nothing else runs them.
`local_workers(n)` gives both: the Redis at settings.REDIS_URL when it
answers, else a private redis-server under <var>/redis/; then `n`
`manage.py rqworker default` children with REDIS_URL set to it. Jobs this
process enqueues go to that Redis too. Everything it started is stopped on
exit, and only that.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field

from django.conf import settings

from runners.engine.redis_server import RedisServer, answers, free_port, start_redis


@dataclass
class LocalServices:
    url: str  # the Redis in use
    redis: RedisServer | None  # the one started here, if any
    env: dict[str, str]  # for more children: REDIS_URL of the Redis in use
    workers: list[subprocess.Popen[bytes]] = field(default_factory=list)


def manage_command(*args: str) -> list[str]:
    return [sys.executable, str(settings.BASE_DIR / "manage.py"), *args]


def stop_children(children: list[subprocess.Popen[bytes]], wait_s: float = 30) -> None:
    """SIGTERM (a worker's warm shutdown: the job in hand finishes first), then kill
    what outlasts `wait_s`; a killed worker's chunk is requeued once stale."""
    for child in children:
        if child.poll() is None:
            child.terminate()
    for child in children:
        try:
            child.wait(wait_s)
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()


@contextlib.contextmanager
def local_workers(count: int) -> Iterator[LocalServices]:
    """Redis (RedisUnavailable when it can be neither reached nor started) and `count`
    RQ workers on its default queue, for the duration."""
    previous = settings.RQ_QUEUES["default"].get("URL")
    services = None
    try:
        redis = None
        url = settings.REDIS_URL
        if not answers(url):
            redis = start_redis(settings.VAR_DIR / "redis", port=free_port(6379))
            url = redis.url
        settings.RQ_QUEUES["default"]["URL"] = url
        services = LocalServices(url, redis, {**os.environ, "REDIS_URL": url})
        for _ in range(count):
            services.workers.append(
                subprocess.Popen(manage_command("rqworker", "default"), env=services.env)
            )
        yield services
    finally:
        if services is not None:
            stop_children(services.workers)
            if services.redis is not None:
                services.redis.stop()
        settings.RQ_QUEUES["default"]["URL"] = previous

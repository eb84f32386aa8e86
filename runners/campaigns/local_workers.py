"""Redis and RQ workers started for as long as one command needs them.

`manage.py worker_services` (scripts/run.sh) and `manage.py kotlin_report`
need a Redis and workers on a machine where nothing else runs them.
`local_workers(n)` gives both: the Redis at settings.REDIS_URL when it
answers, else a private redis-server on port 6379 under <var>/redis/ (its
append-only file keeps the queue across a restart), or, when another private
one already holds that port and that directory, one on another port that keeps
nothing on disk; then `n`
`manage.py rqworker default` children with REDIS_URL set to it. Jobs this
process enqueues go to that Redis too. Everything it started is stopped on
exit, and only that.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from django.conf import settings

from runners.engine.redis_server import RedisServer, answers, free_port, start_redis

PREFERRED_PORT = 6379


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
            redis = _private_redis()
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
                if services.redis.data_dir != _persistent_dir():
                    shutil.rmtree(services.redis.data_dir, ignore_errors=True)
        settings.RQ_QUEUES["default"]["URL"] = previous


def _persistent_dir() -> Path:
    return settings.VAR_DIR / "redis"


def _private_redis() -> RedisServer:
    port = free_port(PREFERRED_PORT)
    if port == PREFERRED_PORT:
        return start_redis(_persistent_dir(), port=port)
    # Another command's private Redis holds the port and <var>/redis/. Started there, this
    # one would load that Redis's append-only file, so run its queued jobs a second time,
    # and both would then write to the same file.
    scratch = Path(tempfile.mkdtemp(prefix="chanfuzz-redis-"))
    return start_redis(scratch, port=port, persist=False)

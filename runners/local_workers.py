"""Redis and RQ workers started for as long as one command needs them.

`manage.py kotlin_report` queues campaigns and waits for them; on a machine
where nothing else runs (no `scripts/start_services.sh`) it needs a Redis and
workers of its own. `local_workers(n)` gives it both: the Redis at
settings.REDIS_URL when it answers, else a private redis-server under
<var>/redis/; then `n` `manage.py rqworker default` children. Everything it
started is stopped on exit, and only that.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from collections.abc import Iterator

from django.conf import settings

from runners.redis_server import RedisServer, answers, free_port, start_redis


@contextlib.contextmanager
def local_workers(count: int) -> Iterator[str]:
    """Yield the Redis URL in use, with `count` RQ workers running on its default queue."""
    redis: RedisServer | None = None
    workers: list[subprocess.Popen[bytes]] = []
    url = settings.REDIS_URL
    previous = settings.RQ_QUEUES["default"].get("URL")
    try:
        if not answers(url):
            redis = start_redis(settings.VAR_DIR / "redis", port=free_port(6379))
            url = redis.url
        # Jobs this process enqueues go to the Redis its workers listen on.
        settings.RQ_QUEUES["default"]["URL"] = url
        env = {**os.environ, "REDIS_URL": url}
        manage = [sys.executable, str(settings.BASE_DIR / "manage.py")]
        for _ in range(count):
            workers.append(subprocess.Popen([*manage, "rqworker", "default"], env=env))
        yield url
    finally:
        for worker in workers:
            if worker.poll() is None:
                # A warm shutdown: the job in hand finishes first. One that
                # outlasts the wait is killed; its chunk is requeued once stale.
                worker.terminate()
        for worker in workers:
            try:
                worker.wait(30)
            except subprocess.TimeoutExpired:
                worker.kill()
                worker.wait()
        settings.RQ_QUEUES["default"]["URL"] = previous
        if redis is not None:
            redis.stop()

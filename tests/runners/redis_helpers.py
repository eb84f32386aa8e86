"""A real redis-server for tests (runners.engine.redis_server), on a free port under tmp.

Missing redis-server fails the test under CI=true (scripts/install_toolchains.sh
installs it there) and skips it otherwise.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from runners.engine.redis_server import RedisServer, RedisUnavailable, start_redis


@contextmanager
def running_redis(data_dir: Path) -> Iterator[RedisServer]:
    try:
        server = start_redis(data_dir, persist=False)
    except RedisUnavailable as exc:
        if os.environ.get("CI") == "true":
            pytest.fail(f"{exc} (CI=true: scripts/install_toolchains.sh should have installed it)")
        pytest.skip(str(exc))
    with server:
        yield server

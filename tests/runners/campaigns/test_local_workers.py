"""local_workers' private Redis, with a real redis-server: the one on the preferred port
keeps its queue under <var>/redis/; another command's, started while the first runs,
neither loads that queue nor writes to it, and leaves nothing behind."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import redis

from runners.campaigns import local_workers as local_workers_module
from runners.campaigns.local_workers import local_workers
from runners.engine.redis_server import RedisUnavailable, free_port, redis_server_binary


@pytest.fixture(autouse=True)
def _redis_server() -> None:
    try:
        redis_server_binary()
    except RedisUnavailable as exc:
        if os.environ.get("CI") == "true":
            pytest.fail(f"{exc} (CI=true: scripts/install_toolchains.sh installs it)")
        pytest.skip(str(exc))


def test_a_second_private_redis_does_not_load_the_first_ones_queue(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, settings: object
) -> None:
    preferred = free_port()
    monkeypatch.setattr(local_workers_module, "PREFERRED_PORT", preferred)
    settings.VAR_DIR = tmp_path
    settings.REDIS_URL = f"redis://127.0.0.1:{free_port()}/0"  # nothing answers there
    with local_workers(0) as first:
        assert first.url == f"redis://127.0.0.1:{preferred}/0"
        redis.Redis.from_url(first.url).set("queued-job", "1")
        with local_workers(0) as second:
            assert second.url != first.url
            assert redis.Redis.from_url(second.url).get("queued-job") is None
            scratch = second.redis.data_dir
            assert scratch != tmp_path / "redis"
        assert not scratch.exists()
        assert redis.Redis.from_url(first.url).get("queued-job") == b"1"
    # The first one's queue is on disk for its next start.
    assert any((tmp_path / "redis" / "appendonlydir").iterdir())

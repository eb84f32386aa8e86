"""Two workers as two hosts sharing one Redis and one PostgreSQL (issue #20, item 3).

Each worker runs in a network namespace and a UTS namespace of its own (`unshare --net
--uts`, its own host name, no network but its own loopback), so it can reach the shared
services only through their unix sockets: PostgreSQL's (scripts/start_postgres.sh) and a
redis-server's. Nothing passes between the "hosts" but the database and the queue.

A Go campaign of 6 chunks runs on both. Once host A has finished a chunk and recorded part
of the next, its worker and the job's work horse are killed with SIGKILL, as if the host
died. Host B's worker finds A's chunk stale (no heartbeat for six beats) in its
periodic sweep, takes it again and completes the campaign: every program is recorded
exactly once, and what A recorded before it died is kept, not run again.

Needs root (namespaces), Go, redis-server and PostgreSQL; skipped without them, failed
under CI=true. Takes about a minute: the workers beat and sweep every few seconds
(short_periods), so A's chunk is soon stale.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
from rq.job import Job

from tests.database import drop_postgres_database
from tests.runners.campaigns import short_periods
from tests.runners.campaigns.test_jobs import _kill_tree
from tests.runners.conftest import require_toolchain
from tests.site.site_helpers import REPO, clean_env

pytestmark = pytest.mark.slow

COUNT = 120
CHUNK = 20


def _missing(why: str) -> None:
    if os.environ.get("CI") == "true":
        pytest.fail(f"{why} (CI=true: this test must run)")
    pytest.skip(why)


@pytest.fixture
def shared(tmp_path: Path) -> Iterator[dict[str, str]]:
    """A fresh PostgreSQL database and a redis-server, both on unix sockets; the env."""
    if os.geteuid() != 0 or not shutil.which("unshare"):
        _missing("network namespaces need root and unshare")
    redis_server = shutil.which("redis-server")
    if not redis_server:
        _missing("no redis-server")
    # Never a name used before: a database left by an interrupted run under a reused
    # pid would hold that run's rows.
    name = f"chanfuzz_hosts_{uuid.uuid4().hex}"
    started = subprocess.run(
        ["bash", "scripts/start_postgres.sh"],
        cwd=REPO,
        env={**os.environ, "CHANFUZZ_PG_DB": name},
        capture_output=True,
        text=True,
    )
    if started.returncode != 0:
        _missing(f"PostgreSQL did not start: {started.stderr[-500:]}")
    database_url = started.stdout.strip().removeprefix("export DATABASE_URL=")
    sock_dir = Path(f"/tmp/cf-hosts-{os.getpid()}")  # short: a socket path has ≤ 107 bytes
    sock_dir.mkdir(exist_ok=True)
    socket = sock_dir / "redis.sock"
    redis = subprocess.Popen(
        [redis_server, "--port", "0", "--unixsocket", str(socket), "--unixsocketperm", "777",
         "--dir", str(tmp_path), "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        for _ in range(100):
            if socket.exists():
                break
            time.sleep(0.05)
        env = clean_env(
            DATABASE_URL=database_url,
            REDIS_URL=f"unix://{socket}?db=0",
            CHANFUZZ_LOAD_DOCUMENTED="0",
            # Each Go program in a process of its own: a chunk of 20 is then 20 runs,
            # written as they end, so a chunk is seen half done (shared, it is one run).
            CHANFUZZ_SHARED_RUN_SIZE="1",
            **short_periods.ENV,
        )
        migrated = subprocess.run(
            [sys.executable, "manage.py", "migrate", "--noinput", "-v0"],
            cwd=REPO, env=env, capture_output=True, text=True, timeout=300,
        )  # fmt: skip
        assert migrated.returncode == 0, migrated.stderr
        yield env
    finally:
        redis.terminate()
        redis.wait(timeout=10)
        shutil.rmtree(sock_dir, ignore_errors=True)
        drop_postgres_database(database_url)


def _host(env: dict[str, str], name: str, log: Path) -> subprocess.Popen[str]:
    """`manage.py rqworker default` in a namespace of its own called `name`, its output in
    `log` (a pipe that nobody reads while the test waits fills up and blocks the worker)."""
    script = f'ip link set lo up; hostname {name}; exec "$@"'
    with log.open("w") as out:
        return subprocess.Popen(
            ["unshare", "--net", "--uts", "sh", "-c", script, "sh",
             sys.executable, "manage.py", "rqworker", "default", "--name", name],
            cwd=REPO, env=env, stdout=out, stderr=subprocess.STDOUT, text=True,
            start_new_session=True,
        )  # fmt: skip


def _rows(env: dict[str, str], sql: str) -> list[tuple]:
    import psycopg

    with psycopg.connect(env["DATABASE_URL"].replace("postgres://", "postgresql://")) as conn:
        return conn.execute(sql).fetchall()


def _finished_by(env: dict[str, str]) -> dict[str, int]:
    """Chunk jobs finished per worker name (RQ's finished-job registry)."""
    from rq.registry import FinishedJobRegistry

    connection = redis.Redis.from_url(env["REDIS_URL"])
    ids = FinishedJobRegistry("default", connection=connection).get_job_ids()
    counts: dict[str, int] = {}
    for job in Job.fetch_many(ids, connection=connection):
        if job is not None:
            counts[job.worker_name] = counts.get(job.worker_name, 0) + 1
    return counts


def test_two_hosts_share_a_campaign_and_a_killed_one_loses_nothing(  # noqa: ANN001
    shared, tmp_path: Path
) -> None:
    go = require_toolchain("go")
    created = subprocess.run(
        [sys.executable, "manage.py", "campaign", "create", "--target", f"go:{go.id}",
         "--count", str(COUNT), "--chunk-size", str(CHUNK), "--timeout", "30",
         "--repetitions", "3000", "--seed", "9100"],
        cwd=REPO, env=shared, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert created.returncode == 0, created.stderr
    logs = {name: tmp_path / f"{name}.log" for name in ("host-a", "host-b")}
    host_a, host_b = (_host(shared, name, log) for name, log in logs.items())
    try:
        # Wait until A has finished a chunk and recorded part of its next one.
        deadline = time.monotonic() + 600
        kept: list[tuple] = []
        while time.monotonic() < deadline:
            assert host_a.poll() is None and host_b.poll() is None
            if _finished_by(shared).get("host-a"):
                running = _rows(
                    shared,
                    "SELECT c.id, c.start, c.rq_job_id FROM runners_chunk c "
                    "WHERE c.state = 'running'",
                )
                for _chunk_id, start, job_id in running:
                    job = Job.fetch(job_id, connection=redis.Redis.from_url(shared["REDIS_URL"]))
                    done = _rows(
                        shared,
                        f'SELECT "index", id FROM runners_execution WHERE "index" >= {start} '
                        f'AND "index" < {start + CHUNK}',
                    )
                    if job.worker_name == "host-a" and 1 <= len(done) < CHUNK - 2:
                        kept = done
                        break
                if kept:
                    break
            time.sleep(0.1)
        assert kept, "host A never had a chunk half done"
        _kill_tree(host_a.pid)
        host_a.wait()
        killed_at = time.monotonic()

        # B sweeps A's chunk back onto the queue once its heartbeat is stale, and ends it.
        deadline = (
            time.monotonic() + short_periods.STALE_AFTER_S + short_periods.SWEEP_EVERY_S + 600
        )
        while time.monotonic() < deadline:
            [(status,)] = _rows(shared, "SELECT status FROM runners_campaign")
            if status == "done":
                break
            assert host_b.poll() is None, logs["host-b"].read_text()[-3000:]
            time.sleep(1)
        recovered_s = time.monotonic() - killed_at
        assert status == "done", _rows(shared, "SELECT state, attempts FROM runners_chunk")
    finally:
        for host in (host_a, host_b):
            if host.poll() is None:
                _kill_tree(host.pid)
                host.wait()

    rows = _rows(shared, 'SELECT "index", COUNT(*) FROM runners_execution GROUP BY "index"')
    assert sorted(rows) == [(i, 1) for i in range(COUNT)]
    again = dict(_rows(shared, 'SELECT "index", id FROM runners_execution'))
    assert all(again[index] == row_id for index, row_id in kept)
    chunks = _rows(shared, "SELECT state, attempts FROM runners_chunk ORDER BY start")
    assert [state for state, _ in chunks] == ["done"] * (COUNT // CHUNK)
    assert sorted(attempts for _, attempts in chunks) == [1] * (COUNT // CHUNK - 1) + [2]
    finished = _finished_by(shared)
    assert finished.get("host-a", 0) >= 1 and finished.get("host-b", 0) >= 1, finished
    assert sum(finished.values()) == COUNT // CHUNK
    print(f"\nfinished chunks per host: {finished}; recovered {recovered_s:.0f} s after kill -9")

"""A Redis restart and a PostgreSQL restart mid-campaign (issue #20, item 3).

A private PostgreSQL (scripts/start_postgres.sh in a directory of its own) and a private
redis-server with its append-only file, both on unix sockets; two `rqworker default`
processes, restarted when they exit as systemd's `Restart=always` or compose's
`restart: unless-stopped` would. A Go campaign of 12 chunks runs; once a chunk is done and
the next is part way (most chunks still to run), Redis (or PostgreSQL) is stopped for a few
seconds and started again on the same data. The campaign must end done with every program
recorded exactly once.

Needs Go, redis-server and PostgreSQL; skipped without them, failed under CI=true. A few
minutes each (a chunk whose job was lost waits out the stale-chunk period, seconds with
short_periods).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from runners.engine.redis_server import free_port
from tests.runners.campaigns import short_periods
from tests.runners.campaigns.test_jobs import _kill_tree
from tests.runners.conftest import require_toolchain
from tests.site.site_helpers import REPO, clean_env

pytestmark = pytest.mark.slow

COUNT = 240  # 12 chunks: most of the work is left when the service restarts
CHUNK = 20


def _missing(why: str) -> None:
    if os.environ.get("CI") == "true":
        pytest.fail(f"{why} (CI=true: this test must run)")
    pytest.skip(why)


@dataclass
class Services:
    root: Path
    pg_env: dict[str, str]
    env: dict[str, str] = field(default_factory=dict)
    redis: subprocess.Popen[bytes] | None = None
    workers: list[subprocess.Popen[str]] = field(default_factory=list)
    restarts: int = 0
    logs: list[str] = field(default_factory=list)

    @property
    def socket(self) -> Path:
        return self.root / "redis.sock"

    def start_redis(self) -> None:
        self.redis = subprocess.Popen(
            [shutil.which("redis-server") or "redis-server", "--port", "0",
             "--unixsocket", str(self.socket), "--unixsocketperm", "700", "--dir",
             str(self.root), "--appendonly", "yes", "--appendfsync", "everysec", "--save", ""],
            stdout=subprocess.DEVNULL,
        )  # fmt: skip
        for _ in range(200):
            if self.socket.exists():
                return
            time.sleep(0.05)
        raise AssertionError("redis-server did not start")

    def stop_redis(self) -> None:
        assert self.redis is not None
        self.redis.terminate()  # SIGTERM: the AOF is written out
        self.redis.wait(timeout=30)
        self.socket.unlink(missing_ok=True)

    def postgres(self, *args: str) -> str:
        result = subprocess.run(
            ["bash", "scripts/start_postgres.sh", *args],
            cwd=REPO, env=self.pg_env, capture_output=True, text=True, timeout=120,
        )  # fmt: skip
        assert result.returncode == 0, result.stderr
        return result.stdout.strip().removeprefix("export DATABASE_URL=")

    def worker_log(self, worker: subprocess.Popen[str]) -> Path:
        return self.root / f"worker-{worker.pid}.log"

    def start_worker(self) -> None:
        # Its output goes to a file: a pipe that nobody reads while the test waits fills
        # up (64 KiB of log lines) and blocks the worker in the middle of a job.
        log = self.root / "worker-starting.log"
        with log.open("w") as out:
            worker = subprocess.Popen(
                [sys.executable, "manage.py", "rqworker", "default"],
                cwd=REPO, env=self.env, stdout=out, stderr=subprocess.STDOUT, text=True,
                start_new_session=True,
            )  # fmt: skip
        log.rename(self.worker_log(worker))
        self.workers.append(worker)

    def supervise(self) -> None:
        """Start again every worker that exited (a supervisor's `Restart=always`)."""
        for i, worker in enumerate(self.workers):
            if worker.poll() is not None:
                self.logs.append(self.worker_log(worker).read_text()[-2000:])
                self.restarts += 1
                self.workers.pop(i)
                self.start_worker()
                return

    def rows(self, sql: str) -> list[tuple]:
        import psycopg

        url = self.env["DATABASE_URL"].replace("postgres://", "postgresql://")
        with psycopg.connect(url, connect_timeout=5) as conn:
            return conn.execute(sql).fetchall()


@pytest.fixture
def services() -> Iterator[Services]:
    if not shutil.which("redis-server"):
        _missing("no redis-server")
    root = Path(f"/tmp/cf-restart-{os.getpid()}")  # short: socket paths have ≤ 107 bytes
    shutil.rmtree(root, ignore_errors=True)
    root.mkdir()
    pg_env = {**os.environ, "CHANFUZZ_PG_DIR": str(root / "pg"),
              "CHANFUZZ_PG_PORT": str(free_port())}  # fmt: skip
    s = Services(root=root, pg_env=pg_env)
    probe = subprocess.run(["bash", "scripts/start_postgres.sh"], cwd=REPO, env=pg_env,
                           capture_output=True, text=True)  # fmt: skip
    if probe.returncode != 0:
        shutil.rmtree(root, ignore_errors=True)
        _missing(f"PostgreSQL did not start: {probe.stderr[-500:]}")
    database_url = probe.stdout.strip().removeprefix("export DATABASE_URL=")
    s.start_redis()
    s.env = clean_env(
        DATABASE_URL=database_url,
        REDIS_URL=f"unix://{s.socket}?db=0",
        CHANFUZZ_LOAD_DOCUMENTED="0",
        # Each Go program in a process of its own: a chunk of 20 is then 20 runs, written
        # as they end, so a chunk is seen half done (shared, it is one run).
        CHANFUZZ_SHARED_RUN_SIZE="1",
        **short_periods.ENV,
    )
    try:
        migrated = subprocess.run(
            [sys.executable, "manage.py", "migrate", "--noinput", "-v0"],
            cwd=REPO, env=s.env, capture_output=True, text=True, timeout=300,
        )  # fmt: skip
        assert migrated.returncode == 0, migrated.stderr
        yield s
    finally:
        for worker in s.workers:
            if worker.poll() is None:
                _kill_tree(worker.pid)
                worker.wait()
        if s.redis is not None and s.redis.poll() is None:
            s.stop_redis()
        s.postgres("--wipe")
        shutil.rmtree(root, ignore_errors=True)


@pytest.mark.parametrize("service", ["redis", "postgres"])
def test_a_service_restart_mid_campaign_loses_and_doubles_nothing(
    services: Services, service: str
) -> None:
    go = require_toolchain("go")
    created = subprocess.run(
        [sys.executable, "manage.py", "campaign", "create", "--target", f"go:{go.id}",
         "--count", str(COUNT), "--chunk-size", str(CHUNK), "--timeout", "30",
         "--repetitions", "3000", "--seed", "9300"],
        cwd=REPO, env=services.env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert created.returncode == 0, created.stderr
    services.start_worker()
    services.start_worker()

    # Clean verdicts are written at most every CHECK_EVERY_S (0.5 s): a chunk of programs
    # of 300 repetitions could end within one write, so the count only ever moved by
    # whole chunks; 3,000 repetitions make a chunk last several writes.
    deadline = time.monotonic() + 600
    while time.monotonic() < deadline:
        done = services.rows("SELECT COUNT(*) FROM runners_chunk WHERE state = 'done'")[0][0]
        recorded = services.rows("SELECT COUNT(*) FROM runners_execution")[0][0]
        if done >= 1 and recorded % CHUNK >= 3:
            break
        time.sleep(0.1)
    else:
        pytest.fail("no chunk was part way in time")

    left = COUNT - services.rows("SELECT COUNT(*) FROM runners_execution")[0][0]
    assert left > COUNT // 2, "the restart must come with most of the campaign to run"
    if service == "redis":
        services.stop_redis()
        time.sleep(3)
        services.start_redis()
    else:
        services.postgres("--stop")
        time.sleep(3)
        services.postgres()
    restarted_at = time.monotonic()

    deadline = time.monotonic() + short_periods.STALE_AFTER_S + short_periods.SWEEP_EVERY_S + 900
    status = ""
    while time.monotonic() < deadline:
        services.supervise()
        try:
            [(status,)] = services.rows("SELECT status FROM runners_campaign")
        except Exception:  # noqa: BLE001 - PostgreSQL still starting
            status = ""
        if status == "done":
            break
        time.sleep(1)
    took = time.monotonic() - restarted_at
    assert status == "done", (
        services.rows("SELECT start, state, attempts, last_error FROM runners_chunk"),
        services.logs,
    )
    rows = services.rows('SELECT "index", COUNT(*) FROM runners_execution GROUP BY "index"')
    assert sorted(rows) == [(i, 1) for i in range(COUNT)]
    chunks = services.rows("SELECT state FROM runners_chunk")
    assert [state for (state,) in chunks] == ["done"] * (COUNT // CHUNK)
    print(f"\n{service} restarted with {left} of {COUNT} programs to run: campaign done "
          f"{took:.0f} s later; worker restarts {services.restarts}")  # fmt: skip

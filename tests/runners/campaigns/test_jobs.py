"""Campaigns through real RQ workers: `manage.py rqworker` subprocesses, a real
redis-server, a file SQLite database shared by every process, real toolchains.

Everything that writes runs in child processes (the CLI and the workers), as
it does in production; the test reads the database file afterwards.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from runners.campaigns.programs import build_from_effect
from tests.runners.conftest import require_toolchain
from tests.runners.redis_helpers import running_redis
from tests.site.site_helpers import REPO, clean_env

pytestmark = pytest.mark.slow


@dataclass
class Site:
    db: Path
    env: dict[str, str]

    def manage(self, *args: str, timeout: float = 600) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=REPO, env=self.env, capture_output=True, text=True, timeout=timeout,
        )  # fmt: skip

    def worker(self) -> subprocess.Popen[str]:
        return subprocess.Popen(
            [sys.executable, "manage.py", "rqworker", "default", "--burst"],
            cwd=REPO, env=self.env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        )  # fmt: skip

    def show(self, campaign_id: int) -> dict:
        result = self.manage("campaign", "show", str(campaign_id), "--json")
        assert result.returncode == 0, result.stderr
        return json.loads(result.stdout)

    def query(self, sql: str, *params: object) -> list[tuple]:
        with sqlite3.connect(self.db) as conn:
            return conn.execute(sql, params).fetchall()


@pytest.fixture
def site(tmp_path: Path) -> Iterator[Site]:
    with running_redis(tmp_path / "redis") as redis:
        db = tmp_path / "db.sqlite3"
        # An empty database (no documented programs): the tests count rows.
        env = clean_env(
            DATABASE_URL=f"sqlite:///{db}", REDIS_URL=redis.url, CHANFUZZ_LOAD_DOCUMENTED="0"
        )
        s = Site(db, env)
        migrated = s.manage("migrate", "--noinput", "-v0")
        assert migrated.returncode == 0, migrated.stderr
        yield s


def _descendants(pid: int) -> list[int]:
    """Processes below `pid` (from /proc), children first found first."""
    children: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append(int(stat.parent.name))
    found, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def _kill_tree(pid: int) -> None:
    """SIGKILL a worker and everything below it, as if its host died.

    Killing the worker's process group is not enough: RQ's work horse (the
    forked child running the job) calls setsid() and would finish the job.
    """
    for victim in [pid, *_descendants(pid)]:
        with contextlib.suppress(ProcessLookupError):
            os.kill(victim, signal.SIGKILL)


def _create(site: Site, *args: str) -> int:
    created = site.manage("campaign", "create", *args)
    assert created.returncode == 0, created.stderr
    return int(created.stdout.split()[1])


def test_campaign_of_go_programs_runs_to_completion_through_a_worker(site: Site) -> None:
    go = require_toolchain("go")
    cid = _create(
        site, "--target", f"go:{go.id}", "--count", "60", "--chunk-size", "20",
        "--timeout", "20", "--repetitions", "5", "--seed", "1000",
    )  # fmt: skip
    worker = site.worker()
    out, _ = worker.communicate(timeout=900)
    assert worker.returncode == 0, out
    data = site.show(cid)
    assert data["status"] == "done", data
    target = data["targets"][0]
    assert (target["done"], target["total"]) == (60, 60)
    assert target["chunks"] == {"done": 3}
    # Generated programs terminate by construction, and Go has no known bug here.
    assert set(target["outcomes"]) <= {"terminated", "skipped"}, target["outcomes"]
    indices = site.query('SELECT "index" FROM runners_execution ORDER BY "index"')
    assert [i for (i,) in indices] == list(range(60))
    programs = site.query("SELECT COUNT(DISTINCT program_id) FROM runners_execution")[0][0]
    assert programs == site.query("SELECT COUNT(*) FROM runners_program")[0][0] > 1


def test_a_worker_killed_mid_chunk_loses_no_execution(site: Site) -> None:
    go = require_toolchain("go")
    count = 40
    # One chunk, slow enough programs (repetitions) to be killed half-way: Go programs
    # share runs (25 a process), so a chunk of 40 is two runs, written after each.
    cid = _create(
        site, "--target", f"go:{go.id}", "--count", str(count), "--chunk-size", str(count),
        "--timeout", "60", "--repetitions", "20000", "--seed", "7000",
    )  # fmt: skip
    worker = site.worker()
    deadline = time.monotonic() + 600
    recorded = 0
    while time.monotonic() < deadline and worker.poll() is None:
        recorded = site.query("SELECT COUNT(*) FROM runners_execution")[0][0]
        if recorded >= 3:
            break
        time.sleep(0.05)
    assert worker.poll() is None, "the worker finished before it could be killed"
    _kill_tree(worker.pid)
    worker.wait()
    kept = site.query('SELECT "index", id FROM runners_execution')
    assert 3 <= len(kept) < count, "kill the worker mid-chunk"
    assert site.query("SELECT state FROM runners_chunk") == [("running",)]

    requeued = site.manage("campaign", "requeue", "--older-than", "0")
    assert requeued.returncode == 0 and "requeued 1 chunk" in requeued.stdout, requeued
    second = site.worker()
    out, _ = second.communicate(timeout=900)
    assert second.returncode == 0, out

    rows = site.query('SELECT "index", COUNT(*) FROM runners_execution GROUP BY "index"')
    assert sorted(rows) == [(i, 1) for i in range(count)]
    # What the killed worker recorded was kept as it was, not run again.
    again = dict(site.query('SELECT "index", id FROM runners_execution'))
    assert all(again[index] == row_id for index, row_id in kept)
    assert site.query("SELECT state, attempts FROM runners_chunk") == [("done", 2)], (
        site.query("SELECT last_error, rq_job_id FROM runners_chunk"),
        site.query("SELECT status FROM runners_campaign"),
        out[-3000:],
    )
    assert site.show(cid)["status"] == "done"


def test_a_plain_worker_requeues_the_chunk_of_a_dead_worker(site: Site) -> None:
    """No `campaign requeue`, no worker_services: the next `rqworker` finds the chunk
    whose worker died (its job gone, its heartbeat old) and runs it to the end."""
    import redis

    go = require_toolchain("go")
    cid = _create(
        site, "--target", f"go:{go.id}", "--count", "6", "--timeout", "20",
        "--repetitions", "5", "--seed", "4000",
    )  # fmt: skip
    # The worker that took the chunk died with it: its job is gone from Redis,
    # and the chunk was left running with a heartbeat long past.
    redis.Redis.from_url(site.env["REDIS_URL"]).flushdb()
    site.query(
        "UPDATE runners_chunk SET state = 'running', rq_job_id = 'gone', attempts = 1, "
        "started_at = '2000-01-01 00:00:00', heartbeat_at = '2000-01-01 00:00:00'"
    )
    worker = site.worker()
    out, _ = worker.communicate(timeout=600)
    assert worker.returncode == 0, out
    assert "requeued 1 stale chunk" in out, out
    assert site.query("SELECT state, attempts FROM runners_chunk") == [("done", 2)]
    assert site.show(cid)["status"] == "done"


def test_deadlocking_programs_on_crystal_give_one_finding(site: Site) -> None:
    crystal = require_toolchain("crystal")
    effects = [
        "Spawn(Get(c2)) ; Get(c1)",  # main and the spawned process both wait forever
        "Spawn(Put(c1)) ; Get(c1)",  # terminates
        "Get(c1)",  # the shortest hang
    ]
    args = [arg for effect in effects for arg in ("--effect", effect)]
    cid = _create(
        site, "--target", f"crystal:{crystal.id}", *args, "--timeout", "2", "--retries", "1",
        "--repetitions", "1", "--seed", "40", "--chunk-size", "2", "--runs", "2",
    )  # fmt: skip
    worker = site.worker()
    out, _ = worker.communicate(timeout=600)
    assert worker.returncode == 0, out
    data = site.show(cid)
    assert data["status"] == "done"
    assert data["targets"][0]["outcomes"] == {"timeout": 2, "terminated": 1}
    [finding] = data["findings"]
    assert finding["outcome"] == "timeout" and finding["signature"] == "crystal | hang"
    assert (finding["in_campaign"], finding["programs"]) == (2, 2)
    # The permalink of the example: the shortest program, by its content-derived id.
    shortest = build_from_effect("Get(c1)", 42)
    assert finding["example"] == shortest.id
    [(effect_text, confirmed)] = site.query(
        "SELECT p.effect_text, e.hang_confirmed FROM runners_execution e "
        "JOIN runners_program p ON p.id = e.program_id WHERE p.id = ?",
        shortest.id,
    )
    assert effect_text == "Get(c1)" and confirmed == 1
    # The program that ends ran twice (--runs 2); a hang is a verdict at its first run.
    assert site.query("SELECT outcome, runs FROM runners_execution ORDER BY \"index\"") == [
        ("timeout", 1), ("terminated", 2), ("timeout", 1),
    ]  # fmt: skip

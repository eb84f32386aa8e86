"""The README's first command, `scripts/run.sh`, as a user runs it: set-up, a private
Redis, a worker, the web server and a demo campaign that finishes; then Ctrl-C (SIGINT
to the whole foreground group, as a terminal sends it), or one of its children dying,
stops everything it started and leaves no process behind.

Real processes throughout, on a database, var dir and Redis of the test's own; the
toolchains are the checkout's (scripts/setup.sh, which run.sh calls, only re-checks them).
"""

from __future__ import annotations

import http.client
import os
import re
import signal
import sqlite3
import subprocess
import time
import uuid
from collections.abc import Iterator
from contextlib import closing, contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path

import pytest

from runners.campaigns.models import Campaign, Execution
from runners.engine.redis_server import answers, free_port
from tests.site.site_helpers import REPO, clean_env

pytestmark = pytest.mark.slow

DEMO_PROGRAMS = 5


@dataclass
class Started:
    process: subprocess.Popen[bytes]
    log: Path
    env: dict[str, str]
    port: int
    marker: str  # an environment variable every child inherits: how survivors are found

    def text(self) -> str:
        return self.log.read_text(errors="replace")

    @property
    def database(self) -> str:
        return self.env["DATABASE_URL"].removeprefix("sqlite:///")


def _processes_with(marker: str) -> list[int]:
    """The live processes whose environment holds `marker` (zombies have none)."""
    found = []
    needle = marker.encode()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            if needle in (entry / "environ").read_bytes():
                found.append(int(entry.name))
        except OSError:  # gone meanwhile, or not ours to read
            continue
    return found


def _http_get(port: int, path: str) -> tuple[int, str]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        return response.status, response.read().decode(errors="replace")
    finally:
        connection.close()


def _wait(what: str, started: Started, condition, timeout_s: float) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if condition():
            return
        if started.process.poll() is not None:
            pytest.fail(
                f"run.sh exited ({started.process.returncode}) before {what}:\n{started.text()}"
            )
        time.sleep(0.5)
    pytest.fail(f"no {what} within {timeout_s} s:\n{started.text()}")


def _own_env(tmp_path: Path) -> tuple[dict[str, str], str]:
    """An environment with the test's own database, var dir and Redis, and the marker
    every child inherits."""
    tmp_path.chmod(0o755)  # the sandbox's user reads programs built under it
    marker = f"CHANFUZZ_TEST_RUN_SH={uuid.uuid4().hex}"
    name, value = marker.split("=")
    env = clean_env(
        DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}",
        CHANFUZZ_VAR_DIR=str(tmp_path / "var"),
        # Nothing answers there, so it starts a Redis of its own under the var dir.
        REDIS_URL=f"redis://127.0.0.1:{free_port()}/0",
        CHANFUZZ_TOOLCHAINS_DIR=str(REPO / "var" / "toolchains"),
        CHANFUZZ_CACHE_DIR=str(REPO / "var" / "cache"),
        **{name: value},
    )
    return env, marker


@contextmanager
def _run_sh(tmp_path: Path) -> Iterator[Started]:
    port = free_port()
    argv = ["scripts/run.sh", "--demo", str(DEMO_PROGRAMS), "--addr", f"127.0.0.1:{port}"]
    with _started(tmp_path, argv, port) as started:
        yield started


@contextmanager
def _started(tmp_path: Path, argv: list[str], port: int = 0, **popen) -> Iterator[Started]:
    """`argv` run from the checkout in a group of its own (as a terminal's foreground job),
    on the test's own environment; whatever it started is killed at the end."""
    env, marker = _own_env(tmp_path)
    log = tmp_path / "run.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            argv, cwd=REPO, env=env, stdout=out, stderr=subprocess.STDOUT,
            start_new_session=True, **popen,
        )  # fmt: skip
    started = Started(process, log, env, port, marker)
    try:
        yield started
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        for pid in _processes_with(marker):  # a failed test leaves nothing running
            with suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


def _demo(started: Started) -> tuple[str, int]:
    """The demo campaign's status ("" before it exists) and its executions, read from
    the site's SQLite file (a `manage.py shell` a poll would cost a Django start-up)."""
    campaigns, executions = Campaign._meta.db_table, Execution._meta.db_table
    campaign_id = Execution._meta.get_field("campaign").column
    with closing(sqlite3.connect(started.database, timeout=10)) as db:
        row = db.execute(f"SELECT id, status FROM {campaigns} WHERE name = 'demo'").fetchone()
        if row is None:
            return "", 0
        (count,) = db.execute(
            f"SELECT COUNT(*) FROM {executions} WHERE {campaign_id} = ?",
            (row[0],),
        ).fetchone()
    return row[1], count


def _serving(started: Started) -> bool:
    try:
        return _http_get(started.port, "/campaigns/")[0] == 200
    except OSError:
        return False


def _redis_url(started: Started) -> str:
    found = re.search(r"redis\s+(redis://\S+) \(started", started.text())
    assert found, started.text()
    return found.group(1)


def test_run_sh_finishes_its_demo_campaign_and_ctrl_c_stops_everything(
    tmp_path: Path,
) -> None:
    with _run_sh(tmp_path) as started:
        _wait("web server", started, lambda: _serving(started), timeout_s=180)
        _wait("finished demo campaign", started, lambda: _demo(started)[0] == "done", timeout_s=300)
        status, page = _http_get(started.port, "/campaigns/")
        assert status == 200 and "demo" in page
        redis_url = _redis_url(started)
        assert answers(redis_url)
        assert _demo(started)[1] >= DEMO_PROGRAMS

        os.killpg(started.process.pid, signal.SIGINT)  # Ctrl-C
        # 130: the shell's status for a script ended by SIGINT, what a terminal shows.
        assert started.process.wait(timeout=60) in (0, 130), started.text()
        assert "stopping" in started.text()
        assert _processes_with(started.marker) == []
        assert not _serving(started)
        assert not answers(redis_url)


def test_run_sh_stops_everything_when_its_web_server_dies(tmp_path: Path) -> None:
    with _run_sh(tmp_path) as started:
        _wait("web server", started, lambda: _serving(started), timeout_s=180)
        redis_url = _redis_url(started)
        servers = [
            pid for pid in _processes_with(started.marker)
            if b"runserver" in Path(f"/proc/{pid}/cmdline").read_bytes()
        ]  # fmt: skip
        assert len(servers) == 1
        os.kill(servers[0], signal.SIGKILL)
        assert started.process.wait(timeout=60) != 0
        assert "runserver" in started.text() and "exited with" in started.text()
        assert _processes_with(started.marker) == []
        assert not answers(redis_url)


def test_worker_services_started_in_the_background_stops_on_sigint(tmp_path: Path) -> None:
    # A script's background job (scripts/start_services.sh) inherits SIGINT ignored, while
    # the RQ workers it starts handle it: a Ctrl-C to the group stopped a worker first, and
    # the services took that for a worker dying (exit 1), unless the script's SIGTERM
    # came before they looked. SIGINT alone, to it alone, must stop everything.
    argv = ["sh", "-c", ".venv/bin/python manage.py migrate -v 0 && exec .venv/bin/python "
            "manage.py worker_services --no-web --workers 1"]
    ignoring = {"preexec_fn": lambda: signal.signal(signal.SIGINT, signal.SIG_IGN)}
    with _started(tmp_path, argv, **ignoring) as started:
        _wait("services running", started, lambda: "running;" in started.text(), 120)
        os.kill(started.process.pid, signal.SIGINT)
        assert started.process.wait(timeout=60) == 0, started.text()
        assert "stopping" in started.text()
        assert _processes_with(started.marker) == []

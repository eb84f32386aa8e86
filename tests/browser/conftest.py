"""Browser tests: the whole site as in production, driven by Playwright in Debian's chromium.

One stack per test session, all real and all child processes: a redis-server,
a file SQLite database, `manage.py runserver` and one `manage.py rqworker`.
Tests drive it through `page` (pytest-playwright) and find it at `stack.url`.
Screenshots go to `var/test-artifacts/screenshots/` (`screenshot(page, name)`).

Chromium comes from Debian (`scripts/install_browser.sh`), never from
Playwright's own download, which cannot reach its host here.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from runners.engine.redis_server import free_port
from tests.runners.redis_helpers import running_redis
from tests.site.site_helpers import REPO, clean_env

pytestmark = pytest.mark.slow

CHROMIUM = os.environ.get("CHANFUZZ_CHROMIUM", "/usr/bin/chromium")
ARTIFACTS = REPO / "var" / "test-artifacts" / "screenshots"


@dataclass
class Stack:
    url: str
    env: dict[str, str]

    def manage(self, *args: str, timeout: float = 600) -> subprocess.CompletedProcess[str]:
        """Run a management command against the stack's database and Redis."""
        return subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=REPO,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=timeout,
        )


def _wait_for_http(url: str, process: subprocess.Popen, timeout_s: float = 60) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if process.poll() is not None:
            output = process.stdout.read() if process.stdout else ""
            raise RuntimeError(f"server exited early: {output}")
        try:
            with urllib.request.urlopen(url, timeout=2):
                return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"{url} did not answer within {timeout_s} s")


@pytest.fixture(scope="session")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    if not Path(CHROMIUM).exists():
        message = f"no chromium at {CHROMIUM}: run scripts/install_browser.sh"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    base = tmp_path_factory.mktemp("stack")
    base.chmod(0o755)
    with running_redis(base / "redis") as redis:
        port = free_port()
        env = clean_env(
            DATABASE_URL=f"sqlite:///{base / 'db.sqlite3'}",
            REDIS_URL=redis.url,
            CHANFUZZ_VAR_DIR=str(base / "var"),
            CHANFUZZ_TOOLCHAINS_DIR=str(REPO / "var" / "toolchains"),
            CHANFUZZ_CACHE_DIR=str(REPO / "var" / "cache"),
        )
        done = subprocess.run(
            [sys.executable, "manage.py", "migrate", "--noinput"],
            cwd=REPO,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert done.returncode == 0, done.stderr
        children = [
            subprocess.Popen(
                [sys.executable, "manage.py", "runserver", "--noreload", f"127.0.0.1:{port}"],
                cwd=REPO,
                env=env,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                text=True,
            ),
            subprocess.Popen(
                [sys.executable, "manage.py", "rqworker", "default"],
                cwd=REPO,
                env=env,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            ),
        ]
        try:
            url = f"http://127.0.0.1:{port}"
            _wait_for_http(url + "/", children[0])
            yield Stack(url, env)
        finally:
            for child in children:
                child.terminate()
            for child in children:
                try:
                    child.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    child.kill()


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict) -> dict:
    """Debian's chromium, headless, with nothing that reaches for the network."""
    return {
        **browser_type_launch_args,
        "executable_path": CHROMIUM,
        "headless": True,
        "args": [
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
        ],
    }


def screenshot(page, name: str) -> Path:  # noqa: ANN001 - a playwright Page
    """Save a full-page screenshot as a test artifact; returns its path."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "tests/browser" in str(item.fspath):
            item.add_marker(pytest.mark.slow)

"""The whole site as it runs for real, for the browser and security suites: a
redis-server, a file SQLite database, `manage.py runserver` and, when asked, one
`manage.py rqworker`, all child processes with the production settings (debug off)
on plain HTTP unless the caller's environment says otherwise.
"""

from __future__ import annotations

import http.client
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from runners.engine.redis_server import free_port
from tests.runners.redis_helpers import running_redis
from tests.site.site_helpers import REPO, clean_env


@dataclass
class LiveSite:
    url: str
    env: dict[str, str]
    redis_url: str

    def manage(self, *args: str, timeout: float = 600) -> subprocess.CompletedProcess[str]:
        """Run a management command against the site's database and Redis."""
        return subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=REPO,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=timeout,
        )

    def make_user(self, username: str, password: str, *, staff: bool = False) -> None:
        """An account on the site (made once; a second call changes nothing)."""
        made = self.manage(
            "shell", "--no-imports", "-c",
            "from django.contrib.auth.models import User\n"
            f"if not User.objects.filter(username={username!r}).exists():\n"
            f"    User.objects.create_user({username!r}, password={password!r}, is_staff={staff})",
        )  # fmt: skip
        assert made.returncode == 0, made.stderr


def _wait_for_http(
    host: str, port: int, process: subprocess.Popen, log: Path, timeout_s: float = 60
) -> None:
    """Until the server answers anything at all (a redirect to HTTPS is an answer too)."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"server exited early: {log.read_text(errors='replace')}")
        connection = http.client.HTTPConnection(host, port, timeout=2)
        try:
            connection.request("GET", "/about/")
            connection.getresponse()
            return
        except OSError:
            time.sleep(0.2)
        finally:
            connection.close()
    raise RuntimeError(f"{host}:{port} did not answer within {timeout_s} s")


@contextmanager
def live_site(base: Path, *, worker: bool = True, **env: str) -> Iterator[LiveSite]:
    """Start the site under `base` (its database, var dir and Redis); `env` adds to or
    overrides its environment (the default: production settings on plain HTTP)."""
    base.chmod(0o755)  # the sandbox's user reads programs built under it
    with running_redis(base / "redis") as redis:
        port = free_port()
        defaults = {
            "DATABASE_URL": f"sqlite:///{base / 'db.sqlite3'}",
            "REDIS_URL": redis.url,
            "CHANFUZZ_VAR_DIR": str(base / "var"),
            "DJANGO_HTTPS": "false",
            "CHANFUZZ_TOOLCHAINS_DIR": str(REPO / "var" / "toolchains"),
            "CHANFUZZ_CACHE_DIR": str(REPO / "var" / "cache"),
        }
        site_env = clean_env(**{**defaults, **env})
        done = subprocess.run(
            [sys.executable, "manage.py", "migrate", "--noinput"],
            cwd=REPO, env=site_env, capture_output=True, text=True, timeout=300,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        # The server logs every request: into a file, because a pipe nobody reads fills
        # up after a few hundred requests and then blocks the server mid-response.
        server_log = base / "runserver.log"
        with server_log.open("w") as log_file:
            server = subprocess.Popen(
                [sys.executable, "manage.py", "runserver", "--noreload", f"127.0.0.1:{port}"],
                cwd=REPO, env=site_env, stdout=log_file, stderr=subprocess.STDOUT,
            )  # fmt: skip
        children = [server]
        if worker:
            children.append(
                subprocess.Popen(
                    [sys.executable, "manage.py", "rqworker", "default"],
                    cwd=REPO,
                    env=site_env,
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                )  # fmt: skip
            )
        try:
            url = f"http://127.0.0.1:{port}"
            _wait_for_http("127.0.0.1", port, server, server_log)
            yield LiveSite(url, site_env, redis.url)
        finally:
            for child in children:
                child.terminate()
            for child in children:
                try:
                    child.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    child.kill()

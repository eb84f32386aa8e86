"""The site under gunicorn, as compose.yaml runs it: pages, static files (whitenoise) and
/healthz from a real gunicorn on a free port, production settings (debug off), SQLite."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from runners.engine.redis_server import free_port
from tests.site.site_helpers import REPO, clean_env


def _get(url: str) -> tuple[int, dict[str, str], bytes]:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


@pytest.mark.slow
def test_gunicorn_serves_pages_static_files_and_healthz(tmp_path: Path) -> None:
    port = free_port()
    env = clean_env(
        CHANFUZZ_VAR_DIR=str(tmp_path / "var"),
        CHANFUZZ_LOAD_DOCUMENTED="0",
        DJANGO_SECRET_KEY="gunicorn-test-" + "x" * 40,
        DJANGO_ALLOWED_HOSTS="127.0.0.1",
        REDIS_URL=f"redis://127.0.0.1:{free_port()}/0",  # none: /healthz says so
    )
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "-v", "0"], cwd=REPO, env=env, check=True
    )
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "chanfuzz_site.wsgi:application",
         "--bind", f"127.0.0.1:{port}", "--workers", "2", "--access-logfile", "-"],
        cwd=REPO,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                status, _, _ = _get(base + "/about/")
                break
            except OSError:
                if server.poll() is not None or time.monotonic() > deadline:
                    pytest.fail(f"gunicorn did not answer: {server.communicate()[0][-3000:]}")
                time.sleep(0.2)
        assert status == 200

        status, headers, body = _get(base + "/")
        assert status == 200 and b"Playground" in body

        status, headers, body = _get(base + "/static/chanfuzz.css")
        assert status == 200
        assert body == (REPO / "static" / "chanfuzz.css").read_bytes()
        assert headers["Content-Type"].startswith("text/css")
        assert "max-age" in headers.get("Cache-Control", "")  # whitenoise, not Django

        status, headers, body = _get(base + "/static/no-such-file.css")
        assert status == 404

        status, headers, body = _get(base + "/healthz")
        report = json.loads(body)
        assert status == 503 and report["database"]["ok"] is True
        assert report["database"]["detail"] == "sqlite" and report["redis"]["ok"] is False
    finally:
        server.send_signal(signal.SIGTERM)
        log = server.communicate(timeout=30)[0]
    assert server.returncode == 0, log[-3000:]
    assert "Booting worker" in log and '"GET /static/chanfuzz.css HTTP/1.1" 200' in log

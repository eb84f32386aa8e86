"""Fixtures for the site tests: running manage.py as a shell would.

`manage` runs a command in this process exactly as manage.py does
(`ManagementUtility(argv).execute()`), and reports the exit status a shell would
see: the code of the SystemExit it raises, which is what python exits with. It
costs milliseconds where a child process costs most of a second. Settings load
once per process, though, so a test that needs its own environment (another
Redis, settings that refuse to load, a private var dir and database) uses
`manage_process`, a real `python manage.py` child.
"""

from __future__ import annotations

import io
import subprocess
import sys
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest
from django.core.management import ManagementUtility

from tests.site.site_helpers import REPO, Manage, clean_env


@pytest.fixture
def manage() -> Manage:
    """Run `manage.py ARGS…` in this process, on the test database (a test that
    reaches it marks itself django_db); returns stdout, stderr and exit status."""

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        argv = ["manage.py", *args]
        out, err = io.StringIO(), io.StringIO()
        code: int = 0
        with redirect_stdout(out), redirect_stderr(err):
            try:
                ManagementUtility(argv).execute()
            except SystemExit as exc:
                code = exc.code if isinstance(exc.code, int) else int(exc.code is not None)
        return subprocess.CompletedProcess(argv, code, out.getvalue(), err.getvalue())

    return run


@pytest.fixture
def manage_process(tmp_path: Path) -> Manage:
    """Run `python manage.py ARGS…` in a child with a private var dir (and so its
    own SQLite database); keyword arguments become environment variables."""

    def run(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=REPO,
            env=clean_env(CHANFUZZ_VAR_DIR=str(tmp_path / "var"), **env),
            capture_output=True,
            text=True,
            timeout=120,
        )

    return run


@pytest.fixture
def study_process(tmp_path: Path) -> Manage:
    """Run `python manage.py ARGS…` in a child for a release study: a private var dir,
    its database migrated, and a Redis URL nothing answers (so the report command
    starts a redis-server of its own); up to 15 minutes a command."""
    from runners.engine.redis_server import free_port

    env = clean_env(
        CHANFUZZ_VAR_DIR=str(tmp_path / "var"), REDIS_URL=f"redis://127.0.0.1:{free_port()}/0"
    )

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=REPO, env=env, capture_output=True, text=True, timeout=900,
        )  # fmt: skip

    migrated = run("migrate", "-v0")
    assert migrated.returncode == 0, migrated.stderr
    return run


@pytest.fixture
def user(django_user_model):  # noqa: ANN001, ANN201 - pytest-django's fixture
    """An ordinary account: held to the quotas, may manage only its own work."""
    return django_user_model.objects.create_user(username="ada", password="not-a-real-1")


@pytest.fixture
def user_client(client, user):  # noqa: ANN001, ANN201
    """The test client signed in as `user`."""
    client.force_login(user)
    return client

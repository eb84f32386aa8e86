"""Fixtures for the site tests: running manage.py in a child process.

Exit codes and start-up failures (settings that refuse to load) can only be
seen from outside the test process, so those tests run manage.py for real.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.site.site_helpers import REPO, Manage, clean_env


@pytest.fixture
def manage(tmp_path: Path) -> Manage:
    """Run `python manage.py ARGS…` in the repo with a private var dir; returns the result.

    Keyword arguments become environment variables of the child.
    """

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

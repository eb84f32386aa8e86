"""settings.py as a fresh process sees it: defaults, overrides, and the secret-key guard."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.site.site_helpers import REPO, Manage, clean_env

# Prints the settings under test as JSON from a child process, so every case
# loads settings.py from scratch under its own environment.
_DUMP = """
import json
import django
from django.conf import settings
django.setup()
db = settings.DATABASES["default"]
print(json.dumps({
    "DEBUG": settings.DEBUG,
    "ALLOWED_HOSTS": settings.ALLOWED_HOSTS,
    "ENGINE": db["ENGINE"],
    "NAME": str(db["NAME"]),
    "HOST": db.get("HOST", ""),
    "REDIS_URL": settings.REDIS_URL,
    "VAR_DIR": str(settings.VAR_DIR),
    "SECRET_KEY": settings.SECRET_KEY,
}))
"""


def load_settings(**env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", _DUMP],
        cwd=REPO,
        env=clean_env(DJANGO_SETTINGS_MODULE="chanfuzz_site.settings", **env),
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_defaults(tmp_path: Path) -> None:
    var = tmp_path / "v"
    result = load_settings(CHANFUZZ_VAR_DIR=str(var))
    assert result.returncode == 0, result.stderr
    s = json.loads(result.stdout)
    assert s["DEBUG"] is True
    assert s["ALLOWED_HOSTS"] == ["localhost", "127.0.0.1", "[::1]"]
    assert s["ENGINE"] == "django.db.backends.sqlite3"
    assert s["NAME"] == str(var / "db.sqlite3")
    assert s["REDIS_URL"] == "redis://127.0.0.1:6379/0"
    # SQLite makes the file, not the folder: settings makes the folder.
    assert var.is_dir()


def test_var_dir_defaults_to_repo_var() -> None:
    result = load_settings()
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["VAR_DIR"] == str(REPO / "var")


def test_overrides(tmp_path: Path) -> None:
    result = load_settings(
        CHANFUZZ_VAR_DIR=str(tmp_path),
        DJANGO_DEBUG="false",
        DJANGO_SECRET_KEY="s3cret-for-test",
        DJANGO_ALLOWED_HOSTS="chanfuzz.example, localhost",
        DATABASE_URL="postgres://fuzz:pw@db.internal:5432/chanfuzz",
        REDIS_URL="redis://cache:6379/2",
    )
    assert result.returncode == 0, result.stderr
    s = json.loads(result.stdout)
    assert s["DEBUG"] is False
    assert s["SECRET_KEY"] == "s3cret-for-test"
    assert s["ALLOWED_HOSTS"] == ["chanfuzz.example", "localhost"]
    assert s["ENGINE"] == "django.db.backends.postgresql"
    assert (s["NAME"], s["HOST"]) == ("chanfuzz", "db.internal")
    assert s["REDIS_URL"] == "redis://cache:6379/2"


def test_refuses_dev_key_without_debug(tmp_path: Path) -> None:
    result = load_settings(CHANFUZZ_VAR_DIR=str(tmp_path), DJANGO_DEBUG="false")
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr
    assert "DJANGO_SECRET_KEY" in result.stderr


def test_bad_debug_value_is_an_error(tmp_path: Path) -> None:
    result = load_settings(CHANFUZZ_VAR_DIR=str(tmp_path), DJANGO_DEBUG="maybe")
    assert result.returncode != 0
    assert "DJANGO_DEBUG='maybe'" in result.stderr


def test_manage_check_passes(manage_process: Manage) -> None:
    result = manage_process("check")
    assert result.returncode == 0, result.stderr
    assert "no issues" in result.stdout


def test_deploy_check_with_real_key_loads(manage_process: Manage) -> None:
    # With debug off and a real key the project must at least start (the deploy
    # warnings about HTTPS are for whoever deploys it).
    result = manage_process("check", DJANGO_DEBUG="false", DJANGO_SECRET_KEY="x" * 60)
    assert result.returncode == 0, result.stderr

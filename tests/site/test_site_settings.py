"""settings.py as a fresh process sees it: defaults, overrides, and the secret-key guard."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.site.site_helpers import REPO, Manage, clean_env

pytestmark = pytest.mark.security

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
    "SECURE_SSL_REDIRECT": settings.SECURE_SSL_REDIRECT,
    "SESSION_COOKIE_SECURE": settings.SESSION_COOKIE_SECURE,
    "SECURE_HSTS_SECONDS": settings.SECURE_HSTS_SECONDS,
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
    result = load_settings(CHANFUZZ_VAR_DIR=str(var), DJANGO_HTTPS="")
    assert result.returncode == 0, result.stderr
    s = json.loads(result.stdout)
    # Production-safe defaults: debug off, HTTPS only, a key of this machine's own.
    assert s["DEBUG"] is False
    assert s["SECURE_SSL_REDIRECT"] is True and s["SESSION_COOKIE_SECURE"] is True
    assert s["SECURE_HSTS_SECONDS"] == 31_536_000
    assert s["SECRET_KEY"] == (var / "secret_key").read_text().strip()
    assert len(s["SECRET_KEY"]) >= 50
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
    from runners.config import DEV_SECRET_KEY

    result = load_settings(CHANFUZZ_VAR_DIR=str(tmp_path), DJANGO_SECRET_KEY=DEV_SECRET_KEY)
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr
    assert "DJANGO_SECRET_KEY" in result.stderr


def test_a_machine_key_is_made_once_private_and_kept(tmp_path: Path) -> None:
    first = load_settings(CHANFUZZ_VAR_DIR=str(tmp_path))
    second = load_settings(CHANFUZZ_VAR_DIR=str(tmp_path))
    assert first.returncode == 0 and second.returncode == 0, first.stderr + second.stderr
    key = json.loads(first.stdout)["SECRET_KEY"]
    assert json.loads(second.stdout)["SECRET_KEY"] == key
    assert (tmp_path / "secret_key").stat().st_mode & 0o777 == 0o600


def test_debug_turns_https_off_and_uses_the_development_key(tmp_path: Path) -> None:
    from runners.config import DEV_SECRET_KEY

    result = load_settings(CHANFUZZ_VAR_DIR=str(tmp_path), DJANGO_DEBUG="true", DJANGO_HTTPS="")
    assert result.returncode == 0, result.stderr
    s = json.loads(result.stdout)
    assert (s["DEBUG"], s["SECURE_SSL_REDIRECT"], s["SECURE_HSTS_SECONDS"]) == (True, False, 0)
    assert s["SECRET_KEY"] == DEV_SECRET_KEY
    assert not (tmp_path / "secret_key").exists()


def test_bad_debug_value_is_an_error(tmp_path: Path) -> None:
    result = load_settings(CHANFUZZ_VAR_DIR=str(tmp_path), DJANGO_DEBUG="maybe")
    assert result.returncode != 0
    assert "DJANGO_DEBUG='maybe'" in result.stderr


def test_manage_check_passes(manage_process: Manage) -> None:
    result = manage_process("check")
    assert result.returncode == 0, result.stderr
    assert "no issues" in result.stdout


def test_deploy_check_is_clean_with_only_a_key_and_hosts(manage_process: Manage) -> None:
    # The defaults are the production ones: nothing else needs setting (issue #17).
    key = "k3y-" + "".join(chr(ord("a") + i % 26) + str(i % 10) for i in range(40))
    result = manage_process(
        "check", "--deploy", "--fail-level", "WARNING",
        DJANGO_SECRET_KEY=key, DJANGO_ALLOWED_HOSTS="chanfuzz.example", DJANGO_HTTPS="",
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout

"""Every /p/<id> link in README.md and docs/ resolves on a fresh database after
`manage.py migrate` alone: migration 0005 loads the documented programs, and every full
`migrate` loads those a database made before them lacks.

The database is a file of its own, migrated by a `manage.py` process with the
default environment (the suite's own test databases start empty)."""

from __future__ import annotations

import json
import re
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from runners.campaigns import documented
from tests.site.site_helpers import REPO, clean_env

IDS = documented.documented_ids(documented.documentation_files())

# Fetches every documented permalink with Django's test client, one "<status> <id>" a line.
FETCH = """
from django.test import Client
client = Client(HTTP_HOST="localhost")
import os
for pid in os.environ["DOCUMENTED_IDS"].split(","):
    response = client.get(f"/p/{pid}")
    ok = response.status_code == 200 and pid in response.content.decode()
    print(response.status_code if ok else f"bad-{response.status_code}", pid)
"""


@pytest.fixture(scope="module")
def fresh_site(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    db = tmp_path_factory.mktemp("fresh") / "db.sqlite3"
    env = clean_env(DATABASE_URL=f"sqlite:///{db}")
    done = subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v0"],
        cwd=REPO, env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return {"db": str(db), **env}


def test_the_docs_link_programs_and_the_fixture_holds_exactly_them() -> None:
    assert len(IDS) >= 70  # README, the Kotlin and Rust reports, the bug reports
    fixture = json.loads(documented.FIXTURE.read_text())
    assert [p["id"] for p in fixture["programs"]] == IDS, (
        "run `manage.py documented_programs export` after changing a report"
    )


def test_migrate_alone_loads_every_documented_program(fresh_site: dict[str, str]) -> None:
    with sqlite3.connect(fresh_site["db"]) as conn:
        have = {row[0] for row in conn.execute("SELECT id FROM runners_program")}
        findings = conn.execute("SELECT COUNT(*) FROM runners_finding").fetchone()[0]
    assert set(IDS) <= have
    assert findings == len(json.loads(documented.FIXTURE.read_text())["findings"])


@pytest.mark.slow  # 73 pages, each rendering its sources for every target
def test_every_documented_permalink_resolves_on_it(fresh_site: dict[str, str]) -> None:
    env = {k: v for k, v in fresh_site.items() if k != "db"}
    done = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", FETCH],
        cwd=REPO, env={**env, "DOCUMENTED_IDS": ",".join(IDS)},
        capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    answers = {m[2]: m[1] for m in re.finditer(r"^(\S+) ([a-z2-7]{12})$", done.stdout, re.M)}
    assert {pid: answers.get(pid) for pid in IDS} == {pid: "200" for pid in IDS}


def test_loading_twice_adds_nothing(fresh_site: dict[str, str], tmp_path: Path) -> None:
    env = {k: v for k, v in fresh_site.items() if k != "db"}
    done = subprocess.run(
        [sys.executable, "manage.py", "documented_programs", "load"],
        cwd=REPO, env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "loaded 0 program(s) and 0 finding(s)" in done.stdout


def test_migrate_loads_a_program_documented_after_the_database_was_made(
    fresh_site: dict[str, str], tmp_path: Path
) -> None:
    older = tmp_path / "older.sqlite3"
    newest = json.loads(documented.FIXTURE.read_text())["programs"][-1]["id"]
    with sqlite3.connect(fresh_site["db"]) as source, sqlite3.connect(older) as copy:
        source.backup(copy)
    with sqlite3.connect(older) as conn:  # as a database migrated before that link was
        conn.execute("DELETE FROM runners_finding WHERE example_id = ?", (newest,))
        conn.execute("DELETE FROM runners_program WHERE id = ?", (newest,))
    env = {k: v for k, v in fresh_site.items() if k != "db"}
    done = subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput"],
        cwd=REPO, env={**env, "DATABASE_URL": f"sqlite:///{older}"},
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "loaded 1 documented program(s)" in done.stdout
    with sqlite3.connect(older) as conn:
        assert conn.execute("SELECT 1 FROM runners_program WHERE id = ?", (newest,)).fetchone()

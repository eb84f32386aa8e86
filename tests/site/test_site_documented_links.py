"""Every /p/<id> link in README.md and docs/ resolves on a database that only ran
`migrate` (the test database): the data migration loaded the documented programs."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from runners.campaigns import documented
from runners.campaigns.models import Finding, Program

pytestmark = pytest.mark.django_db

IDS = documented.documented_ids(documented.documentation_files())


def test_the_docs_link_programs_and_the_fixture_holds_exactly_them() -> None:
    assert len(IDS) >= 70  # README, the Kotlin and Rust reports, the bug reports
    fixture = json.loads(documented.FIXTURE.read_text())
    assert [p["id"] for p in fixture["programs"]] == IDS, (
        "run `manage.py documented_programs export` after changing a report"
    )


def test_every_documented_program_is_in_the_database_after_migrate_alone() -> None:
    assert set(Program.objects.filter(id__in=IDS).values_list("id", flat=True)) == set(IDS)


@pytest.mark.slow  # 73 pages, each rendering its sources for every target
@pytest.mark.parametrize("pid", IDS)
def test_every_documented_permalink_resolves_after_migrate_alone(client: Client, pid: str) -> None:
    response = client.get(f"/p/{pid}")
    assert response.status_code == 200
    assert pid in response.content.decode()


def test_loading_again_adds_nothing_and_keeps_findings_counts() -> None:
    Finding.objects.filter(language="rust-chan").update(execution_count=12345)
    assert documented.load(Program, Finding) == (0, 0)
    assert Finding.objects.filter(language="rust-chan", execution_count=12345).exists()

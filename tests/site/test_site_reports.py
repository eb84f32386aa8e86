"""/reports/<name>/: the Markdown of docs/ rendered as a page of the site."""

from __future__ import annotations

import json

import pytest
from django.conf import settings
from django.test import Client

from chanfuzz_site.report_views import unlink_missing
from tests.site.test_site_campaign_pages import seed_campaign

pytestmark = pytest.mark.django_db


def test_kotlin_report_page_renders_the_docs_markdown(client: Client) -> None:
    source = (settings.BASE_DIR / "docs" / "kotlin-report.md").read_text()
    response = client.get("/reports/kotlin/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "<table>" in html and "Table 2, Kotlin column" in html
    # The study's campaigns are not in this (test) database: their links, 404s before,
    # are plain text, and the page says why.
    first_campaign = source.split("](/campaigns/", 1)[1].split("/", 1)[0]
    assert f'href="/campaigns/{first_campaign}/"' not in html
    assert "lead nowhere on this database (the study ran on another one)" in html


def test_a_report_links_to_the_campaigns_and_findings_this_database_has() -> None:
    seeded = seed_campaign()
    here, gone = seeded.campaign.pk, seeded.campaign.pk + 1000
    finding = seeded.hang.pk
    html = (
        f'<a href="/campaigns/{here}/">#{here}</a> <a href="/campaigns/{gone}/">#{gone}</a> '
        f'<a href="/findings/{finding}/">f</a> <a href="/findings/{finding + 1000}/">g</a> '
        '<a href="/p/abc/">p</a>'
    )
    kept, unlinked = unlink_missing(html)
    assert unlinked == 2
    assert f'<a href="/campaigns/{here}/">#{here}</a>' in kept
    assert f'<span class="gone" title="not in this database">#{gone}</span>' in kept
    assert f'<a href="/findings/{finding}/">f</a>' in kept and '">g</span>' in kept
    assert '<a href="/p/abc/">p</a>' in kept  # programs come with every database


def test_unknown_report_is_404(client: Client) -> None:
    assert client.get("/reports/crystal/").status_code == 404
    assert client.get("/reports/..%2Fsettings/").status_code == 404


def test_campaign_list_links_to_every_report_of_a_study(client: Client) -> None:
    page = client.get("/campaigns/").content.decode()
    for name in ("kotlin", "rust", "clojure-racket"):
        assert f'href="/reports/{name}/"' in page


def test_a_missing_report_names_the_command_that_writes_it(
    client: Client, settings, tmp_path
) -> None:
    settings.BASE_DIR = tmp_path
    response = client.get("/reports/clojure-racket/")
    assert response.status_code == 404
    assert "manage.py clojure_racket_report" in str(response.context["exception"])


def test_clojure_racket_bug_projects_are_served_as_text(client: Client, settings, tmp_path) -> None:
    settings.BASE_DIR = tmp_path
    project = tmp_path / "docs" / "clojure-racket-bugs" / "racket-5"
    project.mkdir(parents=True)
    (project / "main.rkt").write_text("#lang racket/base\n")
    response = client.get("/reports/clojure-racket/clojure-racket-bugs/racket-5/main.rkt")
    assert response.status_code == 200 and response.content == b"#lang racket/base\n"
    # Another report's folder is not this one's.
    assert client.get("/reports/rust/clojure-racket-bugs/racket-5/main.rkt").status_code == 404


def test_rust_report_files_are_served_as_text(client: Client, settings, tmp_path) -> None:
    settings.BASE_DIR = tmp_path
    project = tmp_path / "docs" / "rust-bugs" / "rust-flume-3"
    (project / "src").mkdir(parents=True)
    (project / "Cargo.toml").write_text('[dependencies]\nflume = { version = "=0.12.0" }\n')
    (tmp_path / "docs" / "secret.txt").write_text("not for you")
    response = client.get("/reports/rust/rust-bugs/rust-flume-3/Cargo.toml")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/plain")
    assert b'"=0.12.0"' in response.content


@pytest.mark.parametrize(
    "path",
    [
        "rust-bugs/../secret.txt",
        "rust-bugs/%2e%2e/secret.txt",
        "secret.txt",
        "rust-bugs/rust-flume-3/src",  # a directory
        "rust-bugs/nothing-here.md",
    ],
)
def test_rust_report_files_outside_the_bug_folder_are_404(
    client: Client, settings, tmp_path, path: str
) -> None:
    settings.BASE_DIR = tmp_path
    (tmp_path / "docs" / "rust-bugs" / "rust-flume-3" / "src").mkdir(parents=True)
    (tmp_path / "docs" / "secret.txt").write_text("not for you")
    response = client.get(f"/reports/rust/{path}")
    assert response.status_code == 404
    assert b"not for you" not in response.content


def test_kotlin_report_has_no_files_beside_it(client: Client) -> None:
    assert client.get("/reports/kotlin/rust-bugs/x/README.md").status_code == 404


@pytest.mark.parametrize("name", ["kotlin", "rust", "clojure-racket", "mutation"])
def test_the_json_each_report_links_to_is_served(client: Client, name: str) -> None:
    # Each report's first lines link to it: the link was a 404.
    page = client.get(f"/reports/{name}/").content.decode()
    assert f'href="{name}-report.json"' in page
    response = client.get(f"/reports/{name}/{name}-report.json")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert json.loads(response.content)


def test_only_a_reports_own_json_is_served_beside_it(client: Client) -> None:
    assert client.get("/reports/kotlin/rust-report.json").status_code == 404
    assert client.get("/reports/kotlin/../kotlin-report.json").status_code == 404

"""/reports/<name>/: the Markdown of docs/ rendered as a page of the site."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client

pytestmark = pytest.mark.django_db


def test_kotlin_report_page_renders_the_docs_markdown(client: Client) -> None:
    source = (settings.BASE_DIR / "docs" / "kotlin-report.md").read_text()
    response = client.get("/reports/kotlin/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "<table>" in html and "Table 2, Kotlin column" in html
    # Links into the campaigns work inside the app.
    first_campaign = source.split("](/campaigns/", 1)[1].split("/", 1)[0]
    assert f'href="/campaigns/{first_campaign}/"' in html


def test_unknown_report_is_404(client: Client) -> None:
    assert client.get("/reports/crystal/").status_code == 404
    assert client.get("/reports/..%2Fsettings/").status_code == 404


def test_campaign_list_links_to_the_report(client: Client) -> None:
    assert 'href="/reports/kotlin/"' in client.get("/campaigns/").content.decode()

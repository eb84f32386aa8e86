"""chanfuzz_site/request_log.py: one structured log line per page answered."""

from __future__ import annotations

import logging

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


def _requests(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if getattr(r, "event", None) == "request"]


def test_a_page_is_logged_with_its_status_and_time(
    client: Client, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="chanfuzz.request")
    assert client.get("/campaigns/").status_code == 200
    assert client.get("/campaigns/999999/").status_code == 404
    assert client.get("/campaigns/", {"status": "nonsense"}).status_code == 400
    ok, missing, bad = _requests(caplog)
    assert (ok.method, ok.path, ok.status) == ("GET", "/campaigns/", 200)
    assert ok.getMessage() == "GET /campaigns/ 200"
    assert (missing.path, missing.status, bad.status) == ("/campaigns/999999/", 404, 400)
    assert 0 < ok.duration_ms < 60_000
    assert ok.user is None and ok.htmx is False


def test_a_signed_in_user_is_named_and_htmx_polls_are_marked(
    user_client: Client, user, caplog: pytest.LogCaptureFixture  # noqa: ANN001
) -> None:
    caplog.set_level(logging.INFO, logger="chanfuzz.request")
    assert user_client.get("/campaigns/new/").status_code == 200
    user_client.get("/campaigns/", headers={"HX-Request": "true"})
    form, poll = _requests(caplog)
    assert form.user == user.pk
    assert poll.htmx is True


def test_static_files_are_not_logged(client: Client, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="chanfuzz.request")
    response = client.get("/static/chanfuzz.css")
    assert response.status_code == 200
    response.close()
    assert _requests(caplog) == []

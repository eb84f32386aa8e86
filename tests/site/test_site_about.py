"""The about page and the WSGI/ASGI entry points."""

from __future__ import annotations

from django.test import Client
from django.urls import reverse


def test_about_page_says_what_chanfuzz_is(client: Client) -> None:
    response = client.get(reverse("about"))
    assert response.status_code == 200
    body = response.content.decode()
    assert "<title>chanfuzz</title>" in body
    assert "terminating by construction" in body
    assert "manage.py verify" in body
    # The languages come from the target registry, not from the template's text.
    assert "(Go, Kotlin, Crystal, Flix, Rust (crossbeam-channel)," in body


def test_entry_points_import() -> None:
    from chanfuzz_site import asgi, wsgi

    assert callable(wsgi.application)
    assert callable(asgi.application)

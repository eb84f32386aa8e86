"""HTTP basics every page keeps: HEAD where GET is allowed, 400 (never 500) on bad
query values."""

from __future__ import annotations

import pytest
from django.test import Client

from runners.campaigns.programs import build_from_effect, store_program

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "url", ["/", "/about/", "/campaigns/", "/campaigns/new", "/findings/", "/reports/kotlin/"]
)
def test_head_answers_like_get_without_a_body(user_client: Client, url: str) -> None:
    # Signed in: /campaigns/new is a form for accounts (anonymous HEAD and GET both redirect).
    client = user_client
    get, head = client.get(url), client.head(url)
    assert get.status_code == head.status_code == 200
    assert head.content == b""


def test_head_on_a_permalink_and_its_raw_source(client: Client) -> None:
    program = store_program(build_from_effect("Spawn(Put(c1)) ; Get(c1)"))
    assert client.head(f"/p/{program.id}").status_code == 200
    assert client.head(f"/p/{program.id}.go").status_code == 200


@pytest.mark.parametrize("value", ["²", "١٢", "-1", "0", "1e3", "x"])
def test_bad_repetitions_are_a_400_not_a_500(client: Client, value: str) -> None:
    program = store_program(build_from_effect("Spawn(Put(c1)) ; Get(c1)"))
    response = client.get(f"/p/{program.id}.go", {"repetitions": value})
    assert response.status_code == 400
    assert b"repetitions must be from 1 to" in response.content


def test_blank_repetitions_take_the_default(client: Client) -> None:
    program = store_program(build_from_effect("Spawn(Put(c1)) ; Get(c1)"))
    blank = client.get(f"/p/{program.id}.go", {"repetitions": ""})
    assert blank.status_code == 200
    assert blank.content == client.get(f"/p/{program.id}.go").content


META = '<meta http-equiv=refresh content="0;url=https://evil.example/">'


@pytest.mark.parametrize(
    ("url", "param"),
    [
        ("/findings/", "outcome"),
        ("/findings/", "language"),
        ("/campaigns/", "status"),
    ],
)
def test_a_400_quoting_the_request_is_plain_text(client: Client, url: str, param: str) -> None:
    # It was text/html: the quoted value redirected the browser elsewhere.
    response = client.get(url, {param: META})
    assert response.status_code == 400
    assert response["Content-Type"] == "text/plain; charset=utf-8"
    assert META.encode() in response.content  # quoted as given, and read as text


def test_every_page_names_its_icon_and_favicon_ico_leads_to_it(client: Client) -> None:
    # /favicon.ico was a 404 on every page, in the browser's console and the server's log.
    assert 'rel="icon" href="/static/favicon.svg"' in client.get("/about/").content.decode()
    response = client.get("/favicon.ico")
    assert response.status_code == 301 and response["Location"] == "/static/favicon.svg"

"""The live site's other defences: production settings (no debug pages, strict headers,
HTTPS behind a proxy), bad input as 400, per-IP rate limits on the anonymous playground,
and checks that end within their budget however hard the effect."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
import requests

from tests.live_stack import LiveSite, live_site
from tests.security.conftest import PLAYGROUND_RATE, Visitor

pytestmark = [pytest.mark.slow, pytest.mark.security]

PROGRAM = "/playground/program/"


def test_error_pages_show_no_debug_information(anonymous: Visitor, site: LiveSite) -> None:
    response = anonymous.get("/no/such/page")
    assert response.status_code == 404
    for leak in ("Traceback", "DEBUG", "urlpatterns", "REDIS_URL", site.redis_url):
        assert leak not in response.text


def test_every_page_carries_the_strict_headers(anonymous: Visitor) -> None:
    headers = anonymous.get("/about/").headers
    policy = headers["Content-Security-Policy"]
    for directive in (
        "default-src 'self'", "script-src 'self'", "style-src 'self'", "object-src 'none'",
        "frame-ancestors 'none'", "base-uri 'none'",
    ):  # fmt: skip
        assert directive in policy
    assert "unsafe" not in policy
    assert headers["X-Frame-Options"] == "DENY"
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["Referrer-Policy"] == "same-origin"


@pytest.mark.parametrize(
    "path",
    ["/campaigns/?status=bogus", "/findings/?outcome=bogus", "/findings/?language=cobol",
     "/?seed=notanumber"],
)  # fmt: skip
def test_bad_query_values_are_400(anonymous: Visitor, path: str) -> None:
    assert anonymous.get(path).status_code == 400


def test_head_is_answered_on_get_views(anonymous: Visitor) -> None:
    for path in ("/", "/campaigns/", "/findings/", "/about/"):
        response = anonymous.http.head(anonymous.site.url + path, timeout=30)
        assert response.status_code == 200 and response.content == b"", path


def test_anonymous_playground_checks_are_rate_limited_per_ip(
    anonymous: Visitor, ada: Visitor
) -> None:
    query = {"mode": "generate", "seed": "1", "preset": "A"}
    for _ in range(2):  # a window's edge may fall within one round; the next is then whole
        codes = [
            anonymous.get(PROGRAM, params=query).status_code for _ in range(PLAYGROUND_RATE + 1)
        ]
        if codes[-1] == 429:
            break
    assert codes[-1] == 429 and set(codes) <= {200, 429}
    # Once limited, limited until the window ends; the answer says for how long.
    limited = anonymous.get(PROGRAM, params=query)
    assert limited.status_code == 429 and 1 <= int(limited.headers["Retry-After"]) <= 60
    assert f"at most {PLAYGROUND_RATE}/m" in limited.text
    # Signed-in users are bound by quotas, not by the per-IP limit.
    assert {ada.get(PROGRAM, params=query).status_code for _ in range(PLAYGROUND_RATE + 1)} == {200}


def test_a_hard_effect_is_undecided_within_the_budget(ada: Visitor) -> None:
    # A race with distinct continuations: its states grow as n!; unbounded, minutes of CPU.
    n = 14
    senders = [f"Spawn(Put(c) ; Put(d{i}))" for i in range(n)]
    race = " ; ".join(senders + [f"Spawn(Get(c) ; Get(d{i}))" for i in range(n)])
    started = time.monotonic()
    response = ada.get(PROGRAM, params={"mode": "effect", "effect": race, "seed": "0"})
    elapsed = time.monotonic() - started
    assert response.status_code == 200
    assert 'id="verdict">undecided' in response.text
    assert elapsed < 20, f"the check took {elapsed:.1f} s"


def test_an_effect_over_the_size_limit_is_refused(ada: Visitor) -> None:
    effect = " ; ".join(["Spawn(Put(c)) ; Get(c)"] * 200)
    response = ada.get(PROGRAM, params={"mode": "effect", "effect": effect, "seed": "0"})
    assert response.status_code == 400 and "4,000" in response.text


@pytest.fixture(scope="module")
def https_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveSite]:
    """The production defaults as they are (HTTPS on), behind a TLS proxy."""
    with live_site(tmp_path_factory.mktemp("https-site"), worker=False, DJANGO_HTTPS="",
                   DJANGO_TLS_PROXY="true") as live:  # fmt: skip
        yield live


def test_plain_http_is_redirected_to_https(https_site: LiveSite) -> None:
    response = requests.get(https_site.url + "/about/", allow_redirects=False, timeout=30)
    assert response.status_code == 301
    assert response.headers["Location"].startswith("https://")


def test_behind_the_proxy_hsts_and_secure_cookies(https_site: LiveSite) -> None:
    proxied = {"X-Forwarded-Proto": "https"}
    response = requests.get(https_site.url + "/accounts/login/", headers=proxied,
                            allow_redirects=False, timeout=30)  # fmt: skip
    assert response.status_code == 200
    assert response.headers["Strict-Transport-Security"] == (
        "max-age=31536000; includeSubDomains; preload"
    )
    cookie = next(c for c in response.cookies if c.name == "csrftoken")
    assert cookie.secure

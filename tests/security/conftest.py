"""The security suite: the site as a hostile visitor meets it, live (tests/live_stack.py:
runserver with the production settings, a real Redis, its own SQLite), with small quotas
and rate limits so that the limits are reached in a few requests.

`Visitor` is a requests session that speaks to it as a browser would (CSRF token from
the cookie, forms posted as forms), signed in or not.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
import requests

from tests.live_stack import LiveSite, live_site

QUOTA_PROGRAMS = 50
QUOTA_TIMEOUT_S = 30
PLAYGROUND_RATE = 8  # per minute, anonymous
PASSWORD = "a-security-test-password-1"


class Visitor:
    """One browser's worth of cookies against the live site."""

    def __init__(self, site: LiveSite) -> None:
        self.site = site
        self.http = requests.Session()

    def get(self, path: str, **kwargs: object) -> requests.Response:
        return self.http.get(self.site.url + path, allow_redirects=False, timeout=60, **kwargs)

    def post(self, path: str, data: dict[str, object] | None = None, **kwargs: object):  # noqa: ANN201
        if "csrftoken" not in self.http.cookies:
            self.get("/accounts/login/")
        headers = {"X-CSRFToken": self.http.cookies["csrftoken"], **kwargs.pop("headers", {})}
        return self.http.post(self.site.url + path, data=data or {}, headers=headers,
                              allow_redirects=False, timeout=60, **kwargs)  # fmt: skip

    def sign_in(self, username: str) -> Visitor:
        response = self.post("/accounts/login/", {"username": username, "password": PASSWORD})
        assert response.status_code == 302, response.text[:2000]
        return self


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveSite]:
    """No worker: campaigns stay queued, so 'at most N at once' is reached for sure."""
    with live_site(
        tmp_path_factory.mktemp("secure-site"),
        worker=False,
        CHANFUZZ_QUOTA_PROGRAMS=str(QUOTA_PROGRAMS),
        CHANFUZZ_QUOTA_CAMPAIGNS="1",
        CHANFUZZ_QUOTA_TIMEOUT_S=str(QUOTA_TIMEOUT_S),
        CHANFUZZ_RATELIMIT_PLAYGROUND=f"{PLAYGROUND_RATE}/m",
        CHANFUZZ_RATELIMIT_RUNS="3/m",
    ) as live:
        for name, staff in (("ada", False), ("bob", False), ("root", True)):
            live.make_user(name, PASSWORD, staff=staff)
        yield live


@pytest.fixture
def anonymous(site: LiveSite) -> Visitor:
    return Visitor(site)


@pytest.fixture
def ada(site: LiveSite) -> Visitor:
    return Visitor(site).sign_in("ada")


@pytest.fixture
def bob(site: LiveSite) -> Visitor:
    return Visitor(site).sign_in("bob")


@pytest.fixture
def staff(site: LiveSite) -> Visitor:
    return Visitor(site).sign_in("root")


def campaign_form(go_id: str, **overrides: object) -> dict[str, object]:
    """A valid new-campaign form for the installed Go toolchain, with `overrides`."""
    form: dict[str, object] = {
        "name": "security", "heuristic": "A", "targets": go_id, "count": 10,
        "timeout_s": 5, "repetitions": 2, "seed": 0, "chunk_size": 5, "triage_retries": 0,
        "value_oracle": "on",
    }  # fmt: skip
    from generator.settings import PRESETS, SIZE_LIMITS

    for size in SIZE_LIMITS:
        form[f"s_{size}"] = getattr(PRESETS["A"], size)
    form.update(overrides)
    return form


def campaign_id(response: requests.Response) -> int:
    match = re.search(r"/campaigns/(\d+)/$", response.headers.get("Location", ""))
    assert match, (response.status_code, response.text[:2000])
    return int(match[1])

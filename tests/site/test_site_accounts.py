"""Accounts and limits as the views apply them: what anonymous visitors may do, sign-up
when the site opens it, quota refusals on the form's field, and the playground's per-IP
rate limit (counted in a local cache here; tests/security runs it on Redis, live)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from runners.campaigns.models import Campaign
from tests.runners.conftest import require_toolchain
from tests.site.test_site_campaign_pages import _form_data

pytestmark = [pytest.mark.django_db, pytest.mark.security]

PROGRAM = "/playground/program/"
LOCAL_CACHE = {
    "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
    "ratelimit": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "rl"},
}


def test_starting_work_sends_anonymous_visitors_to_sign_in(client: Client) -> None:
    response = client.get(reverse("campaign_new"))
    assert response.status_code == 302
    assert response["Location"] == "/accounts/login/?next=/campaigns/new"
    assert client.post(reverse("campaign_new"), {"count": 1}).status_code == 302
    assert not Campaign.objects.exists()
    login = client.get(response["Location"])
    assert login.status_code == 200 and 'name="password"' in login.content.decode()


def test_no_password_reset_is_offered_since_no_mail_can_carry_it(client: Client) -> None:
    # It answered "We've emailed you instructions" and logged that no mail could go.
    assert client.get("/accounts/password_reset/").status_code == 404
    assert client.post("/accounts/password_reset/", {"email": "a@x.org"}).status_code == 404
    assert client.get("/accounts/login/").status_code == 200


def test_a_signed_in_user_can_still_change_their_password(user_client: Client) -> None:
    assert user_client.get("/accounts/password_change/").status_code == 200


def test_sign_up_when_the_site_opens_it(client: Client, settings) -> None:  # noqa: ANN001
    settings.OPEN_SIGNUP = False
    assert client.get(reverse("signup")).status_code == 404
    settings.OPEN_SIGNUP = True
    assert "Make one" in client.get(reverse("login")).content.decode()
    password = "a-long-enough-passphrase-9"
    response = client.post(
        reverse("signup"), {"username": "eve", "password1": password, "password2": password}
    )
    assert response.status_code == 302
    assert User.objects.get(username="eve").is_staff is False
    assert client.get(reverse("campaign_new")).status_code == 200  # signed in at once
    weak = client.post(reverse("signup"), {"username": "mal", "password1": "1", "password2": "1"})
    assert weak.status_code == 400 and not User.objects.filter(username="mal").exists()


def test_an_over_quota_count_is_an_error_on_its_field(user_client: Client, settings) -> None:  # noqa: ANN001
    go = require_toolchain("go")
    settings.QUOTAS = replace(settings.QUOTAS, programs=10)
    page = user_client.get(reverse("campaign_new")).content.decode()
    assert "at most 10 programs per campaign" in page
    response = user_client.post(reverse("campaign_new"), _form_data(go.id, count=11))
    assert response.status_code == 400
    errors = response.context["form"].errors
    assert errors["count"] == ["over your quota: at most 10 programs per campaign (asked 11)"]
    assert not Campaign.objects.exists()


def test_the_anonymous_playground_is_limited_per_ip(
    client: Client,
    user_client: Client,
    settings,  # noqa: ANN001
) -> None:
    settings.CACHES = LOCAL_CACHE
    # Per hour, not per minute: the count restarts at its window's edge, which a minute
    # puts within these few requests now and then.
    settings.RATELIMIT_PLAYGROUND = "2/h"
    query = {"mode": "generate", "seed": "3", "preset": "A"}
    anonymous = Client()
    codes = [anonymous.get(PROGRAM, query).status_code for _ in range(3)]
    assert codes == [200, 200, 429]
    limited = anonymous.get(PROGRAM, query)
    assert "at most 2/h" in limited.content.decode() and int(limited["Retry-After"]) >= 1
    # Another address has its own count; a signed-in user is not limited here.
    assert anonymous.get(PROGRAM, query, REMOTE_ADDR="10.9.8.7").status_code == 200
    assert {user_client.get(PROGRAM, query).status_code for _ in range(4)} == {200}


def test_a_limited_page_is_the_sites_page_and_a_limited_fragment_a_fragment(
    settings,  # noqa: ANN001
) -> None:
    settings.CACHES = LOCAL_CACHE
    settings.RATELIMIT_PLAYGROUND = "1/h"
    anonymous = Client()
    assert anonymous.get("/").status_code == 200
    page = anonymous.get("/")  # the address bar's request: it was a bare paragraph
    assert page.status_code == 429
    assert "<title>Too many requests · chanfuzz</title>" in page.content.decode()
    assert "at most 1/h for generated programs and checks" in page.content.decode()
    fragment = anonymous.get(PROGRAM, {"seed": "3"}, HTTP_HX_REQUEST="true")
    assert fragment.status_code == 429
    assert fragment.content.decode().startswith('<p class="error" role="alert">Too many')


def test_a_redis_that_does_not_answer_lets_the_playground_through(
    client: Client,
    settings,  # noqa: ANN001
) -> None:
    settings.CACHES = {
        **LOCAL_CACHE,
        "ratelimit": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": "redis://127.0.0.1:9/0",  # discard: nothing listens there
            "OPTIONS": {"socket_connect_timeout": 0.5},
        },
    }
    settings.RATELIMIT_PLAYGROUND = "1/m"
    query = {"mode": "generate", "seed": "3", "preset": "A"}
    assert [client.get(PROGRAM, query).status_code for _ in range(3)] == [200, 200, 200]

"""Accounts on the live site: anonymous visitors read but start nothing; only a campaign's
owner or staff may stop it; sign-up is closed unless the site opens it."""

from __future__ import annotations

import pytest

from tests.live_stack import LiveSite
from tests.runners.conftest import require_toolchain
from tests.security.conftest import Visitor, campaign_form, campaign_id

pytestmark = [pytest.mark.slow, pytest.mark.security]


def _campaign_count(site: LiveSite) -> int:
    done = site.manage(
        "shell", "--no-imports", "-c",
        "from runners.campaigns.models import Campaign; print(Campaign.objects.count())",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return int(done.stdout.strip())


def test_anonymous_visitors_browse_but_start_nothing(site: LiveSite, anonymous: Visitor) -> None:
    go = require_toolchain("go")
    for path in ("/", "/campaigns/", "/findings/", "/about/", "/accounts/login/"):
        assert anonymous.get(path).status_code == 200, path
    before = _campaign_count(site)
    for path in ("/campaigns/new", "/campaigns/1/cancel", "/findings/1/reduce",
                 "/p/aaaaaaaaaaaa/reproduce", "/reductions/1/cancel"):  # fmt: skip
        response = anonymous.post(path, campaign_form(go.id))
        assert response.status_code == 302, (path, response.status_code)
        assert response.headers["Location"].startswith("/accounts/login/?next="), path
    assert anonymous.get("/campaigns/new").headers["Location"] == (
        "/accounts/login/?next=/campaigns/new"
    )
    assert _campaign_count(site) == before


def test_sign_up_is_closed_by_default(anonymous: Visitor) -> None:
    assert anonymous.get("/accounts/signup/").status_code == 404
    assert anonymous.post("/accounts/signup/", {"username": "eve"}).status_code == 404
    assert "Accounts are made by this site" in anonymous.get("/accounts/login/").text


def test_a_wrong_password_does_not_sign_in(anonymous: Visitor) -> None:
    response = anonymous.post("/accounts/login/", {"username": "ada", "password": "guess"})
    assert response.status_code == 200 and "Please enter a correct username" in response.text
    assert anonymous.get("/campaigns/new").status_code == 302


def test_only_the_owner_or_staff_stop_a_campaign(
    ada: Visitor, bob: Visitor, staff: Visitor
) -> None:
    go = require_toolchain("go")
    pk = campaign_id(ada.post("/campaigns/new", campaign_form(go.id, name="ada's")))
    page = ada.get(f"/campaigns/{pk}/").text
    assert f"/campaigns/{pk}/pause" in page
    # Another user sees no controls, and a forged POST is refused.
    assert f"/campaigns/{pk}/pause" not in bob.get(f"/campaigns/{pk}/").text
    assert bob.post(f"/campaigns/{pk}/cancel").status_code == 403
    assert 'data-status="queued"' in ada.get(f"/campaigns/{pk}/").text
    assert ada.post(f"/campaigns/{pk}/pause").status_code == 302
    assert 'data-status="paused"' in ada.get(f"/campaigns/{pk}/").text
    # Staff may stop anyone's.
    assert staff.post(f"/campaigns/{pk}/cancel").status_code == 302
    assert 'data-status="cancelled"' in ada.get(f"/campaigns/{pk}/").text


def test_sign_out_is_a_post_and_ends_the_session(ada: Visitor) -> None:
    assert ada.get("/campaigns/new").status_code == 200
    assert ada.get("/accounts/logout/").status_code == 405
    assert ada.post("/accounts/logout/").status_code == 302
    assert ada.get("/campaigns/new").status_code == 302

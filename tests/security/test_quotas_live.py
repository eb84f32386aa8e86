"""Quotas on the live site: over-quota requests are form errors that name the limit,
never a 500 and never a silently clipped job; staff are not bound."""

from __future__ import annotations

import pytest

from tests.runners.conftest import require_toolchain
from tests.security.conftest import (
    QUOTA_PROGRAMS,
    QUOTA_TIMEOUT_S,
    Visitor,
    campaign_form,
    campaign_id,
)

pytestmark = [pytest.mark.slow, pytest.mark.security]


def test_the_form_shows_the_users_quotas(ada: Visitor, staff: Visitor) -> None:
    page = ada.get("/campaigns/new").text
    assert f"Your quotas: at most {QUOTA_PROGRAMS} programs per campaign" in page
    assert "Staff: no quotas" in staff.get("/campaigns/new").text


def test_over_quota_sizes_are_refused_with_the_limit_named(ada: Visitor) -> None:
    go = require_toolchain("go")
    big = ada.post("/campaigns/new", campaign_form(go.id, count=QUOTA_PROGRAMS + 1))
    assert big.status_code == 400
    assert f"over your quota: at most {QUOTA_PROGRAMS} programs per campaign" in big.text
    slow = ada.post("/campaigns/new", campaign_form(go.id, timeout_s=QUOTA_TIMEOUT_S + 1))
    assert slow.status_code == 400
    assert f"at most {QUOTA_TIMEOUT_S} seconds of timeout per run" in slow.text


def test_one_campaign_at_a_time_then_another_once_it_ends(ada: Visitor) -> None:
    go = require_toolchain("go")
    first = campaign_id(ada.post("/campaigns/new", campaign_form(go.id)))
    second = ada.post("/campaigns/new", campaign_form(go.id))
    assert second.status_code == 400
    assert "at most 1 campaigns queued or running at once (you have 1)" in second.text
    assert ada.post(f"/campaigns/{first}/cancel").status_code == 302
    third = campaign_id(ada.post("/campaigns/new", campaign_form(go.id)))
    assert ada.post(f"/campaigns/{third}/cancel").status_code == 302


def test_staff_are_bound_only_by_the_hard_limits(staff: Visitor) -> None:
    go = require_toolchain("go")
    pk = campaign_id(staff.post("/campaigns/new", campaign_form(go.id, count=QUOTA_PROGRAMS * 10)))
    assert staff.post(f"/campaigns/{pk}/cancel").status_code == 302
    beyond = staff.post("/campaigns/new", campaign_form(go.id, count=2_000_000))
    assert beyond.status_code == 400 and "less than or equal to 1000000" in beyond.text

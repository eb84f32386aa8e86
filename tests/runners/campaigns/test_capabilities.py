"""Campaigns generate for what all their targets can express, and say which rules were off."""

from __future__ import annotations

import pytest
from django.test import Client

from generator.capabilities import FULL, Capabilities
from generator.effects import Select, walk
from generator.settings import GeneratorSettings
from runners.campaigns import programs, services
from runners.campaigns.models import Campaign, Program
from tests.runners.conftest import require_toolchain

pytestmark = pytest.mark.django_db

RECEIVE_ONLY = Capabilities(select=True, select_send=False)
NO_SELECT = Capabilities(select=False, select_send=False)


def _send_cases(built: programs.BuiltProgram) -> int:
    return sum(
        case.direction == "put"
        for node in walk(built.effect)
        if isinstance(node, Select)
        for case in node.cases
    )


@pytest.fixture
def receive_only_targets(monkeypatch: pytest.MonkeyPatch) -> None:
    # No runnable target lacks send cases today (Flix renders only): stand one in
    # for the registry's answer, so the campaign path is what is tested.
    require_toolchain("go")
    monkeypatch.setattr(services, "shared_capabilities", lambda _languages: RECEIVE_ONLY)


def test_a_campaign_records_what_its_targets_share_and_generates_for_it(
    receive_only_targets: None,
) -> None:
    campaign = services.create_campaign(
        targets=[("go", None)], count=40, heuristic="F", enqueue=False
    )
    assert campaign.capabilities == {"select": True, "select_send": False}
    assert campaign.rules_off() == ["E-Put-Select"]
    built = [programs.campaign_program(campaign, i) for i in range(40)]
    assert sum(map(_send_cases, built)) == 0
    # The stored program is built again from seed, settings and capabilities alike.
    row = programs.store_program(built[7])
    assert row.capabilities == {"select": True, "select_send": False}
    assert programs.program_object(Program.objects.get(pk=row.pk)) == built[7].program


def test_targets_with_every_capability_turn_nothing_off() -> None:
    require_toolchain("go")
    campaign = services.create_campaign(targets=[("go", None)], count=5, enqueue=False)
    # Go can also write a select with a default, which FULL (what {} stands for, as
    # rows stored before it existed say) leaves out: so its capabilities are stored.
    assert campaign.capabilities == {**FULL.as_dict(), "select_default": True}
    assert campaign.rules_off() == []
    built = programs.campaign_program(campaign, 3)
    assert built == programs.build_generated(
        campaign.seed + 3,
        GeneratorSettings(**campaign.settings),
        Capabilities.from_dict(campaign.capabilities),
    )


def test_settings_a_target_can_express_nothing_of_are_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    require_toolchain("go")
    monkeypatch.setattr(services, "shared_capabilities", lambda _languages: NO_SELECT)
    with pytest.raises(ValueError, match="for go: .*G-Select"):
        services.create_campaign(targets=[("go", None)], count=5, heuristic="E", enqueue=False)
    assert Campaign.objects.count() == 0


def test_the_campaign_page_says_which_rules_were_off(
    receive_only_targets: None, client: Client
) -> None:
    campaign = services.create_campaign(targets=[("go", None)], count=3, enqueue=False)
    page = client.get(f"/campaigns/{campaign.pk}/").content.decode()
    assert "select with receive cases only" in page
    assert "E-Put-Select is off" in page

"""Capability-aware generation: a target gets only programs it can express, still terminating."""

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from generator.capabilities import FULL, Capabilities, InexpressibleSettings
from generator.effects import Select, parse, to_text, walk
from generator.pipeline import generate_program
from generator.rules import generate_effect
from generator.settings import PRESETS, settings_for
from generator.termination import check_effect

SEEDS = st.integers(0, 2**63 - 1)
RECEIVE_ONLY = Capabilities(select=True, select_send=False)
NO_SELECT = Capabilities(select=False, select_send=False)


def _selects(effect):
    return [node for node in walk(effect) if isinstance(node, Select)]


@pytest.mark.parametrize("heuristic", sorted(PRESETS))
@given(seed=SEEDS)
def test_receive_only_targets_get_no_send_case_and_still_terminate(heuristic, seed):
    effect = generate_effect(random.Random(seed), PRESETS[heuristic], RECEIVE_ONLY).effect
    for select in _selects(effect):
        assert all(case.direction == "get" for case in select.cases), to_text(effect)
    verdict = check_effect(effect)
    assert verdict.terminating is True, to_text(effect)
    assert parse(to_text(effect)) == effect


@pytest.mark.parametrize("heuristic", "ABCDF")
@given(seed=SEEDS)
def test_targets_without_select_get_no_select_and_still_terminate(heuristic, seed):
    effect = generate_effect(random.Random(seed), PRESETS[heuristic], NO_SELECT).effect
    assert _selects(effect) == [], to_text(effect)
    assert check_effect(effect).terminating is True, to_text(effect)


def test_receive_only_g_select_still_fires_under_heuristic_e():
    # Heuristic E generates with G-Select alone: receive heads keep it usable.
    fired = set()
    for seed in range(50):
        fired.update(generate_program(seed, PRESETS["E"], RECEIVE_ONLY).fired)
    assert "g_select" in fired


def test_a_target_without_select_cannot_use_heuristic_e():
    with pytest.raises(InexpressibleSettings, match="G-Select"):
        generate_program(1, PRESETS["E"], NO_SELECT)


@pytest.mark.parametrize("heuristic", sorted(PRESETS))
def test_full_capabilities_generate_exactly_what_no_capabilities_did(heuristic):
    for seed in range(100):
        plain = generate_effect(random.Random(seed), PRESETS[heuristic])
        full = generate_effect(random.Random(seed), PRESETS[heuristic], FULL)
        assert plain == full


def test_restrict_turns_off_only_what_the_target_cannot_express():
    settings = settings_for("A")
    assert FULL.restrict(settings) is settings
    receive_only = RECEIVE_ONLY.restrict(settings)
    assert receive_only.e_put_select == 0 and receive_only.g_select == 1
    no_select = NO_SELECT.restrict(settings)
    assert no_select.g_select == no_select.e_get_select == no_select.r_select == 0
    assert no_select.g_pingpong == 1


def test_shared_capabilities_are_what_every_target_can_do():
    assert Capabilities.shared([FULL, FULL]) == FULL
    assert Capabilities.shared([FULL, RECEIVE_ONLY]) == RECEIVE_ONLY
    assert Capabilities.shared([RECEIVE_ONLY, NO_SELECT]) == NO_SELECT


def test_send_cases_need_select():
    with pytest.raises(ValueError, match="select_send needs select"):
        Capabilities(select=False, select_send=True)


def test_unbounded_channels_need_buffered_ones_and_are_stored_only_when_on():
    with pytest.raises(ValueError, match="unbounded needs buffered"):
        Capabilities(buffered=False, unbounded=True)
    both = Capabilities(buffered=True, close=True, unbounded=True)
    assert "unbounded" not in FULL.as_dict()  # rows stored before it say {} for FULL
    assert both.as_dict()["unbounded"] is True
    assert Capabilities.from_dict(both.as_dict()) == both
    assert Capabilities.shared([both, FULL]) == FULL
    assert both.describe().endswith("; buffered and unbounded channels, close and range")

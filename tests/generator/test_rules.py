"""Generation, expansion and reordering rules: termination, weights, determinism."""

import dataclasses
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from generator.effects import Select, Spawn, channels, count_spawns, parse, to_text, walk
from generator.rules import generate_effect
from generator.settings import (
    EXPANSION_RULES,
    GENERATION_RULES,
    PRESETS,
    REORDERING_RULES,
    RULES,
    GeneratorSettings,
    settings_for,
)
from generator.termination import check_effect

SEEDS = st.integers(0, 2**63 - 1)


@pytest.mark.parametrize("heuristic", sorted(PRESETS))
@given(seed=SEEDS)
def test_every_generated_effect_terminates(heuristic, seed):
    effect = generate_effect(random.Random(seed), PRESETS[heuristic]).effect
    verdict = check_effect(effect)
    assert verdict.terminating is True, f"{to_text(effect)}\n{verdict.counterexample.describe()}"
    assert parse(to_text(effect)) == effect


@given(seed=SEEDS)
def test_larger_settings_still_terminate(seed):
    big = settings_for("A", max_depth=4, max_channels=10, max_processes=10, rewrite_steps=6)
    effect = generate_effect(random.Random(seed), big).effect
    assert check_effect(effect).terminating is True


def test_same_seed_same_effect_byte_for_byte():
    for heuristic, settings in PRESETS.items():
        for seed in range(50):
            a = generate_effect(random.Random(seed), settings)
            b = generate_effect(random.Random(seed), settings)
            assert to_text(a.effect) == to_text(b.effect), heuristic
            assert a.fired == b.fired


def test_different_seeds_give_different_effects():
    texts = {to_text(generate_effect(random.Random(s), PRESETS["A"]).effect) for s in range(200)}
    assert len(texts) > 150


def _fired(settings: GeneratorSettings, seeds: int = 400) -> set[str]:
    fired: set[str] = set()
    for seed in range(seeds):
        fired.update(generate_effect(random.Random(seed), settings).fired)
    return fired


def test_every_rule_with_weight_fires():
    assert _fired(PRESETS["A"]) == set(RULES)


@pytest.mark.parametrize("rule", [r for r in RULES if r != "g_final"])
def test_weight_zero_disables_the_rule(rule):
    settings = dataclasses.replace(PRESETS["A"], **{rule: 0})
    fired = _fired(settings, seeds=300)
    assert rule not in fired
    # ...and the others still fire, so the absence means something.
    assert len(fired) >= len(RULES) - 3


def test_preset_e_uses_only_g_select_to_generate():
    fired = _fired(PRESETS["E"])
    assert fired & set(GENERATION_RULES) == {"g_select"}
    assert set(EXPANSION_RULES) <= fired
    assert set(REORDERING_RULES) <= fired


def test_preset_d_never_builds_a_select_from_g_select():
    fired = _fired(PRESETS["D"])
    assert "g_select" not in fired


def test_preset_weights_match_table_2():
    f = PRESETS["F"]
    assert [f.weight(r) for r in GENERATION_RULES] == [1, 1, 1, 2, 2, 2, 15]
    assert {PRESETS["B"].weight(r) for r in REORDERING_RULES} == {0}
    assert {PRESETS["C"].weight(r) for r in EXPANSION_RULES} == {0}
    assert {PRESETS["E"].weight(r) for r in GENERATION_RULES[:-1]} == {0}


def test_default_sizes_look_like_the_papers_programs():
    chans, procs = [], []
    for seed in range(500):
        effect = generate_effect(random.Random(seed), PRESETS["A"]).effect
        chans.append(len(channels(effect)))
        procs.append(count_spawns(effect) + 1)
    chans.sort()
    procs.sort()
    # Median program: a handful of channels and processes (paper: 3–6 and 2–6).
    assert 2 <= chans[250] <= 6
    assert 2 <= procs[250] <= 7
    assert all(c >= 1 for c in chans)


def test_g_select_servers_each_touch_one_channel():
    settings = settings_for("E", rewrite_steps=0)
    for seed in range(200):
        effect = generate_effect(random.Random(seed), settings).effect
        for node in walk(effect):
            if isinstance(node, Spawn):
                assert len(channels(node)) == 1
            if isinstance(node, Select):
                # every select of G-Select communicates once on each of its channels
                assert all(
                    sorted(channels(case.body) + [case.chan]) == sorted(channels(node))
                    for case in node.cases
                )


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"g_seq": -1}, "weight G-Seq"),
        ({"max_depth": 0}, "max_depth"),
        ({"max_channels": 10_000}, "max_channels"),
        (
            {
                "g_seq": 0,
                "g_choice": 0,
                "g_spawn": 0,
                "g_pingpong": 0,
                "g_fanout": 0,
                "g_pipeline": 0,
                "g_select": 0,
            },
            "at least one generation rule",
        ),
        ({"nonsense": 1}, "unknown setting"),
    ],
)
def test_bad_settings_are_rejected_with_a_clear_message(overrides, message):
    with pytest.raises(ValueError, match=message):
        settings_for("A", **overrides)


def test_unknown_heuristic_is_rejected():
    with pytest.raises(ValueError, match="unknown heuristic 'Z'"):
        settings_for("Z")

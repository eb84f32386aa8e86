"""The `buffered` setting: generated programs widened beyond the paper, still proved."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from generator import lambda_chan, typecheck
from generator.buffering import MAX_CAPACITY, widen
from generator.capabilities import FULL, Capabilities
from generator.effects import (
    UNBOUNDED,
    ChanE,
    Close,
    Range,
    parse,
    to_text,
    uses_extension,
    walk,
)
from generator.pipeline import generate_program
from generator.settings import PRESETS, GeneratorSettings, settings_for
from generator.termination import check_effect
from tests.generator.reference_semantics import terminates_extended

BUFFERED_ONLY = Capabilities(buffered=True, close=False)
CLOSE_ONLY = Capabilities(buffered=False, close=True)

presets = st.sampled_from(sorted(PRESETS))
seeds = st.integers(0, 2**32)


def _kinds(effect) -> set[str]:
    kinds = set()
    for node in walk(effect):
        if isinstance(node, ChanE) and node.capacity:
            kinds.add("buffered")
        elif isinstance(node, Close):
            kinds.add("close")
        elif isinstance(node, Range):
            kinds.add("range")
    return kinds


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seeds, presets)
def test_every_buffered_program_is_proved_terminating_and_typed(seed: int, preset: str) -> None:
    g = generate_program(seed, settings_for(preset, buffered=True))
    verdict = check_effect(g.effect)
    assert verdict.terminating is True, to_text(g.effect)
    typecheck.check_has_effect(g.program, g.effect)
    for node in walk(g.effect):
        if isinstance(node, ChanE):
            assert 0 <= node.capacity <= MAX_CAPACITY


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seeds, st.sampled_from("ABCD"))
def test_small_buffered_programs_terminate_under_the_naive_interpreter(
    seed: int, preset: str
) -> None:
    small = settings_for(preset, buffered=True, max_processes=2, max_n=2, rewrite_steps=1)
    g = generate_program(seed, small)
    assert terminates_extended(g.effect), to_text(g.effect)


@given(seeds, presets)
@settings(max_examples=60, deadline=None)
def test_a_seed_reproduces_the_same_buffered_program(seed: int, preset: str) -> None:
    s = settings_for(preset, buffered=True)
    first, second = generate_program(seed, s), generate_program(seed, s)
    assert lambda_chan.to_text(first.program) == lambda_chan.to_text(second.program)
    assert first.program.capacities == second.program.capacities


@given(seeds, presets)
@settings(max_examples=60, deadline=None)
def test_without_the_setting_programs_stay_in_the_paper_fragment(seed: int, preset: str) -> None:
    g = generate_program(seed, settings_for(preset))
    assert not uses_extension(g.effect) and g.program.capacities == ()


def test_the_setting_widens_most_programs_with_every_construct() -> None:
    counts = {"buffered": 0, "close": 0, "range": 0}
    for seed in range(200):
        for kind in _kinds(generate_program(seed, settings_for("A", buffered=True)).effect):
            counts[kind] += 1
    # Measured at about 75 %, 60 % and 25 % of programs: each construct is common.
    assert counts["buffered"] > 100 and counts["close"] > 60 and counts["range"] > 20, counts


@pytest.mark.parametrize(
    ("capabilities", "allowed"),
    [
        (BUFFERED_ONLY, {"buffered"}),
        (CLOSE_ONLY, {"close", "range"}),
        (Capabilities(), set()),
    ],
)
def test_only_what_the_target_can_express_is_added(capabilities, allowed) -> None:
    seen: set[str] = set()
    for seed in range(60):
        seen |= _kinds(
            generate_program(seed, settings_for("A", buffered=True), capabilities).effect
        )
    assert seen == allowed


def test_a_widening_that_fails_its_proof_is_undone() -> None:
    # Buffering c lets the select take its send case with nobody to receive it: the
    # proof fails for every capacity, so the channel must stay unbuffered.
    effect = parse("Spawn(Get(d)) ; (SelPut(c, eps) (+) SelPut(d, eps)) ; Spawn(Get(c)) ; Put(c)")
    assert check_effect(effect).terminating is True
    for seed in range(30):
        widened = widen(effect, random.Random(seed), FULL)
        assert check_effect(widened).terminating is True
        assert "c" not in {n.chan for n in walk(widened) if isinstance(n, ChanE) and n.capacity}


def test_the_setting_is_stored_only_when_on() -> None:
    assert "buffered" not in GeneratorSettings().as_dict()
    on = settings_for("B", buffered=True)
    assert on.as_dict()["buffered"] is True
    assert GeneratorSettings(**on.as_dict()) == on


def test_a_setting_that_is_not_a_boolean_is_refused() -> None:
    with pytest.raises(ValueError, match="buffered must be true or false"):
        settings_for("A", buffered=1)


@given(seeds, presets)
@settings(max_examples=100, deadline=None)
def test_a_buffered_program_prints_as_effect_text_that_parses_back(seed: int, preset: str) -> None:
    g = generate_program(seed, settings_for(preset, buffered=True))
    assert parse(to_text(g.effect)) == g.effect


# ---------------------------------------------------------------- unbounded channels

UNBOUNDED_TOO = Capabilities(buffered=True, close=True, unbounded=True)


def _unbounded(effect) -> set[str]:
    return {n.chan for n in walk(effect) if isinstance(n, ChanE) and n.capacity == UNBOUNDED}


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seeds, presets)
def test_unbounded_channels_are_proved_terminating_and_typed(seed: int, preset: str) -> None:
    g = generate_program(seed, settings_for(preset, buffered=True), UNBOUNDED_TOO)
    assert check_effect(g.effect).terminating is True, to_text(g.effect)
    typecheck.check_has_effect(g.program, g.effect)
    for c in _unbounded(g.effect):
        assert g.program.capacity(c) == UNBOUNDED
        assert f"chan[unbounded] {c}" in lambda_chan.to_text(g.program)


def test_only_a_target_with_unbounded_channels_gets_them() -> None:
    """About a third of the buffered channels, and for the others the programs of before:
    their rng never draws for it."""
    made = buffered = 0
    for seed in range(200):
        settings = settings_for("A", buffered=True)
        with_them = generate_program(seed, settings, UNBOUNDED_TOO).effect
        without = generate_program(seed, settings, FULL).effect
        assert not _unbounded(without)
        made += len(_unbounded(with_them))
        buffered += sum(1 for n in walk(with_them) if isinstance(n, ChanE) and n.capacity)
    assert 0.2 < made / buffered < 0.45, (made, buffered)


def test_a_failed_proof_tries_the_drawn_capacity_before_dropping_buffers() -> None:
    """A send case of a select on an unbounded channel can always go: here main's own
    buffered message leaves no room in c at capacity 1, so its select must take d's case,
    while unbounded it may take c's, and p1's send on d then waits for ever."""
    body = "Spawn(Put(d)) ; Put(c) ; SelPut(c, Get(c) ; Get(c)) (+) SelGet(d, Get(c))"
    effect = parse(body)
    unbounded = parse(f"Chan(c, unbounded) ; Chan(d, unbounded) ; {body}")
    assert check_effect(unbounded).terminating is False

    class Draws(random.Random):
        """Every channel buffered with capacity 1, then made unbounded; the rest as drawn."""

        def random(self) -> float:
            return 0.0

        def randint(self, a: int, b: int) -> int:
            return 1

    widened = widen(effect, Draws(), Capabilities(buffered=True, unbounded=True))
    assert check_effect(widened).terminating is True
    assert {n.chan: n.capacity for n in walk(widened) if isinstance(n, ChanE)} == {"c": 1, "d": 1}

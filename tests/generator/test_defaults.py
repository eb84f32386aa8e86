"""Selects with a default (generator.defaults): proved, reproducible, and only where the
target can write them; the checker's semantics of a default against a naive interpreter."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from generator import defaults, lambda_chan, typecheck
from generator.capabilities import FULL, Capabilities
from generator.defaults import with_defaults
from generator.effects import EPS, Select, Seq, has_default, parse, to_text, walk
from generator.pipeline import generate_program
from generator.settings import PRESETS, settings_for
from generator.synthesis import synthesize
from generator.termination import DefaultEvent, check_effect
from tests.generator.reference_semantics import terminates_extended

WITH_DEFAULT = Capabilities(buffered=True, close=True, select_default=True)

presets = st.sampled_from(sorted(PRESETS))
seeds = st.integers(0, 2**32)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seeds, presets)
def test_every_program_with_defaults_is_proved_terminating_and_typed(
    seed: int, preset: str
) -> None:
    g = generate_program(seed, settings_for(preset, buffered=True), WITH_DEFAULT)
    assert check_effect(g.effect).terminating is True, to_text(g.effect)
    typecheck.check_has_effect(g.program, g.effect)
    assert parse(to_text(g.effect)) == g.effect


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seeds, st.sampled_from("ABCD"))
def test_small_programs_with_defaults_terminate_under_the_naive_interpreter(
    seed: int, preset: str
) -> None:
    small = settings_for(preset, buffered=True, max_processes=2, max_n=2, rewrite_steps=1)
    g = generate_program(seed, small, WITH_DEFAULT)
    assert terminates_extended(g.effect), to_text(g.effect)


@given(seeds, presets)
@settings(max_examples=40, deadline=None)
def test_a_seed_reproduces_the_same_program_with_defaults(seed: int, preset: str) -> None:
    s = settings_for(preset, buffered=True)
    first, second = (generate_program(seed, s, WITH_DEFAULT) for _ in range(2))
    assert lambda_chan.to_text(first.program) == lambda_chan.to_text(second.program)


def test_most_programs_get_a_default_and_some_need_it() -> None:
    generated = [
        generate_program(seed, settings_for(preset, buffered=True), WITH_DEFAULT)
        for preset in "ADF"
        for seed in range(20)
    ]
    with_default = [g for g in generated if has_default(g.effect)]
    assert len(with_default) >= len(generated) // 2
    # Work first: the default does the moved step, then the communication (a poll's
    # default is the communication alone).
    work_first = [
        g
        for g in with_default
        if any(isinstance(n, Select) and isinstance(n.default, Seq) for n in walk(g.effect))
    ]
    assert work_first


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_targets_that_cannot_write_a_default_get_none(preset: str) -> None:
    for seed in range(10):
        for caps in (FULL, Capabilities(buffered=True, close=False)):
            g = generate_program(seed, settings_for(preset, buffered=True), caps)
            assert not has_default(g.effect)
        # Without the `buffered` setting nothing beyond the paper is added.
        assert not has_default(generate_program(seed, PRESETS[preset], WITH_DEFAULT).effect)


def test_a_poll_keeps_the_communication_either_way() -> None:
    effect = parse("Spawn(Put(c)) ; Get(c)")
    # Both communications drawn, neither work first (there is no step before either).
    rewritten = with_defaults(effect, _Scripted([0.0, 0.9, 0.0, 0.9]))
    assert rewritten == parse("Spawn(SelPut(c, eps) (+) Default(Put(c))) ; "
                              "SelGet(c, eps) (+) Default(Get(c))")  # fmt: skip
    assert check_effect(rewritten).terminating is True


# p1 sends on c only after main's send on d: when main tries c first, only its default
# can make progress (a runtime that blocks there instead hangs the program).
NEEDS_THE_DEFAULT = "Spawn(Get(d) ; Put(c)) ; Put(d) ; Get(c)"
# Communications in pre-order: Get(d), Put(c), Put(d), Get(c); only the last, work first.
LAST_WORK_FIRST = [0.9, 0.9, 0.9, 0.0, 0.0]


def test_work_first_moves_the_step_before_into_the_cases() -> None:
    rewritten = with_defaults(parse(NEEDS_THE_DEFAULT), _Scripted(LAST_WORK_FIRST))
    assert rewritten == parse(
        "Spawn(Get(d) ; Put(c)) ; SelGet(c, Put(d)) (+) Default(Put(d) ; Get(c))"
    )
    verdict = check_effect(rewritten)
    assert verdict.terminating is True


def test_a_work_first_rewrite_that_fails_its_proof_becomes_a_poll(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    proved = []
    monkeypatch.setattr(defaults, "_proved", lambda e: proved.append(e) or len(proved) > 1)
    rewritten = with_defaults(parse(NEEDS_THE_DEFAULT), _Scripted(LAST_WORK_FIRST))
    assert rewritten == parse(
        "Spawn(Get(d) ; Put(c)) ; Put(d) ; SelGet(c, eps) (+) Default(Get(c))"
    )
    # And when neither is proved, the effect stays as it was.
    monkeypatch.setattr(defaults, "_proved", lambda e: False)
    effect = parse(NEEDS_THE_DEFAULT)
    assert with_defaults(effect, _Scripted(LAST_WORK_FIRST)) == effect


def test_a_dead_case_is_tried_first_on_a_fresh_channel() -> None:
    effect = parse("Spawn(Put(c)) ; Get(c)")
    # Put(c) not drawn; Get(c) drawn, with a dead case (between work first and poll).
    rewritten = with_defaults(effect, _Scripted([0.9, 0.0, 0.45]))
    assert rewritten == parse("Spawn(Put(c)) ; SelGet(z1, eps) (+) Default(Get(c))")
    assert check_effect(rewritten).terminating is True
    # The fresh channel is one the effect does not have.
    taken = parse("Spawn(Put(z1)) ; Get(z1)")
    assert to_text(with_defaults(taken, _Scripted([0.9, 0.0, 0.45]))) == (
        "Spawn(Put(z1)) ; SelGet(z2, eps) (+) Default(Get(z1))"
    )


def test_a_must_go_rewrite_is_kept_where_the_buffer_always_has_room() -> None:
    effect = parse("Chan(c, 1) ; Spawn(Get(c)) ; Put(c)")
    # Get(c) not drawn; Put(c) drawn, not work first, must go.
    rewritten = with_defaults(effect, _Scripted([0.9, 0.0, 0.9, 0.0]))
    assert rewritten == parse("Chan(c, 1) ; Spawn(Get(c)) ; SelPut(c, eps) (+) Default(eps)")
    # A runtime whose capacity-1 channel is a rendezvous may run the default: p1 then waits
    # forever. The checker, for the real semantics, proves the default never runs.
    assert check_effect(rewritten).terminating is True
    assert (
        check_effect(parse("Spawn(Get(c)) ; SelPut(c, eps) (+) Default(eps)")).terminating is False
    )


def test_a_must_go_rewrite_the_buffer_may_refuse_becomes_a_poll() -> None:
    # The second put may find the first message still in the buffer.
    effect = parse("Chan(c, 1) ; Spawn(Get(c) ; Get(c)) ; Put(c) ; Put(c)")
    rewritten = with_defaults(effect, _Scripted([0.9, 0.9, 0.9, 0.0, 0.9, 0.0]))
    expected = "Chan(c, 1) ; Spawn(Get(c) ; Get(c)) ; Put(c) ; SelPut(c, eps) (+) Default(Put(c))"
    assert rewritten == parse(expected)


def test_some_generated_programs_must_go() -> None:
    generated = [
        generate_program(seed, settings_for(preset, buffered=True), WITH_DEFAULT).effect
        for preset in "ABF"
        for seed in range(40)
    ]
    must_go = [
        e for e in generated if any(isinstance(n, Select) and n.default == EPS for n in walk(e))
    ]
    assert len(must_go) >= len(generated) // 20


class _Scripted(random.Random):
    """An rng whose `random()` answers from a script (then 0.9: nothing more drawn)."""

    def __init__(self, script: list[float]) -> None:
        super().__init__(0)
        self.script = list(script)

    def random(self) -> float:
        return self.script.pop(0) if self.script else 0.9


@pytest.mark.parametrize(
    ("text", "terminating"),
    [
        # A buffered message waits: the default is refused, the case taken.
        ("Chan(c, 1) ; Put(c) ; SelGet(c, eps) (+) Default(Put(d))", True),
        # Poll, then wait: either way one receive.
        ("Chan(c, 1) ; Spawn(Put(c)) ; SelGet(c, eps) (+) Default(Get(c))", True),
        # A partner on an unbuffered channel may not be there yet: the default can run.
        ("Spawn(Put(c)) ; SelGet(c, eps) (+) Default(eps)", False),
        # Only the default can make progress, and it does.
        ("Spawn(Get(d) ; Put(c)) ; SelGet(c, eps) (+) Default(Put(d) ; Get(c))", True),
        # An empty buffer with room: the send case is taken, never the default.
        ("Chan(c, 1) ; SelPut(c, eps) (+) Default(Put(d)) ; Get(c)", True),
        # A closed channel's receive case is ready: the default cannot run.
        ("Chan(c) ; Close(c) ; SelGet(c, eps) (+) Default(Get(d))", True),
    ],
)
def test_the_checker_runs_a_default_only_when_no_case_can_go_alone(
    text: str, terminating: bool
) -> None:
    effect = parse(text)
    verdict = check_effect(effect)
    assert verdict.terminating is terminating, verdict.counterexample
    assert terminates_extended(effect) is terminating
    if not terminating:
        assert any(isinstance(e, DefaultEvent) for e in verdict.counterexample.events)


def test_a_default_is_written_back_by_synthesis_and_inferred_by_the_typechecker() -> None:
    effect = parse("Spawn(Get(d) ; Put(c)) ; SelGet(c, eps) (+) Default(Put(d) ; Get(c))")
    program = synthesize(effect, random.Random(3))
    typecheck.check_has_effect(program, effect)
    assert "default =>" in lambda_chan.to_text(program)

"""The termination checker: the paper's programs, deadlocks with traces, and agreement
with a naive interpreter on arbitrary effects."""

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from generator import lambda_chan as lc
from generator.effects import EPS, Get, Put, channels, parse
from generator.rules import generate_effect, positions, replace_at
from generator.settings import settings_for
from generator.termination import (
    ChoiceEvent,
    SpawnEvent,
    SyncEvent,
    behaviour,
    check_effect,
    check_program,
)
from tests.generator.reference_semantics import terminates
from tests.generator.strategies import effects

PAPER_PROGRAMS = {
    "flix-1": "Spawn(Put(c1)) ; Spawn(Put(c3)) ; Spawn(Put(c2)) ; SelGet(c2, Get(c1) ; Get(c3))"
    " ⊕ SelGet(c2, Get(c1) ; (SelGet(c3, ε) ⊕ SelGet(c3, ε)))"
    " ⊕ SelGet(c1, Get(c2) ; (SelGet(c3, ε) ⊕ SelGet(c3, ε)))",
    "flix-2": "Spawn(SelGet(c3, Put(c4)) ⊕ SelGet(c3, Put(c4))) ; Spawn(Get(c2) ; Put(c3)) ;"
    " Spawn(Get(c1) ; Put(c2)) ; Put(c1) ; Get(c4)",
    "crystal": "Spawn(Get(c1)) ; Spawn(SelGet(c3, ε) ⊕ SelGet(c3, ε)) ; Spawn(Put(c2)) ;"
    " SelPut(c3, Put(c1) ; Get(c2)) ⊕ SelPut(c3, Put(c1) ; Get(c2))",
    "kotlin": "Spawn(SelGet(c5, ε) ⊕ SelGet(c5, ε) ⊕ SelGet(c5, ε)) ; Spawn(Get(c4)) ;"
    " Spawn(Get(c3)) ; Spawn(Put(c2)) ; Spawn(Put(c1)) ;"
    " SelGet(c2, Put(c4) ; Get(c1) ; Put(c5) ; Put(c3))"
    " ⊕ SelPut(c5, Get(c2) ; Put(c3) ; Get(c1) ; Put(c4))"
    " ⊕ SelPut(c3, Get(c1) ; Get(c2) ; Put(c4) ; Put(c5))",
    "spec-8a": "Spawn(SelGet(c1, eps) (+) SelGet(c1, eps)) ; Spawn(Put(c2)) ;"
    " SelPut(c1, Get(c2)) (+) SelGet(c2, Put(c1))",
}


@pytest.mark.parametrize("name", PAPER_PROGRAMS)
def test_paper_programs_terminate(name):
    verdict = check_effect(parse(PAPER_PROGRAMS[name]))
    assert verdict.terminating is True
    assert verdict.counterexample is None
    assert verdict.states > 0


def test_choice_where_a_select_was_needed_deadlocks_with_trace():
    # A choice commits before anyone is ready; a select would wait for c1.
    verdict = check_effect(parse("Spawn(Put(c1)) ; (Get(c1) + Get(c2))"))
    assert verdict.terminating is False
    trace = verdict.counterexample
    assert trace.events == (SpawnEvent("main", "p1"), ChoiceEvent("main", 1, 2))
    assert {(b.process, b.waits_for) for b in trace.blocked} == {
        ("main", "Get(c2)"),
        ("p1", "Put(c1)"),
    }


def test_same_effect_with_select_terminates():
    assert check_effect(parse("Spawn(Put(c1)) ; SelGet(c1, eps) (+) SelGet(c2, eps)")).terminating


def test_spawned_process_left_blocked_is_a_deadlock():
    verdict = check_effect(parse("Spawn(Put(c1)) ; Spawn(Get(c2) ; Put(c1)) ; Get(c1)"))
    assert verdict.terminating is False
    blocked = {b.process: b.waits_for for b in verdict.counterexample.blocked}
    assert blocked == {"p2": "Get(c2)"} or blocked == {"p1": "Put(c1)", "p2": "Get(c2)"}


def test_process_blocked_in_a_spawned_process_only():
    verdict = check_effect(parse("Spawn(Get(c1))"))
    assert verdict.terminating is False
    assert verdict.counterexample.blocked[0].process == "p1"


def test_pipeline_in_wrong_order_deadlocks():
    # G-Pipeline puts on c0 before getting from c1; the reverse order waits forever.
    verdict = check_effect(parse("Spawn(Get(c0) ; Put(c1)) ; Get(c1) ; Put(c0)"))
    assert verdict.terminating is False
    assert {b.waits_for for b in verdict.counterexample.blocked} == {"Get(c1)", "Get(c0)"}


def test_pipeline_in_right_order_terminates():
    assert check_effect(parse("Spawn(Get(c0) ; Put(c1)) ; Put(c0) ; Get(c1)")).terminating


def test_deadlock_trace_lists_synchronisations_in_order():
    verdict = check_effect(parse("Spawn(Get(c1) ; Put(c2) ; Get(c3)) ; Put(c1) ; Get(c2)"))
    assert verdict.terminating is False
    syncs = [e for e in verdict.counterexample.events if isinstance(e, SyncEvent)]
    assert [(s.chan, s.putter, s.getter) for s in syncs] == [
        ("c1", "main", "p1"),
        ("c2", "p1", "main"),
    ]
    text = verdict.counterexample.describe()
    assert "main sends on c1 to p1" in text
    assert "p1 waits for Get(c3)" in text


def test_persistent_set_takes_in_a_process_that_reaches_the_channel_later():
    # p2 offers only c4 now and puts on c2 later. main's select offers c1 (to p1) and
    # c2: if main takes p2's c2 first, p1 waits for ever on c1. A persistent set grown
    # from what each process offers now (not every channel it may still touch) leaves
    # p2 out of {main, p1}, explores only the c1 synchronisation and misses the deadlock.
    effect = parse(
        "Spawn(Get(c1)) ; Spawn(Spawn(Get(c3)) ; Spawn(Put(c4)) ; Get(c4) ; Put(c3) ; Put(c2)) ;"
        " SelPut(c1, Get(c2)) (+) SelGet(c2, eps) (+) SelGet(c2, eps)"
    )
    assert terminates(effect) is False
    verdict = check_effect(effect)
    assert verdict.terminating is False
    trace = verdict.counterexample
    assert [(b.process, b.waits_for) for b in trace.blocked] == [("p1", "Get(c1)")]
    syncs = [(e.chan, e.getter, e.putter) for e in trace.events if isinstance(e, SyncEvent)]
    assert syncs[-1] == ("c2", "main", "p2")
    assert ("c1", "p1", "main") not in syncs


def test_select_against_select_synchronises():
    verdict = check_effect(parse("Spawn(SelPut(c1, eps) (+) SelPut(c2, eps)) ; SelGet(c1, eps)"))
    assert verdict.terminating is True


def test_two_gets_one_put_deadlocks():
    verdict = check_effect(parse("Spawn(Get(c1)) ; Spawn(Get(c1)) ; Put(c1)"))
    assert verdict.terminating is False


def test_a_process_cannot_synchronise_with_itself():
    verdict = check_effect(parse("SelGet(c1, eps) (+) SelPut(c1, eps)"))
    assert verdict.terminating is False


def test_state_limit_gives_undecided():
    many = " ; ".join(["Spawn(Put(c1) ; Put(c2))"] * 6 + ["Get(c1)"] * 6 + ["Get(c2)"] * 6)
    assert check_effect(parse(many)).terminating is True
    verdict = check_effect(parse(many), max_states=3)
    assert verdict.terminating is None
    assert verdict.label == "undecided"


@given(effects(max_leaves=9))
def test_checker_agrees_with_naive_interpreter(effect):
    verdict = check_effect(effect)
    assert verdict.terminating == terminates(effect)


@given(effects(max_leaves=9))
def test_counterexample_blocked_processes_really_wait_on_something(effect):
    verdict = check_effect(effect)
    if verdict.terminating is False:
        assert verdict.counterexample.blocked
        for b in verdict.counterexample.blocked:
            assert b.channels


def test_program_behaviour_takes_the_branch_its_condition_gives():
    program = lc.Program(
        ("c1",),
        lc.Then(
            lc.SpawnE(lc.Send("c1")),
            lc.If(lc.Compare("<", 2, 1), lc.Unit(), lc.Recv("c1")),
        ),
    )
    assert check_program(program).terminating is True
    flipped = lc.Program(
        program.channels,
        lc.Then(lc.SpawnE(lc.Send("c1")), lc.If(lc.Compare("<", 1, 2), lc.Unit(), lc.Recv("c1"))),
    )
    assert behaviour(flipped) == parse("Spawn(Put(c1))")
    assert check_program(flipped).terminating is False


def _mutate(effect, rng):
    """One small change that usually breaks termination: flip, rename or drop one operation."""
    sites = [(p, n) for p, n in positions(effect) if isinstance(n, Get | Put)]
    if not sites:
        return effect
    path, node = rng.choice(sites)
    roll = rng.randrange(3)
    if roll == 0:
        new = Put(node.chan) if isinstance(node, Get) else Get(node.chan)
    elif roll == 1:
        new = type(node)(rng.choice(channels(effect)))
    else:
        new = EPS
    return replace_at(effect, path, new)


SMALL = settings_for("A", max_channels=3, max_processes=3, max_n=1, max_depth=2, rewrite_steps=2)


@given(st.integers(0, 2**32 - 1))
def test_checker_agrees_with_naive_interpreter_on_mutated_generated_effects(seed):
    rng = random.Random(seed)
    effect = _mutate(generate_effect(rng, SMALL).effect, rng)
    assert check_effect(effect).terminating == terminates(effect)

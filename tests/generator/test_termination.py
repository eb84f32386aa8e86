"""The termination checker: the paper's programs, deadlocks with traces, and agreement
with a naive interpreter on arbitrary effects."""

import random
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

from generator import lambda_chan as lc
from generator import termination
from generator.effects import EPS, Get, Put, channels, parse
from generator.rules import generate_effect, positions, replace_at
from generator.settings import settings_for
from generator.termination import (
    Blocked,
    ChoiceEvent,
    Counterexample,
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


# ---------------------------------------------------------------- exact verdicts and traces


def test_nested_spawns_are_named_after_their_parent():
    verdict = check_effect(parse("Spawn(Spawn(Put(c1)) ; Spawn(Get(c2))) ; Get(c1)"))
    assert verdict.terminating is False
    trace = verdict.counterexample
    assert trace.events == (
        SpawnEvent("main", "p1"),
        SpawnEvent("p1", "p1.1"),
        SpawnEvent("p1", "p1.2"),
    )
    assert trace.blocked == (Blocked("p1.2", "Get(c2)", ("c2",)),)
    assert trace.processes() == ["main", "p1", "p1.1", "p1.2"]


def test_a_deadlock_right_away_names_every_stuck_process_of_every_component():
    verdict = check_effect(parse("Spawn(Get(c1)) ; Spawn(Get(c2)) ; Put(c3)"))
    assert (verdict.terminating, verdict.states) == (False, 1)
    assert verdict.counterexample.blocked == (
        Blocked("p1", "Get(c1)", ("c1",)),
        Blocked("p2", "Get(c2)", ("c2",)),
        Blocked("main", "Put(c3)", ("c3",)),
    )


def test_a_choice_that_can_still_go_on_is_not_named_stuck():
    # Two components; the first deadlocks at once, the second (a choice) is not stuck yet.
    verdict = check_effect(parse("Spawn(Get(c1)) ; Spawn(Put(c2) + Put(c2)) ; Get(c2)"))
    assert verdict.terminating is False
    assert verdict.counterexample.blocked == (Blocked("p1", "Get(c1)", ("c1",)),)


def test_select_cases_are_named_in_the_synchronisation():
    verdict = check_effect(
        parse(
            "Spawn(SelPut(c1, eps) (+) SelPut(c2, Get(c9))) ; SelGet(c3, eps) (+) SelGet(c2, eps)"
        )
    )
    assert (verdict.terminating, verdict.states) == (False, 2)
    trace = verdict.counterexample
    assert trace.events == (
        SpawnEvent("main", "p1"),
        SyncEvent("c2", getter="main", putter="p1", getter_case=1, putter_case=1),
    )
    assert trace.describe() == (
        "trace:\n"
        "  1. main spawns p1\n"
        "  2. p1 (select case 2) sends on c2 to main (select case 2)\n"
        "blocked forever:\n"
        "  p1 waits for Get(c9)"
    )


def test_a_blocked_select_waits_for_its_heads_and_every_channel_they_offer():
    verdict = check_effect(parse("Spawn(Get(c1)) ; SelGet(c3, Put(c1)) (+) SelPut(c2, eps)"))
    assert verdict.terminating is False
    assert verdict.counterexample.blocked == (
        Blocked("main", "SelGet(c3, …) (+) SelPut(c2, …)", ("c2", "c3")),
        Blocked("p1", "Get(c1)", ("c1",)),
    )


def test_describe_cuts_the_trace_after_max_steps():
    verdict = check_effect(parse("Spawn(Put(c1)) ; Spawn(Put(c2)) ; Get(c1) ; Get(c2) ; Get(c3)"))
    trace = verdict.counterexample
    assert trace.describe(max_steps=1) == (
        "trace:\n  1. main spawns p1\n  … 3 more steps\nblocked forever:\n  main waits for Get(c3)"
    )
    assert (
        trace.describe(max_steps=4)
        == trace.describe()
        == (
            "trace:\n"
            "  1. main spawns p1\n"
            "  2. main spawns p2\n"
            "  3. p1 sends on c1 to main\n"
            "  4. p2 sends on c2 to main\n"
            "blocked forever:\n"
            "  main waits for Get(c3)"
        )
    )


def test_describe_without_any_step():
    verdict = check_effect(parse("Get(c1)"))
    assert verdict.counterexample.describe() == (
        "trace:\n  (no step)\nblocked forever:\n  main waits for Get(c1)"
    )
    assert verdict.counterexample.processes() == ["main"]


def test_choice_events_count_options_from_one():
    verdict = check_effect(parse("Get(c1) + Get(c2) + Put(c3)"))
    assert (verdict.terminating, verdict.states) == (False, 2)
    assert verdict.counterexample.events == (ChoiceEvent("main", 0, 3),)
    assert ChoiceEvent("main", 0, 3).describe() == "main takes option 1 of 3 of a choice (+)"
    assert ChoiceEvent("p2", 2, 3).describe() == "p2 takes option 3 of 3 of a choice (+)"


def test_processes_lists_every_name_once_in_order_of_appearance():
    trace = Counterexample(
        events=(
            SpawnEvent("main", "p1"),
            ChoiceEvent("p1", 0, 2),
            SpawnEvent("p1", "p1.1"),
            SyncEvent("c1", getter="p1.1", putter="p2", getter_case=None, putter_case=0),
        ),
        blocked=(Blocked("p3", "Get(c2)", ("c2",)), Blocked("p1", "Get(c1)", ("c1",))),
    )
    assert trace.processes() == ["main", "p1", "p1.1", "p2", "p3"]


@pytest.mark.parametrize(
    ("text", "terminating", "states", "label"),
    [
        ("eps", True, 0, "terminating"),
        ("Spawn(Put(c1)) ; Get(c1)", True, 1, "terminating"),
        ("Spawn(Get(c1)) ; Spawn(Put(c2))", False, 1, "deadlock"),
    ],
)
def test_verdict_counts_the_states_it_explored(text, terminating, states, label):
    verdict = check_effect(parse(text))
    assert (verdict.terminating, verdict.states, verdict.label) == (terminating, states, label)
    assert verdict.undecided_by == ""


def test_state_limit_names_itself_and_counts_one_past_the_limit():
    many = " ; ".join(["Spawn(Put(c1) ; Put(c2))"] * 6 + ["Get(c1)"] * 6 + ["Get(c2)"] * 6)
    verdict = check_effect(parse(many), max_states=3)
    assert (verdict.terminating, verdict.states, verdict.undecided_by) == (None, 4, "state limit")
    assert verdict.counterexample is None


def test_a_single_state_is_a_limit_that_can_decide():
    assert check_effect(parse("Spawn(Put(c1)) ; Get(c1)"), max_states=1).terminating is True
    assert (
        check_effect(
            parse("Spawn(Put(c1)) ; Get(c1) ; Spawn(Put(c1)) ; Get(c1)"), max_states=1
        ).label
        == "undecided"
    )


# 9 spawned puts on c1 met by 9 gets, each put then waiting for its own channel: 520 states.
WIDE_RACE = " ; ".join(
    [f"Spawn(Put(c1) ; Get(c{i}))" for i in range(2, 11)]
    + ["Get(c1)"] * 9
    + [f"Put(c{i})" for i in range(2, 11)]
)


def test_time_limit_gives_undecided_by_time(monkeypatch):
    # Past the deadline from the first reading on: undecided at the first look, state 256.
    clock = iter([0.0] + [100.0] * 10_000)
    monkeypatch.setattr(termination.time, "monotonic", lambda: next(clock))
    verdict = check_effect(parse(WIDE_RACE), time_limit_s=1.0)
    assert (verdict.terminating, verdict.states, verdict.undecided_by) == (None, 256, "time limit")


def test_a_generous_time_limit_decides(monkeypatch):
    clock = iter(range(10_000))
    monkeypatch.setattr(termination.time, "monotonic", lambda: float(next(clock)))
    verdict = check_effect(parse(WIDE_RACE), time_limit_s=1_000.0)
    assert (verdict.terminating, verdict.states, verdict.undecided_by) == (True, 520, "")
    # Just before the deadline at the second reading (state 512) is still in time.
    clock = iter([0.0, 1.0, 2.0] + [0.0] * 10_000)
    monkeypatch.setattr(termination.time, "monotonic", lambda: next(clock))
    assert check_effect(parse(WIDE_RACE), time_limit_s=2.0).terminating is True


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"max_states": 0}, r"^max_states must be at least 1, not 0$"),
        ({"max_states": -5}, r"^max_states must be at least 1, not -5$"),
        ({"time_limit_s": 0}, r"^time_limit_s must be positive, not 0$"),
        ({"time_limit_s": -1.5}, r"^time_limit_s must be positive, not -1.5$"),
    ],
)
def test_limits_must_be_positive(kwargs, message):
    with pytest.raises(ValueError, match=message):
        check_effect(parse("eps"), **kwargs)


def test_the_recursion_limit_is_given_back():
    before = sys.getrecursionlimit()
    check_effect(parse("Spawn(Put(c1)) ; Get(c1)"))
    assert sys.getrecursionlimit() == before


def test_a_long_chain_of_synchronisations_does_not_overflow_the_stack():
    n = 600
    effect = parse(" ; ".join(["Spawn(" + " ; ".join(["Put(c1)"] * n) + ")"] + ["Get(c1)"] * n))
    verdict = check_effect(effect)
    assert (verdict.terminating, verdict.states) == (True, n)


def test_checking_something_else_than_an_effect_is_a_type_error():
    with pytest.raises(TypeError, match=r"^not an effect: 'Get\(c1\)'$"):
        check_effect("Get(c1)")


def test_behaviour_of_every_kind_of_expression():
    program = lc.Program(
        ("c1", "c2"),
        lc.Let(
            "x",
            lc.NewChan("c1"),
            lc.Then(
                lc.SpawnE(lc.Then(lc.Send("c1"), lc.Var("x"))),
                lc.Then(
                    lc.If(lc.BoolLit(True), lc.Recv("c1"), lc.Send("c2")),
                    lc.SelectE(
                        (
                            lc.Case("get", "c2", "y", lc.Unit()),
                            lc.Case("put", "c1", None, lc.Recv("c2")),
                        )
                    ),
                ),
            ),
        ),
    )
    assert behaviour(program) == parse(
        "Chan(c1) ; Spawn(Put(c1)) ; Get(c1) ; SelGet(c2, eps) (+) SelPut(c1, Get(c2))"
    )
    assert check_program(program).terminating is False


def test_behaviour_of_something_else_than_an_expression_is_a_type_error():
    with pytest.raises(TypeError, match=r"^not an expression: 'Recv\(c1\)'$"):
        behaviour(lc.Program(("c1",), "Recv(c1)"))


def test_check_program_passes_its_limits_on():
    program = lc.Program(("c1",), lc.Then(lc.SpawnE(lc.Send("c1")), lc.Recv("c1")))
    assert check_program(program).states == 1
    verdict = check_program(
        lc.Program(
            ("c1",),
            lc.Then(
                lc.SpawnE(lc.Then(lc.Send("c1"), lc.Send("c1"))),
                lc.Then(lc.Recv("c1"), lc.Recv("c1")),
            ),
        ),
        max_states=1,
    )
    assert (verdict.terminating, verdict.undecided_by) == (None, "state limit")
    with pytest.raises(ValueError, match="time_limit_s must be positive"):
        check_program(program, time_limit_s=0)


def test_a_choice_state_reached_twice_is_explored_once():
    # main takes c1 from p1 or from p2: either way the same state (process names are not
    # part of it), whose choice is explored the first time only.
    verdict = check_effect(
        parse("Spawn(Put(c1)) ; Spawn(Put(c1)) ; Get(c1) ; (eps + eps) ; Get(c1)")
    )
    assert (verdict.terminating, verdict.states) == (True, 3)
    verdict = check_effect(
        parse("Spawn(Put(c1) ; (eps + eps)) ; Spawn(Put(c1) ; (eps + eps)) ; Get(c1) ; Get(c1)")
    )
    assert (verdict.terminating, verdict.states) == (True, 3)


def test_a_persistent_set_grows_from_what_its_processes_offer_now_only():
    # Found by a mutant that made every process offer the first channel (c1) too: the
    # verdict stays right, but the sets grow and 15 states are explored instead of 7.
    effect = parse(
        "Spawn(Put(c1)) ; Spawn(Get(c2) ; Get(c2)) ;"
        " Spawn(Spawn(Get(c3)) ; Spawn(Get(c4)) ; Put(c3) ; Put(c4) ; Put(c1)) ;"
        " SelPut(c2, Get(c1)) ; SelPut(c2, SelGet(c1, eps) (+) SelGet(c1, eps))"
        " (+) SelPut(c2, Get(c1))"
    )
    verdict = check_effect(effect)
    assert (verdict.terminating, verdict.states) == (True, 7)


def test_a_sequence_taken_from_a_choice_runs_what_follows_the_choice():
    # The chosen option (a sequence of two spawns) must be followed by Get(c1).
    verdict = check_effect(parse("Spawn(Put(c1)) ; (Spawn(eps) ; Spawn(eps) + eps) ; Get(c1)"))
    assert (verdict.terminating, verdict.states) == (True, 2)


def test_the_persistent_set_is_taken_only_among_seeds_that_can_synchronise():
    # main's select can take c3 from p1.1 at once: a trace that stops there, with main
    # "waiting" for c3 beside p1.1 putting on c3, would be wrong.
    verdict = check_effect(
        parse(
            "Spawn(Spawn(Put(c3) ; Get(c3)) ; Spawn(Put(c2)) ; Put(c2) ; Get(c1) ; (eps + eps)) ;"
            " SelGet(c3, eps) (+) SelGet(c3, eps) ; Put(c3) ; Put(c1)"
        )
    )
    assert (verdict.terminating, verdict.states) == (False, 3)
    assert verdict.counterexample.describe() == (
        "trace:\n"
        "  1. main spawns p1\n"
        "  2. p1 spawns p1.1\n"
        "  3. p1 spawns p1.2\n"
        "  4. p1.1 sends on c3 to main (select case 1)\n"
        "  5. main sends on c3 to p1.1\n"
        "blocked forever:\n"
        "  main waits for Put(c1)\n"
        "  p1 waits for Put(c2)\n"
        "  p1.2 waits for Put(c2)"
    )


def test_among_equally_small_persistent_sets_the_first_is_taken():
    # The counterexample is the same on every run: ties go to the first seed.
    verdict = check_effect(
        parse(
            "Spawn(Spawn(SelPut(c2, eps) (+) SelPut(c2, eps)) ; Put(c1)) ;"
            " Spawn(Spawn(Put(c4)) ; SelGet(c4, eps) (+) SelGet(c4, eps) ; Get(c3)) ;"
            " Get(c2) ; Get(c3) ; Get(c1)"
        )
    )
    assert (verdict.terminating, verdict.states) == (False, 3)
    assert verdict.counterexample.describe() == (
        "trace:\n"
        "  1. main spawns p1\n"
        "  2. p1 spawns p1.1\n"
        "  3. main spawns p2\n"
        "  4. p2 spawns p2.1\n"
        "  5. p1.1 (select case 1) sends on c2 to main\n"
        "  6. p2.1 sends on c4 to p2 (select case 1)\n"
        "blocked forever:\n"
        "  p2 waits for Get(c3)\n"
        "  p1 waits for Put(c1)\n"
        "  main waits for Get(c3)"
    )

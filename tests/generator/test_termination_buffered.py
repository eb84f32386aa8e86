"""The checker for effects beyond the paper: buffered channels, close and range.

Named cases pin each way an execution can go wrong (and the trace that shows
it); the property test compares the checker with a naive interpreter of the
same semantics on arbitrary small effects.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings

from generator.effects import parse, uses_extension
from generator.termination import ChannelEvent, SyncEvent, check_effect
from tests.generator.reference_semantics import terminates_extended
from tests.generator.strategies import extended_effects


def _verdict(text: str):
    effect = parse(text)
    assert uses_extension(effect), "these cases must reach the extended checker"
    return check_effect(effect)


@pytest.mark.parametrize(
    "text",
    [
        "Chan(c, 2) ; Put(c) ; Put(c) ; Get(c) ; Get(c)",
        "Chan(c, 1) ; Spawn(Put(c) ; Put(c) ; Put(c)) ; Get(c) ; Get(c) ; Get(c)",
        "Chan(c, 3) ; Spawn(Put(c) ; Put(c) ; Close(c)) ; Range(c, eps)",
        "Chan(c) ; Spawn(Put(c) ; Put(c) ; Close(c)) ; Range(c, eps)",
        "Chan(c) ; Spawn(Put(c) ; Close(c)) ; Get(c) ; Get(c) ; Get(c)",
        "Chan(c, 2) ; Spawn(Put(c) ; Put(c) ; Close(c)) ; Range(c, Spawn(Get(d))) ; "
        "Put(d) ; Put(d)",
        "Chan(c) ; Close(c) ; (SelGet(c, eps) (+) SelGet(d, eps))",
    ],
)
def test_buffered_close_and_range_effects_terminate(text: str) -> None:
    verdict = _verdict(text)
    assert verdict.terminating is True, verdict.counterexample and verdict.counterexample.describe()


def test_a_full_buffer_blocks_the_sender_forever() -> None:
    verdict = _verdict("Chan(c, 1) ; Put(c) ; Put(c)")
    assert verdict.terminating is False
    trace = verdict.counterexample
    assert trace.events == (ChannelEvent("main", "c", "buffer-put"),)
    assert [(b.process, b.waits_for) for b in trace.blocked] == [("main", "Put(c)")]
    assert trace.problem == ""


def test_a_message_left_in_a_buffer_is_rejected() -> None:
    verdict = _verdict("Chan(c, 1) ; Put(c)")
    assert verdict.terminating is False
    assert verdict.counterexample.problem == "1 message(s) left in c's buffer, never received"
    assert verdict.counterexample.blocked == ()


def test_a_send_on_a_closed_channel_is_rejected_with_the_sender() -> None:
    verdict = _verdict("Chan(c) ; Spawn(Put(c)) ; Close(c)")
    trace = verdict.counterexample
    assert verdict.terminating is False
    assert trace.problem == "p1 sends on c, which is closed"
    assert trace.events[-1] == ChannelEvent("main", "c", "close")


def test_a_select_offering_a_send_on_a_closed_channel_is_rejected() -> None:
    verdict = _verdict("Chan(c, 1) ; Close(c) ; (SelPut(c, eps) (+) SelGet(c, eps))")
    assert verdict.counterexample.problem == "main (select case 1) sends on c, which is closed"


def test_closing_twice_is_rejected() -> None:
    verdict = _verdict("Chan(c) ; Spawn(Close(c)) ; Close(c)")
    assert verdict.terminating is False
    assert "closes c, which is already closed" in verdict.counterexample.problem


def test_a_range_fed_by_its_own_loop_runs_forever() -> None:
    verdict = _verdict(
        "Chan(c, 1) ; Chan(d, 1) ; Put(c) ; Spawn(Range(c, Put(d))) ; Range(d, Put(c))"
    )
    assert verdict.terminating is False
    assert "run forever" in verdict.counterexample.problem


def test_a_range_over_a_channel_nobody_closes_deadlocks() -> None:
    verdict = _verdict("Chan(c) ; Spawn(Put(c)) ; Range(c, eps)")
    trace = verdict.counterexample
    assert verdict.terminating is False
    assert [(b.process, b.waits_for) for b in trace.blocked] == [("main", "Range(c, …)")]
    assert SyncEvent("c", "main", "p1", None, None) in trace.events


def test_a_get_on_a_closed_channel_takes_what_is_buffered_first() -> None:
    # Two puts buffered, then closed: two gets take both messages, the third gets
    # nothing at once; had the close let a get skip a message, one would be left.
    assert _verdict(
        "Chan(c, 2) ; Put(c) ; Put(c) ; Close(c) ; Get(c) ; Get(c) ; Get(c)"
    ).terminating


def test_an_unbuffered_close_does_not_change_the_paper_explorer() -> None:
    # Without a buffer, close or range the paper's explorer decides, as before.
    effect = parse("Chan(c) ; Spawn(Put(c)) ; Get(c)")
    assert not uses_extension(effect)
    assert check_effect(effect).terminating is True


def test_the_state_limit_leaves_it_undecided() -> None:
    verdict = check_effect(
        parse("Chan(c, 1) ; Spawn(Put(c)) ; Spawn(Put(c)) ; Get(c) ; Get(c)"), max_states=1
    )
    assert verdict.terminating is None and verdict.undecided_by == "state limit"


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(extended_effects())
def test_the_checker_agrees_with_the_naive_interpreter(effect) -> None:
    verdict = check_effect(effect, max_states=50_000)
    assert verdict.terminating is not None
    assert verdict.terminating == terminates_extended(effect)


def test_a_send_on_an_unbounded_channel_never_waits() -> None:
    puts = "Put(c) ; Put(c) ; Put(c) ; Get(c) ; Get(c) ; Get(c)"
    assert check_effect(parse(f"Chan(c, unbounded) ; {puts}")).terminating is True
    assert check_effect(parse(f"Chan(c, 2) ; {puts}")).terminating is False
    # As with any buffer, a message nobody receives is a finding, not a quiet end.
    left = check_effect(parse("Chan(c, unbounded) ; Put(c)"))
    assert left.terminating is False
    assert uses_extension(parse("Chan(c, unbounded) ; Put(c) ; Get(c)"))

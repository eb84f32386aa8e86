"""The reducer's search space: every candidate is smaller and proved terminating, and a
greedy walk over candidates ends in a local minimum."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from generator.effects import Select, channels, parse, size, to_text, walk
from generator.pipeline import generate_program
from generator.reduction import (
    _global_edits,
    _local_edits,
    candidates,
    renamed,
    short,
    without_channel,
)
from generator.settings import settings_for
from generator.termination import behaviour, check_effect
from tests.generator.reference_semantics import terminates
from tests.generator.strategies import effects


def _weight(effect) -> tuple[int, int]:  # noqa: ANN001
    return size(effect), len(channels(effect))


@settings(max_examples=150, deadline=None)
@given(effects(max_leaves=7))
def test_every_candidate_is_smaller_and_terminates(effect) -> None:  # noqa: ANN001
    for candidate in candidates(effect):
        assert _weight(candidate.effect) < _weight(effect)
        # The reference interpreter agrees with the checker that let it through.
        assert terminates(candidate.effect), candidate.text


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from("ABCDEF"))
def test_generated_programs_reduce_to_a_minimum_keeping_a_select(seed: int, heuristic: str) -> None:
    # A stand-in for "still fails" that needs no runtime: the effect keeps a select of
    # two or more cases. The walk must end where no single edit keeps it.
    def keeps(e) -> bool:  # noqa: ANN001
        return any(isinstance(n, Select) and len(n.cases) >= 2 for n in walk(e))

    current = behaviour(generate_program(seed, settings_for(heuristic)).program)
    if not keeps(current):
        return
    start = size(current)
    while (step := next((c for c in candidates(current) if keeps(c.effect)), None)) is not None:
        current = step.effect
    assert check_effect(current).terminating is True
    assert keeps(current) and size(current) <= start
    assert not any(keeps(c.effect) for c in candidates(current))


def test_dropping_a_channel_takes_its_select_cases_and_their_bodies() -> None:
    effect = parse("Spawn(Put(a) ; Get(b)) ; SelGet(a, Put(b)) (+) SelGet(c, eps) ; Put(c)")
    assert to_text(without_channel(effect, "a")) == "Spawn(Get(b)) ; SelGet(c, eps) ; Put(c)"
    # A select with no case left is gone, and so is a process with nothing to do.
    assert to_text(without_channel(parse("Spawn(Put(a)) ; SelGet(a, eps)"), "a")) == "eps"


def test_merging_channels_renames_operations_and_cases() -> None:
    effect = parse("Spawn(Put(a)) ; SelGet(b, eps) (+) SelGet(a, Get(b))")
    assert (
        to_text(renamed(effect, "b", "a")) == "Spawn(Put(a)) ; SelGet(a, eps) (+) SelGet(a, Get(a))"
    )


def test_candidates_come_largest_cut_first_in_a_fixed_order() -> None:
    effect = parse("Spawn(Put(c1)) ; Spawn(Put(c2)) ; SelGet(c1, Get(c2)) (+) SelGet(c2, Get(c1))")
    first = [c.text for c in candidates(effect)]
    assert first == [c.text for c in candidates(effect)]
    sizes = [size(parse(t)) for t in first]
    assert sizes == sorted(sizes)
    assert first[0] == "Spawn(Put(c1)) ; SelGet(c1, eps)"


def test_a_deadlocking_effect_offers_no_deadlocking_candidate() -> None:
    stuck = parse("Spawn(Get(c2)) ; Get(c1) ; Put(c2)")
    assert check_effect(stuck).terminating is False
    assert all(check_effect(c.effect).terminating for c in candidates(stuck))


def test_canonical_names_number_channels_in_order_of_first_use() -> None:
    from generator.reduction import canonical_names

    effect = parse("Spawn(Put(c5)) ; SelGet(c2, Get(c5)) (+) SelGet(c5, eps) ; Put(c2)")
    assert to_text(canonical_names(effect)) == (
        "Spawn(Put(c1)) ; SelGet(c2, Get(c1)) (+) SelGet(c1, eps) ; Put(c2)"
    )
    assert canonical_names(parse("Spawn(Put(c1)) ; Get(c1)")) is None
    # c2 -> c1 while a c1 is still to be renamed: through temporary names.
    assert to_text(
        canonical_names(parse("Spawn(Put(c2)) ; Get(c2) ; Spawn(Put(c1)) ; Get(c1)"))
    ) == ("Spawn(Put(c1)) ; Get(c1) ; Spawn(Put(c2)) ; Get(c2)")


# The edits before the termination check (candidates keeps the terminating ones, smaller
# than the effect): what each says is what a reduction's progress shows.


def test_local_edits_in_spawns_sequences_and_choices() -> None:
    # A declaration is never dropped alone (dropping its channel takes it).
    effect = parse("Chan(a, 1) ; Spawn(Put(a) ; Get(b)) ; (Get(a) + Put(b))")
    assert [(what, to_text(new)) for what, new in _local_edits(effect)] == [
        ("drop Spawn(Put(a) ; Get(b)) from a sequence", "Chan(a, 1) ; (Get(a) + Put(b))"),
        ("drop Get(a) + Put(b) from a sequence", "Chan(a, 1) ; Spawn(Put(a) ; Get(b))"),
        ("drop the spawn Spawn(Put(a) ; Get(b))", "Chan(a, 1) ; (Get(a) + Put(b))"),
        (
            "run the spawn Spawn(Put(a) ; Get(b)) in its parent",
            "Chan(a, 1) ; Put(a) ; Get(b) ; (Get(a) + Put(b))",
        ),
        ("drop Put(a) from a sequence", "Chan(a, 1) ; Spawn(Get(b)) ; (Get(a) + Put(b))"),
        ("drop Get(b) from a sequence", "Chan(a, 1) ; Spawn(Put(a)) ; (Get(a) + Put(b))"),
        ("drop Put(a)", "Chan(a, 1) ; Spawn(Get(b)) ; (Get(a) + Put(b))"),
        ("drop Get(b)", "Chan(a, 1) ; Spawn(Put(a)) ; (Get(a) + Put(b))"),
        (
            "keep option 1 of the choice Get(a) + Put(b)",
            "Chan(a, 1) ; Spawn(Put(a) ; Get(b)) ; Get(a)",
        ),
        (
            "keep option 2 of the choice Get(a) + Put(b)",
            "Chan(a, 1) ; Spawn(Put(a) ; Get(b)) ; Put(b)",
        ),
        ("drop Get(a)", "Chan(a, 1) ; Spawn(Put(a) ; Get(b)) ; (eps + Put(b))"),
        ("drop Put(b)", "Chan(a, 1) ; Spawn(Put(a) ; Get(b)) ; (Get(a) + eps)"),
    ]


def test_local_edits_in_selects() -> None:
    effect = parse("SelGet(a, Get(b)) (+) SelPut(b, eps) ; SelGet(b, Put(a))")
    assert [(what, to_text(new)) for what, new in _local_edits(effect)] == [
        ("drop SelGet(a, Get(b)) (+) SelPut(b, eps) from a sequence", "SelGet(b, Put(a))"),
        ("drop SelGet(b, Put(a)) from a sequence", "SelGet(a, Get(b)) (+) SelPut(b, eps)"),
        ("drop the case SelGet(a, Get(b))", "SelPut(b, eps) ; SelGet(b, Put(a))"),
        ("drop the case SelPut(b, eps)", "SelGet(a, Get(b)) ; SelGet(b, Put(a))"),
        ("drop Get(b)", "SelGet(a, eps) (+) SelPut(b, eps) ; SelGet(b, Put(a))"),
        (
            "turn the select SelGet(b, Put(a)) into its one operation",
            "SelGet(a, Get(b)) (+) SelPut(b, eps) ; Get(b) ; Put(a)",
        ),
        ("drop Put(a)", "SelGet(a, Get(b)) (+) SelPut(b, eps) ; SelGet(b, eps)"),
    ]


def test_global_edits_drop_channels_pairs_of_operations_and_merge() -> None:
    # Plain operations in pre-order: Put(a) 0, Get(b) 1, Get(a) 2, Put(b) 3, and Put(a) 4
    # in a select case's body; each get of a channel goes with each of its puts.
    effect = parse("Chan(a) ; Spawn(Put(a) ; Get(b)) ; Get(a) ; Put(b) ; SelGet(b, Put(a))")
    assert [(what, to_text(new)) for what, new in _global_edits(effect)] == [
        ("drop channel a", "Spawn(Get(b)) ; Put(b) ; SelGet(b, eps)"),
        ("drop channel b", "Chan(a) ; Spawn(Put(a)) ; Get(a)"),
        ("drop a Get(a) and a Put(a)", "Chan(a) ; Spawn(Get(b)) ; Put(b) ; SelGet(b, Put(a))"),
        (
            "drop a Get(a) and a Put(a)",
            "Chan(a) ; Spawn(Put(a) ; Get(b)) ; Put(b) ; SelGet(b, eps)",
        ),
        ("drop a Get(b) and a Put(b)", "Chan(a) ; Spawn(Put(a)) ; Get(a) ; SelGet(b, Put(a))"),
        (
            "merge channel b into a",
            "Chan(a) ; Spawn(Put(a) ; Get(a)) ; Get(a) ; Put(a) ; SelGet(a, Put(a))",
        ),
    ]


def test_a_one_case_select_becomes_its_operation_then_its_body() -> None:
    effect = parse("Spawn(Put(a) ; Put(b)) ; SelGet(a, Get(b))")
    assert {c.description: c.text for c in candidates(effect)} == {
        "drop channel b": "Spawn(Put(a)) ; SelGet(a, eps)",
        "turn the select SelGet(a, Get(b)) into its one operation": (
            "Spawn(Put(a) ; Put(b)) ; Get(a) ; Get(b)"
        ),
        "merge channel b into a": "Spawn(Put(a) ; Put(a)) ; SelGet(a, Get(a))",
    }
    sent = {c.text for c in candidates(parse("Spawn(Get(a)) ; SelPut(a, eps)"))}
    assert "Spawn(Get(a)) ; Put(a)" in sent


def test_short_cuts_long_effects_to_48_characters() -> None:
    long = parse("Spawn(Put(channel1) ; Put(channel2)) ; Get(channel1) ; Get(channel2)")
    assert short(long) == "Spawn(Put(channel1) ; Put(channel2)) ; Get(chan…"
    assert len(short(long)) == 48
    exactly = parse("Spawn(Put(channel1) ; Put(channel2)) ; Get(ch12)")
    assert len(to_text(exactly)) == 48 and short(exactly) == to_text(exactly)


def test_local_edits_of_a_select_with_a_default() -> None:
    effect = parse("SelGet(a, eps) (+) SelGet(b, eps) (+) Default(Put(c) ; Get(a))")
    edits = [(what, to_text(new)) for what, new in _local_edits(effect)]
    assert [new for _, new in edits[:4]] == [
        "SelGet(a, eps) (+) SelGet(b, eps)",
        "Put(c) ; Get(a)",
        "SelGet(b, eps) (+) Default(Put(c) ; Get(a))",
        "SelGet(a, eps) (+) Default(Put(c) ; Get(a))",
    ]
    assert edits[0][0].startswith("drop the default of the select SelGet(a, eps)")
    assert edits[1][0].startswith("keep only the default of the select SelGet(a, eps)")
    # A one-case select with a default is no plain operation; the default's body is edited.
    dropped = "SelGet(a, eps) (+) SelGet(b, eps) (+) Default(Get(a))"
    assert ("drop Put(c) from a sequence", dropped) in edits
    one = parse("SelGet(a, eps) (+) Default(Get(a))")
    assert not any("one operation" in what for what, _ in _local_edits(one))


def test_dropping_a_channel_keeps_a_default_whose_select_has_no_case_left() -> None:
    effect = parse("Spawn(Put(a)) ; SelGet(b, eps) (+) Default(Get(a))")
    assert to_text(without_channel(effect, "b")) == "Spawn(Put(a)) ; Get(a)"
    assert to_text(renamed(effect, "b", "a")) == (
        "Spawn(Put(a)) ; SelGet(a, eps) (+) Default(Get(a))"
    )

"""The shared part of every renderer (generator/render/_common.py), pinned statement by
statement: names, lowering, the tree queries, schedule perturbation, the value table,
conditions, output and options. The renderers' own tests reach these only through whole
source files, where a wrong detail can go unseen (docs/testing.md, mutation score)."""

from __future__ import annotations

import random

import pytest

from generator import lambda_chan as lc
from generator.render._common import (
    C_LIKE,
    MAX_PCT_DEPTH,
    CaseS,
    CloseS,
    IfS,
    Lowered,
    Namer,
    RangeS,
    RecvS,
    SelectS,
    SendS,
    SpawnS,
    Writer,
    YieldS,
    change_points,
    channel_use,
    lower,
    lower_all,
    pct_depth,
    perturb,
    render_cond,
    spawn_sites,
    take_options,
    value_table,
    walk,
)
from tests.generator.render.programs import then_all

# ---------------------------------------------------------------- names


@pytest.mark.parametrize(
    ("wanted", "name"),
    [
        ("a-b_c", "abc"),  # what no language allows is dropped, not replaced
        ("9lives", "v9lives"),  # a digit cannot come first
        ("_", "v"),  # nothing left: the fallback letter alone
        ("Ab", "ab"),  # a capital first is a constant in Crystal, a type in Flix
        ("rep3", "rep3v"),  # a helper's name, and numbering would not escape it
        ("join", "joinv"),
    ],
)
def test_fresh_names_are_lower_case_identifiers_that_no_helper_uses(wanted: str, name: str):
    assert Namer().fresh(wanted) == name


def test_fresh_names_are_numbered_when_taken_and_skip_reserved_words():
    namer = Namer()
    assert [namer.fresh("x"), namer.fresh("x"), namer.fresh("x-")] == ["x", "x2", "x3"]
    assert namer.fresh("func") == "func2"  # Go's keyword


# ---------------------------------------------------------------- lowering


def test_a_range_binds_its_variable_to_a_fresh_name():
    program = lc.Program(
        ("c",), then_all(lc.RangeE("c", "c", lc.Unit()), lc.CloseE("c")), (("c", 1),)
    )
    assert lower(program).body == (RangeS("c", "c2", ()), CloseS("c"))


def test_a_select_numbers_its_sends_in_program_order_and_gives_its_receives_zero():
    program = lc.Program(
        ("a", "b"),
        then_all(
            lc.Send("a"),
            lc.SelectE(
                (
                    lc.Case("get", "a", "x", lc.Unit()),
                    lc.Case("put", "b", None, lc.Send("b")),
                    lc.Case("get", "b", None, lc.Unit()),
                )
            ),
        ),
    )
    assert lower(program).body == (
        SendS("a", 1),
        SelectS(
            (
                CaseS("get", "a", "x", (), 0),
                CaseS("put", "b", None, (SendS("b", 2),), 3),
                CaseS("get", "b", None, (), 0),
            )
        ),
    )


def test_lowering_refuses_an_empty_select_and_what_is_not_an_expression():
    with pytest.raises(ValueError, match=r"^a select needs at least one case$"):
        lower(lc.Program(("c",), lc.SelectE(())))
    with pytest.raises(TypeError, match=r"^not a λ_chan expression: 'send c'$"):
        lower(lc.Program(("c",), "send c"))  # type: ignore[arg-type]


# ---------------------------------------------------------------- queries


def spawns_twice(site: int, inner: RecvS | SendS) -> SpawnS:
    """spawn { spawn { inner } }: the outer one is this process's, the inner its child's."""
    return SpawnS(site, (SpawnS(site + 1, (inner,)),))


# main: if … { spawn { spawn { send c } } } else { spawn { spawn { recv c } } };
#       range c { spawn { spawn { recv c } } }; select { case recv c: spawn { spawn { send c } } }
NESTED = (
    IfS(lc.BoolLit(True), (spawns_twice(0, SendS("c", 1)),), (spawns_twice(2, RecvS("c", None)),)),
    RangeS("c", "v", (spawns_twice(4, RecvS("c", None)),)),
    SelectS((CaseS("get", "c", None, (spawns_twice(6, SendS("c", 2)),)),)),
)


def test_spawn_sites_are_the_spawns_of_this_process_however_deep_in_ifs_ranges_selects():
    assert spawn_sites(NESTED) == [0, 2, 4, 6]


def test_walk_into_spawns_meets_every_statement_before_its_nested_ones():
    kinds = " ".join(type(s).__name__ for s in walk(NESTED))
    assert kinds == (
        "IfS SpawnS SpawnS SendS SpawnS SpawnS RecvS "
        "RangeS SpawnS SpawnS RecvS SelectS SpawnS SpawnS SendS"
    )


def test_channel_use_names_each_channels_gets_puts_and_closes_over_every_process():
    block = (
        SpawnS(0, (SendS("a", 1), CloseS("b"))),
        SelectS((CaseS("get", "c", None, ()), CaseS("put", "d", None, (), 2))),
        RangeS("b", "v", ()),
    )
    assert channel_use(block) == {"a": {"put"}, "b": {"close", "get"}, "c": {"get"}, "d": {"put"}}


# ---------------------------------------------------------------- schedule perturbation


def test_pct_depth_takes_every_whole_number_up_to_the_maximum():
    assert pct_depth(1) == 1
    assert pct_depth(MAX_PCT_DEPTH) == MAX_PCT_DEPTH
    with pytest.raises(ValueError, match=rf"from 1 to {MAX_PCT_DEPTH}, not {MAX_PCT_DEPTH + 1}$"):
        pct_depth(MAX_PCT_DEPTH + 1)


BUFFERED_RANGE = lc.Program(
    ("c",),
    then_all(
        lc.SpawnE(then_all(lc.Send("c"), lc.Send("c"), lc.CloseE("c"))),
        lc.RangeE("c", "m", lc.Recv("d")),
    ),
    (("c", 2),),
)


def test_a_perturbed_range_keeps_its_channel_variable_and_body_and_the_buffers_stay():
    program = lc.Program(("c", "d"), BUFFERED_RANGE.main, BUFFERED_RANGE.capacities)
    perturbed = perturb(program, lower(program), MAX_PCT_DEPTH)  # a yield before every step
    assert perturbed == Lowered(
        ("c", "d"),
        (
            SpawnS(0, (YieldS(), SendS("c", 1), YieldS(), SendS("c", 2), YieldS(), CloseS("c"))),
            YieldS(),
            RangeS("c", "m", (YieldS(), RecvS("d", None))),
        ),
        (("c", 2),),
    )


def test_lower_all_perturbs_each_program_by_its_own_draw():
    programs = [
        lc.Program(
            ("c",), then_all(*[lc.SpawnE(lc.Send("c")) for _ in range(6)], *[lc.Recv("c")] * 6)
        )
    ]
    lowered = lower(programs[0])
    # The draw is seeded by the program itself: not by any other value in its place.
    assert change_points(programs[0], lowered, 3) != change_points(None, lowered, 3)  # type: ignore[arg-type]
    assert lower_all(programs, 3) == [perturb(programs[0], lowered, 3)]
    assert lower_all(programs, None) == [lowered]


# ---------------------------------------------------------------- the value table


def test_a_value_table_refuses_values_that_are_not_one_two_three():
    gap = Lowered(("c",), (SendS("c", 2),))
    with pytest.raises(
        ValueError, match=r"^send values must be 1, 2, … \(lower\(\) numbers them\)$"
    ):
        value_table(gap)


# ---------------------------------------------------------------- conditions


def test_a_negative_number_in_a_condition_is_written_in_parentheses():
    texts = {render_cond(lc.Compare("<", -3, 4), C_LIKE, random.Random(s)) for s in range(20)}
    assert texts == {"(-3) < 4", "4 > (-3)"}


def test_render_cond_refuses_what_is_not_a_condition():
    with pytest.raises(TypeError, match=r"^not a condition: 'true'$"):
        render_cond("true", C_LIKE, random.Random(0))  # type: ignore[arg-type]


# ---------------------------------------------------------------- output and options


def test_an_empty_line_carries_no_indentation():
    w = Writer("    ")
    with w.indent():
        w.line("x")
        w.line()
    assert w.text() == "    x\n\n"


def test_unknown_options_are_named_with_the_ones_that_exist():
    with pytest.raises(
        ValueError, match=r"^unknown option\(s\) for go: b, z \(known: gomaxprocs, values\)$"
    ):
        take_options({"z": 1, "b": 2}, {"values": bool, "gomaxprocs": int}, "go")
    with pytest.raises(ValueError, match=r"^unknown option\(s\) for flix: x \(known: none\)$"):
        take_options({"x": 1}, {}, "flix")

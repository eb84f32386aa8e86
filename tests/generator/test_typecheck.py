"""The type-and-effect system's refusals, each with the words that say what is wrong,
and the types it gives to what binds a variable (a select's get case, a range)."""

from __future__ import annotations

import re

import pytest

from generator import lambda_chan as lc
from generator.effects import parse
from generator.typecheck import EffectTypeError, check_has_effect, infer


def _refused(program: lc.Program, message: str) -> None:
    with pytest.raises(EffectTypeError, match=f"^{re.escape(message)}$"):
        infer(program)


def test_a_channel_created_twice_is_refused() -> None:
    _refused(lc.Program(("c", "c"), lc.Unit()), "a channel is created twice")


def test_an_empty_select_is_refused() -> None:
    _refused(lc.Program(("c",), lc.SelectE(())), "a select needs at least one case")


def test_a_get_case_must_bind_a_variable() -> None:
    case = lc.Case("get", "c", None, lc.Unit())
    _refused(lc.Program(("c",), lc.SelectE((case,))), "get case on c binds no variable")


def test_select_cases_must_agree_on_their_type() -> None:
    cases = (lc.Case("get", "c", "x", lc.Unit()), lc.Case("put", "c", None, lc.BoolLit(True)))
    _refused(
        lc.Program(("c",), lc.SelectE(cases)), "select cases have different types: ['bool', 'unit']"
    )


def test_three_cases_of_two_types_are_refused_too() -> None:
    cases = (
        lc.Case("put", "c", None, lc.Unit()),
        lc.Case("put", "c", None, lc.Unit()),
        lc.Case("put", "c", None, lc.BoolLit(False)),
    )
    with pytest.raises(EffectTypeError, match="select cases have different types"):
        infer(lc.Program(("c",), lc.SelectE(cases)))


def test_a_channel_made_with_another_capacity_than_declared_is_refused() -> None:
    program = lc.Program(("c",), lc.NewChan("c", 2), (("c", 3),))
    _refused(program, "chan c has capacity 2, the program creates it with 3")
    # An undeclared capacity is 0: a rendezvous channel.
    _refused(
        lc.Program(("c",), lc.NewChan("c", 1)),
        "chan c has capacity 1, the program creates it with 0",
    )
    assert infer(lc.Program(("c",), lc.NewChan("c", 0)))[1] == parse("Chan(c)")


def test_something_else_than_an_expression_is_refused() -> None:
    _refused(lc.Program((), "Unit"), "not an expression: 'Unit'")  # type: ignore[arg-type]


def test_a_get_case_variable_is_unit_in_its_body() -> None:
    # A let of the bound variable keeps its type: the whole select is unit, as the body.
    case = lc.Case("get", "c", "x", lc.Let("y", lc.Var("x"), lc.Var("y")))
    other = lc.Case("put", "c", None, lc.Unit())
    assert infer(lc.Program(("c",), lc.SelectE((case, other))))[0] == "unit"


def test_a_range_binds_its_variable_as_unit_in_its_body() -> None:
    body = lc.Then(lc.Send("d"), lc.Var("v"))
    main = lc.Then(lc.NewChan("c", 1), lc.RangeE("c", "v", body))
    check_has_effect(
        lc.Program(("c", "d"), main, (("c", 1),)), parse("Chan(c, 1) ; Range(c, Put(d))")
    )
    # Mixed with a select whose other case is unit, the range's variable stays unit.
    mixed = lc.SelectE(
        (
            lc.Case("get", "c", "x", lc.RangeE("d", "v", lc.Var("v"))),
            lc.Case("put", "d", None, lc.Unit()),
        )
    )
    assert infer(lc.Program(("c", "d"), mixed))[0] == "unit"


def test_a_range_variable_has_the_type_of_unit() -> None:
    # An if whose branches are the variable and unit agrees on its type only if it is unit.
    body = lc.If(lc.BoolLit(True), lc.Var("v"), lc.Unit())
    main = lc.Then(lc.NewChan("c", 1), lc.RangeE("c", "v", body))
    check_has_effect(
        lc.Program(("c",), main, (("c", 1),)), parse("Chan(c, 1) ; Range(c, eps + eps)")
    )


def test_a_range_body_is_checked_with_the_declared_capacities() -> None:
    inner = lc.RangeE("c", "v", lc.NewChan("d", 2))
    program = lc.Program(("c", "d"), lc.Then(lc.NewChan("c", 1), inner), (("c", 1), ("d", 2)))
    assert infer(program)[0] == "unit"

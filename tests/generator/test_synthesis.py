"""Synthesis of λ_chan programs and the type-and-effect checker (paper Fig. 9)."""

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from generator import lambda_chan as lc
from generator.effects import parse
from generator.pipeline import GENERATOR_VERSION, generate_program
from generator.settings import PRESETS
from generator.synthesis import synthesize
from generator.termination import check_program
from generator.typecheck import EffectTypeError, check_has_effect, infer
from tests.generator.strategies import effects
from tests.generator.test_termination import PAPER_PROGRAMS


@pytest.mark.parametrize("heuristic", sorted(PRESETS))
@given(seed=st.integers(0, 2**63 - 1))
def test_synthesized_program_has_its_effect_and_terminates(heuristic, seed):
    generated = generate_program(seed, PRESETS[heuristic])
    check_has_effect(generated.program, generated.effect)
    assert check_program(generated.program).terminating is True


@given(effects(max_leaves=15), st.integers(0, 1000))
def test_any_effect_synthesizes_to_a_program_with_that_effect(effect, seed):
    program = synthesize(effect, random.Random(seed))
    check_has_effect(program, effect)


@pytest.mark.parametrize("name", PAPER_PROGRAMS)
def test_paper_programs_synthesize_and_type_check(name):
    effect = parse(PAPER_PROGRAMS[name])
    program = synthesize(effect, random.Random(0))
    check_has_effect(program, effect)
    assert check_program(program).terminating is True


def test_same_seed_same_program_byte_for_byte():
    for seed in range(100):
        a = generate_program(seed, PRESETS["F"])
        b = generate_program(seed, PRESETS["F"])
        assert lc.to_text(a.program) == lc.to_text(b.program)
    assert GENERATOR_VERSION


def test_choice_becomes_if_and_sequence_becomes_then_or_let():
    seen = set()
    for seed in range(50):
        program = synthesize(parse("Get(c1) ; Put(c2) ; (Get(c3) + Put(c3))"), random.Random(seed))
        seen.add(type(program.main).__name__)
        check_has_effect(program, parse("Get(c1) ; Put(c2) ; (Get(c3) + Put(c3))"))
    assert seen == {"Let", "Then"}


def test_unbound_variable_is_a_type_error():
    with pytest.raises(EffectTypeError, match="variable y is not bound"):
        infer(lc.Program(("c",), lc.Then(lc.Recv("c"), lc.Var("y"))))


def test_undeclared_channel_is_a_type_error():
    with pytest.raises(EffectTypeError, match="channel d is used but never created"):
        infer(lc.Program(("c",), lc.Send("d")))


def test_if_branches_must_agree_on_type():
    with pytest.raises(EffectTypeError, match="branches of an if"):
        infer(lc.Program((), lc.If(lc.BoolLit(True), lc.Unit(), lc.BoolLit(False))))


def test_select_case_variable_is_bound_in_its_body_only():
    case = lc.Case("get", "c", "x", lc.Var("x"))
    infer(lc.Program(("c",), lc.SelectE((case,))))
    with pytest.raises(EffectTypeError):
        infer(lc.Program(("c",), lc.Then(lc.SelectE((case,)), lc.Var("x"))))


def test_program_with_a_different_effect_is_rejected():
    program = synthesize(parse("Spawn(Put(c1)) ; Get(c1)"), random.Random(1))
    with pytest.raises(EffectTypeError, match="expected"):
        check_has_effect(program, parse("Spawn(Get(c1)) ; Put(c1)"))


def test_if_has_effect_of_condition_then_choice():
    program = lc.Program(("c",), lc.If(lc.Compare("==", 1, 1), lc.Recv("c"), lc.Send("c")))
    assert infer(program) == ("unit", parse("Get(c) + Put(c)"))

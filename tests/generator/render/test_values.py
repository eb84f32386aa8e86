"""The value oracle's shared part: send values numbered in program order, the value table,
and renderers that leave their output untouched when the oracle is off."""

from __future__ import annotations

import random

import pytest

from generator import effects
from generator.pipeline import generate_program
from generator.render import has_value_oracle, render, renderers
from generator.render._common import SelectS, SendS, lower, value_table, walk
from generator.settings import settings_for
from generator.synthesis import synthesize
from tests.generator.render.programs import PROGRAMS


def _sends(block):  # noqa: ANN001, ANN202
    for s in walk(block):
        if isinstance(s, SendS):
            yield s.value, s.chan, False
        elif isinstance(s, SelectS):
            yield from ((c.value, c.chan, True) for c in s.cases if c.direction == "put")


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_every_send_carries_a_value_of_its_own(name: str) -> None:
    lowered = lower(PROGRAMS[name])
    sends = sorted(_sends(lowered.body))
    assert [v for v, _, _ in sends] == list(range(1, len(sends) + 1))
    table = value_table(lowered)
    assert table.chans == tuple(c for _, c, _ in sends)
    assert table.in_select == tuple(sel for _, _, sel in sends)


def test_a_select_put_case_and_a_send_are_told_apart() -> None:
    effect = effects.parse("Spawn(Get(c1)) ; Spawn(Get(c2)) ; SelPut(c1, Put(c2))")
    program = synthesize(effect, random.Random(1))
    table = value_table(lower(program))
    assert sorted(zip(table.chans, table.in_select, strict=True)) == [("c1", True), ("c2", False)]


ORACLE_RENDERERS = [r for r in renderers() if has_value_oracle(r)]


def test_go_has_the_oracle_and_flix_says_it_has_not() -> None:
    assert "go" in ORACLE_RENDERERS
    assert not has_value_oracle("flix")
    with pytest.raises(ValueError, match="unknown option"):
        render(PROGRAMS["flix1"], "flix", values=True)


@pytest.mark.parametrize("lang", ORACLE_RENDERERS)
@pytest.mark.parametrize("seed", [0, 5, 11])
def test_the_oracle_off_renders_what_was_rendered_before(lang: str, seed: int) -> None:
    program = generate_program(seed, settings_for("F")).program
    plain = render(program, lang, seed=seed, repetitions=3)
    assert render(program, lang, seed=seed, repetitions=3, values=False) == plain
    checked = render(program, lang, seed=seed, repetitions=3, values=True)
    assert checked != plain
    assert "chanfuzz: wrong value: " in checked

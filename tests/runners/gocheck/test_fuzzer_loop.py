"""gocheck against chanfuzz's own programs: a generated Go program is terminating by
construction, so gocheck must find it ok; a program synthesised from an effect that can
deadlock must not be ok, as the effect checker says. (The loop the issue asks to close:
a Go program, its effect, generated relatives.)"""

from __future__ import annotations

import random

import pytest

from generator.effects import parse
from generator.pipeline import generate_program
from generator.render import render
from generator.settings import PRESETS
from generator.synthesis import synthesize
from generator.termination import check_effect
from runners.gocheck.check import check_source, report_lines

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("go_frontend")]


@pytest.mark.parametrize("heuristic", ["A", "C", "F"])
@pytest.mark.parametrize("seed", [3, 17])
def test_generated_go_programs_are_ok(heuristic, seed):
    g = generate_program(seed, PRESETS[heuristic])
    # Every select a statement: gocheck does not read reflect.Select (it says unsupported),
    # nor the quiet check's goroutine dumps and block profile.
    source = render(
        g.program, "go", seed=seed, repetitions=2, reflect_select=False, quiet=False
    )
    checked = check_source(source, time_limit=30)
    assert checked.verdict == "ok", "\n".join(report_lines(checked))


@pytest.mark.parametrize("effect", [
    "Get(c1)",
    "Spawn(Put(c1)) ; Get(c2)",
    "Spawn(Put(c1) ; Put(c1)) ; Get(c1)",
    "Spawn(SelGet(c1, eps) (+) SelGet(c2, eps)) ; Put(c1) ; Put(c2)",
])
def test_programs_of_deadlocking_effects_are_not_ok(effect):
    parsed = parse(effect)
    assert not check_effect(parsed).terminating
    program = synthesize(parsed, random.Random(0))
    source = render(program, "go", reflect_select=False, quiet=False)
    checked = check_source(source, time_limit=30)
    assert checked.verdict in ("global-deadlock", "partial-deadlock"), \
        "\n".join(report_lines(checked))

"""Crystal renderer beyond the paper (issue #15): buffered channels, close, range with
`receive?`, and the value oracle skipping nil (closed); slow: format check and a real run."""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from generator import effects
from generator import lambda_chan as lc
from generator.render import beyond_paper, render, render_batch, unsupported_reason
from generator.render._common import ALREADY_CLOSED, BY_CLOSE, ORACLE_EXIT, ORACLE_PREFIX
from generator.synthesis import synthesize
from runners.targets.crystal import TARGET
from tests.generator.render.helpers import DEFAULTS, compile_ok, crystal_binary, need, run

PRODUCER_RANGE = "Chan(c, 2) ; Spawn(Put(c) ; Put(c) ; Close(c)) ; Range(c, eps)"
# c closed while d stays open; the select's cases may find c closed.
CLOSED_SELECT = (
    "Chan(c, 1) ; Chan(d) ; Spawn(Put(c) ; Close(c)) ; Spawn(Put(d)) ; "
    "Get(c) ; Get(c) ; SelGet(c, Get(d)) (+) SelGet(d, Get(c))"
)


def _program(text: str, seed: int = 0) -> lc.Program:
    return synthesize(effects.parse(text), random.Random(seed))


def _lines(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines()]


def test_the_renderer_and_the_target_declare_buffered_channels_and_close() -> None:
    assert beyond_paper("crystal") == {"buffered", "close", "default"}
    caps = TARGET.capabilities
    assert (caps.buffered, caps.close, caps.select_default) == (True, True, True)


def test_a_closed_channel_carries_true_since_nil_means_closed() -> None:
    lines = _lines(render(_program(PRODUCER_RANGE), "crystal"))
    assert "c = Channel(Bool).new(2)" in lines
    assert lines.count("c.send(true)") == 2
    assert lines[lines.index("c.close") + 1] == "done.send(nil)"


def test_channels_never_closed_stay_channels_of_nil() -> None:
    lines = _lines(render(_program(CLOSED_SELECT), "crystal"))
    assert "d = Channel(Nil).new" in lines and "d.send(nil)" in lines
    assert "c = Channel(Bool).new(1)" in lines


def test_under_the_oracle_channels_carry_int32_with_their_capacity() -> None:
    lines = _lines(render(_program(PRODUCER_RANGE), "crystal", values=True))
    assert "c = Channel(Int32).new(2)" in lines
    assert "c.send(1)" in lines and "c.send(2)" in lines


def test_a_range_receives_until_nil_with_or_without_a_name() -> None:
    seen = set()
    for seed in range(12):
        lines = _lines(render(_program(PRODUCER_RANGE), "crystal", seed=seed))
        loop = next(line for line in lines if line.startswith("while") and "c.receive?" in line)
        seen.add("bare" if loop == "while c.receive?" else "named")
        assert loop in ("while c.receive?", f"while {loop.split()[1]} = c.receive?")
    assert seen == {"bare", "named"}


def test_under_the_oracle_a_range_reports_each_message_as_a_receive() -> None:
    lines = _lines(render(_program(PRODUCER_RANGE), "crystal", values=True))
    loop = next(
        i for i, line in enumerate(lines) if line.startswith("while") and "c.receive?" in line
    )
    var = lines[loop].split()[1]
    assert lines[loop + 1] == f'vals.recv({var}, "c", false)'


@pytest.mark.parametrize("values", [False, True])
def test_a_closed_channel_is_only_received_from_with_receive_question(values: bool) -> None:
    for seed in range(6):
        text = render(_program(CLOSED_SELECT, seed), "crystal", seed=seed, values=values)
        # `receive` would raise Channel::ClosedError on a closed channel.
        assert "c.receive\n" not in text and "c.receive " not in text
        assert text.count("c.receive?") == 4  # two gets, a select case, a get in a case


def test_under_the_oracle_nil_from_a_closed_channel_is_no_message() -> None:
    for seed in range(8):
        lines = _lines(render(_program(CLOSED_SELECT, seed), "crystal", seed=seed, values=True))
        for i, line in enumerate(lines):
            if line.startswith("if ") and line.endswith(" = c.receive?"):
                var = line.split()[1]
                assert lines[i + 1 : i + 3] == [f'vals.recv({var}, "c", false)', "end"]
            elif line.startswith("c.receive?"):
                assert line == 'c.receive?.try { |val| vals.recv(val, "c", false) }'
            elif line.startswith("when ") and line.endswith(" = c.receive?"):
                var = line.split()[1]
                assert lines[i + 1] == f'vals.recv({var}, "c", true) if {var}'


def test_select_values_of_closed_channels_get_names_of_their_own() -> None:
    # A local a spawn block also assigns would be shared by two fibers: each case its own.
    effect = (
        "Chan(c, 1) ; Spawn(Put(c) ; Put(c) ; Close(c)) ; "
        "Spawn(SelGet(c, eps)) ; SelGet(c, eps) ; Get(c)"
    )
    names = []
    for line in _lines(render(_program(effect), "crystal", values=True)):
        if line.startswith("when "):
            names.append(line.split()[1])
    assert len(names) == len(set(names)) == 2


# ---------------------------------------------------------------- real toolchain

_SEEDS = range(4)


@pytest.mark.parametrize("values", [False, True])
def test_a_select_default_is_its_else_branch(values: bool) -> None:
    lines = _lines(render(_program(DEFAULTS), "crystal", values=values))
    assert lines.count("else") == 3
    send = next(i for i, line in enumerate(lines) if line.startswith("when e.send("))
    assert lines[send + 1 + values] == "else" and lines[send + 2 + values] == "end"


def test_a_renderer_that_writes_no_default_refuses_one() -> None:
    reason = unsupported_reason(_program(DEFAULTS), "kotlin")
    assert reason == "the kotlin renderer writes no select with a default"


@pytest.mark.slow
@pytest.mark.parametrize("values", [False, True])
def test_crystal_builds_and_runs_the_constructs_multithreaded(
    tmp_path: Path, build_cache: Path, values: bool
) -> None:
    crystal = crystal_binary()
    need(crystal, "Crystal (set CHANFUZZ_CRYSTAL)")
    programs = [_program(t, s) for t in (PRODUCER_RANGE, CLOSED_SELECT) for s in _SEEDS]
    # One of DEFAULTS: from ten programs on, `crystal tool format` aligns the dispatcher.
    programs.append(_program(DEFAULTS))
    build = tmp_path / "build"
    build.mkdir()
    (build / "main.cr").write_text(
        render_batch(programs, "crystal", seed=5, repetitions=200, values=values)
    )
    if not values:  # the oracle's tables are not aligned as the formatter would (as before)
        assert (
            run([crystal, "tool", "format", "--check", "main.cr"], timeout=60, cwd=build).returncode
            == 0
        )
    env = {**os.environ, "CRYSTAL_CACHE_DIR": str(build_cache / "crystal"), "CRYSTAL_WORKERS": "4"}
    compile_ok([crystal, "build", "-Dpreview_mt", "main.cr", "-o", "prog"], cwd=build, env=env)
    for i in range(len(programs)):
        out = run([str(build / "prog"), str(i)], timeout=30, env=env)
        assert out.returncode == 0, (i, out)


def test_under_the_oracle_close_reports_whether_it_closed() -> None:
    lines = _lines(render(_program(PRODUCER_RANGE), "crystal", values=True))
    assert 'vals.closed(c.close, "c")' in lines
    assert "c.close" in _lines(render(_program(PRODUCER_RANGE), "crystal"))


@pytest.mark.slow
def test_a_close_that_answers_false_is_a_wrong_value(tmp_path: Path, build_cache: Path) -> None:
    # Generated programs close a channel once; a runtime whose close answers false then (a
    # mutant of channel.cr did) is caught. Here a second close stands in for that runtime.
    crystal = crystal_binary()
    need(crystal, "Crystal (set CHANFUZZ_CRYSTAL)")
    source = render(_program(PRODUCER_RANGE), "crystal", values=True)
    (tmp_path / "main.cr").write_text(
        source.replace('vals.closed(c.close, "c")', 'c.close\nvals.closed(c.close, "c")')
    )
    env = {**os.environ, "CRYSTAL_CACHE_DIR": str(build_cache / "crystal")}
    compile_ok([crystal, "build", "main.cr", "-o", "prog"], cwd=tmp_path, env=env)
    out = run([str(tmp_path / "prog"), "0"], timeout=30, env=env)
    assert out.returncode == ORACLE_EXIT, out
    assert f"{ORACLE_PREFIX}{ALREADY_CLOSED} ({BY_CLOSE}): c is closed once" in out.stderr

"""Buffered channels in Racket (issue #15, quick): a channel of capacity k is an async channel
of limit k, its own calls are async-channel-*, and nothing else moves; close and range are
refused, and programs generated for the Racket target never have them.

Generated buffered programs run on Racket in test_conformance_buffered.py, with every
target whose renderer goes beyond the paper.
"""

from __future__ import annotations

import dataclasses
import random
import re

import pytest

from generator import lambda_chan as lc
from generator.effects import UNBOUNDED, parse
from generator.pipeline import generate_program
from generator.render import UnsupportedProgram, beyond_paper, render, supports, unsupported_reason
from generator.render._common import CloseS, RangeS, lower, walk
from generator.settings import PRESETS, settings_for
from generator.synthesis import synthesize
from generator.termination import check_effect
from runners.targets import get_target

CAPABILITIES = get_target("racket").capabilities


def _program(text: str) -> lc.Program:
    effect = parse(text)
    assert check_effect(effect).terminating is True, text
    return synthesize(effect, random.Random(0))


BUFFERED = _program(
    "Chan(c1, 2) ; Spawn(Get(c1) ; Get(c1) ; Put(c2)) ; Put(c1) ; Put(c1) ; Get(c2)"
)
SELECT_PUT = _program("Chan(c1, 1) ; SelPut(c1, eps) (+) SelPut(c1, eps) ; Get(c1)")


@pytest.mark.parametrize("values", [False, True])
def test_a_buffered_channel_is_an_async_channel_of_its_capacity(values: bool) -> None:
    text = render(BUFFERED, "racket", values=values)
    assert "(require racket/async-channel)" in text
    assert "(define c1 (make-async-channel 2))" in text
    assert "(define c2 (make-channel))" in text  # declared nowhere: a rendezvous channel
    # c1's own calls are the async channel's; c2's the channel's.
    assert re.search(r"\(async-channel-(get|put) c1\b", text) or "(sync c1)" in text
    assert not re.search(r"\((channel-get|channel-put|channel-put-evt) c1\b", text)
    assert not re.search(r"async-channel-\w+ c2\b", text)


def test_a_select_puts_into_an_async_channel_with_its_event() -> None:
    text = render(SELECT_PUT, "racket", seed=1)
    assert text.count("(handle-evt (async-channel-put-evt c1 ") == 2
    assert "(channel-put-evt c1" not in text.replace("async-channel-put-evt", "")


def test_a_program_without_buffers_requires_nothing_more() -> None:
    plain = generate_program(0, PRESETS["A"]).program
    assert "async-channel" not in render(plain, "racket")


def _unbuffered(program: lc.Program) -> lc.Program:
    return dataclasses.replace(program, capacities=())


def _as_rendezvous(line: str) -> str:
    """A buffered channel's line as the same program without capacities writes it."""
    line = re.sub(r"\(make-async-channel (?:\d+|#f)\)", "(make-channel)", line)
    return line.replace("async-channel-", "channel-")


@pytest.mark.parametrize("values", [False, True])
def test_capacities_change_only_the_channels_own_lines(values: bool) -> None:
    """Rendered with its capacities and without, at the same seed: the same lines but the
    require, each buffered channel's constructor and its async-channel-* calls. The
    renderer draws nothing for a capacity, so every seeded choice stays where it was."""
    seen = 0
    for h in "ABCDEF":
        for seed in range(4):
            g = generate_program(seed, settings_for(h, buffered=True), CAPABILITIES)
            capacities = dict(lower(g.program).capacities)
            if not capacities:
                continue
            seen += 1
            options = {"values": values, "seed": seed}
            buffered = render(g.program, "racket", **options).splitlines()
            plain = render(_unbuffered(g.program), "racket", **options).splitlines()
            assert buffered.pop(2) == "(require racket/async-channel)"
            assert len(buffered) == len(plain)
            made = [line for line in buffered if "(make-async-channel" in line]
            assert len(made) == len(capacities)
            for line in made:
                m = re.fullmatch(r"\s*\(define (\w+) \(make-async-channel (\d+|#f)\)\)", line)
                assert m, line
                # An unbounded channel is an async channel with no limit (#f).
                limit = UNBOUNDED if m.group(2) == "#f" else int(m.group(2))
                assert limit == capacities[m.group(1).rstrip("_")], line
            for a, b in zip(plain, buffered, strict=True):
                assert a == _as_rendezvous(b)
    assert seen >= 8, "too few generated programs with a buffered channel to compare"


CLOSING = _program("Chan(c1, 2) ; Spawn(Range(c1, eps)) ; Put(c1) ; Put(c1) ; Close(c1)")


def test_close_and_range_are_refused() -> None:
    assert not supports(CLOSING, "racket")
    assert unsupported_reason(CLOSING, "racket") == "the racket renderer writes no close or range"
    with pytest.raises(UnsupportedProgram, match="no close or range"):
        render(CLOSING, "racket")


def test_the_target_says_buffered_channels_and_no_close() -> None:
    assert beyond_paper("racket") == frozenset({"buffered", "unbounded"})
    assert CAPABILITIES.buffered and CAPABILITIES.unbounded and not CAPABILITIES.close
    assert CAPABILITIES.describe().endswith("; buffered and unbounded channels (no close)")


@pytest.mark.parametrize("heuristic", list(PRESETS))
def test_generated_programs_are_buffered_but_never_closed(heuristic: str) -> None:
    buffered = 0
    for seed in range(10):
        g = generate_program(seed, settings_for(heuristic, buffered=True), CAPABILITIES)
        lowered = lower(g.program)
        assert not any(isinstance(s, CloseS | RangeS) for s in walk(lowered.body))
        assert supports(g.program, "racket")
        buffered += bool(lowered.capacities)
    assert buffered >= 3

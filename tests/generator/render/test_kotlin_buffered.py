"""Kotlin renderer beyond the paper (issue #15): buffered channels, close, range, receives
that tolerate a closed channel (receiveCatching or receiveOrNull by release) and the value
oracle around them. Quick: the rendered text; real runs are test_conformance_buffered_jvm."""

from __future__ import annotations

import random
import re

import pytest

from generator import effects
from generator import lambda_chan as lc
from generator.pipeline import generate_program
from generator.render import beyond_paper, render, render_batch, unsupported_reason
from generator.render._common import CloseS, RangeS, lower, walk
from generator.settings import PRESETS, settings_for
from generator.synthesis import synthesize
from runners.targets.kotlin import TARGET
from runners.targets.kotlin_releases import kotlin_render_options

PRODUCER_RANGE = "Chan(c, 2) ; Spawn(Put(c) ; Put(c) ; Close(c)) ; Range(c, eps)"
# The second receive finds c closed and drained.
CLOSED_GET = "Chan(c, 1) ; Spawn(Put(c) ; Close(c)) ; Get(c) ; Get(c)"
# c closed while d stays open: the select's receive clause on c may find it closed.
CLOSED_SELECT = (
    "Chan(c, 1) ; Chan(d) ; Spawn(Put(c) ; Close(c)) ; Spawn(Put(d)) ; "
    "Get(c) ; Get(c) ; SelGet(c, Get(d)) (+) SelGet(d, Get(c))"
)
SPAWN_IN_RANGE = "Chan(c, 3) ; Spawn(Put(c) ; Put(c) ; Close(c)) ; Range(c, Spawn(eps))"


def _program(text: str, seed: int = 0) -> lc.Program:
    return synthesize(effects.parse(text), random.Random(seed))


def _lines(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines()]


def test_the_renderer_and_the_target_declare_buffered_channels_and_close() -> None:
    assert beyond_paper("kotlin") == {"buffered", "close", "unbounded"}
    caps = TARGET.capabilities
    assert (caps.buffered, caps.close, caps.unbounded) == (True, True, True)


@pytest.mark.parametrize("layout", ["modern", "experimental"])
def test_an_unbounded_channel_is_made_unlimited(layout: str) -> None:
    effect = "Chan(c1, unbounded) ; Spawn(Put(c1) ; Put(c1)) ; Get(c1) ; Get(c1)"
    text = render(_program(effect), "kotlin", package_layout=layout, values=True)
    assert "val c1 = Channel<Int>(Channel.UNLIMITED)" in text


@pytest.mark.parametrize("layout", ["modern", "experimental"])
@pytest.mark.parametrize("values", [False, True])
def test_a_buffered_channel_is_made_with_its_capacity(layout: str, values: bool) -> None:
    text = render(_program(CLOSED_SELECT), "kotlin", package_layout=layout, values=values)
    element = "Int" if values else "Unit"
    assert f"val c = Channel<{element}>(1)" in text
    assert f"val d = Channel<{element}>()" in text  # unbuffered as before


@pytest.mark.parametrize("layout", ["modern", "experimental"])
def test_the_sender_closes_after_its_sends_and_the_receiver_ranges(layout: str) -> None:
    lines = _lines(render(_program(PRODUCER_RANGE), "kotlin", package_layout=layout))
    close = lines.index("c.close()")
    assert lines[close - 1] == "c.send(Unit)"
    assert any(re.fullmatch(r"for \(\w+ in c\) \{", line) for line in lines)


def test_a_range_reports_each_message_to_the_oracle_as_a_receive() -> None:
    text = render(_program(PRODUCER_RANGE), "kotlin", values=True)
    var = re.search(r"for \((\w+) in c\) \{", text).group(1)  # type: ignore[union-attr]
    assert f'vals.recv({var}, "c", false)' in text


@pytest.mark.parametrize(
    ("options", "call"),
    [
        ({}, "receiveCatching()"),
        ({"closed_receive": "or_null"}, "receiveOrNull()"),
        ({"package_layout": "experimental"}, "receiveOrNull()"),
    ],
)
def test_a_receive_on_a_channel_that_is_closed_tolerates_it(options: dict, call: str) -> None:
    for seed in range(4):  # with and without a named val
        text = render(_program(CLOSED_GET), "kotlin", seed=seed, **options)
        assert f"c.{call}" in text
        assert "c.receive()" not in text  # would throw on the closed channel


def test_a_receive_on_a_channel_nobody_closes_stays_plain() -> None:
    text = render(_program(CLOSED_SELECT), "kotlin")
    assert "d.receive()" in text and "d.onReceive" in text
    assert "d.receiveCatching" not in text and "d.onReceiveCatching" not in text


@pytest.mark.parametrize(
    ("options", "clause"),
    [
        ({}, "c.onReceiveCatching"),
        ({"closed_receive": "or_null"}, "c.onReceiveOrNull"),
        ({"package_layout": "experimental"}, "c.onReceiveOrNull"),
    ],
)
def test_a_select_clause_on_a_channel_that_is_closed_tolerates_it(
    options: dict, clause: str
) -> None:
    text = render(_program(CLOSED_SELECT), "kotlin", **options)
    assert clause in text
    assert "c.onReceive {" not in text and "c.onReceive { " not in text


@pytest.mark.parametrize("closed_receive", ["catching", "or_null"])
def test_the_oracle_checks_only_a_receive_that_got_a_message(closed_receive: str) -> None:
    for seed in range(4):
        text = render(
            _program(CLOSED_SELECT), "kotlin", seed=seed, values=True, closed_receive=closed_receive
        )
        got = ".getOrNull()?.let" if closed_receive == "catching" else "?.let"
        reports = [line for line in _lines(text) if '"c"' in line and "vals.recv" in line]
        assert reports and all(got in line for line in reports), reports
        # d is never closed: its receives report unconditionally, as before.
        assert any(line.startswith("vals.recv(") and '"d"' in line for line in _lines(text))


def test_catching_needs_the_modern_layout() -> None:
    with pytest.raises(ValueError, match="receiveCatching exists from kotlinx.coroutines 1.5"):
        render(
            _program(CLOSED_GET),
            "kotlin",
            package_layout="experimental",
            closed_receive="catching",
        )
    with pytest.raises(ValueError, match="closed_receive must be one of"):
        render(_program(CLOSED_GET), "kotlin", closed_receive="maybe")


def test_spawns_in_a_range_body_are_joined_every_time() -> None:
    modern = render(_program(SPAWN_IN_RANGE), "kotlin")
    assert "launch {" in modern  # children of the run's coroutineScope, however many
    old = render(_program(SPAWN_IN_RANGE), "kotlin", package_layout="experimental")
    # Each pass of the loop adds its job to the process's list, awaited at its end.
    assert re.search(r"for \(\w+ in c\) \{\s*jobs\d+\.add\(async", old)


@pytest.mark.parametrize(
    ("version", "closed_receive"),
    [("0.19", None), ("0.22.5", None), ("1.0.1", "or_null"), ("1.4.3", "or_null")]
    + [("1.5.0", None), ("1.7.0", None), ("1.11.0", None)],
)
def test_each_release_gets_the_receive_it_has(version: str, closed_receive: str | None) -> None:
    options = kotlin_render_options(version)
    assert options.get("closed_receive") == closed_receive
    text = render(_program(CLOSED_GET), "kotlin", **options)
    has_catching = version.startswith("1.") and closed_receive is None
    assert ("receiveCatching" in text) == has_catching
    assert ("receiveOrNull" in text) == (not has_catching)


@pytest.mark.parametrize("heuristic", list(PRESETS))
def test_generated_buffered_programs_render_for_every_release_layout(heuristic: str) -> None:
    settings = settings_for(heuristic, buffered=True)
    generated = [generate_program(s, settings, TARGET.capabilities) for s in range(8)]
    programs = [g.program for g in generated]
    for version in ("0.19", "1.0.1", "1.11.0"):
        options = kotlin_render_options(version)
        assert all(unsupported_reason(p, "kotlin", **options) is None for p in programs)
        text = render_batch(programs, "kotlin", repetitions=2, values=True, **options)
        assert text.count("fun prog") == len(programs)


def test_some_generated_programs_use_every_construct() -> None:
    seen = set()
    for heuristic in PRESETS:
        settings = settings_for(heuristic, buffered=True)
        for seed in range(10):
            lowered = lower(generate_program(seed, settings, TARGET.capabilities).program)
            if lowered.capacities:
                seen.add("buffered")
            seen |= {type(s).__name__ for s in walk(lowered.body) if isinstance(s, CloseS | RangeS)}
    assert seen == {"buffered", "CloseS", "RangeS"}


@pytest.mark.parametrize("layout", ["modern", "experimental"])
def test_under_the_oracle_close_reports_whether_it_closed(layout: str) -> None:
    options = {"package_layout": layout}
    text = render(_program(PRODUCER_RANGE), "kotlin", values=True, **options)
    assert 'vals.closed(c.close(), "c")' in text
    assert "c.close()" in render(_program(PRODUCER_RANGE), "kotlin", **options)

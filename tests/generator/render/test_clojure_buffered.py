"""Clojure renderer beyond the paper (issue #15): `(chan k)`, `close!`, range as a loop until
nil, nil from a closed channel skipped by the value oracle, a put that returns false made a
crash, and the oldest core.async releases (puts return nil) refusing programs that close.
Quick: the rendered text; real runs are test_conformance_buffered_jvm."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from generator import effects
from generator import lambda_chan as lc
from generator.pipeline import generate_program
from generator.render import (
    UnsupportedProgram,
    beyond_paper,
    render,
    render_batch,
    unsupported_reason,
)
from generator.settings import PRESETS, settings_for
from generator.synthesis import synthesize
from runners.targets import get_target
from runners.targets.base import RunSettings, Toolchain
from runners.targets.clojure_core_async import _render_options
from runners.targets.clojure_releases import FIRST_PUT_STATUS, close_note, put_result

PRODUCER_RANGE = "Chan(c, 2) ; Spawn(Put(c) ; Put(c) ; Close(c)) ; Range(c, eps)"
CLOSED_GET = "Chan(c, 1) ; Spawn(Put(c) ; Close(c)) ; Get(c) ; Get(c)"
CLOSED_SELECT = (
    "Chan(c, 1) ; Chan(d) ; Spawn(Put(c) ; Close(c)) ; Spawn(Put(d)) ; "
    "Get(c) ; Get(c) ; SelGet(c, Get(d)) (+) SelGet(d, Get(c))"
)
SPAWN_IN_RANGE = "Chan(c, 3) ; Spawn(Put(c) ; Put(c) ; Close(c)) ; Range(c, Spawn(eps))"
BUFFERED_ONLY = "Chan(c, 2) ; Put(c) ; Put(c) ; Get(c) ; Get(c)"
FLAVOURS = {"go": ("<!", ">!"), "thread": ("<!!", ">!!")}


def _program(text: str, seed: int = 0) -> lc.Program:
    return synthesize(effects.parse(text), random.Random(seed))


def _lines(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines()]


@pytest.mark.parametrize("target", ["clojure-go", "clojure-thread"])
def test_the_renderer_and_both_targets_declare_buffered_channels_and_close(target: str) -> None:
    assert beyond_paper("clojure") == {"buffered", "close"}
    caps = get_target(target).capabilities
    assert (caps.buffered, caps.close) == (True, True)


def test_a_buffered_channel_is_a_chan_with_its_capacity() -> None:
    lines = _lines(render(_program(CLOSED_SELECT), "clojure"))
    decls = [line for line in lines if re.search(r"\b[cd] \(chan", line)]
    assert any(line.endswith("c (chan 1)") or "c (chan 1)]" in line for line in decls), decls
    assert any(re.search(r"\bd \(chan\)", line) for line in decls), decls


@pytest.mark.parametrize("flavour", list(FLAVOURS))
def test_the_sender_closes_and_the_receiver_takes_until_nil(flavour: str) -> None:
    take, _ = FLAVOURS[flavour]
    text = render(_program(PRODUCER_RANGE), "clojure", flavour=flavour)
    assert "(close! c)" in text
    assert re.search(r":refer \[[^]]*\bclose!", text)
    assert re.search(rf"\(loop \[\]\s+\(when-some \[\w+ \({re.escape(take)} c\)\]", text)
    assert "(recur)))" in text


def test_close_is_referred_only_when_a_program_closes() -> None:
    text = render(_program(BUFFERED_ONLY), "clojure")
    assert "close!" not in text


@pytest.mark.parametrize("flavour", list(FLAVOURS))
def test_a_put_on_a_channel_that_is_closed_crashes_if_it_returns_false(flavour: str) -> None:
    _, put = FLAVOURS[flavour]
    text = render(_program(CLOSED_SELECT), "clojure", flavour=flavour)
    assert f"(when-not ({put} c 0)" in text
    assert 'IllegalStateException. "a put on closed channel c returned false"' in text
    # d is never closed: its put stays plain.
    assert f"({put} d 0)" in _lines(text)


def test_a_select_put_on_a_channel_that_is_closed_checks_the_result() -> None:
    program = lc.Program(
        ("c", "d"),
        lc.Then(
            lc.SpawnE(lc.Then(lc.Recv("c"), lc.CloseE("c"))),
            lc.SelectE((lc.Case("put", "c", None, lc.Unit()), lc.Case("get", "d", "y", lc.Unit()))),
        ),
        (("c", 1),),
    )
    text = render(program, "clojure")
    assert "(when (false? alt-v) (throw (IllegalStateException." in text


@pytest.mark.parametrize("flavour", list(FLAVOURS))
def test_the_oracle_skips_the_nil_of_a_closed_channel(flavour: str) -> None:
    take, _ = FLAVOURS[flavour]
    for seed in range(4):
        text = render(_program(CLOSED_SELECT), "clojure", seed=seed, flavour=flavour, values=True)
        assert re.search(rf"\(when-some \[\w+ \({re.escape(take)} c\)\]", text)
        assert '(when (some? alt-v) (vals-recv vals alt-v "c" true))' in text
        # d is never closed: reported as before, unconditionally.
        assert '(vals-recv vals alt-v "d" true)' in text


def test_a_range_reports_each_value_as_a_receive() -> None:
    text = render(_program(PRODUCER_RANGE), "clojure", values=True)
    var = re.search(r"\(when-some \[(\w+) \(<! c\)\]", text).group(1)  # type: ignore[union-attr]
    assert f'(vals-recv vals {var} "c" false)' in text


def test_a_select_on_one_channel_both_ways_takes_nil_as_a_closed_take() -> None:
    program = lc.Program(
        ("c",),
        lc.Then(
            lc.SpawnE(lc.Then(lc.Recv("c"), lc.CloseE("c"))),
            lc.SelectE(
                (lc.Case("put", "c", None, lc.Unit()), lc.Case("get", "c", None, lc.Unit()))
            ),
        ),
        (("c", 1),),
    )
    text = render(program, "clojure")
    assert "(and (identical? alt-p c) (true? alt-v))" in text
    assert "(and (identical? alt-p c) (or (nil? alt-v) (number? alt-v)))" in text


@pytest.mark.parametrize("flavour", list(FLAVOURS))
def test_spawns_in_a_range_body_keep_every_join(flavour: str) -> None:
    take, _ = FLAVOURS[flavour]
    text = render(_program(SPAWN_IN_RANGE), "clojure", flavour=flavour)
    site = re.search(r"\(swap! (join\d+) conj \(prog0-proc\d+", text)
    assert site, text
    join = site.group(1)
    assert f"{join} (atom [])" in text
    assert f"(loop [js (seq @{join})]" in text
    assert f"(when js ({take} (first js)) (recur (next js))))" in text


def test_the_oldest_releases_refuse_programs_that_close_and_say_why() -> None:
    reason = unsupported_reason(_program(PRODUCER_RANGE), "clojure", put_result="nil")
    assert reason is not None and "0.1.278.0" in reason and "returns nil" in reason
    with pytest.raises(UnsupportedProgram, match="returns nil from every put"):
        render(_program(CLOSED_GET), "clojure", put_result="nil")
    # Buffered channels alone need no put result.
    assert unsupported_reason(_program(BUFFERED_ONLY), "clojure", put_result="nil") is None
    assert "(chan 2)" in render(_program(BUFFERED_ONLY), "clojure", put_result="nil")


def test_put_result_leaves_programs_that_do_not_close_unchanged() -> None:
    program = generate_program(3, PRESETS["E"]).program
    assert render(program, "clojure", put_result="nil") == render(program, "clojure")


@pytest.mark.parametrize(
    ("version", "result"),
    [
        ("0.1.215.5-8022b8-alpha", "nil"),
        ("0.1.267.0-0d7780-alpha", "nil"),
        (FIRST_PUT_STATUS, "boolean"),
        ("0.3.443", "boolean"),
        ("1.9.865", "boolean"),
    ],
)
def test_each_release_renders_with_what_its_puts_return(version: str, result: str) -> None:
    assert put_result(version) == result
    assert bool(close_note(version)) == (result == "nil")
    own = (("put_result", "nil"),) if result == "nil" else ()
    toolchain = Toolchain(
        "clojure-go", version, "clojure-go-x", "installed", Path("/x"), Path("/x/java"), render=own
    )
    assert _render_options(toolchain, RunSettings(repetitions=1)) == dict(own)


@pytest.mark.parametrize("heuristic", list(PRESETS))
def test_generated_buffered_programs_render_in_both_flavours(heuristic: str) -> None:
    capabilities = get_target("clojure-go").capabilities
    settings = settings_for(heuristic, buffered=True)
    programs = [generate_program(s, settings, capabilities).program for s in range(8)]
    for flavour in FLAVOURS:
        text = render_batch(programs, "clojure", repetitions=2, flavour=flavour, values=True)
        assert text.count("(defn prog") >= len(programs)
        assert text.count("(") == text.count(")")

"""Clojure renderer: golden files (go and thread flavours, value oracle), joins, selects,
options, determinism, schedule perturbation; slow: AOT-compiled and run on core.async."""

from __future__ import annotations

import random
import re

import pytest

from generator import lambda_chan as lc
from generator.render import render, render_batch
from generator.render._common import SpawnS, lower, value_table, walk
from generator.render.clojure import render_lisp_cond
from tests.generator.render.helpers import Variant, check_golden, golden_cases
from tests.generator.render.programs import PAPER, PROGRAMS

VARIANTS = [
    Variant("clojure-go", "clojure", "clj", {"flavour": "go"}),
    Variant("clojure-thread", "clojure", "clj", {"flavour": "thread"}),
    Variant("clojure-go-values", "clojure", "clj", {"flavour": "go", "values": True}),
    Variant("clojure-thread-values", "clojure", "clj", {"flavour": "thread", "values": True}),
]


@pytest.mark.parametrize(
    ("filename", "text"),
    [case for v in VARIANTS for case in golden_cases(v)],
    ids=lambda x: str(x)[:40],
)
def test_golden(filename: str, text: str) -> None:
    check_golden(filename, text)


def _spawns(program: lc.Program) -> int:
    return sum(isinstance(s, SpawnS) for s in walk(lower(program).body))


def _balanced(text: str) -> bool:
    """Parentheses and brackets balance outside strings and comments."""
    depth = 0
    for line in text.splitlines():
        line = re.sub(r'"(?:[^"\\]|\\.)*"', '""', line).split(";", 1)[0]
        for ch in line:
            depth += ch in "([{"
            depth -= ch in ")]}"
            if depth < 0:
                return False
    return depth == 0


@pytest.mark.parametrize("name", list(PROGRAMS))
@pytest.mark.parametrize("flavour", ["go", "thread"])
def test_every_spawn_is_joined_by_its_process(name: str, flavour: str) -> None:
    program = PROGRAMS[name]
    text = render(program, "clojure", seed=3, flavour=flavour, values=True)
    assert _balanced(text)
    spawn, take = ("go", "<!") if flavour == "go" else ("thread", "<!!")
    sites = re.findall(r"\(reset! join(\d+) \(prog0-proc(\d+)[ )]", text)
    assert all(a == b for a, b in sites)
    sites = [a for a, _ in sites]
    # Each process is a function of its own that starts it: no go block nests another.
    functions = re.findall(rf"^\(defn prog0-proc(\d+) \[.*\]\n  \({spawn}$", text, re.M)
    assert sorted(functions) == sorted(sites)
    assert len(sites) == _spawns(program)
    joins = re.findall(rf"\(when-let \[j @join(\d+)\] \({re.escape(take)} j\)\)", text)
    declared = re.findall(r"join(\d+) \(atom nil\)", text)
    assert sorted(sites) == sorted(joins) == sorted(declared)
    # Every process body halts the program on an exception before its channel closes.
    processes = len(sites) + (1 if flavour == "go" else 0)
    assert text.count("(catch Throwable e (crash! e))") == processes


def test_flavours_use_their_own_operations() -> None:
    program = PAPER["kotlin"]
    go = render(program, "clojure", flavour="go")
    thread = render(program, "clojure", flavour="thread")
    assert "(alts! [" in go and "(>! " in go and "(<! " in go and "(<!! (go" in go
    assert "alts!!" not in go and ">!!" not in go and "(thread" not in go
    assert "(alts!! [" in thread and "(>!! " in thread and "(<!! " in thread
    assert re.search(r"\((go|alts!|<!|>!) ", thread) is None
    assert render(program, "clojure") == go  # go is the default


def test_a_select_merges_cases_that_share_a_channel_and_direction() -> None:
    # Fig. 15: a select with c5 received three times.
    text = render(PAPER["kotlin"], "clojure", flavour="thread")
    assert "(alts!! [c5])" in text
    assert "(case (int (rand-int 3))" in text
    assert "(alts!! [c2 [c5 0] [c3 0]])" in text


def test_a_select_that_sends_and_receives_on_one_channel_tells_them_apart() -> None:
    program = lc.Program(
        ("c1",),
        lc.SelectE((lc.Case("get", "c1", "x", lc.Unit()), lc.Case("put", "c1", None, lc.Unit()))),
    )
    text = render(program, "clojure")
    assert "(alts! [c1 [c1 0]])" in text
    assert "(and (identical? alt-p c1) (number? alt-v))" in text
    assert "(and (identical? alt-p c1) (true? alt-v))" in text


def test_sends_carry_numbers_never_nil() -> None:
    for program in PROGRAMS.values():
        text = render(program, "clojure", flavour="thread")
        assert re.search(r"\(>!! \w+ nil\)", text) is None
        assert all(v == "0" for v in re.findall(r"\(>!! \w+ (\S+?)\)", text))


def test_the_value_oracle_checks_each_run() -> None:
    program = PAPER["flix2"]
    text = render(program, "clojure", values=True, repetitions=4)
    assert text.count("(vals-check vals)") == 1
    assert '(def prog0-chans ["" ' in text
    table = re.search(r"\(def prog0-chans \[(.*)\]\)", text)
    assert table is not None
    sends = value_table(lower(program)).chans
    assert table.group(1).split() == ['""', *(f'"{c}"' for c in sends)]
    assert "chanfuzz: wrong value: " in text and "(.halt (Runtime/getRuntime) 65)" in text
    assert "(vals-recv vals" in text and "(vals-done vals 1)" in text
    assert sends  # the program sends: the oracle has something to check
    assert "vals" not in render(program, "clojure")


def test_dispatcher_runs_program_i_and_refuses_others() -> None:
    programs = list(PROGRAMS.values())
    text = render_batch(programs, "clojure", repetitions=2)
    assert text.startswith(";; Code generated by chanfuzz.")
    assert "(ns chanfuzz.main\n  (:gen-class))" in text
    for i in range(len(programs)):
        assert f'"{i}" (prog{i})' in text
        assert f"(defn prog{i}-once []" in text
    assert "(System/exit 2)" in text and text.rstrip().endswith("(System/exit 0))")
    assert "(Thread/setDefaultUncaughtExceptionHandler" in text
    # Several indices: each program in turn, its end marked (runners.engine.execute).
    assert '(doseq [i args] (run-program i) (println (str "chanfuzz: done " i)))' in text
    assert "(run-program (first args))" in text


@pytest.mark.parametrize("flavour", ["go", "thread"])
def test_the_same_seed_gives_the_same_bytes(flavour: str) -> None:
    programs = list(PROGRAMS.values())
    one = render_batch(programs, "clojure", seed=11, repetitions=3, flavour=flavour)
    two = render_batch(programs, "clojure", seed=11, repetitions=3, flavour=flavour)
    assert one == two
    others = {render_batch(programs, "clojure", seed=s, flavour=flavour) for s in range(6)}
    assert len(others) > 1  # the seed varies the syntax


def test_options_are_checked() -> None:
    program = PAPER["flix1"]
    with pytest.raises(ValueError, match="flavour must be one of go, thread"):
        render(program, "clojure", flavour="virtual")
    with pytest.raises(ValueError, match="unknown option"):
        render(program, "clojure", threads=4)
    with pytest.raises(ValueError, match="pct_depth"):
        render(program, "clojure", pct_depth=0)


def test_perturbation_yields_in_each_flavour_and_sizes_the_go_pool() -> None:
    program = PAPER["kotlin"]
    plain = render(program, "clojure", flavour="go")
    go = render(program, "clojure", flavour="go", pct_depth=4)
    thread = render(program, "clojure", flavour="thread", pct_depth=4)
    assert go.count("(<! (timeout 0))") == 3
    assert thread.count("(Thread/yield)") == 3
    assert "timeout" not in thread
    # Only a perturbed go program reads the run's thread count, before core.async loads.
    assert "CHANFUZZ_THREADS" not in plain and "CHANFUZZ_THREADS" not in thread
    assert go.index('(System/setProperty "clojure.core.async.pool-size" n)') < go.index(
        "(require '[clojure.core.async"
    )
    # Depth 1 has no change point: no yield, but the pool still follows the run.
    assert "(timeout 0)" not in render(program, "clojure", pct_depth=1)


def test_conditions_are_prefix_and_keep_their_value() -> None:
    cond = lc.BoolOp("&&", lc.Compare("<", 3, 5), lc.Not(lc.Compare("!=", 1, 1)))
    seen = {render_lisp_cond(cond, random.Random(seed)) for seed in range(20)}
    assert "(and (< 3 5) (not (not= 1 1)))" in seen
    assert "(and (> 5 3) (not (not= 1 1)))" in seen
    assert seen <= {
        "(and (< 3 5) (not (not= 1 1)))",
        "(and (> 5 3) (not (not= 1 1)))",
    }

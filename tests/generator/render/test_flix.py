"""Flix renderer: golden files (current Flix and 0.5), effects, unsupported selects, and
the 0.5 join scheme checked on the rendered text path by path. Flix cannot be installed
here, so nothing is compiled."""

from __future__ import annotations

import random
import re
from collections import Counter
from dataclasses import dataclass, field

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator import lambda_chan as lc
from generator.render import UnsupportedProgram, render, render_batch, supports
from generator.synthesis import synthesize
from tests.generator.render.helpers import VARIANTS, check_golden, golden_cases
from tests.generator.render.programs import MIXED_GET, PAPER, PROGRAMS
from tests.generator.strategies import effects

FLIX = [VARIANTS["flix-current"], VARIANTS["flix-0.5"]]


@pytest.mark.parametrize(
    ("filename", "text"),
    [case for v in FLIX for case in golden_cases(v)],
    ids=lambda x: str(x)[:40],
)
def test_golden(filename: str, text: str) -> None:
    check_golden(filename, text)


@pytest.mark.parametrize("version", ["current", "0.5"])
@pytest.mark.parametrize("name", ["crystal", "kotlin", "mixed"])
def test_select_with_a_put_case_is_unsupported(version: str, name: str) -> None:
    assert not supports(PROGRAMS[name], "flix", flix_version=version)
    with pytest.raises(UnsupportedProgram, match="only receive"):
        render(PROGRAMS[name], "flix", flix_version=version)
    with pytest.raises(UnsupportedProgram, match="program 1"):
        render_batch([PAPER["flix1"], PROGRAMS[name]], "flix", flix_version=version)


def test_paper_flix_programs_in_the_papers_syntax() -> None:
    text = render(PAPER["flix1"], "flix", flix_version="0.5")
    for c in ("c1", "c2", "c3"):
        assert f"let {c} = chan Unit 0;" in text
    assert re.search(r"case \w+ <- c2 => \{", text)
    assert "def main(): Unit = prog0(1)" in text
    text = render(PAPER["flix2"], "flix", flix_version="0.5")
    assert "c1 <- ();" in text and "<- c4;" in text


# ---------------------------------------------------------------- current Flix


def _signature(text: str, name: str) -> str:
    m = re.search(rf"def {name}\([^)]*\): Unit( \\ (\S+|\{{[^}}]*\}}))? =", text)
    assert m, text
    return m.group(2) or ""


@pytest.mark.parametrize(
    ("program", "effect"),
    [
        (PAPER["flix1"], "{Chan, NonDet}"),
        (MIXED_GET, "{Chan, IO, NonDet}"),  # it spawns a process that does nothing
        (lc.Program(("c1",), lc.SpawnE(lc.Send("c1"))), "Chan"),
        (lc.Program(("c1",), lc.Unit()), "IO"),  # nothing at all: cast, main is effectful
    ],
)
def test_current_effects_are_exact(program: lc.Program, effect: str) -> None:
    text = render(program, "flix")
    assert _signature(text, "prog0Once") == effect
    assert _signature(text, "prog0") == effect
    assert _signature(text, "main") == effect
    batch = render_batch([program], "flix")
    assert "use Sys.Env" in batch and "Exit.exit(2)" in batch
    expected = set(effect.strip("{}").split(", ")) | {"Env", "Exit"}
    assert set(_signature(batch, "main").strip("{}").split(", ")) == expected


def test_current_pure_run_is_cast_to_io() -> None:
    text = render(lc.Program((), lc.Unit()), "flix")
    assert "unchecked_cast({" in text and "as _ \\ IO)" in text


def test_current_binds_nothing_and_types_receive_only_channels() -> None:
    program = lc.Program(
        ("c1", "c2"),
        lc.Let("x", lc.Recv("c1"), lc.SelectE((lc.Case("get", "c2", "y", lc.Var("y")),))),
    )
    text = render(program, "flix")
    assert "let x" not in text and "let y" not in text
    assert "case _ <- recv(c2Rx) => ()" in text
    # Nothing sends on them: their element type is written out, the senders unbound.
    assert "let (_, c1Rx): (Sender[Unit], Receiver[Unit]) = Channel.unbuffered();" in text
    assert "region" not in text  # no spawn: an unused region would be an error


def test_current_spawns_in_one_region() -> None:
    text = render(MIXED_GET, "flix")
    assert text.count("region rc {") == 1
    assert text.count("@ rc") == 6
    assert "not" not in text and " or " in text  # `||` is `or` in current Flix


# ---------------------------------------------------------------- Flix 0.5 joins


@dataclass
class Node:
    kind: str  # "block", "spawn", "if", "select", "stmt"
    text: str = ""
    children: list[Node] = field(default_factory=list)


def _parse(lines: list[str], i: int) -> tuple[Node, int]:
    """A block of the renderer's Flix 0.5 output, up to a closing line; returns the end index."""
    block = Node("block")
    while i < len(lines):
        line = lines[i].strip().rstrip(";")
        if line.startswith("}"):
            return block, i
        if line == "spawn {":
            body, i = _parse(lines, i + 1)
            block.children.append(Node("spawn", children=[body]))
        elif line.startswith("if ("):
            then, i = _parse(lines, i + 1)
            assert lines[i].strip() == "} else {"
            orelse, i = _parse(lines, i + 1)
            block.children.append(Node("if", children=[then, orelse]))
        elif line == "select {":
            node = Node("select")
            i += 1
            while lines[i].strip() != "}" and not lines[i].strip().startswith("};"):
                case = lines[i].strip()
                assert case.startswith("case "), case
                if case.endswith("=> {"):
                    body, i = _parse(lines, i + 1)
                else:
                    body = Node("block", children=[Node("stmt", case.split("=> ", 1)[1])])
                node.children.append(body)
                i += 1
            block.children.append(node)
        else:
            block.children.append(Node("stmt", line))
        i += 1
    return block, i


def _signals(block: Node) -> set[tuple[tuple[str, int], ...]]:
    """Every possible count of join signals one run of the block makes, over all paths:
    `joinK <- ()` put by the process itself or, for a spawn, by the spawned process."""
    outcomes: set[tuple[tuple[str, int], ...]] = {()}
    for node in block.children:
        if node.kind == "stmt":
            m = re.fullmatch(r"(join\d+) <- \(\)", node.text)
            options = [Counter({m.group(1): 1})] if m else [Counter()]
        elif node.kind == "spawn":
            body = node.children[0]
            last = body.children[-1]
            m = re.fullmatch(r"(join\d+) <- \(\)", last.text)
            assert last.kind == "stmt" and m, "a spawned process must signal as its last act"
            options = [Counter({m.group(1): 1})]
        else:
            options = [Counter(dict(o)) for child in node.children for o in _signals(child)]
        outcomes = {
            tuple(sorted((Counter(dict(before)) + option).items()))
            for before in outcomes
            for option in options
        }
    return outcomes


def _check_process(block: Node, declared_outside: set[str]) -> None:
    """Joins of one process: each declared `joinK` gets exactly one signal on every path and
    is awaited at the end; then the same for every spawned process inside."""
    stmts = [n.text for n in block.children if n.kind == "stmt"]
    declared = [m.group(1) for s in stmts if (m := re.fullmatch(r"let (join\d+) = chan Unit 1", s))]
    assert not set(declared) & declared_outside
    for outcome in _signals(block):
        counts = dict(outcome)
        own = {k: v for k, v in counts.items() if k in declared}
        assert own == dict.fromkeys(declared, 1), (declared, counts)
    tail = [n.text for n in block.children[len(block.children) - len(declared) :]]
    waits = [t for t in tail if t.startswith("<- join")]
    if block.children and block.children[-1].text.startswith("join"):
        waits = [n.text for n in block.children[-1 - len(declared) : -1]]
    assert waits == [f"<- {k}" for k in declared]

    def spawned(node: Node):
        for child in node.children:
            if child.kind == "spawn":
                yield child.children[0]
            elif child.kind != "stmt":
                yield from spawned(child)

    for body in spawned(block):
        _check_process(body, declared_outside | set(declared))


def _check_file(text: str) -> int:
    lines = text.splitlines()
    starts = [
        i for i, line in enumerate(lines) if re.match(r"def prog\d+Once\(\): Unit = \{", line)
    ]
    for start in starts:
        block, end = _parse(lines, start + 1)
        assert lines[end] == "}"
        _check_process(block, set())
    return len(starts)


@pytest.mark.parametrize("seed", range(6))
def test_05_joins_on_every_path(seed: int) -> None:
    programs = [p for p in PROGRAMS.values() if supports(p, "flix")]
    text = render_batch(programs, "flix", flix_version="0.5", seed=seed)
    assert _check_file(text) == len(programs)


@settings(max_examples=80, deadline=None)
@given(effect=effects(max_leaves=12), seed=st.integers(0, 1000))
def test_05_joins_on_every_path_of_arbitrary_programs(effect, seed: int) -> None:
    program = synthesize(effect, random.Random(seed))
    if not supports(program, "flix", flix_version="0.5"):
        return
    assert _check_file(render(program, "flix", flix_version="0.5", seed=seed)) == 1


def test_05_checker_catches_a_missing_signal() -> None:
    text = render(MIXED_GET, "flix", flix_version="0.5", seed=1)
    broken = text.replace("        join3 <- ();\n", "", 1)
    assert broken != text
    with pytest.raises(AssertionError):
        _check_file(broken)


def test_05_batch_reads_the_environment() -> None:
    text = render_batch(
        [PAPER["flix1"], PAPER["flix2"]], "flix", flix_version="0.5", repetitions=100
    )
    assert 'java.lang.System.getenv("CHANFUZZ_PROGRAM")' in text
    assert 'if (program == "0") prog0(100)' in text
    assert 'else if (program == "1") prog1(100)' in text
    assert "java.lang.System.exit(2)" in text

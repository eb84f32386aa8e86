"""The value oracle in Go: a correct run passes it, and each kind of wrong message is caught.

The runtime here is correct, so a wrong message is made by editing the rendered
program the way a faulty runtime would behave: a value that no send on the
channel carries, one value delivered twice, a receive that never reports.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from generator import effects
from generator.render import render
from generator.render._common import ORACLE_EXIT
from generator.synthesis import synthesize
from runners.engine.verdicts import Outcome, classify_run
from tests.generator.render.helpers import compile_ok, go_binary, need, run


def _source(effect: str) -> str:
    program = synthesize(effects.parse(effect), random.Random(0))
    return render(program, "go", seed=3, repetitions=2, values=True)


def _verdict(source: str, tmp_path: Path):  # noqa: ANN202
    go = go_binary()
    need(go, "go")
    (tmp_path / "main.go").write_text(source)
    compile_ok([go, "build", "-o", "prog", "main.go"], cwd=tmp_path)
    out = run([str(tmp_path / "prog")], timeout=30, cwd=tmp_path)
    verdict = classify_run(
        "go", exit_code=out.returncode, signal=None, timed_out=out.timed_out,
        stdout=out.stdout, stderr=out.stderr,
    )  # fmt: skip
    return out, verdict


@pytest.mark.slow
def test_a_correct_run_passes_the_oracle(tmp_path: Path) -> None:
    source = _source("Spawn(Put(c1)) ; Spawn(SelPut(c2, eps) (+) SelPut(c3, eps)) ; "
                     "Get(c1) ; SelGet(c2, eps) (+) SelGet(c3, eps)")  # fmt: skip
    out, verdict = _verdict(source, tmp_path)
    assert (out.returncode, verdict.outcome) == (0, Outcome.TERMINATED), out.stderr


@pytest.mark.slow
def test_a_value_no_send_on_the_channel_carries_is_caught(tmp_path: Path) -> None:
    source = _source("Spawn(Put(c1)) ; Get(c1)")
    assert "c1 <- 1\n" in source
    out, verdict = _verdict(source.replace("c1 <- 1\n", "c1 <- 9\n"), tmp_path)
    assert out.returncode == ORACLE_EXIT
    assert verdict.outcome is Outcome.WRONG_VALUE
    assert verdict.signature == "go | wrong value | received from the wrong channel (by a receive)"
    assert "value 9, sent by no send, received on c1" in verdict.reason


@pytest.mark.slow
def test_a_value_received_twice_is_caught(tmp_path: Path) -> None:
    source = _source("Spawn(Put(c1)) ; Spawn(Put(c1)) ; Get(c1) ; Get(c1)")
    assert "c1 <- 2\n" in source
    out, verdict = _verdict(source.replace("c1 <- 2\n", "c1 <- 1\n"), tmp_path)
    assert verdict.outcome is Outcome.WRONG_VALUE
    assert verdict.signature == "go | wrong value | received twice (by a receive)"


@pytest.mark.slow
def test_a_completed_send_nobody_received_is_caught(tmp_path: Path) -> None:
    source = _source("Spawn(Put(c1)) ; SelGet(c1, eps)")
    # `val`, or `int(recv_.Int())` where the select went through reflect.Select
    receive = re.compile(r'vals\.recv\(([^"]+), "c1", true\)')
    assert receive.search(source)
    out, verdict = _verdict(receive.sub(r"_ = \1", source), tmp_path)
    assert verdict.outcome is Outcome.WRONG_VALUE
    assert verdict.signature == "go | wrong value | sent but never received (a send)"
    assert "value 1 on c1: its send completed, nobody received it" in verdict.reason

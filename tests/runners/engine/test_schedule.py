"""A perturbed run's thread count: drawn from the program and the depth, set through the
target's environment, seen by the runtime, recorded on the attempt."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.pipeline import generate_program
from generator.settings import PRESETS
from runners.engine.build import build
from runners.engine.run_alone import run_one
from runners.engine.run_target import target_for
from runners.engine.sandbox import Limits, get_sandbox
from runners.engine.schedule import THREAD_CHOICES, threads_for
from runners.targets import get_target
from tests.runners.conftest import require_toolchain

# Prints what the runtime took GOMAXPROCS to be (0 asks without changing it).
GOMAXPROCS_PROBE = """package main

import (
\t"fmt"
\t"runtime"
)

func main() {
\tfmt.Println("GOMAXPROCS", runtime.GOMAXPROCS(0))
}
"""


def _programs(n: int) -> list:
    return [generate_program(seed, PRESETS["A"]).program for seed in range(n)]


def test_the_thread_count_depends_on_the_program_and_depth_alone() -> None:
    programs = _programs(60)
    counts = [threads_for(p, 3) for p in programs]
    assert counts == [threads_for(p, 3) for p in programs]  # the same every time
    assert set(counts) <= set(THREAD_CHOICES) and len(set(counts)) >= 3
    assert [threads_for(p, 5) for p in programs] != counts  # another depth, another draw


def test_each_target_says_how_a_run_gets_its_threads() -> None:
    assert get_target("go").threads_env(3, {}) == {"GOMAXPROCS": "3"}
    assert get_target("crystal").threads_env(2, {}) == {"CRYSTAL_WORKERS": "2"}
    kotlin = get_target("kotlin").threads_env
    assert kotlin(4, {"threads": 8}) == {"CHANFUZZ_THREADS": "4"}
    assert kotlin(4, {"threads": 0}) == {}  # the library's own dispatcher: no pool to size
    assert get_target("rust-flume-async").threads_env(8, {}) == {"CHANFUZZ_THREADS": "8"}
    # A thread per process: nothing to size.
    assert get_target("rust-crossbeam").threads_env is None
    assert get_target("flix").threads_env is None


@pytest.mark.slow
def test_a_perturbed_go_run_gets_its_gomaxprocs_and_records_it(tmp_path: Path) -> None:
    go = require_toolchain("go")
    artifact = build(go, GOMAXPROCS_PROBE, tmp_path / "build")  # cached: reachable by uid 65534
    sandbox = get_sandbox("local")
    limits = Limits(timeout_s=20)
    programs = _programs(40)
    # Without perturbation the runtime keeps its own count, and none is recorded.
    plain = run_one(
        target_for(go), artifact, 0, sandbox=sandbox, limits=limits, program=programs[0]
    ).attempts[0]
    assert plain.threads is None and plain.stdout.startswith("GOMAXPROCS "), plain
    own = plain.stdout.strip()
    program = next(p for p in programs if f"GOMAXPROCS {threads_for(p, 3)}" != own)
    perturbed = run_one(
        target_for(go, pct_depth=3), artifact, 0, sandbox=sandbox, limits=limits, program=program
    ).attempts[0]
    expected = threads_for(program, 3)
    assert (perturbed.stdout.strip(), perturbed.threads) == (f"GOMAXPROCS {expected}", expected)

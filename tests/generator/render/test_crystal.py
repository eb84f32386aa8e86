"""Crystal renderer: golden files, joins; slow: compile and run with a real Crystal."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from generator.render import render, render_batch
from generator.render._common import SpawnS, lower, walk
from tests.generator.render.helpers import (
    VARIANTS,
    check_golden,
    check_group_runs,
    compile_ok,
    crystal_binary,
    golden_cases,
    need,
    run,
)
from tests.generator.render.programs import LONE_RECV, PROGRAMS, STUCK_CHILD

CRYSTAL = VARIANTS["crystal"]


@pytest.mark.parametrize(
    ("filename", "text"),
    golden_cases(CRYSTAL) + golden_cases(VARIANTS["crystal-values"]),
    ids=lambda x: str(x)[:40],
)
def test_golden(filename: str, text: str) -> None:
    check_golden(filename, text)


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


@pytest.mark.parametrize("name", list(PROGRAMS))
@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_every_spawn_is_counted_and_signals_last(name: str, seed: int) -> None:
    program = PROGRAMS[name]
    spawns = sum(isinstance(s, SpawnS) for s in walk(lower(program).body))
    lines = render(program, "crystal", seed=seed).splitlines()
    fibers = [i for i, line in enumerate(lines) if line.strip() == "spawn do"]
    assert len(fibers) == spawns
    for i in fibers:
        assert lines[i - 1].strip() == "spawned.add(1)"
        # The block's `end` is the next line back at the same indentation; the line
        # before it is the signal, one level in: nothing runs after it.
        end = next(j for j in range(i + 1, len(lines)) if _indent(lines[j]) <= _indent(lines[i]))
        assert lines[end].strip() == "end" and _indent(lines[end]) == _indent(lines[i])
        assert lines[end - 1].strip() == "done.send(nil)"
        assert _indent(lines[end - 1]) == _indent(lines[i]) + 2
    stripped = [line.strip() for line in lines]
    assert stripped.count("done.send(nil)") == stripped.count("spawned.add(1)") == spawns
    assert ("while joined < spawned.get" in stripped) == (spawns > 0)


def test_batch_dispatches_on_argv() -> None:
    programs = list(PROGRAMS.values())
    text = render_batch(programs, "crystal", repetitions=9)
    assert "ARGV.each do |arg|" in text and "case arg" in text
    for i in range(len(programs)):
        assert f'when "{i}" then prog{i}\n' in text
    assert "exit 2" in text


# ---------------------------------------------------------------- real toolchain


def _build(source: str, tmp_path: Path, cache: Path, *flags: str) -> Path:
    crystal = crystal_binary()
    need(crystal, "Crystal (set CHANFUZZ_CRYSTAL)")
    build = tmp_path / "build"
    build.mkdir()
    (build / "main.cr").write_text(source)
    env = {**os.environ, "CRYSTAL_CACHE_DIR": str(cache / "crystal")}
    compile_ok([crystal, "build", *flags, "main.cr", "-o", "prog"], cwd=build, env=env)
    return build / "prog"


@pytest.mark.slow
def test_crystal_runs_every_program(tmp_path: Path, build_cache: Path) -> None:
    programs = list(PROGRAMS.values())
    binary = _build(
        render_batch(programs, "crystal", seed=5, repetitions=200), tmp_path, build_cache
    )
    for i in range(len(programs)):
        out = run([str(binary), str(i)], timeout=30)
        assert out.returncode == 0, (i, out)
        assert out.stdout == ""  # run alone: no mark
    assert run([str(binary), str(len(programs))], timeout=10).returncode == 2
    assert run([str(binary)], timeout=10).returncode == 2
    check_group_runs(binary, [2, 0, 1], str(len(programs)), timeout=30)


@pytest.mark.slow
def test_crystal_runs_generated_programs_multithreaded(tmp_path: Path, build_cache: Path) -> None:
    """Generated programs (heuristic A) under Crystal's multi-threaded preview, 4 workers:
    the join counter is atomic, so it holds across threads."""
    from generator.pipeline import generate_program
    from generator.settings import settings_for

    programs = [generate_program(seed, settings_for("A")).program for seed in range(40)]
    programs += list(PROGRAMS.values())
    source = render_batch(programs, "crystal", seed=8, repetitions=50)
    binary = _build(source, tmp_path, build_cache, "-Dpreview_mt")
    env = {**os.environ, "CRYSTAL_WORKERS": "4"}
    for i in range(len(programs)):
        out = run([str(binary), str(i)], timeout=30, env=env)
        assert out.returncode == 0, (i, out)


@pytest.mark.slow
def test_crystal_waits_for_a_stuck_fiber(tmp_path: Path, build_cache: Path) -> None:
    """Crystal does not detect deadlocks: a stuck program hangs. A stuck *spawned* fiber
    must hang it too; without the join the main fiber would return and exit 0."""
    binary = _build(render_batch([STUCK_CHILD, LONE_RECV], "crystal"), tmp_path, build_cache)
    for i in range(2):
        assert run([str(binary), str(i)], timeout=3).timed_out


@pytest.mark.slow
def test_crystal_output_is_formatter_clean(tmp_path: Path) -> None:
    crystal = crystal_binary()
    need(crystal, "Crystal (set CHANFUZZ_CRYSTAL)")
    for seed in range(4):
        (tmp_path / f"p{seed}.cr").write_text(
            render_batch(list(PROGRAMS.values()), "crystal", seed=seed)
        )
    out = run([crystal, "tool", "format", "--check", "."], timeout=60, cwd=tmp_path)
    assert out.returncode == 0, out

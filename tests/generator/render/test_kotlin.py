"""Kotlin renderer: golden files (both package layouts), joins, duplicate select clauses;
slow: compile with a real kotlinc and run on a JVM."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from generator import lambda_chan as lc
from generator.render import UnsupportedProgram, render, render_batch, supports
from generator.render._common import SpawnS, lower, spawn_sites, walk
from tests.generator.render.helpers import (
    VARIANTS,
    check_golden,
    compile_ok,
    golden_cases,
    kotlin_home,
    need,
    run,
)
from tests.generator.render.programs import PAPER, PROGRAMS

KOTLIN = [VARIANTS["kotlin-modern"], VARIANTS["kotlin-experimental"]]


@pytest.mark.parametrize(
    ("filename", "text"),
    [
        case
        for v in [*KOTLIN, VARIANTS["kotlin-values"], VARIANTS["kotlin-experimental-values"]]
        for case in golden_cases(v)
    ],
    ids=lambda x: str(x)[:40],
)
def test_golden(filename: str, text: str) -> None:
    check_golden(filename, text)


def _spawns(program: lc.Program) -> int:
    return sum(isinstance(s, SpawnS) for s in walk(lower(program).body))


@pytest.mark.parametrize("name", list(PROGRAMS))
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_modern_launches_inside_a_scope(name: str, seed: int) -> None:
    program = PROGRAMS[name]
    text = render(program, "kotlin", seed=seed, repetitions=3)
    assert "experimental" not in text
    assert "runBlocking(Dispatchers.Default) {" in text
    assert "repeat(3) {" in text
    assert text.count("coroutineScope {") == 1
    assert len(re.findall(r"^\s*launch \{$", text, re.M)) == _spawns(program)
    # Every launch is inside the scope: after its line, before the scope closes.
    lines = text.splitlines()
    scope = next(i for i, line in enumerate(lines) if line.strip() == "coroutineScope {")
    depth = len(lines[scope]) - len(lines[scope].lstrip())
    end = next(
        i
        for i in range(scope + 1, len(lines))
        if lines[i].strip() == "}" and len(lines[i]) - len(lines[i].lstrip()) == depth
    )
    launches = [i for i, line in enumerate(lines) if line.strip() == "launch {"]
    assert all(scope < i < end for i in launches)


@pytest.mark.parametrize("name", list(PROGRAMS))
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_experimental_awaits_every_spawn(name: str, seed: int) -> None:
    program = PROGRAMS[name]
    text = render(program, "kotlin", seed=seed, package_layout="experimental")
    assert "import kotlinx.coroutines.experimental.*" in text
    assert "runBlocking(CommonPool) {" in text
    assert "launch" not in text and "coroutineScope" not in text
    adds = re.findall(r"(jobs\d+)\.add\(async\(coroutineContext\) \{", text)
    assert len(adds) == _spawns(program)
    # One list and one await loop per process that spawns, and every add uses a list
    # that was declared.
    lowered = lower(program)
    spawning = int(bool(spawn_sites(lowered.body))) + sum(
        1 for s in walk(lowered.body) if isinstance(s, SpawnS) and spawn_sites(s.body)
    )
    declared = re.findall(r"val (jobs\d+) = ArrayList<Deferred<\*>>\(\)", text)
    awaited = re.findall(r"for \(job in (jobs\d+)\) job\.await\(\)", text)
    assert len(declared) == len(set(declared)) == spawning
    assert sorted(awaited) == sorted(declared)
    assert set(adds) <= set(declared)


def _select_clauses(text: str) -> list[list[str]]:
    """The channel.clause heads of each select, by indentation."""
    lines = text.splitlines()
    selects = []
    for i, line in enumerate(lines):
        if line.strip() == "select<Unit> {":
            depth = len(line) - len(line.lstrip())
            heads = []
            for j in range(i + 1, len(lines)):
                d = len(lines[j]) - len(lines[j].lstrip())
                if d <= depth:
                    break
                m = re.match(r"\s*(\w+)\.(onReceive|onSend)", lines[j])
                if m and d == depth + (len(lines[i + 1]) - len(lines[i + 1].lstrip()) - depth):
                    heads.append(f"{m.group(1)}.{m.group(2)}")
            selects.append(heads)
    return selects


@pytest.mark.parametrize("layout", ["modern", "experimental"])
def test_duplicate_clauses_merge_and_keep(layout: str) -> None:
    program = PAPER["kotlin"]  # Fig. 15: a select with c5.onReceive three times
    merged = render(program, "kotlin", package_layout=layout, duplicate_clauses="merge")
    kept = render(program, "kotlin", package_layout=layout, duplicate_clauses="keep")
    assert all(len(heads) == len(set(heads)) for heads in _select_clauses(merged))
    assert ["c5.onReceive"] * 3 in _select_clauses(kept)
    assert "ThreadLocalRandom.current().nextInt(3)" in merged
    assert "ThreadLocalRandom" not in kept


def test_duplicate_clause_defaults_follow_the_layout() -> None:
    program = PAPER["kotlin"]
    assert render(program, "kotlin") == render(program, "kotlin", duplicate_clauses="merge")
    assert render(program, "kotlin", package_layout="experimental") == render(
        program, "kotlin", package_layout="experimental", duplicate_clauses="keep"
    )


def test_send_and_receive_on_one_channel_cannot_merge() -> None:
    program = lc.Program(
        ("c1",),
        lc.SelectE((lc.Case("get", "c1", "x", lc.Unit()), lc.Case("put", "c1", None, lc.Unit()))),
    )
    assert not supports(program, "kotlin")
    with pytest.raises(UnsupportedProgram, match="both sends and receives"):
        render(program, "kotlin")
    assert supports(program, "kotlin", duplicate_clauses="keep")
    assert "c1.onSend(Unit)" in render(program, "kotlin", duplicate_clauses="keep")


def test_main_class_and_dispatch() -> None:
    programs = list(PROGRAMS.values())
    text = render_batch(programs, "kotlin", repetitions=2)
    assert "the class is MainKt" in text.splitlines()[0]
    assert "fun main(args: Array<String>) {" in text
    assert "when (args.getOrNull(0)) {" in text
    for i in range(len(programs)):
        assert f'"{i}" -> prog{i}()' in text
    assert "System.exit(2)" in text


# ---------------------------------------------------------------- real toolchain


def _jars(directory: Path, pattern: str = "*.jar") -> str:
    return ":".join(str(p) for p in sorted(directory.glob(pattern)))


def _compile_modern(source: str, tmp_path: Path) -> str:
    """Compile with the toolchain of var/toolchains; the run classpath."""
    home = kotlin_home()
    need(home, "a Kotlin toolchain (var/toolchains/kotlin-*; or set CHANFUZZ_KOTLIN_HOME)")
    assert home is not None
    (tmp_path / "Main.kt").write_text(source)
    cmd = [
        "java",
        "-cp",
        _jars(home / "compiler"),
        "org.jetbrains.kotlin.cli.jvm.K2JVMCompiler",
        "-no-stdlib",
        "-no-reflect",
        "-nowarn",
        "-cp",
        _jars(home / "lib"),
        "-d",
        "out",
        "Main.kt",
    ]
    compile_ok(cmd, cwd=tmp_path)
    return f"{tmp_path / 'out'}:{_jars(home / 'lib')}"


@pytest.mark.slow
def test_kotlin_modern_runs_every_program(tmp_path: Path) -> None:
    from generator.pipeline import generate_program
    from generator.settings import settings_for

    programs = list(PROGRAMS.values())
    programs += [generate_program(seed, settings_for("E")).program for seed in range(15)]
    classpath = _compile_modern(render_batch(programs, "kotlin", seed=2, repetitions=100), tmp_path)
    for i in range(len(programs)):
        out = run(["java", "-cp", classpath, "MainKt", str(i)], timeout=60)
        assert out.returncode == 0, (i, out)
    assert run(["java", "-cp", classpath, "MainKt", "99"], timeout=60).returncode == 2


@pytest.mark.slow
def test_kotlin_17_rejects_kept_duplicate_clauses(tmp_path: Path) -> None:
    """Why "merge" is the modern default: kotlinx.coroutines ≥ 1.7 throws on a select
    with two clauses on one channel (skips when the toolchain is older)."""
    home = kotlin_home()
    need(home, "a Kotlin toolchain")
    assert home is not None
    version = re.search(r"coroutines-core(?:-jvm)?-(\d+)\.(\d+)", _jars(home / "lib"))
    if version is None or (int(version.group(1)), int(version.group(2))) < (1, 7):
        pytest.skip("kotlinx.coroutines older than 1.7 accepts duplicate clauses")
    # The check runs only when a select registers its clauses; a select whose first
    # clause is ready at once never reaches the duplicate. One run of the body can win
    # that race (it did in CI), so repeat it until some iteration registers all three.
    source = render(PAPER["kotlin"], "kotlin", duplicate_clauses="keep", repetitions=1000)
    classpath = _compile_modern(source, tmp_path)
    out = run(["java", "-cp", classpath, "MainKt"], timeout=60)
    assert out.returncode != 0
    assert "Cannot use select clauses on the same object" in out.stderr


@pytest.mark.slow
def test_kotlin_experimental_runs_every_program(tmp_path: Path) -> None:
    """The pre-1.0 layout on a real pre-1.0 release (installed on demand, ~30 s cold)."""
    from runners.engine.build import build
    from runners.engine.build import run as run_artifact
    from runners.engine.toolchains import find_toolchain
    from runners.targets.kotlin_install import install_kotlin

    install_kotlin("0.22.5")
    toolchain = find_toolchain("kotlin", "0.22.5")
    assert toolchain.render_options()["package_layout"] == "experimental"
    programs = list(PROGRAMS.values())
    source = render_batch(programs, "kotlin", seed=4, repetitions=100, **toolchain.render_options())
    artifact = build(toolchain, source, tmp_path / "build", use_cache=False)
    for i in range(len(programs)):
        out = run_artifact(artifact, [i], timeout_s=60)
        assert out.exit_code == 0, (i, out)

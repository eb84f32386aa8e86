"""Building and running: cache keys and running artifacts (fast), and real
compiles and runs of hand-written programs in every language (slow).

How a process is supervised (timeouts, group kill, output bounds, rlimits) is
tested in test_supervisor.py."""

from __future__ import annotations

import dataclasses
import re
import signal
from collections.abc import Sequence
from pathlib import Path

import pytest

from generator.pipeline import generate_program
from generator.settings import PRESETS
from runners.engine.build import (
    KEY_WORKDIR,
    Artifact,
    CompileError,
    _bounded,
    artifact_key,
    build,
    build_recipe,
    run,
)
from runners.engine.run_target import target_for
from runners.engine.supervisor import run_argv
from runners.engine.toolchains import Toolchain, installed_toolchains
from runners.targets import go as go_target
from runners.targets import runnable_names, rust_cargo
from runners.targets.go import _go_language_version
from runners.targets.kotlin import _kotlin_plan
from tests.runners import programs
from tests.runners.conftest import LANGUAGES, require_toolchain
from tests.runners.engine.processes import alive, group_members

GO = Toolchain(
    language="go",
    version="1.26.8",
    id="go-1.26.8-machine",
    origin="machine",
    home=Path("/usr/local/go"),
    executable=Path("/usr/local/go/bin/go"),
)


# --- fast: keys and output bounds ----------------------------------------------------


def test_artifact_key_depends_on_everything_that_changes_the_output() -> None:
    key = artifact_key(GO, "package main\n")
    assert key == artifact_key(GO, "package main\n")
    assert re.fullmatch(r"[0-9a-f]{64}", key)
    different = {
        artifact_key(GO, "package main \n"),
        artifact_key(GO, "package main\n", ["-race"]),
        artifact_key(dataclasses.replace(GO, version="1.26.9"), "package main\n"),
        artifact_key(dataclasses.replace(GO, id="go-1.26.8-env"), "package main\n"),
        artifact_key(dataclasses.replace(GO, executable=Path("/opt/go/bin/go")), "package main\n"),
        artifact_key(dataclasses.replace(GO, components=(("java", "21"),)), "package main\n"),
    }
    assert key not in different
    assert len(different) == 6


def test_artifact_key_changes_with_how_the_target_builds(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # No version to bump by hand: a changed compiler setting, flag or module file is a
    # changed recipe, so nothing built the old way is reused.
    key = artifact_key(GO, "package main\n")
    monkeypatch.setattr(go_target, "BUILD_GOGC", "100")
    assert artifact_key(GO, "package main\n") != key
    monkeypatch.undo()
    monkeypatch.setattr(go_target, "_go_language_version", lambda _version: "1.21")
    assert artifact_key(GO, "package main\n") != key


def test_artifact_key_changes_with_a_rust_manifest(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    (tmp_path / "Cargo.lock").write_text("# a lock\n")
    crossbeam = Toolchain(
        language="rust-crossbeam",
        version="0.5.17",
        id="rust-crossbeam-0.5.17",
        origin="installed",
        home=tmp_path,
        executable=Path("/usr/bin/cargo"),
    )
    key = artifact_key(crossbeam, "fn main() {}\n")
    recipe = build_recipe(crossbeam)
    assert recipe is not None
    assert [name for name, _ in recipe["files"]] == ["Cargo.toml", "Cargo.lock"]  # type: ignore[attr-defined]
    # Where cargo builds and what it leaves are the recipe's too, for the placeholder
    # work directory: the binary is named after it, not after a worker's.
    assert recipe["writes"] == [str(tmp_path / "target")]
    assert str(recipe["product"]).startswith(f"{tmp_path}/target/release/prog_")
    written = rust_cargo.manifest_text
    monkeypatch.setattr(
        rust_cargo, "manifest_text", lambda *a, **k: written(*a, **k).replace('"abort"', '"unwind"')
    )
    assert artifact_key(crossbeam, "fn main() {}\n") != key
    monkeypatch.undo()
    (tmp_path / "Cargo.lock").write_text("# another lock\n")
    assert artifact_key(crossbeam, "fn main() {}\n") != key


def test_artifact_key_ignores_the_callers_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    key = artifact_key(GO, "package main\n")
    monkeypatch.setenv("TERM", "dumb-and-other")
    monkeypatch.setenv("GOFLAGS", "-mod=vendor")  # the plan's own setting replaces it
    assert artifact_key(GO, "package main\n") == key
    assert build_recipe(GO)["cwd"] == str(KEY_WORKDIR)  # type: ignore[index]


def test_go_language_version() -> None:
    assert _go_language_version("1.26.8") == "1.26"
    assert _go_language_version("1.19.8") == "1.19"
    assert _go_language_version("1.21rc2") == "1.21"
    assert _go_language_version("1.22") == "1.22"


def test_compiler_output_is_bounded_keeping_both_ends() -> None:
    text = "first error\n" + "x" * 100_000 + "\nlast line"
    cut = _bounded(text, limit=1000)
    assert len(cut) < 1100
    assert cut.startswith("first error")
    assert cut.endswith("last line")
    assert "characters cut" in cut
    assert _bounded("short", limit=1000) == "short"


def test_artifact_argv_appends_arguments() -> None:
    artifact = Artifact("t", "go", "k", Path("/x/prog"), ("/x/prog",), cached=False, compile_s=0)
    assert artifact.argv() == ["/x/prog"]
    assert artifact.argv(3, "y") == ["/x/prog", "3", "y"]


# --- fast: running artifacts ----------------------------------------------------------


def test_run_wraps_the_argv() -> None:
    artifact = Artifact(
        "t", "go", "k", Path("/bin/echo"), ("/bin/echo",), cached=False, compile_s=0
    )
    result = run(artifact, ["a", 1], 10, wrap=lambda argv: ["/usr/bin/env", *argv, "wrapped"])
    assert result.stdout == "a 1 wrapped\n"
    env_artifact = Artifact("t", "go", "k", Path("/bin/sh"), ("/bin/sh", "-c"), False, 0)
    result = run(env_artifact, ['echo "$CHANFUZZ_TEST_VAR"'], 10, env={"CHANFUZZ_TEST_VAR": "v"})
    assert result.stdout == "v\n"


# --- slow: real compilers ------------------------------------------------------------


@pytest.mark.slow
def test_hello_builds_runs_and_is_cached(
    toolchain: Toolchain, tmp_path: Path, artifact_cache: Path
) -> None:
    source = programs.HELLO[toolchain.language]
    artifact = build(toolchain, source, tmp_path / "work", cache_dir=artifact_cache)
    assert not artifact.cached and artifact.compile_s > 0
    assert artifact.path.is_relative_to(artifact_cache / toolchain.id)
    result = run(artifact, [], timeout_s=30)
    assert result.ok, result
    assert result.stdout == "hello 2\n"

    again = build(toolchain, source, tmp_path / "elsewhere", cache_dir=artifact_cache)
    assert again.cached and again.compile_s == 0
    assert (again.path, again.command, again.key) == (artifact.path, artifact.command, artifact.key)
    assert not (tmp_path / "elsewhere").exists()  # a cache hit does not touch the workdir
    assert (artifact.path.parent / "meta.json").is_file()


@pytest.mark.slow
def test_batch_dispatches_on_the_program_index(
    toolchain: Toolchain, tmp_path: Path, artifact_cache: Path
) -> None:
    artifact = build(
        toolchain, programs.BATCH[toolchain.language], tmp_path / "work", cache_dir=artifact_cache
    )
    for index in range(3):
        result = run(artifact, [index], timeout_s=30)
        assert result.ok, result
        assert result.stdout == f"program {index}\n"
    result = run(artifact, [7], timeout_s=30)
    assert result.exit_code == 64
    assert "no such program" in result.stderr


@pytest.mark.slow
def test_compile_error_carries_the_compiler_output(
    toolchain: Toolchain, tmp_path: Path, artifact_cache: Path
) -> None:
    source = programs.COMPILE_ERROR[toolchain.language]
    with pytest.raises(CompileError) as raised:
        build(toolchain, source, tmp_path / "work", cache_dir=artifact_cache)
    error = raised.value
    assert error.toolchain_id == toolchain.id
    assert error.exit_code not in (0, None) and not error.timed_out
    assert "nosuch" in error.output
    assert len(error.output) < 20_000
    assert not (artifact_cache / toolchain.id).exists() or not any(
        (artifact_cache / toolchain.id).iterdir()
    )


@pytest.mark.slow
def test_hanging_program_is_killed_with_its_children(
    toolchain: Toolchain, tmp_path: Path, artifact_cache: Path
) -> None:
    artifact = build(
        toolchain, programs.HANG[toolchain.language], tmp_path / "work", cache_dir=artifact_cache
    )
    # A JVM takes a while to start; with Clojure and core.async to load, about 2 s.
    timeout = {"kotlin": 3.0, "clojure-go": 6.0, "clojure-thread": 6.0}.get(toolchain.language, 1.5)
    result = run(artifact, [], timeout_s=timeout)
    assert result.timed_out, result
    assert result.signal == signal.SIGKILL
    assert timeout <= result.duration_s < timeout + 2
    match = re.search(r"pids (\d+) (\d+)", result.stdout)
    assert match, result
    program, child = int(match[1]), int(match[2])
    assert not alive(program)
    assert not alive(child)
    assert group_members(program) == []


@pytest.mark.slow
def test_uncached_build_stays_in_the_workdir(toolchain: Toolchain, tmp_path: Path) -> None:
    workdir = tmp_path / "work"
    artifact = build(toolchain, programs.HELLO[toolchain.language], workdir, use_cache=False)
    assert not artifact.cached
    assert artifact.path.parent == workdir.resolve()
    assert run(artifact, [], 30).stdout == "hello 2\n"


@pytest.mark.slow
def test_every_installed_go_builds(tmp_path: Path, artifact_cache: Path) -> None:
    """The machine's Go and Debian's (where both are installed) build and run programs."""
    # Releases only: a runtime mutant may break any program (runners.mutation).
    gos = [t for t in installed_toolchains("go") if t.origin != "mutant"]
    gos = gos or [require_toolchain("go")]
    for go in gos:
        artifact = build(go, programs.HELLO["go"], tmp_path / go.id, cache_dir=artifact_cache)
        assert run(artifact, [], 30).stdout == "hello 2\n", go


@pytest.mark.slow
def test_go_reports_a_deadlock(tmp_path: Path, artifact_cache: Path) -> None:
    go = require_toolchain("go")
    artifact = build(go, programs.GO_DEADLOCK, tmp_path / "work", cache_dir=artifact_cache)
    result = run(artifact, [], 30)
    assert result.exit_code == 2
    assert "all goroutines are asleep - deadlock!" in result.stderr


@pytest.mark.slow
def test_go_goroutine_dump_on_timeout(tmp_path: Path, artifact_cache: Path) -> None:
    go = require_toolchain("go")
    artifact = build(go, programs.HANG["go"], tmp_path / "work", cache_dir=artifact_cache)
    result = run(artifact, [], 1.0, dump_signal=signal.SIGQUIT)
    assert result.timed_out
    assert result.stderr.startswith("SIGQUIT: quit")
    # Go >= 1.23 prints "goroutine 1 gp=0x... m=nil [sleep]:", older ones "goroutine 1 [sleep]:".
    assert re.search(r"^goroutine 1 (gp=\S+ m=\S+ )?\[sleep\]:", result.stderr, re.M)


@pytest.mark.slow
def test_crystal_workdir_that_is_a_text_prefix_of_its_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """ENVIRONMENT.md's pitfall: working in /x/cr with the cache in /x/crystal/..."""
    crystal = require_toolchain("crystal")
    monkeypatch.setenv("CHANFUZZ_CACHE_DIR", str(tmp_path))
    workdir = tmp_path / "cr"  # "<tmp>/cr" is a text prefix of "<tmp>/crystal/<id>"
    artifact = build(crystal, programs.HELLO["crystal"], workdir, use_cache=False)
    assert run(artifact, [], 30).stdout == "hello 2\n"


@pytest.mark.slow
def test_crystal_multithreaded_runtime(tmp_path: Path, artifact_cache: Path) -> None:
    """Flags reach the compiler and the cache key: Crystal's -Dpreview_mt."""
    crystal = require_toolchain("crystal")
    source = programs.BATCH["crystal"]
    single = build(crystal, source, tmp_path / "a", cache_dir=artifact_cache)
    multi = build(crystal, source, tmp_path / "b", flags=["-Dpreview_mt"], cache_dir=artifact_cache)
    assert single.key != multi.key
    result = run(multi, [2], 30, env={"CRYSTAL_WORKERS": "2"})
    assert result.ok and result.stdout == "program 2\n", result


def test_languages_cover_the_registry() -> None:
    assert set(LANGUAGES) == set(runnable_names())
    assert set(programs.HELLO) == set(programs.BATCH) == set(programs.HANG) == set(LANGUAGES)


def _class_loads_logged(argv: Sequence[str], log: str = "") -> list[str]:
    """``argv`` of a Kotlin compile or run with its class loads logged (to ``log``, else
    stdout) instead of its archive's messages silenced."""
    option = f"-Xlog:class+load=info{f':file={log}' if log else ''}"
    return [option if arg.startswith(("-Xlog:cds", "-Xlog:aot")) else arg for arg in argv]


@pytest.mark.slow
@pytest.mark.parametrize("java25", [True, False], ids=["java25-aot-cache", "java17-cds"])
def test_kotlin_uses_its_class_data_archives(
    tmp_path: Path, artifact_cache: Path, monkeypatch: pytest.MonkeyPatch, java25: bool
) -> None:
    """The install script, the registry and the builder agree on classpaths.

    An archive or AOT cache that does not map is silently ignored (only slower), so
    check that classes really come from them, for the compiler and for a program run:
    on Java 25 with the AOT cache (the default), and on the compiler's Java 17 with
    ``runtime.jsa`` (``CHANFUZZ_JAVA25_RUNS=0``).
    """
    monkeypatch.setenv("CHANFUZZ_JAVA25_RUNS", "1" if java25 else "0")
    kotlin = require_toolchain("kotlin")
    if kotlin.cds_archive is None or kotlin.runtime_cds_archive is None:
        pytest.fail(f"{kotlin.id} has no class-data archives: run scripts/install_toolchains.sh")
    if java25 and kotlin.runtime_aot_cache is None:
        pytest.fail(f"{kotlin.id} has no Java 25 AOT cache: run scripts/install_toolchains.sh")
    artifact = build(kotlin, programs.HELLO["kotlin"], tmp_path / "w", cache_dir=artifact_cache)
    java = Path(artifact.command[0])
    assert (java == kotlin.run_executable) if java25 else (java == kotlin.executable)
    argv = _class_loads_logged(artifact.argv())
    result = run_argv(argv, 30, output_limit=64 << 20)  # the log outgrows the default
    assert result.exit_code == 0, result
    shared = re.findall(r"kotlinx\.coroutines\.\S+ source: shared objects file", result.stdout)
    assert len(shared) > 50, result.stdout[-2000:]

    workdir = tmp_path / "compile"
    workdir.mkdir()
    (workdir / "Main.kt").write_text(programs.HELLO["kotlin"])
    plan = _kotlin_plan(kotlin, workdir, ())
    argv = _class_loads_logged(plan.argv)
    result = run_argv(argv, 120, env=plan.env, cwd=plan.cwd, output_limit=64 << 20)
    assert result.exit_code == 0, result.stderr
    shared = re.findall(r"org\.jetbrains\.kotlin\.\S+ source: shared objects file", result.stdout)
    assert len(shared) > 1000


# Classes a generated program's run may still read from outside the run's archive, besides
# its own: the JDK's, from its runtime image, as the class path's file loader (3 on 0.19,
# 1.0.1 and 1.11.0, 2026-12-07, over 50 programs of heuristic A and 40 buffered ones; the
# method-handle classes 1.0.1's runs spin, about ten, are read from nowhere and not counted). None
# may come from a jar: looking for a class in the jars opens every one of them, about a fifth
# of a run's CPU in a fresh JVM (README, issue #18). A training program that did not use the
# renderer's thread pool left 17-32 on 1.11.0 and about 60 on 0.19; one that did, but never
# ended a coroutine before its child, read JobSupport$ChildCompletion from its jar in 46 runs
# of 50.
ARCHIVE_MISSES = 6


@pytest.mark.slow
@pytest.mark.parametrize(
    ("version", "heuristics", "buffered"),
    [
        ("1.11.0", "AEF", False),
        ("1.11.0", "AEF", True),
        ("1.0.1", "A", False),
        ("0.19", "A", False),
    ],
)
def test_kotlin_programs_find_their_library_classes_in_the_archive(
    tmp_path: Path, version: str, heuristics: str, buffered: bool
) -> None:
    """The training program does what generated programs do (toolchains/kotlin/training):
    a run of one reads only its own classes and a handful of the JDK's from outside the
    archive, and none from a jar, on the modern and on the experimental package layout,
    with buffered channels on a release whose programs receive with receiveCatching. (The
    races of 0.19 and 1.0.1 may crash programs of other heuristics: A's do not.)"""
    toolchain = require_toolchain("kotlin", version)
    target = target_for(toolchain, repetitions=2)
    options = dict(target.render_options)
    batch = [
        generate_program(
            seed, dataclasses.replace(PRESETS[h], buffered=buffered), target.spec.capabilities
        ).program
        for seed in range(6 if heuristics == "A" else 4)
        for h in heuristics
    ]
    batch = [p for p in batch if target.spec.supports(p, **options)]
    source = target.spec.render_batch(batch, repetitions=2, **options)
    artifact = build(toolchain, source, tmp_path / "w", flags=target.build_flags, use_cache=False)
    for index in range(len(batch)):
        log = tmp_path / f"classes-{index}.log"  # apart from what the program prints
        result = run_argv(_class_loads_logged(artifact.argv(index), str(log)), 60)
        assert result.exit_code == 0, result
        loads = re.findall(r"\[class,load\] (\S+) source: (.*)", log.read_text())
        assert len(loads) > 500, loads[-20:]
        missed = [
            (name, source)
            for name, source in loads
            if not source.startswith(("shared objects file", "__JVM_LookupDefineClass__"))
            and str(artifact.path) not in source
        ]
        assert len(missed) <= ARCHIVE_MISSES, missed
        assert not [name for name, source in missed if source.endswith(".jar")], missed

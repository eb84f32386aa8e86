"""The Clojure targets (clojure-go, clojure-thread): core.async releases from Maven Central,
their Clojure, the build plan and run command, and the readers on recorded JVM output."""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
from pathlib import Path

import pytest

from generator.capabilities import Capabilities
from generator.pipeline import generate_program
from generator.settings import PRESETS
from runners.engine.build import build
from runners.engine.execute import execute_batch
from runners.engine.run_target import target_for
from runners.engine.sandbox import Limits, get_sandbox
from runners.engine.toolchains import known_toolchains
from runners.engine.verdicts import Outcome, classify_run
from runners.targets import get_target
from runners.targets.base import InstallError, Toolchain, ToolchainUnavailable
from runners.targets.clojure_core_async import (
    NAMESPACE,
    build_plan,
    candidates,
    frame,
    hang_shape,
    read_crash,
    run_command,
    threads_env,
)
from runners.targets.clojure_install import DEFAULT_VERSIONS
from runners.targets.clojure_releases import (
    NO_POM_CLOJURE,
    OLDEST_CLOJURE,
    clojure_pairing,
    close_note,
    core_async_releases,
    parse_metadata,
    pom_clojure_version,
)
from runners.targets.clojure_thread import FLAVOUR as THREADS
from tests.runners.conftest import require_toolchain

SAMPLES = Path(__file__).parents[1] / "samples"
METADATA = (SAMPLES / "clojure_core_async_maven_metadata.xml").read_text()
PARENTS = {("org.clojure", "pom.contrib", "1.1.0"): SAMPLES / "clojure_pom.contrib_1.1.0.pom"}


def _parent(group: str, artifact: str, version: str) -> str:
    return PARENTS[(group, artifact, version)].read_text()


def test_every_release_in_maven_metadata_is_listed_in_publication_order() -> None:
    versions = parse_metadata(METADATA)
    assert len(versions) == 53
    assert versions[0] == "0.1.215.5-8022b8-alpha"
    assert {"1.6.681", "1.8.741", "1.9.865", "1.10.864-alpha1"} <= set(versions)
    assert versions.index("1.6.681") < versions.index("1.8.741")


def test_the_listing_is_cached_and_read_offline(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CHANFUZZ_TOOLCHAINS_DIR", str(tmp_path))
    with pytest.raises(Exception, match="offline, and no list"):
        core_async_releases(offline=True)
    cache = tmp_path / ".cache" / "maven-core.async.json"
    cache.parent.mkdir(parents=True)
    cache.write_text(json.dumps({"versions": parse_metadata(METADATA)}))
    assert core_async_releases(offline=True) == parse_metadata(METADATA)


def test_toolchains_list_shows_every_release(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CHANFUZZ_TOOLCHAINS_DIR", str(tmp_path))
    cache = tmp_path / ".cache" / "maven-core.async.json"
    cache.parent.mkdir(parents=True)
    cache.write_text(json.dumps({"versions": parse_metadata(METADATA)}))
    target = get_target("clojure-thread")
    assert target.known is not None
    listed = target.known(True, [])
    assert [k.version for k in listed] == parse_metadata(METADATA)
    assert all(k.state == "not installed" for k in listed)
    assert (
        "toolchains install clojure-thread 1.6.681"
        in listed[parse_metadata(METADATA).index("1.6.681")].detail
    )


def test_a_release_pairs_with_the_clojure_its_pom_names() -> None:
    own = (SAMPLES / "clojure_core_async_1.6.681.pom").read_text()
    assert pom_clojure_version(own, _parent) == "1.10.0"  # its own property beats the parent's
    inherited = own.replace("<clojure.version>1.10.0</clojure.version>", "")
    assert pom_clojure_version(inherited, _parent) == "1.8.0"  # pom.contrib 1.1.0's
    assert clojure_pairing("1.6.681", "1.10.0").clojure == "1.10.0"
    assert clojure_pairing("1.6.681", "1.10.0").substitution == ""


def test_a_pom_naming_no_clojure_gets_a_recorded_substitution() -> None:
    old = (SAMPLES / "clojure_core_async_0.2.371.pom").read_text()
    assert pom_clojure_version(old, _parent) is None  # Sonatype's oss-parent: no Clojure
    pairing = clojure_pairing("0.2.371", None)
    assert pairing.clojure == NO_POM_CLOJURE
    assert "names no Clojure" in pairing.substitution
    older = clojure_pairing("0.0.1", "1.5.1")
    assert older.clojure == OLDEST_CLOJURE and "instead of 1.5.1" in older.substitution


def test_a_version_that_does_not_exist_names_those_that_do(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CHANFUZZ_TOOLCHAINS_DIR", str(tmp_path))
    cache = tmp_path / ".cache" / "maven-core.async.json"
    cache.parent.mkdir(parents=True)
    cache.write_text(json.dumps({"versions": parse_metadata(METADATA)}))
    target = get_target("clojure-go")
    assert target.install is not None
    with pytest.raises(InstallError, match=r"9\.9\.9 is not a release .* 1\.6\.681, .*1\.9\.865"):
        target.install("9.9.9")
    assert not (tmp_path / ".failed").exists()  # a typo records nothing


def _toolchain(tmp_path: Path) -> Toolchain:
    cp = (tmp_path / "aot.jar", tmp_path / "lib" / "clojure-1.11.4.jar", tmp_path / "training.jar")
    return Toolchain(
        language="clojure-go",
        version="1.9.865",
        id="clojure-go-1.11.4-1.9.865",
        origin="installed",
        home=tmp_path,
        executable=Path("/usr/bin/java"),
        compiler_classpath=cp,
        runtime_classpath=cp,
        runtime_cds_archive=tmp_path / "runtime.jsa",
    )


def test_the_build_plan_aot_compiles_the_namespace_into_classes(tmp_path: Path) -> None:
    toolchain = _toolchain(tmp_path)
    work = tmp_path / "work"
    plan = build_plan(toolchain, work, [])
    assert plan.product == work / "classes" and plan.cwd == work
    assert plan.argv[0] == "/usr/bin/java" and "clojure.main" in plan.argv
    cp = plan.argv[plan.argv.index("-cp") + 1].split(os.pathsep)
    assert cp[0] == str(tmp_path / "aot.jar")  # AOT core.async before its sources
    assert str(work / "src") in cp and str(work / "classes") in cp
    script = plan.argv[-1]
    assert f"(compile (quote {NAMESPACE}))" in script and str(work / "classes") in script
    assert "JAVA_TOOL_OPTIONS" not in plan.env
    assert plan.writes == ()


def test_a_compiler_kept_running_compiles_the_namespace_with_a_full_jit(tmp_path: Path) -> None:
    toolchain = dataclasses.replace(_toolchain(tmp_path), cds_archive=tmp_path / "compile.jsa")
    work = tmp_path / "work"
    plan = build_plan(toolchain, work, ["-Dflag"])
    assert plan.resident is not None and plan.resident.tool == "ClojureCompiler"
    assert plan.resident.args == (str(work / "classes"), str(work / "src"), "chanfuzz/main.clj",
                                  NAMESPACE)  # fmt: skip
    assert plan.resident.classpath == toolchain.compiler_classpath
    flags = plan.resident.jvm_flags
    assert "-XX:TieredStopAtLevel=1" in plan.argv and "-XX:TieredStopAtLevel=1" not in flags
    assert f"-XX:SharedArchiveFile={tmp_path / 'compile.jsa'}" in flags and "-Dflag" in flags
    assert "-XX:SoftRefLRUPolicyMSPerMB=0" in flags  # a compile's classes can be unloaded


def test_a_compile_maps_the_compile_archive_when_the_release_has_one(tmp_path: Path) -> None:
    without = build_plan(_toolchain(tmp_path), tmp_path / "work", []).argv
    assert not any(arg.startswith("-XX:SharedArchiveFile=") for arg in without)
    archive = tmp_path / "compile.jsa"
    toolchain = dataclasses.replace(_toolchain(tmp_path), cds_archive=archive)
    argv = build_plan(toolchain, tmp_path / "work", ["-Dflag"]).argv
    assert f"-XX:SharedArchiveFile={archive}" in argv
    assert argv.index(f"-XX:SharedArchiveFile={archive}") < argv.index("clojure.main")
    assert "-Dflag" in argv  # the target's own flags still go to the JVM
    # Every compile skips the spec check of macro calls (the go macro's lets and cases).
    assert (
        "-Dclojure.spec.skip-macros=true" in without and "-Dclojure.spec.skip-macros=true" in argv
    )


def test_a_run_starts_the_namespace_with_a_fixed_heap_and_the_archive(tmp_path: Path) -> None:
    command = run_command(_toolchain(tmp_path), tmp_path / "classes")
    assert command[0] == "/usr/bin/java" and command[-1] == NAMESPACE
    assert "-Xmx256m" in command
    assert f"-XX:SharedArchiveFile={tmp_path / 'runtime.jsa'}" in command
    cp = command[command.index("-cp") + 1].split(os.pathsep)
    assert cp[-1] == str(tmp_path / "classes")  # the archive maps only for its own prefix


def test_only_a_go_program_has_a_pool_to_size() -> None:
    assert threads_env(4, {"flavour": "go", "pct_depth": 3}) == {"CHANFUZZ_THREADS": "4"}
    assert threads_env(4, {"flavour": "thread", "pct_depth": 3}) == {}
    assert get_target("clojure-thread").threads_env is None


def test_an_exception_in_a_go_block_is_a_crash_signed_by_its_frames() -> None:
    # Recorded: core.async 1.9.865, an IndexOutOfBoundsException in program 7's go block.
    text = (SAMPLES / "clojure_go_exception.txt").read_text()
    reason, signature = read_crash(text) or ("", "")
    assert reason == "java.lang.IndexOutOfBoundsException"
    assert signature == (
        "java.lang.IndexOutOfBoundsException | clojure.lang.PersistentVector.arrayFor"
        " < clojure.lang.PersistentVector.nth < clojure.lang.RT.nth"
    )
    # The same bug in another program of another batch is the same finding.
    renumbered = text.replace("prog7", "prog12").replace("fn__170", "fn__9031")
    assert read_crash(renumbered) == (reason, signature)
    verdict = classify_run(
        "clojure-go", exit_code=1, signal=None, timed_out=False, stdout="", stderr=text
    )
    assert verdict.outcome is Outcome.CRASH
    assert verdict.signature == f"clojure-go | {signature}"


def test_frames_lose_program_numbers_and_gensyms() -> None:
    assert frame("chanfuzz.main$prog7_proc0$fn__170$state_machine__5669__auto____173.invoke") == (
        "chanfuzz.main$prog_proc0$fn__N$state_machine__N__auto____N.invoke"
    )


def test_a_thread_dump_gives_the_hang_its_shape() -> None:
    # Recorded: core.async 1.9.865, a go block waiting forever to send, dumped on SIGQUIT.
    dump = (SAMPLES / "clojure_go_sigquit_dump.txt").read_text()
    shape = hang_shape(dump)
    assert "WAITING parking" in shape  # the main thread, in <!! of the run's go block
    assert read_crash(dump) is None  # a dump is not a crash


@pytest.mark.slow
@pytest.mark.parametrize("language", ["clojure-go", "clojure-thread"])
def test_a_generated_program_builds_and_runs_on_core_async(language: str, tmp_path: Path) -> None:
    toolchain = require_toolchain(language)
    target = get_target(language)
    program = generate_program(5, PRESETS["C"], Capabilities()).program
    source = target.render_batch([program], repetitions=3, **target.renderer_options)
    artifact = build(toolchain, source, workdir=tmp_path / "w", use_cache=False)
    done = subprocess.run(
        [*artifact.command, "0"], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    assert (artifact.path / "chanfuzz" / "main__init.class").is_file()


@pytest.mark.slow
def test_a_batch_of_the_most_programs_a_compile_takes_compiles(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """max_batch go-block programs of the default size: the namespace's initialiser, which
    defines every program's vars, stays within the JVM's limit on a method (larger programs,
    of settings asking for more processes, may not: such a batch splits)."""
    monkeypatch.setenv("CHANFUZZ_RESIDENT_COMPILERS", "0")
    toolchain = require_toolchain("clojure-go")
    target = get_target("clojure-go")
    programs, seed = [], 0
    while len(programs) < target.max_batch:
        program = generate_program(seed, PRESETS["A"], target.capabilities).program
        if target.supports(program, **target.renderer_options):
            programs.append(program)
        seed += 1
    source = target.render_batch(programs, repetitions=1, **target.renderer_options)
    artifact = build(toolchain, source, workdir=tmp_path / "w", use_cache=False)
    assert (artifact.path / "chanfuzz" / "main__init.class").is_file()


@pytest.mark.slow
@pytest.mark.parametrize("version", DEFAULT_VERSIONS)
def test_a_compile_loads_core_async_and_the_analyser_from_the_install_archive(
    version: str, tmp_path: Path
) -> None:
    toolchain = require_toolchain("clojure-go", version)
    if toolchain.cds_archive is None:
        pytest.skip(
            f"installed before compile archives: toolchains install clojure-go {version} --force"
        )
    target = get_target("clojure-go")
    program = generate_program(3, PRESETS["A"], Capabilities()).program
    source = target.render_batch([program], repetitions=1, **target.renderer_options)
    log = tmp_path / "classes.log"
    artifact = build(
        toolchain, source, workdir=tmp_path / "w", use_cache=False,
        flags=[f"-Xlog:class+load=info:file={log}"],
    )  # fmt: skip
    assert (artifact.path / "chanfuzz" / "main__init.class").is_file()
    shared = [line for line in log.read_text().splitlines() if "shared objects file (top)" in line]
    names = {line.split()[1] for line in shared}
    # Clojure's compiler (javac's classes) on every release; on Clojure 1.11 also
    # core.async's AOT classes and the go macro's analyser (1.7's are too old to hold).
    assert "clojure.lang.Compiler" in names and len(names) > 300
    if not version.startswith("0.1."):
        assert any(name.startswith("clojure.core.async.impl.") for name in names)
        assert any(name.startswith("clojure.tools.analyzer.") for name in names)


@pytest.mark.slow
@pytest.mark.parametrize("language", ["clojure-go", "clojure-thread"])
def test_the_oldest_default_release_runs_a_program_of_every_preset(
    language: str, tmp_path: Path
) -> None:
    # Conformance runs on the newest release; the oldest (0.1.x, on Clojure 1.7.0)
    # gets one generated program of each heuristic, as `fuzz` would run it.
    oldest = DEFAULT_VERSIONS[-1]
    toolchain = require_toolchain(language, oldest)
    capabilities = get_target(language).capabilities
    programs = [generate_program(1, s, capabilities).program for s in PRESETS.values()]
    workdir = tmp_path / "w"
    workdir.mkdir()
    workdir.chmod(0o755)  # the sandbox's user reads the build
    report = execute_batch(
        programs, target_for(toolchain, repetitions=5), workdir=workdir,
        sandbox=get_sandbox("local"), limits=Limits(timeout_s=60),
    )  # fmt: skip
    outcomes = [e.outcome for e in report.executions]
    assert outcomes == [Outcome.TERMINATED] * len(PRESETS), [
        (e.outcome, e.compile_output[-300:], [a.stderr[-300:] for a in e.attempts])
        for e in report.executions
    ]


@pytest.mark.slow
def test_an_installed_release_on_another_clojure_says_why_in_the_listing() -> None:
    oldest = require_toolchain("clojure-go", DEFAULT_VERSIONS[-1])
    newest = require_toolchain("clojure-go", DEFAULT_VERSIONS[0])
    rows = {k.version: k for k in known_toolchains("clojure-go", offline=True)}
    assert rows[oldest.version].note == (
        f"Clojure 1.7.0: the POM of core.async {oldest.version} names no Clojure; "
        + close_note(oldest.version)  # its puts return nil: programs that close are refused
    )
    assert rows[newest.version].note == ""  # on the Clojure its POM names


def test_with_no_release_installed_the_one_candidate_says_how_to_install_one(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("CHANFUZZ_TOOLCHAINS_DIR", str(tmp_path))
    (only,) = list(candidates(THREADS)())
    assert only.hint == "manage.py toolchains install clojure-thread VERSION"
    with pytest.raises(ToolchainUnavailable, match="no core.async release installed: run "):
        only.locate()


def test_installed_releases_are_candidates_newest_first(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("CHANFUZZ_TOOLCHAINS_DIR", str(tmp_path))
    for name in ("clojure-1.11.1-core.async-1.3.610", "clojure-1.11.1-core.async-1.10.0"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "toolchain.json").write_text("{}")
    found = list(candidates(THREADS)())
    assert [c.location.name for c in found] == [
        "clojure-1.11.1-core.async-1.10.0",
        "clojure-1.11.1-core.async-1.3.610",
    ]
    assert {c.origin for c in found} == {"installed"} and not any(c.hint for c in found)

"""The toolchain registry: discovery from the file system, versions, and clear
reasons when something is missing. Fast: nothing here runs a compiler (the
toolchains built below are directories laid out like real installs)."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from runners.engine.toolchains import (
    Toolchain,
    ToolchainUnavailable,
    available_toolchains,
    find_toolchain,
    snapshot,
)
from runners.targets import get_target, runnable_names
from runners.targets.base import INSTALL_HINT
from runners.targets.kotlin_releases import KOTLIN_VERSIONS_FILE, KotlinSpec, kotlin_specs


def make_goroot(root: Path, version: str) -> Path:
    """A directory laid out like an unpacked Go: bin/go and VERSION."""
    go = root / "bin" / "go"
    go.parent.mkdir(parents=True)
    go.write_text("#!/bin/sh\nexit 1\n")
    go.chmod(0o755)
    (root / "VERSION").write_text(f"go{version}\ntime 2024-01-01T00:00:00Z\n")
    return go


def make_kotlin(base: Path, kotlin: str, coroutines: str, *, manifest: bool = True) -> Path:
    """A directory laid out like scripts/install_toolchains.sh leaves it."""
    home = base / f"kotlin-{kotlin}-coroutines-{coroutines}"
    (home / "compiler").mkdir(parents=True)
    (home / "lib").mkdir()
    for jar in (f"kotlin-compiler-embeddable-{kotlin}.jar", f"kotlin-stdlib-{kotlin}.jar"):
        (home / "compiler" / jar).write_bytes(b"")
    for jar in (f"kotlin-stdlib-{kotlin}.jar", f"kotlinx-coroutines-core-jvm-{coroutines}.jar"):
        (home / "lib" / jar).write_bytes(b"")
    if manifest:
        (home / "toolchain.json").write_text(
            json.dumps(
                {
                    "language": "kotlin",
                    "kotlin_version": kotlin,
                    "coroutines_version": coroutines,
                    "coroutines_artifact": "kotlinx-coroutines-core-jvm",
                    "java": "/bin/sh",  # any executable: the registry does not run it
                    "java_version": "17.0.1",
                    "cds_archive": "kotlinc.jsa",
                }
            )
        )
    return home


@pytest.fixture
def empty_toolchains_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    base = tmp_path / "toolchains"
    base.mkdir()
    monkeypatch.setenv("CHANFUZZ_TOOLCHAINS_DIR", str(base))
    return base


def test_missing_crystal_is_reported_with_path_and_hint(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CHANFUZZ_CRYSTAL", "/nonexistent/bin/crystal")
    with pytest.raises(ToolchainUnavailable) as raised:
        find_toolchain("crystal")
    assert "crystal not installed" in raised.value.reason
    assert "/nonexistent/bin/crystal" in raised.value.reason
    assert INSTALL_HINT in raised.value.reason
    [status] = available_toolchains("crystal")
    assert not status.installed
    assert status.origin == "env"
    assert status.reason == raised.value.reason


def test_missing_kotlin_names_the_expected_toolchain(empty_toolchains_dir: Path) -> None:
    with pytest.raises(ToolchainUnavailable) as raised:
        find_toolchain("kotlin")
    expected = kotlin_specs()[0].dir_name
    assert expected in raised.value.reason
    assert INSTALL_HINT in raised.value.reason
    assert f"run manage.py toolchains install kotlin {kotlin_specs()[0].coroutines_version}" in (
        raised.value.reason
    )
    statuses = available_toolchains("kotlin")
    assert [s.location for s in statuses] == [
        str(empty_toolchains_dir / spec.dir_name) for spec in kotlin_specs()
    ]
    assert not any(s.installed for s in statuses)


def test_half_installed_kotlin_is_incomplete(empty_toolchains_dir: Path) -> None:
    spec = kotlin_specs()[0]
    make_kotlin(empty_toolchains_dir, spec.kotlin_version, spec.coroutines_version, manifest=False)
    with pytest.raises(ToolchainUnavailable, match="incomplete"):
        find_toolchain("kotlin")


def test_installed_kotlin_toolchains_are_discovered(empty_toolchains_dir: Path) -> None:
    # One from versions.txt and one installed beyond it (later: many versions).
    spec = kotlin_specs()[0]
    make_kotlin(empty_toolchains_dir, spec.kotlin_version, spec.coroutines_version)
    make_kotlin(empty_toolchains_dir, "1.3.72", "1.3.3")
    kotlin = find_toolchain("kotlin")
    assert kotlin.version == spec.coroutines_version
    assert kotlin.id == spec.dir_name
    assert kotlin.component("kotlin") == spec.kotlin_version
    assert kotlin.component("java") == "17.0.1"
    assert kotlin.component("jvm-target") == "17"
    assert [p.name for p in kotlin.runtime_classpath] == sorted(
        [
            f"kotlin-stdlib-{spec.kotlin_version}.jar",
            f"kotlinx-coroutines-core-jvm-{spec.coroutines_version}.jar",
        ]
    )
    assert kotlin.cds_archive is None  # named in the manifest but not there
    assert kotlin.runtime_cds_archive is None and kotlin.runtime_cds_classpath == ()
    for name in ("kotlinc.jsa", "runtime.jsa", "training.jar"):
        (kotlin.home / name).write_bytes(b"")
    manifest = json.loads((kotlin.home / "toolchain.json").read_text())
    manifest.update(runtime_cds_archive="runtime.jsa", runtime_cds_jar="training.jar")
    (kotlin.home / "toolchain.json").write_text(json.dumps(manifest))
    kotlin = find_toolchain("kotlin")
    assert kotlin.cds_archive == kotlin.home / "kotlinc.jsa"
    assert kotlin.runtime_cds_archive == kotlin.home / "runtime.jsa"
    assert kotlin.runtime_cds_classpath == (kotlin.home / "training.jar",)
    old = find_toolchain("kotlin", "1.3.3")
    assert old.id == "kotlin-1.3.72-coroutines-1.3.3"
    assert find_toolchain("kotlin", "kotlin-1.3.72-coroutines-1.3.3") == old
    with pytest.raises(ToolchainUnavailable, match=r"kotlin 0\.26\.0 not installed \(installed: "):
        find_toolchain("kotlin", "0.26.0")


def _kotlin_with_java25(base: Path, *files: str) -> tuple[Path, Path, dict[str, str]]:
    """A Kotlin toolchain whose manifest names a Java 25 AOT cache, with ``files`` made
    among runtime.jsa, training.jar and runtime.aot: its home, the Java 25, its manifest."""
    spec = kotlin_specs()[0]
    home = make_kotlin(base, spec.kotlin_version, spec.coroutines_version)
    java25 = base / "java-25.0.2" / "bin" / "java"
    java25.parent.mkdir(parents=True)
    java25.write_bytes(b"")
    for name in files:
        (home / name).write_bytes(b"")
    manifest = json.loads((home / "toolchain.json").read_text())
    manifest.update(
        runtime_cds_archive="runtime.jsa",
        runtime_cds_jar="training.jar",
        run_java=str(java25),
        run_java_version="25.0.2",
        runtime_aot_cache="runtime.aot",
    )
    (home / "toolchain.json").write_text(json.dumps(manifest))
    return home, java25, manifest


def test_kotlin_programs_run_on_java_25_where_the_install_made_an_aot_cache(
    empty_toolchains_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home, java25, manifest = _kotlin_with_java25(
        empty_toolchains_dir, "runtime.jsa", "training.jar", "runtime.aot"
    )
    kotlin_target = get_target("kotlin")
    product = empty_toolchains_dir / "classes"

    kotlin = find_toolchain("kotlin")
    assert (kotlin.run_executable, kotlin.runtime_aot_cache) == (java25, home / "runtime.aot")
    assert kotlin.component("run-java") == "25.0.2"
    command = kotlin_target.run_command(kotlin, product)
    assert command[0] == str(java25)
    assert f"-XX:AOTCache={home / 'runtime.aot'}" in command
    assert not any(arg.startswith("-XX:SharedArchiveFile") for arg in command)
    # The jars the cache was dumped with, in their order, after the program's classes: the
    # class loader finds MainKt without opening a jar.
    classpath = command[command.index("-cp") + 1].split(os.pathsep)
    runtime = [str(p) for p in kotlin.runtime_classpath]
    assert classpath == [str(product), *runtime, str(home / "training.jar")]
    assert java25.parent.parent in kotlin_target.binds(kotlin)

    monkeypatch.setenv("CHANFUZZ_JAVA25_RUNS", "0")
    kotlin = find_toolchain("kotlin")
    assert kotlin.run_executable is None and kotlin.component("run-java") is None
    command = kotlin_target.run_command(kotlin, product)
    assert command[0] == manifest["java"]
    assert f"-XX:SharedArchiveFile={home / 'runtime.jsa'}" in command
    # Java 17's archive maps only for a classpath that starts with the one it was dumped with.
    classpath = command[command.index("-cp") + 1].split(os.pathsep)
    assert classpath == [*runtime, str(home / "training.jar"), str(product)]
    assert java25.parent.parent not in kotlin_target.binds(kotlin)


def test_kotlin_runs_on_the_compilers_java_when_the_aot_cache_is_gone(
    empty_toolchains_dir: Path,
) -> None:
    home, _, _ = _kotlin_with_java25(empty_toolchains_dir, "runtime.jsa", "training.jar")
    kotlin = find_toolchain("kotlin")
    assert kotlin.run_executable is None and kotlin.runtime_aot_cache is None
    command = get_target("kotlin").run_command(kotlin, home / "classes")
    assert command[0] == "/bin/sh"  # the compiler's Java, as make_kotlin names it
    assert f"-XX:SharedArchiveFile={home / 'runtime.jsa'}" in command


def test_go_from_env_replaces_discovery(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    go = make_goroot(tmp_path / "go", "1.21.3")
    monkeypatch.setenv("CHANFUZZ_GO", str(go))
    statuses = available_toolchains("go")
    assert [s.origin for s in statuses] == ["env"]
    toolchain = find_toolchain("go")
    assert (toolchain.version, toolchain.id, toolchain.home) == (
        "1.21.3",
        "go-1.21.3-env",
        tmp_path / "go",
    )


def test_go_installed_under_toolchains_dir_is_found_by_version(
    empty_toolchains_dir: Path,
) -> None:
    make_goroot(empty_toolchains_dir / "go-1.22.0", "1.22.0")
    toolchain = find_toolchain("go", "1.22")
    assert toolchain.origin == "installed"
    assert toolchain.id == "go-1.22.0-installed"
    assert toolchain.executable == empty_toolchains_dir / "go-1.22.0" / "bin" / "go"


def test_a_snapshot_looks_on_disk_once_and_later_calls_look_again(
    empty_toolchains_dir: Path,
) -> None:
    make_goroot(empty_toolchains_dir / "go-1.22.0", "1.22.0")
    with snapshot():
        assert find_toolchain("go", "1.22").version == "1.22.0"
        make_goroot(empty_toolchains_dir / "go-1.23.1", "1.23.1")
        # Installed during the snapshot: the snapshot's answer stands.
        with pytest.raises(ToolchainUnavailable):
            find_toolchain("go", "1.23")
    # Outside, every call looks again: a toolchain installed meanwhile is there.
    assert find_toolchain("go", "1.23").version == "1.23.1"


def test_version_prefix_matches_whole_components(empty_toolchains_dir: Path) -> None:
    make_goroot(empty_toolchains_dir / "go-1.22.0", "1.22.0")
    assert find_toolchain("go", "1.22.0").version == "1.22.0"
    with pytest.raises(ToolchainUnavailable):
        find_toolchain("go", "1.2")


def test_every_known_place_is_listed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CHANFUZZ_GO", raising=False)
    monkeypatch.delenv("CHANFUZZ_CRYSTAL", raising=False)
    statuses = available_toolchains()
    assert {s.language for s in statuses} == set(runnable_names())
    origins = {(s.language, s.origin) for s in statuses}
    assert {("go", "machine"), ("go", "debian"), ("crystal", "debian")} <= origins
    for status in statuses:
        assert status.installed == (status.reason == "")
        if status.toolchain is not None:
            assert isinstance(status.toolchain, Toolchain)
            assert status.toolchain.language == status.language


def test_unknown_language_is_a_programming_error() -> None:
    with pytest.raises(ValueError, match="unknown language 'rust'"):
        find_toolchain("rust")


def test_versions_file_parses(tmp_path: Path) -> None:
    assert kotlin_specs(), f"{KOTLIN_VERSIONS_FILE} lists no Kotlin toolchain"
    listing = tmp_path / "versions.txt"
    listing.write_text(
        "# comment\n\n2.4.21 1.11.0 kotlinx-coroutines-core-jvm\n1.3.72  1.3.3  # old\n"
        "1.3.11 0.26.0 kotlinx-coroutines-core\n"
    )
    assert kotlin_specs(listing) == [
        KotlinSpec("2.4.21", "1.11.0", "kotlinx-coroutines-core-jvm"),
        KotlinSpec("1.3.72", "1.3.3"),
        KotlinSpec("1.3.11", "0.26.0", "kotlinx-coroutines-core"),
    ]
    listing.write_text("2.4.21\n")
    with pytest.raises(ValueError, match="expected"):
        kotlin_specs(listing)


def _version_probe(toolchain: Toolchain) -> tuple[list[str], str]:
    """How to ask a toolchain's executable its version, and what it must answer."""
    components = dict(toolchain.components)
    exe = str(toolchain.executable)
    if toolchain.language == "go":
        return [exe, "version"], f"go{toolchain.version}"
    if toolchain.language == "crystal":
        return [exe, "--version"], f"Crystal {toolchain.version}"
    if "java" in components:  # Kotlin, Flix: the JVM that builds and runs the programs
        return [exe, "-version"], components["java"]
    if "rustc" in components:  # the Rust targets run cargo, released with rustc
        return [exe, "--version"], components["rustc"]
    return [exe, "--version"], ""


@pytest.mark.slow
def test_installed_toolchains_run_and_report_their_version(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """What the registry reports installed on this machine runs, and is the version it says."""
    monkeypatch.delenv("CHANFUZZ_TOOLCHAINS_DIR", raising=False)
    installed = [s.toolchain for s in available_toolchains() if s.installed and s.toolchain]
    if not installed:
        message = "no toolchain installed here"
        if os.environ.get("CI") == "true":
            pytest.fail(f"{message} (CI=true: scripts/install_toolchains.sh should have)")
        pytest.skip(message)
    # One probe per executable and expected answer: the Kotlin releases share one JVM.
    probes = {tuple(argv): expected for argv, expected in map(_version_probe, installed)}
    for argv, expected in probes.items():
        done = subprocess.run(argv, capture_output=True, text=True, timeout=120)
        answer = done.stdout + done.stderr
        assert done.returncode == 0, (argv, answer)
        assert expected in answer, (argv, expected, answer)

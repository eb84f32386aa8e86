"""scripts/install_toolchains.sh: valid bash, and idempotent once everything is there."""

from __future__ import annotations

import os
import subprocess

import pytest

from runners.engine.toolchains import REPO_ROOT, installed_toolchains
from runners.targets import runnable_names

SCRIPT = REPO_ROOT / "scripts" / "install_toolchains.sh"


def test_script_is_valid_bash() -> None:
    subprocess.run(["bash", "-n", str(SCRIPT)], check=True)
    assert os.access(SCRIPT, os.X_OK)


@pytest.mark.slow
def test_rerun_changes_nothing_and_lists_everything() -> None:
    kotlin_before = {
        t.id: (t.home / "toolchain.json").stat().st_mtime_ns for t in installed_toolchains("kotlin")
    }
    done = subprocess.run(
        ["bash", str(SCRIPT)],
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=1800,  # installs what is missing: minutes on a fresh machine
        check=False,
    )
    assert done.returncode == 0, done.stderr
    for tool in ("go ", "crystal ", "java ", "maven ", "kotlin ", "rust ", "cargo ", "redis "):
        assert f"  {tool}" in done.stdout, done.stdout
    kotlin_after = {
        t.id: (t.home / "toolchain.json").stat().st_mtime_ns for t in installed_toolchains("kotlin")
    }
    for toolchain_id, mtime in kotlin_before.items():
        assert kotlin_after.get(toolchain_id) == mtime, f"{toolchain_id} was installed again"
    # Everything the registry knows by default is there after the script ran.
    assert {t.language for t in installed_toolchains()} == set(runnable_names())

"""Fixtures for the runner tests: real toolchains, or a clear skip/failure.

A missing toolchain fails the test when CI=true (CI runs
scripts/install_toolchains.sh first, so missing means broken) and skips it,
with the reason, otherwise.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from runners.engine.toolchains import (
    Toolchain,
    ToolchainUnavailable,
    find_toolchain,
    installed_toolchains,
)
from runners.targets import runnable_names

# Every target that runs programs: CI installs a toolchain of each.
LANGUAGES = runnable_names()


def fake_toolchain(
    language: str, version: str = "1.0", *, home: Path = Path("/nonexistent")
) -> Toolchain:
    """A toolchain that only names things: for tests that replace its builds and runs."""
    return Toolchain(
        language=language, version=version, id=f"{language}-{version}-test", origin="path",
        home=home, executable=home / "bin" / language,
    )  # fmt: skip


def require_toolchain(language: str, version: str | None = None) -> Toolchain:
    try:
        return find_toolchain(language, version)
    except ToolchainUnavailable as missing:
        message = f"{language} toolchain unavailable: {missing.reason}"
        if os.environ.get("CI") == "true":
            pytest.fail(
                f"{message} (CI=true: scripts/install_toolchains.sh should have installed it)"
            )
        pytest.skip(message)


@pytest.fixture(params=LANGUAGES)
def toolchain(request: pytest.FixtureRequest) -> Toolchain:
    """The preferred toolchain of each language in turn."""
    return require_toolchain(request.param)


@pytest.fixture
def artifact_cache(tmp_path: Path) -> Path:
    """A fresh artifact cache, so whether a build is a cache hit is up to the test.

    Compiler caches (GOCACHE, CRYSTAL_CACHE_DIR) stay shared under var/cache:
    they only make compiles faster, never change their result.
    """
    return tmp_path / "artifacts"


def all_go_toolchains() -> list[Toolchain]:
    return installed_toolchains("go")

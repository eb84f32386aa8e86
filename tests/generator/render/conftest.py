"""Fixtures for the renderer tests: build caches shared by a whole test session."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(scope="session")
def build_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A directory for compiler caches (Go's GOCACHE, Crystal's CRYSTAL_CACHE_DIR).

    Kept apart from every build directory: Crystal 1.6 fails to link when the
    build directory's path is a text prefix of its cache directory's.
    """
    return tmp_path_factory.mktemp("zz-build-cache")

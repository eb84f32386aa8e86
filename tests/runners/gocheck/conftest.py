"""The Go front end, built once per session; tests that need it skip (fail under CI)
when the machine has no Go."""

from __future__ import annotations

import shutil

import pytest

from tests.missing import unavailable


@pytest.fixture(scope="session")
def go_frontend() -> None:
    if shutil.which("go") is None and not __import__("pathlib").Path(
        "/usr/local/go/bin/go").exists():
        unavailable("no Go toolchain: gocheck's front end cannot be built")
    from runners.gocheck import frontend

    frontend.helper_path()

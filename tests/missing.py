"""What a test does when a part it needs is missing on this machine: skip with the
reason on a developer's machine, fail under CI=true, where the project's own scripts
must have installed every part (a skipped test there would hide a missing install)."""

from __future__ import annotations

import os

import pytest

IN_CI = os.environ.get("CI") == "true"


def unavailable(reason: str) -> None:
    """Skip, or under CI=true fail: CI must exercise every part."""
    if IN_CI:
        pytest.fail(f"CI=true but: {reason}")
    pytest.skip(reason)

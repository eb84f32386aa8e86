"""Helpers shared by the site tests."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

# The `manage` fixture (conftest.py): runs manage.py with arguments, env overrides as keywords.
Manage = Callable[..., subprocess.CompletedProcess[str]]


def clean_env(**overrides: str) -> dict[str, str]:
    """This process's environment without chanfuzz/Django settings, plus `overrides`.

    But for one: children speak plain HTTP to their test clients, as this process does
    (tests/environment.py), unless `DJANGO_HTTPS` is given ("" for the real default)."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("DJANGO_", "CHANFUZZ_")) and k not in ("DATABASE_URL", "REDIS_URL")
    }
    env["DJANGO_HTTPS"] = "false"
    env.update(overrides)
    return env

"""chanfuzz_site/toolchain_snapshot.py: a page looks each language's toolchains up once."""

from __future__ import annotations

from collections import Counter

import pytest
from django.test import Client

from generator.settings import PRESETS
from runners.campaigns import programs
from runners.engine import toolchains

pytestmark = pytest.mark.django_db


def test_a_program_page_looks_each_language_up_once(
    user_client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    program = programs.store_program(programs.build_generated(3, PRESETS["A"]))
    looked_up: Counter[str] = Counter()
    discover = toolchains._discover

    def counting(lang: str) -> list[toolchains.ToolchainStatus]:
        looked_up[lang] += 1
        return discover(lang)

    monkeypatch.setattr(toolchains, "_discover", counting)
    for _ in range(2):
        assert user_client.get(f"/p/{program.id}").status_code == 200
    # Each code tab, the reproduce form and the bundle settings ask; the disk is read once
    # a language per request (and again on the next request: nothing outlives it).
    assert looked_up and set(looked_up.values()) == {2}

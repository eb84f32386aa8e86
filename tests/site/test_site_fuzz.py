"""`manage.py fuzz`: runs generated programs on a real toolchain and sums up."""

from __future__ import annotations

import re

import pytest

from tests.site.site_helpers import Manage


@pytest.mark.slow
def test_fuzz_go_finds_nothing_and_exits_0(manage_process: Manage) -> None:
    result = manage_process(
        "fuzz",
        "--lang",
        "go",
        "--count",
        "60",
        "--seed",
        "100",
        "--timeout",
        "20",
        "--no-progress",
    )
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "programs    60 in" in out
    assert re.search(r"^terminated +60$", out, re.M)
    assert "findings    none" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--count", "0"], "--count must be from 1"),
        (["--count", "5", "--timeout", "0"], "--timeout must be more than 0"),
        (["--count", "5", "--version", "0.0.0-nonexistent"], "go"),
    ],
)
def test_fuzz_bad_arguments_exit_2(manage: Manage, args: list[str], message: str) -> None:
    result = manage("fuzz", "--lang", "go", "--no-progress", *args)
    assert result.returncode == 2
    assert message in result.stderr


def test_fuzz_unknown_language_is_refused(manage: Manage) -> None:
    result = manage("fuzz", "--lang", "cobol", "--count", "1")
    assert result.returncode != 0
    assert "invalid choice" in result.stderr

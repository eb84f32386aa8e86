"""`manage.py sample`: generate-and-check summary."""

from __future__ import annotations

import re
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from chanfuzz_site.management.commands.sample import percentile
from generator import effects
from generator.pipeline import generate_program
from generator.settings import settings_for
from tests.site.site_helpers import Manage


def test_percentile_nearest_rank() -> None:
    values = list(range(1, 101))
    assert percentile(values, 50) == 50
    assert percentile(values, 99) == 99
    assert percentile(values, 100) == 100
    assert percentile([4], 99) == 4
    assert percentile([1, 2, 3], 50) == 2
    assert percentile([1, 2, 3], 0) == 1


def test_summary() -> None:
    out = StringIO()
    call_command("sample", "--count", "12", "--heuristic", "F", "--start-seed", "100", stdout=out)
    text = out.getvalue()
    assert "heuristic F, seeds 100..111" in text
    assert re.search(r"programs: 12 in [\d.]+ s, [\d.]+ programs/s", text)
    assert re.search(r"states: p50 \d+, p99 \d+, max \d+", text)
    assert "all terminating: yes" in text
    example = effects.to_text(generate_program(100, settings_for("F")).effect)
    assert f"example (seed 100): {example}" in text


def test_state_limit_makes_it_undecided() -> None:
    out = StringIO()
    with pytest.raises(SystemExit) as exc:
        call_command("sample", "--count", "5", "--max-states", "1", stdout=out)
    assert exc.value.code == 3
    assert "all terminating: no" in out.getvalue()
    assert "undecided (state limit): " in out.getvalue()


def test_count_must_be_positive() -> None:
    with pytest.raises(CommandError):
        call_command("sample", "--count", "0", stdout=StringIO())


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--count", "0"], "--count must be at least 1"),
        # Once a traceback from the checker, and exit 1: the code of a deadlock.
        (["--count", "1", "--max-states", "0"], "--max-states must be at least 1"),
        (["--count", "1", "--max-states", "-1"], "--max-states must be at least 1"),
    ],
)
def test_bad_arguments_exit_2_not_as_a_deadlock(
    manage: Manage, args: list[str], message: str
) -> None:
    result = manage("sample", *args)
    assert result.returncode == 2
    assert message in result.stderr
    assert "Traceback" not in result.stderr


def test_command_line(manage: Manage) -> None:
    result = manage("sample", "--count", "20", "--heuristic", "a")
    assert result.returncode == 0, result.stderr
    assert "all terminating: yes" in result.stdout

"""`manage.py gocheck FILE`: its limits are refused as bad input before any search."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.site.site_helpers import Manage

OK = "package main\n\nfunc main() {}\n"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--max-states", "0"], "--max-states must be at least 1"),
        (["--max-states", "-1"], "--max-states must be at least 1"),
        (["--time-limit", "0"], "--time-limit must be positive"),
        (["--time-limit", "-1"], "--time-limit must be positive"),
        (["--time-limit", "nan"], "--time-limit must be positive"),
    ],
)
def test_impossible_limits_are_bad_input_not_undecided(
    manage: Manage, tmp_path: Path, args: list[str], message: str
) -> None:
    # They were "undecided: the budget was spent after 1 states", exit 3.
    program = tmp_path / "ok.go"
    program.write_text(OK)
    result = manage("gocheck", *args, str(program))
    assert result.returncode == 2
    assert f"gocheck: {message}" in result.stderr
    assert "verdict" not in result.stdout

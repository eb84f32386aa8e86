"""`manage.py mutants`: its refusals are exit 2 with the reason, not a printed tuple."""

from __future__ import annotations

from tests.runners.conftest import require_toolchain
from tests.site.site_helpers import Manage


def test_testing_a_mutant_not_installed_exits_2_with_the_reason(manage: Manage) -> None:
    result = manage("mutants", "test", "go", "no-such-mutant")
    assert result.returncode == 2
    assert "mutant no-such-mutant is not installed (mutants install)" in result.stderr
    assert "('" not in result.stderr  # once CommandError's args, printed as a tuple


def test_installing_an_unknown_mutant_exits_2_and_says_where_to_look(manage: Manage) -> None:
    require_toolchain("go")
    result = manage("mutants", "install", "go", "no-such-mutant")
    assert result.returncode == 2
    assert "no mutant 'no-such-mutant' of go-" in result.stderr
    assert "(see `mutants list go`)" in result.stderr

"""`manage.py verify`: verdicts, traces and the exact exit codes."""

from __future__ import annotations

import re
import time
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from tests.site.site_helpers import Manage

TERMINATING = "Spawn(Put(c1)) ; Get(c1)"
# SPEC §8, the Crystal example (Fig. 14): terminating, with selects on both sides.
CRYSTAL = (
    "Spawn(Get(c1)) ; Spawn(SelGet(c3, eps) (+) SelGet(c3, eps)) ; Spawn(Put(c2)) ; "
    "SelPut(c3, Put(c1) ; Get(c2)) (+) SelPut(c3, Put(c1) ; Get(c2))"
)
MAIN_STUCK = "Get(c1)"
# Only the eps branch of the choice leaves the spawned Put(c1) stuck: both sides count.
CHOICE_STUCK = "Spawn(Put(c1)) ; (Get(c1) + eps)"


def verify(*args: str) -> tuple[str, str]:
    out, err = StringIO(), StringIO()
    call_command("verify", *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def exit_code(*args: str) -> tuple[int, str]:
    """The SystemExit code of a verify that does not pass, with its output."""
    out = StringIO()
    with pytest.raises(SystemExit) as exc:
        call_command("verify", *args, stdout=out, stderr=StringIO())
    return int(exc.value.code), out.getvalue()


@pytest.mark.parametrize("effect", [TERMINATING, CRYSTAL, "eps"])
def test_terminating(effect: str) -> None:
    assert verify(effect) == ("terminating\n", "")


def test_state_count_at_higher_verbosity() -> None:
    out, _ = verify(TERMINATING, "--verbosity", "2")
    assert re.fullmatch(r"terminating \(\d+ states?\)\n", out)


@pytest.mark.parametrize("effect", [MAIN_STUCK, CHOICE_STUCK])
def test_deadlock_prints_trace_and_exits_1(effect: str) -> None:
    code, out = exit_code(effect)
    assert code == 1
    lines = out.splitlines()
    assert lines[0] == "deadlock"
    # The trace follows, indented, and names who is stuck.
    assert "blocked forever:" in out
    assert all(line.startswith("  ") for line in lines[1:])
    assert len(lines) > 2


def test_undecided_exits_3() -> None:
    code, out = exit_code(CRYSTAL, "--max-states", "1")
    assert code == 3
    assert out.startswith("undecided")


def test_syntax_error_is_exit_2_with_pointer() -> None:
    with pytest.raises(CommandError) as exc:
        verify("Spawn(Put(c1) ; Get(c1)")
    assert exc.value.returncode == 2
    message = str(exc.value)
    assert "expected" in message
    assert message.endswith("Spawn(Put(c1) ; Get(c1)\n" + " " * 23 + "^")


@pytest.mark.parametrize("args", [[], [TERMINATING, "--file", "x.txt"]])
def test_effect_or_file_but_not_both(args: list[str]) -> None:
    with pytest.raises(CommandError) as exc:
        verify(*args)
    assert exc.value.returncode == 2


def write(tmp_path: Path, *lines: str) -> str:
    path = tmp_path / "effects.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


def test_file_all_terminating(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "# paper examples",
        "",
        TERMINATING,
        "   ",
        "  # indented comment",
        CRYSTAL.replace("(+)", "⊕").replace("eps", "ε"),
    )
    assert verify("--file", path) == ("line 3: terminating\nline 6: terminating\n", "")


def test_file_with_deadlock(tmp_path: Path) -> None:
    path = write(tmp_path, TERMINATING, MAIN_STUCK, TERMINATING)
    code, out = exit_code("--file", path)
    assert code == 1
    assert out.startswith("line 1: terminating\nline 2: deadlock\n  ")
    assert out.endswith("line 3: terminating\n")


def test_file_with_syntax_error_checks_the_rest_and_exits_2(tmp_path: Path) -> None:
    path = write(tmp_path, MAIN_STUCK, "Get(c1", TERMINATING)
    out, err = StringIO(), StringIO()
    with pytest.raises(CommandError) as exc:
        call_command("verify", "--file", path, stdout=out, stderr=err)
    assert exc.value.returncode == 2
    assert "line 2: at position 7" in err.getvalue()
    assert "  Get(c1\n        ^" in err.getvalue()
    assert "line 1: deadlock" in out.getvalue()
    assert "line 3: terminating" in out.getvalue()


def test_missing_or_empty_file_is_exit_2(tmp_path: Path) -> None:
    with pytest.raises(CommandError) as exc:
        verify("--file", str(tmp_path / "nope.txt"))
    assert exc.value.returncode == 2
    assert "No such file" in str(exc.value)
    with pytest.raises(CommandError) as exc:
        verify("--file", write(tmp_path, "# nothing", ""))
    assert exc.value.returncode == 2


def test_file_mixing_undecided_and_deadlock_exits_1(tmp_path: Path) -> None:
    path = write(tmp_path, CRYSTAL, MAIN_STUCK)
    code, _ = exit_code("--file", path, "--max-states", "3")
    assert code == 1


# ---- the same through manage.py's entry point, where the exit status is what a shell sees


def test_exit_0(manage: Manage) -> None:
    result = manage("verify", TERMINATING)
    assert (result.returncode, result.stdout, result.stderr) == (0, "terminating\n", "")


def test_exit_1(manage: Manage) -> None:
    result = manage("verify", CHOICE_STUCK)
    assert result.returncode == 1
    assert result.stdout.startswith("deadlock\n")
    assert result.stderr == ""


def test_exit_2_syntax_error(manage: Manage) -> None:
    result = manage("verify", "Get(c1) ; ; Put(c1)")
    assert result.returncode == 2
    assert result.stdout == ""
    assert "expected" in result.stderr
    assert "Get(c1) ; ; Put(c1)\n          ^" in result.stderr


def test_exit_2_missing_file(manage: Manage, tmp_path: Path) -> None:
    result = manage("verify", "--file", str(tmp_path / "missing.txt"))
    assert result.returncode == 2
    assert "cannot read" in result.stderr


def test_exit_2_usage(manage: Manage) -> None:
    assert manage("verify").returncode == 2
    assert manage("verify", TERMINATING, "--max-states", "many").returncode == 2


def test_exit_3(manage: Manage) -> None:
    result = manage("verify", CRYSTAL, "--max-states", "1")
    assert result.returncode == 3
    assert result.stdout.startswith("undecided")


def _race(n: int) -> str:
    """n senders and n receivers on one channel, each going on differently: the
    checker's work grows factorially, while the state count grows far slower."""
    parts = [f"Spawn(Put(c) ; Put(x{i}))" for i in range(n)]
    parts += [f"Spawn(Get(c) ; Get(y{i}))" for i in range(n)]
    parts += [f"Spawn(Put(y{i}))" for i in range(n)]
    return " ; ".join(parts + [f"Get(x{i})" for i in range(n)])


def test_a_race_too_wide_for_the_time_limit_is_undecided_not_endless() -> None:
    started = time.monotonic()
    code, out = exit_code(_race(10), "--time-limit", "1")
    assert code == 3 and out.startswith("undecided: time limit hit at")
    assert time.monotonic() - started < 10


def test_nesting_deeper_than_the_parser_takes_is_bad_input_not_a_deadlock(manage: Manage) -> None:
    deep = "Spawn(" * 400 + "eps" + ")" * 400
    result = manage("verify", deep)
    assert result.returncode == 2
    assert "at most 200 levels of nesting" in result.stderr


@pytest.mark.parametrize("value", ["0", "-5"])
def test_max_states_below_one_is_refused(value: str) -> None:
    with pytest.raises(CommandError, match="--max-states must be at least 1") as exc:
        verify(TERMINATING, "--max-states", value)
    assert exc.value.returncode == 2


def test_an_endless_file_is_read_only_up_to_its_limit() -> None:
    with pytest.raises(CommandError, match="larger than 4 MiB") as exc:
        verify("--file", "/dev/zero")
    assert exc.value.returncode == 2


# ---- beyond the paper: buffered channels, Close and Range (issue #15)

BUFFERED_TERMINATING = "Chan(c, 1) ; Spawn(Put(c) ; Close(c)) ; Range(c, eps)"
DOUBLE_CLOSE = "Chan(c) ; Close(c) ; Close(c)"


def test_buffered_close_and_range_can_be_terminating() -> None:
    assert verify(BUFFERED_TERMINATING) == ("terminating\n", "")


@pytest.mark.parametrize(
    ("effect", "expected", "pointer"),
    [
        ("Chan(c,)", "expected the capacity of c", "Chan(c,)\n       ^"),
        ("Close(c)", "expected Close(c) on a channel declared by Chan(c)", "Close(c)\n^"),
        ("Range(c, eps)", "expected Range(c, …) on a channel declared", "Range(c, eps)\n^"),
        (
            "Chan(c,1) ; Chan(c,2)",
            "expected capacity 1 for c",
            "Chan(c,1) ; Chan(c,2)\n" + " " * 17 + "^",
        ),
    ],
)
def test_bad_new_forms_exit_2_with_the_position(
    manage: Manage, effect: str, expected: str, pointer: str
) -> None:
    result = manage("verify", effect)
    assert result.returncode == 2 and result.stdout == ""
    assert expected in result.stderr
    assert result.stderr.rstrip("\n").endswith(pointer)


def test_a_double_close_exits_2_with_the_trace_and_a_caret_under_the_second_close(
    manage: Manage,
) -> None:
    result = manage("verify", DOUBLE_CLOSE)
    assert result.returncode == 2
    assert result.stdout == (
        "rejected at position 22: main closes c, which is already closed\n"
        f"  {DOUBLE_CLOSE}\n"
        f"  {' ' * 21}^\n"
        "  trace:\n"
        "    1. main closes c\n"
        "  then: main closes c, which is already closed\n"
    )
    assert "1 effect closes a channel twice" in result.stderr


@pytest.mark.parametrize(
    ("effect", "problem"),
    [
        ("Chan(c) ; Close(c) ; Put(c)", "main sends on c, which is closed"),
        ("Chan(c, 1) ; Put(c)", "1 message(s) left in c's buffer, never received"),
    ],
)
def test_other_problems_are_rejections_with_the_trace_and_exit_1(
    manage: Manage, effect: str, problem: str
) -> None:
    result = manage("verify", effect)
    assert result.returncode == 1
    assert result.stdout.startswith(f"rejected: {problem}\n  trace:\n")
    assert result.stdout.endswith(f"  then: {problem}\n")


def test_a_file_with_a_double_close_checks_the_rest_and_exits_2(tmp_path: Path) -> None:
    path = write(tmp_path, BUFFERED_TERMINATING, DOUBLE_CLOSE, MAIN_STUCK)
    out = StringIO()
    with pytest.raises(CommandError, match="1 line\\(s\\) of .* close a channel twice") as exc:
        call_command("verify", "--file", path, stdout=out, stderr=StringIO())
    assert exc.value.returncode == 2
    lines = out.getvalue().splitlines()
    assert lines[0] == "line 1: terminating"
    assert lines[1] == "line 2: rejected at position 22: main closes c, which is already closed"
    assert "line 3: deadlock" in lines

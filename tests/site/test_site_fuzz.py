"""`manage.py fuzz`: runs generated programs on a real toolchain and sums up."""

from __future__ import annotations

import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from chanfuzz_site.management.commands.fuzz import format_summary
from runners.engine.fuzz import FuzzSummary
from tests.runners.conftest import require_toolchain
from tests.site.site_helpers import REPO, Manage, clean_env


def test_the_summary_tells_the_time_of_runs_out_of_time_only_where_there_was_some() -> None:
    summary = FuzzSummary("rust-chan", count=600, seconds=166.0, compile_s=4.8)
    assert "out of time" not in format_summary(summary)
    summary.out_of_time_s = 151.0
    assert "\nout of time 151.0 s in runs their limit cut while they used a core" in (
        format_summary(summary)
    )


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
    # Batch sizes chosen as the run goes (--batch-size auto, the default): 25, then 35.
    assert "batches     2: 25, 35" in out


@pytest.mark.slow
def test_fuzz_runs_each_clean_program_again_and_says_so(manage_process: Manage) -> None:
    result = manage_process(
        "fuzz", "--lang", "go", "--count", "5", "--seed", "100", "--runs", "3", "--no-progress"
    )
    assert result.returncode == 0, result.stderr
    assert "10 repetitions, up to 3 runs a program, " in result.stdout
    assert re.search(r"^terminated +5$", result.stdout, re.M)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--count", "0"], "--count must be from 1"),
        (["--count", "5", "--timeout", "0"], "--timeout must be more than 0"),
        (["--count", "5", "--version", "0.0.0-nonexistent"], "go"),
        (["--count", "5", "--batch-size", "0"], "--batch-size must be from 1 to 1000, or auto"),
        (["--count", "5", "--batch-size", "many"], "--batch-size must be from 1 to 1000"),
        (["--count", "5", "--batch-size", "1001"], "--batch-size must be from 1 to 1000"),
        (["--count", "5", "--repetitions", "0"], "--repetitions must be from 1 to 100000"),
        # Refused before the first program, not at the first timeout's re-runs.
        (["--count", "5", "--retries", "-1"], "--retries: re-runs must be from 0 to 10, not -1"),
        (["--count", "5", "--retries", "11"], "--retries: re-runs must be from 0 to 10"),
        (["--count", "5", "--runs", "0"], "--runs: runs must be from 1 to 20, not 0"),
        (["--count", "5", "--runs", "21"], "--runs: runs must be from 1 to 20, not 21"),
        # A quiet period of a millisecond judged a correct Go program hung.
        (["--count", "5", "--hang-quiet", "0.001"], "--hang-quiet must be from 0.1 s"),
        (["--count", "5", "--timeout", "5", "--hang-quiet", "6"], "to --timeout (5 s)"),
    ],
)
def test_fuzz_bad_arguments_exit_2(manage: Manage, args: list[str], message: str) -> None:
    result = manage("fuzz", "--lang", "go", "--no-progress", *args)
    assert result.returncode == 2
    assert message in result.stderr


@pytest.mark.parametrize(
    ("lang", "bound"), [("kotlin", "0 to 64"), ("rust-flume-async", "1 to 256")]
)
def test_fuzz_refuses_threads_out_of_range_before_it_starts(
    manage: Manage, lang: str, bound: str
) -> None:
    require_toolchain(lang)
    result = manage("fuzz", "--lang", lang, "--count", "1", "--threads", "-1", "--no-progress")
    assert result.returncode == 2
    assert f"threads must be a whole number from {bound}, not -1" in result.stderr
    assert "fuzzing" not in result.stdout  # said before the run's header


def test_fuzz_unknown_language_is_refused(manage: Manage) -> None:
    result = manage("fuzz", "--lang", "cobol", "--count", "1")
    assert result.returncode != 0
    assert "invalid choice" in result.stderr


@pytest.mark.slow
def test_ctrl_c_stops_after_the_runs_under_way_and_still_sums_up(tmp_path: Path) -> None:
    require_toolchain("go")
    child = subprocess.Popen(
        [sys.executable, "manage.py", "fuzz", "--lang", "go", "--count", "100000",
         "--batch-size", "20", "--jobs", "2"],
        cwd=REPO, env=clean_env(CHANFUZZ_VAR_DIR=str(tmp_path / "var")),
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip
    # The progress bar (stderr) shows programs done: then interrupt, once.
    seen = b""
    deadline = time.monotonic() + 300
    while not re.search(rb"\b[1-9]\d*/100000\b", seen) and time.monotonic() < deadline:
        seen += child.stderr.read1(4096) or b""
        assert child.poll() is None, seen
    child.send_signal(signal.SIGINT)
    out, err = child.communicate(timeout=300)
    err = seen + err
    assert child.returncode == 130, (out, err)
    assert b"stopping after the runs under way" in err
    text = out.decode()
    done = int(re.search(r"^programs +(\d+) in .* — interrupted$", text, re.M).group(1))
    assert 0 < done < 100000
    assert re.search(rf"^terminated +{done}$", text, re.M), text
    assert b"interrupted after" in err


@pytest.mark.slow
def test_fuzz_buffered_runs_widened_programs_and_says_what_the_target_lacks(
    manage_process: Manage,
) -> None:
    from chanfuzz_site.beyond_paper import missing_note
    from runners.targets import get_target

    require_toolchain("go")
    result = manage_process(
        "fuzz", "--lang", "go", "--count", "4", "--seed", "14", "--buffered", "--no-progress",
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
    header = result.stdout.splitlines()[0]
    assert "heuristic A, seeds 14…" in header and "buffered, " in header
    note = missing_note(get_target("go").capabilities, ["go"])
    assert (note in result.stdout) if note else ("note:" not in result.stdout)
    assert re.search(r"^terminated +4$", result.stdout, re.M)

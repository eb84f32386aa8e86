"""The renderer tests' way of running a binary: what a timeout leaves to report."""

from __future__ import annotations

from tests.generator.render.helpers import run


def test_run_reports_a_finished_command() -> None:
    out = run(["sh", "-c", "echo out; echo err >&2; exit 3"], timeout=10)
    assert (out.returncode, out.stdout, out.stderr) == (3, "out\n", "err\n")
    assert not out.timed_out


def test_run_dumps_a_hung_process_before_killing_it() -> None:
    out = run(
        ["sh", "-c", "echo started >&2; exec sleep 30"],
        timeout=0.5,
        dump=lambda pid: ["cat", f"/proc/{pid}/cmdline"],
    )
    assert out.timed_out
    # The dump saw the process still there, as it hung: sleep, not yet killed.
    assert out.stderr.startswith("started\n\nsleep\x0030\x00")


def test_run_without_a_dump_only_kills_at_the_timeout() -> None:
    out = run(["sleep", "30"], timeout=0.2)
    assert out.timed_out and out.stderr == ""

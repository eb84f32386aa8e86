"""The renderer tests' way of running a binary: what a timeout leaves to report."""

from __future__ import annotations

import os
import signal
import threading
from pathlib import Path

import pytest

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


def test_a_dump_that_fails_still_kills_the_hung_process(tmp_path: Path) -> None:
    pid_file = tmp_path / "pid"
    raised: list[BaseException] = []

    def hang_then_fail_to_dump() -> None:
        try:
            run(
                ["sh", "-c", f'echo $$ > "{pid_file}"; exec sleep 3600'],
                timeout=0.5,
                dump=lambda pid: [str(tmp_path / "no-such-dumper")],
            )
        except FileNotFoundError as error:
            raised.append(error)

    # Left alive, the process would hold run() until its hour is up (Popen waits on exit).
    caller = threading.Thread(target=hang_then_fail_to_dump, daemon=True)
    caller.start()
    caller.join(60)
    pid = pid_file.read_text().strip()
    if caller.is_alive():
        os.kill(int(pid), signal.SIGKILL)
        pytest.fail("run() waited on the hung process after its dump failed")
    assert raised and not Path(f"/proc/{pid}").exists()

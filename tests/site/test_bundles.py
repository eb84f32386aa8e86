"""The run scripts of a program's bundle, run with the machine's `sh` and `timeout`."""

from __future__ import annotations

import subprocess

from chanfuzz_site import bundles


def _tail_after(run_line: str) -> subprocess.CompletedProcess[str]:
    script = f"TIMEOUT=0.3\n{run_line}\n{bundles._SCRIPT_TAIL}"
    return subprocess.run(["sh", "-c", script], capture_output=True, text=True, timeout=30)


def test_a_run_killed_after_outliving_sigquit_is_a_hang() -> None:
    # A JVM prints its dump on SIGQUIT and lives on; timeout then kills it: status 137.
    done = _tail_after("""timeout -s QUIT -k 0.3 "$TIMEOUT" sh -c 'trap "" QUIT; sleep 5'""")
    assert done.returncode == 124, done.stdout
    assert "hung: no end within 0.3s" in done.stdout


def test_a_run_that_ends_at_its_signal_is_a_hang_and_a_crash_stays_a_crash() -> None:
    assert _tail_after('timeout "$TIMEOUT" sleep 5').returncode == 124
    crashed = _tail_after("sh -c 'exit 2'")
    assert crashed.returncode == 2 and "crashed: exit status 2" in crashed.stdout

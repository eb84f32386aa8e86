"""A program's run of its own, in parts that need no run (runners.engine.run_alone): how a
timeout is told (blocked, spinning, out of time) and the bounds of its triage. Runs alone
and their re-runs are tested in test_execute.py and test_execute_hangs.py."""

from __future__ import annotations

import dataclasses
import signal

import pytest

from runners.engine.run_alone import MAX_RUNS, MAX_TRIAGE_RETRIES, Triage, how_it_ran_out
from runners.engine.run_records import Attempt
from runners.engine.sandbox import Limits
from runners.engine.verdicts import Outcome

TIMED_OUT = Attempt(10.0, Outcome.TIMEOUT, None, None, True, 10.2, "", "", "…")


def _timed_out(**fields: object) -> Attempt:
    return dataclasses.replace(TIMED_OUT, **fields)  # type: ignore[arg-type]


def test_a_run_blocked_for_the_quiet_period_says_so() -> None:
    how = how_it_ran_out(_timed_out(quiet=True, cpu_s=0.3), Limits(timeout_s=10, quiet_s=2))
    assert how == "every process blocked for 2 s (no CPU used) before the 10 s limit"


def test_a_run_the_quiet_watch_saw_spin_to_its_limit_says_how_much_cpu_it_used() -> None:
    how = how_it_ran_out(_timed_out(cpu_s=9.33), Limits(timeout_s=10, quiet_s=2))
    assert how == "no exit within 10 s and never blocked for 2 s (9.3 s of CPU used)"


def test_a_run_no_quiet_watch_saw_is_only_out_of_time() -> None:
    assert how_it_ran_out(_timed_out(), Limits(timeout_s=10)) == "no exit within 10 s"
    # A backend that could not watch its processes reports no CPU use.
    assert how_it_ran_out(_timed_out(), Limits(timeout_s=10, quiet_s=2)) == "no exit within 10 s"


def test_a_run_its_cpu_limit_stopped_spun() -> None:
    how = how_it_ran_out(_timed_out(signal=signal.SIGXCPU), Limits(timeout_s=10, quiet_s=2))
    assert how.startswith("spun through its CPU-time limit (SIGXCPU)")


@pytest.mark.parametrize("retries", [-1, 11, True, 2.0])
def test_triage_refuses_re_runs_out_of_range(retries: object) -> None:
    with pytest.raises(ValueError, match="re-runs must be from 0 to 10"):
        Triage(retries=retries)  # type: ignore[arg-type]


@pytest.mark.parametrize("factor", [0.99, float("nan")])
def test_triage_refuses_a_re_run_given_less_time_than_the_run(factor: float) -> None:
    with pytest.raises(ValueError, match="a re-run's limit factor must be at least 1, not"):
        Triage(factor=factor)


def test_triage_takes_its_bounds_themselves() -> None:
    assert Triage(retries=MAX_TRIAGE_RETRIES, factor=1.0, runs=MAX_RUNS).runs == MAX_RUNS
    assert Triage(retries=0, factor=1.5, runs=1).factor == 1.5


@pytest.mark.parametrize("runs", [0, MAX_RUNS + 1, True, 1.5])
def test_runs_out_of_range_are_refused(runs: object) -> None:
    with pytest.raises(ValueError, match=f"runs must be from 1 to {MAX_RUNS}"):
        Triage(runs=runs)  # type: ignore[arg-type]

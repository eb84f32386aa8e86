"""Hangs declared once every process of a run is blocked (``Limits.quiet_s``), on every
backend that contains a run: the local one watches its processes' /proc, the docker one
those of its container, seen through this machine's /proc; and the docker backend's
check that a PID the engine reports is the container's before it watches it."""

from __future__ import annotations

import os
import signal
import time

import pytest

from runners.engine.sandbox import Limits, docker_backend
from runners.engine.sandbox.base import BlockedHook, Sandbox
from runners.engine.sandbox.docker_backend import _host_pid

from .conftest import Programs

# --- hangs declared once every process is blocked (Limits.quiet_s) ---------------------


def test_a_blocked_program_is_hung_after_the_quiet_period(sandbox: Sandbox) -> None:
    started = time.monotonic()
    result = sandbox.run(["/bin/sleep", "60"], limits=Limits(timeout_s=20, quiet_s=1.0))
    assert result.timed_out and result.quiet
    assert 1.0 <= time.monotonic() - started < 6
    assert result.cpu_s is not None and result.cpu_s < 0.5


@pytest.mark.slow  # waits out its whole limit, as a livelock must
def test_a_spinning_program_is_never_quiet(sandbox: Sandbox) -> None:
    spin = ["/bin/sh", "-c", "while :; do :; done"]
    result = sandbox.run(spin, limits=Limits(timeout_s=3, quiet_s=1.0))
    assert result.timed_out and not result.quiet and result.duration_s >= 3
    # It used CPU to the end (a core to itself, less what a loaded machine takes).
    assert result.cpu_s is not None and result.cpu_s >= 0.5


def test_a_pause_shorter_than_the_quiet_period_is_not_a_hang(sandbox: Sandbox) -> None:
    nap = ["/bin/sh", "-c", "sleep 0.5; echo done"]
    result = sandbox.run(nap, limits=Limits(timeout_s=10, quiet_s=2.0))
    assert result.exit_code == 0 and not result.timed_out and not result.quiet
    assert result.stdout.strip() == "done"


def test_a_run_blocked_for_its_hooks_time_tells_it_once_and_goes_on(sandbox: Sandbox) -> None:
    told: list[float] = []
    started = time.monotonic()
    hook = BlockedHook(0.3, lambda: told.append(time.monotonic() - started))
    nap = ["/bin/sh", "-c", "sleep 1.5; echo done"]
    result = sandbox.run(nap, limits=Limits(timeout_s=10, quiet_s=5.0, blocked=hook))
    assert result.exit_code == 0 and not result.quiet and result.stdout.strip() == "done"
    assert len(told) == 1 and 0.3 <= told[0] < 1.5


def test_a_run_that_never_blocks_for_its_hooks_time_never_tells_it(sandbox: Sandbox) -> None:
    told: list[bool] = []
    hook = BlockedHook(1.0, lambda: told.append(True))
    nap = ["/bin/sh", "-c", "sleep 0.2; echo done"]
    result = sandbox.run(nap, limits=Limits(timeout_s=10, quiet_s=5.0, blocked=hook))
    assert result.exit_code == 0 and told == []


def test_a_quiet_witness_notes_the_quiet_period_and_lets_the_run_end_by_itself(
    sandbox: Sandbox,
) -> None:
    # What bench/false_hangs.py counts as a false hang: quiet for 0.5 s, then done.
    nap = ["/bin/sh", "-c", "sleep 2; echo done"]
    limits = Limits(timeout_s=10, quiet_s=0.5, quiet_witness=True)
    result = sandbox.run(nap, limits=limits)
    assert result.exit_code == 0 and not result.timed_out and not result.quiet
    assert result.stdout.strip() == "done"
    assert result.quiet_at_s is not None and 0.5 <= result.quiet_at_s < 2.0


def test_a_quiet_witness_waits_out_a_real_hang(sandbox: Sandbox) -> None:
    limits = Limits(timeout_s=2.0, quiet_s=0.5, quiet_witness=True)
    result = sandbox.run(["/bin/sleep", "60"], limits=limits)
    assert result.timed_out and not result.quiet and result.duration_s >= 2.0
    assert result.quiet_at_s is not None and 0.5 <= result.quiet_at_s < 2.0


def test_the_quiet_moment_is_noted_when_it_ends_the_run_and_never_without_a_watch(
    sandbox: Sandbox,
) -> None:
    hung = sandbox.run(["/bin/sleep", "60"], limits=Limits(timeout_s=20, quiet_s=0.5))
    assert hung.quiet and hung.quiet_at_s is not None and 0.5 <= hung.quiet_at_s < 5
    unwatched = sandbox.run(["/bin/sh", "-c", "sleep 0.3"], limits=Limits(timeout_s=5))
    assert unwatched.exit_code == 0 and unwatched.quiet_at_s is None


def test_the_dump_is_taken_when_the_run_went_quiet(sandbox: Sandbox, programs: Programs) -> None:
    # A Go program that hangs without deadlocking (a ticker keeps Go's own detector away).
    result = sandbox.run(
        [programs.path("dumpme")],
        binds=(programs.bind(),),
        limits=Limits(timeout_s=60, quiet_s=1.0),
        dump_signal=signal.SIGQUIT,
    )
    assert result.timed_out and result.quiet and result.duration_s < 30
    assert result.stdout == "hanging\n"
    assert result.dump is not None and "main.stuckReceiver" in result.dump


def test_the_docker_backend_trusts_a_pid_only_in_the_containers_cgroup() -> None:
    with open("/proc/self/cgroup") as f:
        ours = f.read().strip().splitlines()[-1]
    assert _host_pid(ours, os.getpid()) == os.getpid()
    assert _host_pid("f" * 64, os.getpid()) is None  # another namespace's PID, say
    assert _host_pid(ours, 0) is None and _host_pid(ours, None) is None
    with open("/proc/1/cgroup") as f:  # any process may be a container's init, even 1
        assert _host_pid(f.read().strip().splitlines()[-1], 1) == 1
    assert _host_pid(ours, 2**22 + 1) is None  # no such process


@pytest.mark.slow
def test_a_container_it_cannot_see_waits_out_its_timeout_and_says_so(
    docker_sandbox: Sandbox, monkeypatch: pytest.MonkeyPatch
) -> None:
    # As from a worker in a PID namespace of its own: the engine's PIDs are not ours.
    monkeypatch.setattr(docker_backend, "_host_pid", lambda _id, _pid: None)
    with pytest.warns(RuntimeWarning, match="wait out their timeout"):
        result = docker_sandbox.run(["/bin/sleep", "60"], limits=Limits(timeout_s=2, quiet_s=0.5))
    assert result.timed_out and not result.quiet and result.quiet_at_s is None
    assert result.duration_s >= 2

"""The hostile-program suite, run against every contained backend (local, docker).

Each test runs one program and checks three things: the result fields say
clearly what happened, the program was contained (limits held, nothing
written or reached outside), and nothing of it is left running afterwards
(the ``marker`` fixture scans /proc when the test ends).
"""

from __future__ import annotations

import os
import re
import signal
import socket
import tempfile
import threading
import time
from pathlib import Path

import pytest

from runners.engine.sandbox import Bind, Limits, MiB, SandboxError, SandboxResult
from runners.engine.sandbox.base import Sandbox

from .conftest import PROGRAMS_MOUNT, Programs, leftovers, marker_env

pytestmark = pytest.mark.security

# Short timeouts keep the quick loop quick. Containers get more: on a busy
# machine a container's first output can take longer than half a second.
SLACK = 3.0


def short(sandbox: Sandbox) -> float:
    return 1.5 if sandbox.name == "docker" else 0.5


def run(
    sandbox: Sandbox,
    programs: Programs,
    marker: str,
    name: str,
    *args: str,
    limits: Limits | None = None,
    binds: tuple[Bind, ...] = (),
    dump_signal: int | None = None,
) -> SandboxResult:
    return sandbox.run(
        [programs.path(name), *args],
        binds=(programs.bind(), *binds),
        workdir="/tmp",
        env=marker_env(marker),
        limits=limits or Limits(timeout_s=10),
        dump_signal=dump_signal,
    )


def test_well_behaved_program(sandbox: Sandbox, programs: Programs, marker: str) -> None:
    result = run(sandbox, programs, marker, "hello")
    assert result.ok
    assert (result.exit_code, result.signal, result.timed_out) == (0, None, False)
    assert result.stdout == "hello from stdout\n"
    assert result.stderr == "hello from stderr\n"
    assert not result.stdout_truncated and not result.stderr_truncated
    assert result.dump is None
    assert result.backend == sandbox.name
    assert 0 < result.duration_s < 10


def test_exit_code_passes_through(sandbox: Sandbox, programs: Programs, marker: str) -> None:
    result = run(sandbox, programs, marker, "exit3")
    assert (result.exit_code, result.signal, result.timed_out) == (3, None, False)
    assert result.stdout == "exiting with 3\n"
    assert not result.ok


def test_segfault_is_reported_as_a_signal(
    sandbox: Sandbox, programs: Programs, marker: str
) -> None:
    result = run(sandbox, programs, marker, "segv")
    # Not exit code 139: the sandbox says it was a signal.
    assert (result.exit_code, result.signal, result.timed_out) == (None, signal.SIGSEGV, False)
    assert result.stdout == "about to crash\n"


def test_sleeping_forever_times_out(sandbox: Sandbox, programs: Programs, marker: str) -> None:
    result = run(sandbox, programs, marker, "sleeper", limits=Limits(timeout_s=short(sandbox)))
    assert result.timed_out
    # Killed by the sandbox: neither an exit code nor a signal of its own.
    assert (result.exit_code, result.signal, result.dump) == (None, None, None)
    assert result.stdout == "sleeping\n"
    assert short(sandbox) <= result.duration_s < short(sandbox) + SLACK


def test_fork_bomb_is_contained(sandbox: Sandbox, programs: Programs, marker: str) -> None:
    limits = Limits(timeout_s=short(sandbox), max_procs=64)
    peak = 0
    done = threading.Event()

    def watch() -> None:
        nonlocal peak
        while not done.is_set():
            peak = max(peak, len(leftovers(marker)))
            time.sleep(0.02)

    watcher = threading.Thread(target=watch)
    watcher.start()
    try:
        result = run(sandbox, programs, marker, "forkbomb", limits=limits)
    finally:
        done.set()
        watcher.join()
    # docker: forks refused by the pids cgroup still charge kernel memory to the
    # container, and on a busy machine it piles up faster than it is freed: the
    # container's memory cgroup then OOM-kills the bomb (dmesg: "forkbomb invoked
    # oom-killer", kmem ~512 MiB, rss ~1 MiB; 2 runs of 10 with two busy loops
    # beside). Ended by its own cgroup is contained too; only docker has one.
    oom_killed = sandbox.name == "docker" and result.signal == signal.SIGKILL
    assert result.timed_out or oom_killed, result
    # A bomb that ran its course met the process limit; one OOM-killed may not have.
    made = re.findall(r"fork failed after (\d+)", result.stdout)
    assert made or oom_killed, result.stdout
    assert all(int(n) < limits.max_procs for n in made)
    # The helper (PID 1) is one more process carrying the marker; an OOM kill can
    # come before the watcher's first look.
    assert peak <= limits.max_procs + 1
    assert peak > 0 or oom_killed
    # The machine can still start processes.
    assert os.system("true") == 0


def test_an_oom_killer_takes_the_program_before_the_helper(sandbox: Sandbox) -> None:
    # /proc/1 is the helper. Its status line is the only word on how the program
    # ended, so the program and its children must always be the likelier victims.
    script = "cat /proc/self/oom_score_adj /proc/1/oom_score_adj"
    result = sandbox.run(["/bin/sh", "-c", script], limits=Limits(timeout_s=10))
    assert result.exit_code == 0, result
    program, helper = (int(word) for word in result.stdout.split())
    assert program == 1000
    assert helper < program


def test_children_left_behind_at_exit_are_killed(
    sandbox: Sandbox, programs: Programs, marker: str
) -> None:
    limits = Limits(timeout_s=10, max_procs=48)
    result = run(sandbox, programs, marker, "forkmany", limits=limits)
    assert (result.exit_code, result.timed_out) == (0, False)
    made = int(result.stdout.split()[1])
    assert 0 < made < limits.max_procs
    assert leftovers(marker) == []


def test_memory_hog_is_stopped(sandbox: Sandbox, programs: Programs, marker: str) -> None:
    limits = Limits(timeout_s=10, memory_bytes=256 * MiB)
    result = run(sandbox, programs, marker, "memhog", limits=limits)
    assert not result.timed_out
    assert "done" not in result.stdout
    touched = [int(line.split()[1]) for line in result.stdout.splitlines() if "touched" in line]
    assert max(touched, default=0) <= 256
    # local: malloc fails under RLIMIT_DATA (exit 42); docker: the cgroup's
    # OOM killer ends it (SIGKILL). Either way, not a clean exit.
    assert result.exit_code == 42 or result.signal == signal.SIGKILL, result


def test_endless_output_is_capped_and_timed_out(
    sandbox: Sandbox, programs: Programs, marker: str
) -> None:
    limits = Limits(timeout_s=short(sandbox), output_bytes=64 * 1024)
    result = run(sandbox, programs, marker, "flood", limits=limits)
    assert result.timed_out
    assert result.stdout_truncated and not result.stderr_truncated
    assert result.stdout == "y" * (64 * 1024)
    assert short(sandbox) <= result.duration_s < short(sandbox) + SLACK


def test_large_output_never_blocks_the_writer(
    sandbox: Sandbox, programs: Programs, marker: str
) -> None:
    limits = Limits(timeout_s=10, output_bytes=1000)
    result = run(sandbox, programs, marker, "flood", "64", limits=limits)
    assert (result.exit_code, result.timed_out) == (0, False)
    assert result.stdout == "y" * 1000 and result.stdout_truncated


def test_network_is_unreachable(sandbox: Sandbox, programs: Programs, marker: str) -> None:
    # A listener on the host's loopback: a sandbox sharing the host's network
    # would connect to it. The program itself refuses to try anything if it
    # sees an interface besides loopback, so no packet leaves even then.
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(1)
        listener.setblocking(False)
        port = listener.getsockname()[1]
        result = run(sandbox, programs, marker, "network", str(port), "1.1.1.1")
        with pytest.raises(BlockingIOError):
            listener.accept()
    assert result.exit_code != 99, result.stdout
    assert result.exit_code == 0, result.stdout
    lines = dict(line.split(": ", 1) for line in result.stdout.splitlines())
    assert lines["loopback"] == "Connection refused"
    assert lines["public"] == "Network is unreachable"


def test_writing_outside_tmp_fails(sandbox: Sandbox, programs: Programs, marker: str) -> None:
    # A host directory anyone may write to, bound read-only: only the bind's
    # read-only flag can stop the write.
    victim = Path(tempfile.mkdtemp(prefix="chanfuzz-sandbox-victim-"))
    try:
        victim.chmod(0o777)
        result = run(
            sandbox,
            programs,
            marker,
            "writeout",
            "/victim", "/", "/etc", "/usr", PROGRAMS_MOUNT, "/var/tmp", "/dev/shm", "/tmp",
            binds=(Bind(str(victim), "/victim"),),
        )  # fmt: skip
        assert result.exit_code == 0
        outcome = {
            line.split()[1].rstrip(":"): line.split()[0] for line in result.stdout.splitlines()
        }
        assert outcome.pop("/tmp") == "ok"
        assert set(outcome.values()) == {"denied"}, result.stdout
        assert list(victim.iterdir()) == []
        assert not Path(programs.dir, "chanfuzz-escape").exists()
        assert not Path("/chanfuzz-escape").exists()
    finally:
        for leftover in victim.iterdir():
            leftover.unlink()
        victim.rmdir()


def test_file_size_limit(sandbox: Sandbox, programs: Programs, marker: str) -> None:
    limits = Limits(timeout_s=10, max_file_bytes=1 * MiB)
    result = run(sandbox, programs, marker, "bigfile", "/tmp", limits=limits)
    assert result.exit_code == 0
    assert result.stdout == "stopped at 1 MiB: File too large\n"


def test_tmp_is_size_limited(sandbox: Sandbox, programs: Programs, marker: str) -> None:
    limits = Limits(timeout_s=10, max_file_bytes=64 * MiB, tmp_bytes=4 * MiB)
    result = run(sandbox, programs, marker, "bigfile", "/tmp", limits=limits)
    assert result.exit_code == 0
    assert result.stdout.startswith("stopped at ")
    assert result.stdout.endswith("MiB: No space left on device\n")
    assert int(result.stdout.split()[2]) <= 4


def test_orphan_that_outlives_its_parent_is_killed(
    sandbox: Sandbox, programs: Programs, marker: str
) -> None:
    # The grandchild is in its own session and keeps stdout open: neither a
    # process-group kill nor waiting for EOF would end it.
    result = run(sandbox, programs, marker, "orphan")
    assert (result.exit_code, result.timed_out) == (0, False)
    assert result.stdout == "parent exits, grandchild lives on\n"
    assert result.duration_s < SLACK
    assert leftovers(marker) == []


def test_go_goroutine_dump_on_sigquit(sandbox: Sandbox, programs: Programs, marker: str) -> None:
    result = run(
        sandbox,
        programs,
        marker,
        "dumpme",
        limits=Limits(timeout_s=short(sandbox)),
        dump_signal=signal.SIGQUIT,
    )
    assert result.timed_out
    # Go prints every goroutine's stack on SIGQUIT and exits 2 by itself.
    assert (result.exit_code, result.signal) == (2, None)
    assert result.stdout == "hanging\n"
    assert result.dump is not None
    assert "SIGQUIT" in result.dump
    # "goroutine 1 [select (no cases)]:" (newer Go versions add "gp=… m=…").
    assert re.search(r"goroutine 1 [^\n]*\[select \(no cases\)\]", result.dump)
    assert "main.stuckReceiver" in result.dump
    # What came after the signal is in the dump, not in stderr.
    assert "goroutine" not in result.stderr


def test_no_dump_without_dump_signal(sandbox: Sandbox, programs: Programs, marker: str) -> None:
    result = run(sandbox, programs, marker, "dumpme", limits=Limits(timeout_s=short(sandbox)))
    assert result.timed_out and result.dump is None
    assert (result.exit_code, result.signal) == (None, None)


def test_missing_program_is_a_sandbox_error(
    sandbox: Sandbox, programs: Programs, marker: str
) -> None:
    with pytest.raises(SandboxError, match="No such file"):
        sandbox.run(
            ["/programs/does-not-exist"],
            binds=(programs.bind(),),
            env=marker_env(marker),
            limits=Limits(timeout_s=10),
        )

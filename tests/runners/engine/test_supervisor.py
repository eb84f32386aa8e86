"""runners.engine.supervisor: the output capture, the event loop with a backend's
callbacks, run_argv on real process groups, and rlimits set before exec."""

from __future__ import annotations

import os
import resource
import signal
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from runners.engine.supervisor import (
    OUTPUT_LIMIT,
    OutputCapture,
    RLimits,
    Supervised,
    run_argv,
    supervise,
)
from tests.runners.engine.processes import alive, group_members

# --- output capture ---------------------------------------------------------------


def test_capture_keeps_the_head_and_flags_truncation() -> None:
    capture = OutputCapture(limit=5, dump_limit=100)
    capture.feed("stdout", b"abc")
    capture.feed("stdout", b"defgh")
    capture.feed("stderr", b"12345")
    assert capture.text("stdout") == "abcde" and capture.truncated("stdout")
    assert capture.text("stderr") == "12345" and not capture.truncated("stderr")
    assert capture.dump_text() is None


def test_capture_sends_everything_after_the_dump_signal_to_the_dump() -> None:
    capture = OutputCapture(limit=100, dump_limit=6)
    capture.feed("stdout", b"before\n")
    capture.start_dump()
    capture.feed("stderr", b"goro")
    capture.feed("stdout", b"utine")
    assert capture.text("stdout") == "before\n" and capture.text("stderr") == ""
    assert capture.dump_text() == "gorout"


def test_capture_without_a_dump_limit_keeps_a_dump_in_its_stream() -> None:
    capture = OutputCapture(limit=100)
    capture.feed("stdout", b"before\n")
    capture.start_dump()
    capture.feed("stderr", b"goroutine 1\n")
    assert capture.text("stderr") == "goroutine 1\n"
    assert capture.dump_text() is None


def test_capture_decodes_invalid_utf8_with_replacement() -> None:
    capture = OutputCapture(limit=10, dump_limit=10)
    capture.feed("stdout", b"a\xffb")
    assert capture.text("stdout") == "a\ufffdb"


# --- the loop, with a backend's callbacks -------------------------------------------


class FakeRun:
    """A "run" made of pipes: the test plays the program, the loop supervises it."""

    def __init__(self) -> None:
        self.out_r, self.out_w = os.pipe()
        self.aux_r, self.aux_w = os.pipe()
        self.writing = True
        self.ended = False
        self.signals: list[int] = []
        self.kills = 0

    def exited(self) -> bool:
        return self.ended

    def send_signal(self, sig: int) -> None:
        self.signals.append(sig)

    def kill_all(self) -> None:
        self.kills += 1
        self.end()

    def write(self, data: bytes) -> None:
        os.write(self.out_w, data)

    def close_pipes(self, status: bytes = b"") -> None:
        # Once only: a closed fd's number may already belong to the loop's selector.
        if self.writing:
            if status:
                os.write(self.aux_w, status)
            os.close(self.out_w)
            os.close(self.aux_w)
            self.writing = False

    def end(self, status: bytes = b"") -> None:
        self.close_pipes(status)  # as a program's end does
        self.ended = True

    def close(self) -> None:
        self.close_pipes()
        for fd in (self.out_r, self.aux_r):
            os.close(fd)


@pytest.fixture
def fake() -> Iterator[FakeRun]:
    run = FakeRun()
    yield run
    run.close()


def loop(fake: FakeRun, capture: OutputCapture, timeout_s: float, **options: Any) -> Supervised:
    return supervise(
        start=time.monotonic(),
        timeout_s=timeout_s,
        streams={fake.out_r: "stdout"},
        capture=capture,
        exited=fake.exited,
        send_signal=fake.send_signal,
        kill_all=fake.kill_all,
        aux_fds=(fake.aux_r,),
        **options,
    )


def test_loop_collects_output_and_aux_until_the_end(fake: FakeRun) -> None:
    capture = OutputCapture(limit=100)
    fake.write(b"hello\n")
    fake.end(status=b"exit 0\n")
    outcome = loop(fake, capture, timeout_s=10)
    assert not outcome.timed_out and outcome.timeout_at is None
    assert capture.text("stdout") == "hello\n"
    assert outcome.aux == {fake.aux_r: b"exit 0\n"}
    assert fake.kills == 1  # once ended: for whatever the run left behind
    assert fake.signals == []


def test_loop_times_out_sends_the_dump_signal_then_kills(fake: FakeRun) -> None:
    capture = OutputCapture(limit=100, dump_limit=100)
    fake.write(b"before\n")
    start = time.monotonic()
    outcome = loop(fake, capture, timeout_s=0.2, dump_signal=signal.SIGQUIT, dump_grace_s=0.3)
    assert outcome.timed_out and outcome.timeout_at is not None
    assert fake.signals == [signal.SIGQUIT]
    assert fake.kills == 1
    # The grace period counts for `end`, not for `timeout_at`.
    assert 0.2 <= outcome.timeout_at - start < 0.3
    assert outcome.end - outcome.timeout_at >= 0.3
    assert capture.text("stdout") == "before\n" and capture.dump_text() == ""


def test_loop_without_a_dump_signal_kills_at_the_timeout(fake: FakeRun) -> None:
    capture = OutputCapture(limit=100, dump_limit=100)
    outcome = loop(fake, capture, timeout_s=0.2, dump_signal=None, dump_grace_s=5)
    assert outcome.timed_out and fake.signals == [] and fake.kills == 1
    assert outcome.end - outcome.timeout_at < 1
    assert capture.dump_text() is None


def test_loop_can_learn_the_end_from_the_streams(fake: FakeRun) -> None:
    # exited() never says so (a container engine slow to answer); EOF on every
    # stream does, when the sandbox's PID 1 holds them until it exits.
    capture = OutputCapture(limit=100)
    fake.close_pipes()
    outcome = loop(fake, capture, timeout_s=10, ended_by_streams_eof=True)
    assert not outcome.timed_out and fake.kills == 1


def test_loop_kills_the_run_when_it_fails(fake: FakeRun) -> None:
    calls = 0

    def broken() -> bool:
        nonlocal calls
        calls += 1
        if calls > 1:
            raise RuntimeError("boom")
        return False

    with pytest.raises(RuntimeError, match="boom"):
        supervise(
            start=time.monotonic(),
            timeout_s=10,
            streams={fake.out_r: "stdout"},
            capture=OutputCapture(limit=10),
            exited=broken,
            send_signal=fake.send_signal,
            kill_all=fake.kill_all,
        )
    assert fake.kills == 1


# --- run_argv: a plain process group --------------------------------------------------


def test_run_reports_exit_code_and_output() -> None:
    result = run_argv(["sh", "-c", "echo out; echo err >&2; exit 3"], 10)
    assert (result.exit_code, result.signal, result.timed_out) == (3, None, False)
    assert (result.stdout, result.stderr) == ("out\n", "err\n")
    assert not result.ok


def test_run_reports_a_fatal_signal() -> None:
    result = run_argv(["sh", "-c", "kill -SEGV $$"], 10)
    assert (result.exit_code, result.signal, result.timed_out) == (None, signal.SIGSEGV, False)


def test_run_bounds_output_and_keeps_draining() -> None:
    # 1 MB on stdout: the process must not block on a full pipe.
    result = run_argv(["sh", "-c", "head -c 1000000 /dev/zero | tr '\\0' x; echo done >&2"], 10)
    assert result.exit_code == 0
    assert len(result.stdout) == OUTPUT_LIMIT
    assert result.stdout_truncated and not result.stderr_truncated
    assert result.stderr == "done\n"


def test_timeout_kills_the_whole_process_group() -> None:
    start = time.monotonic()
    result = run_argv(["sh", "-c", "sleep 300 & echo $$ $!; sleep 300"], 1.0)
    assert time.monotonic() - start < 5
    assert result.timed_out and result.signal == signal.SIGKILL
    assert 1.0 <= result.duration_s < 3
    shell, child = map(int, result.stdout.split())
    assert not alive(shell) and not alive(child)
    assert group_members(shell) == []


def test_leftovers_are_killed_when_the_program_exits() -> None:
    # The background sleep keeps no pipe open (redirected) and would outlive sh.
    result = run_argv(["sh", "-c", "sleep 300 >/dev/null 2>&1 & echo $$ $!"], 10)
    assert result.ok and result.duration_s < 5
    shell, child = map(int, result.stdout.split())
    assert not alive(child)
    assert group_members(shell) == []


def test_a_process_that_closes_its_output_is_still_waited_for() -> None:
    result = run_argv(["sh", "-c", "exec >&- 2>&-; sleep 0.3; exit 4"], 10)
    assert result.exit_code == 4 and not result.timed_out
    assert result.duration_s >= 0.3


def dumper(*, dump_s: float = 0.0) -> list[str]:
    """A program that prints "dump" and exits 2 on SIGQUIT, ``dump_s`` seconds later.

    Python rather than a shell's trap: a shell cannot trap a signal it was
    started with ignored, as everything started by ``cmd &`` in a
    non-interactive shell is, SIGQUIT included.
    """
    script = (
        "import signal, sys, time\n"
        "def dump(*_):\n"
        "    print('dump', flush=True)\n"
        f"    time.sleep({dump_s})\n"
        "    sys.exit(2)\n"
        "signal.signal(signal.SIGQUIT, dump)\n"
        "print('ready', file=sys.stderr, flush=True)\n"
        "time.sleep(60)\n"
    )
    return [sys.executable, "-c", script]


def test_dump_signal_gives_the_program_a_chance_to_print() -> None:
    result = run_argv(dumper(), 1.0, dump_signal=signal.SIGQUIT, dump_grace_s=5)
    assert result.stderr == "ready\n", result  # the handler was in place in time
    assert result.timed_out
    assert result.exit_code == 2 and result.stdout == "dump\n"
    assert result.duration_s < 2


def test_duration_stops_at_the_timeout_while_the_dump_is_printed() -> None:
    result = run_argv(dumper(dump_s=1.0), 1.0, dump_signal=signal.SIGQUIT, dump_grace_s=5)
    assert result.stderr == "ready\n", result
    assert result.timed_out and result.exit_code == 2 and result.stdout == "dump\n"
    assert 1.0 <= result.duration_s < 1.7  # the timeout's time, not the grace's


def test_a_missing_executable_raises() -> None:
    with pytest.raises(FileNotFoundError):
        run_argv(["/nonexistent/chanfuzz-compiler"], 10)
    with pytest.raises(FileNotFoundError):
        run_argv(["/nonexistent/chanfuzz-compiler"], 10, limits=RLimits())


# --- rlimits, set in the child before exec ---------------------------------------------


@pytest.fixture
def cores_allowed() -> Iterator[None]:
    """This process allows core dumps (soft limit up to the hard one), as a shell might."""
    before = resource.getrlimit(resource.RLIMIT_CORE)
    resource.setrlimit(resource.RLIMIT_CORE, (before[1], before[1]))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_CORE, before)


def cores(where: Path) -> list[Path]:
    return [p for p in where.iterdir() if p.name.startswith("core")]


@pytest.mark.usefixtures("cores_allowed")
def test_rlimits_turn_core_dumps_off(tmp_path: Path) -> None:
    crash = ["sh", "-c", "ulimit -c; ulimit -Hc; kill -SEGV $$"]
    result = run_argv(crash, 10, cwd=tmp_path, limits=RLimits())
    assert result.signal == signal.SIGSEGV
    assert result.stdout == "0\n0\n"  # soft and hard: the program cannot raise it again
    assert cores(tmp_path) == []
    if resource.getrlimit(resource.RLIMIT_CORE)[0] != 0:
        # The control, where the kernel writes cores to the working directory:
        # the same crash without limits leaves one.
        result = run_argv(crash, 10, cwd=tmp_path)
        assert result.signal == signal.SIGSEGV and result.stdout != "0\n0\n"
        pattern = Path("/proc/sys/kernel/core_pattern").read_text().strip()
        if pattern.startswith("core"):
            assert cores(tmp_path)


def test_rlimits_bind_the_programs_children_too() -> None:
    limits = RLimits(cpu_s=7, file_bytes=512 * 1024, data_bytes=256 << 20)
    result = run_argv(["sh", "-c", 'sh -c "ulimit -t; ulimit -f; ulimit -d"'], 10, limits=limits)
    # dash reports file size in 512-byte blocks and data in KiB.
    assert result.stdout.split() == ["7", "1024", str(256 << 10)]


def test_cpu_limit_stops_a_busy_loop() -> None:
    result = run_argv(["sh", "-c", "while :; do :; done"], 30, limits=RLimits(cpu_s=1))
    assert result.signal == signal.SIGXCPU and not result.timed_out
    assert 0.9 < result.duration_s < 15  # CPU time: slower than wall time on a busy machine


def test_file_size_limit_stops_a_writer(tmp_path: Path) -> None:
    dd = ["dd", "if=/dev/zero", "of=big", "bs=1000", "count=100"]
    result = run_argv(dd, 10, cwd=tmp_path, limits=RLimits(file_bytes=4096))
    assert result.signal == signal.SIGXFSZ
    assert (tmp_path / "big").stat().st_size == 4096


def test_data_limit_stops_an_allocation() -> None:
    grab = [sys.executable, "-c", "bytearray(512 << 20)"]
    result = run_argv(grab, 30, limits=RLimits(data_bytes=128 << 20))
    assert result.exit_code == 1 and "MemoryError" in result.stderr
    assert run_argv(grab, 30).ok


def test_rlimits_stay_within_the_hard_limits() -> None:
    hard = {resource.RLIMIT_CPU: 50, resource.RLIMIT_FSIZE: 2000}

    def current(which: int) -> tuple[int, int]:
        limit = hard.get(which, resource.RLIM_INFINITY)
        return limit, limit

    settings = dict(RLimits(cpu_s=100, file_bytes=1000, data_bytes=10**9).settings(current))
    assert settings == {
        resource.RLIMIT_CORE: (0, 0),
        resource.RLIMIT_CPU: (50, 50),  # lowered to what this process may give
        resource.RLIMIT_FSIZE: (1000, 1000),
        resource.RLIMIT_DATA: (10**9, 10**9),
    }
    assert dict(RLimits().settings(current)) == {resource.RLIMIT_CORE: (0, 0)}


@pytest.mark.parametrize("field", ["cpu_s", "file_bytes", "data_bytes"])
def test_rlimits_must_be_positive(field: str) -> None:
    with pytest.raises(ValueError, match=field):
        RLimits(**{field: 0})

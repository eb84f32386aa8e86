"""What only the local (bubblewrap) backend promises: a process budget per run, its
own namespaces, a /proc/meminfo of its own, the seccomp filter, and clear errors for
binds uid 65534 cannot reach. Hangs declared once quiet: test_quiet.py, every backend."""

from __future__ import annotations

import os
import shutil
import tempfile
import threading
import time
from pathlib import Path

import pytest

from runners.engine.sandbox import Bind, Limits, MiB, SandboxError, cgroups
from runners.engine.sandbox.base import Sandbox
from runners.engine.sandbox.local import meminfo_text, run_memory_bytes

from .conftest import Programs, command_line, leftovers, marker_env

pytestmark = pytest.mark.security


@pytest.mark.slow  # the bomb must outlast the neighbour even on a busy machine
def test_a_fork_bomb_does_not_starve_a_neighbouring_run(
    local_sandbox: Sandbox, programs: Programs, marker: str
) -> None:
    # RLIMIT_NPROC is counted per user namespace, i.e. per run: while one run
    # exhausts its 64 processes, another still gets all of its own.
    limits = Limits(timeout_s=3.0, max_procs=64)
    bomb_result = []

    def bomb() -> None:
        bomb_result.append(
            local_sandbox.run(
                [programs.path("forkbomb")],
                binds=(programs.bind(),),
                env=marker_env(marker),
                limits=limits,
            )
        )

    thread = threading.Thread(target=bomb)
    thread.start()
    try:
        # Start the neighbour only once the bomb has used up its budget.
        deadline = time.monotonic() + 5
        while len(leftovers(marker)) < limits.max_procs - 1 and time.monotonic() < deadline:
            time.sleep(0.005)
        assert len(leftovers(marker)) >= limits.max_procs - 1, "the bomb never got going"
        neighbour = local_sandbox.run(
            [programs.path("forkmany")],
            binds=(programs.bind(),),
            env=marker_env(marker),
            limits=Limits(timeout_s=5, max_procs=64),
        )
    finally:
        thread.join()
    assert bomb_result[0].timed_out
    assert neighbour.exit_code == 0
    # 64 minus the helper and forkmany itself.
    assert int(neighbour.stdout.split()[1]) == 62, neighbour.stdout


def test_runs_unprivileged_in_its_own_namespaces(local_sandbox: Sandbox, marker: str) -> None:
    script = (
        "id -u; id -g; grep CapEff /proc/self/status; hostname; "
        "ls /proc | grep -c '^[0-9]'; unshare -U true 2>/dev/null && echo userns-allowed; "
        "echo local:$(ls -A /usr/local | wc -l); ls /etc | tr '\\n' ' '; echo; true"
    )
    result = local_sandbox.run(["/bin/sh", "-c", script], env=marker_env(marker))
    lines = result.stdout.splitlines()
    assert lines[0:2] == ["65534", "65534"]
    assert lines[2].split() == ["CapEff:", "0000000000000000"]
    assert lines[3] == "chanfuzz"
    # Only the sandbox's own processes are visible: helper, sh, ls, grep.
    assert int(lines[4]) <= 5
    assert "userns-allowed" not in lines
    # The host's installs (/usr/local) and configuration (/etc beyond a few files) are hidden.
    assert "local:0" in lines
    etc = set(lines[-1].split())
    assert etc <= {"passwd", "group", "ld.so.cache", "localtime", "alternatives"} | {
        name for name in etc if name.startswith("java-")
    }, etc


def test_every_process_of_a_run_is_nobody_to_the_host(local_sandbox: Sandbox, marker: str) -> None:
    # Seen from outside: real, effective, saved and filesystem ids all 65534, no groups
    # (the switch from root happens in chanfuzz-launch, launch.c). Until the program runs,
    # the launcher may still be root outside the sandbox, waiting at its gate: look once
    # the program is running, when every process of the run is past the switch.
    if os.geteuid() != 0:
        pytest.skip("only a sandbox started as root switches to nobody")
    done = []
    thread = threading.Thread(
        target=lambda: done.append(
            local_sandbox.run(
                ["/bin/sleep", "2"], env=marker_env(marker), limits=Limits(timeout_s=5)
            )
        )
    )
    thread.start()
    try:
        deadline = time.monotonic() + 5
        while not any(command_line(pid).startswith(b"/bin/sleep\0") for pid in leftovers(marker)):
            assert time.monotonic() < deadline, "the run's program never started"
            time.sleep(0.005)
        ids = {}
        for pid in leftovers(marker):
            with open(f"/proc/{pid}/status") as f:
                fields = dict(line.split(":", 1) for line in f if ":" in line)
            ids[pid] = [fields[k].split() for k in ("Uid", "Gid", "Groups")]
    finally:
        thread.join()
    assert ids, "the run's processes were never seen"
    for pid, (uids, gids, groups) in ids.items():
        assert uids == ["65534"] * 4 and gids == ["65534"] * 4 and groups == [], (pid, ids)
    assert done[0].exit_code == 0


def test_proc_meminfo_shows_the_runs_own_memory_not_the_hosts(
    local_sandbox: Sandbox, marker: str
) -> None:
    limits = Limits(memory_bytes=300 * MiB)
    result = local_sandbox.run(
        [
            "/bin/sh",
            "-c",
            "cat /proc/meminfo; (echo > /proc/meminfo) 2>/dev/null && echo writable; true",
        ],
        env=marker_env(marker),
        limits=limits,
    )
    assert result.exit_code == 0, result
    seen = result.stdout.replace("writable\n", "")
    assert seen == meminfo_text(run_memory_bytes(limits)), result.stdout
    assert "writable" not in result.stdout
    total_kib = int(seen.split()[1])
    assert total_kib == 300 * 1024 * (cgroups.MEMORY_FACTOR if _memory_groups() else 1)
    host_kib = int(Path("/proc/meminfo").read_text().split()[1])
    assert total_kib < host_kib


def _memory_groups() -> bool:
    return "memory" in cgroups.support().controllers


def test_bind_source_unreachable_by_nobody_is_a_clear_error(local_sandbox: Sandbox) -> None:
    private = Path(tempfile.mkdtemp(prefix="chanfuzz-private-"))  # mode 0700
    try:
        (private / "art").mkdir()
        with pytest.raises(SandboxError, match="searchable by others"):
            local_sandbox.run(["/bin/true"], binds=(Bind(str(private / "art"), "/art"),))
    finally:
        shutil.rmtree(private)


def test_a_quiet_witness_needs_a_quiet_period() -> None:
    with pytest.raises(ValueError, match="quiet_witness needs quiet_s"):
        Limits(quiet_witness=True)


def test_quiet_watch_counts_only_time_without_cpu_or_runnable_threads() -> None:
    from runners.engine.supervisor import QuietWatch

    samples = iter([(100, False), (100, False), (150, False), (150, False), (150, True),
                    (150, False), (151, False)])  # fmt: skip
    watch = QuietWatch(lambda: next(samples), quiet_s=1.0, ticks_per_s=100)
    seen = [watch.sample(t) for t in (0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0)]
    # 50 ticks in 0.5 s restart the window at 1.0, a runnable thread at 2.0; from
    # there a tick of housekeeping in a second is still quiet: hung at 3.0.
    assert seen == [False, False, False, False, False, False, True]
    assert watch.cpu_s == 1.51  # what the run had used at the last look


@pytest.mark.parametrize(("quiet_s", "every_s"), [(2.0, 0.25), (0.5, 0.25), (0.1, 0.05)])
def test_quiet_watch_samples_twice_a_short_period(quiet_s: float, every_s: float) -> None:
    from runners.engine.supervisor import QuietWatch

    watch = QuietWatch(lambda: (0, False), quiet_s=quiet_s)
    assert watch.every_s == every_s
    watch.sample(10.0)
    assert watch.next_at == 10.0 + every_s


def test_quiet_watch_tells_once_when_blocked_for_its_shorter_time() -> None:
    from runners.engine.supervisor import QuietWatch

    told: list[bool] = []
    watch = QuietWatch(lambda: (0, False), quiet_s=1.0, blocked_s=0.3,
                       on_blocked=lambda: told.append(True))  # fmt: skip
    assert watch.every_s == 0.25  # as often as without it
    assert [watch.sample(t) for t in (0.0, 0.25)] == [False, False] and told == []
    assert [watch.sample(t) for t in (0.5, 0.75, 1.0)] == [False, False, True]
    assert told == [True]


def test_quiet_watch_knows_no_cpu_use_before_its_first_sample() -> None:
    from runners.engine.supervisor import QuietWatch

    def gone() -> tuple[int, bool]:
        raise ProcessLookupError  # the processes already went away

    watch = QuietWatch(gone, quiet_s=1.0, ticks_per_s=100)
    assert watch.cpu_s is None
    assert watch.sample(0.0) is False and watch.cpu_s is None


def test_seccomp_refuses_what_a_channel_program_never_needs(
    local_sandbox: Sandbox, programs: Programs, marker: str
) -> None:
    result = local_sandbox.run(
        [programs.path("syscalls")], binds=(programs.bind(),), env=marker_env(marker)
    )
    assert result.exit_code == 0, result
    errors = dict(line.split() for line in result.stdout.splitlines())
    refused = {name: int(code) for name, code in errors.items() if name != "getpid"}
    assert refused == dict.fromkeys(refused, 1), refused  # EPERM, from the filter
    assert len(refused) == 9 and errors["getpid"] == "0"

"""What only the local (bubblewrap) backend promises: a process budget per run,
and clear errors for binds uid 65534 cannot reach."""

from __future__ import annotations

import shutil
import tempfile
import threading
import time
from pathlib import Path

import pytest

from runners.engine.sandbox import Bind, Limits, SandboxError
from runners.engine.sandbox.base import Sandbox

from .conftest import Programs, leftovers, marker_env


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
        "ls /proc | grep -c '^[0-9]'; unshare -U true 2>/dev/null && echo userns-allowed; true"
    )
    result = local_sandbox.run(["/bin/sh", "-c", script], env=marker_env(marker))
    lines = result.stdout.splitlines()
    assert lines[0:2] == ["65534", "65534"]
    assert lines[2].split() == ["CapEff:", "0000000000000000"]
    assert lines[3] == "chanfuzz"
    # Only the sandbox's own processes are visible: helper, sh, ls, grep.
    assert int(lines[4]) <= 5
    assert "userns-allowed" not in lines


def test_bind_source_unreachable_by_nobody_is_a_clear_error(local_sandbox: Sandbox) -> None:
    private = Path(tempfile.mkdtemp(prefix="chanfuzz-private-"))  # mode 0700
    try:
        (private / "art").mkdir()
        with pytest.raises(SandboxError, match="searchable by others"):
            local_sandbox.run(["/bin/true"], binds=(Bind(str(private / "art"), "/art"),))
    finally:
        shutil.rmtree(private)

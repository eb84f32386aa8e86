"""The local sandbox's per-run cgroup: a run's processes together are held to the group's
memory, where one process's rlimit alone would let several of them take far more; the run's
first process joins the group itself and the program holds none of the files it joined
through; a run that cannot join fails as the sandbox's error; groups are removed after each
run; and the product says which limits are in force."""

from __future__ import annotations

import os

import pytest

from runners.engine.sandbox import Limits, cgroups
from runners.engine.sandbox.base import Sandbox, SandboxError

from .conftest import Programs, marker_env, unavailable

pytestmark = pytest.mark.security

MiB = 1 << 20


@pytest.fixture
def groups() -> cgroups.Support:
    found = cgroups.support()
    if not found.version:
        unavailable(f"no cgroups here: {found.reason}")
    return found


def _runs_left(found: cgroups.Support) -> set[str]:
    """This process's run groups: another process (a worker, a second test run) may be
    running programs meanwhile, in groups of its own."""
    mine = f"run-{os.getpid()}-*"
    return {path.name for parent in found.parents for path in parent.glob(mine)}


def test_the_limits_in_force_are_said_in_words() -> None:
    found = cgroups.support()
    text = cgroups.describe()
    assert text.startswith("per-process rlimits")
    if found.version:
        assert f"cgroup v{found.version} per run" in text
        assert all(c in text for c in found.controllers)
    else:
        assert found.reason in text


def test_a_runs_processes_together_are_held_to_its_group(
    groups: cgroups.Support, local_sandbox: Sandbox, programs: Programs, marker: str
) -> None:
    if "memory" not in groups.controllers:
        unavailable("no memory controller")
    # Four hogs, each allowed 256 MiB by its own RLIMIT_DATA (about 192 MiB touched),
    # each holding what it got for 4 s, so that all hold at once: 768 MiB together
    # unbounded; the group holds the run to 2 x 256 = 512 MiB, and its OOM killer takes
    # hogs until the rest fit. What a hog printed says nothing of that (one may be killed
    # while it holds what it reported), so each hog's exit status is what counts.
    limits = Limits(timeout_s=30, memory_bytes=256 * MiB)
    hog = programs.path("memhog")
    before = _runs_left(groups)
    result = local_sandbox.run(
        ["/bin/sh", "-c", f'for i in 1 2 3 4; do ({hog} 4; echo "exit $?") & done; wait'],
        binds=(programs.bind(),),
        env=marker_env(marker),
        limits=limits,
    )
    killed = result.stdout.count("exit 137")  # SIGKILL, from the group's OOM killer
    kept = result.stdout.count("exit 42")  # its malloc failed at the rlimit, it held and ended
    assert killed >= 1 and killed + kept == 4, result.stdout
    # The survivors held their 192 MiB at the same time: together within the group's cap.
    assert kept * 192 <= cgroups.MEMORY_FACTOR * 256, result.stdout
    assert _runs_left(groups) <= before  # this run's group is gone


def test_a_stale_group_is_swept(groups: cgroups.Support) -> None:
    stale = groups.parents[0] / "run-999999999-0123456789ab"
    stale.mkdir()
    assert cgroups.sweep() >= 1
    assert not stale.exists()


def test_the_program_holds_no_file_its_group_was_joined_through(
    groups: cgroups.Support, local_sandbox: Sandbox
) -> None:
    result = local_sandbox.run(["/bin/ls", "/proc/self/fd"], limits=Limits(timeout_s=10))
    # stdin, stdout, stderr and the directory ls reads: nothing opened by root outside.
    assert result.stdout.split() == ["0", "1", "2", "3"], result.stdout


@pytest.mark.parametrize("itself", [True, False], ids=["joins-itself", "moved-by-pid"])
def test_the_runs_memory_is_charged_to_its_group(
    groups: cgroups.Support, local_sandbox: Sandbox, monkeypatch: pytest.MonkeyPatch, itself: bool
) -> None:
    if "memory" not in groups.controllers:
        unavailable("no memory controller")
    if itself and groups.version != 1:
        pytest.skip("a run joins itself on cgroup v1 only: v2 moves it by pid")
    # Moved by pid from outside is v2's way; it works on v1 too, so it is tested here.
    monkeypatch.setattr(cgroups.RunGroup, "joins_itself", property(lambda _: itself))
    peaks: list[int | None] = []
    close = cgroups.RunGroup.close

    def note_peak_then_close(group: cgroups.RunGroup) -> None:
        peaks.append(group.memory_peak())
        close(group)

    monkeypatch.setattr(cgroups.RunGroup, "close", note_peak_then_close)
    result = local_sandbox.run(["/bin/true"], limits=Limits(timeout_s=10))
    assert result.exit_code == 0
    # Only a process inside the group is charged to it: the run joined before it ran.
    assert peaks and peaks[0] is not None and peaks[0] > 0, peaks


def test_a_run_that_cannot_join_its_group_is_the_sandboxs_error(
    groups: cgroups.Support, local_sandbox: Sandbox, monkeypatch: pytest.MonkeyPatch
) -> None:
    if groups.version != 1:
        pytest.skip("a run joins itself on cgroup v1 only: v2 moves it by pid")

    def read_only(group: cgroups.RunGroup) -> list[int]:
        return [os.open(os.devnull, os.O_RDONLY | os.O_CLOEXEC) for _ in group.paths]

    monkeypatch.setattr(cgroups.RunGroup, "open_join_files", read_only)
    before = _runs_left(groups)
    with pytest.raises(SandboxError, match="cannot put the run in its cgroup"):
        local_sandbox.run(["/bin/true"], limits=Limits(timeout_s=10))
    assert _runs_left(groups) <= before  # its group is gone all the same

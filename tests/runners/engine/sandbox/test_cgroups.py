"""The local sandbox's per-run cgroup: a run's processes together are held to the group's
memory, where one process's rlimit alone would let several of them take far more; groups
are removed after each run; and the product says which limits are in force."""

from __future__ import annotations

import re

import pytest

from runners.engine.sandbox import Limits, cgroups
from runners.engine.sandbox.base import Sandbox

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
    return {path.name for parent in found.parents for path in parent.glob("run-*")}


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
    # each holding what it got for a few seconds so that all hold at once: 768 MiB
    # together unbounded; the group holds the run to 2 x 256 = 512 MiB. (Hogs that
    # exit at once would free theirs for the next, and their sum would mean nothing.)
    limits = Limits(timeout_s=30, memory_bytes=256 * MiB)
    hog = programs.path("memhog")
    before = _runs_left(groups)
    result = local_sandbox.run(
        ["/bin/sh", "-c", f"for i in 1 2 3 4; do {hog} 4 & done; wait"],
        binds=(programs.bind(),),
        env=marker_env(marker),
        limits=limits,
    )
    failed = result.stdout.count("malloc failed")
    touched = sum(int(m) for m in re.findall(r"malloc failed after (\d+) MiB", result.stdout))
    # Not all four got their rlimit's worth: the group's OOM killer took at least one,
    # and those that did, held it at the same time within the group's cap.
    assert failed < 4, result.stdout
    assert touched <= cgroups.MEMORY_FACTOR * 256, result.stdout
    assert _runs_left(groups) <= before  # this run's group is gone


def test_a_stale_group_is_swept(groups: cgroups.Support) -> None:
    stale = groups.parents[0] / "run-999999999-0123456789ab"
    stale.mkdir()
    assert cgroups.sweep() >= 1
    assert not stale.exists()

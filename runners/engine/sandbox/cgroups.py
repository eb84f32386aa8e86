"""Per-run control groups for the local sandbox: one group per run that caps the memory,
the number of processes (and threads) and the CPU share of all the run's processes
together, where the machine lets us make groups; the rlimits stay in force either way.

rlimits bound each process on its own (RLIMIT_DATA per process: six processes of one
run could hold six times the limit); a group bounds the run as a whole. Both cgroup v2
(a unified hierarchy whose controllers we may enable) and v1 (separate `memory`,
`pids` and `cpu` hierarchies, as on this project's machines) are used; which one and
which controllers is found once per process (`support()`), and `describe()` says it in
words for `manage.py sandbox` and the about page.

A process joins its group before it runs anything: the sandbox starts a small program of
ours (`chanfuzz-launch`, `launch.c`) that gets into the group and then `exec`s bubblewrap,
so every process of the run is born inside the group. On v1 it moves itself, through files
its parent opened; on v2 it waits on a pipe until its parent has moved it
(`RunGroup.joins_itself` says why). Groups live under a parent named `chanfuzz`
in each hierarchy and are removed after the run.
"""

from __future__ import annotations

import contextlib
import os
import signal
import time
import uuid
from dataclasses import dataclass
from functools import cache
from pathlib import Path

ROOT = Path("/sys/fs/cgroup")
PARENT = "chanfuzz"
CFS_PERIOD_US = 100_000
# A run's processes together may hold this many times one process's data limit: a
# JVM's threads and a Go program's heap share one process, so the group is a cap on
# what a run can take from its neighbours, not a tighter per-process limit.
MEMORY_FACTOR = 2


@dataclass(frozen=True)
class Support:
    """What groups this process can make: `version` 2 or 1 (0: none), the controllers,
    and the directories new groups go under (one per v1 hierarchy, one for v2)."""

    version: int
    controllers: tuple[str, ...]
    parents: tuple[Path, ...]
    reason: str = ""


def _writable_dir(path: Path) -> bool:
    return path.is_dir() and os.access(path, os.W_OK)


def _v2(mount: Path) -> Support | None:
    controllers_file = mount / "cgroup.controllers"
    if not controllers_file.is_file():
        return None
    available = set(controllers_file.read_text().split())
    wanted = [c for c in ("memory", "pids", "cpu") if c in available]
    if not wanted or not _writable_dir(mount):
        return None
    parent = mount / PARENT
    try:
        parent.mkdir(exist_ok=True)
        # Controllers must be enabled in every ancestor's subtree_control, and a v2 group
        # with processes cannot enable them for its children: the parent stays empty.
        for directory in (mount, parent):
            enabled = set((directory / "cgroup.subtree_control").read_text().split())
            missing = [c for c in wanted if c not in enabled]
            if missing:
                (directory / "cgroup.subtree_control").write_text(
                    " ".join(f"+{c}" for c in missing)
                )
    except OSError:
        return None
    return Support(2, tuple(wanted), (parent,))


def _v1() -> Support | None:
    controllers, parents = [], []
    for controller in ("memory", "pids", "cpu"):
        hierarchy = ROOT / controller
        if not _writable_dir(hierarchy):
            continue
        parent = hierarchy / PARENT
        try:
            parent.mkdir(exist_ok=True)
        except OSError:
            continue
        controllers.append(controller)
        parents.append(parent)
    if not controllers:
        return None
    return Support(1, tuple(controllers), tuple(parents))


@cache
def support() -> Support:
    """The cgroups this process may use, found once."""
    if os.geteuid() != 0:
        return Support(0, (), (), "not root: groups cannot be made or joined")
    for mount in (ROOT, ROOT / "unified"):
        found = _v2(mount)
        if found is not None:
            return found
    found = _v1()
    if found is not None:
        return found
    return Support(0, (), (), f"no writable memory, pids or cpu hierarchy under {ROOT}")


def describe() -> str:
    """Which per-run limits are in force, in one line."""
    found = support()
    if not found.version:
        return f"per-process rlimits only (no per-run cgroup: {found.reason})"
    return (
        f"per-process rlimits, and a cgroup v{found.version} per run "
        f"({', '.join(found.controllers)})"
    )


class RunGroup:
    """One run's group in every hierarchy `support()` found; a process gets in by writing
    "0" to each of `open_join_files()` (v1) or is moved in by `join(pid)` (v2); `close()`
    removes the groups once their processes are gone."""

    def __init__(self, *, memory_bytes: int, max_procs: int, cpus: float) -> None:
        found = support()
        self.version = found.version
        name = f"run-{os.getpid()}-{uuid.uuid4().hex[:12]}"
        self.paths = [parent / name for parent in found.parents]
        made: list[Path] = []
        try:
            for path in self.paths:
                path.mkdir()
                made.append(path)
            self._limit(found, memory_bytes * MEMORY_FACTOR, max_procs, cpus)
        except OSError:
            self.paths = made
            self.close()
            raise

    def _write(self, controller: str, name: str, value: str) -> None:
        if self.version == 2:
            path = self.paths[0]
        else:
            path = next(p for p in self.paths if p.parent.parent.name == controller)
        (path / name).write_text(value)

    def _limit(self, found: Support, memory: int, procs: int, cpus: float) -> None:
        quota = max(int(cpus * CFS_PERIOD_US), 1000)
        if "memory" in found.controllers:
            if self.version == 2:
                self._write("memory", "memory.max", str(memory))
                self._write("memory", "memory.swap.max", "0")
            else:
                self._write("memory", "memory.limit_in_bytes", str(memory))
        if "pids" in found.controllers:
            self._write("pids", "pids.max", str(procs))
        if "cpu" in found.controllers:
            if self.version == 2:
                self._write("cpu", "cpu.max", f"{quota} {CFS_PERIOD_US}")
            else:
                self._write("cpu", "cpu.cfs_period_us", str(CFS_PERIOD_US))
                self._write("cpu", "cpu.cfs_quota_us", str(quota))

    @property
    def joins_itself(self) -> bool:
        """Whether a run's first process moves itself in (`open_join_files`), rather than
        being moved from outside by pid (`join`). On v1 it writes "0" to each group's
        `tasks` file: a single thread moving itself skips the kernel's global threadgroup
        lock, whose writer waits out an RCU grace period (11–12 ms a run on this
        project's machines, against 0.04 ms). v2 has no such file and takes the lock
        either way, so moving itself gains nothing there: the engine moves it."""
        return self.version == 1

    def open_join_files(self) -> list[int]:
        """Descriptors (close-on-exec), opened with our rights, through which a process
        moves itself into each of the run's v1 groups by writing "0"."""
        fds: list[int] = []
        try:
            for path in self.paths:
                fds.append(os.open(path / "tasks", os.O_WRONLY | os.O_CLOEXEC))
        except OSError:
            for fd in fds:
                os.close(fd)
            raise
        return fds

    def join(self, pid: int) -> None:
        """Move process `pid` into every one of the run's groups (from outside)."""
        for path in self.paths:
            (path / "cgroup.procs").write_text(str(pid))

    def memory_peak(self) -> int | None:
        """The most memory the run's processes held together, in bytes, if known."""
        for path in self.paths:
            for name in ("memory.peak", "memory.max_usage_in_bytes"):
                with contextlib.suppress(OSError, ValueError):
                    return int((path / name).read_text())
        return None

    def close(self) -> None:
        """Kill what is left in the groups and remove them (a dying process keeps a group
        busy for a moment); one that stays busy is swept by a later run (`sweep`)."""
        for path in self.paths:
            _remove(path, wait_s=2.0)
        self.paths = []


def _remove(path: Path, *, wait_s: float) -> bool:
    deadline = time.monotonic() + wait_s
    while True:
        try:
            path.rmdir()
            return True
        except FileNotFoundError:
            return True
        except OSError:
            if time.monotonic() > deadline:
                return False
        with contextlib.suppress(OSError, ValueError):
            for pid in (path / "cgroup.procs").read_text().split():
                with contextlib.suppress(ProcessLookupError):
                    os.kill(int(pid), signal.SIGKILL)
        time.sleep(0.01)


def sweep() -> int:
    """Remove the groups of runs whose process is gone (a crash between making a group and
    removing it); returns how many were removed."""
    removed = 0
    for parent in support().parents:
        for path in parent.glob("run-*"):
            owner = path.name.split("-")[1]
            if owner.isdigit() and not Path(f"/proc/{owner}").exists():
                removed += _remove(path, wait_s=0.5)
    return removed

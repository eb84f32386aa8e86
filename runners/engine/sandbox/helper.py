"""Building and locating the sandboxes' two small C programs.

- ``chanfuzz-init`` (``init.c``), the PID-1 helper of every sandbox;
- ``chanfuzz-launch`` (``launch.c``), a local run's first process, which joins the
  run's cgroup, becomes uid 65534 and then bubblewrap.

This module owns their binaries: each is compiled from its source (next to this file)
with the machine's C compiler into ``$CHANFUZZ_VAR_DIR/sandbox/bin/<name>-<hash>`` the
first time it is needed (``scripts/install_sandbox.sh`` does it ahead of time), keyed
by the source's hash so an edited source is rebuilt. They are linked statically: the
helper also runs inside container images whatever their libc, and a static program
starts without the dynamic loader's work. Each source says what it does and why.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import tempfile
import threading
from pathlib import Path

from runners import config
from runners.engine.sandbox.base import Limits, SandboxUnavailable

SOURCE = Path(__file__).resolve().with_name("init.c")
LAUNCH_SOURCE = Path(__file__).resolve().with_name("launch.c")
REPO_ROOT = Path(__file__).resolve().parents[3]
_NAMES = {SOURCE: "chanfuzz-init", LAUNCH_SOURCE: "chanfuzz-launch"}
_CFLAGS = ("-O2", "-s", "-static", "-Wall")
_lock = threading.Lock()


def var_dir() -> Path:
    """``$CHANFUZZ_VAR_DIR``, by default ``<repo>/var`` (as in the Django settings)."""
    return config.var_dir()


_digests: dict[tuple[Path, int], str] = {}  # (source, mtime) -> its hash: every run asks


def _binary_path(source: Path) -> Path:
    mtime = source.stat().st_mtime_ns
    digest = _digests.get((source, mtime))
    if digest is None:
        material = source.read_bytes() + " ".join(_CFLAGS).encode()
        digest = _digests[source, mtime] = hashlib.sha256(material).hexdigest()[:16]
    return var_dir() / "sandbox" / "bin" / f"{_NAMES[source]}-{digest}"


def helper_path() -> Path:
    """Where the helper for the current ``init.c`` lives (built or not)."""
    return _binary_path(SOURCE)


def launcher_path() -> Path:
    """Where the launcher for the current ``launch.c`` lives (built or not)."""
    return _binary_path(LAUNCH_SOURCE)


def ensure_helper() -> Path:
    """The helper's path, compiling it first if needed.

    Raises :class:`SandboxUnavailable` when it cannot be built (no C compiler,
    no static libc): the sandboxes cannot report how a program ended without it.
    """
    return _ensure(SOURCE)


def ensure_launcher() -> Path:
    """The launcher's path, compiling it first if needed (raises as ensure_helper)."""
    return _ensure(LAUNCH_SOURCE)


def _ensure(source: Path) -> Path:
    path = _binary_path(source)
    if path.is_file():
        return path
    name = _NAMES[source]
    with _lock:
        if path.is_file():
            return path
        compiler = shutil.which(os.environ.get("CC", "cc")) or shutil.which("gcc")
        if compiler is None:
            raise SandboxUnavailable(
                f"no C compiler to build {name} (apt-get install gcc libc6-dev, "
                "or run scripts/install_sandbox.sh)"
            )
        path.parent.mkdir(parents=True, exist_ok=True)
        # Build under a temporary name and rename: concurrent builders (several
        # workers starting at once) never see a half-written binary.
        fd, tmp = tempfile.mkstemp(prefix=f".{name}-", dir=path.parent)
        os.close(fd)
        try:
            proc = subprocess.run(
                [compiler, *_CFLAGS, "-o", tmp, str(source)],
                capture_output=True,
                text=True,
                timeout=120,
            )
            if proc.returncode != 0:
                raise SandboxUnavailable(
                    f"building {name} with {compiler} failed (a static build needs "
                    f"libc6-dev):\n{proc.stderr.strip()}"
                )
            os.chmod(tmp, 0o755)
            os.replace(tmp, path)
        finally:
            if os.path.exists(tmp):
                os.unlink(tmp)
    return path


def rlimit_args(limits: Limits) -> list[str]:
    """The helper's ``--rlimit`` options for ``limits`` (local and none backends)."""
    cpu = limits.effective_cpu_s
    values = {
        "data": str(limits.memory_bytes),
        "nproc": str(limits.max_procs),
        "fsize": str(limits.max_file_bytes),
        # The soft limit sends SIGXCPU, the hard one a second later SIGKILL.
        "cpu": f"{cpu}:{cpu + 1}",
        "core": "0",
        "nofile": "1024",
    }
    args: list[str] = []
    for name, value in values.items():
        args += ["--rlimit", f"{name}={value}"]
    return args


def sched_args(limits: Limits) -> list[str]:
    """The helper's ``--sched`` option for ``limits`` (every backend), if it needs one."""
    return ["--sched", "batch"] if limits.batch_scheduling else []


def parse_status(text: str) -> tuple[int | None, int | None, str | None]:
    """Decode the helper's status line: (exit_code, signal, exec_error).

    All three None when there is no (complete) status line: the helper was
    killed, or never started.
    """
    line = text.strip().splitlines()[-1] if text.strip() else ""
    word, _, rest = line.partition(" ")
    if word == "exit":
        return int(rest), None, None
    if word == "signal":
        return None, int(rest.split()[0]), None
    if word == "exec-error":
        return None, None, rest.partition(" ")[2] or rest
    return None, None, None


if __name__ == "__main__":
    # scripts/install_sandbox.sh builds both ahead of the first run.
    print(ensure_helper())
    print(ensure_launcher())

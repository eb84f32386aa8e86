"""Building and locating ``chanfuzz-init``, the PID-1 helper of every sandbox.

This module owns the helper's binary: it is compiled from ``init.c`` (next to
this file) with the machine's C compiler into
``$CHANFUZZ_VAR_DIR/sandbox/bin/chanfuzz-init-<hash>`` the first time it is
needed (``scripts/install_sandbox.sh`` does it ahead of time), keyed by the
source's hash so an edited ``init.c`` is rebuilt. It is linked statically so
that the same file also runs inside container images whatever their libc.
``init.c`` says what the helper does and why the backends need it.
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
REPO_ROOT = Path(__file__).resolve().parents[3]
_CFLAGS = ("-O2", "-s", "-static", "-Wall")
_lock = threading.Lock()


def var_dir() -> Path:
    """``$CHANFUZZ_VAR_DIR``, by default ``<repo>/var`` (as in the Django settings)."""
    return config.var_dir()


_digests: dict[int, str] = {}  # init.c's mtime -> its hash: every run asks


def helper_path() -> Path:
    """Where the helper for the current ``init.c`` lives (built or not)."""
    mtime = SOURCE.stat().st_mtime_ns
    digest = _digests.get(mtime)
    if digest is None:
        material = SOURCE.read_bytes() + " ".join(_CFLAGS).encode()
        digest = _digests[mtime] = hashlib.sha256(material).hexdigest()[:16]
    return var_dir() / "sandbox" / "bin" / f"chanfuzz-init-{digest}"


def ensure_helper() -> Path:
    """The helper's path, compiling it first if needed.

    Raises :class:`SandboxUnavailable` when it cannot be built (no C compiler,
    no static libc): the sandboxes cannot report how a program ended without it.
    """
    path = helper_path()
    if path.is_file():
        return path
    with _lock:
        if path.is_file():
            return path
        compiler = shutil.which(os.environ.get("CC", "cc")) or shutil.which("gcc")
        if compiler is None:
            raise SandboxUnavailable(
                "no C compiler to build chanfuzz-init (apt-get install gcc libc6-dev, "
                "or run scripts/install_sandbox.sh)"
            )
        path.parent.mkdir(parents=True, exist_ok=True)
        # Build under a temporary name and rename: concurrent builders (several
        # workers starting at once) never see a half-written binary.
        fd, tmp = tempfile.mkstemp(prefix=".chanfuzz-init-", dir=path.parent)
        os.close(fd)
        try:
            proc = subprocess.run(
                [compiler, *_CFLAGS, "-o", tmp, str(SOURCE)],
                capture_output=True,
                text=True,
                timeout=120,
            )
            if proc.returncode != 0:
                raise SandboxUnavailable(
                    f"building chanfuzz-init with {compiler} failed (a static build needs "
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
    # scripts/install_sandbox.sh builds the helper ahead of the first run.
    print(ensure_helper())

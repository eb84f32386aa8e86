"""Compiles of generated code in a jail: no network, and writes only where chanfuzz keeps
its own files and to /tmp.

Generated source is ours, but a compiler is a large program fed with it, and a
toolchain (a Go module, a crate's build script, a Kotlin plugin) can run code of its
own at build time. So every compile runs under bubblewrap with the host's filesystem
read-only (`--ro-bind / /`), its own network namespace with no interface but
loopback, its own PID, IPC and UTS namespaces, and writable binds of only the
build's work directory, the scratch directory work directories are made in
(config.scratch_dir), the cache directory, the toolchains directory (Go's build
cache, Crystal's compiler cache, cargo's home and target directories live there),
the directories the build plan says it writes (a toolchain's target directory, which
stays in its home when $CHANFUZZ_TOOLCHAINS_DIR later points elsewhere) and /tmp.
/tmp stays the host's: toolchains, mutants and checkouts may live under it, and a
private one hid them (a mutant's crate behind a symlink, for one). The compile's
rlimits and timeout (runners.engine.build) still apply.

Compiles run as the worker's user (the caches are its files); the jail is not the
run sandbox (runners.engine.sandbox.local), which also drops to uid 65534. Where
bubblewrap cannot make the namespaces (`available()` says why), compiles run
unjailed and `describe()` says so.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from collections.abc import Sequence
from functools import cache
from pathlib import Path

from runners import config


@cache
def available() -> str | None:
    """None when compiles are jailed here, else why not (probed once per process)."""
    bwrap = shutil.which("bwrap")
    if bwrap is None:
        return "no bubblewrap (apt-get install bubblewrap)"
    try:
        probe = subprocess.run(
            [bwrap, "--ro-bind", "/", "/", "--unshare-net", "--unshare-pid",
             "--dev", "/dev", "--proc", "/proc", "--", "/bin/true"],
            capture_output=True, text=True, timeout=30,
        )  # fmt: skip
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"bubblewrap does not start here: {exc}"
    if probe.returncode != 0:
        return f"bubblewrap cannot make its namespaces here: {probe.stderr.strip()}"
    return None


def describe() -> str:
    problem = available()
    if problem is None:
        return (
            "compiles: jailed (bubblewrap: no network, read-only host, writes only to the "
            "build, cache and toolchain directories and /tmp)"
        )
    return f"compiles: NOT jailed ({problem})"


def describe_resident() -> str:
    """How the compilers kept running (runners.engine.resident: Kotlin's and Clojure's) are
    contained: in this jail, but outliving the build that started them and writing only to
    the temporary and scratch directories."""
    slots = config.resident_compilers()
    if slots == 0:
        return (
            "Kotlin and Clojure compiles: a cold compiler for every build "
            "(CHANFUZZ_RESIDENT_COMPILERS=0)"
        )
    places = " and ".join(sorted({str(place) for place in resident_writes()}))
    contained = (
        f"jailed as other compiles, writing only to {places}"
        if available() is None
        else "NOT jailed, as other compiles"
    )
    return (
        f"Kotlin and Clojure compiles: by compilers kept running, {slots} per toolchain, "
        f"{contained}; each ends after {config.resident_idle_s()} s without a build"
    )


def resident_writes() -> tuple[Path, ...]:
    """Where a compiler kept running may write: the directories its jail binds whatever
    build it serves (the temporary and scratch directories)."""
    return (Path(tempfile.gettempdir()), config.scratch_dir())


def jail(
    argv: Sequence[str],
    *,
    workdir: Path,
    cwd: Path | None,
    writes: Sequence[Path] = (),
    die_with_parent: bool = True,
) -> list[str]:
    """`argv` as a jailed command, or unchanged where jails are not available; `writes`
    are further directories the compile may write (the build plan's). A resident
    compiler (runners.engine.resident) outlives its starter: `die_with_parent=False`."""
    if available() is not None:
        return list(argv)
    writable = [Path("/tmp"), config.scratch_dir(), workdir, config.cache_dir(),
                config.toolchains_dir(), *writes]  # fmt: skip
    # Once each: the scratch directory is /tmp itself where memory has no room for it.
    writable = list(dict.fromkeys(path.resolve() for path in writable))
    args = [
        shutil.which("bwrap") or "bwrap",
        "--ro-bind", "/", "/",
        "--dev", "/dev",
        "--proc", "/proc",
        "--unshare-net", "--unshare-pid", "--unshare-ipc", "--unshare-uts",
    ]  # fmt: skip
    if die_with_parent:
        args.append("--die-with-parent")
    for path in writable:
        path.mkdir(parents=True, exist_ok=True)
        args += ["--bind", str(path), str(path)]
    args += ["--chdir", str((cwd or workdir).resolve()), "--", *argv]
    return args

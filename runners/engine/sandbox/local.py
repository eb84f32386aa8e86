"""The ``local`` sandbox: bubblewrap namespaces + rlimits, no daemon needed.

This module owns how a program is contained on the machine itself:

- ``bwrap --unshare-all`` gives it its own user, PID, network (loopback only,
  nothing routed), IPC, UTS and cgroup namespaces; ``--disable-userns`` stops it
  making more user namespaces; ``--die-with-parent`` ties the sandbox's life to
  ours.
- bwrap itself is started as uid 65534 (``nobody``) when we are root (through
  ``chanfuzz-launch``, see ``launch.c`` and ``LocalSandbox._launch``), and maps that
  to uid 65534 inside. Measured here: a bwrap started *as root* with
  ``--unshare-user --uid 65534`` maps the sandbox to kernel uid 0, which the
  kernel exempts from RLIMIT_NPROC, so a fork bomb is not stopped. Unprivileged,
  the process count is kept per user namespace, i.e. per run: one run's fork
  bomb cannot starve a JVM running next to it.
- The filesystem is a fresh tmpfs root with read-only binds of /usr (but an empty
  /usr/local: the host's own installs stay hidden) and the /bin, /lib... symlinks or
  directories, a minimal /etc, the caller's binds,
  ``--proc``, ``--dev``, and a size-limited private /tmp: the only writable place.
- ``chanfuzz-init`` (see ``init.c``) runs as PID 1, applies RLIMIT_DATA /
  NPROC / FSIZE / CPU / CORE=0 / NOFILE and a seccomp denylist (tracing, mounts,
  modules, BPF, perf, keyrings, io_uring, clocks: EPERM) to the program, relays
  the dump signal, and reports exactly how the program ended.
- Where the machine allows it, a cgroup per run (``cgroups.py``) caps the memory,
  processes and CPU of all the run's processes together.
- At the end or at the timeout the helper (and with it the whole PID
  namespace) and bwrap's process group are SIGKILLed: nothing survives a run.

Consequence of running unprivileged: bind sources must be reachable by uid
65534 (every parent directory searchable by others), as must the program files.
"""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import signal
import subprocess
import threading
import time
from collections.abc import Mapping, Sequence

from runners.engine.sandbox import cgroups
from runners.engine.sandbox.base import (
    Bind,
    DumpCommand,
    Limits,
    SandboxError,
    SandboxResult,
    SandboxUnavailable,
    blocked_watch,
    program_env,
)
from runners.engine.sandbox.cgroups import RunGroup
from runners.engine.sandbox.helper import (
    ensure_helper,
    ensure_launcher,
    parse_status,
    rlimit_args,
    sched_args,
)
from runners.engine.supervisor import (
    OutputCapture,
    QuietWatch,
    child_pids,
    dump_program,
    process_exited,
    supervise_process,
    tree_cpu,
)

NOBODY = 65534
HELPER_PATH = "/.chanfuzz-init"  # where the helper appears inside the sandbox

# What of /etc a program needs: user names (uid 65534 is "nobody"), the
# dynamic linker's cache (without it glibc does not search the multiarch
# directories such as /usr/lib/x86_64-linux-gnu), the time zone, and the JVM's
# configuration (/usr/bin/java goes through /etc/alternatives; the JDK's conf/
# links into /etc/java-*). Nothing else of the host's configuration is shown,
# and each entry is a bind mount that costs about 0.1 ms per run.
ETC_ENTRIES = (
    "passwd",
    "group",
    "ld.so.cache",
    "localtime",
    "alternatives",
    "java-*",
)
# Top-level directories that on merged-/usr systems are symlinks into /usr.
_ROOT_LINKS = ("bin", "sbin", "lib", "lib32", "lib64", "libx32")

_probed: dict[str, str | None] = {}  # bwrap path -> None if it works, else why not
_probe_lock = threading.Lock()


def run_memory_bytes(limits: Limits) -> int:
    """The most memory one run may hold: its cgroup's cap where the machine gives us a
    memory controller, else one process's RLIMIT_DATA (all the rlimits can say)."""
    if "memory" in cgroups.support().controllers:
        return limits.memory_bytes * cgroups.MEMORY_FACTOR
    return limits.memory_bytes


def meminfo_text(total_bytes: int) -> str:
    """A /proc/meminfo that shows a run its own memory, not the host's: all of it free,
    no swap (a runtime that sizes its heap from MemTotal sizes it to the run)."""
    kib = total_bytes // 1024
    fields = {
        "MemTotal": kib, "MemFree": kib, "MemAvailable": kib, "Buffers": 0, "Cached": 0,
        "SwapCached": 0, "SwapTotal": 0, "SwapFree": 0,
    }  # fmt: skip
    return "".join(f"{name + ':':<16}{value:>8} kB\n" for name, value in fields.items())


def _meminfo_fd(total_bytes: int) -> int:
    fd = os.memfd_create("chanfuzz-meminfo", os.MFD_CLOEXEC)
    os.write(fd, meminfo_text(total_bytes).encode())
    os.lseek(fd, 0, os.SEEK_SET)
    return fd


class LocalSandbox:
    """Runs programs under bubblewrap; see the module docstring."""

    name = "local"
    safe = True

    def __init__(self, bwrap: str | None = None) -> None:
        found = bwrap or shutil.which("bwrap")
        if found is None or not os.access(found, os.X_OK):
            raise SandboxUnavailable(
                f"bubblewrap is not installed ({found or 'bwrap on PATH'} not found; "
                "apt-get install bubblewrap, or run scripts/install_sandbox.sh)"
            )
        self._bwrap = found
        ensure_helper()  # fail now, not at the first run, if it cannot be built
        ensure_launcher()
        self._as_root = os.geteuid() == 0
        self._base = self._base_args()
        self._probe()
        if cgroups.support().version:
            cgroups.sweep()  # groups a crashed process left behind

    # --- building the command line --------------------------------------------

    def _base_args(self) -> list[str]:
        args = [
            self._bwrap,
            "--unshare-all",
            "--unshare-user",
            "--disable-userns",
            "--uid", str(NOBODY),
            "--gid", str(NOBODY),
            "--hostname", "chanfuzz",
            "--die-with-parent",
            "--new-session",
            "--as-pid-1",
            "--ro-bind", "/usr", "/usr",
            # The host's own installs (toolchains, tools) are none of a program's business;
            # a run that needs one binds it itself, over this empty tmpfs.
            "--tmpfs", "/usr/local",
        ]  # fmt: skip
        for name in _ROOT_LINKS:
            path = "/" + name
            if os.path.islink(path):
                args += ["--symlink", os.readlink(path), path]
            elif os.path.isdir(path):
                args += ["--ro-bind", path, path]
        args += ["--dir", "/etc"]
        for pattern in ETC_ENTRIES:
            for path in sorted(glob.glob("/etc/" + pattern)):
                args += ["--ro-bind", path, path]
        args += ["--proc", "/proc", "--dev", "/dev"]
        return args

    def _probe(self) -> None:
        # Once per process: can bwrap make its namespaces here at all? (Not on
        # kernels that forbid unprivileged user namespaces, nor in containers
        # whose seccomp profile blocks unshare.)
        with _probe_lock:
            if self._bwrap not in _probed:
                argv = self._launch([*self._base, "--", "/usr/bin/true"])
                try:
                    proc = subprocess.run(argv, capture_output=True, text=True, timeout=30, cwd="/")
                except (OSError, subprocess.TimeoutExpired) as exc:
                    _probed[self._bwrap] = f"cannot run {self._bwrap}: {exc}"
                    raise SandboxUnavailable(_probed[self._bwrap]) from exc
                why = None
                if proc.returncode != 0:
                    why = (
                        f"bwrap cannot create its namespaces here (exit {proc.returncode}): "
                        f"{proc.stderr.strip()}"
                    )
                    if "namespace" in proc.stderr and "permission" in proc.stderr.lower():
                        why += (
                            " -- unprivileged user namespaces are disabled "
                            "(sysctl kernel.unprivileged_userns_clone=1 / "
                            "user.max_user_namespaces > 0)"
                        )
                _probed[self._bwrap] = why
            why = _probed[self._bwrap]
        if why is not None:
            raise SandboxUnavailable(why)

    def _launch(
        self, argv: list[str], *, join_fds: Sequence[int] = (), gate: bool = False
    ) -> list[str]:
        """`argv` started through ``chanfuzz-launch`` (``launch.c``): into the run's
        cgroup (`join_fds` on v1, or the `gate` on v2), then as uid and gid 65534 when we
        are root. One static program instead of setpriv and a shell: 1.9 ms against
        5.6 ms to start ``/bin/true`` here. (Popen's own user switch cannot vfork: it
        copies the whole worker first, 2.9 ms a run at 50 MB, 10.6 ms at 300 MB.)"""
        options = ["--gate"] if gate else []
        for fd in join_fds:
            options += ["--join", str(fd)]
        if self._as_root:
            options += ["--user", f"{NOBODY}:{NOBODY}"]
        if not options:
            return argv
        # ensure_launcher() each time, as ensure_helper(): the var directory may have been
        # cleaned since.
        return [str(ensure_launcher()), *options, "--", *argv]

    # --- running ----------------------------------------------------------------

    def run(
        self,
        argv: Sequence[str],
        *,
        binds: Sequence[Bind] = (),
        workdir: str = "/tmp",
        env: Mapping[str, str] | None = None,
        limits: Limits | None = None,
        dump_signal: int | None = None,
        dump_command: DumpCommand | None = None,
    ) -> SandboxResult:
        if not argv:
            raise ValueError("empty argv")
        limits = limits or Limits()
        for bind in binds:
            bind.check()
        status_r, status_w = os.pipe2(os.O_CLOEXEC)
        # ensure_helper() again (two stats): the var directory may have been cleaned.
        helper_fd = os.open(ensure_helper(), os.O_RDONLY | os.O_CLOEXEC)
        args = [
            *self._base,
            "--size", str(limits.tmp_bytes),
            "--perms", "1777",
            "--tmpfs", "/tmp",
        ]  # fmt: skip
        for bind in binds:
            args += ["--bind" if bind.writable else "--ro-bind", bind.source, bind.dest]
        # The helper is copied in from an fd (a few hundred KB, well under a
        # millisecond) rather than bound by path, so that it works wherever the
        # var directory is, reachable by uid 65534 or not.
        args += ["--perms", "0555", "--ro-bind-data", str(helper_fd), HELPER_PATH]
        # /proc/meminfo is the host's in a new procfs: the run sees its own cap instead.
        meminfo_fd = _meminfo_fd(run_memory_bytes(limits))
        args += ["--perms", "0444", "--ro-bind-data", str(meminfo_fd), "/proc/meminfo"]
        # Last, once every mount point exists: the root tmpfs and /dev become
        # read-only, so /tmp is the only place the program can write to.
        args += ["--remount-ro", "/dev", "--remount-ro", "/", "--chdir", workdir, "--"]
        args += [HELPER_PATH, "--status-fd", str(status_w), "--seccomp", "deny"]
        args += [*rlimit_args(limits), *sched_args(limits), "--"]
        args += list(argv)

        capture = OutputCapture(limits.output_bytes, limits.dump_bytes)
        group, join_fds, gate = self._run_group(limits)
        # The launcher gets into the run's group, then becomes bwrap: every process of the
        # run is born inside the group (see cgroups.py). On v1 it moves itself; on v2 it
        # waits on the gate, its stdin, until we have moved it, and bwrap gets /dev/null.
        args = self._launch(args, join_fds=join_fds, gate=bool(gate))
        start = time.monotonic()
        try:
            proc = subprocess.Popen(
                args,
                stdin=gate[0] if gate else subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                env=program_env(env),
                cwd="/",
                pass_fds=(status_w, helper_fd, meminfo_fd, *join_fds),
                start_new_session=True,  # bwrap gets its own process group to kill
            )
        except OSError as exc:
            os.close(status_r)
            self._close_group(group, gate)
            raise SandboxError(f"cannot start {self._bwrap}: {exc}") from exc
        finally:
            for fd in (status_w, helper_fd, meminfo_fd, *join_fds):
                os.close(fd)
        if group is not None and gate:
            try:
                group.join(proc.pid)
                os.write(gate[1], b"go\n")
            except OSError as exc:
                proc.kill()
                proc.wait()
                os.close(status_r)
                self._close_group(group, gate)
                raise SandboxError(f"cannot put the run in its cgroup: {exc}") from exc
        helper = _HelperHandle(proc)
        try:
            outcome = supervise_process(
                proc,
                start=start,
                timeout_s=limits.timeout_s,
                capture=capture,
                send_signal=helper.signal,
                kill_all=helper.kill_all,
                dump_signal=dump_signal,
                dump_grace_s=limits.dump_grace_s,
                aux_fds=(status_r,),
                dump_action=(
                    None
                    if dump_command is None
                    else lambda: helper.dump_from_outside(dump_command, capture, limits)
                ),
                quiet=(
                    None
                    if limits.quiet_s is None
                    else QuietWatch(
                        lambda: tree_cpu(proc.pid),
                        limits.quiet_s,
                        witness=limits.quiet_witness,
                        **blocked_watch(limits),
                    )
                ),
            )
        finally:
            helper.close()
            os.close(status_r)
            self._close_group(group, gate)

        exit_code, sig, exec_error = parse_status(outcome.aux[status_r].decode(errors="replace"))
        stderr = capture.text("stderr")
        if join_fds and proc.returncode == _JOIN_FAILED and _JOIN_FAILED_TEXT in stderr:
            raise SandboxError(f"cannot put the run in its cgroup: {stderr.strip()[-2000:]}")
        if exec_error is not None:
            raise SandboxError(f"cannot start {argv[0]!r} in the sandbox: {exec_error}")
        if exit_code is None and sig is None and not outcome.timed_out:
            raise SandboxError(
                f"the sandbox ended without running the program to its end "
                f"(bwrap exit {proc.returncode}): {stderr.strip()[-2000:]}" + _bind_hint(stderr)
            )
        return SandboxResult(
            exit_code=exit_code,
            signal=sig,
            timed_out=outcome.timed_out,
            duration_s=outcome.end - start,
            stdout=capture.text("stdout"),
            stderr=stderr,
            stdout_truncated=capture.truncated("stdout"),
            stderr_truncated=capture.truncated("stderr"),
            dump=capture.dump_text(),
            backend=self.name,
            quiet=outcome.quiet,
            quiet_at_s=None if outcome.quiet_at is None else outcome.quiet_at - start,
            cpu_s=outcome.cpu_s,
        )

    @staticmethod
    def _run_group(limits: Limits) -> tuple[RunGroup | None, list[int], tuple[int, ...]]:
        """The run's cgroup, and either the files its first process joins it through or
        the gate pipe that process waits on until we have moved it (none of these where
        this machine gives us no groups: the rlimits are then all there is)."""
        if not cgroups.support().version:
            return None, [], ()
        try:
            # bwrap itself, outside the run's namespaces, is one process more than the
            # helper and the program, which the rlimit counts.
            group = RunGroup(
                memory_bytes=limits.memory_bytes, max_procs=limits.max_procs + 1, cpus=limits.cpus
            )
        except OSError as exc:
            raise SandboxError(f"cannot make the run's cgroup: {exc}") from exc
        try:
            if group.joins_itself:
                return group, group.open_join_files(), ()
            return group, [], os.pipe2(os.O_CLOEXEC)
        except OSError as exc:
            group.close()
            raise SandboxError(f"cannot put the run in its cgroup: {exc}") from exc

    @staticmethod
    def _close_group(group: RunGroup | None, gate: tuple[int, ...]) -> None:
        for fd in gate:
            with contextlib.suppress(OSError):
                os.close(fd)
        if group is not None:
            group.close()


# How the launcher says it could not join the run's group (launch.c).
_JOIN_FAILED = 125
_JOIN_FAILED_TEXT = "chanfuzz-launch: cannot join the run's cgroup"


class _HelperHandle:
    """Signals for the helper, the sandbox's PID 1.

    With ``--as-pid-1`` the helper is bwrap's only child; it is looked up (in
    our PID namespace) when first needed, i.e. at a timeout.
    """

    def __init__(self, proc: subprocess.Popen[bytes]) -> None:
        self._proc = proc
        self._pidfd: int | None = None
        self._looked = False

    def _helper_pidfd(self) -> int | None:
        if self._looked:
            return self._pidfd
        self._looked = True
        with contextlib.suppress(OSError, ValueError):
            children = child_pids(self._proc.pid)
            if len(children) == 1 and not process_exited(self._proc.pid):
                # pidfd first, then check it is still bwrap's child: no pid reuse.
                fd = os.pidfd_open(children[0])
                if child_pids(self._proc.pid) == children:
                    self._pidfd = fd
                else:
                    os.close(fd)
        return self._pidfd

    def signal(self, sig: int) -> None:
        fd = self._helper_pidfd()
        if fd is not None:
            with contextlib.suppress(ProcessLookupError):
                signal.pidfd_send_signal(fd, sig)

    def dump_from_outside(
        self, command: DumpCommand, capture: OutputCapture, limits: Limits
    ) -> None:
        """Run ``command`` on the program (the helper's child): its output is the dump."""
        helpers = child_pids(self._proc.pid)
        programs = child_pids(helpers[0]) if helpers else []
        dump_program(programs[0] if programs else None, command, capture, limits.dump_grace_s)

    def kill_all(self) -> None:
        # SIGKILL to the sandbox's PID 1 kills every process in its namespace;
        # SIGKILL to bwrap's group kills bwrap (and, through --die-with-parent,
        # the helper too if it was not found). Once bwrap has exited there is
        # no helper to look for: bwrap outlives it, and the kernel empties a
        # PID namespace before its PID 1 is gone.
        if not process_exited(self._proc.pid):
            self.signal(signal.SIGKILL)
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self._proc.pid, signal.SIGKILL)

    def close(self) -> None:
        if self._pidfd is not None:
            os.close(self._pidfd)
            self._pidfd = None


# Kernels without CONFIG_PROC_CHILDREN have no .../task/<tid>/children files.
def _bind_hint(stderr: str) -> str:
    if "Can't find source path" in stderr and "Permission denied" in stderr:
        return (
            "\n(bwrap runs as uid 65534: every bind source and all its parent "
            "directories must be readable/searchable by others)"
        )
    return ""

"""The ``docker`` sandbox: one throw-away container per run, via the Docker Engine API.

This module owns running a program in a container through the docker SDK
(``pip install docker``), against Docker or against podman's compatible API
service (``podman system service``, which ``scripts/install_sandbox.sh`` sets
up; :func:`engine_url` finds it without ``DOCKER_HOST``). Per run:

- a container from the toolchain's image (``docker/<language>.Dockerfile``,
  tagged ``localhost/chanfuzz-<language>`` by the install script) with no
  network, a read-only root, a size-limited /tmp as the only writable place
  (``/var/tmp`` is covered read-only, and ``ipc_mode="none"`` removes
  ``/dev/shm``: podman mounts writable ones by default), cgroup memory and pid
  limits, a CPU quota, all capabilities dropped, no-new-privileges, uid 65534,
  and rlimits as ulimits (file size, core 0, CPU time, open files);
- ``chanfuzz-init`` (see ``init.c``), bind-mounted read-only, is the entrypoint
  and PID 1: it relays the dump signal and reports how the program ended (an
  engine reports a signal as exit code 128+N);
- stdout, stderr and that status come out through FIFOs, each bind-mounted on
  its own, read here directly: bounded, nothing buffered on the engine's disk
  (the log driver is off), and cheaper than ``attach``. The helper holds the
  streams open until it exits, and its exit empties the container, so EOF on
  both means the run is over -- known sooner than from the engine's ``wait``;
- with a quiet period (``Limits.quiet_s``), the container's processes are watched
  through this machine's ``/proc`` as the local sandbox watches its own: the
  engine runs on this kernel already (binds name host paths), and the init's
  host PID is checked against the container's cgroup before it is trusted; a
  target whose runtime prints nothing on a signal (Rust) is dumped the same
  way, by a debugger run here on the container's program;
- on timeout: the dump signal (optionally), the grace period, then ``kill()``
  -- the SDK's wait timeout alone stops nothing -- and in every case
  ``remove(force=True)``. Containers are labelled ``chanfuzz=1`` and
  ``chanfuzz.run=<id>``; :func:`sweep_strays` removes those a crashed run left.

Binds (and the FIFOs) name host paths, so the engine must run on this machine.
The timeout and ``duration_s`` count from when the engine has started the
container, so its start-up latency is not charged to the program.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import tempfile
import threading
import time
import uuid
import warnings
from collections.abc import Mapping, Sequence
from typing import Any

from runners import config
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
from runners.engine.sandbox.helper import ensure_helper, parse_status, sched_args
from runners.engine.supervisor import (
    OutputCapture,
    QuietWatch,
    Supervised,
    child_pids,
    dump_program,
    supervise,
    tree_cpu,
)
from runners.targets import get_target

LABEL = "chanfuzz"
RUN_LABEL = "chanfuzz.run"
CREATED_LABEL = "chanfuzz.created"  # epoch seconds: engines disagree on "Created" formats
HELPER_PATH = "/.chanfuzz-init"
NOBODY = "65534:65534"
DEFAULT_IMAGE_PREFIX = "localhost/chanfuzz-"


def image_for(language: str) -> str:
    """The runtime image for ``language``: ``$CHANFUZZ_DOCKER_IMAGE_PREFIX<language>``
    (default ``localhost/chanfuzz-go`` etc., what ``scripts/install_sandbox.sh`` builds)."""
    if not get_target(language).dockerfile:
        raise SandboxUnavailable(f"{language} declares no image: its programs cannot run here")
    prefix = config.docker_image_prefix(DEFAULT_IMAGE_PREFIX)
    return f"{prefix}{language}"


PODMAN_SOCKET = "/run/podman/podman.sock"  # where scripts/install_sandbox.sh serves the API
DOCKER_SOCKET = "/var/run/docker.sock"


def engine_url() -> str | None:
    """Which engine to talk to: ``$CHANFUZZ_DOCKER_HOST``, else ``$DOCKER_HOST``,
    else Docker's socket, else the podman service ``scripts/install_sandbox.sh``
    starts -- whichever is set or exists first; None if none does."""
    for configured in config.docker_hosts():
        return configured
    for socket_path in (DOCKER_SOCKET, PODMAN_SOCKET):
        if os.path.exists(socket_path):
            return f"unix://{socket_path}"
    return None


def connect(base_url: str | None = None, timeout_s: float = 10.0) -> Any:
    """A docker SDK client for ``base_url`` or :func:`engine_url`, checked with a ping.

    Raises :class:`SandboxUnavailable` when the SDK is missing or no engine answers.
    """
    try:
        # Named imports: without the SDK, a bare `import docker` run from the
        # repository root "succeeds" with the docker/ directory of Dockerfiles.
        from docker import DockerClient
    except ImportError as exc:
        raise SandboxUnavailable(
            "the docker SDK is not installed (pip install 'docker>=7.1,<8')"
        ) from exc
    url = base_url or engine_url()
    if url is None:
        raise SandboxUnavailable(
            "no container engine: DOCKER_HOST is unset and neither "
            f"{DOCKER_SOCKET} nor {PODMAN_SOCKET} exists (run scripts/install_sandbox.sh)"
        )
    try:
        client = DockerClient(base_url=url, timeout=int(timeout_s))
        client.ping()
    except Exception as exc:  # the SDK raises several unrelated types here
        raise SandboxUnavailable(
            f"no container engine answers at {url}: {exc} (run scripts/install_sandbox.sh)"
        ) from exc
    return client


class DockerSandbox:
    """Runs each program in a fresh container; see the module docstring.

    ``image`` defaults to ``$CHANFUZZ_DOCKER_IMAGE``, else :func:`image_for`
    ("go": the plain base, enough for static binaries). ``nproc`` is the
    containers' RLIMIT_NPROC: without a user namespace it counts every process
    of uid 65534 on the host, so it is set high and the per-container bound is
    the cgroup's ``pids_limit`` (= ``Limits.max_procs``).
    """

    name = "docker"
    safe = True

    def __init__(
        self,
        image: str | None = None,
        *,
        base_url: str | None = None,
        client: Any = None,
        nproc: int = 8192,
    ) -> None:
        self.image = image or config.docker_image() or image_for("go")
        self._client = client if client is not None else connect(base_url)
        ensure_helper()  # fail now, not at the first run, if it cannot be built
        self._nproc = nproc
        try:
            self._client.images.get(self.image)
        except Exception as exc:
            raise SandboxUnavailable(
                f"image {self.image} is not available to the engine: {exc} "
                "(scripts/install_sandbox.sh builds the chanfuzz images)"
            ) from exc

    @property
    def client(self) -> Any:
        return self._client

    def _ulimits(self, limits: Limits) -> list[Any]:
        from docker.types import Ulimit

        cpu = limits.effective_cpu_s
        return [
            Ulimit(name="nofile", soft=1024, hard=1024),
            Ulimit(name="nproc", soft=self._nproc, hard=self._nproc),
            Ulimit(name="fsize", soft=limits.max_file_bytes, hard=limits.max_file_bytes),
            Ulimit(name="core", soft=0, hard=0),
            Ulimit(name="cpu", soft=cpu, hard=cpu + 1),
        ]

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
        capture = OutputCapture(limits.output_bytes, limits.dump_bytes)
        run = _ContainerRun(uuid.uuid4().hex)
        try:
            run.open_fifos()
            run.container = self._create(run, argv, binds, workdir, env, limits)
            start = run.start(self.image)
            outcome = run.supervise(start, capture, limits, dump_signal, dump_command)
        finally:
            run.close()
        return self._result(argv, run.status(outcome), outcome, start, capture)

    def _create(
        self,
        run: _ContainerRun,
        argv: Sequence[str],
        binds: Sequence[Bind],
        workdir: str,
        env: Mapping[str, str] | None,
        limits: Limits,
    ) -> Any:
        """The run's container, created (not started) with every limit in place."""
        from docker.types import Mount

        mounts = [
            Mount(HELPER_PATH, str(ensure_helper()), type="bind", read_only=True),
            *(
                Mount(f"/.chanfuzz-{name}", path, type="bind", read_only=False)
                for name, path in run.fifos.items()
            ),
            *(
                Mount(b.dest, os.path.realpath(b.source), type="bind", read_only=not b.writable)
                for b in binds
            ),
        ]
        try:
            return self._client.containers.create(
                self.image,
                command=list(argv),
                entrypoint=[
                    HELPER_PATH,
                    "--stdout",
                    "/.chanfuzz-stdout",
                    "--stderr",
                    "/.chanfuzz-stderr",
                    "--status-file",
                    "/.chanfuzz-status",
                    *sched_args(limits),
                    "--",
                ],  # fmt: skip
                environment=program_env(env),
                working_dir=workdir,
                user=NOBODY,
                network_mode="none",
                ipc_mode="none",
                read_only=True,
                tmpfs={
                    "/tmp": f"rw,nosuid,nodev,size={limits.tmp_bytes},mode=1777",
                    "/var/tmp": "ro,nosuid,nodev,size=4k",
                },
                mounts=mounts,
                mem_limit=limits.memory_bytes,
                memswap_limit=limits.memory_bytes,  # no swap on top
                pids_limit=limits.max_procs,
                nano_cpus=int(limits.cpus * 1e9),
                cap_drop=["ALL"],
                security_opt=["no-new-privileges"],
                ulimits=self._ulimits(limits),
                labels={LABEL: "1", RUN_LABEL: run.run_id, CREATED_LABEL: str(int(time.time()))},
                log_config={"type": "none"},
                stdin_open=False,
                tty=False,
            )
        except Exception as exc:
            raise SandboxError(f"cannot create a container from {self.image}: {exc}") from exc

    def _result(
        self,
        argv: Sequence[str],
        status: str,
        outcome: Supervised,
        start: float,
        capture: OutputCapture,
    ) -> SandboxResult:
        """The run's result from the helper's status line, or why there is none."""
        exit_code, sig, exec_error = parse_status(status)
        if exec_error is not None:
            raise SandboxError(f"cannot start {argv[0]!r} in the container: {exec_error}")
        if exit_code is None and sig is None and not outcome.timed_out:
            raise SandboxError(
                "the container ended without running the program to its end: "
                + capture.text("stderr").strip()[-2000:]
            )
        return SandboxResult(
            exit_code=exit_code,
            signal=sig,
            timed_out=outcome.timed_out,
            duration_s=outcome.end - start,
            stdout=capture.text("stdout"),
            stderr=capture.text("stderr"),
            stdout_truncated=capture.truncated("stdout"),
            stderr_truncated=capture.truncated("stderr"),
            dump=capture.dump_text(),
            backend=self.name,
            quiet=outcome.quiet,
            quiet_at_s=None if outcome.quiet_at is None else outcome.quiet_at - start,
            cpu_s=outcome.cpu_s,
        )


class _ContainerRun:
    """One run's FIFOs, container and exit waiter, and how to end and remove them.

    The program's stdout/stderr and the helper's status line come out through
    FIFOs bind-mounted one by one (a FIFO holds no data, so the program cannot
    fill the host's disk through them). Reading them directly is bounded and
    ~100 ms cheaper per run than `attach`. A waiter thread blocks in the
    engine's ``wait`` and tells the supervisor's loop through a pipe.
    """

    def __init__(self, run_id: str) -> None:
        self.run_id = run_id
        self.io_dir = tempfile.mkdtemp(prefix="chanfuzz-io-")
        self.fifos = {
            name: os.path.join(self.io_dir, name) for name in ("stdout", "stderr", "status")
        }
        self.fds: dict[str, int] = {}
        self.container: Any = None
        self._init_pid: int | None = None
        self._over = False  # the engine said the container no longer runs
        self._waiter: threading.Thread | None = None
        self._exit_r, self._exit_w = os.pipe2(os.O_CLOEXEC)
        self._ended = threading.Event()
        # Guards the fds against a waiter thread that outlives the run (an
        # engine slow to answer): once `_closed`, it must not touch them.
        self._fd_lock = threading.Lock()
        self._closed = False

    def open_fifos(self) -> None:
        for name, path in self.fifos.items():
            os.mkfifo(path)
            os.chmod(path, 0o666)  # writable by the container's uid 65534
            self.fds[name] = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)

    def start(self, image: str) -> float:
        """Start the container and its waiter; returns when the program's clock starts."""
        try:
            self.container.start()
        except Exception as exc:
            raise SandboxError(f"cannot start a container from {image}: {exc}") from exc
        # The clock starts once the engine says the program runs: its own
        # latency (tens to hundreds of ms on a busy machine) is not the
        # program's time.
        start = time.monotonic()
        self._waiter = threading.Thread(
            target=self._wait_for_exit, name=f"chanfuzz-wait-{self.run_id[:8]}", daemon=True
        )
        self._waiter.start()
        return start

    def supervise(
        self,
        start: float,
        capture: OutputCapture,
        limits: Limits,
        dump_signal: int | None,
        dump_command: DumpCommand | None = None,
    ) -> Supervised:
        return supervise(
            start=start,
            timeout_s=limits.timeout_s,
            streams={self.fds["stdout"]: "stdout", self.fds["stderr"]: "stderr"},
            capture=capture,
            exited=self._ended.is_set,
            send_signal=self.send_signal,
            kill_all=self.kill_all,
            exit_fd=self._exit_r,
            dump_signal=dump_signal,
            dump_grace_s=limits.dump_grace_s,
            aux_fds=(self.fds["status"],),
            # The helper, PID 1, holds both FIFOs until it exits.
            ended_by_streams_eof=True,
            quiet=self.quiet_watch(limits),
            dump_action=(
                None
                if dump_command is None
                else lambda: self.dump_from_outside(dump_command, capture, limits)
            ),
        )

    def dump_from_outside(
        self, command: DumpCommand, capture: OutputCapture, limits: Limits
    ) -> None:
        """Run ``command`` here on the program, the child of the container's init, as the
        local sandbox does (a debugger: the images have none, and it needs no capability
        in the container). Nothing to run it on when the container's processes cannot be
        seen from here: the dump says so."""
        init = self.init_pid()
        programs = child_pids(init) if init is not None else []
        dump_program(programs[0] if programs else None, command, capture, limits.dump_grace_s)

    def quiet_watch(self, limits: Limits) -> QuietWatch | None:
        """The watch ``limits.quiet_s`` asks for, over the processes under the container's
        init as this machine's ``/proc`` shows them; None when none is asked for, when the
        run is already over, or when they cannot be seen from here (chanfuzz in a PID
        namespace of its own): the run then waits out its timeout, and a warning says so."""
        if limits.quiet_s is None:
            return None
        pid = self.init_pid()
        if pid is None:
            if self._over or self._ended.is_set():
                return None  # over already: nothing to watch
            # One text for every run: Python's warning filter then says it once a process.
            warnings.warn(
                "the docker sandbox cannot see its containers' processes from here: runs wait "
                "out their timeout instead of the quiet period, and Rust hangs get no dump",
                RuntimeWarning,
                stacklevel=2,
            )
            return None
        return QuietWatch(
            lambda: tree_cpu(pid), limits.quiet_s, witness=limits.quiet_witness,
            **blocked_watch(limits),
        )  # fmt: skip

    def init_pid(self) -> int | None:
        """The host PID of the container's init, once the engine has said it and this
        machine's /proc has confirmed it (see _host_pid); None while it cannot be, or when
        the run is over (``_over``)."""
        # A second look when /proc did not confirm it: a short run may have ended between
        # the engine's answer and the read of /proc, and then the engine says so.
        for look in range(2):
            if self._init_pid is not None or self._over:
                break
            if look:
                time.sleep(0.05)
            try:
                self.container.reload()
                state = self.container.attrs["State"]
            except Exception:  # the engine cannot say: nothing to watch or dump
                return None
            self._over = not state.get("Running")
            if not self._over:
                self._init_pid = _host_pid(self.container.id, state.get("Pid"))
        return self._init_pid

    def status(self, outcome: Supervised) -> str:
        """The helper's status line, as read by :meth:`supervise`."""
        return outcome.aux[self.fds["status"]].decode(errors="replace")

    def send_signal(self, sig: int) -> None:
        with contextlib.suppress(Exception):  # it may just have exited
            self.container.kill(signal=int(sig))

    def kill_all(self) -> None:
        if not self._ended.is_set():
            self.send_signal(signal.SIGKILL)

    def _wait_for_exit(self) -> None:
        # container.wait() blocks in the engine; the SDK's timeout only ends
        # the HTTP request, so wait in rounds until it returns.
        import requests

        try:
            while True:
                try:
                    self.container.wait(timeout=60)
                    break
                except requests.exceptions.ReadTimeout:
                    continue
        except Exception:  # the engine went away: nothing left to wait for
            pass
        finally:
            with self._fd_lock:
                if not self._closed:
                    # Make sure every FIFO reports EOF, also those the helper
                    # never opened (killed early, never started).
                    for path in self.fifos.values():
                        with contextlib.suppress(OSError):
                            os.close(os.open(path, os.O_WRONLY | os.O_NONBLOCK))
                    self._ended.set()
                    os.write(self._exit_w, b"x")

    def close(self) -> None:
        """Remove the container (killing what is left of it), then free the FIFOs."""
        if self.container is not None:
            with contextlib.suppress(Exception):
                self.container.remove(force=True, v=True)
        if self._waiter is not None:
            self._waiter.join(timeout=10)
        with self._fd_lock:
            self._closed = True
            for fd in (*self.fds.values(), self._exit_r, self._exit_w):
                os.close(fd)
        shutil.rmtree(self.io_dir, ignore_errors=True)


def _host_pid(container_id: str, pid: object) -> int | None:
    """``pid``, the engine's PID of a container's init, if this machine's ``/proc`` shows it
    in that container's cgroup. A PID of another PID namespace could name an unrelated
    process of this one, so it counts only then."""
    if not isinstance(pid, int) or pid <= 0:
        return None
    try:
        with open(f"/proc/{pid}/cgroup") as f:
            return pid if container_id in f.read() else None
    except OSError:
        return None


def sweep_strays(older_than_s: float = 3600.0, *, client: Any = None) -> list[str]:
    """Remove chanfuzz containers created more than ``older_than_s`` ago.

    A run removes its container in a ``finally``; only a process killed
    mid-run leaves one. Returns the ids removed.
    """
    client = client if client is not None else connect()
    now = time.time()
    removed = []
    for container in client.containers.list(all=True, filters={"label": f"{LABEL}=1"}):
        labels = container.labels or {}
        try:
            created = float(labels.get(CREATED_LABEL, "0"))
        except ValueError:
            created = 0.0
        if now - created >= older_than_s:
            with contextlib.suppress(Exception):
                container.remove(force=True, v=True)
                removed.append(container.id)
    return removed

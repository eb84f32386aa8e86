"""The backend-independent parts: limits, binds, status lines,
backend selection, and the unsafe ``none`` backend on well-behaved programs
only (it contains nothing, so no hostile program is ever run with it)."""

from __future__ import annotations

import os
import shutil
import signal
import tempfile
from pathlib import Path

import pytest

from runners.engine.sandbox import (
    BACKENDS,
    Bind,
    Limits,
    MiB,
    SandboxError,
    SandboxUnavailable,
    get_sandbox,
)
from runners.engine.sandbox.base import DEFAULT_ENV, Sandbox, program_env
from runners.engine.sandbox.helper import ensure_helper, helper_path, parse_status
from runners.engine.sandbox.unsafe import UnsandboxedRunner

from .conftest import Programs, marker_env

# --- Limits, Bind ---------------------------------------------------------------


def test_limit_defaults() -> None:
    limits = Limits()
    assert limits.memory_bytes == 512 * MiB
    assert limits.max_procs == 256
    assert limits.max_file_bytes == 16 * MiB
    assert limits.output_bytes == 64 * 1024
    assert limits.cpu_s is None


def test_cpu_limit_never_cuts_a_parallel_program_short(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("os.cpu_count", lambda: 4)
    assert Limits(timeout_s=2.5).effective_cpu_s == 11  # 2.5 s x 4 CPUs, rounded up, + 1
    assert Limits(timeout_s=2.5, cpu_s=3).effective_cpu_s == 3


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"timeout_s": 0}, "timeout_s must be positive"),
        ({"memory_bytes": 0}, "memory_bytes must be positive"),
        ({"max_procs": -1}, "max_procs must be positive"),
        ({"cpu_s": 0}, "cpu_s must be positive or None"),
        ({"output_bytes": -1}, "output_bytes, dump_bytes and dump_grace_s must not be negative"),
        ({"cpus": 0}, "cpus must be positive"),
        ({"tmp_bytes": 0}, "tmp_bytes must be positive"),
    ],
)
def test_limits_reject_nonsense(kwargs: dict[str, float], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Limits(**kwargs)


def test_limits_are_frozen() -> None:
    with pytest.raises(AttributeError):
        Limits().timeout_s = 1  # type: ignore[misc]


def test_bind_defaults_to_read_only_same_path(tmp_path) -> None:
    bind = Bind(str(tmp_path))
    assert bind.dest == str(tmp_path) and not bind.writable
    bind.check()


@pytest.mark.parametrize(
    ("bind", "message"),
    [
        (Bind("relative", "/x"), "bind paths must be absolute"),
        (Bind("/usr", "relative"), "bind paths must be absolute"),
        (Bind("/usr", "/"), "cannot bind over the sandbox's root"),
        (Bind("/no/such/dir", "/x"), "bind source does not exist: /no/such/dir"),
    ],
)
def test_bind_check_rejects(bind: Bind, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        bind.check()


def test_program_env_overlays_defaults() -> None:
    env = program_env({"HOME": "/work", "X": "1"})
    assert env["HOME"] == "/work" and env["X"] == "1"
    assert env["PATH"] == DEFAULT_ENV["PATH"]


# --- the helper's status line ----------------------------------------------------


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("exit 0\n", (0, None, None)),
        ("exit 3\n", (3, None, None)),
        ("signal 11\n", (None, 11, None)),
        ("signal 6 core\n", (None, 6, None)),
        ("exec-error 2 No such file or directory\n", (None, None, "No such file or directory")),
        ("", (None, None, None)),
        ("garbage", (None, None, None)),
    ],
)
def test_parse_status(line: str, expected: tuple[object, ...]) -> None:
    assert parse_status(line) == expected


def test_helper_is_built_once_and_keyed_by_its_source() -> None:
    path = ensure_helper()
    assert path == helper_path() and path.is_file()
    assert ensure_helper() == path
    assert path.name.startswith("chanfuzz-init-")


# --- choosing a backend ------------------------------------------------------------


def test_unknown_backend_is_an_error() -> None:
    with pytest.raises(ValueError, match="unknown sandbox"):
        get_sandbox("chroot")


def test_backend_from_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CHANFUZZ_SANDBOX", "none")
    with pytest.warns(RuntimeWarning, match="unsandboxed"):
        sandbox = get_sandbox()
    assert sandbox.name == "none"
    assert set(BACKENDS) == {"local", "docker", "none"}


def test_missing_bwrap_is_unavailable_not_unsandboxed() -> None:
    with pytest.raises(SandboxUnavailable, match="bubblewrap is not installed"):
        get_sandbox("local", bwrap="/nonexistent/bwrap")


def test_broken_bwrap_is_unavailable() -> None:
    # In a directory uid 65534 can reach (pytest's tmp_path is private).
    where = Path(tempfile.mkdtemp(prefix="chanfuzz-fake-bwrap-"))
    try:
        where.chmod(0o755)
        fake = where / "bwrap"
        fake.write_text(
            "#!/bin/sh\necho 'bwrap: No permissions to create new namespace' >&2\nexit 1\n"
        )
        fake.chmod(0o755)
        with pytest.raises(SandboxUnavailable, match="cannot create its namespaces"):
            get_sandbox("local", bwrap=str(fake))
    finally:
        shutil.rmtree(where)


def test_unreachable_docker_engine_is_unavailable(tmp_path) -> None:
    pytest.importorskip("docker.api")  # the SDK, not the docker/ directory
    with pytest.raises(SandboxUnavailable, match="no container engine answers"):
        get_sandbox("docker", base_url=f"unix://{tmp_path}/no.sock")


# --- the "none" backend, with well-behaved programs only ---------------------------


@pytest.fixture
def unsafe() -> UnsandboxedRunner:
    return UnsandboxedRunner(quiet=True)


def test_none_backend_runs_and_reports(
    unsafe: UnsandboxedRunner, programs: Programs, marker: str
) -> None:
    env = marker_env(marker)
    hello = unsafe.run([programs.path("hello", inside=False)], env=env)
    assert (hello.exit_code, hello.stdout, hello.backend) == (0, "hello from stdout\n", "none")
    exit3 = unsafe.run([programs.path("exit3", inside=False)], env=env)
    assert (exit3.exit_code, exit3.signal) == (3, None)
    segv = unsafe.run([programs.path("segv", inside=False)], env=env)
    assert (segv.exit_code, segv.signal) == (None, signal.SIGSEGV)


def test_none_backend_timeout_and_dump(
    unsafe: UnsandboxedRunner, programs: Programs, marker: str
) -> None:
    result = unsafe.run(
        [programs.path("dumpme", inside=False)],
        env=marker_env(marker),
        limits=Limits(timeout_s=0.5),
        dump_signal=signal.SIGQUIT,
    )
    assert result.timed_out and result.exit_code == 2
    assert result.dump is not None and "main.stuckReceiver" in result.dump


def test_none_backend_cannot_remap_paths(unsafe: UnsandboxedRunner, programs: Programs) -> None:
    with pytest.raises(SandboxError, match="cannot remap"):
        unsafe.run(["/programs/hello"], binds=(programs.bind(),))


def test_backends_implement_the_protocol(local_sandbox: Sandbox, unsafe: UnsandboxedRunner) -> None:
    assert isinstance(local_sandbox, Sandbox) and local_sandbox.safe
    assert isinstance(unsafe, Sandbox) and not unsafe.safe


def test_a_render_only_target_has_no_image_to_run_in() -> None:
    from runners.engine.sandbox import SandboxUnavailable
    from runners.engine.sandbox.docker_backend import image_for

    with pytest.raises(SandboxUnavailable, match="flix declares no image"):
        image_for("flix")


@pytest.mark.slow
@pytest.mark.parametrize("backend", ["local", "docker", "none"])
def test_a_dump_command_dumps_the_hung_program_from_outside(
    backend: str, request: pytest.FixtureRequest, programs: Programs, marker: str
) -> None:
    # For runtimes that print nothing on a signal (Rust): the sandbox runs the
    # command on the program's pid at the timeout, and its output is the dump.
    sandbox = (
        request.getfixturevalue(f"{backend}_sandbox")
        if backend != "none"
        else UnsandboxedRunner(quiet=True)
    )
    seen: list[int] = []

    def dump_with(pid: int) -> list[str]:
        seen.append(pid)
        return ["sh", "-c", f"echo dumped; tr '\\0' ' ' < /proc/{pid}/cmdline"]

    inside = backend != "none"
    result = sandbox.run(
        [programs.path("sleeper", inside=inside)],
        binds=(programs.bind(),) if inside else (),
        env=marker_env(marker),
        limits=Limits(timeout_s=0.5),
        dump_command=dump_with,
    )
    assert result.timed_out and len(seen) == 1
    assert result.dump is not None and result.dump.startswith("dumped\n")
    assert "sleeper" in result.dump  # the program's own pid, not the helper's


def _policy_of_a_run(sandbox: Sandbox, limits: Limits) -> int:
    """The scheduling policy of a process the program started (`cat`, reading its own stat)."""
    result = sandbox.run(["/bin/sh", "-c", "cat /proc/self/stat"], limits=limits)
    assert result.exit_code == 0, result.stderr
    # Field 41 of stat(5); the fields after the command's name in parentheses start at 3.
    return int(result.stdout.rsplit(")", 1)[1].split()[41 - 3])


@pytest.mark.parametrize(
    "backend", ["local", pytest.param("docker", marks=pytest.mark.slow), "none"]
)
def test_batch_scheduling_puts_the_program_and_its_children_under_sched_batch(
    backend: str, request: pytest.FixtureRequest
) -> None:
    sandbox = (
        request.getfixturevalue(f"{backend}_sandbox")
        if backend != "none"
        else UnsandboxedRunner(quiet=True)
    )
    assert _policy_of_a_run(sandbox, Limits(batch_scheduling=True)) == os.SCHED_BATCH
    assert _policy_of_a_run(sandbox, Limits()) == os.SCHED_OTHER

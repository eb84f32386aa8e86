"""Fixtures for the sandbox tests: hostile programs built once, backends, leftover scans.

The programs (``programs/*.c``, ``dumpme.go``; for the slow tests ``Hang.java``
and ``channels.cr``) are compiled once per session into a world-readable directory (the sandboxes
run them as uid 65534, and pytest's own tmp directories are private). Every
program runs with ``CHANFUZZ_TEST_MARKER=<token>`` in its environment, which
all its descendants inherit; scanning ``/proc/*/environ`` for the token finds
anything of a run still alive -- container processes included, as the engine
here runs them on this kernel.

Backends that cannot work here are skipped with the reason, except under
``CI=true``, where that is a failure.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest

from runners.engine.sandbox import Bind, SandboxUnavailable, get_sandbox
from runners.engine.sandbox.base import Sandbox
from tests.missing import IN_CI, unavailable

__all__ = ["IN_CI", "unavailable"]  # the sandbox tests import them from here

SOURCES = Path(__file__).resolve().parent / "programs"
MARKER_VAR = "CHANFUZZ_TEST_MARKER"
# Where the programs appear inside a sandbox (the "none" backend cannot
# remap, so it sees them at their host path instead).
PROGRAMS_MOUNT = "/programs"


def go_binary() -> str | None:
    for candidate in (os.environ.get("CHANFUZZ_GO"), "/usr/local/go/bin/go", shutil.which("go")):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    return None


@dataclass(frozen=True)
class Programs:
    dir: Path
    missing: dict[str, str]  # program -> why it could not be built

    def path(self, name: str, *, inside: bool = True) -> str:
        if name in self.missing:
            unavailable(f"test program {name} was not built: {self.missing[name]}")
        return f"{PROGRAMS_MOUNT}/{name}" if inside else str(self.dir / name)

    def bind(self) -> Bind:
        return Bind(str(self.dir), PROGRAMS_MOUNT)


def _compile(argv: list[str], *, env: dict[str, str] | None = None) -> str | None:
    """Run a compiler; None on success, else its complaint."""
    proc = subprocess.run(argv, capture_output=True, text=True, env=env)
    return None if proc.returncode == 0 else (proc.stderr or proc.stdout).strip()


def _publish(out: Path) -> None:
    # World-readable: the sandboxes run the programs as uid 65534.
    for path in out.iterdir():
        path.chmod(0o755 if path.is_dir() or os.access(path, os.X_OK) else 0o644)


@pytest.fixture(scope="session")
def programs() -> Iterator[Programs]:
    """The C programs and the Go one (fast to build: seconds, in parallel)."""
    out = Path(tempfile.mkdtemp(prefix="chanfuzz-sandbox-programs-"))
    out.chmod(0o755)
    jobs: dict[str, tuple[list[str], dict[str, str] | None]] = {}
    missing: dict[str, str] = {}
    gcc = shutil.which("gcc") or shutil.which("cc")
    for source in sorted(SOURCES.glob("*.c")):
        if gcc is None:
            missing[source.stem] = "no C compiler"
        else:
            # Static, so that the same file runs in any container image.
            jobs[source.stem] = (
                [gcc, "-O1", "-static", "-o", str(out / source.stem), str(source)],
                None,
            )
    go = go_binary()
    if go is None:
        missing["dumpme"] = "no Go toolchain"
    else:
        env = {**os.environ, "CGO_ENABLED": "0", "GOTOOLCHAIN": "local", "GOFLAGS": ""}
        jobs["dumpme"] = ([go, "build", "-o", str(out / "dumpme"), str(SOURCES / "dumpme.go")], env)
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        results = {name: pool.submit(_compile, argv, env=env) for name, (argv, env) in jobs.items()}
        for name, future in results.items():
            if (error := future.result()) is not None:
                missing[name] = error
    _publish(out)
    yield Programs(out, missing)
    shutil.rmtree(out, ignore_errors=True)


@pytest.fixture(scope="session")
def java_programs() -> Iterator[Programs]:
    """``Hang.class`` (javac: about a second, so only for the slow JVM tests)."""
    out = Path(tempfile.mkdtemp(prefix="chanfuzz-sandbox-java-"))
    out.chmod(0o755)
    missing: dict[str, str] = {}
    javac = shutil.which("javac")
    if javac is None:
        missing["Hang"] = "no javac"
    elif error := _compile([javac, "--release", "17", "-d", str(out), str(SOURCES / "Hang.java")]):
        missing["Hang"] = error
    _publish(out)
    yield Programs(out, missing)
    shutil.rmtree(out, ignore_errors=True)


@pytest.fixture(scope="session")
def crystal_programs() -> Iterator[Programs]:
    """``channels`` from ``channels.cr`` (crystal build: several seconds; slow tests)."""
    out = Path(tempfile.mkdtemp(prefix="chanfuzz-sandbox-crystal-"))
    out.chmod(0o755)
    missing: dict[str, str] = {}
    crystal = shutil.which("crystal")
    if crystal is None:
        missing["channels"] = "no crystal compiler"
    else:
        # Crystal's cache must not be a text prefix of the working directory
        # (ENVIRONMENT.md); keep it beside, in its own directory.
        cache = Path(tempfile.mkdtemp(prefix="chanfuzz-crystal-cache-"))
        env = {**os.environ, "CRYSTAL_CACHE_DIR": str(cache)}
        error = _compile(
            [crystal, "build", "-o", str(out / "channels"), str(SOURCES / "channels.cr")], env=env
        )
        shutil.rmtree(cache, ignore_errors=True)
        if error:
            missing["channels"] = error
    _publish(out)
    yield Programs(out, missing)
    shutil.rmtree(out, ignore_errors=True)


def _make_sandbox(name: str) -> Sandbox:
    try:
        if name == "docker":
            from runners.engine.sandbox.docker_backend import image_for

            return get_sandbox("docker", image=image_for("go"))
        return get_sandbox(name)
    except SandboxUnavailable as exc:
        unavailable(f"sandbox backend {name!r} is unavailable here: {exc.reason}")
        raise  # unreachable: unavailable() raises


@pytest.fixture(scope="session")
def local_sandbox() -> Sandbox:
    return _make_sandbox("local")


@pytest.fixture(scope="session")
def docker_sandbox() -> Sandbox:
    return _make_sandbox("docker")


@pytest.fixture(params=["local", pytest.param("docker", marks=pytest.mark.slow)])
def sandbox(request: pytest.FixtureRequest) -> Sandbox:
    """Each contained backend in turn (the hostile suite runs against all)."""
    return request.getfixturevalue(f"{request.param}_sandbox")


@pytest.fixture
def marker() -> Iterator[str]:
    """A token for this test's processes; the test fails if any outlive it."""
    token = uuid.uuid4().hex
    yield token
    left = leftovers(token)
    if left:
        for pid in left:  # do not let one failure poison the following tests
            with contextlib.suppress(OSError):
                os.kill(pid, 9)
        pytest.fail(f"processes of the run still alive after it returned: {left}")


def marker_env(token: str) -> dict[str, str]:
    return {MARKER_VAR: token}


def leftovers(token: str) -> list[int]:
    """Live processes carrying ``token`` in their environment (not zombies)."""
    needle = f"{MARKER_VAR}={token}".encode()
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        with contextlib.suppress(OSError):
            with open(f"/proc/{entry}/environ", "rb") as f:
                if needle not in f.read():
                    continue
            with open(f"/proc/{entry}/stat") as f:
                state = f.read().rpartition(")")[2].split()[0]
            if state not in ("Z", "X"):
                found.append(int(entry))
    return found


def command_line(pid: int) -> bytes:
    """Process `pid`'s NUL-separated argv, empty once it is gone."""
    with contextlib.suppress(OSError), open(f"/proc/{pid}/cmdline", "rb") as f:
        return f.read()
    return b""

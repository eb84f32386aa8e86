"""Real runtimes in the sandboxes: a JVM (thread dump on SIGQUIT) and a Crystal binary.

Slow (a JVM start, a Crystal build); they show that what the toolchains
produce runs inside each backend -- the local one with the host's JRE and
libraries, the docker one with the images from ``docker/*.Dockerfile``.
"""

from __future__ import annotations

import signal

import pytest

from runners.engine.sandbox import Limits, get_sandbox
from runners.engine.sandbox.base import Sandbox

from .conftest import Programs, marker_env, unavailable

pytestmark = pytest.mark.slow

# Under the local backend only RLIMIT_DATA bounds memory, and the JVM sizes
# its default heap from the host's RAM (a quarter of it): it must be told.
LOCAL_JVM_FLAGS = ("-Xmx256m", "-XX:+UseSerialGC")
# Long enough for a JVM to start and print before it is stopped, in a container on a busy
# machine too (3 s was not, once: nothing printed yet).
HANG_LIMIT_S = 8.0


def _sandbox_for(backend: str, language: str) -> Sandbox:
    from runners.engine.sandbox import SandboxUnavailable

    try:
        if backend == "docker":
            from runners.engine.sandbox.docker_backend import image_for

            return get_sandbox("docker", image=image_for(language))
        return get_sandbox(backend)
    except SandboxUnavailable as exc:
        unavailable(f"{backend} sandbox for {language} is unavailable here: {exc.reason}")
        raise


@pytest.mark.parametrize("backend", ["local", "docker"])
def test_jvm_thread_dump_on_sigquit(backend: str, java_programs: Programs, marker: str) -> None:
    sandbox = _sandbox_for(backend, "kotlin")
    flags = LOCAL_JVM_FLAGS if backend == "local" else ()
    java_programs.path("Hang")  # skips (or fails in CI) when javac was missing
    result = sandbox.run(
        ["java", *flags, "-cp", "/programs", "Hang"],
        binds=(java_programs.bind(),),
        env=marker_env(marker),
        limits=Limits(timeout_s=HANG_LIMIT_S, dump_grace_s=1.0),
        dump_signal=signal.SIGQUIT,
    )
    assert result.timed_out
    assert result.stdout == "hanging\n"
    # The JVM prints the dump to stdout and keeps running: the sandbox kills
    # it after the grace period, so it has no exit status of its own.
    assert (result.exit_code, result.signal) == (None, None)
    assert result.dump is not None
    assert "Full thread dump" in result.dump
    assert '"chanfuzz-waiter"' in result.dump
    assert "at Hang.main(Hang.java" in result.dump
    assert HANG_LIMIT_S + 1.0 <= result.duration_s < HANG_LIMIT_S + 1.0 + 3.0


@pytest.mark.parametrize("backend", ["local", "docker"])
def test_crystal_program_runs(backend: str, crystal_programs: Programs, marker: str) -> None:
    sandbox = _sandbox_for(backend, "crystal")
    result = sandbox.run(
        [crystal_programs.path("channels")],
        binds=(crystal_programs.bind(),),
        env=marker_env(marker),
        limits=Limits(timeout_s=10),
    )
    assert (result.exit_code, result.signal, result.timed_out) == (0, None, False), result
    assert result.stdout == "sum 33\n"

"""What only the docker backend promises: containers never outlive a run (also on
timeout), stray ones are swept, and the container is locked down."""

from __future__ import annotations

import contextlib
import time

import pytest

from runners.engine.sandbox import Limits, Sandbox
from runners.engine.sandbox.docker_backend import (
    CREATED_LABEL,
    LABEL,
    RUN_LABEL,
    DockerSandbox,
    sweep_strays,
)

from .conftest import Programs, marker_env

pytestmark = [pytest.mark.slow, pytest.mark.security]


def _chanfuzz_containers(sandbox: DockerSandbox) -> set[str]:
    found = sandbox.client.containers.list(all=True, filters={"label": f"{LABEL}=1"})
    return {c.id for c in found}


def test_no_container_outlives_a_run(
    docker_sandbox: DockerSandbox, programs: Programs, marker: str
) -> None:
    before = _chanfuzz_containers(docker_sandbox)
    for name, limits in (("hello", Limits(timeout_s=10)), ("sleeper", Limits(timeout_s=0.5))):
        docker_sandbox.run(
            [programs.path(name)], binds=(programs.bind(),), env=marker_env(marker), limits=limits
        )
        assert _chanfuzz_containers(docker_sandbox) == before


def test_sweep_removes_only_old_strays(docker_sandbox: DockerSandbox) -> None:
    client = docker_sandbox.client
    old = client.containers.create(
        docker_sandbox.image,
        ["/bin/true"],
        labels={LABEL: "1", RUN_LABEL: "test-old", CREATED_LABEL: str(int(time.time()) - 7200)},
        network_mode="none",
    )
    new = client.containers.create(
        docker_sandbox.image,
        ["/bin/true"],
        labels={LABEL: "1", RUN_LABEL: "test-new", CREATED_LABEL: str(int(time.time()))},
        network_mode="none",
    )
    try:
        removed = sweep_strays(3600, client=client)
        assert old.id in removed and new.id not in removed
        remaining = _chanfuzz_containers(docker_sandbox)
        assert old.id not in remaining and new.id in remaining
    finally:
        for container in (old, new):
            # The old one is already gone: that is the point of the test.
            with contextlib.suppress(Exception):
                container.remove(force=True)


def test_container_is_unprivileged_and_isolated(docker_sandbox: DockerSandbox, marker: str) -> None:
    script = (
        "id -u; id -g; grep CapEff /proc/self/status; grep NoNewPrivs /proc/self/status; "
        "ls /proc | grep -c '^[0-9]'; ls /sys/class/net"
    )
    assert isinstance(docker_sandbox, Sandbox) and docker_sandbox.safe
    result = docker_sandbox.run(["/bin/sh", "-c", script], env=marker_env(marker))
    lines = result.stdout.splitlines()
    assert lines[0:2] == ["65534", "65534"]
    assert lines[2].split() == ["CapEff:", "0000000000000000"]
    assert lines[3].split() == ["NoNewPrivs:", "1"]
    assert int(lines[4]) <= 5  # helper, sh, ls, grep: no host processes
    assert lines[5:] == ["lo"]


def test_each_target_runs_in_its_own_image(
    docker_sandbox: DockerSandbox, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A Kotlin program needs the JVM of the Kotlin image, not the Go one.
    from runners.engine.sandbox import get_sandbox
    from runners.engine.sandbox.docker_backend import image_for

    monkeypatch.delenv("CHANFUZZ_DOCKER_IMAGE", raising=False)
    for language in ("go", "kotlin", "crystal"):
        sandbox = get_sandbox("docker", language=language)
        assert isinstance(sandbox, DockerSandbox)
        assert sandbox.image == image_for(language) == f"localhost/chanfuzz-{language}"

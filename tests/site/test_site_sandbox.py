"""`manage.py sandbox` and the about page say how runs are contained and which limits
are in force on this machine."""

from __future__ import annotations

import pytest
from django.test import Client

import runners.engine.sandbox as sandbox_module
from runners.engine.sandbox import cgroups, compile_jail
from tests.missing import unavailable
from tests.site.site_helpers import Manage

pytestmark = pytest.mark.security


def test_the_local_sandbox_says_its_filter_and_limits(manage: Manage) -> None:
    result = manage("sandbox", "--backend", "local")
    if result.returncode == 2:
        unavailable(result.stdout)  # no bubblewrap here: it said why
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("local (bubblewrap): runs as uid 65534")
    assert any(line.startswith("system calls: a seccomp denylist") for line in lines)
    assert f"limits: {cgroups.describe()}" in lines
    # bubblewrap runs here (the run sandbox works), so compiles are jailed with it.
    assert lines[-2:] == [compile_jail.describe(), compile_jail.describe_resident()]
    assert lines[-2].startswith("compiles: jailed (bubblewrap: no network"), lines
    assert lines[-1].startswith("Kotlin and Clojure compiles: by compilers kept running, 2 per"), (
        lines
    )


def test_the_unsafe_backend_says_it_is_no_sandbox(manage: Manage) -> None:
    result = manage("sandbox", "--backend", "none")
    assert (result.returncode, result.stdout.splitlines()) == (
        0,
        ["none: NOT a sandbox: a plain subprocess with rlimits, for debugging only",
         compile_jail.describe(), compile_jail.describe_resident()],
    )  # fmt: skip


def test_the_docker_backend_says_where_its_hangs_are_watched_from(
    manage: Manage, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sandbox_module, "get_sandbox", lambda *a, **k: object())  # it answers
    result = manage("sandbox", "--backend", "docker")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("docker: a container per run through the Docker Engine API")
    assert lines[1].startswith("hangs: the quiet period watched, and a Rust program dumped")


def test_the_docker_backend_without_an_engine_says_it_is_unavailable(manage: Manage) -> None:
    # It described containers (and exited 0) where no engine answered.
    try:
        sandbox_module.get_sandbox("docker")
    except sandbox_module.SandboxUnavailable as missing:
        reason = str(missing)
    else:
        pytest.skip("a container engine answers here")
    result = manage("sandbox", "--backend", "docker")
    assert result.returncode == 2
    assert result.stdout.splitlines()[0] == f"docker: unavailable here: {reason}"


@pytest.mark.django_db
def test_the_about_page_says_how_runs_are_contained(client: Client) -> None:
    body = client.get("/about/").content.decode()
    assert "How runs are contained here" in body
    assert "limits: per-process rlimits" in body or "unavailable here" in body
    assert compile_jail.describe() in body
    assert compile_jail.describe_resident() in body

"""Sandboxes that run compiled programs under test, contained and limited.

This package owns *running* an artifact safely: a program chanfuzz generated
may be a fork bomb, a memory hog or a flood of output by accident (it is
terminating by construction, but the runtime under test may not be), and a
hang or crash must be observed, not suffered. One interface, three backends:

- ``local`` (default): bubblewrap namespaces + rlimits (:mod:`.local`);
- ``docker``: a container through the Docker Engine API -- Docker, or podman's
  compatible service (:mod:`.docker_backend`);
- ``none``: a plain subprocess with rlimits, **not a sandbox** -- for debugging
  a backend problem only (:mod:`.unsafe`).

``get_sandbox()`` picks one by name or by ``$CHANFUZZ_SANDBOX``. The types
(:class:`Limits`, :class:`Bind`, :class:`SandboxResult`, :class:`Sandbox`) are
in :mod:`.base`.
"""

from __future__ import annotations

from typing import Any

from runners import config
from runners.engine.sandbox.base import (
    DEFAULT_ENV,
    Bind,
    DumpCommand,
    KiB,
    Limits,
    MiB,
    Sandbox,
    SandboxError,
    SandboxResult,
    SandboxUnavailable,
)

BACKENDS = ("local", "docker", "none")
DEFAULT_BACKEND = "local"

__all__ = [
    "BACKENDS",
    "DEFAULT_BACKEND",
    "DEFAULT_ENV",
    "DumpCommand",
    "Bind",
    "KiB",
    "Limits",
    "MiB",
    "Sandbox",
    "SandboxError",
    "SandboxResult",
    "SandboxUnavailable",
    "describe",
    "get_sandbox",
]


def describe(name: str | None = None) -> list[str]:
    """What the sandbox called `name` (default: as `get_sandbox`) contains runs with here,
    one fact a line, and last how compiles of generated code are contained: for
    `manage.py sandbox` and the about page."""
    from runners.engine.sandbox import compile_jail

    lines = _describe_runs(name or config.sandbox_backend(DEFAULT_BACKEND))
    return [*lines, compile_jail.describe(), compile_jail.describe_resident()]


def _describe_runs(chosen: str) -> list[str]:
    if chosen == "local":
        from runners.engine.sandbox import cgroups

        try:
            get_sandbox("local")
        except SandboxUnavailable as exc:
            return [f"local (bubblewrap): unavailable here: {exc}"]
        return [
            "local (bubblewrap): runs as uid 65534 in its own user, PID, network (loopback "
            "only), IPC and UTS namespaces, no new user namespaces",
            "files: a read-only root with /usr (the host's /usr/local hidden) and a few /etc "
            "entries; /proc/meminfo shows the run's own memory, not the host's; a private "
            "size-limited /tmp is the only writable place",
            "system calls: a seccomp denylist (tracing, mounts and namespaces, kernel modules, "
            "BPF, perf events, keyrings, io_uring, clocks, host names: EPERM)",
            f"limits: {cgroups.describe()}",
        ]
    if chosen == "docker":
        try:
            get_sandbox("docker")
        except SandboxUnavailable as exc:  # it once described containers no engine ran
            return [f"docker: unavailable here: {exc}"]
        return [
            "docker: a container per run through the Docker Engine API, no network, a "
            "read-only root, the engine's default seccomp profile, and the container's memory, "
            "process and CPU limits",
            "hangs: the quiet period watched, and a Rust program dumped by eu-stack, from this "
            "machine through /proc, where it shows the container's processes (a warning "
            "says when it does not: runs then wait out their timeout)",
        ]
    if chosen == "none":
        return ["none: NOT a sandbox: a plain subprocess with rlimits, for debugging only"]
    raise ValueError(f"unknown sandbox {chosen!r}: choose one of {', '.join(BACKENDS)}")


def get_sandbox(name: str | None = None, *, language: str | None = None, **options: Any) -> Sandbox:
    """The sandbox called ``name``, else ``$CHANFUZZ_SANDBOX``, else ``local``.

    ``language`` is the target whose programs it will run: the docker backend then
    runs them in that target's image (unless ``image=`` or ``$CHANFUZZ_DOCKER_IMAGE``
    says otherwise). ``options`` go to the backend's constructor.
    Raises :class:`SandboxUnavailable` when the backend cannot work here (never
    falls back to another one), ValueError for an unknown name.
    """
    chosen = name or config.sandbox_backend(DEFAULT_BACKEND)
    if chosen == "local":
        from runners.engine.sandbox.local import LocalSandbox

        return LocalSandbox(**options)
    if chosen == "docker":
        from runners.engine.sandbox.docker_backend import DockerSandbox, image_for

        if language is not None and "image" not in options and not config.docker_image():
            options["image"] = image_for(language)
        return DockerSandbox(**options)
    if chosen == "none":
        from runners.engine.sandbox.unsafe import UnsandboxedRunner

        return UnsandboxedRunner(**options)
    raise ValueError(f"unknown sandbox {chosen!r}: choose one of {', '.join(BACKENDS)}")

"""The ``none`` backend: a plain subprocess with rlimits. NOT A SANDBOX.

This module owns the debugging fallback, chosen only by name
(``CHANFUZZ_SANDBOX=none``), never automatically. It applies the same rlimits
as the local backend (through the same helper, ``init.c``, which also reports
how the program ended) and kills the process group at the end, but the program
runs as the calling user with the host's network and file system: RLIMIT_NPROC
does not bind root, a program that calls ``setsid()`` escapes the group kill,
and binds cannot remap paths (a bind is accepted only when source and target
are the same path). Use it to tell a sandbox problem from a program problem.
"""

from __future__ import annotations

import os
import subprocess
import time
import warnings
from collections.abc import Mapping, Sequence

from runners.engine.sandbox.base import (
    Bind,
    DumpCommand,
    Limits,
    SandboxError,
    SandboxResult,
    program_env,
)
from runners.engine.sandbox.helper import ensure_helper, parse_status, rlimit_args, sched_args
from runners.engine.supervisor import (
    OutputCapture,
    ProcessGroup,
    child_pids,
    dump_program,
    supervise_process,
)


class UnsandboxedRunner:
    """Runs programs directly, with rlimits only; see the module docstring."""

    name = "none"
    safe = False

    def __init__(self, *, quiet: bool = False) -> None:
        if not quiet:
            warnings.warn(
                "CHANFUZZ_SANDBOX=none: programs run unsandboxed (rlimits only)",
                RuntimeWarning,
                stacklevel=2,
            )

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
            if os.path.normpath(bind.source) != os.path.normpath(bind.dest):
                raise SandboxError(f"the none backend cannot remap {bind.source} to {bind.dest}")
        # The helper (without namespaces around it) applies the rlimits and
        # says exactly how the program ended, as in the other backends.
        status_r, status_w = os.pipe2(os.O_CLOEXEC)
        args = [
            str(ensure_helper()), "--status-fd", str(status_w),
            *rlimit_args(limits), *sched_args(limits), "--",
        ]  # fmt: skip
        capture = OutputCapture(limits.output_bytes, limits.dump_bytes)
        start = time.monotonic()
        try:
            proc = subprocess.Popen(
                [*args, *argv],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                cwd=workdir,
                env=program_env(env),
                pass_fds=(status_w,),
                start_new_session=True,  # one process group to kill
            )
        except OSError as exc:
            os.close(status_r)
            raise SandboxError(f"cannot start {argv[0]!r}: {exc}") from exc
        finally:
            os.close(status_w)

        # The helper leads the group: it relays the dump signal to the program.
        group = ProcessGroup(proc.pid)
        try:
            outcome = supervise_process(
                proc,
                start=start,
                timeout_s=limits.timeout_s,
                capture=capture,
                send_signal=group.signal,
                kill_all=group.kill,
                dump_signal=dump_signal,
                dump_grace_s=limits.dump_grace_s,
                aux_fds=(status_r,),
                dump_action=(
                    None
                    if dump_command is None
                    else lambda: dump_program(
                        next(iter(child_pids(proc.pid)), None),  # the helper's child
                        dump_command,
                        capture,
                        limits.dump_grace_s,
                    )
                ),
            )
        finally:
            os.close(status_r)
            group.kill_and_wait()
        exit_code, sig, exec_error = parse_status(outcome.aux[status_r].decode(errors="replace"))
        if exec_error is not None:
            raise SandboxError(f"cannot start {argv[0]!r}: {exec_error}")
        if exit_code is None and sig is None and not outcome.timed_out:
            raise SandboxError(
                f"the program's helper ended without a status: {capture.text('stderr')}"
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
        )

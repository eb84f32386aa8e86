"""The termination checker as the web runs it: in a child process, under a hard time limit.

A request must not run the checker itself: a wide race can take minutes (the
state limit bounds states, not time), and the checker raises the interpreter's
recursion limit while it explores, which is global state a request thread must
not touch. So each check runs in a process forked from a `forkserver` that has
the checker imported already (a few milliseconds a check); the checker has a
wall-clock budget of its own, and the process is killed if it overruns that
by `GRACE_S`. A check killed or dead is reported as undecided, never as an
answer it did not reach.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import Any

from generator.effects import Effect
from generator.termination import Verdict, check_effect

GRACE_S = 2.0

_CONTEXT = multiprocessing.get_context("forkserver")
# What its children run, imported once (chanfuzz_site.generate_bounded generates there).
_CONTEXT.set_forkserver_preload(["generator.termination", "generator.pipeline"])


def run_in_child(target: Callable[..., None], args: tuple, budget_s: float) -> tuple[str, Any]:
    """Run `target(conn, *args)` in a child forked from the forkserver; it sends one
    `(status, value)` on `conn`. Returns that, or `("killed", None)` when nothing came
    within `budget_s`, or `("died", None)`. The child is killed on the way out, and its
    process group with it when it made one (the Go checker does, so that the Go helper
    it starts dies too)."""
    reader, writer = _CONTEXT.Pipe(duplex=False)
    child = _CONTEXT.Process(target=target, args=(writer, *args), daemon=True)
    child.start()
    writer.close()
    try:
        answered = reader.poll(budget_s)
        status, value = reader.recv() if answered else ("killed", None)
    except EOFError:  # the child died without a word (out of memory, say)
        status, value = "died", None
    finally:
        if child.pid is not None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(child.pid, signal.SIGKILL)
        if child.is_alive():
            child.kill()
        child.join()
        reader.close()
    return status, value


def _check_in_child(conn: Connection, effect: Effect, max_states: int, time_limit_s: float) -> None:
    try:
        conn.send(("ok", check_effect(effect, max_states=max_states, time_limit_s=time_limit_s)))
    except BaseException as exc:  # noqa: BLE001 - the parent says what went wrong
        conn.send(("error", f"{type(exc).__name__}: {exc}"))
    finally:
        conn.close()


def bounded_check(effect: Effect, *, max_states: int, time_limit_s: float) -> Verdict:
    """check_effect(effect) in a child process killed `GRACE_S` after its own time limit."""
    status, value = run_in_child(
        _check_in_child, (effect, max_states, time_limit_s), time_limit_s + GRACE_S
    )
    if status == "ok":
        return value
    if status == "error":
        raise RuntimeError(f"the checker failed: {value}")
    return Verdict(None, 0, undecided_by="time limit")


__all__ = ["GRACE_S", "bounded_check", "run_in_child"]

"""The Go checker as the web runs it: in a child process, under a hard time limit.

The same mechanism as the effect checker's (`chanfuzz_site.bounded_check`): a
request never runs the checker itself. Each check runs in a process forked from
the `forkserver`; the child runs Go's front end (the `gocheck-ssa` helper, a
process of its own) and then the model checker with its own state and time
budgets. The parent kills the child and everything it started (the child leads
a process group of its own, so the helper or a first `go build` of it goes
too) if it has not answered `GRACE_S` after the front end's and the checker's
budgets together. A check killed or dead is reported as undecided, never as an
answer it did not reach.

Django-free on purpose: the forkserver's children import this module without
Django's settings.
"""

from __future__ import annotations

import contextlib
import os
from dataclasses import dataclass
from multiprocessing.connection import Connection

from chanfuzz_site.bounded_check import GRACE_S, run_in_child
from generator.gocheck.explore import Result


class GoCheckUnavailable(RuntimeError):
    """The checker could not run (no Go, the helper does not build): not the program's fault."""


@dataclass(frozen=True)
class GoOutcome:
    """What one check of a Go source found, in plain (picklable) data."""

    verdict: str  # ok, global-deadlock, partial-deadlock, channel-safety, unsupported,
    #               undecided, bad-input
    result: Result | None  # None for bad-input, and for a check that was stopped
    error: str = ""  # Go's own error text, for bad-input
    effect: str | None = None  # the λ_chan effect (SPEC text) when the program fits it
    effect_reason: str = ""  # why there is none
    report: tuple[str, ...] = ()  # `manage.py gocheck`'s report; its last line the verdict
    stopped: str = ""  # why the check was stopped before it answered ("" when it answered)


def _check_in_child(conn: Connection, source: str, max_states: int, time_limit_s: float,
                    modules: tuple[str, ...]) -> None:
    with contextlib.suppress(OSError):  # a group of our own: the parent's kill takes the helper
        os.setpgid(0, 0)
    try:
        from runners.gocheck.check import check_source, effect_of, report_lines
        from runners.gocheck.frontend import FrontendError

        try:
            checked = check_source(source, max_states=max_states, time_limit=time_limit_s,
                                   modules=modules)
        except FrontendError as exc:
            conn.send(("unavailable", str(exc)))
            return
        try:
            effect, why = effect_of(checked)
        except Exception as exc:  # noqa: BLE001 - the verdict stands without its effect
            effect, why = None, f"inferring the effect failed ({type(exc).__name__})"
        conn.send(("ok", GoOutcome(
            verdict=checked.verdict,
            result=checked.result,
            error=checked.error,
            effect=effect,
            effect_reason=why,
            report=tuple(report_lines(checked)),
        )))  # fmt: skip
    except BaseException as exc:  # noqa: BLE001 - the parent says what went wrong
        conn.send(("error", f"{type(exc).__name__}: {exc}"))
    finally:
        conn.close()


def bounded_gocheck(source: str, *, max_states: int, time_limit_s: float,
                    frontend_s: float, modules: tuple[str, ...] = ()) -> GoOutcome:  # fmt: skip
    """check_source(source) and effect_of it, in a child process killed `GRACE_S` after the
    front end's budget (`frontend_s`) and the checker's (`time_limit_s`) together. The
    source may import from outside the standard library only the module paths `modules`.

    Raises GoCheckUnavailable when the checker cannot run at all."""
    budget = frontend_s + time_limit_s + GRACE_S
    status, value = run_in_child(_check_in_child, (source, max_states, time_limit_s, modules),
                                 budget)
    if status == "ok":
        return value
    if status == "unavailable":
        raise GoCheckUnavailable(value)
    if status == "error":
        raise GoCheckUnavailable(f"the checker failed on this program: {value}")
    why = (f"it was stopped after {budget:.0f} s (the playground's limit)"
           if status == "killed" else "the checking process died")  # fmt: skip
    return GoOutcome("undecided", None, stopped=why,
                     effect_reason="the check did not finish")  # fmt: skip


__all__ = ["GRACE_S", "GoCheckUnavailable", "GoOutcome", "bounded_gocheck"]

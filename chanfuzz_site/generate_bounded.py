"""Generating a program as the web does it: in a child process, under a hard time limit.

Generation itself has no time budget, and must not have one: a seed and settings give
the same program on every machine, however slow. But with the largest sizes the
playground allows and buffered channels on, proving each widened program terminating
(`generator.buffering`) took 7-13 s on one core, in the request's thread, and every
code tab built the program again. So the web generates in a process forked from the
`forkserver` (`chanfuzz_site.bounded_check.run_in_child`), killed after `budget_s`:
a program is either the one the seed gives or none, with the reason.

Django-free on purpose: the forkserver's children import this module without
Django's settings.
"""

from __future__ import annotations

from multiprocessing.connection import Connection

from chanfuzz_site.bounded_check import run_in_child
from generator.pipeline import Generated, generate_program
from generator.settings import GeneratorSettings


class GenerationTooSlow(RuntimeError):
    """The program was not generated within the budget."""


def _generate_in_child(conn: Connection, seed: int, settings: GeneratorSettings) -> None:
    try:
        conn.send(("ok", generate_program(seed, settings)))
    except BaseException as exc:  # noqa: BLE001 - the parent raises it again, by kind
        conn.send(("error", exc))
    finally:
        conn.close()


def bounded_generate(seed: int, settings: GeneratorSettings, *, budget_s: float) -> Generated:
    """generate_program(seed, settings) in a child process killed after `budget_s`.
    Raises what generation raised (ValueError on bad settings), or GenerationTooSlow."""
    status, value = run_in_child(_generate_in_child, (seed, settings), budget_s)
    if status == "ok":
        return value
    if status == "error":
        raise value
    why = f"took more than {budget_s:g} s" if status == "killed" else "failed (its process died)"
    raise GenerationTooSlow(f"generating this program {why}")


__all__ = ["GenerationTooSlow", "bounded_generate"]

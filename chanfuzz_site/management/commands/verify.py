"""`manage.py verify "EFFECT"` or `verify --file F`: decide whether effects are terminating.

Prints `terminating`, `deadlock` followed by the trace that reaches the stuck
configuration, or `undecided` when the state limit was hit before the answer.
Beyond the paper (buffered channels, `Close`, `Range`), an execution can also go
wrong otherwise: `rejected: <problem>` (a send on a closed channel, a message left
in a buffer, a loop) follows with the trace, and a double close, an error in the
effect itself, is `rejected` too, with a caret under the `Close` that closes twice.
Exit status, the worst over all effects checked:
  2  bad input: an effect that does not parse (a capacity missing or declared
     twice differently, a `Close` of an undeclared channel …), one that closes a
     channel twice, a missing or unreadable file
  1  some effect is not terminating (deadlock, or rejected for another problem)
  3  some effect is undecided (state or time limit), none deadlocks
  0  every effect is terminating
Exit 1 only ever means an execution the checker found: input it cannot take (nesting
deeper than the parser's limit, a file too large) is bad input, 2.
"""

from __future__ import annotations

import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from chanfuzz_site.beyond_paper import double_close_position, pointer
from generator.effects import EffectSyntaxError, parse
from generator.termination import Counterexample, check_effect

EXIT_OK = 0
EXIT_DEADLOCK = 1
EXIT_BAD_INPUT = 2
EXIT_UNDECIDED = 3
DEFAULT_TIME_LIMIT_S = 60.0
# A file of effects is read up to this size: `--file /dev/zero` must end.
MAX_FILE_BYTES = 4 * 1024 * 1024


@dataclass(frozen=True)
class Entry:
    """One effect to check: its text and, when it came from a file, its line number."""

    text: str
    line: int | None = None


def read_effect_file(path: Path) -> list[Entry]:
    """The effects in `path`, one per line; blank lines and `#` comments are skipped.

    ValueError when it holds more than MAX_FILE_BYTES.
    """
    with path.open("rb") as f:
        data = f.read(MAX_FILE_BYTES + 1)
    if len(data) > MAX_FILE_BYTES:
        raise ValueError(f"larger than {MAX_FILE_BYTES // (1024 * 1024)} MiB")
    entries = []
    for number, raw in enumerate(data.decode("utf-8").splitlines(), start=1):
        text = raw.strip()
        if text and not text.startswith("#"):
            entries.append(Entry(text, number))
    return entries


class Command(BaseCommand):
    help = (
        "Check effects (SPEC §10 syntax) for termination. Exit status: 0 all terminating, "
        "1 a deadlock, 2 bad input, 3 undecided (state or time limit)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("effect", nargs="?", help='an effect, e.g. "Spawn(Put(c1)) ; Get(c1)"')
        parser.add_argument(
            "--file", type=Path, help="a file of effects, one per line ('#' starts a comment)"
        )
        parser.add_argument(
            "--max-states",
            type=int,
            help="give up (undecided, exit 3) after exploring this many states per effect",
        )
        parser.add_argument(
            "--time-limit",
            type=float,
            default=DEFAULT_TIME_LIMIT_S,
            help=f"seconds per effect before it is undecided (default {DEFAULT_TIME_LIMIT_S:g})",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["max_states"] is not None and options["max_states"] < 1:
            raise CommandError("--max-states must be at least 1", returncode=EXIT_BAD_INPUT)
        if not options["time_limit"] > 0:
            raise CommandError("--time-limit must be positive", returncode=EXIT_BAD_INPUT)
        entries = self.entries(options["effect"], options["file"])
        limit: dict[str, Any] = {"time_limit_s": options["time_limit"]}
        if options["max_states"] is not None:
            limit["max_states"] = options["max_states"]

        bad = deadlocks = undecided = closes_twice = 0
        for entry in entries:
            prefix = "" if entry.line is None else f"line {entry.line}: "
            try:
                effect = parse(entry.text)
            except EffectSyntaxError as err:
                if entry.line is None:
                    message = f"{err}\n{err.pointer()}"
                    raise CommandError(message, returncode=EXIT_BAD_INPUT) from err
                # In a file, report the line and go on: the other lines still get checked.
                bad += 1
                self.stderr.write(f"{prefix}{err}\n{textwrap.indent(err.pointer(), '  ')}")
                continue

            try:
                verdict = check_effect(effect, **limit)
            except RecursionError:
                # Not a deadlock: never exit 1 for it.
                bad += 1
                self.stderr.write(f"{prefix}too deeply nested for the checker")
                continue
            detail = f" ({_states(verdict.states)})" if options["verbosity"] >= 2 else ""
            if verdict.terminating is None:
                undecided += 1
                reached = _states(verdict.states)
                self.stdout.write(f"{prefix}undecided: {verdict.undecided_by} hit at {reached}")
            elif verdict.terminating:
                self.stdout.write(f"{prefix}terminating{detail}")
            else:
                cx = verdict.counterexample
                if self.report_wrong(prefix, entry.text, cx, detail):
                    closes_twice += 1
                else:
                    deadlocks += 1

        if bad or closes_twice:
            where = f"line(s) of {options['file']}" if options["file"] else "effect"
            parts = [f"{bad} {where} could not be checked"] if bad else []
            if closes_twice:
                parts.append(
                    f"{closes_twice} {where} close{'s' if where == 'effect' else ''} "
                    "a channel twice"
                )
            raise CommandError("; ".join(parts), returncode=EXIT_BAD_INPUT)
        if deadlocks:
            sys.exit(EXIT_DEADLOCK)
        if undecided:
            sys.exit(EXIT_UNDECIDED)

    def report_wrong(self, prefix: str, text: str, cx: Counterexample | None, detail: str) -> bool:
        """Print how an effect goes wrong, with its trace; True when it closes a channel twice
        (an error in the effect, as a bad capacity is: bad input, with a caret under it)."""
        at = None if cx is None else double_close_position(text, cx)
        if cx is not None and at is not None:
            self.stdout.write(f"{prefix}rejected at position {at + 1}: {cx.problem}{detail}")
            self.stdout.write(textwrap.indent(pointer(text, at), "  "))
        elif cx is not None and cx.problem:
            self.stdout.write(f"{prefix}rejected: {cx.problem}{detail}")
        else:
            self.stdout.write(f"{prefix}deadlock{detail}")
        if cx is not None:
            self.stdout.write(textwrap.indent(cx.describe().rstrip("\n"), "  "))
        return at is not None

    def entries(self, effect: str | None, file: Path | None) -> list[Entry]:
        if (effect is None) == (file is None):
            raise CommandError("give either one EFFECT or --file F", returncode=EXIT_BAD_INPUT)
        if file is None:
            return [Entry(effect or "")]
        try:
            entries = read_effect_file(file)
        except ValueError as err:  # too large, or not UTF-8
            raise CommandError(f"cannot read {file}: {err}", returncode=EXIT_BAD_INPUT) from err
        except OSError as err:
            reason = getattr(err, "strerror", None) or str(err)
            raise CommandError(f"cannot read {file}: {reason}", returncode=EXIT_BAD_INPUT) from err
        if not entries:
            raise CommandError(f"{file} holds no effects", returncode=EXIT_BAD_INPUT)
        return entries


def _states(n: int) -> str:
    return f"{n} state" if n == 1 else f"{n} states"

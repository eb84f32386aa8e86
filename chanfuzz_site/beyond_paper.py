"""What the commands and pages say about the extension beyond the paper (issue #15).

Two things, each needed by a command and by the playground alike: the plain note
that a target cannot have what `--buffered` asks for (its capabilities lack
buffered channels or close), and where in an effect's text a double close is, so
that the checker's rejection points at the offending `Close(c)` as a syntax error
points at its token.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from generator.capabilities import Capabilities
from generator.effects import close_positions
from generator.termination import Counterexample

# The checker's wording of a double close (generator/termination_buffered.py).
_DOUBLE_CLOSE = re.compile(r"closes (\S+), which is already closed\Z")


def missing_note(capabilities: Capabilities, targets: Sequence[str]) -> str:
    """A sentence saying what of the extension `targets` lack (a campaign's programs use
    only what every target has), so what `--buffered` leaves out; "" when nothing."""
    if capabilities.buffered and capabilities.close:
        return ""
    if len(targets) == 1:
        who, has = targets[0], "has"
    else:
        who, has = f"{', '.join(targets)} together", "have"
    if not capabilities.buffered and not capabilities.close:
        return (
            f"note: {who} {has} no buffered channels and no close, so --buffered changes "
            "nothing: programs stay unbuffered, as in the paper"
        )
    if capabilities.buffered:
        return (
            f"note: {who} {has} buffered channels but no close, so --buffered adds "
            "capacities only (no close and no range)"
        )
    return (
        f"note: {who} {has} close but no buffered channels, so --buffered adds close and "
        "range only (every channel stays unbuffered)"
    )


def double_close_chan(cx: Counterexample) -> str | None:
    """The channel a counterexample closes twice, or None when it goes wrong otherwise."""
    match = _DOUBLE_CLOSE.search(cx.problem)
    return match.group(1) if match else None


def double_close_position(text: str, cx: Counterexample) -> int | None:
    """The 0-based offset in effect `text` of the `Close(c)` that closes c a second time.

    The second `Close(c)` of the text when it has two or more (the trace closes c
    twice, so one of them runs after another); the only one when a single `Close`
    runs twice (inside a `Range`). None when the counterexample is no double close
    or the text has no `Close` of its channel.
    """
    chan = double_close_chan(cx)
    if chan is None:
        return None
    positions = close_positions(text, chan)
    if not positions:
        return None
    return positions[1] if len(positions) > 1 else positions[0]


def pointer(text: str, position: int) -> str:
    """The line of `text` holding `position`, with a caret under it (as syntax errors show)."""
    start = text.rfind("\n", 0, position) + 1
    end = text.find("\n", position)
    line = text[start : end if end >= 0 else len(text)]
    return f"{line}\n{' ' * (position - start)}^"


def line_column(text: str, position: int) -> tuple[int, int]:
    """1-based line and column of a 0-based offset."""
    line = text.count("\n", 0, position) + 1
    return line, position - (text.rfind("\n", 0, position) + 1) + 1

"""What the termination checkers answer: verdicts, counterexamples and their events.

Shared by the paper's explorer (`termination`) and the one for effects beyond
the paper (`termination_buffered`); `termination` re-exports all of it.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class SpawnEvent:
    parent: str
    child: str

    def describe(self) -> str:
        return f"{self.parent} spawns {self.child}"


@dataclass(frozen=True)
class ChoiceEvent:
    process: str
    option: int
    options: int

    def describe(self) -> str:
        return f"{self.process} takes option {self.option + 1} of {self.options} of a choice (+)"


@dataclass(frozen=True)
class SyncEvent:
    chan: str
    getter: str
    putter: str
    getter_case: int | None
    putter_case: int | None

    def describe(self) -> str:
        def via(case: int | None) -> str:
            return "" if case is None else f" (select case {case + 1})"

        return (
            f"{self.putter}{via(self.putter_case)} sends on {self.chan} "
            f"to {self.getter}{via(self.getter_case)}"
        )


@dataclass(frozen=True)
class ChannelEvent:
    """A step on one channel by one process, beyond the paper's rendezvous: a put into
    or a get from a buffer, a receive from a closed channel, a close."""

    process: str
    chan: str
    action: str  # "buffer-put" | "buffer-get" | "closed-get" | "close"
    case: int | None = None

    def describe(self) -> str:
        via = "" if self.case is None else f" (select case {self.case + 1})"
        text = {
            "buffer-put": f"puts a message into {self.chan}'s buffer",
            "buffer-get": f"takes a message from {self.chan}'s buffer",
            "closed-get": f"receives from {self.chan}, closed and empty",
            "close": f"closes {self.chan}",
        }[self.action]
        return f"{self.process}{via} {text}"


@dataclass(frozen=True)
class DefaultEvent:
    """A select that runs its default: none of its cases could go at that moment."""

    process: str

    def describe(self) -> str:
        return f"{self.process} takes its select's default (no case could go at once)"


Event = SpawnEvent | ChoiceEvent | SyncEvent | ChannelEvent | DefaultEvent


@dataclass(frozen=True)
class Blocked:
    process: str
    waits_for: str
    channels: tuple[str, ...]


@dataclass(frozen=True)
class Counterexample:
    """How an execution goes wrong: the events, then who is left blocked forever.

    ``problem`` is set when it goes wrong otherwise (effects beyond the paper only):
    a send on a closed channel, a second close, a message never received, or a loop
    that runs forever (then ``blocked`` is empty).
    """

    events: tuple[Event, ...]
    blocked: tuple[Blocked, ...]
    problem: str = ""

    def describe(self, max_steps: int | None = None) -> str:
        """The trace and who is left blocked; past `max_steps` steps, "… n more steps"."""
        lines = ["trace:"]
        if not self.events:
            lines.append("  (no step)")
        shown = self.events if max_steps is None else self.events[:max_steps]
        lines += [f"  {i}. {e.describe()}" for i, e in enumerate(shown, 1)]
        if len(shown) < len(self.events):
            lines.append(f"  … {len(self.events) - len(shown)} more steps")
        if self.problem:
            lines.append(f"then: {self.problem}")
        if not self.blocked and self.problem:
            return "\n".join(lines)
        lines.append("blocked forever:")
        lines += [f"  {b.process} waits for {b.waits_for}" for b in self.blocked]
        return "\n".join(lines)

    def processes(self) -> list[str]:
        """Every process named in the trace, in order of appearance, main first."""
        seen: dict[str, None] = {"main": None}
        for e in self.events:
            names = (
                (e.parent, e.child)
                if isinstance(e, SpawnEvent)
                else (e.process,)
                if isinstance(e, ChoiceEvent | ChannelEvent | DefaultEvent)
                else (e.putter, e.getter)
            )
            for n in names:
                seen.setdefault(n, None)
        for b in self.blocked:
            seen.setdefault(b.process, None)
        return list(seen)


@dataclass(frozen=True)
class Verdict:
    """terminating is None when the state limit was reached before a decision."""

    terminating: bool | None
    states: int
    counterexample: Counterexample | None = None
    # Why it is undecided: "state limit" or "time limit" ("" when decided).
    undecided_by: str = ""

    @property
    def label(self) -> str:
        return {True: "terminating", False: "deadlock", None: "undecided"}[self.terminating]


class _Undecided(Exception):
    def __init__(self, by: str) -> None:
        super().__init__(by)
        self.by = by


# The clock is read every this many states: reading it costs more than a state does.
_CLOCK_EVERY = 256

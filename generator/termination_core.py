"""What both termination explorers share: effects compiled to integer nodes, a
process's local steps, the split of processes into components that share no
channel, and the budget of states and time.

`termination` explores the paper's fragment and `termination_buffered` the effects
beyond it (buffers, close, range, a select's default); each adds its own search on
top of :class:`Explorer`. Compiling with `Compiled` is the same for both: an effect of
the paper's fragment simply has no node of the kinds only the other one reads.
"""

from __future__ import annotations

import time
from collections.abc import Mapping

from generator.effects import (
    ChanE,
    Choice,
    Close,
    Effect,
    Eps,
    Get,
    Put,
    Range,
    Select,
    Seq,
    Spawn,
)
from generator.termination_results import _CLOCK_EVERY, Event, SpawnEvent, _Undecided

NOP, GET, PUT, SPAWN, SEQ, CHOICE, SELECT, CLOSE, RANGE = range(9)

# A process: (name, continuation as node ids, number of processes it has spawned).
Proc = tuple[str, tuple[int, ...], int]


class Compiled:
    """Effect nodes as integers: kind, channel, children, channel mask, display text.

    Hash-consed (equal sub-effects share an id). `items` holds a SEQ's items, a
    CHOICE's options, a SPAWN's or a RANGE's body, a SELECT's default (if any);
    `cases` a SELECT's cases as (is_get, channel, body); `capacity` each channel's
    buffer, 0 unless `capacity` declares one."""

    def __init__(self, capacity: Mapping[str, int] | None = None) -> None:
        self.kind: list[int] = []
        self.chan: list[int] = []  # GET, PUT, CLOSE, RANGE: the channel's index
        self.items: list[tuple[int, ...]] = []
        self.cases: list[tuple[tuple[bool, int, int], ...]] = []
        self.mask: list[int] = []
        self.effect: list[Effect] = []
        self.chan_names: list[str] = []
        self.capacity: list[int] = []
        self._declared = capacity or {}
        self._chan_index: dict[str, int] = {}
        self._ids: dict[Effect, int] = {}

    def chan_id(self, name: str) -> int:
        if name not in self._chan_index:
            self._chan_index[name] = len(self.chan_names)
            self.chan_names.append(name)
            self.capacity.append(self._declared.get(name, 0))
        return self._chan_index[name]

    def add(self, e: Effect) -> int:
        found = self._ids.get(e)
        if found is not None:
            return found
        chan, items, cases, mask = -1, (), (), 0
        if isinstance(e, Eps | ChanE):
            kind = NOP
        elif isinstance(e, Get | Put | Close):
            kind = GET if isinstance(e, Get) else PUT if isinstance(e, Put) else CLOSE
            chan = self.chan_id(e.chan)
            mask = 1 << chan
        elif isinstance(e, Range):
            kind = RANGE
            chan = self.chan_id(e.chan)
            items = (self.add(e.body),)
            mask = (1 << chan) | self.mask[items[0]]
        elif isinstance(e, Spawn | Seq | Choice):
            parts = (
                (e.body,) if isinstance(e, Spawn) else e.items if isinstance(e, Seq) else e.options
            )
            kind = SPAWN if isinstance(e, Spawn) else SEQ if isinstance(e, Seq) else CHOICE
            items = tuple(self.add(p) for p in parts)
            for i in items:
                mask |= self.mask[i]
        elif isinstance(e, Select):
            kind = SELECT
            built = []
            for case in e.cases:
                c, body = self.chan_id(case.chan), self.add(case.body)
                built.append((case.direction == "get", c, body))
                mask |= (1 << c) | self.mask[body]
            cases = tuple(built)
            if e.default is not None:
                items = (self.add(e.default),)
                mask |= self.mask[items[0]]
        else:
            raise TypeError(f"not an effect: {e!r}")
        node = len(self.kind)
        self.kind.append(kind)
        self.chan.append(chan)
        self.items.append(items)
        self.cases.append(cases)
        self.mask.append(mask)
        self.effect.append(e)
        self._ids[e] = node
        return node


class Explorer:
    """The state-independent half of an explorer: channel masks of continuations,
    local steps, components, and the budget (`count_state` raises `_Undecided`).
    `ok` holds the keys of the states the subclass's search has found fine."""

    def __init__(self, compiled: Compiled, max_states: int, deadline: float | None) -> None:
        self.c = compiled
        self.max_states = max_states
        self.deadline = deadline
        self.states = 0
        self.ok: set[tuple] = set()
        self._masks: dict[tuple[int, ...], int] = {}

    def mask(self, cont: tuple[int, ...]) -> int:
        """The channels a continuation may still touch, as a bit mask."""
        m = self._masks.get(cont)
        if m is None:
            m = 0
            for node in cont:
                m |= self.c.mask[node]
            self._masks[cont] = m
        return m

    def advance(self, proc: Proc, out: list[Proc], events: list[Event]) -> None:
        """Run a process's local steps until it blocks, chooses or ends; spawns go to `out`."""
        name, cont, spawned = proc
        kind, items = self.c.kind, self.c.items
        while cont:
            head = cont[0]
            k = kind[head]
            if k == NOP:
                cont = cont[1:]
            elif k == SEQ:
                cont = items[head] + cont[1:]
            elif k == SPAWN:
                spawned += 1
                child = f"p{spawned}" if name == "main" else f"{name}.{spawned}"
                events.append(SpawnEvent(name, child))
                self.advance((child, items[head], 0), out, events)
                cont = cont[1:]
            else:
                break
        if cont:
            out.append((name, cont, spawned))

    def components(self, procs: list[Proc]) -> list[list[Proc]]:
        """The processes grouped so that no two groups may ever touch one channel."""
        groups: list[tuple[int, list[Proc]]] = []
        for p in procs:
            m = self.mask(p[1])
            members = [p]
            rest = []
            for gm, gp in groups:
                if gm & m:
                    m |= gm
                    members += gp
                else:
                    rest.append((gm, gp))
            rest.append((m, members))
            groups = rest
        return [g for _, g in groups]

    def count_state(self) -> None:
        """Count one more state; undecided once the states or the time are spent."""
        self.states += 1
        if self.states > self.max_states:
            raise _Undecided("state limit")
        if (
            self.deadline is not None
            and self.states % _CLOCK_EVERY == 0
            and time.monotonic() > self.deadline
        ):
            raise _Undecided("time limit")

"""The termination checker for effects beyond the paper: buffered channels, close, range.

`termination.check_effect` hands an effect here when `effects.uses_extension`
says it has a buffered channel, a `Close` or a `Range`; the paper's fragment
keeps its own, faster explorer. The semantics are Go's:

* a put on a channel of capacity k > 0 completes alone while fewer than k
  messages wait in its buffer; a get completes alone while one waits; with
  k = 0 a get and a put in two processes meet, as in the paper;
* a get on a closed channel takes what is left in the buffer, then completes at
  once (with no message); `Range(c, φ)` does a get, runs φ and starts again
  after a message, and ends when c is closed and drained;
* a select offers all its cases: a get case is ready on a closed channel;
* a select with a default runs it when none of its cases can complete alone (a
  buffer with room or a message, a closed channel). A partner waiting on an
  unbuffered channel does not stop the default: in a real runtime the partner
  may not have reached the channel yet, so both ways are explored.

An execution goes wrong, and the effect is rejected, when it ends with a
process blocked forever (a deadlock, as in the paper), when a process sends on
(or a select offers a send on) a closed channel or closes one twice (Go
panics), when a message stays in a buffer that nobody can receive from any more
(the value oracle would call it lost), or when it can run forever (a `Range`
fed by its own body: a state repeats).

Reductions kept from the paper's explorer: local steps (spawn, ε, sequencing)
are taken eagerly, one process's choice is explored on its own, states are
sorted tuples (symmetry), and processes whose channels are disjoint are checked
as separate components. There is no persistent-set reduction of
synchronisations here: with buffers and cycles it would need a cycle proviso,
and generated programs of the default size stay small enough without it.
"""

from __future__ import annotations

import sys

from generator.effects import (
    Effect,
    capacities,
    head_text,
)
from generator.termination_core import (
    CHOICE,
    GET,
    PUT,
    RANGE,
    SELECT,
    Compiled,
    Explorer,
    Proc,
)
from generator.termination_results import (
    Blocked,
    ChannelEvent,
    ChoiceEvent,
    Counterexample,
    DefaultEvent,
    Event,
    SyncEvent,
    Verdict,
    _Undecided,
)

# A channel's state: (messages in its buffer, closed). Absent from a state's map: (0, False).
_ChanState = tuple[int, bool]
# An offer of a blocked process: (direction, channel, select case, continuation on a
# message, continuation when the channel is closed and empty (gets only)).
_Offer = tuple[str, int, int | None, tuple[int, ...], tuple[int, ...]]


class _Wrong(Exception):
    """An execution that goes wrong: events so far (filled in on the way up)."""

    def __init__(self, blocked: tuple[Blocked, ...], problem: str = "") -> None:
        self.events: list[Event] = []
        self.blocked = blocked
        self.problem = problem


class _Explorer(Explorer):
    def __init__(self, compiled: Compiled, max_states: int, deadline: float | None) -> None:
        super().__init__(compiled, max_states, deadline)
        self.on_path: set[tuple] = set()

    # ------------------------------------------------------------ search

    def solve(self, procs: list[Proc], chans: dict[int, _ChanState]) -> None:
        """Raise _Wrong if some execution from here goes wrong."""
        live = 0
        for p in procs:
            live |= self.mask(p[1])
        for ch, (count, _) in chans.items():
            if count and not live >> ch & 1:
                name = self.c.chan_names[ch]
                raise _Wrong((), f"{count} message(s) left in {name}'s buffer, never received")
        for component in self.components(procs):
            mask = 0
            for p in component:
                mask |= self.mask(p[1])
            mine = {ch: st for ch, st in chans.items() if mask >> ch & 1}
            self.solve_component(component, mine)

    def solve_component(self, procs: list[Proc], chans: dict[int, _ChanState]) -> None:
        key = (tuple(sorted(p[1] for p in procs)), tuple(sorted(chans.items())))
        if key in self.ok:
            return
        if key in self.on_path:
            raise _Wrong((), "it can run forever: the same state comes back (a loop)")
        self.count_state()
        self.on_path.add(key)
        try:
            self.explore(procs, chans)
        finally:
            self.on_path.discard(key)
        self.ok.add(key)

    def explore(self, procs: list[Proc], chans: dict[int, _ChanState]) -> None:
        kind = self.c.kind
        for index, (name, cont, spawned) in enumerate(procs):
            if kind[cont[0]] == CHOICE:
                options = self.c.items[cont[0]]
                others = procs[:index] + procs[index + 1 :]
                for i, option in enumerate(options):
                    events: list[Event] = [ChoiceEvent(name, i, len(options))]
                    nxt = list(others)
                    self.advance((name, (option,) + cont[1:], spawned), nxt, events)
                    self.step(nxt, chans, events)
                return
        offers = [self.offers(p[1]) for p in procs]
        self.check_safety(procs, offers, chans)
        moved = False
        for i, proc in enumerate(procs):
            for direction, ch, case, on_message, on_closed in offers[i]:
                count, closed = chans.get(ch, (0, False))
                capacity = self.c.capacity[ch]
                name = self.c.chan_names[ch]
                if direction == "close":
                    after = dict(chans)
                    after[ch] = (count, True)
                    self.single(procs, i, on_message, after, ChannelEvent(proc[0], name, "close"))
                elif direction == "put" and count < capacity:
                    after = dict(chans)
                    after[ch] = (count + 1, closed)
                    event = ChannelEvent(proc[0], name, "buffer-put", case)
                    self.single(procs, i, on_message, after, event)
                elif direction == "get" and count:
                    after = dict(chans)
                    after[ch] = (count - 1, closed)
                    event = ChannelEvent(proc[0], name, "buffer-get", case)
                    self.single(procs, i, on_message, after, event)
                elif direction == "get" and closed:
                    event = ChannelEvent(proc[0], name, "closed-get", case)
                    self.single(procs, i, on_closed, chans, event)
                elif direction == "get" and capacity == 0:
                    getter = (i, case, on_message)
                    for j in range(len(procs)):
                        if j == i:
                            continue
                        for p_dir, p_ch, p_case, p_next, _ in offers[j]:
                            if p_dir == "put" and p_ch == ch:
                                self.rendezvous(procs, chans, getter, (j, p_case, p_next))
                                moved = True
                    continue
                else:
                    continue
                moved = True
        for i, proc in enumerate(procs):
            head = proc[1][0]
            if (
                kind[head] == SELECT
                and self.c.items[head]
                and not self.ready_alone(offers[i], chans)
            ):
                self.single(
                    procs, i, self.c.items[head] + proc[1][1:], chans, DefaultEvent(proc[0])
                )
                moved = True
        if not moved:
            raise _Wrong(tuple(self.blocked(p) for p in procs))

    def ready_alone(self, offered: list[_Offer], chans: dict[int, _ChanState]) -> bool:
        """Whether one of a select's cases can complete without a partner."""
        for direction, ch, _, _, _ in offered:
            count, closed = chans.get(ch, (0, False))
            if direction == "put" and count < self.c.capacity[ch]:
                return True
            if direction == "get" and (count or closed):
                return True
        return False

    def check_safety(
        self, procs: list[Proc], offers: list[list[_Offer]], chans: dict[int, _ChanState]
    ) -> None:
        for proc, offered in zip(procs, offers, strict=True):
            for direction, ch, case, _, _ in offered:
                if not chans.get(ch, (0, False))[1]:
                    continue
                name = self.c.chan_names[ch]
                via = "" if case is None else f" (select case {case + 1})"
                if direction == "put":
                    raise _Wrong((), f"{proc[0]}{via} sends on {name}, which is closed")
                if direction == "close":
                    raise _Wrong((), f"{proc[0]} closes {name}, which is already closed")

    def single(
        self,
        procs: list[Proc],
        i: int,
        cont: tuple[int, ...],
        chans: dict[int, _ChanState],
        event: Event,
    ) -> None:
        events: list[Event] = [event]
        nxt = [q for j, q in enumerate(procs) if j != i]
        name, _, spawned = procs[i]
        self.advance((name, cont, spawned), nxt, events)
        self.step(nxt, chans, events)

    def rendezvous(
        self, procs: list[Proc], chans: dict[int, _ChanState], getter: tuple, putter: tuple
    ) -> None:
        gi, gcase, gnext = getter
        pi, pcase, pnext = putter
        g, p = procs[gi], procs[pi]
        ch = self._rendezvous_chan(g[1], gcase)
        events: list[Event] = [SyncEvent(self.c.chan_names[ch], g[0], p[0], gcase, pcase)]
        nxt = [q for j, q in enumerate(procs) if j != gi and j != pi]
        self.advance((g[0], gnext, g[2]), nxt, events)
        self.advance((p[0], pnext, p[2]), nxt, events)
        self.step(nxt, chans, events)

    def _rendezvous_chan(self, cont: tuple[int, ...], case: int | None) -> int:
        head = cont[0]
        if case is None:
            return self.c.chan[head]
        return self.c.cases[head][case][1]

    def step(self, procs: list[Proc], chans: dict[int, _ChanState], events: list[Event]) -> None:
        try:
            self.solve(procs, chans)
        except _Wrong as wrong:
            wrong.events[:0] = events
            raise

    def offers(self, cont: tuple[int, ...]) -> list[_Offer]:
        head, rest = cont[0], cont[1:]
        k = self.c.kind[head]
        ch = self.c.chan[head]
        if k == SELECT:
            return [
                ("get" if g else "put", c, i, (body,) + rest, (body,) + rest)
                for i, (g, c, body) in enumerate(self.c.cases[head])
            ]
        if k == RANGE:
            return [("get", ch, None, (self.c.items[head][0], head) + rest, rest)]
        direction = "get" if k == GET else "put" if k == PUT else "close"
        return [(direction, ch, None, rest, rest)]

    def blocked(self, proc: Proc) -> Blocked:
        head = proc[1][0]
        chans = sorted({self.c.chan_names[o[1]] for o in self.offers(proc[1])})
        return Blocked(proc[0], head_text(self.c.effect[head]), tuple(chans))


def check_extended(effect: Effect, *, max_states: int, deadline: float | None) -> Verdict:
    """Explore every execution of `effect` (which may go beyond the paper) as main."""
    compiled = Compiled(capacities(effect))
    root = compiled.add(effect)
    explorer = _Explorer(compiled, max_states, deadline)
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 50_000))
    events: list[Event] = []
    try:
        procs: list[Proc] = []
        explorer.advance(("main", (root,), 0), procs, events)
        explorer.solve(procs, {})
    except _Wrong as wrong:
        trace = Counterexample(tuple(events + wrong.events), wrong.blocked, wrong.problem)
        return Verdict(False, explorer.states, trace)
    except _Undecided as why:
        return Verdict(None, explorer.states, undecided_by=why.by)
    finally:
        sys.setrecursionlimit(limit)
    return Verdict(True, explorer.states)

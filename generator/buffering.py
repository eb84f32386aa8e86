"""Beyond the paper: buffered channels, close and range added to a generated effect.

With the `buffered` setting (issue #15) a terminating effect from the paper's
rules is widened, each step drawn from the generator's one seeded rng:

1. capacities: each channel becomes buffered (capacity 1 to MAX_CAPACITY) with
   probability 1/2, declared by a `Chan(c, k)` at the top of main; where the target
   has unbounded channels (`Capabilities.unbounded`), a third of those become
   `Chan(c, unbounded)` instead;
2. close: a channel whose sends are all plain `Put(c)` of one process (no send
   case of a select) is closed at the end of that process, with probability 1/2;
3. range: a closed channel whose receives are all plain `Get(c)` directly in the
   sequence of one other process becomes `Range(c, ε)` at the first of them,
   the others dropped, with probability 1/2.

None of these keeps termination by itself: a buffer lets a select take a send
case nobody was meant to answer, a close makes a receive case always ready, a
range moves receives past the steps between them. So the result is proved with
the exhaustive checker (`termination`, which also rejects a send on a closed
channel, a double close, a message left in a buffer and a loop), and when the
proof fails the steps are undone, ranges first, then closes, then (after another
try with each unbounded channel given the capacity drawn for it) capacities: the
paper's effect is terminating by construction. The checker runs with a state bound
only, never a clock, so a seed gives the same program anywhere.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Callable

from generator.capabilities import Capabilities
from generator.effects import (
    UNBOUNDED,
    ChanE,
    Choice,
    Close,
    Effect,
    Get,
    Put,
    Range,
    SelCase,
    Select,
    Seq,
    Spawn,
    channels,
    choice,
    seq,
    walk,
)
from generator.termination import check_effect

MAX_CAPACITY = 3
# Of the buffered channels, the share made unbounded where the target has them.
UNBOUNDED_SHARE = 1 / 3
# States the checker may use to prove a widened effect; past it the widening is undone.
PROOF_STATES = 20_000


def _rebuild(effect: Effect, process_body: Callable[[int, Effect], Effect]) -> Effect:
    """`effect` with each process's body (main is 0, then spawns in pre-order) passed
    through `process_body(pid, body)` after its own spawns were rebuilt."""
    counter = iter(range(1_000_000))

    def process(body: Effect) -> Effect:
        pid = next(counter)
        return process_body(pid, inside(body))

    def inside(e: Effect) -> Effect:
        if isinstance(e, Spawn):
            return Spawn(process(e.body))
        if isinstance(e, Seq):
            return seq(*(inside(i) for i in e.items))
        if isinstance(e, Choice):
            return choice(*(inside(o) for o in e.options))
        if isinstance(e, Select):
            cases = tuple(SelCase(c.direction, c.chan, inside(c.body)) for c in e.cases)
            return Select(cases, None if e.default is None else inside(e.default))
        if isinstance(e, Range):
            return Range(e.chan, inside(e.body))
        return e

    return process(effect)


class _Uses:
    """Who does what on each channel: plain puts and gets per process, select cases,
    and which processes have a channel's gets directly in their top sequence."""

    def __init__(self, effect: Effect) -> None:
        self.puts: dict[str, set[int]] = defaultdict(set)
        self.gets: dict[str, set[int]] = defaultdict(set)
        self.top_gets: dict[str, dict[int, int]] = defaultdict(dict)
        self.in_select: set[tuple[str, str]] = set()
        self.gets_total: dict[str, int] = defaultdict(int)
        counter = iter(range(1_000_000))

        def process(body: Effect) -> None:
            pid = next(counter)
            items = body.items if isinstance(body, Seq) else (body,)
            for item in items:
                if isinstance(item, Get):
                    self.top_gets[item.chan][pid] = self.top_gets[item.chan].get(pid, 0) + 1
            visit(body, pid)

        def visit(e: Effect, pid: int) -> None:
            if isinstance(e, Spawn):
                process(e.body)
            elif isinstance(e, Put):
                self.puts[e.chan].add(pid)
            elif isinstance(e, Get):
                self.gets[e.chan].add(pid)
                self.gets_total[e.chan] += 1
            elif isinstance(e, Select):
                for c in e.cases:
                    self.in_select.add((c.direction, c.chan))
                    visit(c.body, pid)
                if e.default is not None:
                    visit(e.default, pid)
            elif isinstance(e, Seq):
                for i in e.items:
                    visit(i, pid)
            elif isinstance(e, Choice):
                for o in e.options:
                    visit(o, pid)
            elif isinstance(e, Range):
                visit(e.body, pid)

        process(effect)

    def sole_sender(self, chan: str) -> int | None:
        senders = self.puts.get(chan, set())
        if len(senders) != 1 or ("put", chan) in self.in_select:
            return None
        return next(iter(senders))

    def sole_top_receiver(self, chan: str) -> int | None:
        receivers = self.gets.get(chan, set())
        if len(receivers) != 1 or ("get", chan) in self.in_select:
            return None
        pid = next(iter(receivers))
        # Every get of the channel must stand directly in that process's sequence.
        if self.top_gets[chan].get(pid, 0) != self.gets_total[chan]:
            return None
        return pid


def _with_closes(effect: Effect, closes: dict[int, list[str]]) -> Effect:
    def body(pid: int, b: Effect) -> Effect:
        return seq(b, *(Close(c) for c in closes.get(pid, ())))

    return _rebuild(effect, body)


def _with_ranges(effect: Effect, ranges: dict[int, list[str]]) -> Effect:
    def body(pid: int, b: Effect) -> Effect:
        chans = ranges.get(pid)
        if not chans:
            return b
        items = b.items if isinstance(b, Seq) else (b,)
        out: list[Effect] = []
        started: set[str] = set()
        for item in items:
            if isinstance(item, Get) and item.chan in chans:
                if item.chan not in started:
                    started.add(item.chan)
                    out.append(Range(item.chan, seq()))
                continue
            out.append(item)
        return seq(*out)

    return _rebuild(effect, body)


def _declared(effect: Effect, capacity: dict[str, int]) -> Effect:
    """`effect` after a `Chan` for each buffered channel and each closed one (the syntax
    wants a closed channel declared, with capacity 0 when unbuffered), in channel order."""
    closed = {n.chan for n in walk(effect) if isinstance(n, Close)}
    declared = [c for c in channels(effect) if c in capacity or c in closed]
    return seq(*(ChanE(c, capacity.get(c, 0)) for c in declared), effect)


def _proved(effect: Effect) -> bool:
    return check_effect(effect, max_states=PROOF_STATES).terminating is True


def widen(effect: Effect, rng: random.Random, capabilities: Capabilities) -> Effect:
    """`effect` with buffered channels, closes and ranges, proved terminating (see above)."""
    chans = channels(effect)
    capacity: dict[str, int] = {}
    drawn: dict[str, int] = {}  # the capacity each unbounded channel would have had
    if capabilities.buffered:
        for c in chans:
            if rng.random() < 0.5:
                capacity[c] = rng.randint(1, MAX_CAPACITY)
                # Only where the target has unbounded channels, so that the others' programs
                # stay byte for byte what they were.
                if capabilities.unbounded and rng.random() < UNBOUNDED_SHARE:
                    drawn[c], capacity[c] = capacity[c], UNBOUNDED
    closes: dict[int, list[str]] = defaultdict(list)
    ranges: dict[int, list[str]] = defaultdict(list)
    if capabilities.close:
        uses = _Uses(effect)
        for c in chans:
            sender = uses.sole_sender(c)
            if sender is None or rng.random() >= 0.5:
                continue
            closes[sender].append(c)
            receiver = uses.sole_top_receiver(c)
            if receiver is not None and receiver != sender and rng.random() < 0.5:
                ranges[receiver].append(c)
    closed = _with_closes(effect, closes) if closes else effect
    # Ranges first, since they are the boldest; then closes; then buffers alone.
    attempts = []
    if ranges:
        attempts.append(_with_ranges(closed, ranges))
    if closes:
        attempts.append(closed)
    attempts.append(effect)
    # An unbounded buffer lets a select's send case go whenever it is offered, so a proof
    # that fails with one is tried again with the capacity drawn before it.
    tries = [capacity, {**capacity, **drawn}] if drawn else [capacity]
    for capacities_tried in tries:
        for attempt in attempts:
            if not capacities_tried and attempt is effect:
                return effect
            candidate = _declared(attempt, capacities_tried)
            if _proved(candidate):
                return candidate
    return effect

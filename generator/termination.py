"""The termination checker: explores every execution of an effect or λ_chan program.

Semantics (SPEC §2, §10): processes run their effect; a `+` may go either way,
so both options are explored; a get and a put on the same channel in two
different processes synchronise, and a select offers all its cases at once.
The effect terminates when every reachable final configuration has every
process finished; otherwise the checker returns a counterexample: the events
(spawns, choices, synchronisations) leading to a configuration where some
processes wait forever, and what each of them waits for.

Why it is fast:
- Effects are compiled to integer node ids (`termination_core`, hash-consed, so
  equal sub-effects share an id); a process is the tuple of node ids it still
  has to run, and a state is the sorted tuple of those (processes are
  interchangeable, so their names stay out of the state: a symmetry reduction).
- Spawns, ε and sequencing are local steps that commute with everything, so
  they are taken eagerly; a choice is local too, so one process's choice is
  explored on its own before any synchronisation (a persistent set of size one).
- Processes whose remaining channels are disjoint can never interact: each such
  component is checked on its own and its verdict cached by its state, so
  independent parts of a program cost a sum, not a product.
- Within a component, only a persistent set of synchronisations is explored:
  start from one blocked process, add every process that may ever touch a
  channel offered by the set so far, until closed; the set with the fewest
  enabled synchronisations is taken. Nothing outside it can interfere with it,
  so every reachable deadlock is still found (Godefroid's persistent sets; the
  state space is acyclic because every step consumes an operation).
"""

from __future__ import annotations

import sys
import time

from generator import lambda_chan as lc
from generator.effects import (
    ChanE,
    Close,
    Effect,
    Eps,
    Get,
    Put,
    Range,
    SelCase,
    Select,
    Spawn,
    head_text,
    seq,
    uses_extension,
)
from generator.termination_buffered import check_extended
from generator.termination_core import CHOICE, GET, SELECT, Compiled, Explorer, Proc
from generator.termination_results import (
    Blocked,
    ChannelEvent,
    ChoiceEvent,
    Counterexample,
    DefaultEvent,
    Event,
    SpawnEvent,
    SyncEvent,
    Verdict,
    _Undecided,
)

DEFAULT_MAX_STATES = 200_000

# ---------------------------------------------------------------- exploration


class _Deadlock(Exception):
    def __init__(self, events: list[Event], blocked: tuple[Blocked, ...]) -> None:
        self.events = events
        self.blocked = blocked


class _Explorer(Explorer):
    def solve(self, procs: list[Proc]) -> None:
        """Raise _Deadlock if some execution from here leaves a process blocked."""
        components = self.components(procs)
        for index, component in enumerate(components):
            try:
                self.solve_component(component)
            except _Deadlock as d:
                if not d.events:
                    # Stuck right here: name every other component stuck here too,
                    # so the trace shows the whole final configuration.
                    for other in components[:index] + components[index + 1 :]:
                        if self.stuck_now(other):
                            d.blocked += tuple(self.blocked(p) for p in other)
                raise

    def stuck_now(self, procs: list[Proc]) -> bool:
        if any(self.c.kind[p[1][0]] == CHOICE for p in procs):
            return False
        return not self.enabled(list(range(len(procs))), [self.offers(p[1]) for p in procs])

    def solve_component(self, procs: list[Proc]) -> None:
        key = tuple(sorted(p[1] for p in procs))
        if key in self.ok:
            return
        self.count_state()
        kind = self.c.kind
        for index, (name, cont, spawned) in enumerate(procs):
            head = cont[0]
            if kind[head] == CHOICE:
                options = self.c.items[head]
                others = procs[:index] + procs[index + 1 :]
                for i, option in enumerate(options):
                    events: list[Event] = [ChoiceEvent(name, i, len(options))]
                    nxt = list(others)
                    self.advance((name, (option,) + cont[1:], spawned), nxt, events)
                    self._step(nxt, events)
                self.ok.add(key)
                return
        syncs = self.persistent_syncs(procs)
        if not syncs:
            raise _Deadlock([], tuple(self.blocked(p) for p in procs))
        for gi, gcase, gnext, pi, pcase, pnext, chan in syncs:
            g, p = procs[gi], procs[pi]
            events = [SyncEvent(self.c.chan_names[chan], g[0], p[0], gcase, pcase)]
            nxt = [q for i, q in enumerate(procs) if i != gi and i != pi]
            self.advance((g[0], gnext, g[2]), nxt, events)
            self.advance((p[0], pnext, p[2]), nxt, events)
            self._step(nxt, events)
        self.ok.add(key)

    def _step(self, procs: list[Proc], events: list[Event]) -> None:
        try:
            self.solve(procs)
        except _Deadlock as d:
            d.events[:0] = events
            raise

    def offers(self, cont: tuple[int, ...]) -> list[tuple[bool, int, int | None, tuple[int, ...]]]:
        """What a blocked process offers: (is_get, channel, select case or None, continuation)."""
        head, rest = cont[0], cont[1:]
        k = self.c.kind[head]
        if k == SELECT:
            return [
                (g, ch, i, (body,) + rest) for i, (g, ch, body) in enumerate(self.c.cases[head])
            ]
        return [(k == GET, self.c.chan[head], None, rest)]

    def persistent_syncs(self, procs: list[Proc]) -> list[tuple]:
        offers = [self.offers(p[1]) for p in procs]
        offered = [0] * len(procs)
        for i, off in enumerate(offers):
            for _, ch, _, _ in off:
                offered[i] |= 1 << ch
        masks = [self.mask(p[1]) for p in procs]
        best: list[tuple] | None = None
        for seed in range(len(procs)):
            members = {seed}
            chans = offered[seed]
            grew = True
            while grew:
                grew = False
                for r in range(len(procs)):
                    if r not in members and masks[r] & chans:
                        members.add(r)
                        chans |= offered[r]
                        grew = True
            syncs = self.enabled(sorted(members), offers)
            if syncs and (best is None or len(syncs) < len(best)):
                best = syncs
                if len(best) == 1:
                    break
        return best or []

    @staticmethod
    def enabled(members: list[int], offers: list) -> list[tuple]:
        result = []
        for gi in members:
            for is_get, ch, gcase, gnext in offers[gi]:
                if not is_get:
                    continue
                for pi in members:
                    if pi == gi:
                        continue
                    for p_is_get, pch, pcase, pnext in offers[pi]:
                        if not p_is_get and pch == ch:
                            result.append((gi, gcase, gnext, pi, pcase, pnext, ch))
        return result

    def blocked(self, proc: Proc) -> Blocked:
        head = proc[1][0]
        chans = sorted({self.c.chan_names[ch] for _, ch, _, _ in self.offers(proc[1])})
        return Blocked(proc[0], head_text(self.c.effect[head]), tuple(chans))


def check_effect(
    effect: Effect, *, max_states: int = DEFAULT_MAX_STATES, time_limit_s: float | None = None
) -> Verdict:
    """Explore every execution of `effect` run as the main process.

    Gives up, undecided, after `max_states` states or `time_limit_s` seconds of
    wall-clock time (the state count alone does not bound time: one state of a
    wide race costs much more than one of a narrow one).
    """
    if max_states < 1:
        raise ValueError(f"max_states must be at least 1, not {max_states}")
    if time_limit_s is not None and time_limit_s <= 0:
        raise ValueError(f"time_limit_s must be positive, not {time_limit_s}")
    deadline = None if time_limit_s is None else time.monotonic() + time_limit_s
    if uses_extension(effect):
        return check_extended(effect, max_states=max_states, deadline=deadline)
    compiled = Compiled()
    root = compiled.add(effect)
    explorer = _Explorer(compiled, max_states, deadline)
    limit = sys.getrecursionlimit()
    # Each synchronisation on the current path costs a few frames.
    sys.setrecursionlimit(max(limit, 20_000))
    try:
        events: list[Event] = []
        procs: list[Proc] = []
        explorer.advance(("main", (root,), 0), procs, events)
        explorer.solve(procs)
    except _Deadlock as d:
        trace = Counterexample(tuple(events + d.events), d.blocked)
        return Verdict(False, explorer.states, trace)
    except _Undecided as why:
        return Verdict(None, explorer.states, undecided_by=why.by)
    finally:
        sys.setrecursionlimit(limit)
    return Verdict(True, explorer.states)


def behaviour(program: lc.Program) -> Effect:
    """What a λ_chan program does when run: its effect with every `if` decided.

    Conditions are closed, so each `if` always takes the same branch; the
    program's executions are exactly those of this effect.
    """

    def run(e: lc.Expr) -> Effect:
        if isinstance(e, lc.Unit | lc.Var | lc.BoolLit):
            return Eps()
        if isinstance(e, lc.NewChan):
            return ChanE(e.chan, e.capacity)
        if isinstance(e, lc.CloseE):
            return Close(e.chan)
        if isinstance(e, lc.RangeE):
            return Range(e.chan, run(e.body))
        if isinstance(e, lc.Recv):
            return Get(e.chan)
        if isinstance(e, lc.Send):
            return Put(e.chan)
        if isinstance(e, lc.Let):
            return seq(run(e.bound), run(e.body))
        if isinstance(e, lc.Then):
            return seq(run(e.first), run(e.second))
        if isinstance(e, lc.If):
            return run(e.then if lc.evaluate(e.cond) else e.orelse)
        if isinstance(e, lc.SpawnE):
            return Spawn(run(e.body))
        if isinstance(e, lc.SelectE):
            return Select(
                tuple(SelCase(c.direction, c.chan, run(c.body)) for c in e.cases),
                None if e.default is None else run(e.default),
            )
        raise TypeError(f"not an expression: {e!r}")

    return run(program.main)


def check_program(
    program: lc.Program, *, max_states: int = DEFAULT_MAX_STATES, time_limit_s: float | None = None
) -> Verdict:
    """Explore every execution of a λ_chan program (conditions evaluated, not both sides)."""
    return check_effect(behaviour(program), max_states=max_states, time_limit_s=time_limit_s)


__all__ = [
    "Blocked",
    "ChannelEvent",
    "ChoiceEvent",
    "Counterexample",
    "DefaultEvent",
    "SpawnEvent",
    "SyncEvent",
    "Verdict",
    "behaviour",
    "check_effect",
    "check_program",
]

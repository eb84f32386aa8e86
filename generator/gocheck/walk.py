"""Random walks through a program's states: a bug hunt beside the exhaustive search.

The breadth-first search decides a program once it has seen every state; a program of
fifty goroutines that each lock ten times (GoBench's hugo#3251 as written) has far more
than any budget allows, and the search would end undecided though a deadlock is a few
steps away on many paths. So when the search grows past a few thousand states, it lends
part of its time to walks from the first state, each taking a successor at random until
nothing can move (judged as the search judges a state with no step) or a violation is
met. Walks take turns between two ways of choosing who moves: uniformly among the
goroutines that can, and as PCT does (Burckhardt et al., ASPLOS 2010: each goroutine gets
a random priority, the highest that can move moves, and at a few random steps the one
that moved drops to the lowest), which reaches bugs that need a few goroutines in one
order with a probability that does not shrink with the length of the run. Whatever a
walk finds is a real run of the model, reported with its trace; walks never make a
verdict "ok". The choices come from one `random.Random` seeded per check, so a check
given the same time repeats itself.
"""

from __future__ import annotations

import random
import time
from typing import Any, Protocol

from generator.gocheck.state import State
from generator.gocheck.transitions import Succ
from generator.gocheck.values import exact_counts


class Search(Protocol):
    """What the walks need of explore's search."""

    def pending(self, st: State) -> dict[int, Any]: ...
    def successors(self, st: State, only: frozenset[int] | None = None,
                   pend: dict[int, Any] | None = None) -> list[Succ]: ...
    def terminal(self, st: State, path: tuple, found: dict[str, Any]) -> None: ...
    def violation_found(self, found: dict[str, Any], why: str, path: tuple) -> None: ...
    def findings_for(self, st: State, found: dict[str, Any]) -> dict[str, Any]: ...


# Steps a walk takes at most (a program whose tickers fire for ever never stops).
MAX_STEPS = 5_000
# PCT's priority change points: how many in a walk (bugs of depth up to this plus one).
CHANGES = 3


def walk_for(explorer: Search, init: State, found: dict[str, Any],
             rng: random.Random, seconds: float, *, max_steps: int = MAX_STEPS,
             until_any: bool = False) -> int:
    """Walk from `init` for `seconds` or until a global deadlock is found (`until_any`:
    anything), each walk at most `max_steps` long; findings go into `found` as the
    search's do. Counters stay exact past INT_LIMIT (`values.exact_counts`): a walk
    follows a loop of 100,000 rounds to its real end. Returns how many walks were made."""
    with exact_counts():
        return _walks(explorer, init, found, rng, time.monotonic() + seconds, max_steps,
                      until_any)


def _walks(explorer: Search, init: State, found: dict[str, Any], rng: random.Random,
           end: float, max_steps: int, until_any: bool) -> int:
    walks = 0
    length = 100  # PCT spreads its change points over a walk's expected length
    while time.monotonic() < end and "global-deadlock" not in found \
            and not (until_any and found):
        walks += 1
        pct = walks % 2 == 0
        changes = {rng.randrange(length) for _ in range(CHANGES)} if pct else None
        steps = _walk(explorer, init, found, rng, end, changes, max_steps)
        length = max(length, steps)
    return walks


def _walk(explorer: Search, st: State, found: dict[str, Any], rng: random.Random,
          end: float, changes: set[int] | None, max_steps: int = MAX_STEPS) -> int:
    """One walk; with `changes`, PCT's (the steps where priorities change). Returns its
    number of steps."""
    path: list[Any] = []
    priority: dict[int, float] = {}
    for n in range(max_steps):
        if time.monotonic() > end:
            return n
        live = [g.gid for g in st.gs if not g.done]
        if changes is None:
            rng.shuffle(live)  # the first that can move is one chosen uniformly
        else:
            live.sort(key=lambda gid: -priority.setdefault(gid, rng.random()))
        going = _first_moves(explorer, st, live, found, path)
        if going is None:
            explorer.terminal(st, tuple(path), explorer.findings_for(st, found))
            return n
        if not going:
            return n  # every step left ends the path (an exit, something unsupported)
        s = rng.choice(going)
        if changes is not None and n in changes:
            for g in s.moved:
                priority[g] = -n - 1.0  # below every other, and below earlier drops
        path.extend(s.steps)
        st = s.state
    return max_steps


def _first_moves(explorer: Search, st: State, order: list[int], found: dict[str, Any],
                 path: list[Any]) -> list[Succ] | None:
    """The steps of the first goroutine in `order` that can move, made for it alone (a
    state of many goroutines would cost a successor each); None when none can. A timer
    whose firing changes nothing anyone can see counts as not moving, as in the search."""
    key = None
    ended = False
    pend = explorer.pending(st)  # once a step, whichever goroutines are tried
    for gid in order:
        if pend[gid] is None:
            continue
        succs = explorer.successors(st, frozenset((gid,)), pend)
        for s in succs:
            if s.violation is not None:
                explorer.violation_found(explorer.findings_for(st, found), s.violation,
                                         (*path, *s.steps))
        going = [s for s in succs if s.state is not None]
        if going and st.gs[gid].daemon:
            key = key or st.key()
            going = [s for s in going if s.state.key() != key]
        if going:
            return going
        ended = ended or any(s.state is None for s in succs)
    return [] if ended else None

"""Partial-order reduction: which goroutines' next steps one state of the search must try.

`explore` computes every successor of a state, then keeps only those of a *persistent set*
of goroutines (Godefroid, "Partial-Order Methods for the Verification of Concurrent
Systems", LNCS 1032, 1996, ch. 4, built as a stubborn set in Valmari's manner): a set `S`
such that no sequence of steps by goroutines outside `S` can touch anything the steps of
`S` touch. Then every step outside `S` commutes with the steps of `S`, and trying only
`S`'s steps loses no terminal state (deadlock) of the full search.

What a step touches (its *footprint*): the channels and sync objects of the goroutine's
pending operation, and every object and channel its local run after that operation read
or wrote (recorded by `Tracked`, so data shared through the heap counts as well, racy or
not). What a goroutine outside `S` may ever touch without `S` moving: everything reachable
from its live registers, parameters, free variables, deferred calls and timer tail,
through the heap and through channel buffers (`Reach`). Objects reachable from globals
may be touched by any goroutine's code, so a footprint meeting them makes the set every
goroutine. `S` is closed under "its footprint meets your reach", which covers both the
steps that conflict with `S`'s enabled steps (stubborn sets' D2) and those that could
enable `S`'s blocked ones (D1). Goroutines spawned in different orders get different
numbers; the states are equal up to that renaming, which no verdict looks at.

The cycle proviso lives in `explore`: see `_Explorer._expand`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from generator.gocheck.machine import Pending, State
from generator.gocheck.values import children

# A footprint holding this conflicts with every goroutine: something the checker cannot
# place (a channel it cannot tell, a global).
EVERYTHING = "*"


class Tracked(dict):
    """A state's objects or channels, noting in `seen` every key read or written."""

    __slots__ = ("seen",)

    def __init__(self, data: dict, seen: set) -> None:
        super().__init__(data)
        self.seen = seen

    def __getitem__(self, k: Any) -> Any:
        self.seen.add(k)
        return super().__getitem__(k)

    def get(self, k: Any, default: Any = None) -> Any:
        self.seen.add(k)
        return super().get(k, default)

    def __contains__(self, k: Any) -> bool:
        self.seen.add(k)
        return super().__contains__(k)

    def __setitem__(self, k: Any, v: Any) -> None:
        self.seen.add(k)
        super().__setitem__(k, v)


def _refs(v: Any) -> Iterator[Any]:
    """The object and channel ids a value names directly (not through the heap)."""
    todo = [v]
    while todo:
        v = todo.pop()
        if type(v) is not tuple or not v:
            continue
        tag = v[0]
        if tag == "chan" or tag in ("addr", "slice", "map", "iter") and v[1] is not None:
            yield v[1]
        elif tag not in ("?", "nil"):
            todo.extend(children(v))


class Reach:
    """Everything reachable in one state through the heap and channel buffers."""

    def __init__(self, st: State) -> None:
        self.st = st
        self.shared = self.closure(k for k in st.objs if isinstance(k, str))

    def closure(self, roots: Iterable[Any]) -> set:
        st = self.st
        seen: set = set()
        todo = list(roots)
        while todo:
            k = todo.pop()
            if k in seen:
                continue
            seen.add(k)
            if isinstance(k, str) or k in st.objs:
                todo.extend(_refs(st.objs.get(k)))
            elif k in st.chans:
                for v in st.chans[k][1]:
                    todo.extend(_refs(v))
        return seen

    def of_goroutine(self, gid: int) -> set:
        g = self.st.gs[gid]
        roots: list[Any] = []
        for f in g.frames:
            live = f.live()
            values = [v for k, v in f.regs.items() if k in live]
            values += [*f.params, *f.free]
            for callee, args, _static, _line in f.defers:
                values += [callee, *args]
            for v in values:
                roots.extend(_refs(v))
        for op in g.tail:
            roots.extend(_refs(op))
        return self.closure(roots)


def static_footprint(p: Pending) -> set:
    """The channels and objects a pending operation waits on or changes."""
    if p.kind in ("choice", "order", "cpus", "value", "exit", "yield"):
        return set()
    if p.kind == "comm":
        vals: tuple = tuple(c.chan for c in p.cases)
    elif p.kind == "atomic":
        vals = p.arg2[:1]
    else:
        vals = (p.arg,)
    out: set = set()
    for v in vals:
        if v == ("nil",):
            continue
        ids = list(_refs(v))
        if not ids:
            return {EVERYTHING}
        out.update(ids)
    return out


def persistent(enabled: set[int], footprint: dict[int, set], reach: Reach) -> set[int]:
    """The goroutines whose steps to try: the smallest closed set holding an enabled one.

    `enabled` are the goroutines with a step; `footprint` has every goroutine that has not
    ended (blocked ones too: who can unblock them must come along)."""
    goroutines = sorted(footprint)
    reaches: dict[int, set] = {}

    def reach_of(gid: int) -> set:
        if gid not in reaches:
            reaches[gid] = reach.of_goroutine(gid)
        return reaches[gid]

    best = set(goroutines)
    bound = len(enabled)  # a set with this many enabled goroutines reduces nothing
    for start in sorted(enabled):
        s = _close(start, goroutines, footprint, reach_of, reach.shared, enabled, bound)
        if s is not None:
            best, bound = s, len(s & enabled)
            if bound == 1:
                break
    return best


def _close(
    start: int,
    goroutines: list[int],
    footprint: dict[int, set],
    reach_of,
    shared: set,
    enabled: set[int],
    bound: int,
) -> set[int] | None:
    """The closed set from `start`, or None once it holds `bound` enabled goroutines."""
    out = {start}
    todo = [start]
    while todo:
        g = todo.pop()
        fp = footprint[g]
        if EVERYTHING in fp or any(isinstance(k, str) for k in fp) or not fp.isdisjoint(shared):
            return None
        for o in goroutines:
            if o not in out and not fp.isdisjoint(reach_of(o)):
                out.add(o)
                todo.append(o)
                if len(out & enabled) >= bound:
                    return None
    return out

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
and from the package variables that the code it may still run names, through the heap
and through channel buffers (`Reach`). What the checker's own keys of the state reach (a
deadline, the CPU count chosen) may be touched by any goroutine, so a footprint meeting
them makes the set every goroutine. `S` is closed under "its footprint meets your
reach", which covers both the steps that conflict with `S`'s enabled steps (stubborn
sets' D2) and those that could enable `S`'s blocked ones (D1). Goroutines spawned in
different orders get different numbers; the states are equal up to that renaming, which
no verdict looks at.

The cycle proviso lives in `explore`: see `_Explorer._expand`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from functools import cached_property
from typing import Any

from generator.gocheck.ssa import Program
from generator.gocheck.state import Pending, State
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


def _refs(v: Any, fns: set | None = None) -> Iterator[Any]:
    """The object and channel ids a value names directly (not through the heap); the
    functions it names (closures, method values) go to `fns` when given."""
    todo = [v]
    while todo:
        v = todo.pop()
        if type(v) is not tuple or not v:
            continue
        tag = v[0]
        if tag == "chan" or tag in ("addr", "slice", "map", "iter") and v[1] is not None:
            yield v[1]
        elif tag not in ("?", "nil"):
            if tag == "fn" and fns is not None:
                fns.add(v[1])
            todo.extend(children(v))


class Reach:
    """Everything reachable in one state through the heap and channel buffers.

    Without the program, the package variables may be touched by any goroutine's code, so
    whatever they reach conflicts with every goroutine. With it, a goroutine reaches the
    package variables that the code it may still run names (`Program.globals_ahead` from
    where each of its frames stands, `Program.globals_touched` of its deferred calls and of
    every function value it reaches), so a step on a package-level channel conflicts only
    with the goroutines whose code can still name that channel. The checker's own keys of
    the state (deadlines, the chosen CPU count, the approximate mark: strings that name no
    package variable of the program) still conflict with every goroutine."""

    def __init__(self, st: State, program: Program | None = None) -> None:
        self.st = st
        self.program = program

    @cached_property
    def shared(self) -> set:
        """What the package variables and the checker's own keys reach."""
        return self.closure(k for k in self.st.objs if isinstance(k, str))

    @cached_property
    def named(self) -> frozenset[str]:
        """The keys of the package variables the program's code names (none without it)."""
        return frozenset() if self.program is None else self.program.global_keys()

    @cached_property
    def internal(self) -> set:
        """What every goroutine may touch: what the keys of the state not in `named`
        reach (`shared`, without the program)."""
        named = self.named
        return self.closure(k for k in self.st.objs if isinstance(k, str) and k not in named)

    def everyones(self, footprint: set) -> bool:
        """Whether a step that touches `footprint` conflicts with every goroutine."""
        named = self.named
        return EVERYTHING in footprint or not footprint.isdisjoint(self.internal) or any(
            isinstance(k, str) and k not in named for k in footprint)

    def closure(self, roots: Iterable[Any], fns: set | None = None,
                seen: set | None = None) -> set:
        """What `roots` reach, added to `seen` (a new set when None); the functions the
        values on the way name go to `fns` when given."""
        st = self.st
        seen = set() if seen is None else seen
        todo = list(roots)
        while todo:
            k = todo.pop()
            if k in seen:
                continue
            seen.add(k)
            if isinstance(k, str) or k in st.objs:
                todo.extend(_refs(st.objs.get(k), fns))
            elif k in st.chans:
                for v in st.chans[k][1]:
                    todo.extend(_refs(v, fns))
        return seen

    def of_goroutine(self, gid: int) -> set:
        g = self.st.gs[gid]
        roots: list[Any] = []
        fns: set = set()
        ahead: list[str] = []
        for f in g.frames:
            if self.program is not None:
                ahead.extend(self.program.globals_ahead(f.fn.name, f.block, f.pc))
            live = f.live()
            values = [v for k, v in f.regs.items() if k in live]
            values += [*f.params, *f.free]
            for callee, args, _static, _line in f.defers:
                values += [callee, *args]
            for v in values:
                roots.extend(_refs(v, fns))
        for op in g.tail:
            roots.extend(_refs(op, fns))
        if self.program is None:
            return self.closure(roots)
        # The code a goroutine may run names package variables, whose values may hold
        # functions with code that names more: until no new function turns up.
        roots.extend("g:" + n for n in ahead)
        reached: set = set()
        done: set = set()
        while True:
            for name in fns - done:
                roots.extend("g:" + n for n in self.program.globals_touched(name))
            done |= fns
            self.closure(roots, fns, reached)
            if fns <= done:
                return reached
            roots = []


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
        s = _close(start, goroutines, footprint, reach_of, reach, enabled, bound)
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
    reach: Reach,
    enabled: set[int],
    bound: int,
) -> set[int] | None:
    """The closed set from `start`, or None once it holds `bound` enabled goroutines."""
    out = {start}
    todo = [start]
    while todo:
        g = todo.pop()
        fp = footprint[g]
        if reach.everyones(fp):
            return None
        for o in goroutines:
            if o not in out and not fp.isdisjoint(reach_of(o)):
                out.add(o)
                todo.append(o)
                if len(out & enabled) >= bound:
                    return None
    return out

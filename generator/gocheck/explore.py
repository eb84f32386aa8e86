"""Explore every interleaving of a Go program's abstract run and give the verdict.

Breadth first over the states of `machine` (so each trace found is a shortest one), with
every state kept once by its key. A state where nothing can move and some goroutine has
not finished is a deadlock: *global* when `main` is among the blocked (Go's "all
goroutines are asleep"), *partial* when `main` has returned and others wait for ever (a
leak: main's return would end them unseen); in a test file, each test is checked on its
own and plays main's part (`merged` gives the file's verdict). Sending on a closed
channel, closing a closed or nil channel, a negative WaitGroup counter and unlocking an
unlocked mutex are *channel-safety* violations (each a panic or fatal error in Go).
After the search, each bottom strongly connected component of the state graph (where the
run can loop for ever) is checked for goroutines that never move in it: blocked for ever
while others go on.

A violation found is a real execution of the model, reported even when some other path
reached something unsupported; "ok" is said only when the whole space was explored and
nothing unsupported was met. A branch on a loop counter past INT_LIMIT goes both ways and
marks its path approximate (`findings_for`): what only such paths reach is not reported,
and no "ok" is said with it.

The steps from each state, and what they find, are transitions.py's (`Transitions`, mixed
into the explorer); this module keeps the search, its reductions and the verdicts.
"""

from __future__ import annotations

import random
import time
from collections import deque
from dataclasses import dataclass, field, replace

from generator.gocheck.instructions import MAP_ENDS_UP_TO
from generator.gocheck.machine import Machine
from generator.gocheck.por import Reach, persistent, static_footprint
from generator.gocheck.ssa import Program
from generator.gocheck.state import Pending, ProgramExit, State
from generator.gocheck.transitions import Finding, Step, Succ, Transitions
from generator.gocheck.values import (
    INT_LIMIT,
    UNKNOWN,
    TooLarge,
    Unsupported,
)
from generator.gocheck.walk import walk_for

DEFAULT_MAX_STATES = 100_000
DEFAULT_TIME_LIMIT = 60.0
# The search lends time to random walks (`walk`) once it has this many states, then each
# time it has four times as many: at the k-th time, WALK_SHARE / k of the time it has spent
# so far. A correct program the search can finish pays less the longer it takes (about a
# tenth at 30,000 states); a buggy one too large to explore has its walks early.
WALKS_FROM = 2_000
WALK_SHARE = 0.25
# Once something is found, the search goes on for a graver finding (a global deadlock
# outranks the others) only until it has run this many times as long, plus a second.
FOUND_GRACE = 2.0
# When only approximate paths found something (`findings_for`), walks that count exactly
# look for it on real runs: for as long as the search took, at least this many seconds
# (within the budget), each as long as the loops make it.
CONFIRM_AT_LEAST_S = 5.0
CONFIRM_MAX_STEPS = 1_000_000

VERDICTS = ("ok", "global-deadlock", "partial-deadlock", "channel-safety", "unsupported",
            "undecided")
_PRIORITY = ("global-deadlock", "channel-safety", "partial-deadlock")


# A trace shows a loop's rounds once when the same steps come this many times in a row
# (a block of up to FOLD_BLOCK steps), then says how many more there were: a walk that
# counted 3,000 rounds exactly would otherwise report 6,000 lines of the same two.
FOLD_AT = 4
FOLD_BLOCK = 8


def folded(trace: tuple[Step, ...]) -> tuple[Step, ...]:
    """`trace` with each run of at least FOLD_AT equal blocks of steps shown once and
    followed by a step that says how many more times it came (in the lane of its last)."""
    out: list[Step] = []
    i, n = 0, len(trace)
    while i < n:
        best = (1, 1)  # (repeats, block length)
        for k in range(1, min(FOLD_BLOCK, (n - i) // FOLD_AT) + 1):
            block, r = trace[i:i + k], 1
            while trace[i + r * k:i + (r + 1) * k] == block:
                r += 1
            if r >= FOLD_AT and r * k > best[0] * best[1]:
                best = (r, k)
        r, k = best
        out.extend(trace[i:i + k])
        if r > 1:
            last = trace[i + k - 1]
            steps = "step" if k == 1 else f"{k} steps"
            out.append(Step(last.goroutine, 0, f"… the {steps} above, {r - 1:,} more times "
                                               "(rounds of a loop)", last.file))
        i += r * k
    return tuple(out)


@dataclass(frozen=True)
class Result:
    verdict: str
    findings: tuple[Finding, ...] = ()
    unsupported: tuple[tuple[str, int], ...] = ()
    states: int = 0
    seconds: float = 0.0
    complete: bool = True
    notes: tuple[str, ...] = field(default_factory=tuple)


class _Explorer(Transitions):
    def __init__(self, program: Program, max_states: int, time_limit: float,
                 reduce: bool = True, symmetry: bool = True) -> None:
        # A reduction too: the releases taken at once (`Machine._release`).
        self.m = Machine(program, releases=reduce, approximate=True)
        self.max_states = max_states
        self.time_limit = time_limit
        self.reduce = reduce
        self.symmetry = symmetry
        self.reduced = 0  # states expanded with a reduced set
        self._pending: dict[int, Pending | None] = {}
        self.unsupported: dict[tuple[str, int], None] = {}
        self.too_large = False
        # Findings on approximate paths (`findings_for`): not shown, but no "ok" with one.
        self.approximate_found: dict[str, Finding] = {}
        self.approximated = False  # some path took such a branch

    def run(self) -> Result:
        start = time.monotonic()
        try:
            init = self.m.initial()
        except Unsupported as e:
            return Result("unsupported", unsupported=((e.what, e.line),),
                          seconds=time.monotonic() - start)
        except TooLarge:
            return Result("undecided", seconds=time.monotonic() - start, complete=False,
                          notes=(f"a loop runs past {INT_LIMIT} rounds before any goroutine "
                                 "starts",))
        except ProgramExit:
            return Result("ok", states=1, seconds=time.monotonic() - start,
                          notes=("the program exits before any goroutine starts",))
        states: list[State] = [init]
        init_key, init_order = init.canon(self.symmetry)
        index = {init_key: 0}
        # Each state's goroutines in its key's order; an edge to a state found before
        # under another order of alike goroutines carries the renaming of their ids.
        orders: list[tuple[int, ...]] = [init_order]
        parent: list[tuple[int, tuple[Step, ...]]] = [(-1, ())]
        edges: list[list[tuple[int, frozenset[int], dict[int, int] | None]]] = [[]]
        exits: dict[int, set[int]] = {}  # by state: goroutines whose step ends the path
        found: dict[str, Finding] = {}
        complete = True
        queue = deque([0])
        walks_at = WALKS_FROM
        walks = rounds = 0
        found_after: float | None = None
        rng = random.Random(0)

        def trace(i: int, last: tuple[Step, ...] = ()) -> tuple[Step, ...]:
            parts: list[tuple[Step, ...]] = [last]
            while i > 0:
                p, steps = parent[i]
                parts.append(steps)
                i = p
            return tuple(s for steps in reversed(parts) for s in steps)

        while queue:
            spent = time.monotonic() - start
            if found and found_after is None:
                found_after = spent
            if found_after is not None and spent > FOUND_GRACE * found_after + 1.0:
                # A violation is in hand; a graver one, if any, is usually near. The rest
                # of the budget would make the user wait for a verdict already shown.
                complete = False
                break
            if len(states) >= walks_at or len(states) > self.max_states:
                walks_at *= 4
                rounds += 1
                walks += walk_for(self, init, found, rng,
                                  min(WALK_SHARE / rounds * spent, self.time_limit - spent))
                if "global-deadlock" in found:
                    complete = False
                    break
            if len(states) > self.max_states or time.monotonic() - start > self.time_limit:
                complete = False
                break
            i = queue.popleft()
            st = states[i]
            succs = self.successors(st)
            sink = self.findings_for(st, found)
            if not succs or self.only_unseen_timers(st, succs):
                self.terminal(st, trace(i), sink)
                if "global-deadlock" in found:
                    break
            for s in succs:
                if s.violation is not None:
                    self.violation_found(sink, s.violation, trace(i, s.steps))
                elif s.state is None:
                    # The step ends the path (the program exits, or the checker cannot
                    # follow it): the goroutine can move, though no edge shows it.
                    exits.setdefault(i, set()).update(s.moved)
            for s, (k, order) in self._expand(st, i, succs, index):
                j = index.get(k)
                if j is None:
                    j = len(states)
                    index[k] = j
                    states.append(s.state)
                    orders.append(order)
                    parent.append((i, s.steps))
                    edges.append([])
                    queue.append(j)
                perm = None if order == orders[j] else dict(zip(order, orders[j], strict=True))
                edges[i].append((j, s.moved, perm))
        if self.too_large:
            complete = False
        if complete and not found:
            self._cycles(states, edges, exits, trace, found)
        if self.approximate_found and not found:
            spent = time.monotonic() - start
            seconds = min(self.time_limit - spent, max(CONFIRM_AT_LEAST_S, spent))
            if seconds > 0:
                walks += walk_for(self, init, found, rng, seconds,
                                  max_steps=CONFIRM_MAX_STEPS, until_any=True)
        # Still nothing but what approximate paths saw: no "ok", and the note says why.
        set_aside = not found and tuple(k for k in _PRIORITY if k in self.approximate_found)
        if set_aside:
            complete = False
        seconds = time.monotonic() - start
        unsupported = tuple(self.unsupported)
        findings = tuple(replace(found[k], trace=folded(found[k].trace))
                         for k in _PRIORITY if k in found)
        verdict = _verdict(findings, unsupported, complete)
        notes: tuple[str, ...] = ()
        if self.too_large:
            notes = (f"some paths were cut where a loop ran past {INT_LIMIT} rounds",)
        if set_aside:
            notes += (f"{', '.join(set_aside)} seen only on paths where a counter past "
                      f"{INT_LIMIT} decided a branch, either way: no run may take them "
                      "(not reported)",)
        elif complete and not found and self.approximated:
            notes += (f"loops past {INT_LIMIT} rounds were taken as ending in any round "
                      "after that, more runs than the program has: the verdict holds",)
        if walks:
            notes += (f"{walks} random walks beside the search",)
        if self.m.orders_cut:
            n = self.m.orders_cut
            notes += (f"a range over a map of {n} entries was tried in "
                      + (f"{2 * n - 1} of its orders (each key first or last, the others "
                         "by key)" if n <= MAP_ENDS_UP_TO else "one order of its keys")
                      + ", not in all",)
        if self.m.lengths_bounded:
            k = self.m.len_bound
            notes += (f"lengths and numbers the checker cannot tell (of a list, a text or a "
                      f"number from the input) were taken as at most {k} (numbers from "
                      f"−{k}), more than every count the program states: the verdict holds "
                      "for inputs that small",)
        return Result(verdict, findings, unsupported, len(states), seconds, complete, notes)

    def _expand(self, st: State, number: int, succs: list[Succ],
                index: dict) -> list[tuple[Succ, tuple[tuple, tuple[int, ...]]]]:
        """The successor states to follow, with their keys and goroutine orders
        (`State.canon`): those of a persistent set of goroutines (`por`), or all of them.
        `number` is the state's own in the order of discovery (its place in `index`).

        The cycle proviso: a state is expanded in full when one of the reduced set's
        successors was found no later than the state itself. (One found since, as the
        search reached it another way first, is no cycle: taking "found before this
        expansion" instead expanded 92% of the states of Pike's replicated search in full,
        `probe_ib06_google_first_fixed`.) Then along every reduced edge the
        order of discovery strictly grows, so every cycle of the reduced graph holds a
        fully expanded state, which is stronger than the cycle condition C3 of Clarke,
        Grumberg and Peled ("Model Checking", 1999, ch. 10: no cycle may leave a step
        enabled without taking it) and suits breadth-first search, where the depth-first
        "closes a cycle on the stack" test has no stack to look at. With it a step left out
        stays enabled until some state of the cycle takes it, so a goroutine that never
        moves in a bottom SCC of the reduced graph is blocked for ever in the full one
        too, and each such goroutine of the full graph shows in a reduced bottom SCC;
        violations reachable in full are reached as well (every goroutine's violating
        steps are recorded at each state expanded, left out or not)."""
        keyed = [(s, s.state.canon(self.symmetry)) for s in succs if s.state is not None]
        enabled = {g for s, _ in keyed for g in s.moved}
        if not self.reduce or len(enabled) <= 1:
            return keyed
        chosen = persistent(enabled, self._footprints(st, succs), Reach(st, self.m.program))
        some = [(s, k) for s, k in keyed if s.moved & chosen]
        if len(some) == len(keyed) or any(k in index and index[k] <= number
                                          for _, (k, _o) in some):
            return keyed
        self.reduced += 1
        return some

    def _footprints(self, st: State, succs: list[Succ]) -> dict[int, set]:
        """What each goroutine that has not ended touches with its next step: its pending
        operation's channels and objects, and what its local runs after it touched."""
        out = {gid: static_footprint(p) for gid, p in self._pending.items() if p is not None}
        for s in succs:
            for gid in s.moved:
                out.setdefault(gid, set()).update(s.touched)
        return out

    def only_unseen_timers(self, st: State, succs: list[Succ]) -> bool:
        """Whether every step left is a timer firing that changes nothing anyone can see
        (a time.After whose channel nobody holds any more): such a state is as stuck as
        one with no step at all."""
        if not all(s.state is not None and s.violation is None and s.moved
                   and all(st.gs[g].daemon for g in s.moved) for s in succs):
            return False
        key = st.key()
        return all(s.state.key() == key for s in succs)

    def violation_found(self, found: dict[str, Finding], why: str,
                        path: tuple[Step, ...]) -> None:
        """A step of `path` (its last) panics with a channel-safety violation `why`."""
        if "channel-safety" not in found:
            found["channel-safety"] = Finding("channel-safety", why, path)

    def terminal(self, st: State, path: tuple[Step, ...], found: dict[str, Finding]) -> None:
        live = [g for g in st.gs if not self.idle(st, g.gid)]
        if live and st.gs[0].done and not self.m.program.tests:
            shared = Reach(st).shared  # once: what every package variable reaches
            live = [g for g in live if not self.waits_on_globals(st, g.gid, shared)]
        if not live:
            return
        # What the report lists at the end: the goroutines counted, not an idle server.
        labels = {g.label for g in live}
        stuck = tuple(s for s in self.stuck(st) if s.goroutine in labels)
        if not st.gs[0].done:
            if "global-deadlock" not in found:
                found["global-deadlock"] = Finding(
                    "global-deadlock",
                    f"every goroutine is blocked ({st.gs[0].label} included)", path,
                    stuck)
        elif "partial-deadlock" not in found:
            found["partial-deadlock"] = Finding(
                "partial-deadlock",
                f"{st.gs[0].label} returns while {len(live)} goroutine(s) stay blocked "
                "for ever", path,
                stuck)

    def _cycles(self, states: list[State], edges, exits: dict[int, set[int]], trace,
                found: dict[str, Finding]) -> None:
        """Goroutines that never move in a bottom SCC are blocked for ever."""
        for comp in _bottom_sccs(edges):
            if any(i in exits for i in comp):
                # A step out of it ends the path (something unsupported, the program's
                # exit): bottom only because that path was cut, the loop may be left.
                continue
            if len(comp) == 1:
                (only,) = comp
                if not any(e[0] == only for e in edges[only]):
                    continue  # a terminal state: judged already
            members = set(comp)
            i = min(comp)
            st = states[i]
            live = [g.gid for g in st.gs if not self.idle(st, g.gid)]
            never = [gid for gid in live if _never_moves(edges, exits, members, i, gid)]
            if not never:
                continue
            stuck = tuple(s for s in self.stuck(st)
                          if any(st.gs[gid].label == s.goroutine for gid in never))
            # Only timers move on: a global deadlock if main is among the blocked.
            kind = "global-deadlock" if len(never) == len(live) and not st.gs[0].done \
                else "partial-deadlock"
            sink = self.findings_for(st, found)
            if kind not in sink:
                sink[kind] = Finding(
                    kind, f"{len(never)} goroutine(s) blocked for ever while the rest loops",
                    trace(i), stuck)


def _never_moves(edges, exits: dict[int, set[int]], members: set[int], start: int,
                 gid: int) -> bool:
    """Whether goroutine `gid` of state `start` takes no step on any path within
    `members` (a bottom SCC), nor one that ends the path there (`exits`: a step into
    something unsupported is no proof that it waits for ever). Its id may differ from
    state to state: an edge into a state found first with alike goroutines in another
    order renames them."""
    seen = {(start, gid)}
    todo = [(start, gid)]
    while todo:
        i, g = todo.pop()
        if g in exits.get(i, ()):
            return False
        for j, who, perm in edges[i]:
            if j not in members:
                continue
            if g in who:
                return False
            h = g if perm is None else perm.get(g)
            if h is None:
                return False  # it ended (a step of its own, but be safe)
            if (j, h) not in seen:
                seen.add((j, h))
                todo.append((j, h))
    return True


def _bottom_sccs(edges: list[list[tuple[int, frozenset[int]]]]) -> list[list[int]]:
    """The strongly connected components with no edge leaving them (iterative Tarjan)."""
    n = len(edges)
    index = [-1] * n
    low = [0] * n
    on = [False] * n
    comp_of = [-1] * n
    stack: list[int] = []
    comps: list[list[int]] = []
    counter = 0
    for root in range(n):
        if index[root] != -1:
            continue
        work = [(root, 0)]
        while work:
            v, k = work.pop()
            if k == 0:
                index[v] = low[v] = counter
                counter += 1
                stack.append(v)
                on[v] = True
            recurse = False
            succ = edges[v]
            while k < len(succ):
                w = succ[k][0]
                k += 1
                if index[w] == -1:
                    work.append((v, k))
                    work.append((w, 0))
                    recurse = True
                    break
                if on[w]:
                    low[v] = min(low[v], index[w])
            if recurse:
                continue
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on[w] = False
                    comp_of[w] = len(comps)
                    comp.append(w)
                    if w == v:
                        break
                comps.append(comp)
            if work:
                u = work[-1][0]
                low[u] = min(low[u], low[v])
    bottom = []
    for c, comp in enumerate(comps):
        if all(comp_of[e[0]] == c for i in comp for e in edges[i]):
            bottom.append(comp)
    return bottom


def _verdict(findings: tuple[Finding, ...], unsupported: tuple, complete: bool) -> str:
    """The gravest finding (they come gravest first); else unsupported if anything was,
    undecided if the search did not finish, ok."""
    if findings:
        return findings[0].kind
    if unsupported:
        return "unsupported"
    return "ok" if complete else "undecided"


def merged(named: list[tuple[str, Result]]) -> Result:
    """One verdict for the tests of a file, each checked alone: every finding, each
    named by its test, the gravest first (in the order of the tests among equals); then
    unsupported, undecided, ok, as for one program."""
    def named_finding(test: str, f: Finding) -> Finding:
        message = f.message if test in f.message else f"{test}: {f.message}"
        return Finding(f.kind, message, f.trace, f.stuck)

    findings = tuple(sorted((named_finding(t, f) for t, r in named for f in r.findings),
                            key=lambda f: _PRIORITY.index(f.kind)))
    unsupported = tuple((f"{t}: {what}", line) for t, r in named for what, line in r.unsupported)
    complete = all(r.complete for _, r in named)
    verdict = _verdict(findings, unsupported, complete)
    notes = tuple(f"{t}: {r.verdict} ({r.states} states, {r.seconds:.2f} s)" for t, r in named)
    notes += tuple(f"{t}: {n}" for t, r in named for n in r.notes)
    return Result(verdict, findings, unsupported, sum(r.states for _, r in named),
                  sum(r.seconds for _, r in named), complete, notes)


def check(program: Program, *, max_states: int = DEFAULT_MAX_STATES,
          time_limit: float = DEFAULT_TIME_LIMIT, reduce: bool = True,
          symmetry: bool = True) -> Result:
    """Explore `program` and return its verdict with the findings that justify it;
    `reduce=False` explores every interleaving (no partial-order reduction), and
    `symmetry=False` keeps states apart that differ only in which of alike goroutines is
    which (`State.canon`)."""
    return _Explorer(program, max_states, time_limit, reduce, symmetry).run()


__all__ = ["VERDICTS", "Finding", "Result", "Step", "check", "merged", "UNKNOWN"]

"""The transitions of gocheck's search: from a state, every step some goroutine can take
(a communication, a select's case, a sync operation, a choice the machine left open, a
timer firing, the fake clock moving) and the state after it, with the trace it adds
(`Step`) and what it found (a violation, an exit); and which goroutines are stuck where
nothing can move. `Transitions` is the part of `explore._Explorer` that computes them:
explore.py keeps the search over them (breadth first, the reductions, cycles) and the
verdicts; `Finding` and `Step` are what a report shows.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from generator.gocheck.calls import ctx_err
from generator.gocheck.gotest import BUBBLE_ROOT, PARALLEL_METHOD
from generator.gocheck.machine import APPROXIMATE, DEADLINE, RECOVERABLE, TIMER_OPS
from generator.gocheck.por import EVERYTHING, Tracked, static_footprint
from generator.gocheck.state import Pending, ProgramExit, State, line_of, received
from generator.gocheck.values import (
    DEADLINE_CAUSE,
    INT_LIMIT,
    NIL,
    UNKNOWN,
    TooLarge,
    Unsupported,
    Value,
    is_unknown,
    zero,
)


@dataclass(frozen=True)
class Step:
    """One event of a trace: which goroutine did what, at which source line."""

    goroutine: str
    line: int
    text: str
    # The file of the line when it is not the checked file's: a function of an imported
    # module's package ("golang.org/x/sync/errgroup/errgroup.go").
    file: str = ""

    @property
    def where(self) -> str:
        """Where the step is, as a report prefixes it ("" when Go's SSA gives no line)."""
        if not self.line:
            return ""
        return f"{self.file}:{self.line}: " if self.file else f"line {self.line}: "


@dataclass(frozen=True)
class Finding:
    kind: str
    message: str
    trace: tuple[Step, ...]
    stuck: tuple[Step, ...] = ()


@dataclass
class Succ:
    steps: tuple[Step, ...]
    moved: frozenset[int]
    state: State | None = None
    violation: str | None = None
    exit: str | None = None
    # The objects and channels the step's local run read or wrote (por's footprint).
    touched: frozenset = frozenset()


def _chan_name(st: State, ch: Value) -> str:
    if ch == NIL:
        return "a nil channel"
    if isinstance(ch, tuple) and ch[0] == "chan":
        line, name = st.chan_lines.get(ch[1], (0, ""))
        if not line:  # made by the checker, not at a line of the program
            return name or "a timer's channel"
        return f"{name or 'channel'} (made at line {line})"
    return "a channel"


def _file(st: State, gid: int) -> str:
    """The file goroutine `gid` stands in, when not the checked file (Step.file)."""
    frames = st.gs[gid].frames
    return frames[-1].fn.file if frames else ""


def _keys(keys: tuple) -> str:
    """A map's keys in the order a range takes them, as a trace shows them."""
    def one(k: Value) -> str:
        if isinstance(k, tuple) and k[0] == "iface":  # a key of type any
            return one(k[2])
        if isinstance(k, str):
            return '"' + k.replace('"', '\\"') + '"'
        return str(k) if isinstance(k, int) else "a key"
    return ", ".join(one(k) for k in keys)


# The labels of the goroutines that stand for timers (machine's time.After, NewTimer,
# AfterFunc, a context's deadline): a fake clock's, they wait for every other goroutine.
_TIMED = ("timer (", "context deadline (")


def _advance(st: State, passed: int, fired: frozenset[int]) -> None:
    """The fake clock moves on by `passed` as goroutines `fired` (a timer, a sleeper)
    go: a ticker is due again a period later, a timer or sleep that went is done, and
    the rest are due `passed` sooner. A deadline of a goroutine that has ended goes."""
    for key in [k for k in st.objs if isinstance(k, str) and k.startswith(DEADLINE)]:
        gid = int(key[len(DEADLINE):])
        _, due, period = st.objs[key]
        g = st.gs[gid]
        if gid in fired and period is None or g.done:
            del st.objs[key]
        elif gid in fired:
            st.objs[key] = ("deadline", period, period)
        elif isinstance(due, int):
            st.objs[key] = ("deadline", max(0, due - passed), period)


def describe(st: State, p: Pending) -> str:
    """What a stopped goroutine waits for, in words."""
    if p.kind == "comm":
        parts = [f"{'send on' if c.dir == 'send' else 'receive from'} {_chan_name(st, c.chan)}"
                 for c in p.cases]
        if p.select:
            return "select { " + "; ".join(parts) + " }"
        return parts[0]
    names = {"wg_wait": "WaitGroup.Wait", "wg_add": "WaitGroup.Add", "lock": "Lock",
             "rlock": "RLock", "unlock": "Unlock", "runlock": "RUnlock", "once": "Once.Do",
             "close": "close", "cancel": "context cancel", "choice": "a branch",
             "order": "a map range's order", "cpus": "runtime.NumCPU",
             "value": "a number the input decides",
             "ctx_err": "ctx.Err",
             "cond_wait": "Cond.Wait", "cond_signal": "Cond.Signal",
             "cond_broadcast": "Cond.Broadcast", "timer_stop": "Timer.Stop",
             "timer_reset": "Timer.Reset", "ticker_stop": "Ticker.Stop",
             "ticker_reset": "Ticker.Reset", "fire": "a timer firing",
             "afterfunc_stop": "context.AfterFunc's stop",
             "oncefunc": "sync.OnceFunc's function", "exit": "exit",
             "bubble_wait": "the fake clock (time.Sleep or synctest.Wait)",
             "yield": "time.Sleep or runtime.Gosched",
             "pull_next": "iter.Pull's next", "pull_stop": "iter.Pull's stop",
             "pull_yield": "yield (iter.Pull's sequence)",
             "pull_end": "the end of iter.Pull's sequence"}
    return names.get(p.kind, p.kind)


class Transitions:
    """The successors of an `_Explorer`'s states (see the module docstring)."""

    def pending(self, st: State) -> dict[int, Pending | None]:
        """What each goroutine of `st` waits to do."""
        return {gid: self.m.pending(st, gid) for gid in range(len(st.gs))}

    def successors(self, st: State, only: frozenset[int] | None = None,
                   pend: dict[int, Pending | None] | None = None) -> list[Succ]:
        """Every step from `st`; with `only`, just the steps those goroutines take part in
        (a random walk's choice, without making every other successor state); `pend`,
        the goroutines' pending operations when already known."""
        pend = self.pending(st) if pend is None else pend
        if not self.m.fake_clock:
            return self._successors(st, only, pend)
        # In a synctest bubble time moves only when every goroutine is blocked: timers
        # fire, and time.Sleep and synctest.Wait return, only when nothing else can move.
        # The one due first goes (synctest.Wait, which does not wait for the clock, before
        # any); what passed comes off every other deadline.
        # (A timer that was stopped has nothing left to fire: it is not due at all, or a
        # sleep after a stopped ticker would wait for its next tick for ever.)
        due: dict[int, Value] = {gid: st.objs.get(f"{DEADLINE}{gid}", (0, UNKNOWN))[1]
                                 for gid, g in enumerate(st.gs)
                                 if g.daemon and not g.done and g.label.startswith(_TIMED)}
        for gid, p in pend.items():
            if p is not None and p.kind == "bubble_wait":
                due[gid] = 0 if p.arg is None else \
                    st.objs.get(f"{DEADLINE}{gid}", (0, UNKNOWN))[1]
        out = self._successors(st, None, pend)
        root = st.objs.get(BUBBLE_ROOT)
        if isinstance(root, tuple) and root[0] == "chan" and st.chans[root[1]][2]:
            # The clock has stopped: only what is due already (at the same moment as what
            # let the bubble's function return) still goes.
            out = [s for s in out if not s.moved <= due.keys()
                   or all(due[g] == 0 for g in s.moved)]
        elif any(not s.moved <= due.keys() for s in out):
            out = [s for s in out if not s.moved <= due.keys()]
        else:
            known = [d for d in due.values() if isinstance(d, int)]
            first = min(known, default=0)
            out = [s for s in out if all(due[g] == first or not isinstance(due[g], int)
                                         for g in s.moved)]
            for s in out:
                if s.state is not None:
                    _advance(s.state, first, s.moved)
        self._pending = pend
        return out if only is None else [s for s in out if s.moved & only]

    def _successors(self, st: State, only: frozenset[int] | None,
                    pend: dict[int, Pending | None]) -> list[Succ]:
        out: list[Succ] = []
        self._pending = pend
        # Goroutines with a case ready by the channel's own state (a buffer, a close): a
        # non-blocking select cannot take default then. A case ready only because a partner
        # waits does not count: the partner may not have arrived yet (its local steps are
        # merged into its last visible one here, but take time in Go), so default stays
        # possible, as a lost wake-up in Go.
        ready: set[int] = set()

        def at(gid: int, line: int, text: str) -> Step:
            return Step(st.gs[gid].label, line, text, _file(st, gid))

        for gid, p in pend.items():
            if p is None or p.kind != "comm":
                continue
            mine = only is None or gid in only
            for ci, c in enumerate(p.cases):
                ch = c.chan
                if ch == NIL:
                    continue
                if not (isinstance(ch, tuple) and ch[0] == "chan"):
                    if mine:
                        out.extend(self._cannot(gid, p.line,
                                                "a channel the checker cannot tell"))
                    continue
                cap, buf, closed = st.chans[ch[1]]
                name = _chan_name(st, ch)
                if c.dir == "send":
                    if closed:
                        if not mine:
                            continue
                        ready.add(gid)
                        out.append(self._violation(
                            st, gid, at(gid, p.line, f"send on closed {name}"),
                            "send on closed channel"))
                    elif cap > 0:
                        if mine and len(buf) < cap:
                            ready.add(gid)
                            out.append(self._apply(st, pend, [(gid, ci, None, True)], ch,
                                                   buf + (c.value,), closed,
                                                   (at(gid, p.line,
                                                         f"send on {name} (buffered)"),)))
                    else:
                        for hid, q in pend.items():
                            if hid == gid or q is None or q.kind != "comm" or \
                                    not (mine or hid in only):
                                continue
                            for cj, d in enumerate(q.cases):
                                if d.dir == "recv" and d.chan == ch:
                                    steps = (
                                        at(gid, p.line, f"send on {name}"),
                                        at(hid, q.line, f"receive from {name}"),
                                    )
                                    out.append(self._apply(
                                        st, pend, [(gid, ci, None, True), (hid, cj, c.value, True)],
                                        None, None, None, steps))
                elif mine:
                    if buf:
                        ready.add(gid)
                        out.append(self._apply(st, pend, [(gid, ci, buf[0], True)], ch, buf[1:],
                                               closed, (at(gid, p.line,
                                                             f"receive from {name} (buffered)"),)))
                    elif closed:
                        ready.add(gid)
                        out.append(self._apply(
                            st, pend, [(gid, ci, zero(c.elem), False)], None, None, None,
                            (at(gid, p.line, f"receive from closed {name}"),)))
        for gid, p in pend.items():
            if p is None or only is not None and gid not in only:
                continue
            if p.kind == "comm":
                if not p.blocking and gid not in ready:
                    out.append(self._apply(st, pend, [(gid, -1, None, False)], None, None, None,
                                           (at(gid, p.line, "select default"),)))
                continue
            out.extend(self._other(st, gid, p))
        return out

    def _guarded(self, steps: tuple[Step, ...], moved: frozenset[int], new: State,
                 action: Callable[[State], object]) -> Succ:
        """`action(new)`, and the successor it makes: the state, or how the path ended
        (the program exits, something unsupported, a counter past the limit)."""
        seen: set = set()
        new.objs, new.chans = Tracked(new.objs, seen), Tracked(new.chans, seen)
        try:
            action(new)
        except ProgramExit as e:
            if e.violation is not None:
                return Succ(steps, moved, violation=e.violation)
            return Succ(steps, moved, exit=e.why)
        except Unsupported as e:
            self.unsupported[(e.what, e.line)] = None
            return Succ(steps, moved, exit="unsupported")
        except TooLarge:
            self.too_large = True
            return Succ(steps, moved, exit="too large")
        new.objs, new.chans = dict(new.objs), dict(new.chans)
        return Succ(steps, moved, state=new, touched=frozenset(seen))

    def _plain_receivers(self, st: State, closer: int, ch: Value) -> list[int]:
        """The goroutines blocked in a plain receive (not a select) from `ch`, which goroutine
        `closer` is about to close with nothing buffered. Their receives wake within the
        close's step. Once `ch` is closed and empty, such a receive can neither be disabled
        nor be told apart from later (Machine._release, Lipton's left movers), so the step
        that closes it may take it too; every order in which the waiters would wake is then
        one state."""
        out = []
        for g in st.gs:
            if g.gid == closer or g.daemon or not g.frames or g.frames[-1].unwinding:
                continue
            if g.frames[-1].instr.op != "UnOp":
                continue
            p = self.m.pending(st, g.gid)
            if p is not None and p.kind == "comm" and not p.select and p.cases[0].chan == ch:
                out.append(g.gid)
        return out

    def _cannot(self, gid: int, line: int, what: str) -> list[Succ]:
        """Goroutine `gid`'s step, which the checker cannot follow (`what`): noted, and
        the path ends there. The goroutine is not taken as blocked, as it would be with no
        step at all: a Lock of a mutex picked by a hash is no deadlock."""
        self.unsupported[(what, line)] = None
        return [Succ((), frozenset({gid}), exit="unsupported")]

    def _violation(self, st: State, gid: int, step: Step, why: str) -> Succ:
        """A step that panics (or is a fatal error): a violation, unless a call deferred
        by the goroutine may `recover`; then its frames unwind, and the violation stands
        only if the panic reaches the goroutine's first frame."""
        if why not in RECOVERABLE or not self.m.can_recover(st.gs[gid]):
            return Succ((step,), frozenset({gid}), violation=why)
        return self._panics(st, gid, step, why)

    def _panics(self, st: State, gid: int, step: Step, why: str) -> Succ:
        """Goroutine `gid`'s pending call panics with `why`, and its frames unwind."""

        def unwind(s: State) -> None:
            self.m.panic_at_pending(s, gid, why)
            self.m.run(s, gid)

        return self._guarded((step,), frozenset({gid}), st.copy(), unwind)

    def _repanic(self, st: State, gid: int, step: Step, why: str) -> list[Succ]:
        """Goroutine `gid` panics with `why` at its pending call (a function of
        sync.OnceFunc's whose first call panicked): a violation if `why` is one and nothing
        recovers it, the program's end if it is not, else its frames unwind."""
        if why in RECOVERABLE:
            return [self._violation(st, gid, step, why)]
        if not self.m.can_recover(st.gs[gid]):
            return [Succ((step,), frozenset({gid}), exit="exit")]
        return [self._panics(st, gid, step, why)]

    def _apply(self, st: State, pend: dict[int, Pending | None],
               parts: list[tuple[int, int, Value, bool]], ch: Value,
               buf: tuple | None, closed: bool | None, steps: tuple[Step, ...]) -> Succ:
        """The state after goroutines `parts` complete their communication cases."""
        new = st.copy()
        if ch is not None:
            cap = new.chans[ch[1]][0]
            new.chans[ch[1]] = (cap, buf, closed)

        def complete(s: State) -> None:
            for gid, ci, value, ok in parts:
                p = pend[gid]
                if p.select:
                    recv_vals = [value if j == ci else zero(c.elem)
                                 for j, c in enumerate(p.cases) if c.dir == "recv"]
                    result = ("tuple", (ci, ok, *recv_vals))
                elif p.cases[0].dir == "recv":
                    result = received(value, ok, p.cases[0].elem, p.commaok)
                else:
                    result = None
                self.m.complete(s, gid, result)

        return self._guarded(steps, frozenset(gid for gid, *_ in parts), new, complete)

    def _other(self, st: State, gid: int, p: Pending) -> list[Succ]:
        g = st.gs[gid]
        who = g.label
        where = _file(st, gid)
        m = self.m

        def go(text: str, change=None, result: Value = None, *, then=None) -> Succ:
            def act(s: State) -> None:
                if change is not None:
                    change(s)
                if then is None:
                    m.complete(s, gid, result)
                else:
                    then(s)

            return self._guarded((Step(who, p.line, text, where),), frozenset({gid}), st.copy(),
                                 act)

        def bad(text: str, why: str) -> list[Succ]:
            return [self._violation(st, gid, Step(who, p.line, text, where), why)]

        kind = p.kind
        if kind == "choice":
            # On a counter past INT_LIMIT (p.arg2): the way a run of the program takes
            # depends on how far past, which the checker no longer knows.
            text = "branch {}taken" + (f" (a counter past {INT_LIMIT})" if p.arg2 else "")
            return [go(text.format("" if which else "not "),
                       then=lambda s, which=which: self._branch(s, gid, which, p.arg2))
                    for which in p.arg]
        if kind == "value":
            return [go(f"{p.arg2} is {n} (a length or index the input decides)",
                       then=lambda s, n=n: self._valued(s, gid, n))
                    for n in p.arg]
        if kind == "ctx_err":
            closed = st.chans[p.arg[1]][2]
            return [go(f"ctx.Err() is {'an error' if closed else 'nil'}",
                       result=ctx_err(closed))]
        if kind == "cpus":
            parallel = st.gs[gid].frames[-1].instr.x.get("static") == PARALLEL_METHOD
            return [go(f"the run has {n} CPU{'s' if n > 1 else ''}"
                       + (f": go test -parallel {n}" if parallel else ""),
                       then=lambda s, n=n: self._with_cpus(s, gid, n))
                    for n in p.arg]
        if kind == "order":
            return [go(f"range over a map in the order {_keys(keys)}",
                       then=lambda s, keys=keys: self._ordered(s, gid, keys))
                    for keys in p.arg]
        if kind == "test_main_exit":
            return [go("os.Exit: the test binary ends here",
                       then=lambda s: self.m.end_test_main(s))]
        if kind == "exit":
            if p.arg in RECOVERABLE:  # a runtime error recovered, panicked with again
                return bad(f"panic with the {p.arg} recovered earlier", p.arg)
            return [Succ((Step(who, p.line, "the program exits (panic or exit)", where),),
                          frozenset({gid}), exit="exit")]
        if kind in ("close", "cancel"):
            ch = p.arg
            if ch == NIL:
                if kind == "cancel":
                    return [go("cancel")]
                return bad("close of a nil channel", "close of nil channel")
            if not (isinstance(ch, tuple) and ch[0] == "chan"):
                return self._cannot(gid, p.line, "close of a channel the checker cannot tell")
            cap, buf, closed = st.chans[ch[1]]
            name = _chan_name(st, ch)
            if closed:
                if kind == "cancel":
                    return [go(f"cancel (already cancelled: {name})")]
                return bad(f"close of closed {name}", "close of closed channel")

            # What closed a context's done channel stays in its `closed`: its Err says so
            # (calls.ctx_err). A parent's cancel passes on the parent's cause.
            cause: Value = True
            if kind == "cancel" and p.arg2 == DEADLINE_CAUSE:
                cause = DEADLINE_CAUSE
            elif kind == "cancel" and isinstance(p.arg2, tuple) and p.arg2[0] == "from":
                cause = st.chans[p.arg2[1][1]][2] or True

            def close(s: State) -> None:
                s.chans[ch[1]] = (cap, buf, cause)
                m.retire_cancellers(s, ch, but=gid)

            text = f"{'cancel: close' if kind == 'cancel' else 'close'} {name}"
            waiters = self._plain_receivers(st, gid, ch) if self.reduce and not buf else []
            if not waiters:
                return [go(text, close)]

            def close_and_wake(s: State) -> None:
                close(s)
                m.complete(s, gid, None)
                for w in waiters:  # each takes its receive at once now (Machine._release)
                    m.run(s, w)

            steps = (Step(who, p.line, text, where),
                     *(Step(st.gs[w].label, line_of(st.gs[w]),
                            f"receives from closed {name}: woken by the close", _file(st, w))
                       for w in waiters))
            return [self._guarded(steps, frozenset({gid, *waiters}), st.copy(), close_and_wake)]
        if kind == "atomic":
            name = p.arg
            text = name.replace("sync/atomic.", "atomic.").replace("(*sync.Map).", "sync.Map.")
            if name == "(*sync.Map).Range":
                try:
                    orders = m.sync_map_orders(st, p.arg2[0], p.line)
                except Unsupported:
                    # Raised again in the step, whose path then ends as unsupported.
                    return [go(text, then=lambda s: m.sync_map_orders(s, p.arg2[0], p.line))]
                return [go(f"{text} in the order {_keys(keys)}" if len(orders) > 1 else text,
                           then=lambda s, keys=keys: m.sync_map_range(s, gid, p.arg2, keys,
                                                                      p.line))
                        for keys in orders]
            return [go(text, then=lambda s: m.complete(s, gid, m.atomic(s, name, list(p.arg2),
                                                                        p.line)))]
        if kind == "fire":
            return [go("fires: its function starts", then=lambda s: m.fire(s, gid))]
        if kind == "yield":
            what = "time.Sleep" if p.arg2 == "time.Sleep" else "runtime.Gosched"
            return [go(f"{what}: the other goroutines may run",
                       then=lambda s: m.complete(s, gid, ("tuple", ())))]
        if kind == "bubble_wait":
            return [go("returns: the bubble's other goroutines are all blocked",
                       then=lambda s: m.complete(s, gid, ("tuple", ())))]
        if kind == "afterfunc_stop":
            return [go("context.AfterFunc's stop",
                       then=lambda s: m.complete(s, gid, m.stop_after_func(s, p.arg)))]
        if kind.startswith("pull_"):
            return self._pull(st, gid, p, go)
        # The sync objects: the operand is a pointer to where the object lives.
        addr = p.arg
        if not (isinstance(addr, tuple) and addr[0] == "addr"):
            if addr == NIL:
                return bad(f"{describe(st, p)} on a nil pointer", "nil sync object")
            return self._cannot(gid, p.line, "a sync object the checker cannot follow")
        obj = m.load(st, addr, p.line, "other")

        def put(v: Value):
            return lambda s: m.store(s, addr, v, p.line)

        if kind in TIMER_OPS:
            return [go(describe(st, p),
                       then=lambda s: m.complete(s, gid, m.timer_op(s, kind, obj, p.line)))]
        if kind in ("wg_add", "wg_wait", "wg_go"):
            if not (isinstance(obj, tuple) and obj[0] == "wg"):
                return self._cannot(gid, p.line, "a WaitGroup the checker cannot follow")
            n = obj[1]
            if kind == "wg_wait":
                return [go("WaitGroup.Wait returns")] if n == 0 else []
            if kind == "wg_go":
                f = p.arg2
                return [go("WaitGroup.Go", put(("wg", n + 1)),
                           then=lambda s: (m.complete(s, gid, None, run=False),
                                           m.spawn_fn(s, f, p.line, (("wg_done", addr),)),
                                           m.run(s, gid)))]
            d = p.arg2
            if not isinstance(d, int) or isinstance(d, bool) or is_unknown(d):
                return self._cannot(gid, p.line,
                                    "WaitGroup.Add with a count the checker cannot tell")
            if n + d < 0:
                return bad("WaitGroup counter goes negative", "negative WaitGroup counter")
            text = "WaitGroup.Done" if d == -1 else f"WaitGroup.Add({d})"
            return [go(text, put(("wg", n + d)))]
        if kind in ("once", "oncefunc"):
            # ("once", 0) not run; ("once", 1, runner, depth, repanics) its function
            # running in goroutine `runner` called at frame depth `depth`; ("once", 2)
            # done; ("once", 3, why) its function panicked with `why`, which what
            # sync.OnceFunc and OnceValue(s) return panic with again at every call
            # (`repanics`), where a plain Once is done. Another call — in another goroutine,
            # or inside the function itself — waits until done. What sync.OnceValue(s)
            # return keep the function's results last: ("once", 1, runner, depth, True,
            # results) once it returned, ("once", 2, results).
            if not (isinstance(obj, tuple) and obj[0] == "once"):
                return self._cannot(gid, p.line, "a sync.Once the checker cannot follow")
            depth = len(g.frames)
            what = "Once.Do" if kind == "once" else "sync.OnceFunc's function"
            if obj[1] == 2:
                return [go(f"{what} (already done)", None, obj[2] if len(obj) > 2 else None)]
            if obj[1] == 3:
                return self._repanic(st, gid, Step(who, p.line, f"{what} panics again", where),
                                     obj[2])
            if obj[1] == 1:
                if obj[2] == gid and obj[3] == depth:
                    if kind == "once":
                        return [go("Once.Do's function returned", put(("once", 2)))]
                    value = obj[5] if len(obj) > 5 else None
                    return [go(f"{what} returned", put(("once", 2, value)), value)]
                return []
            f = p.arg2
            result_to = addr if kind == "oncefunc" else None
            runs = "Once.Do runs its function" if kind == "once" else f"{what} runs"
            return [go(runs, put(("once", 1, gid, depth, kind == "oncefunc")),
                       then=lambda s: m.call_in(s, gid, f, p.line, result_to))]
        if kind.startswith("cond_"):
            return self._cond(st, gid, p, addr, obj, go, bad)
        if not (isinstance(obj, tuple) and obj[0] in ("mu", "rw")):
            return self._cannot(gid, p.line, "a mutex the checker cannot follow")
        if obj[0] == "mu":
            locked = obj[1]
            if kind in ("lock", "trylock"):
                if not locked:
                    return [go("Lock" if kind == "lock" else "TryLock succeeds",
                               put(("mu", True)), True if kind == "trylock" else None)]
                return [go("TryLock fails", None, False)] if kind == "trylock" else []
            if kind == "unlock":
                if not locked:
                    return bad("Unlock of an unlocked mutex", "unlock of unlocked mutex")
                return [go("Unlock", put(("mu", False)))]
            return self._cannot(gid, p.line, f"{kind} on a sync.Mutex")
        # ("rw", writer holds it, readers, pending writer's goroutine or -1). A writer
        # that finds readers announces itself and waits for them to leave; from then on
        # new readers wait for it (Go's RWMutex prefers writers), which is how a
        # recursive RLock deadlocks against a Lock.
        _, writer, readers, pending = obj
        if kind == "lock":
            if pending == gid:
                if readers == 0 and not writer:
                    return [go("Lock (the readers have left)", put(("rw", True, 0, -1)))]
                return []
            if pending != -1 or writer:
                return []
            if readers == 0:
                return [go("Lock", put(("rw", True, 0, -1)))]
            return [go(f"Lock waits for {readers} reader(s); new readers now wait",
                       put(("rw", False, readers, gid)), then=lambda s: None)]
        if kind == "trylock":
            if not writer and readers == 0 and pending == -1:
                return [go("TryLock succeeds", put(("rw", True, 0, -1)), True)]
            return [go("TryLock fails", None, False)]
        if kind == "unlock":
            if not writer:
                return bad("Unlock of an unlocked RWMutex", "unlock of unlocked mutex")
            return [go("Unlock", put(("rw", False, readers, pending)))]
        if kind == "rlock":
            if writer or pending != -1:
                return []
            return [go("RLock", put(("rw", False, readers + 1, -1)))]
        if kind == "tryrlock":
            if not writer and pending == -1:
                return [go("TryRLock succeeds", put(("rw", False, readers + 1, -1)), True)]
            return [go("TryRLock fails", None, False)]
        if kind == "runlock":
            if readers == 0:
                return bad("RUnlock without RLock", "RUnlock of unlocked RWMutex")
            return [go("RUnlock", put(("rw", writer, readers - 1, pending)))]
        raise AssertionError(kind)

    def _cond(self, st: State, gid: int, p: Pending, addr: Value, obj: Value, go,
              bad) -> list[Succ]:
        """sync.Cond: Wait unlocks L and sleeps until a Signal or Broadcast wakes it, then
        locks L again before it returns."""
        m = self.m
        if not (isinstance(obj, tuple) and obj[0] == "cond"):
            return self._cannot(gid, p.line, "a sync.Cond the checker cannot follow")
        _, locker, waiting, woken = obj
        lock_addr = locker[2] if isinstance(locker, tuple) and locker[0] == "iface" else locker
        if not (isinstance(lock_addr, tuple) and lock_addr[0] == "addr"):
            return self._cannot(gid, p.line,
                                "a sync.Cond whose Locker the checker cannot follow")
        lock = m.load(st, lock_addr, p.line, "other")
        if not (isinstance(lock, tuple) and lock[0] in ("mu", "rw")):
            return self._cannot(gid, p.line, "a sync.Cond whose Locker is not a Mutex")
        if locker[:2] == ("iface", "*sync.rlocker"):  # L is an RWMutex's RLocker()
            _, writer, readers, pending = lock
            holds = readers > 0
            relock = None if writer or pending != -1 else ("rw", False, readers + 1, -1)
            release = ("rw", writer, readers - 1, pending)
        elif lock[0] == "rw":
            holds = lock[1]
            relock = ("rw", True, 0, -1) if lock == ("rw", False, 0, -1) else None
            release = ("rw", False, lock[2], lock[3])
        else:
            holds = lock[1]
            relock = None if lock[1] else ("mu", True)
            release = ("mu", False)

        def put(*changes):
            def change(s: State) -> None:
                for a, v in changes:
                    m.store(s, a, v, p.line)
            return change

        if p.kind == "cond_wait":
            if gid in woken:
                if relock is None:
                    return []
                return [go("Cond.Wait wakes and locks L",
                           put((addr, ("cond", locker, waiting, tuple(x for x in woken
                                                                     if x != gid))),
                               (lock_addr, relock)))]
            if gid in waiting:
                return []
            if not holds:
                return bad("Cond.Wait without holding L", "unlock of unlocked mutex")
            return [go("Cond.Wait unlocks L and sleeps",
                       put((addr, ("cond", locker, waiting + (gid,), woken)),
                           (lock_addr, release)),
                       then=lambda s: None)]
        if not waiting:
            return [go(f"Cond.{'Signal' if p.kind == 'cond_signal' else 'Broadcast'} "
                       "(nobody waits)")]
        if p.kind == "cond_broadcast":
            return [go("Cond.Broadcast", put((addr, ("cond", locker, (), woken + waiting))))]
        return [go(f"Cond.Signal wakes {st.gs[w].label}",
                   put((addr, ("cond", locker, tuple(x for x in waiting if x != w),
                               woken + (w,)))))
                for w in waiting]

    def _pull(self, st: State, gid: int, p: Pending, go) -> list[Succ]:
        """iter.Pull's next and stop, the yield its sequence calls, and the sequence's end,
        as Go's coroutine switches run them: one of the caller and the sequence runs at a
        time. Its object is ("pull", stage, waiter, outbox, resume): stage "new" (not
        started), "running" (the sequence runs while `waiter`, the goroutine in next or
        stop, waits for `outbox`: what next returns, "end" once the sequence returned),
        "parked" (the sequence waits in yield for `resume`, what yield returns), "stopping"
        (stop resumed it with false: a yield returns false at once from then on), "done"."""
        m = self.m
        addr = p.arg if p.kind == "pull_end" else p.arg[2]
        _tag, stage, waiter, outbox, resume = m.load(st, addr, p.line, "other")

        def put(*fields):
            return lambda s: m.store(s, addr, ("pull", *fields), p.line)

        def wait(s: State) -> None:  # the step leaves the goroutine at its call
            return None

        if p.kind == "pull_end":
            return [go("iter.Pull's sequence returns", put("done", waiter, "end", None),
                       then=lambda s: m.complete(s, gid, run=False))]
        if p.kind == "pull_yield":
            values = p.arg2[0]
            if stage == "running" and resume is None:
                return [go("yield hands its value to next and waits",
                           put("parked", waiter, ("tuple", (*values, True)), None), then=wait)]
            if stage == "running":
                return [go("yield returns true", put("running", waiter, None, None), True)]
            if stage == "stopping":
                return [go("yield returns false", put("stopping", waiter, None, None), False)]
            if stage == "parked":
                return []
            return self._cannot(gid, p.line, "a yield of iter.Pull's sequence called outside "
                                             "the sequence")
        seq, line = p.arg[3], p.arg[4]
        name = "next" if p.kind == "pull_next" else "stop"
        if waiter == gid:
            if outbox is None:
                return []
            if p.kind == "pull_stop":
                return [go("stop returns: the sequence has returned",
                           put("done", None, None, None))]
            if outbox == "end":
                return [go("next returns: the sequence is over", put("done", None, None, None),
                           zero(p.arg2[1]))]
            return [go("next returns the value yielded", put(stage, None, None, None), outbox)]
        if waiter is not None or stage in ("running", "stopping"):
            return self._cannot(gid, p.line, f"iter.Pull's {name} called while its sequence "
                                             "runs for another call")
        if stage == "done":
            if p.kind == "pull_stop":
                return [go("stop (the sequence is over)")]
            return [go("next: the sequence is over", result=zero(p.arg2[1]))]
        if stage == "new":
            if p.kind == "pull_stop":
                return [go("stop before any next", put("done", None, None, None))]
            return [go("next starts the sequence", put("running", gid, None, None),
                       then=lambda s: m.pull_started(s, addr, seq, line))]
        if p.kind == "pull_stop":
            return [go("stop resumes the sequence (its yield returns false)",
                       put("stopping", gid, None, False), then=wait)]
        return [go("next resumes the sequence", put("running", gid, None, True), then=wait)]

    def _branch(self, st: State, gid: int, which: bool, approximate: bool = False) -> None:
        if approximate:
            st.objs[APPROXIMATE] = True
            self.approximated = True
        self.m.take_branch(st, gid, which)
        self.m.run(st, gid)

    def findings_for(self, st: State, found: dict[str, Finding]) -> dict[str, Finding]:
        """Where a finding at `st` goes: among the found, or aside when `st` lies on an
        approximate path (a branch on a counter past INT_LIMIT went a way the checker could
        not tell; Machine.approximate). Such a path is a superset of what runs do: with
        nothing found on any path, "ok" is sound, but what it alone reaches may be a run
        that leaves a loop of 100,000 rounds after 2,000, which no run does."""
        return self.approximate_found if APPROXIMATE in st.objs else found

    def _valued(self, st: State, gid: int, n: int) -> None:
        self.m.take_value(st, gid, n)
        self.m.run(st, gid)

    def _with_cpus(self, st: State, gid: int, n: int) -> None:
        self.m.take_cpus(st, n)
        self.m.run(st, gid)

    def _ordered(self, st: State, gid: int, keys: tuple) -> None:
        self.m.take_order(st, gid, keys)
        self.m.run(st, gid)

    # --- the search

    def idle(self, st: State, gid: int) -> bool:
        """Whether goroutine `gid` has ended, is a daemon (a timer), or is an iter.Pull
        sequence parked in its yield: none of these is blocked for ever (Go's leak profile
        does not count a Pull whose stop was never called)."""
        g = st.gs[gid]
        if g.done or g.daemon:
            return True
        if not g.label.startswith(f"g{gid} (iter.Pull's"):
            return False
        p = self.m.pending(st, gid)
        return p is not None and p.kind == "pull_yield" and \
            st.objs[p.arg[2][1]][1] == "parked"

    def waits_on_globals(self, st: State, gid: int, shared: set) -> bool:
        """Whether goroutine `gid` waits on a channel or sync object that package variables
        still reach (`shared`, por.Reach's), once main has returned: an idle server ranging
        over a package-level channel. Go's leak profile does not count it (a GC root still
        holds what it waits for, and through its queue the goroutine; one channel of a
        select is enough), and this corpus confirms leaks with that profile; a goroutine
        waiting on what only main's frame or other blocked goroutines held is leaked. Not in
        a test file: goleak, which tests use, counts every goroutine still there."""
        p = self.m.pending(st, gid)
        if p is None:
            return False
        footprint = static_footprint(p) - {EVERYTHING}
        return not footprint.isdisjoint(shared)

    def stuck(self, st: State) -> tuple[Step, ...]:
        out = []
        for gid, g in enumerate(st.gs):
            if self.idle(st, gid):
                continue
            p = self.m.pending(st, gid)
            out.append(Step(g.label, p.line if p else 0,
                            f"blocked: {describe(st, p)}" if p else "finished",
                            _file(st, gid) if p else ""))
        return tuple(out)

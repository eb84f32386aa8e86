"""One state of a Go program's abstract run: its goroutines and their frames, channels
and objects, and the key that identifies it (with symmetry: `State.canon`); and what a
goroutine waits to do (`Pending`). `machine.Machine` moves goroutines inside a state,
`explore` searches the states.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from generator.gocheck import numeric as N
from generator.gocheck import timevalues as TV
from generator.gocheck import values as V
from generator.gocheck.ssa import Function, Instr
from generator.gocheck.values import Value


class ProgramExit(Exception):
    """The whole program ends here (os.Exit, a panic, log.Fatal)."""

    def __init__(self, why: str, line: int, violation: str | None = None) -> None:
        super().__init__(why)
        self.why = why
        self.line = line
        # A channel-safety panic that no deferred recover stopped: still a violation.
        self.violation = violation


# What `recover()` returns while a panic unwinds: some non-nil value of a type unknown,
# ("iface", "?panic", why), which says why (`panic_why`): a runtime error recovered and
# later panicked with again (conc's WaitGroup re-raises its tasks' panics in Wait) is the
# violation it was, if nothing recovers it the second time.
PANIC_VALUE = ("iface", "?panic")


@dataclass
class Frame:
    fn: Function
    block: int
    pc: int
    regs: dict[str, Value]
    params: tuple
    free: tuple
    defers: tuple = ()
    ret: str | None = None
    # A panic unwinds this frame: its deferred calls run, then it returns to its caller
    # still panicking, or goes on at its recover block when one of them recovered.
    unwinding: bool = False
    # Called as a deferred call while a panic unwound: `recover()` here stops the panic.
    recovers: bool = False

    def key(self) -> tuple:
        return (self.fn.name, self.block, self.pc, tuple(sorted(self.regs.items())),
                self.params, self.free, self.defers, self.ret, self.unwinding, self.recovers)

    def copy(self) -> Frame:
        return Frame(self.fn, self.block, self.pc, dict(self.regs), self.params, self.free,
                     self.defers, self.ret, self.unwinding, self.recovers)

    def live(self) -> frozenset[str] | set[str]:
        """The registers still to be read; all of them while unwinding, since the recover
        block reads the named results wherever the panic struck."""
        if self.unwinding:
            return set(self.regs)
        return self.fn.live_at(self.block, self.pc)

    @property
    def instr(self) -> Instr:
        return self.fn.blocks[self.block].instrs[self.pc]


@dataclass
class G:
    """A goroutine: its call stack, then what it does after its last frame returns."""

    gid: int
    frames: list[Frame]
    label: str
    tail: tuple = ()
    daemon: bool = False
    # The panics unwinding its frames, oldest first: (what, depth of the frame it has
    # reached). A panic raised inside a deferred call of an unwinding frame sits on top.
    panic: tuple = ()

    @property
    def done(self) -> bool:
        return not self.frames and not self.tail

    def key(self) -> tuple:
        return (tuple(f.key() for f in self.frames), self.tail, self.panic)

    def copy(self) -> G:
        return G(self.gid, [f.copy() for f in self.frames], self.label, self.tail, self.daemon,
                 self.panic)


@dataclass
class Chan:
    cap: int
    buf: tuple = ()
    closed: bool = False


def named(st: State, v: Value, type_class: str) -> Value:
    """An instruction's result: an integer the checker does not know gets a name of its
    own, so that what a branch learns of it holds wherever it was copied
    (`Machine._narrow`)."""
    if type(v) is tuple and v[:1] == ("?",) and len(v) in (1, 3) and \
            type_class in ("int", "time.Duration"):
        return N.named(v, st.fresh())
    return v


def _place(g: G) -> tuple:
    """What orders goroutines in a state's key: main first, then where each is and the
    plain data its frames hold (a reference counts by its kind only: its number depends
    on the order being made), then the goroutine's id."""

    def plain(v: Value) -> str:
        return repr(v) if type(v) is not tuple else v[0]

    return (g.gid != 0, tuple((f.fn.name, f.block, f.pc, f.unwinding,
                               tuple((k, plain(f.regs[k]))
                                     for k in (sorted(f.regs) if f.unwinding else
                                               f.fn.key_plan(f.block, f.pc)[0])
                                     if k in f.regs))
                              for f in g.frames), repr(g.tail), g.gid)


@dataclass
class State:
    gs: list[G]
    objs: dict[Any, Value] = field(default_factory=dict)
    chans: dict[int, tuple] = field(default_factory=dict)
    next_id: int = 1
    chan_lines: dict[int, int] = field(default_factory=dict)
    # Comparisons of two unknown integers that branches found to hold (`add_fact`): a
    # range keeps only bounds, and `if lo > hi { lo, hi = hi, lo }` says how two relate.
    # What a branch reveals is a fact of the input, whichever goroutine reveals it first,
    # so reading them is no step's footprint (por): the order they are learnt in changes
    # nothing.
    facts: tuple = ()

    def key(self) -> tuple:
        return self.canon()[0]

    def canon(self, symmetry: bool = True) -> tuple[tuple, tuple[int, ...]]:
        """The state's key and its goroutines' order (`_canon`)."""
        key = self._canon(symmetry, True)
        # A time offset the checker does not know is relative to its reading's start, as
        # the known ones are before they are shifted: then none is shifted.
        return key if key is not None else self._canon(symmetry, False)  # type: ignore[return-value]

    def _canon(self, symmetry: bool, shifting: bool) -> tuple[tuple, tuple[int, ...]] | None:
        """The state up to renaming of objects, channels and goroutines, unreachable ones
        left out; and the goroutines' ids in the order the key lists them.

        Objects and channels get numbers in the order a walk from the goroutines and the
        globals meets them, so two runs that allocated in different orders, or a loop that
        allocates each time round (a varargs array for fmt.Println), reach equal keys.
        Goroutines are listed by where they are and the plain data they hold, not by id
        (ties keep the order of their ids), so two states that differ only in which of
        two alike workers holds which job meet at one key (symmetry reduction); a
        goroutine named inside a sync object (a Once's runner, a writer waiting on an
        RWMutex, a Cond's waiters) is named by its place in that order. Without
        `symmetry` they are listed by id.
        """
        objs: dict[Any, int] = {}
        chans: dict[int, int] = {}
        obj_vals: list = []
        chan_vals: list = []
        pos: dict[int, int] = {}
        names: dict[int, int] = {}
        # time.Time bases as met, and the first offset: what a key keeps of times is the
        # bases' order and the differences between offsets (`timevalues`).
        bases: dict[int, int] = {}
        shifts: dict[str, int] = {}

        def ren(v: Any) -> Any:
            if type(v) is not tuple or not v:
                return v
            tag = v[0]
            if tag == "chan":
                n = chans.get(v[1])
                if n is None:
                    n = chans[v[1]] = len(chans)
                    chan_vals.append(None)
                    cap, buf, closed = self.chans[v[1]]
                    chan_vals[n] = (cap, ren_all(buf), closed)
                return ("chan", n)
            if tag in ("addr", "slice", "map", "iter") and v[1] is not None:
                oid = v[1]
                n = objs.get(oid)
                if n is None:
                    n = objs[oid] = len(objs)
                    obj_vals.append(None)
                    obj_vals[n] = ren(self.objs.get(oid))
                if tag == "iter":
                    return (tag, n, ren_all(v[2]))
                return (tag, n) + v[2:]
            if tag == "time" and v[1] != TV.ZERO:
                bases.setdefault(v[1], len(bases))
                if type(v[2]) is not int:
                    shifts["unknown"] = 0
                    return ("time", bases[v[1]], ren(v[2]))
                return ("time", bases[v[1]],
                        v[2] - shifts.setdefault("time", v[2]) if shifting else v[2])
            if tag in ("?", "nil"):
                if len(v) == 5:  # an unknown integer's name, numbered as met
                    return (*v[:3], names.setdefault(v[3], len(names)), v[4])
                return v
            if tag == "once" and v[1] == 1:
                return ("once", 1, pos.get(v[2], -2), *v[3:5], *(ren(x) for x in v[5:]))
            if tag == "pull" and v[2] is not None:  # who waits in iter.Pull's next or stop
                return ("pull", v[1], pos.get(v[2], -2), ren(v[3]), v[4])
            if tag == "rw":
                return ("rw", v[1], v[2], pos.get(v[3], -2) if v[3] != -1 else -1)
            if tag == "cond":
                return ("cond", ren(v[1]), tuple(sorted(pos.get(x, -2) for x in v[2])),
                        tuple(sorted(pos.get(x, -2) for x in v[3])))
            return V.map_children(v, ren)

        def ren_all(vs: tuple) -> tuple:
            return tuple(ren(v) for v in vs)

        def ren_defers(defers: tuple) -> tuple:
            return tuple((ren(callee), ren_all(args), static, line)
                         for callee, args, static, line in defers)

        def fkey(f: Frame) -> tuple:
            regs = f.regs
            if f.unwinding:  # every register and parameter counts (`Frame.live`)
                return (f.fn.name, f.block, f.pc, tuple((k, ren(regs[k])) for k in sorted(regs)),
                        ren_all(f.params), ren_all(f.free), ren_defers(f.defers), ren(f.ret),
                        True, f.recovers)
            live, params, free = f.fn.key_plan(f.block, f.pc)
            return (f.fn.name, f.block, f.pc,
                    tuple((k, ren(regs[k])) for k in live if k in regs),
                    tuple(ren(v) if i in params else None for i, v in enumerate(f.params)),
                    tuple(ren(v) if i in free else None for i, v in enumerate(f.free)),
                    ren_defers(f.defers), ren(f.ret), False, f.recovers)

        def gkey(g: G) -> tuple:
            return (tuple(fkey(f) for f in g.frames), ren_all(g.tail), g.gid == 0, g.panic)

        # A timer or context daemon matters only while someone can still reach its
        # channels: a time.After in a loop that the other case won leaves one behind each
        # round, and those must not make the rounds' states differ.
        def reachable(g: G) -> bool:
            if any(op[0] == "fire" for op in g.tail):
                return True  # an AfterFunc runs its function whoever holds the timer
            return all(x[1] in chans for op in g.tail for x in op[1:]
                       if isinstance(x, tuple) and x[:1] == ("chan",))

        order = [g for g in self.gs if not g.daemon and (g.frames or g.tail)]
        if symmetry:
            order.sort(key=_place)
        for n, g in enumerate(order):
            pos[g.gid] = n
        gkeys = [gkey(g) for g in order]
        globs = tuple((k, ren(v)) for k, v in sorted(
            (k, v) for k, v in self.objs.items() if isinstance(k, str)))
        for g in self.gs:
            if g.daemon and g.tail and reachable(g):
                gkeys.append(gkey(g))
                order.append(g)
        if shifting and "unknown" in shifts and shifts.get("time"):
            return None
        timeline = tuple(bases[b] for b in sorted(bases))
        key = (tuple(gkeys), globs, tuple(obj_vals), tuple(chan_vals), timeline)
        # A fact on a number nothing holds any more can decide nothing: left out, states
        # that differ only in such facts meet.
        facts = tuple(ren(f) for f in self.facts if all(
            n is None or n in names for n in (N.name_of(f[2]), N.name_of(f[3]))))
        return (key + (facts,) if facts else key), tuple(g.gid for g in order)

    def copy(self) -> State:
        return State([g.copy() for g in self.gs], dict(self.objs), dict(self.chans),
                     self.next_id, self.chan_lines, self.facts)

    def add_fact(self, cmp: tuple) -> None:
        """Comparison `cmp` of two named integers holds (a branch went its way); of one
        and a number, ranges hold it (`numeric.learnt`), unless it is `!=` (below)."""
        if N.difference(cmp) is not None and cmp not in self.facts:
            self.facts = (*self.facts, cmp)

    def substitute(self, name: int, k: int, new: Value) -> None:
        """A branch learnt that the unknown integer called `name`, plus `k`, is `new`:
        every copy of it, whatever its offset, is the same number."""

        def sub(v: Any) -> Any:
            if type(v) is not tuple or not v:
                return v
            if v[0] == "?":
                return N.rebased(v, k, new) if len(v) == 5 and v[3] == name else v
            return V.map_children(v, sub)

        for g in self.gs:
            for f in g.frames:
                f.regs = {reg: sub(v) for reg, v in f.regs.items()}
                f.params, f.free = tuple(map(sub, f.params)), tuple(map(sub, f.free))
                f.defers = tuple((sub(callee), tuple(map(sub, args)), static, line)
                                 for callee, args, static, line in f.defers)
            g.tail = tuple(map(sub, g.tail))
        self.objs = {oid: sub(v) for oid, v in self.objs.items()}
        self.chans = {cid: (cap, tuple(map(sub, buf)), closed)
                      for cid, (cap, buf, closed) in self.chans.items()}
        if self.facts:
            self._settle_facts(tuple(map(sub, self.facts)))

    def _settle_facts(self, facts: tuple) -> None:
        """Facts after a substitution: one now known to hold goes, and one that now
        compares a name with a number narrows that name's range everywhere instead."""
        self.facts = ()
        narrowed = []
        for fact in facts:
            if N.difference(fact) is not None:
                self.facts = (*self.facts, fact)
                continue
            now = N.decided(fact)
            if N.is_comparison(now):
                narrowed.append(now)
                if now[1] == "!=":  # a range cannot leave out a number inside it
                    self.facts = (*self.facts, now)
        for fact in narrowed:
            for name, k, new in N.learnt(fact, True):
                self.substitute(name, k, new)

    def fresh(self) -> int:
        n = self.next_id
        self.next_id += 1
        return n

    def new_chan(self, cap: int, line: int, name: str = "") -> Value:
        cid = self.fresh()
        self.chans[cid] = (cap, (), False)
        self.chan_lines = {**self.chan_lines, cid: (line, name)}
        return ("chan", cid)

    def new_obj(self, value: Value) -> Value:
        oid = self.fresh()
        self.objs[oid] = value
        return ("addr", oid, ())

    def spawn(self, frames: list[Frame], label: str, *, tail: tuple = (),
              daemon: bool = False) -> None:
        self.gs.append(G(len(self.gs), frames, label, tail, daemon))


# ---------------------------------------------------------------- pending operations


@dataclass(frozen=True)
class Case:
    dir: str  # "send" | "recv"
    chan: Value
    value: Value = None
    elem: str = ""


@dataclass(frozen=True)
class Pending:
    """What a stopped goroutine waits to do next."""

    kind: str  # comm | close | cancel | wg_add | wg_wait | wg_go | lock | unlock | rlock
    #          | runlock | trylock | tryrlock | once | choice | order | cpus | ctx_err
    #          | exit | pull_next | pull_stop | pull_yield | pull_end (iter.Pull's)
    line: int
    cases: tuple[Case, ...] = ()
    blocking: bool = True
    select: bool = False
    commaok: bool = False
    arg: Value = None
    arg2: Value = None
    repeat: bool = False  # a ticker's send, never used up


def received(value: Value, ok: bool, elem: str, commaok: bool) -> Value:
    """What a plain receive gives: the value, or the element's zero from a closed channel,
    with `ok` where the receive asks for it (`v, ok := <-ch`)."""
    v = value if ok else V.zero(elem)
    return ("tuple", (v, ok)) if commaok else v


def line_of(g: G) -> int:
    return g.frames[-1].instr.line if g.frames else 0


def new_slice(st: State, items: tuple) -> Value:
    """A new slice holding `items`, in an array of its own."""
    addr = st.new_obj(("array", items))
    return ("slice", addr[1], (), 0, len(items))

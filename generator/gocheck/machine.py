"""How a goroutine moves inside one state of a Go program's abstract run (state.py).

A goroutine runs its SSA instructions locally — arithmetic, loads and stores, calls,
spawns — until it reaches an operation others can see: a channel operation, a select,
`close`, a sync operation, or a branch on data the checker cannot know (a choice). There
it stops, and `pending` says what it waits to do; `explore` decides who may go next.
Running the local steps in one go is sound for programs free of data races (Go's memory
model gives them sequential consistency at the synchronisations), and it keeps the state
space to the communication steps only.

The standard library is modelled where it synchronises (sync, context, time's timers);
other library calls are taken to return data the checker does not know, and calls that
hand a channel, function or sync object to unmodelled library code are `Unsupported`.
Timers and context propagation run as daemon goroutines that may fire at any moment; a
daemon never counts as a leaked goroutine. A timer's Stop and Reset are steps others can
see, as Go 1.23 and later have them (`timer_op`): Stop cancels a timer that has not fired
and drops a value it sent that nobody received; Reset does that and arms it again.

`Machine` is this module's running, panics and pending operations, with its local
instructions (instructions.py), calls (calls.py) and library models (library.py) mixed in.
"""

from __future__ import annotations

from typing import Any

from generator.gocheck import gotest
from generator.gocheck import values as V
from generator.gocheck.calls import Calls, ctx_err
from generator.gocheck.instructions import LocalInstructions, len_bound
from generator.gocheck.library import CPU_QUERIES, SYNC_OPS, LibraryModels
from generator.gocheck.ssa import Function, Instr, Program
from generator.gocheck.state import (
    PANIC_VALUE,
    Case,
    Frame,
    G,
    Pending,
    ProgramExit,
    State,
    line_of,
    named,
    received,
)
from generator.gocheck.values import (
    CTX_ERRORS,
    ERROR,
    NIL,
    UNKNOWN,
    Unsupported,
    Value,
    holds_sync,
    value_holds_sync,
)

MAX_LOCAL_STEPS = 200_000
# The most operations one local run takes at once (`Machine._release`) before the next
# one shows as a step.
MAX_TAKEN_AT_ONCE = 64

_EXITS = frozenset(
    {"os.Exit", "log.Fatal", "log.Fatalf", "log.Fatalln", "log.Panic", "log.Panicf",
     "log.Panicln"}
)
# Where a goroutine gives way to the others (outside a synctest bubble): a step of its own,
# so that another goroutine may run between what it did before and what it does after. A
# check of a plain flag, a sleep, then the act ("flush, then close") is then a window the
# search opens, as Go's scheduler does; run through as one step, the check and the act
# were atomic and a second goroutine could never pass the check too.
_YIELDS = frozenset({"time.Sleep", "runtime.Gosched"})
# testing/synctest: Test runs a function in a bubble whose clock is fake (gotest.SYNCTEST_TEST);
# time.Sleep and synctest.Wait there return once every other goroutine of the bubble is
# blocked.
_BUBBLE_WAITS = frozenset({"time.Sleep", "testing/synctest.Wait"})
# In a bubble, when goroutine N's timer or sleep is due, counted from the fake clock's
# now (always 0: each advance takes what passed off every deadline, so a loop on a
# ticker comes back to a state it has seen): ("deadline", due, period), period None for
# a timer that fires once; `due` unknown when the duration is.
DEADLINE = "g:deadline:"
# Set (a global of the state, so part of its key) once a path took a branch on a counter
# past INT_LIMIT: the path may leave its loop sooner or later than any run does, so what
# it reaches is not shown as a finding (`transitions.Transitions.findings_for`).
APPROXIMATE = "g:?approximate"
# The instructions that may need a number known only as a range exactly (a choice of its
# values, `instructions.VALUE_CHOICES_UP_TO`), and what the number is there (for the
# report).
_EXACT_OPS = {"MakeChan": "the channel's buffer size", "MakeSlice": "the slice's length",
              "Call": "the number", "IndexAddr": "the index", "Index": "the index",
              "Range": "the map's length", "BinOp": "the operand"}
# The calls `Machine._release` may run at once, by their static names (a context's Err
# has none: it is a method of an interface), and the methods a program must not name
# anywhere for it to run releases so.
_AT_ONCE = frozenset({
    "(*sync.Mutex).Unlock", "(*sync.RWMutex).Unlock", "(*sync.RWMutex).RUnlock",
    "(*sync.rlocker).Unlock", "(*sync.WaitGroup).Done", "(*sync.WaitGroup).Add",
    "(*sync.Once).Do",
})
_TRY_LOCKS = ("TryLock", "TryRLock")


def _tries_locks(program: Program) -> bool:
    """Whether anything in the program names a TryLock or TryRLock (a call, an interface
    method, a method value): then a held lock is visible one step longer."""
    return any(name in repr(ins.x) for fn in program.functions.values() for b in fn.blocks
               for ins in b.instrs for name in _TRY_LOCKS)


TIMER_OPS = frozenset({"timer_stop", "timer_reset", "ticker_stop", "ticker_reset"})


# Panics a deferred `recover` can stop; the others (unlock of an unlocked mutex) are
# fatal errors in Go, which end the program whatever is deferred.
RECOVERABLE = frozenset({"send on closed channel", "close of closed channel",
                         "close of nil channel", "negative WaitGroup counter",
                         "nil sync object"})
# runtime.Goexit unwinds a goroutine's frames as a panic does, running its deferred calls,
# but `recover()` does not stop it, and at the goroutine's first frame the goroutine just
# ends (a test that called t.FailNow is over).
GOEXIT = "runtime.Goexit"


class Machine(LocalInstructions, Calls, LibraryModels):
    """Runs goroutines of one program; states are passed in and changed in place."""

    def __init__(self, program: Program, *, releases: bool = True,
                 approximate: bool = False) -> None:
        self.program = program
        # A branch on a counter past INT_LIMIT goes both ways, its paths marked
        # approximate (`APPROXIMATE`), instead of raising TooLarge.
        self.approximate = approximate
        # The checked test runs in a synctest bubble (`testing/synctest`): its clock is a
        # fake one, which moves only when every goroutine is blocked (explore).
        entry = program.entry or (program.tests[0] if program.tests else "")
        self.fake_clock = bool(entry) and program.reaches_call(entry, gotest.SYNCTEST_TEST)
        # A test file's TestMain: go test runs it, the test inside its m.Run.
        self.test_main = program.function(f"{program.package}.TestMain") if entry else None
        # The most entries of a map ranged over in some orders of its keys only
        # (MAP_ORDERS_UP_TO), 0 if none.
        self.orders_cut = 0
        self.len_bound = len_bound(program)
        # Whether a length the checker cannot tell was taken as at most len_bound.
        self.lengths_bounded = False
        # Unlock, RUnlock and WaitGroup.Done run inside the local run before them
        # (`_release`; `releases`), unless some TryLock could see a lock held one step more;
        # so do the steps that read what can no longer change.
        self.eager_releases = releases and not _tries_locks(program)
        self.eager_reads = releases

    # --- set-up

    def initial(self) -> State:
        """The state after `init`: the first goroutine at the start of main, or of the
        test the program is checked for (`Program.entry`, else its first test) with a
        fresh *testing.T."""
        pkg = self.program.package
        st = State([G(0, [], "main")])
        entry = self.program.entry or (self.program.tests[0] if self.program.tests else "")
        test_main = self.test_main
        if test_main is not None:
            # go test runs TestMain, and the test inside it when TestMain calls m.Run
            # (gotest.main_run); TestMain's end is the program's, as main's.
            if self.program.function(entry) is None:
                raise Unsupported(f"no test {entry}")
            handle = gotest.test_main_handle(*self.program.before, entry)
            st.gs[0].frames.append(self.frame(test_main, (handle,), (), None))
            st.gs[0].label = test_main.short_name
        elif self.program.before:
            # Go test's own main: the tests in order, each in a goroutine of its own.
            handle = gotest.test_main_handle(*self.program.before, entry)
            st.gs[0].frames.append(self.frame(gotest.RUN_TESTS, (handle,), (), None))
            st.gs[0].label = "go test"
        elif entry:
            test = self.program.function(entry)
            if test is None:
                raise Unsupported(f"no test {entry}")
            t = st.new_obj(gotest.FRESH)
            # An example (`func ExampleXxx()`) takes no T; its end is a test's all the same.
            st.gs[0].frames.append(self.frame(test, (t,)[:len(test.params)], (), ("test", t)))
            st.gs[0].label = test.short_name
        else:
            main = self.program.function(f"{pkg}.main")
            if main is None:
                raise Unsupported("package main has no func main")
            st.gs[0].frames.append(self.frame(main, (), (), None))
        # The imported packages' inits run first, in order, then the file's own.
        for name in (f"{pkg}.init", *reversed(self.program.inits)):
            init = self.program.function(name)
            if init is not None:
                st.gs[0].frames.append(self.frame(init, (), (), None))
        self.run(st, 0)
        return st

    def frame(self, fn: Function, params: tuple, free: tuple, ret: Any) -> Frame:
        if not fn.blocks:
            raise Unsupported(f"{fn.short_name} has no body")
        fr = Frame(fn, 0, 0, {}, params, free, (), ret)
        return fr

    # --- operands

    def operand(self, st: State, fr: Frame, op: dict) -> Value:
        k = op["k"]
        if k == "reg":
            return fr.regs.get(op["n"], UNKNOWN)
        if k == "param":
            return fr.params[op["i"]]
        if k == "free":
            return fr.free[op["i"]]
        if k == "const":
            v = op.get("v")
            if v is None:
                return V.zero(op.get("t", "nil"))
            if v == "?" and op.get("t") != "string":
                return UNKNOWN
            if op.get("t") == "float64":
                return float(v)  # JSON writes 3.0 as 3
            if op.get("t") not in ("int", "bool", "string", "time.Duration"):
                return UNKNOWN
            return v
        if k == "fn":
            return ("fn", op["n"], ())
        if k == "global":
            oid = "g:" + op["n"]
            if oid not in st.objs:
                # The main package's globals start at zero; a library's (os.Args) were set
                # by code the checker does not run.
                own = op["n"] in self.program.globals or op["n"].startswith(
                    self.program.package + ".")
                if own:
                    st.objs[oid] = V.zero(op.get("t", "other"))
                elif op["n"] in CTX_ERRORS:
                    st.objs[oid] = CTX_ERRORS[op["n"]]
                elif op.get("err"):
                    # io.EOF, os.ErrClosed: never nil, though which error is unknown.
                    st.objs[oid] = ERROR
                elif op["n"] == "os.Args":
                    st.objs[oid] = self.input_slice(st, 1, 1)  # the command comes first
                else:
                    st.objs[oid] = UNKNOWN
            return ("addr", oid, ())
        if k == "builtin":
            return ("builtin", op["n"])
        if k == "none":
            return None
        raise Unsupported(f"an operand of kind {k}")

    def args(self, st: State, fr: Frame, ins: Instr) -> list[Value]:
        return [self.operand(st, fr, a) for a in ins.args]

    # --- memory

    def load(self, st: State, addr: Value, line: int, type_class: str) -> Value:
        if addr == NIL:
            raise ProgramExit("nil pointer dereference", line)
        if not (isinstance(addr, tuple) and addr[0] == "addr"):
            if holds_sync(type_class):
                raise Unsupported("a load through a pointer the checker cannot follow", line)
            return UNKNOWN
        _, oid, path = addr
        if oid not in st.objs:
            return UNKNOWN
        v = V.get_path(st.objs[oid], path)
        if V.is_unknown(v) and holds_sync(type_class):
            raise Unsupported("a channel or sync object kept where the checker cannot "
                              "follow it (a slice, map or unknown index)", line)
        return v

    def store(self, st: State, addr: Value, value: Value, line: int) -> None:
        if addr == NIL:
            raise ProgramExit("nil pointer dereference", line)
        if not (isinstance(addr, tuple) and addr[0] == "addr"):
            if value_holds_sync(value):
                raise Unsupported("a channel or sync object stored where the checker cannot "
                                  "follow it", line)
            return
        _, oid, path = addr
        try:
            st.objs[oid] = V.set_path(st.objs.get(oid, UNKNOWN), path, value)
        except Unsupported as e:
            raise Unsupported(e.what, line) from None
        except IndexError:
            raise ProgramExit("index out of range", line) from None

    # --- running

    def run(self, st: State, gid: int) -> None:
        """Run goroutine `gid` until it stops at something others can see, or ends."""
        g = st.gs[gid]
        steps = taken = 0
        while g.frames:
            fr = g.frames[-1]
            if fr.unwinding:
                if fr.defers and self._deferred_kind(fr.defers[-1]) is not None:
                    if taken < MAX_TAKEN_AT_ONCE and self._release(st, gid):
                        taken += 1
                        continue
                    return
                self._unwind(st, g, fr)
                continue
            ins = fr.instr
            if ins.op == "Panic" and self.can_recover(g):
                self.start_panic(st, gid, self.panic_why(st, self.operand(st, fr, ins.args[0])))
                continue
            if self._visible(st, fr, ins):
                # Capped: `for { <-closed }` would spin here without a state of its own;
                # past the cap the step shows, and its state repeats, as it did before.
                if taken < MAX_TAKEN_AT_ONCE and self._release(st, gid):
                    taken += 1
                    continue
                if self.fake_clock and ins.op == "Call" and \
                        ins.x.get("static") == "time.Sleep" and \
                        f"{DEADLINE}{gid}" not in st.objs:
                    self._arm(st, self.operand(st, fr, ins.x["args"][0]), False, gid=gid)
                return
            try:
                self._step(st, g, fr, ins)
            except ProgramExit as e:
                if not self.can_recover(g):
                    raise
                self.start_panic(st, gid, e.why)
            steps += 1
            if steps > MAX_LOCAL_STEPS:
                raise Unsupported("a loop that runs without communicating for ever", ins.line)
        if g.tail and g.tail[0][0] == "wg_done":  # WaitGroup.Go's Done, once f returned
            self._release(st, gid)

    def _release(self, st: State, gid: int) -> bool:
        """Do goroutine `gid`'s pending operation now, as part of its local run, when it is
        one that commutes with every step of every other goroutine and that none can
        disable: a Mutex or RWMutex Unlock, an RUnlock or a WaitGroup.Done that succeeds;
        a receive from a closed, empty channel, the Do of a sync.Once that is done, and
        ctx.Err() of a context cancelled, which nothing can change any more. False when it
        is another operation (or one that fails: the search reports that).

        Sound by Lipton's reduction ("Reduction: a method of proving properties of parallel
        programs", CACM 18(12), 1975): such a step is a left mover, and moving each one to
        just after its goroutine's previous step keeps every deadlock and every panic. A
        release commutes with what another goroutine can do just before it: not a Lock or
        an RLock it would let through (they wait while the lock is held; a writer's
        announcement waits for the readers all the same), nor a Wait at 0 (the Done then
        takes the counter below 0, found either way). Only a TryLock or TryRLock sees a
        lock held one step longer, so a program that names one keeps its releases as
        steps (`eager_releases`). Taking them at once cuts every state where a goroutine
        has finished its critical section but not yet unlocked (or not yet said Done), and
        the step of each receive that finds its channel closed already."""
        g = st.gs[gid]
        fr = g.frames[-1] if g.frames else None
        if fr is not None and not fr.unwinding:
            ins = fr.instr
            if ins.op == "UnOp":
                return self.eager_reads and self._closed_recv(st, gid, fr, ins)
            if ins.op == "Call":
                static = ins.x.get("static")
                if static is not None and static not in _AT_ONCE:
                    return False
            elif ins.op != "RunDefers":
                return False
        p = self.pending(st, gid)
        if p is None:
            return False
        if p.kind == "ctx_err" and self.eager_reads:
            closed = isinstance(p.arg, tuple) and p.arg[:1] == ("chan",) and \
                st.chans[p.arg[1]][2]
            if closed:
                self.complete(st, gid, ctx_err(closed), run=False)
            return bool(closed)
        addr = p.arg
        if not (isinstance(addr, tuple) and addr[0] == "addr"):
            return False
        if p.kind in ("once", "oncefunc") and self.eager_reads:
            once = self.load(st, addr, p.line, "other")
            if not (isinstance(once, tuple) and once[:2] == ("once", 2)):
                return False
            self.complete(st, gid, once[2] if len(once) > 2 else None, run=False)
            return True
        if not self.eager_releases or not (p.kind in ("unlock", "runlock")
                                           or p.kind == "wg_add" and p.arg2 == -1):
            return False
        obj = self.load(st, addr, p.line, "other")
        if not isinstance(obj, tuple) or not obj:
            return False
        if p.kind == "unlock" and obj == ("mu", True):
            new: Value = ("mu", False)
        elif p.kind == "unlock" and obj[0] == "rw" and obj[1]:
            new = ("rw", False, obj[2], obj[3])
        elif p.kind == "runlock" and obj[0] == "rw" and obj[2] > 0:
            new = ("rw", obj[1], obj[2] - 1, obj[3])
        elif p.kind == "wg_add" and obj[0] == "wg" and isinstance(obj[1], int) and \
                not isinstance(obj[1], bool) and obj[1] > 0:
            new = ("wg", obj[1] - 1)
        else:
            return False
        self.store(st, addr, new, p.line)
        self.complete(st, gid, None, run=False)
        return True

    def _closed_recv(self, st: State, gid: int, fr: Frame, ins: Instr) -> bool:
        """A plain receive (not a select's) from a closed channel with nothing buffered: the
        zero value at once (`_release`)."""
        ch = self.operand(st, fr, ins.args[0])
        if not (isinstance(ch, tuple) and ch[0] == "chan"):
            return False
        _cap, buf, closed = st.chans[ch[1]]
        if not closed or buf:
            return False
        self.complete(st, gid, received(None, False, ins.x["elem"], ins.x["commaok"]),
                      run=False)
        return True

    # --- panics and recover

    def can_recover(self, g: G) -> bool:
        """Whether a call deferred in some frame of `g` calls `recover`: only then can a
        panic be stopped, so only then is it worth unwinding (else it ends the program)."""
        return any(self._calls_recover(d[0]) for f in g.frames for d in f.defers)

    def _calls_recover(self, callee: Value) -> bool:
        if not (isinstance(callee, tuple) and callee[0] == "fn"):
            return False
        fn = self.program.function(callee[1])
        return fn is not None and fn.calls_recover

    def end_test_main(self, st: State) -> None:
        """TestMain has called os.Exit: its goroutine is over, deferred calls not run (as
        os.Exit runs none)."""
        g = st.gs[0]
        g.frames.clear()
        g.tail = ()
        g.panic = ()

    def start_goexit(self, st: State, g: G) -> None:
        """runtime.Goexit (t.FailNow's end of a test) in goroutine `g`'s top frame."""
        if g.gid == 0 and not self.program.tests:
            raise Unsupported("runtime.Goexit in main", line_of(g))
        g.panic = (*g.panic, (GOEXIT, len(g.frames)))
        g.frames[-1].unwinding = True

    def start_panic(self, st: State, gid: int, why: str) -> None:
        """Goroutine `gid` panics in its top frame: from now on its frames unwind."""
        g = st.gs[gid]
        g.panic = (*g.panic, (why, len(g.frames)))
        g.frames[-1].unwinding = True

    def panic_at_pending(self, st: State, gid: int, why: str) -> None:
        """Goroutine `gid`'s pending operation panics (a send on a closed channel); a
        deferred call that panics has left the list of deferred calls already."""
        fr = st.gs[gid].frames[-1]
        if fr.unwinding or fr.instr.op == "RunDefers":
            fr.defers = fr.defers[:-1]
        self.start_panic(st, gid, why)

    def _unwind(self, st: State, g: G, fr: Frame) -> None:
        """One step of unwinding frame `fr`: run its next deferred call, or leave it."""
        if fr.defers:
            callee, args, static, line = fr.defers[-1]
            fr.defers = fr.defers[:-1]
            depth = len(g.frames)
            self._invoke(st, g, fr, callee, list(args), static, line, None, advance=False)
            if len(g.frames) > depth and g.panic:
                g.frames[-1].recovers = True
            return
        depth = len(g.frames)
        if not g.panic or g.panic[-1][1] < depth:
            # Recovered: the function returns normally through its recover block, which
            # returns the named results (zero values when they have no names).
            fr.unwinding = False
            fr.block, fr.pc = fr.fn.recover, 0
            return
        why = g.panic[-1][0]
        popped = g.frames.pop()
        if not g.frames:
            if why != GOEXIT:
                raise ProgramExit(why, 0, why if why in RECOVERABLE else None)
            g.panic = ()
            if isinstance(popped.ret, tuple) and popped.ret[0] == "test":
                gotest.ended(self, st, g, popped.ret[1])
            return
        if not g.frames[-1].unwinding:
            self._once_panicked(st, g, why)
        # Reaching a frame that was unwinding for an older panic aborts that one: the
        # newer panic goes on in its place (Go's runtime does the same).
        g.panic = (*(e for e in g.panic[:-1] if e[1] < depth - 1), (why, depth - 1))
        g.frames[-1].unwinding = True

    def _once_panicked(self, st: State, g: G, why: str) -> None:
        """A panic left a function its caller called: when that was a Once's function,
        Once.Do counts it done (Go's Do marks done in a deferred call), and what
        sync.OnceFunc or OnceValue(s) returned panics again with the same value at every
        later call: ("once", 3, why)."""
        depth = len(g.frames)

        def settle(v: Value) -> Value:
            if type(v) is not tuple or not v:
                return v
            if v[0] == "once":
                if v[1] == 1 and v[2] == g.gid and v[3] == depth:
                    return ("once", 3, why) if v[4] else ("once", 2)
                return v
            if v[0] == "struct":
                return ("struct", tuple(settle(f) for f in v[1]))
            if v[0] == "array":
                return ("array", tuple(settle(i) for i in v[1]))
            return v

        for oid, obj in st.objs.items():
            new = settle(obj)
            if new != obj:
                st.objs[oid] = new
                return

    def _recover(self, g: G, fr: Frame) -> Value:
        """`recover()`: stops the newest panic when called by a call it deferred."""
        if g.panic and fr.recovers and g.panic[-1][0] != GOEXIT:
            why = g.panic[-1][0]
            g.panic = g.panic[:-1]
            fr.recovers = False
            return (*PANIC_VALUE, why)
        return NIL

    def panic_why(self, st: State, v: Value) -> str:
        """Why a `panic(v)` panics: the runtime error `v` holds, recovered earlier (also
        wrapped in a struct, as conc's *Recovered, followed through the heap), else a
        plain "panic"."""
        for x in self._reached(st, [v]):
            if x is not None and x[:2] == PANIC_VALUE and x[2] in RECOVERABLE:
                return x[2]
        return "panic"

    def _visible(self, st: State, fr: Frame, ins: Instr) -> bool:
        op = ins.op
        if op in ("Send", "Select", "Panic"):
            return True
        if op == "UnOp":
            return ins.x["op"] == "<-"
        if op == "If":
            cond = self.condition(st, fr, ins)
            if cond == V.BIG and not self.approximate:
                raise V.TooLarge(ins.line)
            return not isinstance(cond, bool)
        if op in _EXACT_OPS and self.value_choice(st, fr, ins) is not None:
            return True
        if op == "Range":
            return self.range_orders(st, fr, ins) is not None
        if op == "Call":
            return self._call_kind(st, fr, ins.x, ins.line) is not None or \
                self.asks_cpus(st, fr, ins) or self.range_orders(st, fr, ins) is not None
        if op == "RunDefers":
            return bool(fr.defers) and self._deferred_kind(fr.defers[-1]) is not None
        return False

    def _call_kind(self, st: State, fr: Frame, x: Any, line: int) -> str | None:
        """The kind of visible operation a call is, or None when it runs locally."""
        callee, args, static = self._resolve(st, fr, x)
        return self._callee_kind(callee, static, args)

    def _callee_kind(self, callee: Value, static: str | None,
                     args: list[Value] | tuple = ()) -> str | None:
        if isinstance(callee, tuple):
            if _cancellable_err(callee, static, args) is not None:
                # ctx.Err() or context.Cause(ctx) of a context that can be cancelled: a
                # step others see, so that it is nil before a cancel and an error after,
                # in every order of the two.
                return "ctx_err"
            if callee[0] == "builtin" and callee[1] == "close":
                return "close"
            if callee[0] == "model":
                # context's cancel, context.AfterFunc's stop, sync.OnceFunc's function,
                # iter.Pull's next and stop and the yield its sequence is handed
                return {"cancel": "cancel", "stop": "afterfunc_stop",
                        "oncefunc": "oncefunc", "pull_next": "pull_next",
                        "pull_stop": "pull_stop", "pull_yield": "pull_yield"}.get(callee[1])
            if callee[0] == "fn":
                name = callee[1]
                if name in SYNC_OPS:
                    return SYNC_OPS[name]
                if self.fake_clock and name in _BUBBLE_WAITS:
                    return "bubble_wait"
                if name in _YIELDS:
                    return "yield"
                if name in _EXITS:
                    return "exit"
                if name.startswith(("sync/atomic.", "(*sync/atomic.")) and name != \
                        "sync/atomic.init":
                    return "atomic"
                if name.startswith("(*sync.Map)."):
                    return "atomic"  # synchronises like an atomic: a visible step
        return None

    def _deferred_kind(self, d: tuple) -> str | None:
        callee, args, static, _line = d
        return self._callee_kind(callee, static, args)

    def _step(self, st: State, g: G, fr: Frame, ins: Instr) -> None:
        op = ins.op
        handler = getattr(self, "_op_" + op, None)
        if handler is None:
            raise Unsupported(f"the SSA instruction {op} "
                              f"({ins.x.get('what', '')})".replace(" ()", ""), ins.line)
        handler(st, g, fr, ins)

    def _set(self, st: State, fr: Frame, ins: Instr, v: Value) -> None:
        if ins.res:
            fr.regs[ins.res] = named(st, v, ins.type)
        fr.pc += 1

    def _goto(self, st: State, fr: Frame, target: int) -> None:
        """Enter block `target` from the current block, evaluating its phis together."""
        prev = fr.block
        block = fr.fn.blocks[target]
        idx = block.preds.index(prev)
        phis = []
        pc = 0
        while pc < len(block.instrs) and block.instrs[pc].op == "Phi":
            phi = block.instrs[pc]
            phis.append((phi.res, phi.args[idx]))
            pc += 1
        new = {res: self.operand(st, fr, a) for res, a in phis}
        fr.regs.update(new)
        fr.block = target
        fr.pc = pc

    # --- pending operations

    def pending(self, st: State, gid: int) -> Pending | None:
        """What goroutine `gid` waits to do; None when it has ended."""
        g = st.gs[gid]
        if not g.frames:
            if not g.tail:
                return None
            t = g.tail[0]
            if t[0] == "send":
                return Pending("comm", 0, (Case("send", t[1], t[2]),), repeat=t[3])
            if t[0] == "recv":
                return Pending("comm", 0, (Case("recv", t[1], None, "other"),))
            if t[0] in ("cancel", "close"):  # a cancel's cause: `transitions` (close)
                return Pending(t[0], 0, arg=t[1], arg2=t[2] if len(t) > 2 else None)
            if t[0] == "wg_done":
                return Pending("wg_add", 0, arg=t[1], arg2=-1)
            if t[0] == "fire":
                return Pending("fire", t[3], arg=t[1])
            if t[0] == "exit":
                return Pending("exit", t[2], arg=t[1])
            if t[0] == "pull_end":
                return Pending("pull_end", t[2], arg=t[1])
            raise AssertionError(t)
        fr = g.frames[-1]
        ins = fr.instr
        op = "RunDefers" if fr.unwinding else ins.op
        if op in _EXACT_OPS:
            choice = self.value_choice(st, fr, ins)
            if choice is not None:
                return Pending("value", ins.line, arg=choice[2], arg2=_EXACT_OPS[op])
        if op == "Send":
            ch, v = self.args(st, fr, ins)
            return Pending("comm", ins.line, (Case("send", ch, v),))
        if op == "UnOp":
            ch = self.operand(st, fr, ins.args[0])
            return Pending("comm", ins.line, (Case("recv", ch, None, ins.x["elem"]),),
                           commaok=ins.x["commaok"])
        if op == "Select":
            cases = []
            for s in ins.x["states"]:
                ch = self.operand(st, fr, s["chan"])
                if s["dir"] == "send":
                    cases.append(Case("send", ch, self.operand(st, fr, s["send"])))
                else:
                    cases.append(Case("recv", ch, None, s["elem"]))
            return Pending("comm", ins.line, tuple(cases), blocking=ins.x["blocking"],
                           select=True)
        if op == "If":
            # Both ways, unless what another goroutine's branch learnt settles it now.
            cond = self.condition(st, fr, ins)
            return Pending("choice", ins.line,
                           arg=(cond,) if isinstance(cond, bool) else (True, False),
                           arg2=cond == V.BIG)
        if op == "Range":
            return Pending("order", ins.line, arg=self.range_orders(st, fr, ins))
        if op == "Panic":
            return Pending("exit", ins.line,
                           arg=self.panic_why(st, self.operand(st, fr, ins.args[0])))
        if op == "Call":
            callee, args, static = self._callee(st, fr, ins)
            kind = self._callee_kind(callee, static, args)
            if kind is None and (ins.x.get("static") in CPU_QUERIES
                                 or ins.x.get("static") == gotest.PARALLEL_METHOD):
                # Stopped to choose the count; another goroutine may have chosen it since,
                # and then the one choice left is that count.
                return Pending("cpus", ins.line, arg=self.cpu_choices(st))
            if kind is None:  # a range over maps.Keys, Values or All
                return Pending("order", ins.line, arg=self.range_orders(st, fr, ins))
        elif op == "RunDefers":
            callee, args, static, dline = fr.defers[-1]
            kind = self._callee_kind(callee, static, args)
            args = list(args)
            ins = Instr("RunDefers", None, ins.type, dline, ins.args, ins.x)
        else:
            raise AssertionError(op)
        assert kind is not None
        if kind == "exit" and gid == 0 and self.test_main is not None:
            # TestMain's os.Exit(m.Run()) (or log.Fatal) ends the test binary, as main's
            # return ends a program: what it leaves blocked has leaked (goleak's
            # VerifyTestMain looks there), not "the program exits" with nothing to say.
            return Pending("test_main_exit", ins.line)
        if kind == "close":
            return Pending("close", ins.line, arg=args[0])
        if kind in ("cancel", "afterfunc_stop"):
            return Pending(kind, ins.line, arg=callee[2])
        if kind in ("pull_next", "pull_stop", "pull_yield"):  # iter.Pull's coroutine
            return Pending(kind, ins.line, arg=callee, arg2=(tuple(args), ins.type))
        if kind == "oncefunc":  # a call of what sync.OnceFunc or OnceValue(s) returned
            return Pending(kind, ins.line, arg=callee[2], arg2=callee[3])
        if kind == "wg_done":
            return Pending("wg_add", ins.line, arg=args[0], arg2=-1)
        if kind == "wg_add":
            return Pending("wg_add", ins.line, arg=args[0], arg2=args[1])
        if kind in ("wg_go", "once"):
            return Pending(kind, ins.line, arg=args[0], arg2=args[1])
        if kind == "atomic":
            return Pending(kind, ins.line, arg=callee[1], arg2=tuple(args))
        if kind == "ctx_err":
            return Pending(kind, ins.line, arg=_cancellable_err(callee, static, args))
        if kind == "yield":
            return Pending(kind, ins.line, arg2=callee[1])
        return Pending(kind, ins.line, arg=args[0] if args else None)

    def complete(self, st: State, gid: int, result: Value = None, *, run: bool = True) -> None:
        """Finish goroutine `gid`'s pending operation with `result`, then run it on."""
        g = st.gs[gid]
        if not g.frames:
            t = g.tail[0]
            if not (t[0] == "send" and t[3]):
                g.tail = g.tail[1:]
            return
        fr = g.frames[-1]
        ins = fr.instr
        if fr.unwinding or ins.op == "RunDefers":
            fr.defers = fr.defers[:-1]
        else:
            if ins.res:
                fr.regs[ins.res] = result
            fr.pc += 1
        if run:
            self.run(st, gid)

    def known_fn(self, f: Value, line: int, what: str = "a function value") -> Function:
        fn = self.program.function(f[1]) if isinstance(f, tuple) and f[0] == "fn" else None
        if fn is None:
            raise Unsupported(f"{what} the checker cannot tell", line)
        return fn

    def retire_cancellers(self, st: State, done: Value, *, but: int) -> None:
        """A context's done channel `done` is closed: its deadline and the wait for its
        parent's cancel can only cancel it again, which changes nothing, so they end
        here (all but goroutine `but`, the one closing it). Kept, they would stay steps
        of every later state (a loop that makes and cancels a context each round would
        pile them up)."""
        for g in st.gs:
            if g.gid != but and g.daemon and g.tail and g.tail[-1][:2] == ("cancel", done) and (
                    len(g.tail) == 1 or len(g.tail) == 2 and g.tail[0][0] == "recv"):
                g.tail = ()

    def fire(self, st: State, gid: int) -> None:
        """Daemon `gid` fires its time.AfterFunc or context.AfterFunc: the function starts in
        a goroutine of its own."""
        _, token, f, line, what = st.gs[gid].tail[0]
        st.chans[token[1]]  # noqa: B018 -- read, so that a Stop of this timer conflicts
        self.complete(st, gid, run=False)
        st.spawn([self.frame(self.program.function(f[1]), (), f[2], None)],
                 f"g{len(st.gs)} ({what}, line {line})")
        self.run(st, len(st.gs) - 1)

    def timer_op(self, st: State, kind: str, timer: Value, line: int) -> bool:
        """A Timer's or Ticker's Stop or Reset (`kind`, one of TIMER_OPS) on the timer
        struct `timer`, as Go 1.23 and later have them: whether the timer was still to fire
        or its value still unreceived. Either way that firing or value is gone (no stale
        value is received after the call); Reset then arms the timer again."""
        fields = timer[1] if isinstance(timer, tuple) and timer[0] == "struct" else ()
        ch = fields[0] if fields else None
        fire = fields[1] if len(fields) > 1 else None
        if isinstance(ch, tuple) and ch[0] == "chan":
            op = ("send", ch, UNKNOWN, kind.startswith("ticker"))
        elif ch == NIL and isinstance(fire, tuple) and fire[0] == "fire":
            op = fire
        else:
            raise Unsupported("a timer the checker cannot follow", line)
        was, armed = self._disarm(st, op)
        if kind.endswith("reset"):
            if armed:
                armed[0].tail = (op,)
            else:
                st.spawn([], f"timer (reset at line {line})", tail=(op,), daemon=True)
            # The new duration is not at hand here: due at any moment of the fake clock.
            self._arm(st, UNKNOWN, kind.startswith("ticker"),
                      gid=armed[0].gid if armed else len(st.gs) - 1)
        return was

    def _arm(self, st: State, d: Value, repeat: bool, *, gid: int | None = None) -> None:
        """In a synctest bubble, when timer goroutine `gid` (the one just spawned) fires:
        after `d`, and each `d` after that if it `repeat`s."""
        if not self.fake_clock:
            return
        due = d if isinstance(d, int) and not isinstance(d, bool) and d >= 0 else UNKNOWN
        gid = len(st.gs) - 1 if gid is None else gid
        st.objs[f"{DEADLINE}{gid}"] = ("deadline", due, due if repeat else None)

    def stop_after_func(self, st: State, fire: tuple) -> bool:
        """context.AfterFunc's stop: whether it kept the function from running."""
        return self._disarm(st, fire)[0]

    def _disarm(self, st: State, op: tuple) -> tuple[bool, list[G]]:
        """Take back a timer's firing `op` (its send, or an AfterFunc's "fire"), and a value
        it sent that nobody received: whether either was there, and the daemons that were
        to fire it. Its channel (an AfterFunc's token) is read, so the step conflicts with
        the firing."""
        token = op[1]
        cap, buf, closed = st.chans[token[1]]
        if buf:
            st.chans[token[1]] = (cap, (), closed)
        armed = [g for g in st.gs if g.daemon and any(t[:2] == op[:2] for t in g.tail)]
        for g in armed:
            g.tail = ()
        return bool(buf) or bool(armed), armed

    def call_in(self, st: State, gid: int, f: Value, line: int,
                result_to: Value = None) -> None:
        """Push a call of `f` on goroutine `gid` (sync.Once.Do's function); its results go
        into the Once at `result_to`, if given (sync.OnceValue's)."""
        fn = self.known_fn(f, line)
        ret = None if result_to is None else ("once", result_to)
        st.gs[gid].frames.append(self.frame(fn, (), f[2], ret))
        self.run(st, gid)

    def pull_started(self, st: State, pull: Value, seq: Value, line: int) -> None:
        """The first next of iter.Pull's `pull` starts its sequence `seq` in a goroutine
        whose yield hands each value to the waiting next (`pull_yield`) and whose end
        (`pull_end`) tells next or stop that the sequence returned."""
        fn = self.known_fn(seq, line, "iter.Pull of a sequence")
        yield_ = ("model", "pull_yield", pull)
        st.spawn([self.frame(fn, (yield_,), seq[2], None)],
                 f"g{len(st.gs)} (iter.Pull's sequence {fn.short_name}, line {line})",
                 tail=(("pull_end", pull, line),))
        self.run(st, len(st.gs) - 1)

    def spawn_fn(self, st: State, f: Value, line: int, tail: tuple) -> None:
        fn = self.known_fn(f, line)
        st.spawn([self.frame(fn, (), f[2], None)],
                 f"g{len(st.gs)} ({fn.short_name}, spawned at line {line})", tail=tail)
        self.run(st, len(st.gs) - 1)


def _cancellable_err(callee: Value, static: str | None, args) -> Value:
    """The done channel of the context whose Err (or context.Cause) the call asks, when
    the context can be cancelled; else None."""
    ctx = None
    if callee[0] == "invoke" and callee[1] == "Err":
        ctx = callee[2]
    elif static == "context.Cause" or callee[:2] == ("fn", "context.Cause"):
        ctx = args[0] if args else None
    if isinstance(ctx, tuple) and ctx[0] == "ctx" and isinstance(ctx[1], tuple) and \
            ctx[1][0] == "chan":
        return ctx[1]
    return None



"""One state of a Go program's abstract run, and how a goroutine moves inside it.

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
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from itertools import permutations
from typing import Any

from generator.gocheck import gotest, pipes
from generator.gocheck import numeric as N
from generator.gocheck import values as V
from generator.gocheck.library import CPU_QUERIES, EVALUATED, SYNC_OPS, LibraryModels, ctx_timed
from generator.gocheck.ssa import Function, Instr, Program
from generator.gocheck.state import (
    Case,
    Frame,
    G,
    Pending,
    ProgramExit,
    State,
    line_of,
    named,
    new_slice,
    received,
)
from generator.gocheck.values import (
    ERROR,
    NIL,
    SYNC_TAGS,
    UNKNOWN,
    Unsupported,
    Value,
    holds_sync,
    value_holds_sync,
)

MAX_FRAMES = 64
MAX_LOCAL_STEPS = 200_000
# The most operations one local run takes at once (`Machine._release`) before the next
# one shows as a step.
MAX_TAKEN_AT_ONCE = 64
# A range over a map (over maps.Keys, Values or All, or sync.Map.Range) of 2 to this many
# entries tries every order of them, each a branch of the search: Go's order is random, and
# a loop that breaks at the first match, or sends to each entry's channel in turn, can leak
# in one order only. n! orders of a larger map would swamp the search: up to
# MAP_ENDS_UP_TO entries, the 2n-1 orders with each key first or last and the others by
# key are tried (a worker that stops at "quit" deadlocks its sender unless "quit" comes
# last: one order by key hid that), beyond it one order, by key. Either way the report
# says so (`Machine.orders_cut`).
MAP_ORDERS_UP_TO = 4
MAP_ENDS_UP_TO = 16

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
# testing/synctest: Test runs a function in a bubble whose clock is fake; time.Sleep and
# synctest.Wait there return once every other goroutine of the bubble is blocked.
SYNCTEST_TEST = gotest.SYNCTEST_TEST
_BUBBLE_WAITS = frozenset({"time.Sleep", "testing/synctest.Wait"})
# In a bubble, when goroutine N's timer or sleep is due, counted from the fake clock's
# now (always 0: each advance takes what passed off every deadline, so a loop on a
# ticker comes back to a state it has seen): ("deadline", due, period), period None for
# a timer that fires once; `due` unknown when the duration is.
DEADLINE = "g:deadline:"
# Set (a global of the state, so part of its key) once a path took a branch on a counter
# past INT_LIMIT: the path may leave its loop sooner or later than any run does, so what
# it reaches is not shown as a finding (`explore._Explorer.findings_for`).
APPROXIMATE = "g:?approximate"
# Leak detectors a test calls (go.uber.org/goleak's VerifyNone, Find, Ignore…): they look
# for goroutines still running at the end of a test, which is what gocheck reports itself
# (a partial deadlock), and they do it by reading runtime.Stack, which it cannot follow.
# Their calls do nothing here (a result is unknown).
_GOLEAK = "go.uber.org/goleak"
_LEAK_DETECTORS = (_GOLEAK + ".",)
# testify's assertions (assert.X, require.X, and their Assertions' methods) compare values
# through reflect, which the checker cannot follow (interpreted, every one was
# unsupported), and communicate with nothing unless handed a function of the program's.
# Their calls do nothing here: assert's result is unknown, and require's t.FailNow on a
# failure is not explored (the test goes on as if the assertion held). Those that run a
# function of the test's (Eventually, Never, Panics) run plain-Go models of themselves
# that the front end puts in the checked package (`_testify_shim`); the rest of those
# stay unsupported.
_TESTIFY = ("github.com/stretchr/testify/assert", "github.com/stretchr/testify/require")
_ASSERTIONS = (*(f"{p}." for p in _TESTIFY), *(f"(*{p}.Assertions)." for p in _TESTIFY))
# Their assertions that run a function of the test's, and their models' names in the
# checked package (with whether a panic is wanted).
_TESTIFY_MODELS = {
    "Eventually": ("gocheckEventually", None), "Never": ("gocheckNever", None),
    "Panics": ("gocheckPanics", True), "PanicsWithValue": ("gocheckPanics", True),
    "PanicsWithError": ("gocheckPanics", True), "NotPanics": ("gocheckPanics", False),
}
# The packages of both: the front end does not load them from source.
MODELLED_PACKAGES = (_GOLEAK, *_TESTIFY)
# How many CPUs a run has: runtime.NumCPU() and GOMAXPROCS(0) are chosen, once a run,
# among these (a branch of the search each; the report says so). Unknown, a pool of
# NumCPU() workers could have none, and its jobs were said to leak; every machine has
# at least one, and bugs that depend on the count show with one or with a few.
CPU_COUNTS = (1, 2, 4)
# A length the checker cannot tell (of a list parsed from the input, of an environment
# variable's text) is taken to be at most LEN_SMALL, or one more than the greatest count
# the program states (`ssa.Program.counts`: a buffer of 4 overflows at the fifth item).
# A program whose counts reach past LEN_BOUND_UP_TO keeps lengths unbounded: its
# behaviour may change only with lists longer than a bound the search could cover.
LEN_SMALL = 3
LEN_BOUND_UP_TO = 8
# A number known only as a range, where an instruction needs it exactly (a channel's
# buffer size, a slice's length, WaitGroup.Add's count, the index of a channel in a
# slice): each value is a way the run may go, when there are at most this many
# (`Machine.value_choice`).
VALUE_CHOICES_UP_TO = 16
# The instructions that may need one, and what the number is there (for the report).
_EXACT_OPS = {"MakeChan": "the channel's buffer size", "MakeSlice": "the slice's length",
              "Call": "the number", "IndexAddr": "the index", "Index": "the index",
              "Range": "the map's length", "BinOp": "the operand"}
_LEN = {"k": "builtin", "n": "len"}
_MIN_MAX = ({"k": "builtin", "n": "min"}, {"k": "builtin", "n": "max"})
_CPUS = "g:runtime.NumCPU"  # the count chosen for the run (a global of the state)
_PROCS = "g:runtime.GOMAXPROCS"  # what GOMAXPROCS(n) set, if it did
# The unsafe package's builtins that view memory as another type.
_UNSAFE_VIEWS = frozenset({"SliceData", "StringData", "String", "Slice", "Add"})
# slices' functions that call a function of the program's on each item, and their models
# (toolchains/gocheck/shims/slices_funcs.go.txt) for a function that communicates; the front
# end adds the models to a package that calls one (runners.gocheck.frontend).
SLICES_MODELS = {"slices.DeleteFunc": "gocheckSlicesDeleteFunc",
                  "slices.IndexFunc": "gocheckSlicesIndexFunc",
                  "slices.ContainsFunc": "gocheckSlicesContainsFunc"}
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
# What `recover()` returns while a panic unwinds: some non-nil value of a type unknown,
# ("iface", "?panic", why), which says why (`panic_why`): a runtime error recovered and
# later panicked with again (conc's WaitGroup re-raises its tasks' panics in Wait) is the
# violation it was, if nothing recovers it the second time.
_PANIC = ("iface", "?panic")
# runtime.Goexit unwinds a goroutine's frames as a panic does, running its deferred calls,
# but `recover()` does not stop it, and at the goroutine's first frame the goroutine just
# ends (a test that called t.FailNow is over).
GOEXIT = "runtime.Goexit"


# ---------------------------------------------------------------- pending operations


# ---------------------------------------------------------------- the interpreter


class Machine(LibraryModels):
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
        self.fake_clock = bool(entry) and program.reaches_call(entry, SYNCTEST_TEST)
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
                elif op.get("err"):
                    # io.EOF, context.Canceled: never nil, though which error is unknown.
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
                self.complete(st, gid, ctx_err(True), run=False)
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
            return (*_PANIC, why)
        return NIL

    def panic_why(self, st: State, v: Value) -> str:
        """Why a `panic(v)` panics: the runtime error `v` holds, recovered earlier (also
        wrapped in a struct, as conc's *Recovered, followed through the heap), else a
        plain "panic"."""
        for x in self._reached(st, [v]):
            if x is not None and x[:2] == _PANIC and x[2] in RECOVERABLE:
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

    # --- local instructions

    def _op_Jump(self, st: State, g: G, fr: Frame, ins: Instr) -> None:
        self._goto(st, fr, fr.fn.blocks[fr.block].succs[0])

    def _op_If(self, st: State, g: G, fr: Frame, ins: Instr) -> None:
        cond = self.condition(st, fr, ins)
        succs = fr.fn.blocks[fr.block].succs
        self._goto(st, fr, succs[0] if cond else succs[1])

    def condition(self, st: State, fr: Frame, ins: Instr) -> Value:
        """An If's condition: a comparison of unknown integers is decided again, on what
        the branches taken since (in any goroutine) learnt of them."""
        cond = self.operand(st, fr, ins.args[0])
        return N.decided(cond) if N.is_comparison(cond) else cond

    def take_branch(self, st: State, gid: int, which: bool) -> None:
        """Resolve a choice: goroutine `gid` stopped at an If on unknown data. An integer
        compared there is narrowed on each way (`numeric.refined`): a register is never
        written again in this call, so what the branch learnt of it holds from here on."""
        fr = st.gs[gid].frames[-1]
        self._narrow(st, fr, fr.instr.args[0], which)
        succs = fr.fn.blocks[fr.block].succs
        self._goto(st, fr, succs[0] if which else succs[1])

    def _narrow(self, st: State, fr: Frame, cond: dict, holds: bool) -> None:
        value = self.operand(st, fr, cond)
        if N.is_comparison(value):
            # Its named integers carry what it learnt everywhere; the registers it was
            # computed from (below, through a `!` too) would only learn it again.
            for name, k, new in N.learnt(value, holds):
                st.substitute(name, k, new)
            return
        ins = fr.fn.definition(cond["n"]) if cond.get("k") == "reg" else None
        if ins is None:
            return
        if ins.op == "UnOp" and ins.x["op"] == "!":
            self._narrow(st, fr, ins.args[0], not holds)
            return
        if ins.op != "BinOp" or ins.x["op"] not in N.COMPARISONS:
            return
        a, b = ins.args
        op = ins.x["op"]
        for mine, other, how in ((a, b, op), (b, a, N.mirrored(op))):
            if mine.get("k") not in ("reg", "param"):
                continue  # a parameter is never written either: an assigned one is copied
            old = self.operand(st, fr, mine)
            new = N.refined(old, how, self.operand(st, fr, other), holds)
            if new is None:
                continue
            if mine["k"] == "reg":
                fr.regs[mine["n"]] = new
            else:
                i = mine["i"]
                fr.params = (*fr.params[:i], new, *fr.params[i + 1:])

    def _op_Phi(self, st: State, g: G, fr: Frame, ins: Instr) -> None:
        # Phis are evaluated on entering their block; reaching one here means the block
        # was entered at its start (the function's entry block has none).
        fr.pc += 1

    def _op_UnOp(self, st: State, g: G, fr: Frame, ins: Instr) -> None:
        x = self.operand(st, fr, ins.args[0])
        if ins.x["op"] == "*":
            self._set(st, fr, ins, self.load(st, x, ins.line, ins.type))
        elif ins.x["op"] == "-" and type(x) is float:
            self._set(st, fr, ins, -x)
        elif ins.x["op"] == "!" and N.is_comparison(x):
            self._set(st, fr, ins, N.negated(x))
        else:
            self._set(st, fr, ins, V.unop(ins.x["op"], x))

    def _op_BinOp(self, st: State, g: G, fr: Frame, ins: Instr) -> None:
        a, b = self.args(st, fr, ins)
        op, bits = ins.x["op"], ins.x.get("bits")
        scaled = ins.type == "time.Duration" and op in ("*", "/", "%")
        if bits and (ins.x["unsigned"] or scaled) and op in V.WRAPPED_OPS and \
                type(a) is int and type(b) is int:
            # A Duration is data, a number of nanoseconds (500 * time.Millisecond), not a
            # loop bound: its products stay exact however large. Sums still count
            # (`values.count`): a Duration added up round a loop must not grow for ever.
            self._set(st, fr, ins, V.exact_binop(op, a, b, bits, ins.x["unsigned"]))
            return
        if type(a) is float and type(b) is float:
            self._set(st, fr, ins, N.float_binop(op, a, b))
            return
        if N.is_range(a) or N.is_range(b) or bits and op in N.COMPARISONS and \
                (a == UNKNOWN or b == UNKNOWN):
            self._set(st, fr, ins, N.range_binop(op, a, b, bits, ins.x.get("unsigned", False)))
            return
        self._set(st, fr, ins, V.binop(op, a, b))

    def _op_MakeChan(self, st: State, g: G, fr: Frame, ins: Instr) -> None:
        size = self.operand(st, fr, ins.args[0])
        if not isinstance(size, int) or isinstance(size, bool):
            raise Unsupported("a channel whose buffer size is not a known constant", ins.line)
        self._set(st, fr, ins, st.new_chan(size, ins.line, ins.x.get("name", "")))

    def _op_Alloc(self, st: State, g: G, fr: Frame, ins: Instr) -> None:
        self._set(st, fr, ins, st.new_obj(V.zero(ins.x["elem"])))

    def _op_Store(self, st: State, g: G, fr: Frame, ins: Instr) -> None:
        addr, value = self.args(st, fr, ins)
        self.store(st, addr, value, ins.line)
        fr.pc += 1

    def _op_FieldAddr(self, st: State, g: G, fr: Frame, ins: Instr) -> None:
        x = self.operand(st, fr, ins.args[0])
        self._set(st, fr, ins, self._sub_addr(x, ins.x["field"], ins.line))

    def _sub_addr(self, x: Value, index: Value, line: int) -> Value:
        if x == NIL:
            raise ProgramExit("nil pointer dereference", line)
        if isinstance(x, tuple) and x[0] == "addr" and isinstance(index, int):
            return ("addr", x[1], x[2] + (index,))
        return ("addr?",)

    def _op_Field(self, st: State, g: G, fr: Frame, ins: Instr) -> None:
        x = self.operand(st, fr, ins.args[0])
        v = V.get_path(x, (ins.x["field"],))
        if V.is_unknown(v) and holds_sync(ins.type):
            raise Unsupported("a field the checker cannot follow", ins.line)
        self._set(st, fr, ins, v)

    def _op_IndexAddr(self, st: State, g: G, fr: Frame, ins: Instr) -> None:
        x, i = self.args(st, fr, ins)
        if isinstance(x, tuple) and x[0] == "slice":
            oid, path, lo, hi = x[1:5]
            if isinstance(i, int) and not isinstance(i, bool):
                if not 0 <= i < hi - lo:
                    raise ProgramExit("index out of range", ins.line)
                self._set(st, fr, ins, ("addr", oid, path + (lo + i,)))
                return
            self._set(st, fr, ins, ("addr?",))
            return
        if x == NIL and ins.x.get("base", "").startswith("slice"):
            raise ProgramExit("index out of range", ins.line)
        self._set(st, fr, ins, self._sub_addr(x, i if isinstance(i, int) else None, ins.line))

    def _op_Index(self, st: State, g: G, fr: Frame, ins: Instr) -> None:
        x, i = self.args(st, fr, ins)
        if isinstance(x, str) and type(i) is int:  # a byte of a known string
            data = x.encode()
            if not 0 <= i < len(data):
                raise ProgramExit("index out of range", ins.line)
            self._set(st, fr, ins, data[i])
            return
        v = V.get_path(x, (i,)) if isinstance(i, int) and not isinstance(i, bool) else UNKNOWN
        if V.is_unknown(v) and holds_sync(ins.type):
            raise Unsupported("a channel kept in an array at an index the checker cannot "
                              "tell", ins.line)
        self._set(st, fr, ins, v)

    def _op_Slice(self, st: State, g: G, fr: Frame, ins: Instr) -> None:
        x, lo, hi = self.args(st, fr, ins)
        lo = 0 if lo is None else lo
        # A slice's capacity ends where its array does, or at a 3-index slice's max (a
        # sixth item, an index into the array): an append within it writes in place.
        top = self.operand(st, fr, ins.x["max"]) if "max" in ins.x else None
        result: Value = UNKNOWN
        if isinstance(x, tuple) and x[0] == "addr" and isinstance(lo, int):
            arr = V.get_path(st.objs.get(x[1], UNKNOWN), x[2])
            if isinstance(arr, tuple) and arr[0] == "array":
                hi = len(arr[1]) if hi is None else hi
                if isinstance(hi, int):
                    result = ("slice", x[1], x[2], lo, hi)
                    if isinstance(top, int):
                        result += (top,)
        elif isinstance(x, tuple) and x[0] == "slice" and isinstance(lo, int):
            oid, path, lo0, hi0 = x[1:5]
            hi = hi0 - lo0 if hi is None else hi
            if isinstance(hi, int):
                result = ("slice", oid, path, lo0 + lo, lo0 + hi, *x[5:])
                if isinstance(top, int):
                    result = result[:5] + (lo0 + top,)
        elif x == NIL and lo == 0 and hi in (None, 0):
            result = NIL
        elif isinstance(x, tuple) and x[0] == "?slice":
            result = _sub_slice(x[1], lo, x[1] if hi is None else hi, ins.line)
        elif isinstance(x, str) and x.isascii() and isinstance(lo, int) and \
                (hi is None or isinstance(hi, int)):
            hi = len(x) if hi is None else hi
            if not 0 <= lo <= hi <= len(x):
                raise ProgramExit("slice bounds out of range", ins.line)
            result = x[lo:hi]
        if top is not None and not isinstance(top, int) and isinstance(result, tuple) \
                and result[0] == "slice":
            result = UNKNOWN  # a capacity the checker cannot tell
        if V.is_unknown(result) and holds_sync(ins.x.get("base", "")):
            raise Unsupported("a slice of channels the checker cannot follow", ins.line)
        self._set(st, fr, ins, result)

    def _op_MakeSlice(self, st: State, g: G, fr: Frame, ins: Instr) -> None:
        n, cap = self.args(st, fr, ins)
        elem = ins.x["elem"]
        if isinstance(n, int) and not isinstance(n, bool) and 0 <= n <= 256:
            # The array holds the capacity: appends within it write in place, as in Go.
            size = cap if isinstance(cap, int) and n <= cap <= 256 else n
            addr = st.new_obj(("array", (V.zero(elem),) * size))
            self._set(st, fr, ins, ("slice", addr[1], (), 0, n))
            return
        if holds_sync(elem):
            raise Unsupported("a slice of channels or sync objects of unknown length", ins.line)
        self._set(st, fr, ins, UNKNOWN)

    # Maps: an object ("mapv", entries, vague) with entries sorted by key. A key the
    # checker cannot tell makes the map vague: lookups then give UNKNOWN, which is
    # unsupported when the values are channels or sync objects. Ranging visits the
    # known entries in every order for a small map, else in key order (MAP_ORDERS_UP_TO).

    def _op_MakeMap(self, st: State, g: G, fr: Frame, ins: Instr) -> None:
        addr = st.new_obj(("mapv", (), False))
        self._set(st, fr, ins, ("map", addr[1]))

    def _map(self, st: State, m: Value, line: int, holds: bool) -> tuple | None:
        if isinstance(m, tuple) and m[0] == "map":
            return st.objs[m[1]]
        if m == NIL:
            return ("mapv", (), False)
        if holds:
            raise Unsupported("a map of channels or sync objects the checker cannot follow",
                              line)
        return None

    def _op_MapUpdate(self, st: State, g: G, fr: Frame, ins: Instr) -> None:
        m, k, v = self.args(st, fr, ins)
        mv = self._map(st, m, ins.line, value_holds_sync(v))
        if m == NIL:
            raise ProgramExit("assignment to entry in nil map", ins.line)
        if mv is not None:
            _, entries, vague = mv
            st.objs[m[1]] = ("mapv", *_map_put(entries, vague, k, v, ins.line))
        fr.pc += 1

    def _maps_copy(self, st: State, dst: Value, src: Value, line: int) -> None:
        """maps.Copy(dst, src): each entry of src stored in dst as `dst[k] = v` would; a
        source the checker cannot follow leaves dst vague (its lookups unknown)."""
        smv = self._map(st, src, line, False)
        dmv = self._map(st, dst, line, False)
        if dmv is None:
            return  # a map the checker lost already: nothing more to lose
        if dst == NIL:
            # Go panics when there is an entry to store; from a map the checker lost, it
            # cannot tell whether there is, and goes on as if there were none.
            if smv is not None and smv[1]:
                raise ProgramExit("assignment to entry in nil map", line)
            return
        _, entries, vague = dmv
        if smv is None:
            st.objs[dst[1]] = ("mapv", entries, True)
            return
        for k, v in smv[1]:
            entries, vague = _map_put(entries, vague, UNKNOWN if _unknown_key(k) else k, v,
                                      line)
        st.objs[dst[1]] = ("mapv", entries, vague or smv[2])

    def _lookup(self, st: State, m: Value, k: Value, type_class: str, line: int
                ) -> tuple[Value, Value]:
        mv = self._map(st, m, line, holds_sync(type_class))
        if mv is not None and not V.contains_unknown(k):
            _, entries, vague = mv
            for ek, ev in entries:
                if ek == k:
                    return ev, True
            if not vague:
                return V.zero(type_class), False
        if holds_sync(type_class):
            raise Unsupported("a channel looked up in a map under a key the checker cannot "
                              "tell", line)
        return UNKNOWN, UNKNOWN

    def _op_Lookup(self, st: State, g: G, fr: Frame, ins: Instr) -> None:
        m, k = self.args(st, fr, ins)
        if isinstance(m, str) or ins.type == "int" and not isinstance(m, tuple):
            self._set(st, fr, ins, UNKNOWN)  # indexing a string
            return
        if ins.x.get("commaok"):
            v, ok = self._lookup(st, m, k, _first_class(ins.type), ins.line)
            self._set(st, fr, ins, ("tuple", (v, ok)))
        else:
            self._set(st, fr, ins, self._lookup(st, m, k, ins.type, ins.line)[0])

    def _op_Range(self, st: State, g: G, fr: Frame, ins: Instr) -> None:
        # The iterator: ("iter", map object, the keys still to visit, in the order taken).
        x = self.operand(st, fr, ins.args[0])
        if isinstance(x, tuple) and x[0] == "map":
            self._set(st, fr, ins, ("iter", x[1], tuple(k for k, _ in st.objs[x[1]][1])))
        elif x == NIL:
            self._set(st, fr, ins, ("iter", None, ()))
        else:
            self._set(st, fr, ins, UNKNOWN)

    def range_orders(self, st: State, fr: Frame, ins: Instr) -> list[tuple] | None:
        """The orders a range over a map at `ins` (a Range, or a call of maps.Keys, Values
        or All's iterator with the loop body) may visit its keys in, when there is a choice
        (MAP_ORDERS_UP_TO); None when the range runs locally."""
        if ins.op == "Range":
            x = self.operand(st, fr, ins.args[0])
        elif ins.x.get("static"):
            return None  # a function called by name is no iterator (a hot path: every call)
        else:
            seq, args, _ = self._resolve(st, fr, ins.x)
            if not (isinstance(seq, tuple) and seq[:2] == ("model", "seq")
                    and seq[2].startswith("maps.") and len(args) == 1):
                return None
            x = seq[3]
        if not (isinstance(x, tuple) and x[0] == "map"):
            return None
        mv = st.objs[x[1]]
        orders = self.key_orders(tuple(k for k, _ in mv[1]))
        return orders if len(orders) > 1 and not mv[2] else None

    def key_orders(self, keys: tuple) -> list[tuple]:
        """`key_orders`, noting the largest map whose orders were not all tried."""
        if len(keys) > MAP_ORDERS_UP_TO:
            self.orders_cut = max(self.orders_cut, len(keys))
        return key_orders(keys)

    def asks_cpus(self, st: State, fr: Frame, ins: Instr) -> bool:
        """Whether `ins` asks how many CPUs there are before the run has chosen: a call of
        runtime.NumCPU or GOMAXPROCS, or a subtest's t.Parallel (`go test -parallel`'s
        default is the count: gotest.PARALLEL)."""
        # The state's CPU count is looked at only for these calls: a look is a read of
        # the state that partial-order reduction counts as touching every goroutine.
        static = ins.x.get("static") if ins.op == "Call" else None
        if static not in CPU_QUERIES and static != gotest.PARALLEL_METHOD or \
                _CPUS in st.objs:
            return False
        if static in CPU_QUERIES:
            return True
        args = [self.operand(st, fr, a) for a in ins.x["args"]]
        return bool(args) and gotest.is_subtest(self, st, args[0])

    @staticmethod
    def parallel_limit(st: State) -> int:
        """How many tests `go test` runs at once: its -parallel flag's default, GOMAXPROCS
        when the run starts, the run's CPU count (chosen before a subtest's Parallel, unless
        the call went through a function value: then the most CPUs the checker takes)."""
        return st.objs.get(_CPUS, CPU_COUNTS[-1])

    @staticmethod
    def take_cpus(st: State, n: int) -> None:
        """Resolve a choice: the run has `n` CPUs (CPU_COUNTS)."""
        st.objs[_CPUS] = n

    def _cpus(self, st: State, name: str, args: list[Value]) -> Value:
        """runtime.NumCPU(), or GOMAXPROCS(n): the count, after setting it when n > 0."""
        procs = st.objs.get(_PROCS, st.objs.get(_CPUS, UNKNOWN))
        if name == "runtime.NumCPU":
            return st.objs.get(_CPUS, UNKNOWN)
        if args and args[0] != 0:
            st.objs[_PROCS] = args[0] if isinstance(args[0], int) and args[0] > 0 else UNKNOWN
        return procs

    def value_choice(self, st: State, fr: Frame, ins: Instr
                     ) -> tuple[dict, Value, tuple[int, ...]] | None:
        """The operand an instruction needs exactly that is a small range (a length
        up to len_bound, `len(key) % 4`): the operand, its value and the values it may
        take there (in the bounds of the slice it indexes). None if there is none."""
        op = ins.op
        lo_min: int | None = None
        hi_max: int | None = None
        if op == "Range" or op == "Call" and ins.x.get("callee") == _LEN:
            # A map holding values under keys the checker cannot tell: how many of them
            # are distinct (`_settle`), before its length is taken or a range visits it.
            operand = ins.args[0] if op == "Range" else ins.x["args"][0]
            counts = self._distinct_counts(st, self.operand(st, fr, operand))
            return None if counts is None else (operand, None, counts)
        if op == "BinOp" or op == "Call" and ins.x.get("callee") in _MIN_MAX:
            return self._arithmetic_choice(st, fr, ins)
        if op in ("MakeChan", "MakeSlice"):
            # (a slice of a length the checker cannot tell would be unknown: a range over
            # it could not agree with the list whose length it has)
            operand, lo_min = ins.args[0], 0
        elif op == "Call":
            if ins.x.get("static") != "(*sync.WaitGroup).Add":
                return None
            operand = ins.x["args"][1]
        else:  # IndexAddr, Index: only where the item picked holds a channel, a sync
            # object or a reference (a shard's struct), not plain data
            operand = ins.args[1]
            if not N.is_range(self.operand(st, fr, operand)):
                return None
            items = self._indexed(st, self.operand(st, fr, ins.args[0]))
            if not items or not any(_followed(v) for v in items):
                return None
            lo_min, hi_max = 0, len(items) - 1
        value = self.operand(st, fr, operand)
        values = _few_values(value, lo_min, hi_max)
        return None if values is None else (operand, value, values)

    def _arithmetic_choice(self, st: State, fr: Frame, ins: Instr
                           ) -> tuple[dict, Value, tuple[int, ...]] | None:
        """An operand of arithmetic that ranges do not follow exactly (a product or a
        quotient of a small range, min or max, the sum of two ranges), when it has few
        values: each is a branch, so that the result is a number again, as related to
        the list it came from as the operand (`(len(items) + 1) / 2` batches)."""
        if ins.op == "BinOp":
            if ins.type != "int" or ins.x["op"] in N.COMPARISONS:
                return None
            operands = ins.args
            values = [self.operand(st, fr, o) for o in operands]
            if ins.x["op"] in ("+", "-") and any(type(v) is int for v in values):
                return None  # a named number plus a known one stays named
        else:
            operands = ins.x["args"]
            values = [self.operand(st, fr, o) for o in operands]
        for operand, value in zip(operands, values, strict=True):
            few = _few_values(value, None, None)
            if few is not None:
                return operand, value, few
        return None

    def _indexed(self, st: State, x: Value) -> tuple | None:
        """The items a slice, an array or a pointer to an array holds, None if the
        checker cannot tell them."""
        if isinstance(x, tuple) and x[0] == "slice":
            items = self._array_of(st, x)
            return None if items is None else items[x[3]:x[4]]
        if isinstance(x, tuple) and x[0] == "addr":
            x = V.get_path(st.objs.get(x[1], UNKNOWN), x[2])
        if isinstance(x, tuple) and x[0] == "array":
            return x[1]
        return None

    def take_value(self, st: State, gid: int, n: int) -> None:
        """Resolve a choice: the number goroutine `gid`'s instruction needs exactly is `n`;
        a named one is `n` wherever it was copied (the list's length for the loop over it
        too)."""
        fr = st.gs[gid].frames[-1]
        choice = self.value_choice(st, fr, fr.instr)
        assert choice is not None
        operand, value, _ = choice
        if value is None:
            self._settle(st, self.operand(st, fr, operand), n)
        elif N.name_of(value) is not None:
            st.substitute(value[3], value[4], n)
        elif operand["k"] == "reg":
            fr.regs[operand["n"]] = n
        elif operand["k"] == "param":
            i = operand["i"]
            fr.params = (*fr.params[:i], n, *fr.params[i + 1:])
        else:
            i = operand["i"]
            fr.free = (*fr.free[:i], n, *fr.free[i + 1:])

    def _distinct_counts(self, st: State, m: Value) -> tuple[int, ...] | None:
        """How many distinct keys map `m` may have, when it holds values under keys the
        checker cannot tell that may equal each other or a known key (a set of the input's
        words with duplicates), and more than one count is possible; else None."""
        if not (isinstance(m, tuple) and m[0] == "map"):
            return None
        _, entries, vague = st.objs[m[1]]
        if vague != UNKNOWN_KEYS:
            return None
        unknown = sum(1 for k, _ in entries if _unknown_key(k))
        least = max(len(entries) - unknown, 1)
        return tuple(range(least, len(entries) + 1)) if least < len(entries) else None

    def _settle(self, st: State, m: Value, n: int) -> None:
        """Map `m` has `n` distinct keys: the values stored first under keys the checker
        cannot tell were overwritten by later ones (or stored under a known key)."""
        _, entries, _ = st.objs[m[1]]
        drop = len(entries) - n
        kept = []
        for k, v in sorted(entries, key=lambda e: e[0][1] if _unknown_key(e[0]) else -1):
            if drop and _unknown_key(k):
                drop -= 1
                continue
            kept.append((k, v))
        st.objs[m[1]] = ("mapv", tuple(sorted(kept, key=repr)), UNKNOWN_KEYS_COUNTED)

    def take_order(self, st: State, gid: int, keys: tuple) -> None:
        """Resolve a choice: goroutine `gid`'s range over a map visits `keys` in this order."""
        g = st.gs[gid]
        fr = g.frames[-1]
        ins = fr.instr
        if ins.op == "Range":
            self._set(st, fr, ins, ("iter", self.operand(st, fr, ins.args[0])[1], keys))
            return
        seq, args, _ = self._callee(st, fr, ins)
        self._range_seq(st, g, fr, seq, args[0], ins.line, ins.res, True, keys)

    def _op_Next(self, st: State, g: G, fr: Frame, ins: Instr) -> None:
        it = self.operand(st, fr, ins.args[0])
        parts = V.split_class(ins.type, "(", ")") if ins.type.startswith("tuple(") else []
        if isinstance(it, tuple) and it[0] == "iter":
            _, oid, keys = it
            _, entries, vague = st.objs[oid] if oid is not None else ("mapv", (), False)
            now = dict(entries)
            # Go visits an entry deleted before it was reached not at all, and one added
            # during the range perhaps: here, not.
            while keys and keys[0] not in now:
                keys = keys[1:]
            if keys:
                if ins.args[0]["k"] == "reg":
                    fr.regs[ins.args[0]["n"]] = ("iter", oid, keys[1:])
                self._set(st, fr, ins, ("tuple", (True, keys[0], now[keys[0]])))
                return
            if not vague or vague in (UNKNOWN_KEYS, UNKNOWN_KEYS_COUNTED):
                self._set(st, fr, ins, ("tuple", (False, *(V.zero(p) for p in parts[1:]))))
                return
        if holds_sync(ins.type):
            raise Unsupported("a range over a map holding channels", ins.line)
        self._set(st, fr, ins, V.unknown_of(ins.type))

    def _op_Extract(self, st: State, g: G, fr: Frame, ins: Instr) -> None:
        t = self.operand(st, fr, ins.args[0])
        v = t[1][ins.x["index"]] if isinstance(t, tuple) and t[0] == "tuple" else UNKNOWN
        if V.is_unknown(v) and holds_sync(ins.type):
            raise Unsupported("a channel returned by code the checker does not model",
                              ins.line)
        self._set(st, fr, ins, v)

    def _op_MakeClosure(self, st: State, g: G, fr: Frame, ins: Instr) -> None:
        self._set(st, fr, ins, ("fn", ins.x["fn"], tuple(self.args(st, fr, ins))))

    def _op_MakeInterface(self, st: State, g: G, fr: Frame, ins: Instr) -> None:
        x = self.operand(st, fr, ins.args[0])
        dyn = pipes.dynamic_type(self.program.package, ins.x["dyn"])
        model = pipes.BUFFERED.get(f"({dyn}).")
        if model is not None and self._model_tag(st, x) == model[1]:
            dyn = f"*{self.program.package}.{model[0]}"
        self._set(st, fr, ins, ("iface", dyn, x))

    def _op_Copy(self, st: State, g: G, fr: Frame, ins: Instr) -> None:
        x = self.operand(st, fr, ins.args[0])
        wrong = {
            "int": not (isinstance(x, int) and not isinstance(x, bool)),
            "string": not isinstance(x, str),
            "bool": not isinstance(x, bool),
        }
        if ins.x.get("frombytes") and ins.type == "string" and not isinstance(x, str):
            x = self._bytes_text(st, x)
        elif ins.type == "float64":
            x = N.as_float(x)
        elif type(x) is float and ins.x.get("bits"):  # float to an integer type
            x = N.as_int(x, ins.x["bits"], ins.x["unsigned"])
        elif N.is_range(x):
            # The same number in another integer type (BufferCap(rand.Intn(50) + 1)), name
            # and all, where the type holds every number of its range.
            if ins.x.get("bits") and not N.fits(x, ins.x["bits"], ins.x["unsigned"]):
                x = UNKNOWN
        elif wrong.get(ins.type, False):
            x = UNKNOWN
        elif type(x) is int and ins.x.get("bits"):  # a conversion between integer types
            x = V.wrapped(x, ins.x["bits"], ins.x["unsigned"])
        self._set(st, fr, ins, x)

    def _bytes_text(self, st: State, b: Value) -> Value:
        """string(b) of a []byte whose bytes the checker knows (copied from a string, as
        a pipe's model does), else UNKNOWN."""
        if b == NIL:
            return ""
        items = self._items(st, b) if isinstance(b, tuple) and b[0] == "slice" else None
        if items is None or not all(type(i) is int and 0 <= i < 256 for i in items):
            return UNKNOWN
        try:
            return bytes(items).decode()
        except UnicodeDecodeError:
            return UNKNOWN

    def _op_TypeAssert(self, st: State, g: G, fr: Frame, ins: Instr) -> None:
        x = self.operand(st, fr, ins.args[0])
        asserted = ins.x["asserted"]
        commaok = ins.x["commaok"]
        if isinstance(x, tuple) and x[:2] == _PANIC:
            x = UNKNOWN  # the panic's value has a type the checker does not know
        if isinstance(x, tuple) and x[0] == "iface":
            if ins.x["toiface"]:
                ok, v = True, x
            else:
                ok = x[1] == asserted
                v = x[2] if ok else V.zero(_first_class(ins.type))
        elif x == NIL:
            ok, v = False, NIL
        else:
            if holds_sync(ins.type):
                raise Unsupported("a type assertion on a value the checker cannot tell",
                                  ins.line)
            self._set(st, fr, ins, V.unknown_of(ins.type))
            return
        if commaok:
            self._set(st, fr, ins, ("tuple", (v, ok)))
        elif not ok:
            raise ProgramExit("interface conversion panic", ins.line)
        else:
            self._set(st, fr, ins, v)

    def _op_Defer(self, st: State, g: G, fr: Frame, ins: Instr) -> None:
        callee, args, static = self._callee(st, fr, ins)
        fr.defers = fr.defers + ((callee, tuple(args), static, ins.line),)
        fr.pc += 1

    def _op_RunDefers(self, st: State, g: G, fr: Frame, ins: Instr) -> None:
        if not fr.defers:
            fr.pc += 1
            return
        callee, args, static, line = fr.defers[-1]
        fr.defers = fr.defers[:-1]
        self._invoke(st, g, fr, callee, list(args), static, line, None, advance=False)

    def _op_Return(self, st: State, g: G, fr: Frame, ins: Instr) -> None:
        results = self.args(st, fr, ins)
        g.frames.pop()
        value = results[0] if len(results) == 1 else ("tuple", tuple(results))
        if isinstance(fr.ret, tuple) and fr.ret[0] == "seq":
            self._yielded(st, g, fr.ret, value, ins.line)
        elif isinstance(fr.ret, tuple) and fr.ret[0] == "test":
            gotest.ended(self, st, g, fr.ret[1])
        elif fr.ret == EVALUATED:
            st.objs[EVALUATED] = value
        elif isinstance(fr.ret, tuple):  # a sync.OnceValue's function: ("once", its Once)
            once = self.load(st, fr.ret[1], ins.line, "other")
            self.store(st, fr.ret[1], (*once[:5], value), ins.line)
        elif fr.ret is not None and g.frames:
            caller = g.frames[-1]
            caller.regs[fr.ret] = value

    def _op_Go(self, st: State, g: G, fr: Frame, ins: Instr) -> None:
        callee, args, static = self._callee(st, fr, ins)
        fr.pc += 1
        if isinstance(callee, tuple) and callee[0] == "fn":
            fn = self.program.function(callee[1])
            if fn is not None:
                label = f"g{len(st.gs)} ({fn.short_name}, spawned at line {ins.line})"
                st.spawn([self.frame(fn, tuple(args), callee[2], None)], label)
                self.run(st, len(st.gs) - 1)
                return
        if static == "(*sync.WaitGroup).Done" or (
                isinstance(callee, tuple) and callee[:2] == ("fn", "(*sync.WaitGroup).Done")):
            st.spawn([], f"g{len(st.gs)} (WaitGroup.Done, spawned at line {ins.line})",
                     tail=(("wg_done", args[0]),))
            return
        if isinstance(callee, tuple) and (callee[:2] == ("model", "cancel")
                                          or callee[:2] == ("builtin", "close")):
            # `go cancel()`, `go close(ch)`: a goroutine that does that one step.
            kind, ch = ("cancel", callee[2]) if callee[0] == "model" else ("close", args[0])
            st.spawn([], f"g{len(st.gs)} ({kind}, spawned at line {ins.line})",
                     tail=((kind, ch),))
            return
        if callee == ("builtin", "panic"):
            # `go panic(v)` (singleflight's DoChan): a goroutine nobody can recover in, so
            # the program ends; a recovered runtime error panicked with so is that error.
            why = self.panic_why(st, args[0])
            st.spawn([], f"g{len(st.gs)} (panic, spawned at line {ins.line})",
                     tail=(("exit", why, ins.line),))
            return
        if isinstance(callee, tuple) and callee[0] in ("model", "builtin"):
            raise Unsupported(f"a goroutine running {static or callee[1]}", ins.line)
        if isinstance(callee, tuple) and callee[0] == "invoke" and not ins.x.get("escapes") \
                and not self._program_has_method(callee[1]):
            return  # a library method through an interface, handed nothing of ours
        if not (isinstance(callee, tuple) and callee[0] == "fn"):
            raise Unsupported("a goroutine running a function value the checker cannot tell",
                              ins.line)
        # A goroutine running library code: its effects on channels are not modelled.
        if ins.x.get("escapes") or callee[2]:
            raise Unsupported(f"a goroutine running {static or 'library code'} with a channel",
                              ins.line)

    def _op_Call(self, st: State, g: G, fr: Frame, ins: Instr) -> None:
        callee, args, static = self._callee(st, fr, ins)
        self._invoke(st, g, fr, callee, args, static, ins.line, ins, advance=True)

    def _callee(self, st: State, fr: Frame, ins: Instr) -> tuple[Value, list[Value], Any]:
        return self._resolve(st, fr, ins.x)

    def _resolve(self, st: State, fr: Frame, x: Any) -> tuple[Value, list[Value], Any]:
        """The function a call runs, its arguments, and its static name if known; a call
        through an interface resolves to the method of the value's dynamic type."""
        args = [self.operand(st, fr, a) for a in x["args"]]
        if x["mode"] == "invoke":
            method = x["method"]
            recv = self.operand(st, fr, x["recv"])
            if isinstance(recv, tuple) and recv[0] == "iface":
                name = f"({recv[1]}).{method}"
                if name in SYNC_OPS:
                    return ("fn", name, ()), [recv[2], *args], name
                target = self.program.methods.get(recv[1], {}).get(method)
                if target and self.program.function(target):
                    return ("fn", target, ()), [recv[2], *args], target
            return ("invoke", method, recv, x.get("iface"), x.get("escapes")), args, None
        callee = self.operand(st, fr, x["callee"])
        if isinstance(callee, tuple) and callee[0] == "fn" and \
                self.program.function(callee[1]) is None:
            model = pipes.model_of(self.program.package, callee[1], args) or \
                self._bufio_model(st, callee[1], args) or \
                self._handed_model(st, callee[1], args) or \
                self._slices_model(callee[1], args)
            if model is not None and self.program.function(model) is not None:
                return ("fn", model, ()), args, model
        return callee, args, x.get("static")

    def _bufio_model(self, st: State, name: str, args: list[Value]) -> str | None:
        """The model's method a call of a bufio or json reader's or writer's method runs
        when the receiver is a model's (one over a pipe); Unsupported for a method it
        lacks."""
        for prefix, (model, tag) in pipes.BUFFERED.items():
            if name.startswith(prefix) and args and self._model_tag(st, args[0]) == tag:
                method = f"(*{self.program.package}.{model}).{name[len(prefix):]}"
                if self.program.function(method) is None:
                    raise Unsupported(f"{name.split('/')[-1]} over a pipe or a reader or "
                                      "writer of the program's (not modelled)")
                return method
        return None

    def _handed_model(self, st: State, name: str, args: list[Value]) -> str | None:
        """The model of io.ReadFull, io.Copy, fmt.Fprintf, bufio.NewScanner and the like
        (`pipes.handed_model`) when one is handed a value of the program's with a method
        that may communicate: the model calls its Read or Write where the checker follows
        them. Where the front end added no models (`frontend._shims`), the library's runs,
        which is unsupported (`_no_communicating_methods`)."""
        model = pipes.handed_model(self.program.package, name)
        if model is None or self._communicating_method(st, args) is None:
            return None
        return model

    def _slices_model(self, name: str, args: list[Value]) -> str | None:
        """The model of slices.DeleteFunc, IndexFunc or ContainsFunc (an instance of it,
        `slices.DeleteFunc[[]chan int, chan int]`) when the function it is handed does more
        than compute: the model calls it on each item where the checker follows it (one
        that only computes runs as the library runs it, `_with_predicate`). Where the front
        end added no model (`frontend._shims`), as before."""
        model = SLICES_MODELS.get(name.split("[")[0])
        f = args[-1] if args else None
        if model is None or not (isinstance(f, tuple) and f[:1] == ("fn",)) or \
                self.program.pure(f[1]):
            return None
        return f"{self.program.package}.{model}"

    def _model_tag(self, st: State, v: Value) -> Value:
        """The first field of what `v` points to: a pipe model's says what it models."""
        if not (isinstance(v, tuple) and v[0] == "addr" and v[1] in st.objs):
            return None
        obj = V.get_path(st.objs[v[1]], v[2])
        return obj[1][0] if isinstance(obj, tuple) and obj[0] == "struct" and obj[1] else None

    def _invoke(self, st: State, g: G, fr: Frame, callee: Value, args: list[Value],
                static: str | None, line: int, ins: Instr | None, *, advance: bool) -> None:
        """Call `callee` locally; results go to `ins.res` (none for a deferred call)."""
        res = ins.res if ins is not None else None
        rtype = ins.type if ins is not None else ""

        def done(v: Value) -> None:
            if res:
                fr.regs[res] = named(st, v, rtype)
            if advance:
                fr.pc += 1

        if callee == NIL:
            raise ProgramExit("call of a nil function", line)
        kind = callee[0] if isinstance(callee, tuple) else None
        if kind == "invoke":
            _, method, recv, iface, escapes = callee
            if isinstance(recv, tuple) and recv[0] == "ctx":
                done(self._ctx_method(st, recv, method, rtype))
                return
            if isinstance(recv, tuple) and recv[0] == "iface" and recv[1] == "*testing.T":
                self._invoke(st, g, fr, ("fn", f"(*testing.T).{method}", ()),
                             [recv[2], *args], None, line, ins, advance=advance)
                return
            if isinstance(recv, tuple) and recv[0] == "iface":
                table = self.program.methods.get(recv[1], {})
                target = table.get(method)
                if target and self.program.function(target):
                    self._invoke(st, g, fr, ("fn", target, ()), [recv[2], *args], None, line,
                                 ins, advance=advance)
                    return
                if method in ("Error", "String"):
                    done(UNKNOWN)
                    return
                written = pipes.sink_write(recv[1], method, args)
                if written is not None:
                    done(written)
                    return
            if recv == NIL:
                raise ProgramExit("method call on a nil interface", line)
            if escapes or holds_sync(rtype) or self._program_has_method(method):
                raise Unsupported(f"a call of {method} through an interface the checker "
                                  "cannot resolve", line)
            done(V.unknown_of(rtype))
            return
        if kind == "builtin" and callee[1] == "recover":
            done(self._recover(g, fr))
            return
        if kind == "model" and callee[1] == "seq" and len(args) == 1:
            self._range_seq(st, g, fr, callee, args[0], line, res, advance)
            return
        if kind == "builtin":
            done(self._builtin(st, callee[1], args, line, rtype))
            return
        if kind == "fn":
            name = callee[1]
            if name.startswith(_LEAK_DETECTORS):
                done(V.unknown_of(rtype) if rtype else None)
                return
            if name.startswith(_ASSERTIONS):
                fns = [a for a in args if isinstance(a, tuple) and a[0] == "fn"
                       and self.program.function(a[1])]
                if fns:
                    shim = self._testify_shim(name, args, fns[0])
                    if shim is None:
                        raise Unsupported(f"{name.rsplit('/', 1)[-1]} runs a function of "
                                          "the program's", line)
                    self._invoke(st, g, fr, ("fn", shim[0], ()), shim[1], None, line, ins,
                                 advance=advance)
                    return
                done(V.unknown_of(rtype) if rtype else None)
                return
            if name in ("(*sync.Pool).Get", "(*sync.Pool).Put"):
                self._pool(st, g, fr, name, args, line, ins, advance=advance)
                return
            if name == f"{self.program.package}.{pipes.UNSUPPORTED}":
                raise Unsupported(args[0] if isinstance(args[0], str) else name, line)
            if name == f"{self.program.package}.{pipes.TAKEN}":
                done(pipes.taken(*args))
                return
            if name == f"{self.program.package}.{pipes.REST}":
                done(pipes.rest(*args))
                return
            fn = self.program.function(name)
            if fn is not None:
                if len(g.frames) >= MAX_FRAMES:
                    raise Unsupported("recursion deeper than the checker follows", line)
                if advance:
                    fr.pc += 1
                g.frames.append(self.frame(fn, tuple(args), callee[2], res))
                return
            if name == "runtime.Goexit":
                self.start_goexit(st, g)
                return
            printed = self._printed_methods(st, name, args)
            if name == SYNCTEST_TEST:
                # Its function runs as a subtest would, in the bubble the fake clock is of.
                done(gotest.bubble(self, st, g, args[0], args[1], line))
            elif name == gotest.M_RUN:
                gotest.main_run(self, st, g, args[0] if args else UNKNOWN, line)
                done(V.unknown_of(rtype))
            elif gotest.is_t_method(name):
                go_on, v = gotest.call(self, st, g, name, args, line, rtype)
                if go_on:
                    done(v)
            else:
                done(self._library(st, name, args, line, rtype, ins))
            # fmt and log call the Error or String method of what they print; those
            # calls run after the library's result is in, in the order of the arguments.
            for method, recv in reversed(printed):
                g.frames.append(self.frame(method, (recv,), (), None))
            return
        raise Unsupported("a call of a function value the checker cannot tell", line)

    def _testify_shim(self, name: str, args: list[Value], f: Value
                      ) -> tuple[str, list[Value]] | None:
        """The plain-Go model (toolchains/gocheck/shims/testify.go.txt, in the checked
        package) of a testify assertion that runs the test's function `f`, and its
        arguments; None when there is none. require's fails the test through t.FailNow;
        an `*Assertions` method's T is inside it, unseen, so only its result counts."""
        method = name.rsplit(".", 1)[1].removesuffix("f")
        model = _TESTIFY_MODELS.get(method)
        shim = f"{self.program.package}.{model[0]}" if model else ""
        if model is None or self.program.function(shim) is None:
            return None
        t = args[0] if "/require." in name and not name.startswith("(*") else NIL
        if method in ("Eventually", "Never"):
            return shim, [t, f, *args[2:4]]
        return shim, [t, f, model[1]]

    def _pool(self, st: State, g: G, fr: Frame, name: str, args: list[Value], line: int,
              ins: Instr | None, *, advance: bool) -> None:
        """sync.Pool: Get calls New (or gives nil without one), Put keeps nothing. Go may
        drop a pool's items at any moment, so a Get that always finds the pool empty is a
        run Go may take; one that gets back an item Put earlier is not explored."""
        def done(v: Value) -> None:
            if ins is not None and ins.res:
                fr.regs[ins.res] = v
            if advance:
                fr.pc += 1

        if name.endswith("Put"):
            done(("tuple", ()))
            return
        pool = self.load(st, args[0], line, "other")
        new = pool[1][-1] if isinstance(pool, tuple) and pool[0] == "struct" else UNKNOWN
        if new == NIL:
            done(NIL)
            return
        self.known_fn(new, line, "a sync.Pool's New")
        self._invoke(st, g, fr, new, [], None, line, ins, advance=advance)

    def _hands_over(self, reached: Iterable[tuple | None]) -> bool:
        """Whether library code given arguments that reach these values (`_reached`)
        can reach a channel, sync object or function of the program. Their types may say
        it could (a *bufio.Scanner holds a split function) while the values hold only what
        the library made itself (unknown here): then it cannot touch the program's."""
        for v in reached:
            if v is None:  # a pointer the checker cannot follow
                return True
            tag = v[0]
            if tag == "fn" and self.program.function(v[1]) is not None:
                return True
            if tag in SYNC_TAGS and tag != "fn" and not (tag == "ctx" and v[1] == NIL):
                return True  # (Background's context has nothing to wait on)
        return False

    def _reached(self, st: State, roots: list[Value]) -> Iterator[tuple | None]:
        """Every tagged value reachable from `roots` through their insides and the heap;
        None for a pointer that cannot be followed. A pointer reaches what it points to
        only (a pointer to a field reaches no sibling); a slice, its whole array."""
        todo = list(roots)
        seen: set = set()
        while todo:
            v = todo.pop()
            if type(v) is not tuple or not v:
                continue
            yield v
            tag = v[0]
            if tag == "addr" and v[1] is not None:
                if v[:3] not in seen:
                    seen.add(v[:3])
                    try:
                        todo.append(self.load(st, v, 0, "other"))
                    except (Unsupported, ProgramExit):
                        yield None
            elif tag in ("slice", "map", "iter") and v[1] is not None:
                if v[1] not in seen:
                    seen.add(v[1])
                    todo.append(st.objs.get(v[1]))
            elif tag not in ("?", "nil", "chan", "fn", "model", "ctx"):
                todo.extend(V.children(v))

    def _no_communicating_methods(self, st: State, name: str, args: list[Value],
                                  line: int) -> None:
        """A library function handed an interface value whose dynamic type has a method
        of the program that may communicate (io.TeeReader and a Read that receives) may
        call it unseen: unsupported (`_handed_model` runs a model where there is one)."""
        found = self._communicating_method(st, args)
        if found is not None:
            what = found[0].replace(self.program.package + ".", "")
            raise Unsupported(f"{name} is handed a {what} whose method {found[1]} "
                              "communicates", line)

    def _communicating_method(self, st: State, args: list[Value]) -> tuple[str, str] | None:
        """The dynamic type and the method of the first interface value among `args` with
        a method of the program's that may communicate, or None."""
        for v in self._ifaces(st, args):
            for method, target in self.program.methods.get(v[1], {}).items():
                if self.program.communicates(target):
                    return v[1], method
        return None

    def _ifaces(self, st: State, args: list[Value]) -> Iterator[Value]:
        """The interface values among a library call's arguments, those of a variadic
        slice (fmt.Println's ...any) included."""
        for a in args:
            items = self._items(st, a) if isinstance(a, tuple) and a[0] == "slice" else (a,)
            for v in items or ():
                if isinstance(v, tuple) and v[0] == "iface":
                    yield v

    def _printed_methods(self, st: State, name: str, args: list[Value]
                         ) -> list[tuple[Function, Value]]:
        """The program's Error or String methods a call of fmt or log runs on what it
        prints (a value's Error first, as fmt prefers it), with their receivers."""
        if name.split(".")[0].lstrip("(*") not in ("fmt", "log", "testing"):
            return []
        out = []
        for v in self._ifaces(st, args):
            table = self.program.methods.get(v[1], {})
            for method in ("Error", "String"):
                fn = self.program.function(table[method]) if method in table else None
                if fn is not None and fn.blocks:
                    out.append((fn, v[2]))
                    break
        return out

    def _program_has_method(self, method: str) -> bool:
        """Whether some type of the program (or a sync lock) has a method of this name
        that does more than compute (`Program.pure`): a call of it through an unknown
        interface value may then communicate, or change what the checker follows. (A
        hash.Hash64 made by hash/fnv, asked its Sum64 beside a hasher of the program's
        own that only computes, is no such call.)"""
        if method in ("Lock", "Unlock", "RLock", "RUnlock", "Wait", "Done", "Add"):
            return True
        # (A library's type made into an interface, os.Stdin's *os.File, has its methods
        # in the tables too; they are not the program's.)
        return any(method in table and table[method] in self.program.functions
                   and not self.program.pure(table[method])
                   for table in self.program.methods.values())

    def _ctx_method(self, st: State, ctx: Value, method: str, rtype: str) -> Value:
        if method == "Done":
            return ctx[1]
        if method == "Deadline":  # whether it has one is known: the time is not
            return ("tuple", (UNKNOWN, ctx_timed(ctx)))
        if method == "Err":
            # Not an error for a context that is never cancelled; an error once it is (a
            # cancel is for ever). Before that it goes both ways: this local step stands
            # for a call that may come after another goroutine's cancel.
            if ctx[1] == NIL:
                return NIL
            if not (isinstance(ctx[1], tuple) and ctx[1][0] == "chan"):
                return UNKNOWN
            if st.chans[ctx[1][1]][2]:
                return ctx_err(True)
            return UNKNOWN
        if method == "Value":
            return UNKNOWN
        return V.unknown_of(rtype)

    def _builtin(self, st: State, name: str, args: list[Value], line: int,
                 rtype: str) -> Value:
        if name == "ssa:wrapnilchk":
            # A wrapper of a value method called through a pointer checks it for nil.
            if args[0] == NIL:
                raise ProgramExit("value method called through a nil pointer", line)
            return args[0]
        if name == "len":
            return self._len(st, args[0])
        if name == "cap":
            x = args[0]
            if isinstance(x, tuple) and x[0] == "chan":
                return st.chans[x[1]][0]
            if isinstance(x, tuple) and x[0] == "slice" and self._array_of(st, x) is not None:
                return self._cap_end(st, x) - x[3]
            return self._len(st, x)
        if name == "delete":
            m, k = args
            if isinstance(m, tuple) and m[0] == "map":
                _, entries, vague = st.objs[m[1]]
                if V.contains_unknown(k):
                    vague = True
                st.objs[m[1]] = ("mapv", tuple(e for e in entries if e[0] != k), vague)
            return ("tuple", ())
        if name in ("print", "println"):
            return ("tuple", ())
        if name == "clear":
            self._clear(st, args[0], line)
            return ("tuple", ())
        if name == "recover":
            return NIL
        if name in ("min", "max"):
            if all(isinstance(a, int) and not isinstance(a, bool) for a in args):
                return (min if name == "min" else max)(args)
            return UNKNOWN
        if name == "append":
            return self._append(st, args, line)
        if name == "copy":
            return self._copy(st, args[0], args[1], line)
        if name == "panic":
            raise ProgramExit("panic", line)
        if name in _UNSAFE_VIEWS:
            # A byte-level view of a string or slice (groupcache's ByteView, zero-copy
            # conversions): what it points to is unknown, which is harmless unless it
            # reaches the program's channels, functions or sync objects.
            if self._hands_over(self._reached(st, args)):
                raise Unsupported(f"unsafe.{name} over channels, functions or sync "
                                  "objects", line)
            return UNKNOWN
        raise Unsupported(f"the builtin {name}", line)

    def _len(self, st: State, x: Value) -> Value:
        """`len(x)`; of a slice, string or map the checker cannot tell, a range up to
        len_bound (when the program has one)."""
        if x == NIL:
            return 0
        if isinstance(x, str):
            return len(x)
        if isinstance(x, tuple):
            if x[0] == "slice":
                return x[4] - x[3]
            if x[0] == "?slice":
                return x[1]
            if x[0] == "array":
                return len(x[1])
            if x[0] == "chan":
                return len(st.chans[x[1]][1])
            if x[0] == "map":
                _, entries, vague = st.objs[x[1]]
                if not vague or vague == UNKNOWN_KEYS_COUNTED or (
                        vague == UNKNOWN_KEYS and self._distinct_counts(st, x) is None):
                    return len(entries)
        if self.len_bound is None:
            return N.ranged(0, N.LEN_MAX)
        self.lengths_bounded = True
        return N.ranged(0, self.len_bound)

    def _array_of(self, st: State, s: Value) -> tuple | None:
        """The items of the whole array under slice `s`, None if the checker cannot tell."""
        if isinstance(s, tuple) and s[0] == "slice":
            arr = V.get_path(st.objs.get(s[1], UNKNOWN), s[2])
            if isinstance(arr, tuple) and arr[0] == "array":
                return arr[1]
        return None

    # Iterators of the standard library (maps.Keys, slices.All, …): a range over one
    # calls the loop body's `yield` once for each item, in the order a range over the
    # map or slice itself takes, until `yield` returns false. The frame of each call of
    # `yield` returns into ("seq", yield, the items still to come, the caller's register).

    def _seq_items(self, st: State, seq: tuple, line: int, order: tuple | None = None
                   ) -> tuple[tuple, ...]:
        """The arguments of each call of `yield` a range over iterator `seq` makes; over a
        map, in key order or in `order` (its keys)."""
        _, _, kind, src = seq
        if kind.startswith("maps."):
            mv = self._map(st, src, line, True)
            if mv is None or mv[2]:
                raise Unsupported(f"{kind} of a map whose keys the checker cannot tell", line)
            entries = mv[1]
            if order is not None:
                entries = tuple((k, dict(entries)[k]) for k in order)
            pick = {"maps.Keys": lambda k, v: (k,), "maps.Values": lambda k, v: (v,),
                    "maps.All": lambda k, v: (k, v)}[kind]
            return tuple(pick(k, v) for k, v in entries)
        items = self._items(st, src)
        if items is None:
            raise Unsupported(f"{kind} of a slice the checker cannot follow", line)
        if kind == "slices.Values":
            return tuple((v,) for v in items)
        pairs = tuple(enumerate(items))
        return pairs[::-1] if kind == "slices.Backward" else pairs

    def _range_seq(self, st: State, g: G, fr: Frame, seq: tuple, yield_: Value, line: int,
                   res: str | None, advance: bool, order: tuple | None = None) -> None:
        fn = self.known_fn(yield_, line, "a range over an iterator with a loop body")
        items = self._seq_items(st, seq, line, order)
        if advance:
            fr.pc += 1
        if not items:
            if res:
                fr.regs[res] = ("tuple", ())
            return
        g.frames.append(self.frame(fn, items[0], yield_[2], ("seq", yield_, items[1:], res)))

    def _yielded(self, st: State, g: G, ret: tuple, more: Value, line: int) -> None:
        """A call of `yield` returned `more`: call it on the next item, or end the range."""
        _, yield_, rest, res = ret
        if more is not True and more is not False:
            raise Unsupported("a loop body over an iterator whose result the checker cannot "
                              "tell", line)
        if more and rest:
            fn = self.known_fn(yield_, line, "a range over an iterator with a loop body")
            g.frames.append(self.frame(fn, rest[0], yield_[2], ("seq", yield_, rest[1:], res)))
        elif res and g.frames:
            g.frames[-1].regs[res] = ("tuple", ())

    def _collect(self, st: State, seq: tuple, sort: bool, line: int) -> Value:
        """slices.Collect or slices.Sorted of an iterator: a new slice of its items."""
        items = tuple(args[-1] for args in self._seq_items(st, seq, line))
        if sort:
            if all(isinstance(v, (int, str)) and not isinstance(v, bool) for v in items) \
                    and len({type(v) for v in items}) <= 1:
                items = tuple(sorted(items))
            elif any(value_holds_sync(v) for v in items):
                raise Unsupported("slices.Sorted of channels or sync objects", line)
            else:
                items = (UNKNOWN,) * len(items)  # an order the checker cannot tell
        return new_slice(st, items)

    def _items(self, st: State, s: Value) -> tuple | None:
        if s == NIL:
            return ()
        arr = self._array_of(st, s)
        return None if arr is None else arr[s[3] : s[4]]

    def _cap_end(self, st: State, s: tuple) -> int:
        arr = self._array_of(st, s)
        assert arr is not None
        return min(s[5], len(arr)) if len(s) > 5 else len(arr)

    def _write_items(self, st: State, s: tuple, at: int, new: tuple) -> None:
        """Write `new` into slice `s`'s array from index `at` of the array."""
        arr = self._array_of(st, s)
        assert arr is not None
        items = arr[:at] + new + arr[at + len(new):]
        st.objs[s[1]] = V.set_path(st.objs[s[1]], s[2], ("array", items))

    def _append(self, st: State, args: list[Value], line: int) -> Value:
        base, extra = args[0], args[1]
        a, b = self._items(st, base), self._items(st, extra)
        if isinstance(base, tuple) and base[0] == "?slice" and b is not None and \
                not value_holds_sync(extra):
            # (appended to, a slice from the input is as many items longer; its length
            # is a number or a range, `input_slice` and `_sub_slice`)
            n = base[1]
            return ("?slice", n + len(b) if type(n) is int else
                    N.range_binop("+", n, len(b), 64, False))
        if a is None or b is None or len(a) + len(b) > 256:
            if value_holds_sync(extra) or value_holds_sync(base):
                raise Unsupported("an append to a slice of channels the checker cannot "
                                  "follow", line)
            return UNKNOWN
        if base != NIL and base[4] + len(b) <= self._cap_end(st, base):
            # Room in the array: Go writes there, and every slice of it sees the items.
            self._write_items(st, base, base[4], b)
            return ("slice", base[1], base[2], base[3], base[4] + len(b), *base[5:])
        addr = st.new_obj(("array", a + b))
        return ("slice", addr[1], (), 0, len(a) + len(b))

    def _copy(self, st: State, dst: Value, src: Value, line: int) -> Value:
        """copy(dst, src): the items copied into dst's array; how many."""
        if dst == NIL:
            return 0
        d = self._items(st, dst)
        s = self._items(st, src) if not isinstance(src, str) else None
        if d is None:
            if value_holds_sync(src):
                raise Unsupported("a copy of channels into a slice the checker cannot follow",
                                  line)
            return UNKNOWN
        if s is None:
            if any(value_holds_sync(x) for x in d) or value_holds_sync(src):
                raise Unsupported("a copy of channels from a slice the checker cannot follow",
                                  line)
            if isinstance(src, str):
                data = tuple(src.encode())
                n = min(len(d), len(data))
                self._write_items(st, dst, dst[3], data[:n])
                return n
            self._write_items(st, dst, dst[3], (UNKNOWN,) * len(d))
            return UNKNOWN
        n = min(len(d), len(s))
        self._write_items(st, dst, dst[3], s[:n])
        return n

    def _clear(self, st: State, x: Value, line: int) -> None:
        """clear(m) empties a map; clear(s) sets a slice's items to their zero values."""
        if isinstance(x, tuple) and x[0] == "map":
            st.objs[x[1]] = ("mapv", (), False)
            return
        if x in (NIL, UNKNOWN):
            return
        items = self._items(st, x)
        if items is None:
            raise Unsupported("clear of a map or slice the checker cannot follow", line)
        self._write_items(st, x, x[3], tuple(_zero_like(v) for v in items))

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
            if t[0] in ("cancel", "close"):
                return Pending(t[0], 0, arg=t[1])
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
                return Pending("cpus", ins.line,
                               arg=(st.objs[_CPUS],) if _CPUS in st.objs else CPU_COUNTS)
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
            if g.gid != but and g.daemon and g.tail and g.tail[-1] == ("cancel", done) and (
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


def ctx_err(done_closed: bool) -> Value:
    """A context's Err: nil while its done channel is open, an error once it is closed."""
    return ERROR if done_closed else NIL


def key_orders(keys: tuple) -> list[tuple]:
    """The orders a range over a map with `keys` (in key order) is explored in."""
    if 2 <= len(keys) <= MAP_ORDERS_UP_TO:
        return list(permutations(keys))
    if len(keys) <= MAP_ENDS_UP_TO:
        ends = [keys]
        for i, k in enumerate(keys):
            rest = keys[:i] + keys[i + 1:]
            ends += [(k, *rest), (*rest, k)]
        return list(dict.fromkeys(ends))
    return [keys]


def _zero_like(v: Value) -> Value:
    """The zero value of the type a value has (clear), as far as the value shows it."""
    if isinstance(v, bool):
        return False
    if isinstance(v, int):
        return 0
    if isinstance(v, str):
        return ""
    if not (isinstance(v, tuple) and v) or v == UNKNOWN:
        return v
    tag = v[0]
    if tag in ("struct", "array"):
        return (tag, tuple(_zero_like(x) for x in v[1]))
    sync = {"wg": "sync.WaitGroup", "mu": "sync.Mutex", "rw": "sync.RWMutex",
            "once": "sync.Once", "cond": "sync.Cond"}
    return V.zero(sync[tag]) if tag in sync else NIL


def _few_values(v: Value, lo_min: int | None, hi_max: int | None) -> tuple[int, ...] | None:
    """The values of range `v` within `lo_min`..`hi_max`, if there are at most
    VALUE_CHOICES_UP_TO of them (and one at least); else None. (A negative size or an
    index out of range panics in Go: not a way worth a branch when the range is the
    checker's own widening.)"""
    if not N.is_range(v):
        return None
    lo, hi = N.bounds(v)
    if lo is None or hi is None:
        return None
    lo = lo if lo_min is None else max(lo, lo_min)
    hi = hi if hi_max is None else min(hi, hi_max)
    return tuple(range(lo, hi + 1)) if 0 < hi - lo + 1 <= VALUE_CHOICES_UP_TO else None


def _sub_slice(n: Value, lo: Value, hi: Value, line: int) -> Value:
    """`s[lo:hi]` of a slice from the input of length `n`: one of length `hi - lo` (a
    named number stays named: os.Args[1:] is one item shorter than os.Args), else
    UNKNOWN."""
    if type(lo) is int and type(hi) is int:
        length: Value = hi - lo
    elif (N.is_range(lo) or type(lo) is int) and (N.is_range(hi) or type(hi) is int):
        length = N.range_binop("-", hi, lo, 64, False)
    else:
        return UNKNOWN
    if type(length) is int:
        if length < 0:
            raise ProgramExit("slice bounds out of range", line)
        return ("?slice", length)
    if not N.is_range(length):
        return UNKNOWN
    if length[2] is not None and length[2] < 0:
        raise ProgramExit("slice bounds out of range", line)
    # Go panics on the lengths below zero: the slice has the others.
    return ("?slice", ("?", max(length[1] or 0, 0), *length[2:]))


def len_bound(program: Program) -> int | None:
    """What a length the checker cannot tell is taken to be at most (LEN_SMALL), None
    when the program's counts reach past LEN_BOUND_UP_TO."""
    bound = max(LEN_SMALL, max(program.counts(), default=0) + 1)
    return bound if bound <= LEN_BOUND_UP_TO else None


# A map's vagueness when it holds values under keys the checker cannot tell, and has lost
# none: a lookup cannot tell whether it finds one, a range visits them all.
UNKNOWN_KEYS = "keys"
# The same, once the number of distinct keys was chosen (`Machine._settle`).
UNKNOWN_KEYS_COUNTED = "counted keys"


def _map_put(entries: tuple, vague: Any, k: Value, v: Value, line: int) -> tuple[tuple, Any]:
    """A map's (entries, vague) after `m[k] = v`."""
    if V.contains_unknown(k):
        if value_holds_sync(v):
            raise Unsupported("a channel stored in a map under a key the checker "
                              "cannot tell", line)
        # The value is kept, under a key of its own (a range then visits it: a map of
        # replicas keyed by their addresses; how many of them are distinct is chosen
        # when the map's length is taken or a range visits it, `Machine._settle`), a
        # few of them, as many as a list from the input has: a loop that stores more
        # leaves the rest unknown, as before.
        held = [e[0][1] for e in entries if _unknown_key(e[0])]
        if len(held) < LEN_BOUND_UP_TO:
            # Vague for a lookup (any key may be one of these), but a range
            # visits all there is, unless something was lost before.
            return tuple(sorted((*entries, (("?key", max(held, default=-1) + 1), v)),
                                key=repr)), \
                UNKNOWN_KEYS if vague in (False, UNKNOWN_KEYS_COUNTED) else vague
        return entries, True
    rest = tuple(e for e in entries if e[0] != k)
    return tuple(sorted(rest + ((k, v),), key=repr)), vague


def _unknown_key(k: Value) -> bool:
    """A key a value was stored under that the checker does not know (`_op_MapUpdate`)."""
    return type(k) is tuple and len(k) == 2 and k[0] == "?key"


def _followed(v: Value) -> bool:
    """Whether a value holds a channel, function, sync object or a reference to an object
    (a pointer, a slice, a map) anywhere inside it: what the checker must know exactly,
    not as an item of unknown place (`Machine.value_choice`)."""
    if not (type(v) is tuple and v):
        return False
    if v[0] in SYNC_TAGS or v[0] in ("addr", "slice", "map"):
        return True
    return any(_followed(x) for x in V.children(v) if type(x) is tuple)


def _first_class(type_class: str) -> str:
    if type_class.startswith("tuple("):
        return V.split_class(type_class, "(", ")")[0]
    return type_class



"""What `go test` does around a test function: the `*testing.T` it is handed, its methods,
subtests and cleanups, as far as they decide whether a test blocks.

A test file is checked one `func TestXxx(t *testing.T)` at a time, run by the first
goroutine as `main` would be: when it returns (or `t.FailNow` ends it through
`runtime.Goexit`) and its cleanups have run, the test is over, and goroutines still
blocked have leaked, as GoBench and goleak count them.

Subtests (`t.Run`) run in goroutines of their own while the caller waits, as tRunner has
them; a subtest that calls `t.Parallel` lets its caller go on and waits for the parent's
function to end; the parent then waits for its parallel subtests before its cleanups.

A T is an object `("struct", (common,))` whose field 0, the `common` its promoted methods
are called on, is `("tcommon", *fields)` with the `_FIELDS` below: whether the test failed;
the functions `t.Cleanup` registered (run last first when the test ends); the done channel
of `t.Context()` once asked for (closed as the test ends, before its cleanups); the
parent's `common` (nil for a top-level test); `signal`, closed when a subtest ends or
calls Parallel (its parent's `t.Run` waits on it); `done`, closed when it has ended;
`barrier`, closed when its function has returned (its parallel subtests wait on it); and
the done channels of its parallel subtests; whether it called Parallel; and whether it let
go of its place among the running tests to wait for its parallel subtests.

How many tests run at once is bounded, as `go test -parallel` bounds it (by default
GOMAXPROCS, the run's CPU count: `instructions.CPU_COUNTS`, chosen when the first subtest calls
Parallel): a channel (`PARALLEL`) of that capacity holds one value for each test
running. The top-level test holds one; a parallel subtest adds its own once its parent's
function has returned, and blocks while the channel is full; a test that waits for its
parallel subtests takes its own out meanwhile, and a test that is not parallel puts it
back before it ends (testing's waitParallel and release). So with one CPU (or
`-parallel 1`) parallel subtests run one after another, and ones that wait for each other
deadlock, as they do there.
"""

from __future__ import annotations

from typing import Any, Protocol

from generator.gocheck.ssa import Block, Function, Instr, Program
from generator.gocheck.state import G, State
from generator.gocheck.values import NIL, UNKNOWN, Unsupported, Value, unknown_of


class Machine(Protocol):
    """What this module needs of machine.Machine."""

    def load(self, st: State, addr: Value, line: int, type_class: str) -> Value: ...
    def store(self, st: State, addr: Value, value: Value, line: int) -> None: ...
    def known_fn(self, f: Value, line: int, what: str = ...) -> Function: ...
    def frame(self, fn: Function, params: tuple, free: tuple, ret: Any) -> Any: ...
    def run(self, st: State, gid: int) -> None: ...
    def start_goexit(self, st: State, g: G) -> None: ...
    test_main: Function | None


_T_TYPES = ("(*testing.T).", "(*testing.common).")
# Methods that only print or look (their printed values' Error/String methods run as
# fmt's would, `Machine._printed_methods`), those that mark the test failed, and those
# that end it through runtime.Goexit.
_QUIET = frozenset({"Log", "Logf", "Helper", "Setenv", "Chdir", "Attr", "Output",
                    "Name", "TempDir", "Deadline", "Skipped", "ArtifactDir"})
_FAILS = frozenset({"Error", "Errorf", "Fail"})
_ENDS = frozenset({"Fatal", "Fatalf", "FailNow", "Skip", "Skipf", "SkipNow"})
_FIELDS = ("failed", "cleanups", "ctx", "parent", "signal", "done", "barrier", "subs",
           "parallel", "released")
FRESH = ("struct", (("tcommon", False, (), NIL, NIL, NIL, NIL, NIL, (), False, False),))
# Where the state keeps the channel that counts the tests running (module docstring).
PARALLEL = "g:testing.parallel"
PARALLEL_METHOD = "(*testing.T).Parallel"
SYNCTEST_TEST = "testing/synctest.Test"


def _get(common: tuple, name: str) -> Value:
    return common[1 + _FIELDS.index(name)]


def _with(common: tuple, **changed: Value) -> tuple:
    return ("tcommon", *(changed.get(f, common[1 + i]) for i, f in enumerate(_FIELDS)))


def is_t_method(name: str) -> bool:
    return name.startswith(_T_TYPES)


def _wait_fn() -> Function:
    """A receive on its parameter, a channel tRunner closes: what `t.Run` leaves its
    caller running until the subtest signals, a parallel subtest until its parent's
    function returns, a test until its parallel subtests end."""
    recv = Instr("UnOp", "t0", "other", 0, ({"k": "param", "i": 0},),
                 {"op": "<-", "commaok": False, "elem": "other"})
    ret = Instr("Return", "", "", 0, (), {})
    return Function("testing.tRunner", ("ch",), (), (Block((recv, ret), (), ()),), 0, -1)


_WAIT = _wait_fn()


def _send_fn() -> Function:
    """A send on its parameter: a test taking its place among the running ones (testing's
    waitParallel), blocked while as many run as `-parallel` lets."""
    send = Instr("Send", "", "", 0, ({"k": "param", "i": 0}, {"k": "const", "v": 0, "t": "int"}),
                 {})
    ret = Instr("Return", "", "", 0, (), {})
    return Function("testing.tRunner", ("ch",), (), (Block((send, ret), (), ()),), 0, -1)


_TAKE_PLACE = _send_fn()


def _call_fn() -> Function:
    """A call of its parameter, a function of no arguments: how tRunner runs a cleanup,
    whatever kind of function it is (the program's own, or context's cancel, a timer's or
    iter.Pull's stop, which the machine models)."""
    call = Instr("Call", "", "", 0, (),
                 {"mode": "call", "callee": {"k": "param", "i": 0}, "args": [],
                  "escapes": False})
    ret = Instr("Return", "", "", 0, (), {})
    return Function("testing.tRunner", ("f",), (), (Block((call, ret), (), ()),), 0, -1)


_CALL = _call_fn()


def _common(t: Value, name: str) -> Value:
    """The address of T's `common` from what a method got: `&t.common` for a promoted
    method, the T for one of T's own."""
    if isinstance(t, tuple) and t[0] == "addr" and name.startswith("(*testing.T)."):
        return ("addr", t[1], (*t[2], 0))
    return t


def call(m: Machine, st: State, g: G, name: str, args: list, line: int,
         rtype: str) -> tuple[bool, Value]:
    """Run T's method `name` on goroutine `g`: (whether the goroutine goes on with the
    instruction after the call, the call's result). A method that ends the test starts
    `runtime.Goexit`; `Run` and `Parallel` push a wait above the caller's frame."""
    method = name.rsplit(".", 1)[1]
    if method in _QUIET:
        return True, unknown_of(rtype)
    at = _common(args[0] if args else UNKNOWN, name)
    common = m.load(st, at, line, "other") if at != UNKNOWN else UNKNOWN
    known = isinstance(common, tuple) and common[:1] == ("tcommon",)
    if known and (method in _FAILS or method in ("Fatal", "Fatalf", "FailNow")):
        m.store(st, at, common := _with(common, failed=True), line)
    if method in _FAILS:
        return True, None
    if method in _ENDS:
        m.start_goexit(st, g)
        return False, None
    if not known:
        raise Unsupported(f"t.{method} on a T the checker cannot follow", line)
    if method == "Failed":
        return True, _get(common, "failed")
    if method == "Cleanup":
        f = args[1]
        if not (isinstance(f, tuple) and f[0] in ("fn", "model")):
            raise Unsupported("a cleanup function the checker cannot tell", line)
        m.store(st, at, _with(common, cleanups=(*_get(common, "cleanups"), f)), line)
        return True, None
    if method == "Context":
        done = _get(common, "ctx")
        if done == NIL:
            done = st.new_chan(0, line, "t.Context()")
            m.store(st, at, _with(common, ctx=done), line)
        return True, ("ctx", done, False)
    if method == "Run":
        _run(m, st, g, at, args[2], line)
        return True, UNKNOWN  # whether it passed the checker does not know
    if method == "Parallel":
        _parallel(m, st, g, at, common, line)
        return True, None
    raise Unsupported(f"t.{method} (not modelled)", line)


# Where the state keeps the done channel of the synctest bubble's root (its function):
# once that has returned, the bubble's clock stops (explore), and what still waits for it
# waits for ever, as Go then panics ("blocked goroutines remain").
BUBBLE_ROOT = "g:synctest.root"


def run_in_order(program: Program) -> tuple[str, ...]:
    """The tests of a file that go test's order may matter to, in that order (it runs them
    one after another in one process): those naming a package variable another test
    names (a `sync.Once` that started a worker one test stops, a channel two tests
    close). None when tests run in parallel or in a synctest bubble, whose order go test
    does not keep (the check would put them one after another)."""
    if program.calls(PARALLEL_METHOD, SYNCTEST_TEST):
        return ()
    # Not the examples: go test runs only those with an output comment, after the tests.
    tests = [t for t in program.tests if t.rsplit(".", 1)[-1].startswith("Test")]
    named = {t: program.globals_reached(t) for t in tests}
    return tuple(t for t in tests if any(named[t] & named[u] for u in tests if u != t))


def bubble(m: Machine, st: State, g: G, t: Value, f: Value, line: int) -> Value:
    """`synctest.Test(t, f)`: f runs with a T of its own, as `t.Run`'s subtest, and the
    test waits for it (the fake clock of its bubble is the explorer's)."""
    at = _common(t, "testing/synctest.Test")
    if at == UNKNOWN:
        raise Unsupported("synctest.Test on a T the checker cannot follow", line)
    root = st.objs.get(BUBBLE_ROOT)
    if isinstance(root, tuple) and root[0] == "chan" and not st.chans[root[1]][2]:
        # Parallel subtests, each in a bubble: each bubble's clock moves when its own
        # goroutines are all blocked, and the checker keeps one clock for the test (a
        # sleep in one bubble waited for the other's clock, stopped once its function
        # returned: a false deadlock).
        raise Unsupported("two synctest bubbles at once (parallel subtests each calling "
                          "synctest.Test)", line)
    st.objs[BUBBLE_ROOT] = _run(m, st, g, at, f, line)
    return ("tuple", ())


# TestMain's `m.Run()`: the test the check is for runs in it (`main_run`).
M_RUN = "(*testing.M).Run"


def test_main_handle(*tests: str) -> Value:
    """The `*testing.M` TestMain is handed when the check is for the last of `tests`, the
    others run before it in the same process (`Program.before`)."""
    return ("testing.M", *tests)


def _run_tests_fn() -> Function:
    """`m.Run()` on its parameter, an M: how go test runs the tests of a file in order
    when the file has no TestMain, and how m.Run runs the next of them."""
    call = Instr("Call", "", "", 0, (),
                 {"mode": "call", "callee": {"k": "fn", "n": M_RUN}, "static": M_RUN,
                  "args": [{"k": "param", "i": 0}], "escapes": False})
    ret = Instr("Return", "", "", 0, (), {})
    return Function("testing.(*M).Run", ("m",), (), (Block((call, ret), (), ()),), 0, -1)


RUN_TESTS = _run_tests_fn()


def main_run(m: Machine, st: State, g: G, handle: Value, line: int) -> None:
    """`m.Run()` in TestMain: the tests of the check (the one it is for, and those it runs
    before it) run as tRunner runs top-level tests, one after another, each in a
    goroutine of its own, and TestMain waits until the last has ended (`go test -run` of
    these alone). Its exit code is left unknown: a test may fail."""
    if not (isinstance(handle, tuple) and handle[:1] == ("testing.M",) and len(handle) > 1):
        raise Unsupported("m.Run on an M the checker cannot follow", line)
    first, rest = handle[1], handle[2:]
    for test in reversed(rest):
        g.frames.append(m.frame(RUN_TESTS, (("testing.M", test),), (), None))
    name = first.rsplit(".", 1)[-1]
    # (Line 0: RUN_TESTS's call, for the tests after the first, or go test's own main.)
    by = f"m.Run at line {line}" if line else "m.Run" if m.test_main else "go test"
    _run(m, st, g, NIL, ("fn", first, ()), line, label=f"{name} (run by {by})",
         signal_name="m.Run's wait")


def _run(m: Machine, st: State, g: G, parent: Value, f: Value, line: int, *,
         label: str = "", signal_name: str = "t.Run's signal") -> Value:
    """`t.Run(name, f)`: f runs in a goroutine of its own with a T of its own, and the
    caller waits until it signals (it ended, or called Parallel); the subtest's done
    channel, closed when it has ended."""
    fn = m.known_fn(f, line, "a subtest function")
    signal = st.new_chan(0, line, signal_name)
    done = st.new_chan(0, line, "subtest done")
    sub = st.new_obj(("struct", (_with(FRESH[1][0], parent=parent, signal=signal,
                                       done=done),)))
    st.spawn([m.frame(fn, (sub,), f[2], ("test", sub))],
             label or f"g{len(st.gs)} (subtest at line {line})")
    m.run(st, len(st.gs) - 1)
    g.frames.append(m.frame(_WAIT, (signal,), (), None))
    return done


def is_subtest(m: Machine, st: State, t: Value) -> bool:
    """Whether `t` (what a T method got) is a subtest's T: its Parallel waits for a place
    among the running tests, whose number the run's CPU count bounds."""
    at = _common(t, PARALLEL_METHOD)
    if not (isinstance(at, tuple) and at[0] == "addr"):
        return False
    common = m.load(st, at, 0, "other")
    return isinstance(common, tuple) and common[:1] == ("tcommon",) and \
        _get(common, "parent") != NIL


def _parallel(m: Machine, st: State, g: G, at: Value, common: tuple, line: int) -> None:
    """`t.Parallel()` in a subtest: the parent's Run returns, and the subtest waits until
    the parent's function has returned, then for a place among the running tests. A
    top-level test checked alone has nobody to wait for."""
    parent_at = _get(common, "parent")
    if parent_at == NIL or _closed(st, _get(common, "signal")):
        return
    if PARALLEL not in st.objs:
        # As many places as the run has CPUs (chosen before this call), one of them the
        # top-level test's.
        places = st.new_chan(m.parallel_limit(st), line, "the places of go test -parallel")
        cap, _buf, closed = st.chans[places[1]]
        st.chans[places[1]] = (cap, (0,), closed)
        st.objs[PARALLEL] = places
    parent = m.load(st, parent_at, line, "other")
    barrier = _get(parent, "barrier")
    if barrier == NIL:
        barrier = st.new_chan(0, line, "the parent's barrier")
    m.store(st, parent_at, _with(parent, barrier=barrier,
                                 subs=(*_get(parent, "subs"), _get(common, "done"))), line)
    m.store(st, at, _with(common, parallel=True), line)
    _close(st, _get(common, "signal"))
    g.frames.append(m.frame(_TAKE_PLACE, (st.objs[PARALLEL],), (), None))
    g.frames.append(m.frame(_WAIT, (barrier,), (), None))


def _leave_place(st: State) -> None:
    """A running test lets go of its place (testing's release): one that waits for a
    place may take it."""
    places = st.objs[PARALLEL][1]
    cap, buf, closed = st.chans[places]
    st.chans[places] = (cap, buf[1:], closed)


def _closed(st: State, ch: Value) -> bool:
    return ch != NIL and st.chans[ch[1]][2]


def _close(st: State, ch: Value) -> None:
    """Close a channel tRunner closes (it is never closed twice)."""
    if ch != NIL and not st.chans[ch[1]][2]:
        cap, buf, _closed = st.chans[ch[1]]
        st.chans[ch[1]] = (cap, buf, True)


def ended(m: Machine, st: State, g: G, t: Value) -> None:
    """Goroutine `g`'s test function, a cleanup, or the wait for its parallel subtests
    has returned: what tRunner does next. It releases the parallel subtests and waits for
    them; cancels the test's context; runs the next cleanup, last registered first;
    and, once nothing is left, signals the parent."""
    at = ("addr", t[1], (*t[2], 0))
    common = m.load(st, at, 0, "other")
    if not (isinstance(common, tuple) and common[:1] == ("tcommon",)):
        return
    subs = _get(common, "subs")
    if subs:
        _leave_place(st)
        _close(st, _get(common, "barrier"))
        m.store(st, at, _with(common, subs=(), released=True), 0)
        # The last wait to run brings tRunner back here.
        g.frames.extend(m.frame(_WAIT, (sub,), (), ("test", t) if n == 0 else None)
                        for n, sub in enumerate(subs))
        return
    _close(st, _get(common, "ctx"))
    cleanups = _get(common, "cleanups")
    if cleanups:
        m.store(st, at, _with(common, cleanups=cleanups[:-1]), 0)
        f = cleanups[-1]
        g.frames.append(m.frame(_CALL, (f,), (), ("test", t)))
        return
    parallel, released = _get(common, "parallel"), _get(common, "released")
    if released and not parallel:
        # Back among the running tests before it ends, waiting for a place if need be.
        m.store(st, at, _with(common, released=False), 0)
        g.frames.append(m.frame(_TAKE_PLACE, (st.objs[PARALLEL],), (), ("test", t)))
        return
    if parallel and not released:
        _leave_place(st)
        m.store(st, at, _with(common, released=True), 0)
    _close(st, _get(common, "signal"))
    _close(st, _get(common, "done"))

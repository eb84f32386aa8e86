"""Clojure renderer: λ_chan programs on core.async, as one namespace `chanfuzz.main`.

Save the file as `src/chanfuzz/main.clj` and AOT-compile the namespace (it has
`(:gen-class)`): `java -cp <core.async classpath>:src chanfuzz.main 3` then runs
program 3. The namespace loads core.async with a top-level `require` after its
`ns` form, so that a perturbed program can set core.async's pool size first
(below).

`flavour` chooses how processes run (default "go"):

* "go": every process is a `go` block (a state machine on core.async's
  dispatch pool) using `<!`, `>!` and `alts!`. The run's main process is a
  `go` block too, which the calling thread waits for with `<!!`. `<!`/`>!` must
  be lexically inside their `go` block: the renderer only nests `let`, `if`,
  `cond`, `case`, `when-let`, `try` and `do` in it, never a `fn`, and never
  another `go` (see spawns below).
* "thread": every process is a `thread` (a real thread of core.async's
  thread pool) using `<!!`, `>!!` and `alts!!`; the run's main process is the
  calling thread itself.

Every flavour: a run (`progN-once`) creates its channels with `(chan)`, which
is unbuffered, and is repeated `repetitions` times by `progN`, each time with
fresh channels (SPEC §8a). core.async channels cannot carry nil, so a send
sends a number: `0`, or its own value under the value oracle. Joins: `go` and
`thread` return a channel that closes when their body ends; a process keeps
the one of each spawn site it performs in an atom of its own (`joinN`, nil
until that spawn ran: a spawn inside an untaken branch is joined by no one)
and, as its last act, takes from each that is set. A child ends only after
its own children ended, so a run ends only after every process it spawned,
transitively; a stuck process shows as a hang. Each spawned process is a
function of its own, `progI-procN`, taking the run's channels, that starts its
`go` block or `thread`; the spawn calls it. Written inline, every `go` block would
be analysed again by each `go` that encloses it: compiling a generated program
with spawns nested five deep took minutes.

Selects are `alts!`/`alts!!` over a vector of operations, a take `c` and a put
`[c v]`, returning `[value port]`. The port is all that says which operation
completed, so cases on the same channel in the same direction are merged into
one operation whose body picks one of the cases' bodies at run time
(`rand-int`; every execution is still one the select allows), and a select
that both sends and receives on one channel tells the two apart by the value
(a completed put gives `true`, a take the number sent). A port no case names
throws, like any other exception.

Crashes: core.async only hands an exception in a `go` block or `thread` to the
thread's uncaught-exception handler, and closes the block's channel first, so
the joining process would go on and the program could exit 0. Every process
body is therefore wrapped in `(try … (catch Throwable e (crash! e)))`, and
`crash!` prints the exception and its stack in the JVM's own format
(`Exception in thread "…" …`) and halts with status 1 before the process's
channel closes; `-main` makes `crash!` the default uncaught-exception handler
too, for exceptions in core.async's own threads and in the main thread.

`pct_depth=d` puts a yield before d−1 communication steps
(`_common.perturb`): `(<! (timeout 0))` in a go block (it parks the block and
resumes it from the timer thread), `(Thread/yield)` in a thread. A perturbed
go-flavour program first copies $CHANFUZZ_THREADS, when a run sets it, into the
system property `clojure.core.async.pool-size`, which sizes the dispatch pool
of the releases that have a fixed one (before 1.8; from 1.8 on, go blocks run
on a cached pool and the property is not read).

`values=True` turns on the value oracle (`_common`): each run creates a
`ValueCheck` (counts in `AtomicIntegerArray`s) that every receive reports to
and that is checked after the run's main process has joined every process.

Beyond the paper (issue #15, `BEYOND_PAPER`): a buffered channel is
`(chan k)` (a fixed buffer), `(close! c)` closes one, and a range is a `loop`
that takes until the take gives nil (closed and drained). A take or an alts
take case on a closed channel completes with nil, which is no message: under
the value oracle a receive from a channel some process closes
(`Lowered.closed`) reports to the oracle only when it got a value. A put on a
closed channel does not fail in core.async, it returns false; proved programs
never do one, so a put on such a channel that returns false throws (a crash,
exit 1): it would be a runtime bug. `put_result` says what a completed put
returns: "boolean" (true; false on a closed channel; from core.async
0.1.278.0) or "nil" (always nil: the releases before). With "nil" a put on a
closed channel cannot be noticed, so programs that close are refused
(`unsupported_reason`). Spawns
inside a range body may run more than once: their join atoms hold a vector of
every process they started. Other channels and sites are written as before,
so a program without these constructs renders byte for byte as it did.

With `dispatcher=True`, `-main` runs program i given as the first
command-line argument and exits with status 2 for anything else; given several, it runs
each in turn and prints `chanfuzz: done i` on stdout after each (`GROUP_RUNS`: one JVM
start for many programs; a crash halts the JVM, so a missing mark is the program that
failed). It exits 0
with `System/exit` once the program ran (core.async's pools are daemon
threads, but a release's timer or pool thread must never keep a finished
program alive).

Seeded variation: channel declarations in shuffled order, receives that bind
a named local or not, a `dotimes` or a `loop` for the repetitions, mirrored
comparisons in conditions.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from generator import lambda_chan as lc
from generator.lambda_chan import Program
from generator.render._common import (
    BY_RECEIVE,
    BY_SELECT,
    GROUP_DONE,
    NEVER_RECEIVED,
    NEVER_SENT,
    OF_SELECT,
    OF_SEND,
    ORACLE_EXIT,
    ORACLE_PREFIX,
    THREADS_VARIABLE,
    TWICE,
    WRONG_CHANNEL,
    Block,
    CaseS,
    CloseS,
    IfS,
    Lowered,
    RangeS,
    RecvS,
    SelectS,
    SendS,
    SpawnS,
    UnsupportedProgram,
    Writer,
    YieldS,
    boolean,
    lower_all,
    pct_depth,
    shuffled,
    spawn_sites,
    take_options,
    used_channels,
    value_table,
    walk,
)

NAMESPACE = "chanfuzz.main"
SOURCE_PATH = "src/chanfuzz/main.clj"  # where the namespace must be saved to load
HEADER = f";; Code generated by chanfuzz. DO NOT EDIT. Namespace {NAMESPACE}: {SOURCE_PATH}."
FLAVOURS = ("go", "thread")
DEFAULT_FLAVOUR = "go"
POOL_SIZE_PROPERTY = "clojure.core.async.pool-size"
# What a send sends without the value oracle: core.async channels cannot carry nil.
UNIT = "0"


def _flavour(value: object) -> str:
    if value not in FLAVOURS:
        raise ValueError(f"flavour must be one of {', '.join(FLAVOURS)}, not {value!r}")
    return str(value)


# What a completed put returns in a core.async release (module docstring).
PUT_RESULTS = ("boolean", "nil")


def _put_result(value: object) -> str:
    if value not in PUT_RESULTS:
        raise ValueError(f"put_result must be one of {', '.join(PUT_RESULTS)}, not {value!r}")
    return str(value)


OPTIONS = {
    "flavour": _flavour,
    "values": boolean,
    "pct_depth": pct_depth,
    "put_result": _put_result,
}

VALUE_ORACLE = True
GROUP_RUNS = True  # the dispatcher runs several programs in one JVM (module docstring)

BEYOND_PAPER = frozenset({"buffered", "close"})

# Why programs that close cannot be rendered with put_result="nil".
NIL_PUTS = (
    "core.async before 0.1.278.0 returns nil from every put, so a put on a closed channel"
    " would pass unnoticed: no close or range"
)


def unsupported_reason(lowered: Lowered, **options: object) -> str | None:
    """Why this Clojure rendering cannot express the program, or None if it can."""
    opts = take_options(options, OPTIONS, "clojure")
    if opts.get("put_result") == "nil" and any(
        isinstance(s, CloseS | RangeS) for s in walk(lowered.body)
    ):
        return NIL_PUTS
    return None


def _put_on_closed(chan: str) -> str:
    """What a put that returned false does: core.async's answer on a closed channel."""
    return f'(throw (IllegalStateException. "a put on closed channel {chan} returned false"))'


# The operations each flavour uses: spawn, take, put, select.
_OPS = {
    "go": ("go", "<!", ">!", "alts!"),
    "thread": ("thread", "<!!", ">!!", "alts!!"),
}

_CRASH = """
(defn crash!
  "Prints an exception nothing caught as the JVM does, and halts with status 1."
  ([^Throwable e] (crash! (Thread/currentThread) e))
  ([^Thread t ^Throwable e]
   (locking crash!
     (.print System/err (str "Exception in thread \\"" (.getName t) "\\" "))
     (.printStackTrace e System/err)
     (.flush System/err)
     ;; halt, not exit: no shutdown hook or stuck thread can hold the verdict back.
     (.halt (Runtime/getRuntime) 1))))
"""

# The value oracle's runtime, once per file (see _common for what it checks).
_ORACLE = f"""
(defn wrong-value [kind by detail]
  (.println System/err (str "{ORACLE_PREFIX}" kind " (" by "): " detail))
  (.flush System/err)
  (.halt (Runtime/getRuntime) {ORACLE_EXIT}))

(deftype ValueCheck [chans sel
                     ^java.util.concurrent.atomic.AtomicIntegerArray sent
                     ^java.util.concurrent.atomic.AtomicIntegerArray got])

(defn value-check [chans sel]
  (ValueCheck. chans sel
               (java.util.concurrent.atomic.AtomicIntegerArray. (int (count chans)))
               (java.util.concurrent.atomic.AtomicIntegerArray. (int (count chans)))))

(defn vals-recv [^ValueCheck vals v c in-select]
  (let [by (if in-select "{BY_SELECT}" "{BY_RECEIVE}")
        chans (.-chans vals)]
    (when-not (and (integer? v) (<= 1 v) (< v (count chans)))
      (wrong-value "{WRONG_CHANNEL}" by (str "value " v ", sent by no send, received on " c)))
    (when-not (= (nth chans v) c)
      (wrong-value "{WRONG_CHANNEL}" by
                   (str "value " v " sent on " (nth chans v) " received on " c)))
    (when (> (.incrementAndGet (.-got vals) (int v)) 1)
      (wrong-value "{TWICE}" by (str "value " v " sent on " c)))))

(defn vals-done [^ValueCheck vals v]
  (.set (.-sent vals) (int v) 1))

(defn vals-check [^ValueCheck vals]
  (doseq [v (range 1 (count (.-chans vals)))]
    (let [of (if (nth (.-sel vals) v) "{OF_SELECT}" "{OF_SEND}")
          c (nth (.-chans vals) v)
          sent (.get (.-sent vals) (int v))
          got (.get (.-got vals) (int v))]
      (when (and (= sent 1) (= got 0))
        (wrong-value "{NEVER_RECEIVED}" of
                     (str "value " v " on " c ": its send completed, nobody received it")))
      (when (and (= sent 0) (= got 1))
        (wrong-value "{NEVER_SENT}" of
                     (str "value " v " on " c ": received, its send did not complete"))))))
"""

_MIRROR = {"==": "==", "!=": "!=", "<": ">", "<=": ">=", ">": "<", ">=": "<="}
_LISP_OPS = {"==": "=", "!=": "not=", "<": "<", "<=": "<=", ">": ">", ">=": ">="}


def render_lisp_cond(cond: lc.Cond, rng: random.Random) -> str:
    """A closed condition in prefix notation; a comparison may be mirrored (`(> 5 3)`)."""
    if isinstance(cond, lc.BoolLit):
        return "true" if cond.value else "false"
    if isinstance(cond, lc.Not):
        return f"(not {render_lisp_cond(cond.operand, rng)})"
    if isinstance(cond, lc.BoolOp):
        op = "and" if cond.op == "&&" else "or"
        left = render_lisp_cond(cond.left, rng)
        return f"({op} {left} {render_lisp_cond(cond.right, rng)})"
    if isinstance(cond, lc.Compare):
        if rng.random() < 0.3:
            return f"({_LISP_OPS[_MIRROR[cond.op]]} {cond.right} {cond.left})"
        return f"({_LISP_OPS[cond.op]} {cond.left} {cond.right})"
    raise TypeError(f"not a condition: {cond!r}")


def _groups(select: SelectS) -> list[list[CaseS]]:
    """The cases of a select grouped by channel and direction, in order of first appearance:
    one alts operation each (the port returned cannot tell two cases of a group apart)."""
    groups: dict[tuple[str, str], list[CaseS]] = {}
    for case in select.cases:
        groups.setdefault((case.chan, case.direction), []).append(case)
    return list(groups.values())


def _sites_in_ranges(block: Block) -> set[int]:
    """The spawn sites of this process (not its children's) inside a range body."""
    sites: set[int] = set()
    for s in walk(block, into_spawns=False):
        if isinstance(s, RangeS):
            sites.update(t.site for t in walk(s.body, into_spawns=False) if isinstance(t, SpawnS))
    return sites


class _ProgramWriter:
    def __init__(
        self,
        w: Writer,
        rng: random.Random,
        flavour: str,
        values: bool,
        prefix: str,
        params: str,
        closed: frozenset[str] = frozenset(),
    ) -> None:
        self.w = w
        self.rng = rng
        self.flavour = flavour
        self.values = values
        self.prefix = prefix  # "prog3": its processes are prog3-procN
        self.params = params  # what every process function takes: the run's channels
        self.procs: list[list[str]] = []  # the process functions, children before parents
        self.spawn, self.take, self.put, self.alts = _OPS[flavour]
        self.closed = closed  # channels some process closes: takes may give nil
        self.repeated: set[int] = set()  # spawn sites inside a range body

    def close(self, n: int = 1) -> None:
        """Closing parentheses go at the end of the last line, as Lisp is written."""
        self.w.lines[-1] += ")" * n

    def _got(self, value: str, chan: str, sel: bool) -> str:
        return f'(vals-recv vals {value} "{chan}" {"true" if sel else "false"})'

    def process(self, block: Block) -> None:
        """A process's statements, then its joins: one atom per spawn site it performs."""
        w = self.w
        sites = spawn_sites(block)
        if not sites:
            self.statements(block)
            return
        repeated = _sites_in_ranges(block)
        self.repeated |= repeated
        inits = [f"join{s} (atom {'[]' if s in repeated else 'nil'})" for s in sites]
        w.line("(let [" + " ".join(inits) + "]")
        with w.indent():
            self.statements(block)
            for s in sites:
                if s in repeated:
                    # Every process this site started, once per message of the range.
                    w.line(f"(loop [js (seq @join{s})]")
                    w.line(f"  (when js ({self.take} (first js)) (recur (next js))))")
                else:
                    w.line(f"(when-let [j @join{s}] ({self.take} j))")
        self.close()

    def process_function(self, name: str, block: Block) -> None:
        """A spawned process as a function of its own that starts it: nested `go` blocks
        would be analysed again by every enclosing `go` (compile time exponential in the
        nesting depth), and a function keeps each `<!` lexically in its own block."""
        outer = self.w
        self.w = Writer(outer.unit)
        self.w.line(f"(defn {name} [{self.params}]")
        with self.w.indent():
            self.w.line(f"({self.spawn}")
            with self.w.indent():
                self.guarded(block)
            self.close(2)
        self.procs.append(self.w.lines)  # after its own children's: defined before use
        self.w = outer

    def guarded(self, block: Block) -> None:
        """A process body that halts the program on an exception (see the module docstring)."""
        w = self.w
        w.line("(try")
        with w.indent():
            self.process(block)
            w.line("(catch Throwable e (crash! e)))")

    def statements(self, block: Block) -> None:
        for s in block:
            self.statement(s)

    def body(self, block: Block) -> None:
        """A block where one form is expected: `(do …)` around several statements."""
        w = self.w
        if len(block) == 1 and not isinstance(block[0], RecvS | SendS):
            self.statement(block[0])
            return
        w.line("(do")
        with w.indent():
            self.statements(block)
        self.close()

    def statement(self, s: object) -> None:
        w = self.w
        if isinstance(s, RecvS) and self.values and s.chan in self.closed:
            # nil: the channel was closed and drained, no message to report.
            take = f"({self.take} {s.chan})"
            var = s.var if s.var is not None and self.rng.random() < 0.5 else "v"
            w.line(f"(when-some [{var} {take}]")
            with w.indent():
                w.line(self._got(var, s.chan, False) + ")")
        elif isinstance(s, RecvS):
            take = f"({self.take} {s.chan})"
            if s.var is not None and self.rng.random() < 0.5:
                if self.values:
                    w.line(f"(let [{s.var} {take}]")
                    with w.indent():
                        w.line(self._got(s.var, s.chan, False) + ")")
                else:
                    w.line(f"(let [{s.var} {take}])")
            elif self.values:
                w.line(self._got(take, s.chan, False))
            else:
                w.line(take)
        elif isinstance(s, SendS):
            put = f"({self.put} {s.chan} {s.value if self.values else UNIT})"
            if s.chan in self.closed:
                w.line(f"(when-not {put}")
                w.line(f"  {_put_on_closed(s.chan)})")
            else:
                w.line(put)
            if self.values:
                w.line(f"(vals-done vals {s.value})")
        elif isinstance(s, SpawnS):
            name = f"{self.prefix}-proc{s.site}"
            call = f"({' '.join([name, *self.params.split()])})"
            if s.site in self.repeated:
                w.line(f"(swap! join{s.site} conj {call})")
            else:
                w.line(f"(reset! join{s.site} {call})")
            self.process_function(name, s.body)
        elif isinstance(s, CloseS):
            w.line(f"(close! {s.chan})")
        elif isinstance(s, RangeS):
            # Takes until nil: the channel closed and drained; each value is a message.
            w.line("(loop []")
            with w.indent():
                w.line(f"(when-some [{s.var} ({self.take} {s.chan})]")
                with w.indent():
                    if self.values:
                        w.line(self._got(s.var, s.chan, False))
                    self.statements(s.body)
                    w.line("(recur)")
                self.close(2)
        elif isinstance(s, IfS):
            w.line(f"(if {render_lisp_cond(s.cond, self.rng)}")
            with w.indent():
                self.body(s.then)
                self.body(s.orelse)
            self.close()
        elif isinstance(s, SelectS):
            self.select(s)
        elif isinstance(s, YieldS):
            w.line("(<! (timeout 0))" if self.flavour == "go" else "(Thread/yield)")
        else:  # pragma: no cover - the statement tree has no other node
            raise TypeError(s)

    def select(self, s: SelectS) -> None:
        w = self.w
        groups = _groups(s)
        both = {g[0].chan for g in groups if g[0].direction == "put"} & {
            g[0].chan for g in groups if g[0].direction == "get"
        }
        ops = []
        for group in groups:
            case = group[0]
            if case.direction == "put":
                ops.append(f"[{case.chan} {case.value if self.values else UNIT}]")
            else:
                ops.append(case.chan)
        w.line(f"(let [[alt-v alt-p] ({self.alts} [{' '.join(ops)}])]")
        with w.indent():
            w.line("(cond")
            with w.indent():
                for group in groups:
                    case = group[0]
                    test = f"(identical? alt-p {case.chan})"
                    if case.chan in both:
                        # A completed put gives true, a take the number that was sent.
                        sent = "(true? alt-v)" if case.direction == "put" else "(number? alt-v)"
                        if case.direction == "get" and case.chan in self.closed:
                            sent = "(or (nil? alt-v) (number? alt-v))"  # nil: closed
                        test = f"(and {test} {sent})"
                    w.line(test)
                    with w.indent():
                        self.clause(group)
                w.line(":else")
                with w.indent():
                    w.line('(throw (IllegalStateException. (str "alts returned " alt-p)))')
            self.close(2)

    def clause(self, group: list[CaseS]) -> None:
        """The body of one alts operation: its case's, or one of its merged cases'."""
        w = self.w
        case = group[0]
        if len(group) == 1 and case.var is not None and self.rng.random() < 0.5:
            w.line(f"(let [{case.var} alt-v]")
        else:
            w.line("(do")
        with w.indent():
            if case.direction == "put" and case.chan in self.closed:
                w.line(f"(when (false? alt-v) {_put_on_closed(case.chan)})")
            if self.values and case.direction == "put":
                w.line(f"(vals-done vals {case.value})")
            elif self.values and case.chan in self.closed:
                # nil: the channel was closed and drained, no message to report.
                w.line(f"(when (some? alt-v) {self._got('alt-v', case.chan, True)})")
            elif self.values:
                w.line(self._got("alt-v", case.chan, True))
            if len(group) == 1:
                self.statements(case.body)
            else:
                # The alts would have taken any one of these cases: pick one.
                w.line(f"(case (int (rand-int {len(group)}))")
                with w.indent():
                    for i, member in enumerate(group):
                        if i < len(group) - 1:
                            w.line(str(i))
                        with w.indent():
                            self.body(member.body)
                self.close()
        self.close()


def render_file(
    programs: Sequence[Program],
    *,
    rng: random.Random,
    repetitions: int,
    dispatcher: bool,
    **options: object,
) -> str:
    """The namespace `chanfuzz.main`: `progN` per program and `-main` (module docstring)."""
    opts = take_options(options, OPTIONS, "clojure")
    flavour = str(opts.get("flavour", DEFAULT_FLAVOUR))
    values = bool(opts.get("values", False))
    lowered = lower_all(programs, opts.get("pct_depth"))
    for i, lw in enumerate(lowered):
        reason = unsupported_reason(lw, **options)
        if reason is not None:
            raise UnsupportedProgram(f"program {i}: {reason}")
    spawn, take, put, alts = _OPS[flavour]
    w = Writer("  ")
    w.line(HEADER)
    w.line(f"(ns {NAMESPACE}")
    w.line("  (:gen-class))")
    w.line()
    if flavour == "go" and "pct_depth" in opts:
        w.line(";; Before core.async loads: a perturbed run may size its dispatch pool.")
        w.line(f'(when-let [n (System/getenv "{THREADS_VARIABLE}")]')
        w.line(f'  (System/setProperty "{POOL_SIZE_PROPERTY}" n))')
        w.line()
    refer = {"chan", spawn, take, put, alts, "<!!"} | ({"timeout"} if flavour == "go" else set())
    if any(isinstance(s, CloseS) for lw in lowered for s in walk(lw.body)):
        refer.add("close!")
    w.line(f"(require '[clojure.core.async :refer [{' '.join(sorted(refer))}]])")
    w.lines += _CRASH.rstrip("\n").split("\n")
    if values:
        w.lines += _ORACLE.rstrip("\n").split("\n")
    for i, lw in enumerate(lowered):
        w.line()
        if values:
            table = value_table(lw)
            names = " ".join(f'"{c}"' for c in ("", *table.chans))
            sel = " ".join("true" if x else "false" for x in (False, *table.in_select))
            w.line(f"(def prog{i}-chans [{names}])")
            w.line(f"(def prog{i}-sel [{sel}])")
            w.line()
        chans = shuffled(used_channels(lw), rng)
        params = " ".join([*chans, *(["vals"] if values else [])])
        main = Writer(w.unit)
        writer = _ProgramWriter(main, rng, flavour, values, f"prog{i}", params, lw.closed())
        outer, w = w, main
        w.line(f"(defn prog{i}-once []")
        with w.indent():
            decls = [f"{c} (chan{f' {lw.capacity(c)}' if lw.capacity(c) else ''})" for c in chans]
            if values:
                decls.insert(0, f"vals (value-check prog{i}-chans prog{i}-sel)")
            if not decls:
                w.line("(let []")
            for n, decl in enumerate(decls):
                # One binding a line, aligned under the first.
                w.line(
                    ("(let [" if n == 0 else "      ") + decl + ("]" if n == len(decls) - 1 else "")
                )
            with w.indent():
                if flavour == "go":
                    # The run's main process is a go block too; this thread waits for it.
                    w.line("(<!! (go")
                    with w.indent(), w.indent():
                        writer.guarded(lw.body)
                    writer.close(2)
                else:
                    writer.process(lw.body)
                if values:
                    # Every process of the run is joined by now (see above).
                    w.line("(vals-check vals)")
            writer.close(2)
        w = outer
        for proc in writer.procs:
            w.lines += proc
            w.line()
        w.lines += main.lines
        w.line()
        w.line(f"(defn prog{i} []")
        with w.indent():
            if rng.random() < 0.5:
                w.line(f"(dotimes [_ {repetitions}]")
                w.line(f"  (prog{i}-once)))")
            else:
                w.line("(loop [rep 0]")
                w.line(f"  (when (< rep {repetitions})")
                w.line(f"    (prog{i}-once)")
                w.line("    (recur (inc rep)))))")
    w.line()
    if dispatcher:
        _run_program(w, len(lowered))
    w.line("(defn -main [& args]")
    with w.indent():
        w.line("(Thread/setDefaultUncaughtExceptionHandler")
        w.line("  (reify Thread$UncaughtExceptionHandler")
        w.line("    (uncaughtException [_ t e] (crash! t e))))")
        if not dispatcher:
            w.line("(prog0)")
        else:
            w.line("(if (next args)")
            w.line(f'  (doseq [i args] (run-program i) (println (str "{GROUP_DONE}" i)))')
            w.line("  (run-program (first args)))")
        w.line("(System/exit 0))")
    return w.text()


def _run_program(w: Writer, count: int) -> None:
    """`run-program`: program i (a command-line argument) of a dispatcher."""
    w.line("(defn run-program [i]")
    with w.indent():
        w.line("(case i")
        with w.indent():
            for i in range(count):
                w.line(f'"{i}" (prog{i})')
            w.line("(do")
            usage = f"usage: {NAMESPACE} N... (programs from 0 to {count - 1})"
            w.line(f'  (.println System/err "{usage}")')
            w.line("  (System/exit 2))))")
    w.line()

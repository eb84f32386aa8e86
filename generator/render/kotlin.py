"""Kotlin renderer: λ_chan programs on kotlinx.coroutines, as one file `Main.kt`.

Compile the file under the name `Main.kt`: its top-level functions, `main`
included, then live in the JVM class `MainKt` (run `java -cp … MainKt 3`).
`main(args: Array<String>)` is the form every Kotlin release accepts.

Each program becomes `progN()`, which does one `runBlocking` on the
multi-threaded default dispatcher (SPEC §8a) and in it repeats the run
`repetitions` times. A run creates its channels (`Channel<Unit>()`, a
rendezvous channel) and joins every coroutine it launches before the next run.

`package_layout` chooses the library generation:

* "modern" (kotlinx.coroutines ≥ 0.26 / 1.x, package `kotlinx.coroutines`):
  `runBlocking(Dispatchers.Default)`, each run inside `coroutineScope { … }`,
  spawns as `launch { … }`. Structured concurrency makes every launch (nested
  ones too) a child of the scope, and `coroutineScope` returns only when all
  children have completed; a child's exception fails the scope and the
  program exits non-zero.
* "experimental" (0.19 … 0.30, package `kotlinx.coroutines.experimental`):
  before 0.26 a bare `launch` is not a child of anything, so the renderer
  joins by hand. `runBlocking(CommonPool)` (CommonPool exists throughout);
  each process keeps its spawns in a list, `jobsN.add(async(coroutineContext)
  { … })`, and awaits them all at its end. `await` (rather than `join`)
  rethrows a child's exception, so a crash in a spawned coroutine still fails
  the program.

`threads` (default 0): 0 runs on the library's default dispatcher, N > 0 on
`newFixedThreadPoolContext(N, …)` (daemon threads; exists in every release).
With more threads than cores the OS preempts coroutines in the middle of a
select, which is what races in select implementations need: on this 2-core
machine the default dispatchers have only 1 (CommonPool) or 2 threads.

`duplicate_clauses` ("merge" or "keep"; default "merge" for the modern
layout, "keep" for the experimental one): since 1.7 kotlinx.coroutines
rejects a select with two clauses on the same channel ("Cannot use select
clauses on the same object"), which the paper's programs have (E-Select-Dup,
E-Get-Select; Fig. 15 selects three times on c5). "merge" renders the cases
that share a channel and direction as one clause whose body picks one of
their bodies at run time (`ThreadLocalRandom`, which every JVM has): each
execution is still one the select allows. "keep" renders them as they are,
for releases before 1.7, where duplicate clauses are what exposed the paper's
bug. A select that both sends and receives on one channel cannot be merged:
with "merge" it raises `UnsupportedProgram`.

`pct_depth=d` calls `yield()` before d−1 communication steps (`_common.perturb`),
and a pool of `threads` takes its size from $CHANFUZZ_THREADS when a run sets it.

`values=True` turns on the value oracle (`_common`): channels carry `Int`, each
run owns a `ValueCheck` (counts in an `AtomicIntegerArray`) that every receive
reports to and that is checked once the run has joined every coroutine. A
merged clause of several put cases sends the first one's value: the others'
are then never sent, which the check allows.

Beyond the paper (issue #15, `BEYOND_PAPER`), in both package layouts: a
buffered channel is `Channel<T>(k)` (an unbounded one `Channel<T>(Channel.UNLIMITED)`,
code of its own in every release), `c.close()` closes one and a range is
`for (v in c) { … }`, which ends once the channel is closed and drained. A
plain `receive()` or `onReceive` throws on a closed channel, where the checker
assumes a receive completes at once with no message, so every receive and
receive clause on a channel some process closes (`Lowered.closed`) uses the
form that tolerates it. `closed_receive` says which one the release has:
"catching" (`receiveCatching()`, `onReceiveCatching`: from kotlinx.coroutines
1.5, which made `receiveOrNull` an error; the default of the modern layout) or
"or_null" (`receiveOrNull()`, `onReceiveOrNull`: 0.19 … 1.4.3, the only choice
of the experimental layout). Under the value oracle such a receive reports to
the oracle only when it got a message. A send on a closed channel throws
(ClosedSendChannelException): a crash. Other channels are written as before,
so a program without these constructs renders byte for byte as it did.

Seeded variation: indentation of 4 or 2 spaces, channel declarations in
shuffled order, receives that bind a named `val` (an unused value is only a
warning) or not, `onReceive { x -> … }` or `onReceive { … }`, mirrored
comparisons in conditions.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import count

from generator.effects import UNBOUNDED
from generator.lambda_chan import Program
from generator.render._common import (
    ALREADY_CLOSED,
    BY_CLOSE,
    BY_RECEIVE,
    BY_SELECT,
    C_LIKE,
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
    render_cond,
    shuffled,
    spawn_sites,
    take_options,
    used_channels,
    value_table,
    walk,
)

HEADER = "// Code generated by chanfuzz. DO NOT EDIT. Compile as Main.kt: the class is MainKt."
LAYOUTS = ("modern", "experimental")


def _duplicates(value: object) -> str:
    if value not in ("merge", "keep"):
        raise ValueError(f"duplicate_clauses must be 'merge' or 'keep', not {value!r}")
    return str(value)


def _layout(value: object) -> str:
    if value not in LAYOUTS:
        raise ValueError(f"package_layout must be one of {', '.join(LAYOUTS)}, not {value!r}")
    return str(value)


# How a receive that may find its channel closed is written (module docstring).
CLOSED_RECEIVES = ("catching", "or_null")


def _closed_receive(value: object) -> str:
    if value not in CLOSED_RECEIVES:
        raise ValueError(
            f"closed_receive must be one of {', '.join(CLOSED_RECEIVES)}, not {value!r}"
        )
    return str(value)


MAX_THREADS = 64


def _threads(value: object) -> int:
    if isinstance(value, str) and value.isdigit():
        value = int(value)
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= MAX_THREADS:
        raise ValueError(f"threads must be a whole number from 0 to {MAX_THREADS}, not {value!r}")
    return value


OPTIONS = {
    "package_layout": _layout,
    "duplicate_clauses": _duplicates,
    "threads": _threads,
    "closed_receive": _closed_receive,
    "values": boolean,
    "pct_depth": pct_depth,
}

VALUE_ORACLE = True

BEYOND_PAPER = frozenset({"buffered", "close", "unbounded"})


def _capacity(k: int) -> str:
    """A channel's capacity as `Channel<T>(…)` takes it: nothing for a rendezvous channel,
    `Channel.UNLIMITED` for an unbounded one (LinkedListChannel up to 1.6, the unlimited
    mode of BufferedChannel since 1.7; never an array of Int.MAX_VALUE slots)."""
    if k == UNBOUNDED:
        return "Channel.UNLIMITED"
    return str(k) if k else ""


# The value oracle's runtime, once per file (see _common for what it checks).
_ORACLE = f"""
class ValueCheck(val chans: Array<String>, val sel: BooleanArray) {{
    val sent = java.util.concurrent.atomic.AtomicIntegerArray(chans.size)
    val got = java.util.concurrent.atomic.AtomicIntegerArray(chans.size)

    fun recv(v: Int, c: String, inSelect: Boolean) {{
        val by = if (inSelect) "{BY_SELECT}" else "{BY_RECEIVE}"
        if (v < 1 || v >= chans.size) {{
            wrongValue("{WRONG_CHANNEL}", by, "value $v, sent by no send, received on $c")
        }}
        if (chans[v] != c) {{
            wrongValue("{WRONG_CHANNEL}", by, "value $v sent on ${{chans[v]}} received on $c")
        }}
        if (got.incrementAndGet(v) > 1) {{
            wrongValue("{TWICE}", by, "value $v sent on $c")
        }}
    }}

    fun done(v: Int) {{
        sent.set(v, 1)
    }}

    fun closed(ok: Boolean, c: String) {{
        if (ok) return
        wrongValue("{ALREADY_CLOSED}", "{BY_CLOSE}", "$c is closed once, and close answered false")
    }}

    fun check() {{
        for (v in 1 until chans.size) {{
            val of = if (sel[v]) "{OF_SELECT}" else "{OF_SEND}"
            val c = chans[v]
            if (sent.get(v) == 1 && got.get(v) == 0) {{
                val detail = "value $v on $c: its send completed, nobody received it"
                wrongValue("{NEVER_RECEIVED}", of, detail)
            }}
            if (sent.get(v) == 0 && got.get(v) == 1) {{
                val detail = "value $v on $c: received, its send did not complete"
                wrongValue("{NEVER_SENT}", of, detail)
            }}
        }}
    }}
}}

fun wrongValue(kind: String, by: String, detail: String) {{
    System.err.println("{ORACLE_PREFIX}$kind ($by): $detail")
    System.err.flush()
    // halt, not exit: no shutdown hook or stuck coroutine can hold the verdict back.
    Runtime.getRuntime().halt({ORACLE_EXIT})
}}
"""


def _settings(options: dict[str, object]) -> tuple[str, str]:
    opts = take_options(options, OPTIONS, "kotlin")
    layout = str(opts.get("package_layout", "modern"))
    duplicates = str(opts.get("duplicate_clauses", "merge" if layout == "modern" else "keep"))
    return layout, duplicates


def closed_receive(options: dict[str, object]) -> str:
    """Which receive a program writes where it may find its channel closed (the
    `closed_receive` option, defaulting by layout; "catching" needs the modern one): the
    Kotlin installer asks it too, to train a toolchain on the same receive."""
    opts = take_options(options, OPTIONS, "kotlin")
    layout = str(opts.get("package_layout", "modern"))
    closed = str(opts.get("closed_receive", "catching" if layout == "modern" else "or_null"))
    if closed == "catching" and layout != "modern":
        raise ValueError(
            "closed_receive='catching' needs package_layout='modern': receiveCatching"
            " exists from kotlinx.coroutines 1.5"
        )
    return closed


def _dispatcher(layout: str, options: dict[str, object]) -> str:
    threads = _threads(options.get("threads", 0))
    if threads and "pct_depth" in options:
        # A perturbed run may size the pool (runners.engine.schedule).
        size = f'System.getenv("{THREADS_VARIABLE}")?.toIntOrNull() ?: {threads}'
        return f'newFixedThreadPoolContext({size}, "chanfuzz")'
    if threads:
        return f'newFixedThreadPoolContext({threads}, "chanfuzz")'
    return "Dispatchers.Default" if layout == "modern" else "CommonPool"


def _groups(select: SelectS) -> list[list[CaseS]]:
    """The cases of a select grouped by channel and direction, in order of first appearance."""
    groups: dict[tuple[str, str], list[CaseS]] = {}
    for case in select.cases:
        groups.setdefault((case.chan, case.direction), []).append(case)
    return list(groups.values())


def unsupported_reason(lowered: Lowered, **options: object) -> str | None:
    """Why this Kotlin rendering cannot express the program, or None if it can."""
    _, duplicates = _settings(options)
    closed_receive(options)  # a bad combination is a ValueError, whatever the program
    if duplicates == "keep":
        return None
    for s in walk(lowered.body):
        if isinstance(s, SelectS):
            chans = [g[0].chan for g in _groups(s)]
            if len(chans) != len(set(chans)):
                return (
                    "a select both sends and receives on one channel, which kotlinx.coroutines"
                    " ≥ 1.7 rejects and duplicate_clauses='merge' cannot rewrite"
                )
    return None


_IMPORTS = {
    "modern": (
        "kotlinx.coroutines.*",
        "kotlinx.coroutines.channels.*",
        "kotlinx.coroutines.selects.*",
    ),
    "experimental": (
        "kotlinx.coroutines.experimental.*",
        "kotlinx.coroutines.experimental.channels.*",
        "kotlinx.coroutines.experimental.selects.*",
    ),
}


class _ProgramWriter:
    def __init__(
        self,
        w: Writer,
        rng: random.Random,
        layout: str,
        merge: bool,
        values: bool,
        closed: frozenset[str] = frozenset(),
        closed_receive: str = "catching",
    ) -> None:
        self.w = w
        self.rng = rng
        self.layout = layout
        self.merge = merge
        self.values = values
        self.job_lists = count()
        self.closed = closed  # receives on these tolerate a closed channel
        self.catching = closed_receive == "catching"

    def _got(self, value: str, chan: str, sel: bool) -> str:
        return f'vals.recv({value}, "{chan}", {"true" if sel else "false"})'

    def _maybe_got(self, value: str, chan: str, sel: bool) -> str:
        """The oracle's report of a receive that may have found the channel closed:
        `value` is the ChannelResult ("catching") or the element or null ("or_null")."""
        message = f"{value}.getOrNull()" if self.catching else value
        return f"{message}?.let {{ {self._got('it', chan, sel)} }}"

    def closed_recv(self, s: RecvS) -> None:
        """A receive on a channel some process closes: it may complete with no message."""
        w = self.w
        call = f"{s.chan}.receiveCatching()" if self.catching else f"{s.chan}.receiveOrNull()"
        # The same draw as a plain receive's, so the rest of the file varies alike.
        if s.var is not None and self.rng.random() < 0.5:
            w.line(f"val {s.var} = {call}")
            if self.values:
                w.line(self._maybe_got(s.var, s.chan, False))
        elif self.values:
            w.line(self._maybe_got(call, s.chan, False))
        else:
            w.line(call)

    def process(self, block: Block) -> None:
        """A whole process: in the experimental layout, with its own join list."""
        if self.layout == "modern" or not spawn_sites(block):
            self.block(block, None)
            return
        jobs = f"jobs{next(self.job_lists)}"
        self.w.line(f"val {jobs} = ArrayList<Deferred<*>>()")
        self.block(block, jobs)
        self.w.line(f"for (job in {jobs}) job.await()")

    def block(self, block: Block, jobs: str | None) -> None:
        w = self.w
        for s in block:
            if isinstance(s, RecvS) and s.chan in self.closed:
                self.closed_recv(s)
            elif isinstance(s, RecvS):
                if s.var is not None and self.rng.random() < 0.5:
                    w.line(f"val {s.var} = {s.chan}.receive()")
                    if self.values:
                        w.line(self._got(s.var, s.chan, False))
                elif self.values:
                    w.line(self._got(f"{s.chan}.receive()", s.chan, False))
                else:
                    w.line(f"{s.chan}.receive()")
            elif isinstance(s, SendS):
                if self.values:
                    w.line(f"{s.chan}.send({s.value})")
                    w.line(f"vals.done({s.value})")
                else:
                    w.line(f"{s.chan}.send(Unit)")
            elif isinstance(s, SpawnS):
                if jobs is None:
                    w.line("launch {")
                    with w.indent():
                        self.process(s.body)
                    w.line("}")
                else:
                    w.line(f"{jobs}.add(async(coroutineContext) {{")
                    with w.indent():
                        self.process(s.body)
                    w.line("})")
            elif isinstance(s, IfS):
                w.line(f"if ({render_cond(s.cond, C_LIKE, self.rng)}) {{")
                with w.indent():
                    self.block(s.then, jobs)
                w.line("} else {")
                with w.indent():
                    self.block(s.orelse, jobs)
                w.line("}")
            elif isinstance(s, SelectS):
                w.line("select<Unit> {")
                with w.indent():
                    groups = _groups(s) if self.merge else [[case] for case in s.cases]
                    for group in groups:
                        self.clause(group, jobs)
                w.line("}")
            elif isinstance(s, CloseS) and self.values:
                w.line(f'vals.closed({s.chan}.close(), "{s.chan}")')
            elif isinstance(s, CloseS):
                w.line(f"{s.chan}.close()")
            elif isinstance(s, RangeS):
                # Ends once the channel is closed and drained: every element is a message.
                w.line(f"for ({s.var} in {s.chan}) {{")
                with w.indent():
                    if self.values:
                        w.line(self._got(s.var, s.chan, False))
                    self.block(s.body, jobs)
                w.line("}")
            elif isinstance(s, YieldS):
                w.line("yield()")
            else:  # pragma: no cover - the statement tree has no other node
                raise TypeError(s)

    def clause(self, group: list[CaseS], jobs: str | None) -> None:
        """One select clause: a case, or (merging) cases on one channel and direction."""
        w = self.w
        case = group[0]
        oracle = None  # the line that tells the value oracle what this clause did
        if case.direction == "put":
            head = f"{case.chan}.onSend({case.value if self.values else 'Unit'}) {{"
            oracle = f"vals.done({case.value})"
        elif case.chan in self.closed:
            # The clause is selected on a closed channel too, with no message.
            clause = "onReceiveCatching" if self.catching else "onReceiveOrNull"
            var = "it"
            if len(group) == 1 and case.var is not None and self.rng.random() < 0.5:
                var = case.var
            head = f"{case.chan}.{clause} {{" + ("" if var == "it" else f" {var} ->")
            oracle = self._maybe_got(var, case.chan, True)
        elif len(group) == 1 and case.var is not None and self.rng.random() < 0.5:
            head = f"{case.chan}.onReceive {{ {case.var} ->"
            oracle = self._got(case.var, case.chan, True)
        else:
            head = f"{case.chan}.onReceive {{"
            oracle = self._got("it", case.chan, True)
        if not self.values:
            oracle = None
        if len(group) == 1 and not case.body and oracle is None:
            w.line(f"{head} }}")
            return
        w.line(head)
        with w.indent():
            if oracle is not None:
                w.line(oracle)
            if len(group) == 1:
                self.block(case.body, jobs)
            else:
                # The select would have taken any one of these cases: pick one.
                pick = f"java.util.concurrent.ThreadLocalRandom.current().nextInt({len(group)})"
                w.line(f"when ({pick}) {{")
                with w.indent():
                    for i, member in enumerate(group):
                        label = "else" if i == len(group) - 1 else str(i)
                        if member.body:
                            w.line(f"{label} -> {{")
                            with w.indent():
                                self.block(member.body, jobs)
                            w.line("}")
                        else:
                            w.line(f"{label} -> {{ }}")
                w.line("}")
        w.line("}")


def render_file(
    programs: Sequence[Program],
    *,
    rng: random.Random,
    repetitions: int,
    dispatcher: bool,
    **options: object,
) -> str:
    """The file `Main.kt`: `progN()` per program and `main` (see the module docstring)."""
    layout, duplicates = _settings(options)
    receive = closed_receive(options)
    opts = take_options(options, OPTIONS, "kotlin")
    lowered = lower_all(programs, opts.get("pct_depth"))
    for i, lw in enumerate(lowered):
        reason = unsupported_reason(lw, **options)
        if reason is not None:
            raise UnsupportedProgram(f"program {i}: {reason}")
    values = bool(opts.get("values", False))
    element = "Int" if values else "Unit"
    w = Writer("    " if rng.random() < 0.6 else "  ")
    w.line(HEADER)
    w.line()
    for name in _IMPORTS[layout]:
        w.line(f"import {name}")
    if values:
        w.lines += [line.replace("    ", w.unit) for line in _ORACLE.rstrip("\n").split("\n")]
    dispatch = _dispatcher(layout, options)
    for i, lw in enumerate(lowered):
        w.line()
        if values:
            table = value_table(lw)
            names = ", ".join(f'"{c}"' for c in ("", *table.chans))
            sel = ", ".join("true" if x else "false" for x in (False, *table.in_select))
            w.line(f"val prog{i}Chans = arrayOf({names})")
            w.line(f"val prog{i}Sel = booleanArrayOf({sel})")
            w.line()
        w.line(f"fun prog{i}() {{")
        with w.indent():
            w.line(f"runBlocking({dispatch}) {{")
            with w.indent():
                w.line(f"repeat({repetitions}) {{")
                with w.indent():
                    if values:
                        w.line(f"val vals = ValueCheck(prog{i}Chans, prog{i}Sel)")
                    if layout == "modern":
                        w.line("coroutineScope {")
                        w.depth += 1
                    for c in shuffled(used_channels(lw), rng):
                        w.line(f"val {c} = Channel<{element}>({_capacity(lw.capacity(c))})")
                    writer = _ProgramWriter(
                        w, rng, layout, duplicates == "merge", values, lw.closed(), receive
                    )
                    writer.process(lw.body)
                    if layout == "modern":
                        w.depth -= 1
                        w.line("}")
                    if values:
                        # Every coroutine of the run is joined by now (see above).
                        w.line("vals.check()")
                w.line("}")
            w.line("}")
        w.line("}")
    w.line()
    w.line("fun main(args: Array<String>) {")
    with w.indent():
        if not dispatcher:
            w.line("prog0()")
        else:
            w.line("when (args.getOrNull(0)) {")
            with w.indent():
                for i in range(len(lowered)):
                    w.line(f'"{i}" -> prog{i}()')
                w.line("else -> {")
                with w.indent():
                    last = len(lowered) - 1
                    w.line(f'System.err.println("usage: MainKt N (a program from 0 to {last})")')
                    w.line("System.exit(2)")
                w.line("}")
            w.line("}")
    w.line("}")
    return w.text()

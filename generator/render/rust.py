"""Rust renderer: λ_chan programs as one binary crate's `main.rs`, on five channel libraries.

`flavour` chooses the library (default "crossbeam"):

* "crossbeam": crossbeam-channel, `crossbeam_channel::bounded::<()>(0)`,
  processes are `std::thread::spawn` threads (through one `spawn_` a file, which
  takes the process as a boxed closure: see `SPAWN_THREAD`). A select is, by a seeded choice
  per select, either `crossbeam_channel::select!` or the `crossbeam_channel::Select`
  builder. The macro is written once a shape of select (its cases' directions,
  a default or not) in a helper, `fn sel_rs_(c0: &Receiver<_>, c1: &Sender<_>, …)
  -> Selected_` with `recv(c0) -> r => Selected_::Recv(0, r)` and
  `send(c1, ()) -> r => Selected_::Sent(1, r)` arms (see `SELECTED`); the
  program `match`es on what it completed and the case's body follows the
  operation in that arm. The builder: each case
  added in order (`let i0_ = sel_.recv(&r);`), `sel_.select()`, and a `match`
  on the chosen index whose arm completes that operation (`oper_.recv(&r)`,
  `oper_.send(&s, ())`) and then runs the case's body. The two share
  crossbeam's selection core, but the builder's own code (index numbering,
  the list of handles, `SelectedOperation`'s checks) is what programs that
  build a select at run time call, and the macro never does.
* "flume": flume, `flume::bounded::<()>(0)`, threads, selection with
  `flume::Selector::new().recv(&r, sel_got_(0)).send(&s, (), sel_sent_(1)).wait()`.
  A case's closure (made by one of two helpers a file, `FLUME_MAPS`) only
  checks its result and returns its case's index; the case's body runs after
  `wait()` in a `match` on that index, outside the Selector.
* "flume-async": flume's `send_async(()).await` / `recv_async().await` on a
  multi-threaded tokio runtime built by `main`
  (`Builder::new_multi_thread().worker_threads(threads)`; option `threads`,
  default 4, only for this flavour). Each program's run is an `async fn`
  driven by `block_on`; processes are `tokio::spawn`ed tasks (boxed futures,
  through `spawn_`). Selection is `tokio::select!` over the
  `send_async`/`recv_async` futures, held (as crossbeam's macro) by one
  `async fn` helper a shape of select, whose branches give what they completed;
  the program's arms only check the result and give the case's index, and the
  body runs after the select in a `match` (`tokio::select!` drops the futures
  it did not pick).
* "chan": the old `chan` crate (0.1.x; `#[macro_use] extern crate chan;`),
  `chan::sync(0)`, threads, `chan_select!`. Its macro only takes arms of the
  form `ident.recv() [-> pat] => expr` and `ident.send(expr) => expr`, and it
  shadows each arm's channel identifier with the select's handle inside the
  macro; two arms with the same identifier do not compile, and chan keys a
  select's operations by channel end, so a second operation on the same end
  would replace the first. The renderer therefore writes one arm per channel
  end (a receive and a send on one channel are two ends and two arms): cases
  sharing an end are merged, and the arm picks one of their indices at run
  time (`pick_`, std's randomly keyed SipHash, no extra crate); every
  execution is still one the select allows. An arm only assigns the index
  (`arm_ = 1`); the body runs after the macro in a `match`.
* "std": `std::sync::mpsc::sync_channel::<()>(0)`, threads, no select: a
  program with a select cannot be expressed (`unsupported_reason` says so,
  `render` raises `UnsupportedProgram`). `Receiver` is not `Clone`, so each
  channel's receiver is shared as `Arc<Mutex<Receiver<()>>>` (both made by one
  helper a file, `chan_(k)`: `CHAN_STD`) and a receive is
  `recv_(&rx)`: `rx.lock().unwrap().recv().unwrap()` in one helper a file (see
  `RECV_STD`), the guard dropped as it returns.
  This keeps every terminating program terminating: all receivers of one
  channel are interchangeable (a unit value carries nothing, and which process
  takes it is exactly the nondeterminism λ_chan already has), and a receiver
  waiting for the mutex waits for the same send it would have waited for:
  the lock is held only by a receiver blocked in `recv`, which returns as soon
  as any send on that channel happens, and then the next waiter gets the lock.
  No process ever holds two locks or holds a lock while sending.

Every flavour: a run (`progN_once`) creates its channels, carrying `()` (`u32`
under the value oracle; `Msg_` under the quiet check, below), with capacity 0
(rendezvous channels) unless the program declares a channel buffered (below),
and is repeated `repetitions` times by `progN`, each time with fresh channels
(SPEC §8a). Every handle is `Clone` (the std receiver through its `Arc`), so
before each `move` closure the spawn clones exactly the channel ends its
process and its descendants use, in a seeded order. Joins: a process that
spawns collects its children's `JoinHandle`s in `handles_` and, as its last
act, joins them all in order (`join_(handles_)`, one helper a file; tasks
await `join_(handles_).await`). A child therefore ends only after its own
children ended, and a run only after every process it spawned, transitively;
a stuck process shows as a hang, never hidden by `main` returning. A panic anywhere ends the process
once it has printed its message and backtrace (the manifest's `panic = "abort"`,
runners.targets.rust_cargo; the `unwrap()` of a join would carry it to `main`
as exit code 101 otherwise). Every channel end outlives all processes that use it
(the run's originals are dropped after the joins), so no operation fails on a
disconnected channel; each result is `unwrap()`ed anyway.

`pct_depth=d` yields (`std::thread::yield_now()`; in tokio tasks
`tokio::task::yield_now().await`) before d−1 communication steps
(`_common.perturb`), and tokio's workers are $CHANFUZZ_THREADS when a run sets it.

Beyond the paper (issue #15): buffered channels, and on crossbeam a select's
default (``BEYOND_PAPER = {"buffered", "default"}``; the targets' capabilities
say `buffered=True, close=False`, and only crossbeam's `select_default=True`).
crossbeam's `select!` takes a `default => { … }` arm, run when no case can
complete at once (through the builder, `try_select()`, whose `Err` runs the
default); the other flavours refuse a default with the reason (flume's
`Selector` and `tokio::select!` have no such arm, `wait_timeout(0)` and
`biased` stand-ins would be new code paths of their own to vouch for).

A channel of capacity k is the same constructor with k for 0: crossbeam
`bounded(k)`, flume `bounded(k)` (threads and tokio alike), chan
`chan::sync(k)`, std `sync_channel(k)`, so a program without a buffered channel
renders exactly as before. An unbounded channel (`Chan(c, unbounded)`,
``"unbounded"`` in BEYOND_PAPER) is the crate's own constructor (`UNBOUNDED_CHANNEL`:
crossbeam and flume `unbounded()`, chan `chan::async()`, std `mpsc::channel()`
through `chan_u_()`, whose `Sender` is not a `SyncSender`: under the value
oracle its sends go through `send_u_`; both helpers only in files that make
one), to the quiet check a capacity of `usize::MAX` (never full, no
`capacity()`), filled with up to `_rust_quiet.UNBOUNDED_FILL` messages, past two
ends of crossbeam's blocks.
Every select flavour takes a send case on a buffered channel with room at once,
as Go's select does (crossbeam `select!`, flume's `Selector`, `tokio::select!`
over `send_async`, `chan_select!`): nothing else changes. Close and range are
out of reach: a Rust channel closes when its last sender is dropped, never by an
explicit call, and here every process holds a clone of the ends it uses and the
run keeps the originals until its joins, so no process can close a channel for
the others; the generator, reading the capabilities, never puts a close or a
range into a program for these targets.

With `dispatcher=True`, `main` runs program i given as an argument and exits
with status 2 for anything else. Given several indices, it runs each in turn
and prints `chanfuzz: done N` on stdout after each (`GROUP_RUNS`: one process
start for many programs; Rust's stdout is line-buffered whatever it is
connected to, and a panic or the value oracle's exit ends the process, so a
missing mark is the program that failed). With one index it prints nothing of
its own. Generated variables are never read, so the file starts with
`#![allow(unused)]` (and `non_snake_case`: λ_chan names may have capitals).

Crates and features each flavour needs in Cargo.toml (`CRATE_FEATURES`):
crossbeam: `crossbeam-channel` (default features); flume: `flume` with
feature `select` (a default feature, named so in 0.10, 0.11 and 0.12);
flume-async: `flume` with feature `async` (also default in 0.10–0.12; in
0.10 `async` pulls in `pin-project`) and `tokio` 1 with `rt-multi-thread` and
`macros`; chan: `chan` 0.1 (no features); std: nothing.

What the libraries do with these programs (chan 0.1.23, flume 0.11.1 and
0.12.0, seen running generated programs and minimal reproducers; crossbeam and
std run every generated program they can express). None of it is the
renderer's doing, and the output keeps it visible rather than avoiding it:
* chan: a `chan_select!` send never meets a `chan_select!` receive on a
  rendezvous channel, both wait forever (BurntSushi/chan#20, closed unfixed).
* flume: a `Selector` registers all its sends at once, and receivers can take
  more than one of them while `wait()` reports one; a `Selector` receive
  leaves a value it was offered in the bounded(0) channel when it picks
  another case.
* flume-async: with a `recv_async` waiting, `send_async` on bounded(0)
  completes leaving the value in the channel, where the sender's own next
  `recv_async` can take it back (a process then meets itself; zesterer/flume
  #134, #145), and a pending `send_async` dropped by `tokio::select!` may
  already have delivered its value (zesterer/flume#104). Programs without a
  select hang too when a process sends and then receives on one channel, or
  when two processes receive on one: a sender and a receiver of it are then
  both left waiting (flume#140).

With `values=True` the value oracle (`_common`) is rendered in: channels carry
`u32` instead of `()`, each send sends its own value and then reports
`vals.done(v)`, each receive (plain, or inside any flavour's select) reports the
value it got with its channel, `vals.recv(v, "c3", true)` (a select's receive
without a λ_chan name binds `val`; `val` and `vals` are reserved names, so no
program variable is either). A thread's plain send, and its plain receive that binds no
name, go through one helper each a file: `send_(&c1_tx, 3, vals)`, `got_(&c1_rx, "c1",
vals)` (`VALUE_OPS`). `vals` is the program's `&'static ValueCheck` (a
`Vec<AtomicU32>` each for the values sent and received), made once for all its
runs and cleared as each run starts (`vals.reset()`), so every spawned closure
captures a plain reference (no counted clone for each process to compile); it
is checked with `vals.check()` after the run's joins. A select's send case
reports `done` where its case's body starts (in crossbeam's arm, in the others'
`match arm_`), since that is where the library says which case it took. chan's
merged send arms pick
their case before the macro (`put1_ = pick_(…)`, its value `val1_`): one send arm
can offer only one value, and which case it stands for is the same random
choice the arm made before. A violation is one `eprintln!` and
`std::process::exit(65)`.

The quiet-channel check (option `quiet`, default on; crossbeam, flume and
flume-async, issue #14) is `_rust_quiet`'s: after a run's joins, each channel's observers,
a fill, one side dropped, and no message outliving the run (messages have drop glue).

Seeded variation: crossbeam's two forms of select, channel declarations and
the clones before a spawn in shuffled order, receives that bind a named
variable or not (also the `->` binding of chan's receive arms), `if` without
an `else` when the else branch is empty, a `for` or a `while` loop for the
repetitions, mirrored comparisons in conditions.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from generator.effects import UNBOUNDED
from generator.lambda_chan import Program
from generator.render import _rust_helpers, _rust_quiet
from generator.render._common import (
    C_LIKE,
    GROUP_DONE,
    THREADS_VARIABLE,
    Block,
    CaseS,
    IfS,
    Lowered,
    RecvS,
    SelectS,
    SendS,
    SpawnS,
    UnsupportedProgram,
    Writer,
    YieldS,
    boolean,
    has_select_default,
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

# FLUME_COUNTS: the Cargo feature the flume targets turn on by release (runners.targets).
from generator.render._rust_quiet import FLUME_COUNTS as FLUME_COUNTS

HEADER = "// Code generated by chanfuzz. DO NOT EDIT."
FLAVOURS = ("crossbeam", "flume", "flume-async", "chan", "std")
DEFAULT_FLAVOUR = "crossbeam"
DEFAULT_THREADS = 4
MAX_THREADS = 256

# The crates each flavour's file uses, with the Cargo features it needs of them.
CRATE_FEATURES: dict[str, dict[str, tuple[str, ...]]] = {
    "crossbeam": {"crossbeam-channel": ()},
    "flume": {"flume": ("select",)},
    "flume-async": {"flume": ("async",), "tokio": ("rt-multi-thread", "macros")},
    "chan": {"chan": ()},
    "std": {},
}


def _flavour(value: object) -> str:
    if value not in FLAVOURS:
        raise ValueError(f"flavour must be one of {', '.join(FLAVOURS)}, not {value!r}")
    return str(value)


def _threads(value: object) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= MAX_THREADS:
        raise ValueError(f"threads must be a whole number from 1 to {MAX_THREADS}, not {value!r}")
    return value


OPTIONS = {  # `quiet`: the quiet-channel check (module docstring)
    "flavour": _flavour,
    "threads": _threads,
    "values": boolean,
    "pct_depth": pct_depth,
    "quiet": boolean,
}

VALUE_ORACLE = True
# Given several indices, the dispatcher runs each in turn and prints `GROUP_DONE` and the
# index on stdout after each: a sandboxed process start costs ~20 ms, a program's run a few.
GROUP_RUNS = True
# Buffered channels, not close: a Rust channel closes only when its senders are dropped
# (see the module docstring). A default: crossbeam's only (unsupported_reason).
BEYOND_PAPER = frozenset({"buffered", "default", "unbounded"})


def _settings(options: dict[str, object]) -> tuple[str, int, bool]:
    """The flavour, tokio's worker threads and whether the value oracle is on."""
    opts = take_options(options, OPTIONS, "rust")
    flavour = str(opts.get("flavour", DEFAULT_FLAVOUR))
    if "threads" in opts and flavour != "flume-async":
        raise ValueError(f"threads applies to flavour flume-async only, not to {flavour!r}")
    threads = opts.get("threads", DEFAULT_THREADS)
    assert isinstance(threads, int)
    return flavour, threads, bool(opts.get("values", False))


def unsupported_reason(lowered: Lowered, **options: object) -> str | None:
    """Why this Rust flavour cannot express the program, or None if it can."""
    flavour, _, _ = _settings(options)
    if flavour == "std" and any(isinstance(s, SelectS) for s in walk(lowered.body)):
        return "std::sync::mpsc has no select; this program has a select"
    if flavour != "crossbeam" and has_select_default(lowered.body):
        return f"only crossbeam's select! has a default here, not {flavour}'s select"
    return None


def _tx(chan: str) -> str:
    return f"{chan}_tx"


def _rx(chan: str) -> str:
    return f"{chan}_rx"


def _ends(block: Block) -> set[str]:
    """The channel ends (`c1_tx`, `c1_rx`) a process and all its descendants use."""
    ends: set[str] = set()
    for s in walk(block):
        if isinstance(s, RecvS):
            ends.add(_rx(s.chan))
        elif isinstance(s, SendS):
            ends.add(_tx(s.chan))
        elif isinstance(s, SelectS):
            for c in s.cases:
                ends.add(_rx(c.chan) if c.direction == "get" else _tx(c.chan))
    return ends


def _groups(select: SelectS) -> list[list[int]]:
    """Indices of a select's cases grouped by channel end, in order of first appearance."""
    groups: dict[tuple[str, str], list[int]] = {}
    for i, case in enumerate(select.cases):
        groups.setdefault((case.chan, case.direction), []).append(i)
    return list(groups.values())


class _ProgramWriter:
    def __init__(
        self, w: Writer, rng: random.Random, flavour: str, values: bool, glue: bool = False
    ) -> None:
        self.w = w
        self.glue = glue  # messages are `Msg_`, made by `msg_(v)` (see _rust_quiet._QUIET)
        self.rng = rng
        self.flavour = flavour
        self.is_async = flavour == "flume-async"
        self.values = values
        self.uses_pick = False
        self.uses_spawn = False
        self.uses_value_ops = False  # sends and receives through VALUE_OPS
        self.uses_flume_maps = False  # a flume select's cases map through FLUME_MAPS
        # Shapes of crossbeam's `select!` (or flume-async's `tokio::select!`) the file calls a
        # helper for (see select_helper), in the order of their first use.
        self.shapes: list[str] = []
        self.puts = 0  # chan's merged send arms so far in this file: names their picks
        # std: the program's unbounded channels, whose Sender is not a SyncSender: sent on
        # through a helper of their own under the value oracle (CHAN_STD_UNBOUNDED).
        self.unbounded: frozenset[str] = frozenset()
        self.uses_std_unbounded = False
        self.uses_send_unbounded = False

    # ---- processes

    def process(self, block: Block) -> None:
        """A process's body: its statements, then the join of every child it spawned."""
        w = self.w
        spawns = bool(spawn_sites(block))
        if spawns:
            handle = (
                "tokio::task::JoinHandle<()>" if self.is_async else "std::thread::JoinHandle<()>"
            )
            w.line(f"let mut handles_: Vec<{handle}> = Vec::new();")
        self.block(block)
        if spawns:
            w.line("join_(handles_).await;" if self.is_async else "join_(handles_);")

    def spawn(self, s: SpawnS) -> None:
        w = self.w
        clones = shuffled(sorted(_ends(s.body)), self.rng)
        self.uses_spawn = True
        opener = "spawn_(Box::pin(async move {" if self.is_async else "spawn_(Box::new(move || {"
        if not s.body:
            w.line(f"handles_.push({opener}}})));")
            return
        if clones:
            w.line("handles_.push({")
            w.depth += 1
            for end in clones:
                w.line(f"let {end} = {end}.clone();")
            w.line(opener)
        else:
            w.line(f"handles_.push({opener}")
        with w.indent():
            self.process(s.body)
        if clones:
            w.line("}))")
            w.depth -= 1
            w.line("});")
        else:
            w.line("})));")

    # ---- statements

    def recv(self, chan: str) -> str:
        rx = _rx(chan)
        if self.flavour == "std":
            return f"recv_(&{rx})"
        if self.is_async:
            return f"{rx}.recv_async().await.unwrap()"
        return f"{rx}.recv().unwrap()"  # chan's recv gives an Option, the others a Result

    def send(self, chan: str, value: int) -> str:
        tx = _tx(chan)
        msg = self.message(value)
        if self.flavour == "chan":
            return f"{tx}.send({msg})"  # chan 0.1's send returns nothing
        if self.is_async:
            return f"{tx}.send_async({msg}).await.unwrap()"
        return f"{tx}.send({msg}).unwrap()"

    def payload(self, value: int) -> str | None:
        """The number a send's message is made from: its value under the value oracle, 0
        for a message with drop glue only, none for unit."""
        if self.values:
            return str(value)
        return "0" if self.glue else None

    def message(self, value: int) -> str:
        """What a send (or a select's send case) offers: its value, or unit."""
        return _rust_helpers.message_expr(self.payload(value), glue=self.glue)

    def got(self, value: str, chan: str, sel: bool) -> str:
        """The oracle's report of a received value (see ORACLE's `recv`)."""
        number = f"{value}.0" if self.glue else value
        return f'vals.recv({number}, "{chan}", {"true" if sel else "false"});'

    def block(self, block: Block) -> None:
        w = self.w
        for s in block:
            if isinstance(s, RecvS):
                if s.var is not None and self.rng.random() < 0.5:
                    w.line(f"let {s.var} = {self.recv(s.chan)};")
                    if self.values:
                        w.line(self.got(s.var, s.chan, False))
                elif self.values and not self.is_async:
                    self.uses_value_ops = True
                    w.line(f'got_(&{_rx(s.chan)}, "{s.chan}", vals);')
                elif self.values:
                    w.line(self.got(self.recv(s.chan), s.chan, False))
                else:
                    w.line(f"{self.recv(s.chan)};")
            elif isinstance(s, SendS):
                if self.values and self.flavour == "std" and s.chan in self.unbounded:
                    self.uses_send_unbounded = True
                    w.line(f"send_u_(&{_tx(s.chan)}, {s.value}, vals);")
                elif self.values and not self.is_async:
                    self.uses_value_ops = True
                    w.line(f"send_(&{_tx(s.chan)}, {s.value}, vals);")
                else:
                    w.line(f"{self.send(s.chan, s.value)};")
                    if self.values:
                        w.line(f"vals.done({s.value});")
            elif isinstance(s, SpawnS):
                self.spawn(s)
            elif isinstance(s, IfS):
                w.line(f"if {render_cond(s.cond, C_LIKE, self.rng)} {{")
                with w.indent():
                    self.block(s.then)
                if s.orelse or self.rng.random() < 0.5:
                    w.line("} else {")
                    with w.indent():
                        self.block(s.orelse)
                w.line("}")
            elif isinstance(s, SelectS):
                self.select(s)
            elif isinstance(s, YieldS):
                # A task gives its worker back to tokio; a thread its core to the OS.
                w.line(
                    "tokio::task::yield_now().await;"
                    if self.is_async
                    else "std::thread::yield_now();"
                )
            else:  # pragma: no cover - the statement tree has no other node
                raise TypeError(s)

    # ---- select

    def select(self, s: SelectS) -> None:
        if self.flavour == "crossbeam":
            self.select_crossbeam(s)
            return
        if self.flavour == "flume":
            self.select_flume(s)
        elif self.flavour == "flume-async":
            self.select_tokio(s)
        elif self.flavour == "chan":
            self.select_chan(s)
        else:  # pragma: no cover - unsupported_reason refuses std's selects first
            raise UnsupportedProgram("std::sync::mpsc has no select")
        self.dispatch(s.cases)

    def result_name(self, case: CaseS) -> str:
        """The name a case's result is bound to: the λ_chan variable of a receive, if any."""
        if case.direction == "get" and case.var is not None and self.rng.random() < 0.5:
            return case.var
        return "res_"

    def select_crossbeam(self, s: SelectS) -> None:
        # Half the selects through the `Select` builder: its own code (index numbering,
        # the handle list, `SelectedOperation`'s checks) is what programs that build a select
        # at run time call, and the macro never does.
        if self.rng.random() < 0.5:
            self.select_crossbeam_builder(s)
            return
        w = self.w
        # The helper makes a send's message, if that send is chosen.
        w.line(f"match {self.shape_call(s)} {{")
        with w.indent():
            for i, case in enumerate(s.cases):
                res = self.result_name(case)
                variant = "Recv" if case.direction == "get" else "Sent"
                w.line(f"Selected_::{variant}({i}, {res}) => {{")
                with w.indent():
                    self.unwrap_result(case, res)
                    if self.values and case.direction == "put":
                        # crossbeam completed this case's operation, and only it
                        w.line(f"vals.done({case.value});")
                    self.block(case.body)
                w.line("}")
            if s.default is not None:
                w.line("Selected_::Default => {")
                with w.indent():
                    self.block(s.default)
                w.line("}")
            w.line("_ => unreachable!(),")
        w.line("}")

    def select_crossbeam_builder(self, s: SelectS) -> None:
        """A select as `crossbeam_channel::Select`: add each case, `select()` (with a
        default, `try_select()`), then complete the chosen operation in the arm of the
        index the builder gave it."""
        w = self.w
        w.line("{")
        with w.indent():
            w.line("let mut sel_ = crossbeam_channel::Select::new();")
            for i, case in enumerate(s.cases):
                end = _rx(case.chan) if case.direction == "get" else _tx(case.chan)
                w.line(f"let i{i}_ = sel_.{'recv' if case.direction == 'get' else 'send'}(&{end});")
            if s.default is None:
                w.line("let oper_ = sel_.select();")
                self.complete_selected(s.cases)
            else:
                w.line("if let Ok(oper_) = sel_.try_select() {")
                with w.indent():
                    self.complete_selected(s.cases)
                w.line("} else {")
                with w.indent():
                    self.block(s.default)
                w.line("}")
        w.line("}")

    def complete_selected(self, cases: Sequence[CaseS]) -> None:
        """The `match` on a builder's `oper_.index()`: each arm completes its operation."""
        w = self.w
        w.line("match oper_.index() {")
        with w.indent():
            for i, case in enumerate(cases):
                res = self.result_name(case)
                w.line(f"k_ if k_ == i{i}_ => {{")
                with w.indent():
                    if case.direction == "get":
                        w.line(f"let {res} = oper_.recv(&{_rx(case.chan)});")
                    else:
                        msg = self.message(case.value)
                        w.line(f"let {res} = oper_.send(&{_tx(case.chan)}, {msg});")
                    self.unwrap_result(case, res)
                    if self.values and case.direction == "put":
                        w.line(f"vals.done({case.value});")
                    self.block(case.body)
                w.line("}")
            w.line("_ => unreachable!(),")
        w.line("}")

    def select_flume(self, s: SelectS) -> None:
        """A `Selector` whose cases map their results through the file's two helpers
        (see FLUME_MAPS): each gives its case's index after the check."""
        w = self.w
        self.uses_flume_maps = True
        w.line("let arm_ = flume::Selector::new()")
        with w.indent():
            for i, case in enumerate(s.cases):
                if case.direction == "get":
                    got = f'vals, "{case.chan}", {i}' if self.values else str(i)
                    w.line(f".recv(&{_rx(case.chan)}, sel_got_({got}))")
                else:
                    msg = self.message(case.value)
                    w.line(f".send(&{_tx(case.chan)}, {msg}, sel_sent_({i}))")
            w.line(".wait();")

    def select_tokio(self, s: SelectS) -> None:
        """`tokio::select!` through its shape's helper (as crossbeam's macro, see
        SELECTED), awaited; the arm of what it completed checks the result and gives the
        case's index."""
        w = self.w
        w.line(f"let arm_ = match {self.shape_call(s)}.await {{")
        with w.indent():
            for i, case in enumerate(s.cases):
                res = self.result_name(case)
                variant = "Recv" if case.direction == "get" else "Sent"
                w.line(f"Selected_::{variant}({i}, {res}) => {{")
                with w.indent():
                    self.unwrap_result(case, res)
                    w.line(str(i))
                w.line("}")
            w.line("_ => unreachable!(),")
        w.line("};")

    def shape_call(self, s: SelectS) -> str:
        """The call of the helper of `s`'s shape: each case's channel end, and a send's
        payload (the helper makes the message, as the select would)."""
        shape = _rust_helpers.select_shape(s)
        if shape not in self.shapes:
            self.shapes.append(shape)
        args = []
        for case in s.cases:
            if case.direction == "get":
                args.append(f"&{_rx(case.chan)}")
                continue
            args.append(f"&{_tx(case.chan)}")
            payload = self.payload(case.value)
            if payload is not None:
                args.append(payload)
        return f"sel_{shape}_({', '.join(args)})"

    def unwrap_result(self, case: CaseS, res: str) -> None:
        """A select case's check of its result; under the value oracle a receive reports
        its value there, the only place it is seen."""
        if self.values and case.direction == "get":
            self.w.line(self.got(f"{res}.unwrap()", case.chan, True))
        else:
            self.w.line(f"{res}.unwrap();")

    def select_chan(self, s: SelectS) -> None:
        w = self.w
        w.line("let arm_: usize;")
        groups = _groups(s)
        # Under the value oracle a merged send arm can offer only one of its cases' values,
        # so it picks its case before the macro, not in the arm (the same random choice,
        # made earlier: every execution is still one the select allows).
        early: dict[int, int] = {}  # a merged send group's first case → number of its pick
        if self.values:
            for group in groups:
                if len(group) > 1 and s.cases[group[0]].direction == "put":
                    self.uses_pick = True
                    self.puts += 1
                    n = early[group[0]] = self.puts
                    w.line(f"let put{n}_ = pick_(&[{', '.join(map(str, group))}]);")
                    arms = " ".join(f"{i} => {s.cases[i].value}," for i in group[:-1])
                    last = s.cases[group[-1]].value
                    w.line(f"let val{n}_: u32 = match put{n}_ {{ {arms} _ => {last} }};")
        w.line("chan_select! {")
        with w.indent():
            for group in groups:
                first = s.cases[group[0]]
                if len(group) == 1:
                    assign = f"arm_ = {group[0]}"
                elif group[0] in early:
                    assign = f"arm_ = put{early[group[0]]}_"
                else:
                    self.uses_pick = True
                    assign = f"arm_ = pick_(&[{', '.join(map(str, group))}])"
                rx = _rx(first.chan)
                if first.direction == "put":
                    n = early.get(group[0])
                    msg = f"val{n}_" if n is not None else self.message(first.value)
                    w.line(f"{_tx(first.chan)}.send({msg}) => {assign},")
                elif first.var is not None and self.rng.random() < 0.5:
                    code = self.chan_got(first.var, first, assign)
                    w.line(f"{rx}.recv() -> {first.var} => {code},")
                elif self.values:
                    # `val` is reserved: no program variable has that name.
                    w.line(f"{rx}.recv() -> val => {self.chan_got('val', first, assign)},")
                else:
                    w.line(f"{rx}.recv() => {assign},")
        w.line("}")

    def chan_got(self, var: str, case: CaseS, assign: str) -> str:
        """A chan receive arm's code: the case's index, after the oracle's report of the
        value `var` (an Option: None only on a closed channel, which no program has)."""
        if not self.values:
            return assign
        return f"{{ {self.got(f'{var}.unwrap()', case.chan, True)} {assign} }}"

    def dispatch(self, cases: Sequence[CaseS]) -> None:
        """After a select that gave `arm_`: run the chosen case's body."""
        w = self.w
        w.line("match arm_ {")
        with w.indent():
            for i, case in enumerate(cases):
                # The library has said which case it took: a send case's value is sent.
                done = self.values and case.direction == "put"
                if case.body or done:
                    w.line(f"{i} => {{")
                    with w.indent():
                        if done:
                            w.line(f"vals.done({case.value});")
                        self.block(case.body)
                    w.line("}")
                else:
                    w.line(f"{i} => {{}}")
            w.line("_ => unreachable!(),")
        w.line("}")


def quiet_check_id(**options: object) -> str | None:
    """A short name of this version of the quiet check's code, None where programs under
    `options` end without it: campaigns run with another version ran other programs."""
    flavour = str(options.get("flavour", DEFAULT_FLAVOUR))
    if flavour not in _rust_quiet.QUIET_CRATES or not options.get("quiet", True):
        return None
    return _rust_quiet.check_id(flavour)


def render_file(
    programs: Sequence[Program],
    *,
    rng: random.Random,
    repetitions: int,
    dispatcher: bool,
    **options: object,
) -> str:
    """The file `main.rs`: `progN` per program and `main` (see the module docstring)."""
    flavour, threads, values = _settings(options)
    opts = take_options(options, OPTIONS, "rust")
    depth = opts.get("pct_depth")
    # Off: no check and no draw, the files of before the check (golden variant).
    quiet = bool(opts.get("quiet", True)) and flavour in _rust_quiet.QUIET_CRATES
    perturbed = depth is not None
    lowered = lower_all(programs, depth)
    for i, lw in enumerate(lowered):
        reason = unsupported_reason(lw, **options)
        if reason is not None:
            raise UnsupportedProgram(f"program {i}: {reason}")
    is_async = flavour == "flume-async"
    fn = "async fn" if is_async else "fn"
    call = ".await" if is_async else ""
    # With the oracle, a program's runs share its one record (ORACLE's ValueCheck).
    params, args = ("vals: &'static ValueCheck", "vals") if values else ("", "")

    w = Writer("    ")
    w.line(HEADER)
    crates = ", ".join(
        f"{name} ({', '.join(feats)})" if feats else name
        for name, feats in CRATE_FEATURES[flavour].items()
    )
    w.line(f"// Flavour {flavour}; crates (features): {crates or 'none, std only'}.")
    w.line("#![allow(unused)]")
    w.line("#![allow(non_snake_case)]")
    if flavour == "chan":
        w.line()
        w.line("#[macro_use]")
        w.line("extern crate chan;")
    if values:
        w.line()
        w.lines += _rust_helpers.ORACLE.split("\n")

    element = "Msg_" if quiet else "u32" if values else "()"
    if quiet:
        w.line()
        w.lines += _rust_quiet.helpers(flavour)
    writer = _ProgramWriter(w, rng, flavour, values, glue=quiet)
    written_shapes = 0
    wrote_maps = False
    for i, lw in enumerate(lowered):
        w.line()
        if values:
            table = value_table(lw)
            chans = ", ".join(f'"{c}"' for c in ("", *table.chans))
            sel = ", ".join("true" if x else "false" for x in (False, *table.in_select))
            w.line(f"static PROG{i}_VALUES: ValueTable = ValueTable {{")
            with w.indent():
                w.line(f"chans: &[{chans}],")
                w.line(f"sel: &[{sel}],")
            w.line("};")
            w.line()
        w.line(f"{fn} prog{i}_once({params}) {{")
        with w.indent():
            if values:
                w.line("vals.reset();")
            order = shuffled(used_channels(lw), rng)
            for c in order:
                make = _rust_helpers.make_channel(flavour, element, lw.capacity(c))
                w.line(f"let ({_tx(c)}, {_rx(c)}) = {make};")
            writer.unbounded = frozenset(c for c, k in lw.capacities if k == UNBOUNDED)
            writer.uses_std_unbounded |= bool(writer.unbounded) and flavour == "std"
            writer.process(lw.body)
            if values:
                w.line("vals.check();")
            if quiet:
                _rust_quiet.calls(w, lw, [(c, _tx(c), _rx(c)) for c in order], flavour, rng)
        w.line("}")
        w.line()
        w.line(f"{fn} prog{i}() {{")
        with w.indent():
            if values:
                w.line(f"let vals = ValueCheck::new(&PROG{i}_VALUES);")
            if quiet:  # the check's slow questions come in the first run only
                w.line("quiet_program_starts();")
            # Once a run returned, its bindings are gone too: no message may be left.
            if rng.random() < 0.5:
                w.line(f"for _ in 0..{repetitions} {{")
                with w.indent():
                    w.line(f"prog{i}_once({args}){call};")
                    if quiet:
                        w.line("quiet_dropped();")
                w.line("}")
            else:
                w.line("let mut rep_ = 0;")
                w.line(f"while rep_ < {repetitions} {{")
                with w.indent():
                    w.line(f"prog{i}_once({args}){call};")
                    if quiet:
                        w.line("quiet_dropped();")
                    w.line("rep_ += 1;")
                w.line("}")
        w.line("}")
        # After the first program to use it: a helper the compiler rejects is then
        # blamed on a program that calls it (runners.engine.culprit).
        for shape in writer.shapes[written_shapes:]:
            w.line()
            carries = quiet or values
            helper = _rust_helpers.select_helper(
                shape, element, glue=quiet, carries=carries, is_async=is_async
            )
            w.lines += helper.split("\n")
        written_shapes = len(writer.shapes)
        if writer.uses_flume_maps and not wrote_maps:
            w.line()
            w.lines += _rust_helpers.flume_maps(element, values=values, glue=quiet).split("\n")
            wrote_maps = True
    if writer.shapes:
        w.line()
        selected = _rust_helpers.SELECTED.replace("ELEMENT", element)
        if is_async:
            selected = selected.replace("crossbeam_channel::", "flume::")
        w.lines += selected.split("\n")
    if writer.uses_pick:
        w.line()
        for line in _rust_helpers.PICK.splitlines():
            w.line(line)
    if writer.uses_spawn:
        w.line()
        w.lines += (_rust_helpers.SPAWN_TASK if is_async else _rust_helpers.SPAWN_THREAD).split(
            "\n"
        )
        w.line()
        w.lines += (_rust_helpers.JOIN_TASKS if is_async else _rust_helpers.JOIN_THREADS).split(
            "\n"
        )
    if writer.uses_value_ops:
        w.line()
        w.lines += _rust_helpers.value_ops(flavour, element, glue=quiet).split("\n")
    if flavour == "std":
        helpers = [_rust_helpers.CHAN_STD, _rust_helpers.RECV_STD]
        # Only in files that make an unbounded channel: the others stay as they were.
        if writer.uses_std_unbounded:
            helpers.append(_rust_helpers.CHAN_STD_UNBOUNDED)
        if writer.uses_send_unbounded:
            message = _rust_helpers.message_expr("v", glue=quiet)
            helpers.append(_rust_helpers.SEND_STD_UNBOUNDED.replace("MESSAGE", message))
        for helper in helpers:
            w.line()
            w.lines += helper.replace("ELEMENT", element).split("\n")

    def run(i: int) -> str:
        return f"block_on_(&rt_, Box::pin(prog{i}()))" if is_async else f"prog{i}()"

    if is_async:
        w.line()
        w.lines += _rust_helpers.BLOCK_ON.split("\n")
    w.line()
    w.line("fn main() {")
    with w.indent():
        if is_async:
            w.line("let rt_ = tokio::runtime::Builder::new_multi_thread()")
            with w.indent():
                if perturbed:  # a perturbed run may size the pool (runners.engine.schedule)
                    w.line(
                        f'.worker_threads(std::env::var("{THREADS_VARIABLE}").ok()'
                        f".and_then(|v| v.parse().ok()).unwrap_or({threads}))"
                    )
                else:
                    w.line(f".worker_threads({threads})")
                w.line(".enable_all()")
                w.line(".build()")
                w.line(".unwrap();")
        if not dispatcher:
            w.line(f"{run(0)};")
        else:
            last = len(lowered) - 1
            w.line("let args_: Vec<String> = std::env::args().skip(1).collect();")
            w.line("if args_.is_empty() {")
            with w.indent():
                w.line(f'eprintln!("usage: main N... (programs from 0 to {last})");')
                w.line("std::process::exit(2);")
            w.line("}")
            w.line("for arg_ in &args_ {")
            with w.indent():
                w.line("match arg_.as_str() {")
                with w.indent():
                    for i in range(len(lowered)):
                        w.line(f'"{i}" => {run(i)},')
                    w.line("_ => {")
                    with w.indent():
                        w.line('eprintln!("no program {:?}", arg_);')
                        w.line("std::process::exit(2);")
                    w.line("}")
                w.line("}")
                w.line("if args_.len() > 1 {")
                with w.indent():
                    w.line(f'println!("{GROUP_DONE}{{}}", arg_);')
                w.line("}")
            w.line("}")
    w.line("}")
    return w.text()

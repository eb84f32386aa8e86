"""The fixed Rust text a rendered `main.rs` holds once: what generator.render.rust writes
beside its programs.

Each piece is here because written in place, at every process, channel, receive or select of
every program, it was compiled again and again (rustc's time is most of a batch's; the
comments give the measurements): the channel makers of each flavour, the value oracle's
runtime, one spawn and one join for every process, std's shared receive, the value oracle's
sends and receives, flume's select maps, tokio's `block_on`, and one helper a shape of
select holding crossbeam's `select!` or `tokio::select!`. rust.py decides which a file
needs; what each does to a program's behaviour is its docstring's.
"""

from __future__ import annotations

from generator.effects import UNBOUNDED
from generator.render._common import (
    BY_RECEIVE,
    BY_SELECT,
    NEVER_RECEIVED,
    NEVER_SENT,
    OF_SELECT,
    OF_SEND,
    ORACLE_EXIT,
    ORACLE_PREFIX,
    TWICE,
    WRONG_CHANNEL,
    SelectS,
)

# A channel of each flavour, for its element type and capacity (0: a rendezvous channel).
CHANNEL = {
    "crossbeam": "crossbeam_channel::bounded::<{}>({})",
    "flume": "flume::bounded::<{}>({})",
    "flume-async": "flume::bounded::<{}>({})",
    "chan": "chan::sync::<{}>({})",
    "std": "chan_({1})",  # CHAN_STD: the channel, its receiver shared
}
# An unbounded channel of each flavour (`Chan(c, unbounded)`): the crates' list-of-blocks
# flavours (std's `mpsc::channel()` is a port of crossbeam's), code of their own that no
# bounded channel reaches. chan's is `chan::async`, a keyword since Rust 2018: called by its
# raw name.
UNBOUNDED_CHANNEL = {
    "crossbeam": "crossbeam_channel::unbounded::<{}>()",
    "flume": "flume::unbounded::<{}>()",
    "flume-async": "flume::unbounded::<{}>()",
    "chan": "chan::r#async::<{}>()",
    "std": "chan_u_()",  # CHAN_STD_UNBOUNDED: mpsc::channel(), its receiver shared
}


def make_channel(flavour: str, element: str, capacity: int) -> str:
    """A channel of `flavour` carrying `element`, of `capacity` (UNBOUNDED: unbounded)."""
    if capacity == UNBOUNDED:
        return UNBOUNDED_CHANNEL[flavour].format(element)
    return CHANNEL[flavour].format(element, capacity)


# The value oracle's runtime, once per file (generator.render._common says what it checks).
# Only std: every flavour builds offline against its locked crates.
ORACLE = f"""\
// For each value a program's sends carry (1, 2, …; index 0 unused): the channel it is
// sent on and whether a select sends it.
struct ValueTable {{
    chans: &'static [&'static str],
    sel: &'static [bool],
}}

// A program's record of the values sent and received in a run, shared by its threads or
// tasks. One for all of the program's runs, each run clearing it first: the runs follow
// one another, each ending with its joins.
struct ValueCheck {{
    t: &'static ValueTable,
    sent: Vec<std::sync::atomic::AtomicU32>,
    got: Vec<std::sync::atomic::AtomicU32>,
}}

fn wrong_value(kind: &str, by: &str, detail: String) -> ! {{
    eprintln!("{ORACLE_PREFIX}{{}} ({{}}): {{}}", kind, by, detail);
    std::process::exit({ORACLE_EXIT});
}}

impl ValueCheck {{
    // Leaked, once a program: every process holds a plain reference to it.
    fn new(t: &'static ValueTable) -> &'static ValueCheck {{
        let n = t.chans.len();
        Box::leak(Box::new(ValueCheck {{
            t,
            sent: (0..n).map(|_| std::sync::atomic::AtomicU32::new(0)).collect(),
            got: (0..n).map(|_| std::sync::atomic::AtomicU32::new(0)).collect(),
        }}))
    }}

    fn reset(&self) {{
        for v in 0..self.t.chans.len() {{
            self.sent[v].store(0, std::sync::atomic::Ordering::SeqCst);
            self.got[v].store(0, std::sync::atomic::Ordering::SeqCst);
        }}
    }}

    fn recv(&self, v: u32, c: &str, sel: bool) {{
        let by = if sel {{ "{BY_SELECT}" }} else {{ "{BY_RECEIVE}" }};
        let i = v as usize;
        if i < 1 || i >= self.t.chans.len() {{
            let detail = format!("value {{}}, sent by no send, received on {{}}", v, c);
            wrong_value("{WRONG_CHANNEL}", by, detail);
        }}
        if self.t.chans[i] != c {{
            let detail = format!("value {{}} sent on {{}} received on {{}}", v, self.t.chans[i], c);
            wrong_value("{WRONG_CHANNEL}", by, detail);
        }}
        if self.got[i].fetch_add(1, std::sync::atomic::Ordering::SeqCst) > 0 {{
            wrong_value("{TWICE}", by, format!("value {{}} sent on {{}}", v, c));
        }}
    }}

    fn done(&self, v: u32) {{
        self.sent[v as usize].store(1, std::sync::atomic::Ordering::SeqCst);
    }}

    // After the run's joins: each completed send met exactly one receive.
    fn check(&self) {{
        for v in 1..self.t.chans.len() {{
            let of = if self.t.sel[v] {{ "{OF_SELECT}" }} else {{ "{OF_SEND}" }};
            let c = self.t.chans[v];
            let sent = self.sent[v].load(std::sync::atomic::Ordering::SeqCst);
            let got = self.got[v].load(std::sync::atomic::Ordering::SeqCst);
            if sent == 1 && got == 0 {{
                let what = "its send completed, nobody received it";
                let detail = format!("value {{}} on {{}}: {{}}", v, c, what);
                wrong_value("{NEVER_RECEIVED}", of, detail);
            }}
            if sent == 0 && got == 1 {{
                let what = "received, its send did not complete";
                let detail = format!("value {{}} on {{}}: {{}}", v, c, what);
                wrong_value("{NEVER_SENT}", of, detail);
            }}
        }}
    }}
}}"""

PICK = """\
// One of a merged select arm's case indices, at random (std's SipHash with fresh random keys).
fn pick_(arms: &[usize]) -> usize {
    use std::hash::{BuildHasher, Hasher};
    let r = std::collections::hash_map::RandomState::new().build_hasher().finish();
    arms[(r % arms.len() as u64) as usize]
}"""


# A process's loop joining its children, written once: it was a tenth of the compile of 100
# programs (crossbeam 1.60 s -> 1.45 s, std 1.05 s -> 0.96 s; one core). Tasks await theirs
# the same way, in an `async fn` (where `track_caller` is not stable).
JOIN_THREADS = """\
// Every process's end: it waits for each child it spawned, in order.
#[track_caller]
fn join_(handles: Vec<std::thread::JoinHandle<()>>) {
    for h_ in handles {
        h_.join().unwrap();
    }
}"""

JOIN_TASKS = """\
// Every process's end: it waits for each child it spawned, in order.
async fn join_(handles: Vec<tokio::task::JoinHandle<()>>) {
    for h_ in handles {
        h_.await.unwrap();
    }
}"""


# Every process goes through one non-generic spawn: std's (or tokio's) spawn machinery
# is then compiled once a file instead of once a process, whose closure is a type of its
# own. That machinery was nine tenths of a batch's LLVM IR (100 crossbeam programs:
# 1.04 M lines and 11,309 functions before, 0.46 M and 2,848 after; rustc's time for
# the batch, on one core, 7.3–8.5 s before, 4.7–5.5 s after). The process runs the
# same closure on the same kind of thread or task; boxing adds one allocation a spawn.
SPAWN_THREAD = """\
// One spawn for every process: std's spawn is compiled once, not once per closure.
fn spawn_(f: Box<dyn FnOnce() + Send + 'static>) -> std::thread::JoinHandle<()> {
    std::thread::spawn(f)
}"""

# std's receive locks the shared receiver, receives and checks both results: four calls and
# a guard's drop, at every receive of every program. Written once, it took a fifth off the
# per-program compile of 100 programs (1.28-1.31 s -> 1.04-1.09 s, one core). The caller's
# line is still the one a failed `unwrap` names (`track_caller`).
RECV_STD = """\
// Every receive: the channel's receiver is shared, so it is locked for the receive.
#[track_caller]
fn recv_(rx: &std::sync::Arc<std::sync::Mutex<std::sync::mpsc::Receiver<ELEMENT>>>) -> ELEMENT {
    rx.lock().unwrap().recv().unwrap()
}"""

# Under the value oracle, a send and its report, and a receive whose value is only reported:
# written once, they took 7-8 % off the compile of 150 std programs (1.35-1.38 s -> 1.25-1.28
# s of CPU, one core, runs alternated), most of a program's statements being these. The
# channel's own operation is the same call on the same end; `track_caller` keeps the
# program's line in a failed `unwrap`.
# Tasks keep theirs in place (an `async fn` cannot take `track_caller`).
VALUE_OPS = """\
// Every send under the value oracle: the message, then its report.
#[track_caller]
fn send_(tx: &SENDER, v: u32, vals: &ValueCheck) {
    SEND;
    vals.done(v);
}

// Every receive whose value is only reported.
#[track_caller]
fn got_(rx: &RECEIVER, c: &'static str, vals: &ValueCheck) {
    vals.recv(RECV, c, false);
}"""

# The channel ends of each thread flavour, as VALUE_OPS takes them.
THREAD_ENDS = {
    "crossbeam": ("crossbeam_channel::Sender<{}>", "crossbeam_channel::Receiver<{}>"),
    "flume": ("flume::Sender<{}>", "flume::Receiver<{}>"),
    "chan": ("chan::Sender<{}>", "chan::Receiver<{}>"),
    "std": (
        "std::sync::mpsc::SyncSender<{}>",
        "std::sync::Arc<std::sync::Mutex<std::sync::mpsc::Receiver<{}>>>",
    ),
}


def value_ops(flavour: str, element: str, *, glue: bool) -> str:
    """VALUE_OPS for a thread flavour's ends and messages (see rust._ProgramWriter's send, recv
    and got: the same expressions, on the helpers' parameters)."""
    sender, receiver = (end.format(element) for end in THREAD_ENDS[flavour])
    send = f"tx.send({message_expr('v', glue=glue)})"
    recv = "recv_(rx)" if flavour == "std" else "rx.recv().unwrap()"
    return (
        VALUE_OPS.replace("SENDER", sender)
        .replace("RECEIVER", receiver)
        .replace("SEND", send if flavour == "chan" else f"{send}.unwrap()")
        .replace("RECV", f"{recv}.0" if glue else recv)
    )


# std's channel and the Arc<Mutex<..>> its receivers share, made at every channel of every
# program: written once, a batch of 100 programs compiles in about 4 % less time.
CHAN_STD = """\
// Every channel: std's Receiver is not Clone, so the processes share it behind a lock.
fn chan_(
    capacity: usize,
) -> (
    std::sync::mpsc::SyncSender<ELEMENT>,
    std::sync::Arc<std::sync::Mutex<std::sync::mpsc::Receiver<ELEMENT>>>,
) {
    let (tx, rx) = std::sync::mpsc::sync_channel::<ELEMENT>(capacity);
    (tx, std::sync::Arc::new(std::sync::Mutex::new(rx)))
}"""

# std's unbounded channel (`mpsc::channel()`), its receiver shared as a bounded one's: its
# Sender is another type than sync_channel's SyncSender, so it has a maker of its own, and,
# under the value oracle, a send helper of its own. Files without one never hold these.
CHAN_STD_UNBOUNDED = """\
// Every unbounded channel: std's own, whose Sender is not a SyncSender.
fn chan_u_() -> (
    std::sync::mpsc::Sender<ELEMENT>,
    std::sync::Arc<std::sync::Mutex<std::sync::mpsc::Receiver<ELEMENT>>>,
) {
    let (tx, rx) = std::sync::mpsc::channel::<ELEMENT>();
    (tx, std::sync::Arc::new(std::sync::Mutex::new(rx)))
}"""

SEND_STD_UNBOUNDED = """\
// Every send on an unbounded channel under the value oracle: the message, then its report.
#[track_caller]
fn send_u_(tx: &std::sync::mpsc::Sender<ELEMENT>, v: u32, vals: &ValueCheck) {
    tx.send(MESSAGE).unwrap();
    vals.done(v);
}"""

# flume's `Selector` maps each case's result through a closure, and a closure written in
# place is a type of its own: the Selector's generic code (its `recv` or `send`, the case's
# selection with its init, poll and deinit, their drops) was compiled again for every case,
# about twenty functions each and most of a batch's compile (300 flume programs, 1,135 cases:
# 22,000 of the binary's 25,000 functions; the batch's compile, one core, 17-22 ms a program
# before, 9.2-9.5 after). Every case of a file maps through one of two helpers instead, one
# closure type for its receives and one for its sends. The Selector runs the same code on
# the same channels; a case's closure still only checks its result and gives its index.
# (The error type is generic: its name has changed across flume releases.)
FLUME_MAPS = """\
// Every receive case of a select: its check, then its index.
fn sel_got_<E: std::fmt::Debug>(PARAMS) -> impl FnMut(Result<ELEMENT, E>) -> usize {
    move |res_| {
        CHECK
        arm
    }
}

// Every send case of a select: its check, then its index.
fn sel_sent_<E: std::fmt::Debug>(arm: usize) -> impl FnMut(Result<(), E>) -> usize {
    move |res_| {
        res_.unwrap();
        arm
    }
}"""


def flume_maps(element: str, *, values: bool, glue: bool) -> str:
    """FLUME_MAPS for the file's messages; under the value oracle a receive case reports
    its value, with its channel's name."""
    params, check = "arm: usize", "res_.unwrap();"
    if values:
        params = "vals: &'static ValueCheck, c: &'static str, " + params
        check = f"vals.recv(res_.unwrap(){'.0' if glue else ''}, c, true);"
    return FLUME_MAPS.replace("PARAMS", params).replace("ELEMENT", element).replace("CHECK", check)


# `main` runs each program's future on the runtime, and each `async fn`'s future is a type of
# its own: tokio's `block_on` (its context, budget and park code) was compiled again for
# every program, about 25 functions each (a batch of 200 flume-async programs: 5,000 of its
# 16,700 functions). Boxed, every program's future goes through one `block_on`, polled on
# the same thread by the same runtime; the box is one allocation a program, not a run.
BLOCK_ON = """\
// Every program's future: tokio's block_on is compiled once, not once per program.
fn block_on_(
    rt_: &tokio::runtime::Runtime,
    f: std::pin::Pin<Box<dyn std::future::Future<Output = ()>>>,
) {
    rt_.block_on(f)
}"""

SPAWN_TASK = """\
// One spawn for every process: tokio's spawn is compiled once, not once per future.
fn spawn_(
    f: std::pin::Pin<Box<dyn std::future::Future<Output = ()> + Send + 'static>>,
) -> tokio::task::JoinHandle<()> {
    tokio::spawn(f)
}"""


# crossbeam's `select!` expands each use into its own selection code, which rustc then type
# checks, borrow checks and lowers: 114 macro selects were a quarter of the compile of 100
# programs (1.67 s with them, 1.22 s without). A batch's selects of one shape (their cases'
# directions in order, and whether they have a default) therefore go through one helper that
# holds the macro; the program matches on what it completed and runs that case's body after,
# as the macro's arm would. The macro and its operations are the same, and a send's message is
# still made only if that send is chosen (inside the helper's arm). flume-async's
# `tokio::select!` goes the same way, in an `async fn` awaited in place (its futures, messages
# included, are made as the select starts, as they were inline): a batch of 200 programs
# compiled in 25-28 ms a program instead of 33 (one core).
SELECTED = """\
// What a select completed: the case's index and its operation's result, or its default.
enum Selected_ {
    Recv(usize, Result<ELEMENT, crossbeam_channel::RecvError>),
    Sent(usize, Result<(), crossbeam_channel::SendError<ELEMENT>>),
    Default,
}"""


def message_expr(payload: str | None, *, glue: bool) -> str:
    """A message made from its payload (see rust._ProgramWriter.payload): `Msg_` when messages
    have drop glue, the number itself, or unit when there is none."""
    if payload is None:
        return "()"
    return f"msg_({payload})" if glue else payload


def select_shape(s: SelectS) -> str:
    """A select's shape (crossbeam's, flume-async's): `r` or `s` per case in order, `d` if
    it has a default."""
    cases = "".join("r" if case.direction == "get" else "s" for case in s.cases)
    return cases + ("d" if s.default is not None else "")


def select_helper(
    shape: str, element: str, *, glue: bool, carries: bool, is_async: bool = False
) -> str:
    """The helper holding `crossbeam_channel::select!` for every select of `shape` (with
    `is_async`, an `async fn` holding `tokio::select!` over flume's futures); with
    `carries`, each send case takes its message's payload (see rust._ProgramWriter.payload)."""
    krate = "flume" if is_async else "crossbeam_channel"
    params: list[str] = []
    arms: list[str] = []
    for i, kind in enumerate(shape.rstrip("d")):
        if kind == "r":
            params.append(f"c{i}: &{krate}::Receiver<{element}>")
            op = f"r = c{i}.recv_async()" if is_async else f"recv(c{i}) -> r"
            arms.append(f"{op} => Selected_::Recv({i}, r),")
            continue
        params.append(f"c{i}: &{krate}::Sender<{element}>")
        if carries:
            params.append(f"v{i}: u32")
        message = message_expr(f"v{i}" if carries else None, glue=glue)
        op = f"r = c{i}.send_async({message})" if is_async else f"send(c{i}, {message}) -> r"
        arms.append(f"{op} => Selected_::Sent({i}, r),")
    if shape.endswith("d"):
        arms.append("default => Selected_::Default,")
    body = "\n".join(f"        {arm}" for arm in arms)
    fn, macro = ("async fn", "tokio::select!") if is_async else ("fn", "crossbeam_channel::select!")
    return (
        f"// Every select of shape {shape} (r receives, s sends, d a default).\n"
        f"{fn} sel_{shape}_({', '.join(params)}) -> Selected_ {{\n"
        f"    {macro} {{\n{body}\n    }}\n}}"
    )

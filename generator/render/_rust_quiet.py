"""The Rust renderer's quiet-channel check (option `quiet` of the Rust targets, default on;
crossbeam, flume and flume-async; issue #14): the helpers a file holds once, and the calls
that end each run. generator.render.rust writes them.

Once a run's processes are joined, nobody holds a channel end but the run, and every
message sent was received (the generator pairs them; the value oracle checks it): what
each channel's observers answer is known, and so is what its ends do once the other side
is gone. The run's last act is, per channel in its declaration order, `quiet_(tx, rx, "c",
cap, fill, senders_first, drain)` (on crossbeam through one call, `quiet_all_(vec![(tx,
rx, "c", cap, fill, senders_first, drain), …])`): both ends' `len()`, `is_empty()`,
`is_full()` (a rendezvous channel is always full) and `capacity()`; `try_recv` answers
Empty; `fill` (seeded, 0…cap, 0…70 unbounded) messages numbered 1, 2, … go in by
`try_send` (then the observers again, and `try_send` on a full channel answers Full); then
either the sender is dropped (seeded), and the receiver takes `drain` (seeded, 0…fill)
messages in order and, when it took them all, finds the channel disconnected (`try_recv`,
`recv`), or the receiver is dropped and `try_send` answers Disconnected and `send` fails.
What is left is dropped with the channel. Every error met on the way must say what it is
(Display and Debug not empty), and `send_timeout`/`recv_timeout` must answer Disconnected
at once where the other side is gone. crossbeam also asks, once the channel is filled,
whether a `Select` of each end's operation is ready (`try_ready`, `ready_timeout`: ready
when it can proceed, not ready three times in a row when it cannot; `_READY`; the blocking
`ready_timeout` in a program's first run in the process only, which
`quiet_program_starts()` before its runs and `quiet_dropped()` after each mark, and of the
run's empty channels all at once, `quiet_wait(&ends)` before the first `quiet_`: one
`Select` of every receive and rendezvous send), and checks `same_channel` over every pair
of the run's channels and each end's clone, and on a receiver of each of its other
flavours (after, tick, never, unbounded); flume 0.10 has no `same_channel` (one file
serves every release). flume instead checks, with both ends alive and then with one, each
end's `is_disconnected()` and, under the program's Cargo feature `FLUME_COUNTS` (on from
flume 0.11.1, runners.targets.rust_flume), its `sender_count()` and `receiver_count()`.
Messages have drop glue, as most real payloads do: they are `Msg_(u32)` (0 without the
value oracle), made by `msg_(v)`, and a counter of those alive must be back to 0 after
each run (`quiet_dropped()` in `progN`, once the run's bindings are gone too): a channel
that loses a message or drops one twice says so. A wrong answer is one line as the value
oracle's, kind `QUIET_WRONG`, and exit 65. chan 0.1 has no `len()` and std's receiver sits
behind its mutex: both are written as before. `quiet=False` writes the files of before the
check, with no draw for it.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence

from generator.effects import UNBOUNDED
from generator.render._common import ORACLE_EXIT, ORACLE_PREFIX, QUIET_WRONG, Lowered, Writer

# The quiet-channel check (option `quiet`, crossbeam and flume), once per file, with
# KRATE the crate. Only std: every flavour builds offline.
_QUIET = """\
// After a run's joins no process holds a channel end, and every message sent was
// received: what a channel's observers answer is known, and so is what each end does
// once the other side is gone. Any other answer is the library's fault.
fn quiet_failed(c: &str, by: &str, detail: String) -> ! {
    eprintln!("ORACLE_PREFIXQUIET_WRONG ({}): {} on {}", by, detail, c);
    std::process::exit(ORACLE_EXIT);
}

// Messages have drop glue, as most real payloads do: a channel must drop each message
// it still holds when it goes away, once. LIVE_ counts the messages alive.
static LIVE_: std::sync::atomic::AtomicIsize = std::sync::atomic::AtomicIsize::new(0);

struct Msg_(u32);

fn msg_(v: u32) -> Msg_ {
    LIVE_.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    Msg_(v)
}

impl Drop for Msg_ {
    fn drop(&mut self) {
        LIVE_.fetch_sub(1, std::sync::atomic::Ordering::SeqCst);
    }
}

fn quiet_msg(i: usize) -> Msg_ {
    msg_(i as u32)
}

// Whether this is a program's first run in the process: the check's slow questions (a
// blocking wait on a channel nobody touches) are asked in it only, the quick ones always.
static QUIET_FIRST_: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(true);

fn quiet_program_starts() {
    QUIET_FIRST_.store(true, std::sync::atomic::Ordering::SeqCst);
}

// After each run, every binding and channel of it gone: no message alive, none dropped twice.
fn quiet_dropped() {
    let n = LIVE_.load(std::sync::atomic::Ordering::SeqCst);
    if n != 0 {
        quiet_failed("the run's channels", "by drop", format!("{} messages alive", n));
    }
    QUIET_FIRST_.store(false, std::sync::atomic::Ordering::SeqCst);
}

// Every error the check meets must say what it is, in Display and in Debug.
fn quiet_shown<E: std::fmt::Display + std::fmt::Debug>(c: &str, by: &str, e: &E) {
    if e.to_string().is_empty() || format!("{:?}", e).is_empty() {
        quiet_failed(c, &format!("by {}'s error", by), "it says nothing".to_string());
    }
}

fn quiet_sent(c: &str, r: &Result<(), KRATE::TrySendError<Msg_>>) -> &'static str {
    if let Err(e) = r {
        quiet_shown(c, "try_send", e);
    }
    match r {
        Ok(_) => "Ok",
        Err(KRATE::TrySendError::Full(_)) => "Full",
        Err(KRATE::TrySendError::Disconnected(_)) => "Disconnected",
    }
}

fn quiet_got(c: &str, r: &Result<Msg_, KRATE::TryRecvError>) -> &'static str {
    if let Err(e) = r {
        quiet_shown(c, "try_recv", e);
    }
    match r {
        Ok(_) => "Ok",
        Err(KRATE::TryRecvError::Empty) => "Empty",
        Err(KRATE::TryRecvError::Disconnected) => "Disconnected",
    }
}

// What each end's len(), is_empty(), is_full() and capacity() say of a channel of
// capacity cap that holds n messages (a rendezvous channel is always full; an unbounded
// one, cap usize::MAX, never is and has no capacity()). The first
// observer that is wrong, with its end and, for len(), which way, signs the finding: a
// channel that counts a message too many is another bug than one that lost count.
fn quiet_len(tx: &KRATE::Sender<Msg_>, rx: &KRATE::Receiver<Msg_>, c: &str, cap: usize, n: usize) {
    let ends = [
        ("sender", tx.len(), tx.is_empty(), tx.is_full(), tx.capacity()),
        ("receiver", rx.len(), rx.is_empty(), rx.is_full(), rx.capacity()),
    ];
    for (end, len, empty, full, capacity) in ends {
        let wrong = if len > n {
            "len(), more than it holds"
        } else if len < n {
            "len(), fewer than it holds"
        } else if empty != (n == 0) {
            "is_empty()"
        } else if full != (n == cap) {
            "is_full()"
        } else if capacity != Some(cap).filter(|&k| k != usize::MAX) {
            "capacity()"
        } else {
            continue;
        };
        let detail = format!(
            "holding {} of {}, it says len {}, is_empty {}, is_full {}, capacity {:?}",
            n, cap, len, empty, full, capacity
        );
        quiet_failed(c, &format!("by the {}'s {}", end, wrong), detail);
    }
}

// Fill the channel with `fill` messages, then drop one side: the senders (the receiver
// then takes `drain` messages, in order, and when it took them all finds the channel
// disconnected) or the receiver (a send then fails). What is left is dropped with the
// channel.
fn quiet_(
    tx: KRATE::Sender<Msg_>,
    rx: KRATE::Receiver<Msg_>,
    c: &str,
    cap: usize,
    fill: usize,
    senders_first: bool,
    drain: usize,
) {
    quiet_len(&tx, &rx, c, cap, 0);
FLUME:    quiet_ends(Some(&tx), Some(&rx), c);
    let r = rx.try_recv();
    if quiet_got(c, &r) != "Empty" {
        quiet_failed(c, "by try_recv", format!("an empty channel answered {}", quiet_got(c, &r)));
    }
    for i in 1..=fill {
        let r = tx.try_send(quiet_msg(i));
        if r.is_err() {
            let what = quiet_sent(c, &r);
            let detail = format!("message {} of {} (capacity {}) answered {}", i, fill, cap, what);
            quiet_failed(c, "by try_send", detail);
        }
    }
    quiet_len(&tx, &rx, c, cap, fill);
CROSSBEAM:    quiet_ready(&tx, &rx, c, cap, fill);
    if fill == cap {
        let r = quiet_sent(c, &tx.try_send(quiet_msg(0)));
        if r != "Full" {
            quiet_failed(c, "by try_send", format!("a full channel answered {}", r));
        }
    }
    if senders_first {
        drop(tx);
FLUME:        quiet_ends(None, Some(&rx), c);
        for i in 1..=drain {
            match rx.try_recv() {
                Ok(m) if m.0 == i as u32 => {}
                Ok(m) => {
                    let detail = format!("message {} of {} came as message {}", i, fill, m.0);
                    quiet_failed(c, "by try_recv", detail);
                }
                r => {
                    let what = quiet_got(c, &r);
                    let detail = format!("message {} of {}, no sender, answered {}", i, fill, what);
                    quiet_failed(c, "by try_recv", detail);
                }
            }
        }
        if drain == fill {
            let r = rx.try_recv();
            if quiet_got(c, &r) != "Disconnected" {
                let detail = format!("empty, senders gone, answered {}", quiet_got(c, &r));
                quiet_failed(c, "by try_recv", detail);
            }
            match rx.recv() {
                Ok(_) => quiet_failed(c, "by recv", "empty, senders gone, received".to_string()),
                Err(e) => quiet_shown(c, "recv", &e),
            }
            let r = rx.recv_timeout(std::time::Duration::ZERO);
            if let Err(e) = &r {
                quiet_shown(c, "recv_timeout", e);
            }
            if !matches!(r, Err(KRATE::RecvTimeoutError::Disconnected)) {
                let detail = format!("empty, senders gone, answered {:?}", r.map(|m| m.0));
                quiet_failed(c, "by recv_timeout", detail);
            }
        }
    } else {
        drop(rx);
FLUME:        quiet_ends(Some(&tx), None, c);
        let r = tx.try_send(quiet_msg(0));
        if quiet_sent(c, &r) != "Disconnected" {
            let detail = format!("receivers gone, answered {}", quiet_sent(c, &r));
            quiet_failed(c, "by try_send", detail);
        }
        match tx.send(quiet_msg(0)) {
            Ok(_) => quiet_failed(c, "by send", "receivers gone, sent".to_string()),
            Err(e) => quiet_shown(c, "send", &e),
        }
        let r = tx.send_timeout(quiet_msg(0), std::time::Duration::ZERO);
        if let Err(e) = &r {
            quiet_shown(c, "send_timeout", e);
        }
        if !matches!(r, Err(KRATE::SendTimeoutError::Disconnected(_))) {
            quiet_failed(c, "by send_timeout", format!("receivers gone, answered {:?}", r));
        }
    }
}
CROSSBEAM:
CROSSBEAM:// A run's channels, each with what quiet_ does to it: its name, capacity, fill, whether
CROSSBEAM:// its senders go first, and drain.
CROSSBEAM:type QuietEnd_ =
CROSSBEAM:    (KRATE::Sender<Msg_>, KRATE::Receiver<Msg_>, &'static str, usize, usize, bool, usize);
CROSSBEAM:
CROSSBEAM:// The run's last act: every channel it made checked quiet, then torn down in turn.
CROSSBEAM:fn quiet_all_(ends: Vec<QuietEnd_>) {
CROSSBEAM:    quiet_same(&ends);
CROSSBEAM:    quiet_wait(&ends);
CROSSBEAM:    for (tx, rx, c, cap, fill, senders_first, drain) in ends {
CROSSBEAM:        quiet_(tx, rx, c, cap, fill, senders_first, drain);
CROSSBEAM:    }
CROSSBEAM:}"""

# crossbeam only (flume 0.10 has no `same_channel`): each end is the same channel as its
# clone and as no other channel's end; so is a receiver of each of the crate's other
# flavours (timers that never fire in a run, never(), an unbounded channel).
_SAME = """\
fn quiet_flavours() {
    use std::time::Duration;
    let hour = Duration::from_secs(3600);
    let after = (KRATE::after(hour), KRATE::after(hour));
    let tick = (KRATE::tick(hour), KRATE::tick(hour));
    for (name, (r, other)) in [("after", &after), ("tick", &tick)] {
        if !r.same_channel(&r.clone()) || r.same_channel(other) {
            quiet_failed(name, "by same_channel", "a receiver, its clone and another".to_string());
        }
    }
    let never = KRATE::never::<Msg_>();
    if after.0.same_channel(&tick.0) || !never.same_channel(&KRATE::never()) {
        quiet_failed("never", "by same_channel", "after, tick and never".to_string());
    }
    let (utx, urx) = KRATE::unbounded::<Msg_>();
    if !utx.same_channel(&utx.clone()) || !urx.same_channel(&urx.clone()) {
        quiet_failed("unbounded", "by same_channel", "an end and its clone differ".to_string());
    }
}

fn quiet_same(ends: &[QuietEnd_]) {
    quiet_flavours();
    for (i, (tx, rx, c, ..)) in ends.iter().enumerate() {
        if !tx.same_channel(&tx.clone()) || !rx.same_channel(&rx.clone()) {
            quiet_failed(c, "by same_channel", "an end and its clone differ".to_string());
        }
        for (j, (tx2, rx2, c2, ..)) in ends.iter().enumerate() {
            if i != j && (tx.same_channel(tx2) || rx.same_channel(rx2)) {
                quiet_failed(c, "by same_channel", format!("an end is also {}'s", c2));
            }
        }
    }
}"""

# crossbeam only (the line of _QUIET marked CROSSBEAM:; flume has no readiness API): what a
# Select says of each end's one operation. Select's docs let ready() succeed spuriously, so
# an operation that cannot proceed may be called ready, but not three times in a row on a
# channel nobody else touches: no other thread is there to wake it. Its blocking form waits
# 200 µs, longer than the spinning that comes first; if a busy machine makes the spinning
# outlast it, the call times out before it watches, which is still the right answer.
# The blocking form waits 3 × 200 µs for each operation that cannot proceed, 1.2 ms a
# rendezvous channel: in every run it was most of a crossbeam run's time (36 ms of 10 runs
# against 4 ms for std's), so it is asked in a program's first run in the process only.
# Even so, a program's channels cost 1.2 ms each: the wait on an empty channel, every
# receive and a rendezvous channel's send, is asked of all the run's channels at once
# (quiet_wait, before any is filled: one Select of every such operation, 600 µs a run),
# and quiet_ready waits alone only on a send to a full buffered channel.
_READY = """\
fn quiet_wait(ends: &[QuietEnd_]) {
    if !QUIET_FIRST_.load(std::sync::atomic::Ordering::SeqCst) {
        return;
    }
    let mut sel = KRATE::Select::new();
    let mut ops = Vec::new();
    for &(ref tx, ref rx, c, cap, ..) in ends {
        sel.recv(rx);
        ops.push((c, cap, "receive"));
        if cap == 0 {
            sel.send(tx);
            ops.push((c, cap, "send"));
        }
    }
    let wait = std::time::Duration::from_micros(200);
    let mut said = 0;
    let mut ready = || {
        let r = sel.ready_timeout(wait);
        if let Ok(i) = r {
            said = i;
        }
        r.is_ok()
    };
    if (0..3).all(|_| ready()) {
        let (c, cap, op) = ops[said];
        let detail = format!(
            "holding 0 of {}, a {} that cannot proceed, said ready 3 times",
            cap, op
        );
        quiet_failed(c, "by Select::ready_timeout", detail);
    }
}

fn quiet_ready(
    tx: &KRATE::Sender<Msg_>,
    rx: &KRATE::Receiver<Msg_>,
    c: &str,
    cap: usize,
    n: usize,
) {
    let wait = std::time::Duration::from_micros(200);
    for (op, ready) in [("send", n < cap), ("receive", n > 0)] {
        let mut sel = KRATE::Select::new();
        if op == "send" {
            sel.send(tx);
        } else {
            sel.recv(rx);
        }
        let can = if ready { "can" } else { "cannot" };
        let said = format!("holding {} of {}, a {} that {} proceed", n, cap, op, can);
        if ready && sel.try_ready().is_err() {
            quiet_failed(c, "by Select::try_ready", format!("{}, said not ready", said));
        }
        if !ready && (0..3).all(|_| sel.try_ready().is_ok()) {
            quiet_failed(c, "by Select::try_ready", format!("{}, said ready 3 times", said));
        }
        // An empty channel's operations waited in quiet_wait, all at once.
        let first = QUIET_FIRST_.load(std::sync::atomic::Ordering::SeqCst);
        if !ready && n > 0 && first && (0..3).all(|_| sel.ready_timeout(wait).is_ok()) {
            quiet_failed(c, "by Select::ready_timeout", format!("{}, said ready 3 times", said));
        }
    }
}"""

# flume only (lines of _QUIET marked FLUME:): what each end says of the ends alive, by
# is_disconnected() and, from the release that has them (the program's Cargo feature
# FLUME_COUNTS, which the target turns on by release), sender_count() and receiver_count().
# Only the run's own ends are alive then: every clone went with its process.
_ENDS = """\
// sender_count() and receiver_count() of an end, where the release has them.
macro_rules! quiet_counts_ {
    ($e:expr) => {{
        #[cfg(feature = "FLUME_COUNTS")]
        let counts = Some(($e.sender_count(), $e.receiver_count()));
        #[cfg(not(feature = "FLUME_COUNTS"))]
        let counts: Option<(usize, usize)> = None;
        counts
    }};
}

fn quiet_ends(tx: Option<&flume::Sender<Msg_>>, rx: Option<&flume::Receiver<Msg_>>, c: &str) {
    let alive = (tx.is_some() as usize, rx.is_some() as usize);
    let ends = [
        tx.map(|e| ("sender", e.is_disconnected(), quiet_counts_!(e))),
        rx.map(|e| ("receiver", e.is_disconnected(), quiet_counts_!(e))),
    ];
    for (end, disconnected, counts) in ends.into_iter().flatten() {
        let said = format!("{} senders and {} receivers alive", alive.0, alive.1);
        if disconnected != (alive.0 == 0 || alive.1 == 0) {
            let detail = format!("{}, it says {}", said, disconnected);
            quiet_failed(c, &format!("by the {}'s is_disconnected()", end), detail);
        }
        if counts.map_or(false, |n| n != alive) {
            let detail = format!("{}, it says {:?}", said, counts.unwrap());
            let by = format!("by the {}'s sender_count() or receiver_count()", end);
            quiet_failed(c, &by, detail);
        }
    }
}"""

# The program's Cargo feature on which flume's sender_count() and receiver_count() are
# checked: flume 0.10.14 has neither, 0.11.1 has both (runners.targets.rust_flume*).
FLUME_COUNTS = "counts"

# The flavours whose channels answer len(), is_full(), try_send, … alike (chan 0.1 and
# std's mpsc have no len(); std's receiver sits behind its mutex).
QUIET_CRATES = {"crossbeam": "crossbeam_channel", "flume": "flume", "flume-async": "flume"}


def check_id(flavour: str) -> str:
    """A short name of this version of the check's code as `flavour`'s files hold it
    (a flavour of QUIET_CRATES): campaigns run with another version ran other programs."""
    # Of the check's code as this flavour's files hold it: a line of crossbeam's alone
    # (quiet_all_) leaves flume's programs, and their campaigns, as they were. And of how
    # many messages the calls draw for an unbounded channel: the same helpers filled with
    # a few messages never reached what 70 do (a list flavour's ends of blocks).
    text = "\n".join(helpers(flavour))
    calls = f"\nunbounded channels filled with up to {UNBOUNDED_FILL} messages"
    return hashlib.sha256((text + calls).encode()).hexdigest()[:8]


def helpers(flavour: str) -> list[str]:
    """The quiet check's Rust functions for this flavour."""
    flume = flavour != "crossbeam"
    text = _QUIET + "\n\n" + (_ENDS if flume else _SAME + "\n\n" + _READY)
    for name, value in (
        ("ORACLE_PREFIX", ORACLE_PREFIX),
        ("QUIET_WRONG", QUIET_WRONG),
        ("ORACLE_EXIT", str(ORACLE_EXIT)),
        ("KRATE", QUIET_CRATES[flavour]),
        ("FLUME_COUNTS", FLUME_COUNTS),
    ):
        text = text.replace(name, value)
    mine, other = ("FLUME:", "CROSSBEAM:") if flume else ("CROSSBEAM:", "FLUME:")
    return [x.removeprefix(mine) for x in text.split("\n") if not x.startswith(other)]


# The most messages the quiet check puts into an unbounded channel. crossbeam's (and std's)
# list flavour holds 31 messages a block: a program's own few never leave the first, so the
# check's fill is what crosses a block's end, where the next block is installed by a send and
# taken over by a receive, and, once the receiver is dropped with messages left, where
# blocks are freed (crossbeam-channel 0.5.12-0.5.14 freed one twice there). Up to 70: two
# ends of blocks.
UNBOUNDED_FILL = 70


def calls(
    w: Writer,
    lw: Lowered,
    ends: Sequence[tuple[str, str, str]],
    flavour: str,
    rng: random.Random,
) -> None:
    """The run's last act: every channel of `ends` (its name and its ends' variables,
    in the run's order of declaration) checked quiet and torn down (see _QUIET), one
    `quiet_(…)` a channel; on crossbeam, which also checks the run's channels all at once,
    one `quiet_all_(vec![(…), …])` of every channel instead. Its two checks over all
    channels, each given an array of every channel's ends, cost more to compile than the
    vector of them (50 programs: rustc ran 3.44 G instructions, 3.29 G through quiet_all_,
    0.96 G of either a batch's own). On flume the calls cost less than the vector (2.90 G
    against 3.00 G): it keeps them."""
    calls = []
    for c, tx, rx in ends:
        cap = lw.capacity(c)
        # An unbounded channel is `usize::MAX` to the helpers (no capacity(), never full).
        fill = rng.randint(0, UNBOUNDED_FILL if cap == UNBOUNDED else cap)
        senders_first = rng.random() < 0.5
        drain = rng.randint(0, fill) if senders_first else 0
        first = "true" if senders_first else "false"
        shown = "usize::MAX" if cap == UNBOUNDED else str(cap)
        calls.append(f'({tx}, {rx}, "{c}", {shown}, {fill}, {first}, {drain})')
    if flavour != "crossbeam":
        for call in calls:
            w.line(f"quiet_{call};")
    elif calls:
        w.line("quiet_all_(vec![")
        with w.indent():
            for call in calls:
                w.line(f"{call},")
        w.line("]);")

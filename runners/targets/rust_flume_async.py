"""The rust-flume-async target: flume's `send_async`/`recv_async` on tokio's multi-threaded
runtime: processes are tasks, selection is `tokio::select!` over the two kinds of future
(flume#140: an async rendezvous deadlock).

Toolchains, builds and the reading of runs are shared by the Rust targets
(:mod:`runners.targets.rust_cargo`); this module says which library and how.
"""

from __future__ import annotations

from generator.capabilities import Capabilities
from generator.render.rust import FLUME_COUNTS
from runners.targets import rust_cargo
from runners.targets.rust_library import Dependency, RustLibrary

LIBRARY = RustLibrary(
    target="rust-flume-async",
    crate="flume",
    flavour="flume-async",
    since=((FLUME_COUNTS, "0.11.1"),),  # sender_count(), receiver_count()
    extra=(Dependency("tokio", "1", ("rt-multi-thread", "macros")),),
    threads_option=True,
)

TARGET = rust_cargo.target_spec(
    LIBRARY,
    title="Rust (flume on tokio)",
    extension="flumeasync.rs",
    position=52,
    capabilities=Capabilities(
        select=True, select_send=True, buffered=True, close=False, unbounded=True
    ),
    concurrency="tasks",
    known_bugs=(
        "flume 0.11.1 and 0.12.0: with an async receiver waiting, send_async on a bounded(0) "
        "channel completes leaving the value in the channel (zesterer/flume#140), where the "
        "sender's own next recv_async can take it back and its partner waits for ever "
        "(#145, #134); with two receivers of the channel, a sender and a receiver of it can "
        "both be left waiting for ever. Programs without any select hang from it.",
        "send_async is not cancel-safe in tokio::select! (zesterer/flume#104): a select can "
        "commit more than one of its operations.",
    ),
)

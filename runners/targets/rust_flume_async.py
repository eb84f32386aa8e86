"""The rust-flume-async target: flume's `send_async`/`recv_async` on tokio's multi-threaded
runtime: processes are tasks, selection is `tokio::select!` over the two kinds of future
(flume#140: an async rendezvous deadlock).

Toolchains, builds and the reading of runs are shared by the Rust targets
(:mod:`runners.targets.rust_cargo`); this module says which library and how.
"""

from __future__ import annotations

from generator.capabilities import Capabilities
from runners.targets import rust_cargo
from runners.targets.base import TargetSpec
from runners.targets.rust_cargo import Dependency, RustLibrary

LIBRARY = RustLibrary(
    target="rust-flume-async",
    crate="flume",
    flavour="flume-async",
    extra=(Dependency("tokio", "1", ("rt-multi-thread", "macros")),),
    threads_option=True,
)

TARGET = TargetSpec(
    name="rust-flume-async",
    title="Rust (flume on tokio)",
    extension="flumeasync.rs",
    lexer="rust",
    position=52,
    renderer="rust",
    capabilities=Capabilities(select=True, select_send=True),
    concurrency="tasks",
    candidates=rust_cargo.candidates(LIBRARY),
    known=rust_cargo.known(LIBRARY),
    install=rust_cargo.install(LIBRARY),
    install_defaults=lambda log: rust_cargo.install_defaults(LIBRARY, log),
    source_file=rust_cargo.SOURCE_FILE,
    build_plan=rust_cargo.build_plan(LIBRARY),
    render_options=rust_cargo.render_options(LIBRARY),
    read_crash=rust_cargo.read_crash,
    run_env=rust_cargo.RUN_ENV,
    dump_command=rust_cargo.gdb_dump,
    hang_shape=rust_cargo.hang_shape,
    dockerfile="docker/rust.Dockerfile",
    bundle_script=rust_cargo.bundle_script(LIBRARY),
    known_bugs=(
        "flume 0.11.1 and 0.12.0: with an async receiver waiting, send_async on a bounded(0) "
        "channel completes leaving the value in the channel, where the sender's own next "
        "recv_async can take it back and its partner waits for ever (zesterer/flume#145, "
        "#134); programs without any select hang from it.",
        "send_async is not cancel-safe in tokio::select! (zesterer/flume#104): a select can "
        "commit more than one of its operations.",
    ),
)

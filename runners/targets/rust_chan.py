"""The rust-chan target: the `chan` crate: `chan::sync(0)`, `std::thread` processes, `chan_select!`
with send and receive cases (BurntSushi/chan#20: a select deadlock on `sync(0)`).

Toolchains, builds and the reading of runs are shared by the Rust targets
(:mod:`runners.targets.rust_cargo`); this module says which library and how.
"""

from __future__ import annotations

from generator.capabilities import Capabilities
from runners.targets import rust_cargo
from runners.targets.base import TargetSpec
from runners.targets.rust_cargo import RustLibrary

LIBRARY = RustLibrary(
    target="rust-chan",
    crate="chan",
    flavour="chan",
    extra=(),
    threads_option=False,
)

TARGET = TargetSpec(
    name="rust-chan",
    title="Rust (chan)",
    extension="chan.rs",
    lexer="rust",
    position=53,
    renderer="rust",
    capabilities=Capabilities(select=True, select_send=True),
    concurrency="threads",
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
        "chan 0.1.23: a chan_select! send never meets a chan_select! receive on a "
        "rendezvous chan::sync(0) channel: both wait for ever (BurntSushi/chan#20, closed "
        "unfixed; the crate is deprecated). Generated programs with a send case hit it.",
    ),
)

"""The rust-chan target: the `chan` crate: `chan::sync(0)`, `std::thread` processes, `chan_select!`
with send and receive cases (BurntSushi/chan#20: a select deadlock on `sync(0)`).

Toolchains, builds and the reading of runs are shared by the Rust targets
(:mod:`runners.targets.rust_cargo`); this module says which library and how.
"""

from __future__ import annotations

from generator.capabilities import Capabilities
from runners.targets import rust_cargo
from runners.targets.rust_library import RustLibrary

LIBRARY = RustLibrary(
    target="rust-chan",
    crate="chan",
    flavour="chan",
)

TARGET = rust_cargo.target_spec(
    LIBRARY,
    title="Rust (chan)",
    extension="chan.rs",
    position=53,
    capabilities=Capabilities(
        select=True, select_send=True, buffered=True, close=False, unbounded=True
    ),
    concurrency="threads",
    known_bugs=(
        "chan 0.1.23: a chan_select! send never meets a chan_select! receive on a "
        "rendezvous chan::sync(0) channel: both wait for ever (BurntSushi/chan#20, closed "
        "unfixed; the crate is deprecated). Generated programs with a send case hit it.",
    ),
)

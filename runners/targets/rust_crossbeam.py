"""The rust-crossbeam target: crossbeam-channel: `bounded(0)` channels, `std::thread` processes,
`select!` with send and receive cases (beyond the paper, a default too). Releases 0.5.1–0.5.7
were yanked for a race.

Toolchains, builds and the reading of runs are shared by the Rust targets
(:mod:`runners.targets.rust_cargo`); this module says which library and how.
"""

from __future__ import annotations

from generator.capabilities import Capabilities
from runners.targets import rust_cargo
from runners.targets.rust_library import RustLibrary

LIBRARY = RustLibrary(
    target="rust-crossbeam",
    crate="crossbeam-channel",
    flavour="crossbeam",
)

TARGET = rust_cargo.target_spec(
    LIBRARY,
    title="Rust (crossbeam-channel)",
    extension="crossbeam.rs",
    position=50,
    capabilities=Capabilities(
        select=True,
        select_send=True,
        buffered=True,
        close=False,
        select_default=True,
        unbounded=True,
    ),
    concurrency="threads",
)

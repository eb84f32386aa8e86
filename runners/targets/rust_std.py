"""The rust-std target: the standard library's `std::sync::mpsc::sync_channel(0)` with
`std::thread` processes. It has no select, which its capabilities say: programs for it have
none. Its version is rustc's own; nothing installs.

Toolchains, builds and the reading of runs are shared by the Rust targets
(:mod:`runners.targets.rust_cargo`); this module says which library and how.
"""

from __future__ import annotations

from generator.capabilities import Capabilities
from runners.targets import rust_cargo
from runners.targets.rust_library import RustLibrary

LIBRARY = RustLibrary(
    target="rust-std",
    crate=None,
    flavour="std",
)

TARGET = rust_cargo.target_spec(
    LIBRARY,
    title="Rust (std::sync::mpsc)",
    extension="std.rs",
    position=54,
    capabilities=Capabilities(
        select=False, select_send=False, buffered=True, close=False, unbounded=True
    ),
    concurrency="threads",
)

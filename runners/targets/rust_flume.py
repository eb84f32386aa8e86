"""The rust-flume target: flume: `bounded(0)` channels, `std::thread` processes, `flume::Selector`
with receive and send cases (flume#44: a Selector that hangs, 2020; flume#176: an empty
Selector, 0.12.0).

Toolchains, builds and the reading of runs are shared by the Rust targets
(:mod:`runners.targets.rust_cargo`); this module says which library and how.
"""

from __future__ import annotations

from generator.capabilities import Capabilities
from generator.render.rust import FLUME_COUNTS
from runners.targets import rust_cargo
from runners.targets.rust_library import RustLibrary

LIBRARY = RustLibrary(
    target="rust-flume",
    crate="flume",
    flavour="flume",
    since=((FLUME_COUNTS, "0.11.1"),),  # sender_count(), receiver_count()
)

TARGET = rust_cargo.target_spec(
    LIBRARY,
    title="Rust (flume)",
    extension="flume.rs",
    position=51,
    capabilities=Capabilities(
        select=True, select_send=True, buffered=True, close=False, unbounded=True
    ),
    concurrency="threads",
    known_bugs=(
        "flume 0.11.1 and 0.12.0: a Selector offers all its sends at once, and receivers can "
        "take more than one of them while wait() reports one (in a stand-alone reproducer, "
        "14,344 of 20,000 two-send selects completed both); a Selector's receive can leave a "
        "sent value in a bounded(0) channel when it picks another case.",
        "flume 0.12.0: an empty Selector panics in fastrand under eventual-fairness "
        "(zesterer/flume#176).",
    ),
)

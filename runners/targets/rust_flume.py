"""The rust-flume target: flume: `bounded(0)` channels, `std::thread` processes, `flume::Selector`
with receive and send cases (flume#44: a Selector that hangs, 2020; flume#176: an empty
Selector, 0.12.0).

Toolchains, builds and the reading of runs are shared by the Rust targets
(:mod:`runners.targets.rust_cargo`); this module says which library and how.
"""

from __future__ import annotations

from generator.capabilities import Capabilities
from runners.targets import rust_cargo
from runners.targets.base import TargetSpec
from runners.targets.rust_cargo import RustLibrary

LIBRARY = RustLibrary(
    target="rust-flume",
    crate="flume",
    flavour="flume",
    extra=(),
    threads_option=False,
)

TARGET = TargetSpec(
    name="rust-flume",
    title="Rust (flume)",
    extension="flume.rs",
    lexer="rust",
    position=51,
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
        "flume 0.11.1 and 0.12.0: a Selector offers all its sends at once, and receivers can "
        "take more than one of them while wait() reports one (in a stand-alone reproducer, "
        "14,344 of 20,000 two-send selects completed both); a Selector's receive can leave a "
        "sent value in a bounded(0) channel when it picks another case.",
        "flume 0.12.0: an empty Selector panics in fastrand under eventual-fairness "
        "(zesterer/flume#176).",
    ),
)

"""The rust-crossbeam target: crossbeam-channel: `bounded(0)` channels, `std::thread` processes,
`select!` with send and receive cases. Releases 0.5.1–0.5.7 were yanked for a race.

Toolchains, builds and the reading of runs are shared by the Rust targets
(:mod:`runners.targets.rust_cargo`); this module says which library and how.
"""

from __future__ import annotations

from generator.capabilities import Capabilities
from runners.targets import rust_cargo
from runners.targets.base import TargetSpec
from runners.targets.rust_cargo import RustLibrary

LIBRARY = RustLibrary(
    target="rust-crossbeam",
    crate="crossbeam-channel",
    flavour="crossbeam",
    extra=(),
    threads_option=False,
)

TARGET = TargetSpec(
    name="rust-crossbeam",
    title="Rust (crossbeam-channel)",
    extension="crossbeam.rs",
    lexer="rust",
    position=50,
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
)

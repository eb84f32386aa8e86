"""The rust-std target: the standard library's `std::sync::mpsc::sync_channel(0)` with
`std::thread` processes. It has no select, which its capabilities say: programs for it have
none. Its version is rustc's own; nothing installs.

Toolchains, builds and the reading of runs are shared by the Rust targets
(:mod:`runners.targets.rust_cargo`); this module says which library and how.
"""

from __future__ import annotations

from generator.capabilities import Capabilities
from runners.targets import rust_cargo
from runners.targets.base import TargetSpec
from runners.targets.rust_cargo import RustLibrary

LIBRARY = RustLibrary(
    target="rust-std",
    crate=None,
    flavour="std",
    extra=(),
    threads_option=False,
)

TARGET = TargetSpec(
    name="rust-std",
    title="Rust (std::sync::mpsc)",
    extension="std.rs",
    lexer="rust",
    position=54,
    renderer="rust",
    capabilities=Capabilities(select=False, select_send=False),
    concurrency="threads",
    candidates=rust_cargo.candidates(LIBRARY),
    known=rust_cargo.known(LIBRARY),
    install=None,
    not_installable="the standard library comes with rustc: apt-get install cargo",
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

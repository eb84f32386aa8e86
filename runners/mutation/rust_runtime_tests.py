"""Does a crate's own test suite kill a mutant? The yardstick for the flume and
crossbeam-channel mutants.

The suite is the crate's own as published on crates.io: its unit tests and
every integration test it ships in ``tests/`` (flume 0.12.0: 19 files, of
which 10 hold tests, the others being crossbeam's compiled out;
crossbeam-channel 0.5.17: 14; all of them channel tests). They are built
once per mutant, offline and locked to the lock file the crate ships, by
``cargo test --tests --no-run`` (doctests and benchmarks are not run), then
each test binary runs on its own with a time limit, so a hang is a kill named
after the binary that hung, "(timed out)". The dev-dependencies are fetched
into the base's cargo home the first time (crates.io must answer then).

Every mutant of one release is tested in the same place
(``<mutants_dir>/.tests-<version>/``, under a lock): its crate copy is put
there, so the dev-dependencies compile once per release and only the crate
and its test binaries are rebuilt per mutant (about a minute), and the run
takes about as long (flume 0.12.0: 60 s, crossbeam-channel: 2 min, on 2
cores). A mutant is *killed* when a test fails, a test binary crashes or
hangs; *survived* when all pass; *build failed* when the mutated crate (or
its tests) does not compile; *unavailable* when the dev-dependencies cannot
be fetched.
"""

from __future__ import annotations

import fcntl
import json
import re
import shutil
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from runners.engine.supervisor import run_argv
from runners.mutation.base import RuntimeTests
from runners.targets import rust_cargo, rust_crates
from runners.targets.base import Toolchain

NAME = "cargo test --tests (the crate's own tests, each binary within 180 s)"
BUILD_TIMEOUT_S = 1800.0
FETCH_TIMEOUT_S = 900.0
# The slowest binary takes 25 s unmutated (crossbeam's select_macro.rs on 2 cores).
TEST_BINARY_TIMEOUT_S = 180.0
OUTPUT_TAIL = 4000

_EXECUTABLE = re.compile(r"^\s*Executable (.+?) \((/.+)\)$", re.M)
_FAILURES = re.compile(r"^failures:\n((?:    \S.*\n)+)", re.M)


@contextmanager
def _locked(directory: Path) -> Iterator[None]:
    """One runtime test at a time per release: they share its place and target directory."""
    directory.mkdir(parents=True, exist_ok=True)
    with (directory / ".lock").open("w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        yield


def _put_crate(mutant_crate: Path, work: Path) -> Path:
    """The mutant's crate copy at the release's test place. Files get fresh times (no
    copy2): cargo rebuilds what is newer than its last build."""
    crate = work / "crate"
    shutil.rmtree(crate, ignore_errors=True)
    shutil.copytree(mutant_crate, crate, copy_function=shutil.copyfile)
    kept_lock = work / "Cargo.lock"
    if not (crate / "Cargo.lock").is_file() and kept_lock.is_file():
        shutil.copyfile(kept_lock, crate / "Cargo.lock")
    return crate


def _fetch(cargo: str, crate: Path, work: Path, env: dict[str, str]) -> str | None:
    """The dev-dependencies into the cargo home, once per release; the error if any."""
    done = work / ".fetched"
    if done.is_file():
        return None
    if not (crate / "Cargo.lock").is_file():  # an old release without one: resolve once
        result = run_argv([cargo, "generate-lockfile"], FETCH_TIMEOUT_S, env=env, cwd=crate)
        if not result.ok:
            return result.stderr + result.stdout
        shutil.copyfile(crate / "Cargo.lock", work / "Cargo.lock")
    result = run_argv([cargo, "fetch", "--locked"], FETCH_TIMEOUT_S, env=env, cwd=crate)
    if not result.ok:
        return result.stderr + result.stdout
    done.write_text("")
    return None


def _failed_test(output: str) -> str:
    found = _FAILURES.findall(output)
    return found[-1].split("\n", 1)[0].strip() if found else ""


def _run_binaries(binaries: list[tuple[str, str]], crate: Path, env: dict[str, str],
                  started: float, timeout_s: float) -> RuntimeTests:  # fmt: skip
    for label, path in binaries:
        result = run_argv([path], timeout_s, env=env, cwd=crate)
        if result.ok:
            continue
        output = result.stdout + result.stderr
        if result.timed_out:
            by = f"{label} (timed out)"
        elif result.signal is not None:
            by = f"{label} (signal {result.signal})"
        else:
            by = f"{label}: {_failed_test(result.stdout) or 'failed'}"
        return RuntimeTests("killed", by, time.monotonic() - started, output[-OUTPUT_TAIL:])
    return RuntimeTests("survived", "", time.monotonic() - started, "")


def cargo_runtime_tests(
    toolchain: Toolchain, binary_timeout_s: float = TEST_BINARY_TIMEOUT_S
) -> RuntimeTests:
    """Run the crate's own tests on the mutated copy of the installed mutant ``toolchain``,
    each test binary within ``binary_timeout_s``."""
    started = time.monotonic()
    meta = json.loads((toolchain.home / "mutant.json").read_text())
    work = rust_cargo.mutants_dir(meta["crate"]) / f".tests-{meta['version']}"
    cargo = str(toolchain.executable)
    env = rust_crates.cargo_env(work / "target", Path(meta["cargo_home"]))
    with _locked(work):
        crate = _put_crate(toolchain.home / rust_cargo.MUTANT_CRATE_DIR, work)
        error = _fetch(cargo, crate, work, env)
        if error is not None:  # crates.io did not answer: no suite to run here
            why = f"cannot fetch the dev-dependencies of {meta['crate']} {meta['version']}"
            return RuntimeTests("unavailable", why, time.monotonic() - started,
                                error[-OUTPUT_TAIL:])  # fmt: skip
        locked = ["--locked"] if (crate / "Cargo.lock").is_file() else []
        argv = [cargo, "test", "--tests", "--no-run", "--offline", *locked]
        build = run_argv(argv, BUILD_TIMEOUT_S, env=env, cwd=crate, output_limit=16 << 20)
        output = build.stderr + build.stdout
        if not build.ok:
            by = "cargo test --no-run" + (" (timed out)" if build.timed_out else "")
            return RuntimeTests("build failed", by, time.monotonic() - started,
                                output[-OUTPUT_TAIL:])  # fmt: skip
        binaries = _EXECUTABLE.findall(build.stderr)
        if not binaries:
            raise RuntimeError(f"cargo test built no test binary: {output[-OUTPUT_TAIL:]}")
        return _run_binaries(binaries, crate, env, started, binary_timeout_s)


__all__ = ["NAME", "RuntimeTests", "cargo_runtime_tests"]

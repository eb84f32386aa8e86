"""How a Rust program's run is read (runners.targets.rust_reading): panics, stack
overflows and fatal errors signed from what it printed, and hangs from its threads' stacks
as eu-stack (or, before 2026-12-04, gdb) dumped them."""

from __future__ import annotations

import subprocess
from pathlib import Path

from runners.engine.verdicts import Outcome, classify_run
from runners.targets import get_target
from runners.targets.rust_reading import hang_shape, read_crash, stack_dump

SAMPLES = Path(__file__).parents[1] / "samples"


def test_a_program_panic_is_signed_by_its_message_not_its_line() -> None:
    text = (SAMPLES / "rust_panic_program.txt").read_text()
    reason, signature = read_crash(text) or ("", "")
    assert signature == (
        "panic | index out of bounds: the len is 0 but the index is 3 | at the program"
    )
    assert "index out of bounds" in reason


def test_a_library_panic_keeps_its_file_and_line_without_the_release() -> None:
    # flume#176: an empty Selector with eventual-fairness panics in fastrand (0.12.0).
    text = (SAMPLES / "rust_flume_176_panic.txt").read_text()
    _, signature = read_crash(text) or ("", "")
    assert signature == (
        "panic | empty range: Included(0)..Excluded(0) | at fastrand/src/lib.rs:663"
        " | fastrand::Rng::usize::{{closure}}"
    )


def test_old_panic_format_and_stack_overflow_are_read() -> None:
    old = (
        "thread '<unnamed>' panicked at 'oops', /x/registry/src/index/chan-0.1.23/src/lib.rs:12:9\n"
    )
    assert read_crash(old) == (
        "panic: oops (at chan/src/lib.rs:12)",
        "panic | oops | at chan/src/lib.rs:12",
    )
    overflow = "\nthread 'main' (7) has overflowed its stack\nfatal runtime error: stack overflow\n"
    assert read_crash(overflow) == ("stack overflow", "stack overflow")
    assert read_crash("all fine\n") is None


def test_a_rust_panic_is_a_crash_finding() -> None:
    text = (SAMPLES / "rust_flume_176_panic.txt").read_text()
    verdict = classify_run(
        "rust-flume", exit_code=101, signal=None, timed_out=False, stdout="", stderr=text
    )
    assert verdict.outcome is Outcome.CRASH
    assert verdict.signature.startswith("rust-flume | panic | empty range")


def test_a_hang_is_signed_by_where_its_threads_wait_in_the_library() -> None:
    # eu-stack's stacks of a hung crossbeam program (recorded): both threads (main and
    # the one it spawned) blocked receiving on rendezvous channels nobody sends on.
    dump = (SAMPLES / "rust_eu_stack_hang_dump.txt").read_text()
    assert hang_shape(dump) == "crossbeam_channel::context::Context::wait_until×2"
    verdict = classify_run(
        "rust-crossbeam",
        exit_code=None,
        signal=None,
        timed_out=True,
        stdout="",
        stderr="",
        dump=dump,
    )
    assert verdict.outcome is Outcome.TIMEOUT
    assert verdict.signature == (
        "rust-crossbeam | hang | crossbeam_channel::context::Context::wait_until×2"
    )


def test_a_hang_dumped_by_gdb_before_is_still_signed() -> None:
    # gdb's stacks of a hung crossbeam program (recorded): one thread blocked in a
    # rendezvous send, main joining it (no library frame: not part of the shape). The
    # findings recorded before eu-stack have such dumps.
    dump = (SAMPLES / "rust_gdb_hang_dump.txt").read_text()
    assert hang_shape(dump) == "crossbeam_channel::flavors::zero::Channel::send"


def test_the_dump_is_eu_stack_demangled_by_cxxfilt() -> None:
    argv = stack_dump(4242)
    assert argv[:2] == ["bash", "-c"] and argv[-1] == "4242"
    # Raw names (-r) for c++filt: eu-stack's own demangling leaves Rust's v0 names mangled,
    # and pipefail, so that eu-stack's failure is not c++filt's success.
    assert "set -o pipefail; eu-stack -r -p" in argv[2] and "| c++filt" in argv[2]
    assert get_target("rust-flume").dump_command is stack_dump


def test_a_dump_names_frames_as_gdb_did() -> None:
    # c++filt turns eu-stack's raw names (v0 and legacy, with .llvm. suffixes) into the
    # names gdb printed, which hang_shape reads.
    raw = (
        "TID 7:\n"
        "#0  0x00007f42d1b04829 syscall\n"
        "#1  0x0000558796b77d45 "
        "_RNvMNtNtNtNtCsjrHSEGnQ3l9_3std3sys4sync7condvar5futexNtB2_7Condvar4wait\n"
        "#2  0x0000558796b5b2b9 "
        "_ZN5tokio7runtime4park5Inner4park17h4e1a0dfe16335c65E.llvm.10790519717507487970\n"
    )
    command = stack_dump(1)[2].split("| ", 1)[1]
    done = subprocess.run(
        ["bash", "-c", command], input=raw, capture_output=True, text=True, check=True
    )
    assert "<std[e28293b1aa0f68bd]::sys::sync::condvar::futex::Condvar>::wait" in done.stdout
    assert "tokio::runtime::park::Inner::park::h4e1a0dfe16335c65" in done.stdout
    assert hang_shape(done.stdout) == "tokio::runtime::park::Inner::park"

"""Mutants of the flume and crossbeam-channel crates: ids and changes from cargo-mutants'
listing, mutant toolchains found and built by the Rust targets, programs that hang on a
lost wake-up, and the crates' own tests."""

from __future__ import annotations

import difflib
import io
import json
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.core.management import call_command

from generator.capabilities import Capabilities
from generator.pipeline import generate_program
from generator.settings import settings_for
from runners.engine.execute import execute_batch
from runners.engine.run_target import target_for
from runners.engine.sandbox import Limits, get_sandbox
from runners.engine.toolchains import find_toolchain, installed_toolchains, known_toolchains
from runners.mutation import cargo_mutants, rust_mutants
from runners.mutation.kinds import all_kinds, installed_mutant, kind_for
from runners.mutation.rust_mutants import CROSSBEAM, FLUME
from runners.mutation.rust_runtime_tests import cargo_runtime_tests
from runners.targets import get_target
from runners.targets.base import Toolchain
from runners.targets.rust_cargo import mutants_dir
from tests.runners.conftest import require_toolchain
from tests.runners.mutation.helpers import run_effect

# A small file, and part of cargo-mutants 27.1.0's listing of it
# (`cargo mutants --Zmutate-file slot.rs --list --json --diff`), with the lines its
# diff removes and adds.
SLOT = """\
use std::sync::atomic::{AtomicBool, Ordering};

pub struct Slot {
    ready: AtomicBool,
    waiting: usize,
}

impl Slot {
    /// Wakes the waiter.
    #[inline]
    pub fn fire(&self) -> bool {
        self.ready.store(true, Ordering::SeqCst);
        !self.is_empty()
    }

    pub fn is_empty(&self) -> bool { self.waiting == 0 || !self.ready.load(Ordering::SeqCst) }

    pub fn take(&mut self) -> Option<usize> {
        match self.waiting {
            0 => None,
            n if n > 1 => {
                self.waiting -= 1;
                Some(n)
            }
            n => Some(n),
        }
    }
}
"""
# fmt: off
_FIRE = {"function_name": "Slot::fire", "return_type": "-> bool",
         "span": {"end": {"column": 6, "line": 14}, "start": {"column": 5, "line": 9}}}
_EMPTY = {"function_name": "Slot::is_empty", "return_type": "-> bool",
          "span": {"end": {"column": 95, "line": 16}, "start": {"column": 5, "line": 16}}}
_TAKE = {"function_name": "Slot::take", "return_type": "-> Option<usize>",
         "span": {"end": {"column": 6, "line": 27}, "start": {"column": 5, "line": 18}}}
# fmt: on


def _entry(genre: str, what: str, replacement: str, start: tuple[int, int],
           end: tuple[int, int], function: dict) -> dict:  # fmt: skip
    return {
        "file": "slot.rs", "genre": genre, "name": f"slot.rs:{start[0]}:{start[1]}: {what}",
        "replacement": replacement, "function": function,
        "span": {"start": {"line": start[0], "column": start[1]},
                 "end": {"line": end[0], "column": end[1]}},
    }  # fmt: skip


MARK = "/* ~ changed by cargo-mutants ~ */"
LISTING = [
    (_entry("FnValue", "replace Slot::fire -> bool with true", "true", (12, 9), (13, 25), _FIRE),
     ["        self.ready.store(true, Ordering::SeqCst);", "        !self.is_empty()"],
     [f"        true {MARK}"]),
    (_entry("FnValue", "replace Slot::fire -> bool with false", "false", (12, 9), (13, 25), _FIRE),
     ["        self.ready.store(true, Ordering::SeqCst);", "        !self.is_empty()"],
     [f"        false {MARK}"]),
    (_entry("UnaryOperator", "delete ! in Slot::fire", "", (13, 9), (13, 10), _FIRE),
     ["        !self.is_empty()"], [f"         {MARK}self.is_empty()"]),
    (_entry("FnValue", "replace Slot::is_empty -> bool with true", "true", (16, 38), (16, 93),
            _EMPTY),
     ["    pub fn is_empty(&self) -> bool { self.waiting == 0 || !self.ready.load(Ordering::SeqCst) }"],  # noqa: E501
     [f"    pub fn is_empty(&self) -> bool {{ true {MARK} }}"]),
    (_entry("BinaryOperator", "replace || with && in Slot::is_empty", "&&", (16, 56), (16, 58),
            _EMPTY),
     ["    pub fn is_empty(&self) -> bool { self.waiting == 0 || !self.ready.load(Ordering::SeqCst) }"],  # noqa: E501
     [f"    pub fn is_empty(&self) -> bool {{ self.waiting == 0 && {MARK} !self.ready.load(Ordering::SeqCst) }}"]),  # noqa: E501
    (_entry("MatchArmGuard", "replace match guard n > 1 with true in Slot::take", "true",
            (21, 18), (21, 23), _TAKE),
     ["            n if n > 1 => {"], [f"            n if true {MARK} => {{"]),
    (_entry("BinaryOperator", "replace > with >= in Slot::take", ">=", (21, 20), (21, 21), _TAKE),
     ["            n if n > 1 => {"], [f"            n if n >= {MARK} 1 => {{"]),
    (_entry("BinaryOperator", "replace -= with += in Slot::take", "+=", (22, 30), (22, 32), _TAKE),
     ["                self.waiting -= 1;"], [f"                self.waiting += {MARK} 1;"]),
]  # fmt: skip
ENTRIES = [entry for entry, _, _ in LISTING]


def test_ids_name_the_place_and_the_rank_of_each_change_there() -> None:
    mutants = cargo_mutants.mutants_of(ENTRIES, {"slot.rs": SLOT})
    assert [m.id for m in mutants] == [
        "slot-12-9-0", "slot-12-9-1", "slot-13-9-0", "slot-16-38-0", "slot-16-56-0",
        "slot-21-18-0", "slot-21-20-0", "slot-22-30-0",
    ]  # fmt: skip
    by_id = {m.id: m for m in mutants}
    # A body over several lines: its function's `fn` line (not its doc comment), summarised.
    fire = by_id["slot-12-9-1"]
    assert (fire.line, fire.operator) == (12, "FnValue")
    assert fire.describe() == "pub fn fire(&self) -> bool {  →  body replaced with false"
    # A change within one line: the line before and after (without cargo-mutants' marker).
    swap = by_id["slot-16-56-0"]
    assert swap.before == SLOT.splitlines()[15]
    assert swap.after == swap.before.replace(" || ", " && ")
    assert by_id["slot-13-9-0"].after == "        self.is_empty()"
    assert cargo_mutants.mutants_of(ENTRIES, {"slot.rs": SLOT}) == mutants  # the same every time


@pytest.mark.parametrize("index", range(len(LISTING)))
def test_a_change_is_made_exactly_as_cargo_mutants_makes_it(index: int) -> None:
    entry, removed, added = LISTING[index]
    change = cargo_mutants.change_of(entry)
    after = cargo_mutants.mutated_text(SLOT, change)
    diff = list(difflib.unified_diff(SLOT.splitlines(), after.splitlines(), lineterm="", n=0))
    assert [d[1:] for d in diff[2:] if d.startswith("-")] == removed
    assert [d[1:] for d in diff[2:] if d.startswith("+")] == added


def test_the_rust_crates_are_kinds_and_go_stays_one() -> None:
    names = [k.name for k in all_kinds()]
    assert names[0] == "go" and names[-2:] == ["flume", "crossbeam-channel"]
    assert kind_for("rust-flume").name == kind_for("rust-flume-async").name == "flume"
    assert kind_for("rust-crossbeam").targets == ("rust-crossbeam",)
    assert kind_for("go").name == "go"
    with pytest.raises(KeyError, match="rust-flume"):
        kind_for("rust-std")  # std's channels have no mutants; the message lists who has


def _fake_mutant(base: Toolchain, toolchains: Path) -> Path:
    """A mutant directory as install writes it, without compiling anything."""
    directory = toolchains / "mutants" / "flume" / base.id / "signal-27-9-1"
    (directory / "crate").mkdir(parents=True)
    (directory / "Cargo.lock").write_text("# the mutant's lock\n")
    meta = {
        "id": "signal-27-9-1",
        "file": "src/signal.rs",
        "line": 27,
        "operator": "FnValue",
        "crate": "flume",
        "version": base.version,
        "base": base.id,
        "base_home": str(base.home),
        "cargo_home": "/the/base/cargo-home",
        "compiles": True,
    }
    (directory / "mutant.json").write_text(json.dumps(meta))
    return directory


def test_a_mutant_is_a_toolchain_of_its_target_built_against_its_crate_copy(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    base = require_toolchain("rust-flume")
    monkeypatch.setenv("CHANFUZZ_TOOLCHAINS_DIR", str(tmp_path / "toolchains"))
    directory = _fake_mutant(base, tmp_path / "toolchains")
    found = [t for t in installed_toolchains("rust-flume") if t.origin == "mutant"]
    assert [t.id for t in found] == [f"{base.id}-mutant-signal-27-9-1"]
    mutant = found[0]
    assert (mutant.version, mutant.home) == (base.version, directory)
    assert mutant.component("mutant") == "src/signal.rs:27 FnValue"
    assert installed_mutant("rust-flume", base, "signal-27-9-1") == mutant
    # flume-async runs the flume crate too, but this mutant is of a rust-flume release.
    assert not [t for t in installed_toolchains("rust-flume-async") if t.origin == "mutant"]

    workdir = tmp_path / "build"
    workdir.mkdir()
    plan = get_target("rust-flume").build_plan(mutant, workdir, ())
    files = dict(plan.files)
    assert f'[patch.crates-io]\nflume = {{ path = "{directory / "crate"}" }}' in files["Cargo.toml"]
    assert files["Cargo.lock"] == "# the mutant's lock\n"
    assert "--offline" in plan.argv and "--locked" in plan.argv
    assert plan.env["CARGO_HOME"] == "/the/base/cargo-home"
    assert plan.env["CARGO_TARGET_DIR"] == str(directory.parent / "target")
    # The release builds as it did: no patch, its own target directory and cargo home.
    plan = get_target("rust-flume").build_plan(base, workdir, ())
    assert "[patch" not in dict(plan.files)["Cargo.toml"]
    assert not any(workdir.iterdir())  # a plan writes nothing: the build writes its files


def test_toolchains_list_shows_a_mutant_beside_its_release_not_instead(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    base = require_toolchain("rust-flume")
    toolchains = tmp_path / "toolchains"
    toolchains.mkdir()
    (toolchains / base.id).symlink_to(base.home)  # the release, as installed
    monkeypatch.setenv("CHANFUZZ_TOOLCHAINS_DIR", str(toolchains))
    _fake_mutant(base, toolchains)
    known = known_toolchains("rust-flume", offline=True)
    listed = [(k.version, k.toolchain.origin) for k in known if k.toolchain]
    assert listed == [(base.version, "installed"), (base.version, "mutant")]


def test_the_crates_tests_are_unavailable_when_their_dependencies_cannot_be_had(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    base = require_toolchain("rust-flume")
    monkeypatch.setenv("CHANFUZZ_TOOLCHAINS_DIR", str(tmp_path / "toolchains"))
    directory = _fake_mutant(base, tmp_path / "toolchains")
    (directory / "crate" / "Cargo.toml").write_text('[package]\nname = "flume"\n')  # no version
    (directory / "crate" / "Cargo.lock").write_text("")
    mutant = installed_mutant("rust-flume", base, "signal-27-9-1")
    assert mutant is not None
    result = cargo_runtime_tests(mutant)
    assert (result.status, result.by) == (
        "unavailable",
        f"cannot fetch the dev-dependencies of flume {base.version}",
    ), result.output
    assert "failed to parse manifest" in result.output  # cargo's own words


# --- with cargo-mutants, cargo and the sandbox -----------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize(
    ("target", "crate"), [("rust-flume", FLUME), ("rust-crossbeam", CROSSBEAM)]
)
def test_each_crate_has_hundreds_of_uniquely_named_stable_mutants(
    target: str, crate: rust_mutants.Crate, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    base = require_toolchain(target)
    monkeypatch.setenv("CHANFUZZ_CACHE_DIR", str(tmp_path / "first"))  # no cached listing
    mutants = rust_mutants.list_mutants(crate, base)
    assert len(mutants) >= 60
    assert len({m.id for m in mutants}) == len(mutants)
    assert {m.file for m in mutants} <= set(crate.files)
    assert {"FnValue", "BinaryOperator", "UnaryOperator"} <= {m.operator for m in mutants}
    monkeypatch.setenv("CHANFUZZ_CACHE_DIR", str(tmp_path / "second"))
    assert rust_mutants.list_mutants(crate, base) == mutants  # cargo-mutants, asked again


@pytest.fixture
def shared_toolchains() -> Iterator[Path]:
    """A toolchains directory others can read: the sandbox (uid 65534) binds a toolchain's
    home, a mutant's directory, which pytest's private tmp_path would hide from it."""
    with tempfile.TemporaryDirectory(prefix="chanfuzz-rust-mutants-") as tmp:
        Path(tmp).chmod(0o755)
        yield Path(tmp) / "toolchains"


def _install(target: str, version: str, mutant_id: str, monkeypatch: pytest.MonkeyPatch,
             toolchains: Path) -> tuple[Toolchain, Toolchain]:  # fmt: skip
    """(base, mutant): the mutant installed in `toolchains`, its base where it is."""
    base = require_toolchain(target, version)
    monkeypatch.setenv("CHANFUZZ_TOOLCHAINS_DIR", str(toolchains))
    kind = kind_for(target)
    kind.install(kind.find(base, mutant_id), base)
    return base, find_toolchain(target, f"{base.id}-mutant-{mutant_id}")


def _run(
    toolchain: Toolchain, seeds: list[int], tmp_path: Path, capabilities: Capabilities | None = None
) -> list[str]:
    capabilities = capabilities or get_target(toolchain.language).capabilities
    programs = [generate_program(s, settings_for("A"), capabilities).program for s in seeds]
    report = execute_batch(
        programs, target_for(toolchain, repetitions=3), workdir=tmp_path / toolchain.id,
        sandbox=get_sandbox("local"), limits=Limits(timeout_s=10, quiet_s=2),
    )  # fmt: skip
    return [e.outcome.value for e in report.executions]


# Heuristic A's programs 0, 4 and 5 block on a rendezvous (1–3 hardly use a channel).
RENDEZVOUS_SEEDS = [0, 4, 5]
# flume 0.12.0's Selector has bugs of its own (rust_flume.py): its programs select nothing.
NO_SELECT = Capabilities(select=False, select_send=False)


@pytest.mark.slow
def test_flume_without_the_wake_up_hangs_where_the_release_terminates(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, shared_toolchains: Path
) -> None:
    # SyncSignal::fire's body `self.0.unpark(); false` becomes `false`: nobody is woken.
    base, mutant = _install("rust-flume", "0.12.0", "signal-27-9-1", monkeypatch,
                            shared_toolchains)  # fmt: skip
    assert mutant.origin == "mutant" and mutant.version == "0.12.0"
    assert mutant.component("mutant") == "src/signal.rs:27 FnValue"
    assert (
        "false /* ~ changed by cargo-mutants ~ */"
        in (mutant.home / "crate" / "src" / "signal.rs").read_text()
    )
    assert _run(mutant, [0, 1, 2], tmp_path, NO_SELECT) == ["timeout"] * 3
    assert _run(base, [0, 1, 2], tmp_path, NO_SELECT) == ["terminated"] * 3


@pytest.mark.slow
def test_a_mutant_that_does_not_compile_says_so_and_its_builds_fail(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, shared_toolchains: Path
) -> None:
    # `&(dyn Any)` replaced by Box::leak(Box::new(Default::default())): dyn Any has no Default.
    _, mutant = _install("rust-flume", "0.12.0", "signal-31-9-0", monkeypatch,
                         shared_toolchains)  # fmt: skip
    error = rust_mutants.build_error(mutant)
    assert error is not None and "`dyn Any: Default` is not satisfied" in error
    assert _run(mutant, [0], tmp_path) == ["compile_error"]


@pytest.mark.slow
def test_crossbeam_without_unpark_hangs_and_its_own_tests_kill_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, shared_toolchains: Path
) -> None:
    # Context::unpark's body `self.inner.thread.unpark();` becomes `()`.
    base, mutant = _install("rust-crossbeam", "0.5.17", "context-170-9-0", monkeypatch,
                            shared_toolchains)  # fmt: skip
    assert mutant.component("mutant") == "src/context.rs:170 FnValue"
    assert _run(mutant, RENDEZVOUS_SEEDS, tmp_path) == ["timeout"] * 3
    assert _run(base, RENDEZVOUS_SEEDS, tmp_path) == ["terminated"] * 3
    # The first test binary that blocks hangs (after.rs only sleeps with time limits).
    # after.rs passes in about 3 s here, so a 20 s limit still reaches array.rs, whose hang
    # it then tells (array.rs passes in about 12 s unmutated).
    result = cargo_runtime_tests(mutant, binary_timeout_s=20)
    assert (result.status, result.by) == ("killed", "tests/array.rs (timed out)"), result.output
    assert (mutants_dir("crossbeam-channel") / ".tests-0.5.17" / ".fetched").is_file()


@pytest.mark.slow
def test_the_mutants_command_lists_flume_mutants() -> None:
    require_toolchain("rust-flume", "0.12.0")
    out = io.StringIO()
    call_command("mutants", "list", "rust-flume", "--base", "0.12.0", stdout=out)
    lines = out.getvalue().splitlines()
    assert len(lines) >= 60
    fire = next(line for line in lines if line.startswith("signal-27-9-1 "))
    assert "src/signal.rs:27" in fire and "body replaced with false" in fire


@pytest.mark.slow
def test_the_mutants_command_takes_the_crate_for_its_target() -> None:
    # The report names kinds by crate: `mutants list crossbeam-channel` is rust-crossbeam's.
    require_toolchain("rust-crossbeam", "0.5.17")
    by_crate, by_target = io.StringIO(), io.StringIO()
    call_command("mutants", "list", "crossbeam-channel", "--base", "0.5.17", stdout=by_crate)
    call_command("mutants", "list", "rust-crossbeam", "--base", "0.5.17", stdout=by_target)
    assert by_crate.getvalue() == by_target.getvalue() and by_crate.getvalue()


# Three rendezvous and three buffered channels, each used once: the quiet check
# (generator/render/rust.py) looks at six channels after the run, and fills some.
QUIET_EFFECT = (
    "Chan(c4, 2) ; Chan(c5, 3) ; Chan(c6, 2) ; Spawn(Put(c1) ; Put(c4) ; Put(c5)) ; "
    "Get(c1) ; Get(c4) ; Get(c5) ; Spawn(Put(c2) ; Put(c6)) ; Get(c2) ; Get(c6) ; "
    "Spawn(Put(c3)) ; Get(c3)"
)


# Mutants only the crates' own tests killed before the quiet check.
QUIET_KILLS = {
    # PartialEq for counter::Sender, `self.counter == other.counter` becomes `true`: every
    # two senders are one channel to Sender::same_channel (tests/same_channel.rs).
    "crossbeam-same-channel": ("rust-crossbeam", "0.5.17", "counter-87-9-0"),
    # Sender::len's body `self.shared.len()` becomes `0`: wrong once the check fills a
    # buffered channel (tests/array.rs: len).
    "flume-sender-len": ("rust-flume", "0.12.0", "lib-805-9-0"),
    # Receiver::same_channel loses its (At, At) arm: an after() receiver is not its clone's
    # channel (tests/same_channel.rs: after_same_channel).
    "crossbeam-after-same-channel": ("rust-crossbeam", "0.5.17", "channel-1151-13-0"),
    # Receiver::sender_count's body becomes `0`; the crate's tests miss it.
    "flume-sender-count": ("rust-flume", "0.12.0", "lib-1031-9-0"),
    # Sender's SelectHandle::watch becomes `true`: a blocking Select::ready_timeout on a
    # send that cannot proceed says ready every time (tests/ready.rs, by its timeout).
    "crossbeam-select-ready": ("rust-crossbeam", "0.5.17", "channel-1405-9-0"),
}


@pytest.mark.slow
@pytest.mark.parametrize("mutant", QUIET_KILLS.values(), ids=list(QUIET_KILLS))
def test_the_quiet_check_kills_what_only_the_crates_tests_killed(
    mutant: tuple[str, str, str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    shared_toolchains: Path,
) -> None:
    base, mutated = _install(*mutant, monkeypatch, shared_toolchains)
    assert run_effect(mutated, QUIET_EFFECT, tmp_path / "mutant") == "wrong_value"
    assert run_effect(base, QUIET_EFFECT, tmp_path / "base") == "terminated"

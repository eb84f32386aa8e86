"""Mutants of Crystal's stdlib channel: the operators on known lines, stable ids, mutant
toolchains found by the Crystal target and built against the mutated stdlib, and the
channel spec as a yardstick (run when it can be had, "unavailable" saying why when not)."""

from __future__ import annotations

import json
import tempfile
from collections.abc import Iterator
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command

from generator.pipeline import generate_program
from generator.settings import settings_for
from runners.engine.execute import execute_batch
from runners.engine.run_target import target_for
from runners.engine.sandbox import Limits, get_sandbox
from runners.engine.toolchains import find_toolchain
from runners.mutation import crystal_mutants, crystal_spec
from runners.mutation.crystal_spec import SpecUnavailable
from runners.mutation.kinds import kind_for
from runners.targets.base import Toolchain
from runners.targets.crystal import crystal_env, stdlib_dir
from tests.runners.conftest import require_toolchain
from tests.runners.mutation.helpers import run_effect

SNIPPET = """\
class Channel(T)
  @closed = false

  def close : Bool
    return false if @closed
    @closed = true
    @senders.each(&.value.close) # wake them all
    true
  end

  def send_internal(value : T)
    if (queue = @queue) && queue.size < @capacity
      queue << value
      @waiting += 1
    end
    unless @receivers.empty?
      Crystal::Scheduler.enqueue fiber
    end
    raise "closed: #{@closed}" if @closed
    # if a < b then nothing: a comment
  end

  def count : Int32
    return @queue.size
  end

  def first : Int32
    @queue.first
  end
end
"""


def _by_id(text: str = SNIPPET, file: str = "channel.cr") -> dict[str, str]:
    return {m.id: m.after for m in crystal_mutants.mutants_of(text, file)}


def test_each_operator_changes_the_line_it_names() -> None:
    found = _by_id()
    assert found["channel-2-bool"] == "  @closed = true"
    assert found["channel-5-not"] == "    return false if !(@closed)"
    assert found["channel-5-bool"] == "    return true if @closed"
    assert found["channel-6-drop"] == "    # chanfuzz mutant: removed @closed = true"
    assert found["channel-6-bool"] == "    @closed = false"
    # The comment goes with the removed call; no operator reaches into it.
    assert found["channel-7-drop"] == (
        "    # chanfuzz mutant: removed @senders.each(&.value.close)"
    )
    assert found["channel-8-bool"] == "    false"
    assert found["channel-12-rel"].endswith("queue.size <= @capacity")
    assert found["channel-12-off"].endswith("queue.size < @capacity + 1")
    assert found["channel-12-off-1"].endswith("queue.size < @capacity - 1")
    assert found["channel-13-drop"] == "      # chanfuzz mutant: removed queue << value"
    assert found["channel-14-incdec"] == "      @waiting -= 1"
    assert found["channel-16-not"] == "    if @receivers.empty?"
    assert found["channel-17-drop"].endswith("removed Crystal::Scheduler.enqueue fiber")
    assert found["channel-24-off"] == "    return @queue.size + 1"
    assert found["channel-24-off-1"] == "    return @queue.size - 1"


def test_what_would_not_compile_or_is_no_code_is_left_alone() -> None:
    found = _by_id()
    # An instance variable's first value; a condition that binds `queue`; the value
    # of a method typed Int32; a line with a string literal; a comment.
    for absent in ("channel-2-drop", "channel-12-not", "channel-28-drop", "channel-14-drop"):
        assert absent not in found
    assert not any(key.startswith(("channel-19-", "channel-20-")) for key in found)
    assert "channel-24-drop" not in found  # return is control flow, not a call


def test_a_file_under_a_directory_has_it_in_its_ids() -> None:
    text = "def unwait_impl(context)\n  @channel.@senders.delete pointerof(@sender)\n  nil\nend\n"
    found = _by_id(text, "channel/select/select_action.cr")
    assert list(found) == ["channel-select-select_action-2-drop"]


def _base() -> Toolchain:
    base = require_toolchain("crystal")
    assert base.origin != "mutant"
    return base


def _pinned(base: Toolchain) -> None:
    # The ids below name lines of Debian's Crystal 1.6.0 (the only release Debian has).
    if base.version != "1.6.0":
        pytest.skip(f"the mutant ids in these tests are those of Crystal 1.6.0, not {base.version}")


def test_the_machines_crystal_has_over_a_hundred_uniquely_named_mutants() -> None:
    base = _base()
    _pinned(base)
    mutants = crystal_mutants.list_mutants(stdlib_dir(base.executable))
    assert len(mutants) == 122
    assert len({m.id for m in mutants}) == len(mutants)
    assert {m.file for m in mutants} == {"channel.cr", "crystal/pointer_linked_list.cr"}
    # 1.6's channel counts nothing with `+= 1`: every other operator applies.
    assert {m.operator for m in mutants} == set(crystal_mutants.OPERATORS) - {"incdec"}
    assert crystal_mutants.list_mutants(stdlib_dir(base.executable)) == mutants
    wake_up = next(m for m in mutants if m.id == "channel-255-drop")
    assert wake_up.before.strip() == "receiver_ptr.value.fiber.enqueue"


def _install(mutant_id: str, toolchains: Path, monkeypatch: pytest.MonkeyPatch) -> Toolchain:
    monkeypatch.setenv("CHANFUZZ_TOOLCHAINS_DIR", str(toolchains))
    base = _base()
    _pinned(base)
    kind = kind_for("crystal")
    kind.install(kind.find(base, mutant_id), base)
    return find_toolchain("crystal", f"crystal-{base.version}-mutant-{mutant_id}")


def test_a_mutant_toolchain_is_the_stdlib_with_one_file_replaced(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    toolchain = _install("channel-255-drop", tmp_path / "toolchains", monkeypatch)
    assert (toolchain.origin, toolchain.version) == ("mutant", "1.6.0")
    assert toolchain.component("mutant") == "channel.cr:255 drop"
    source = toolchain.home / "src"
    assert crystal_env(toolchain)["CRYSTAL_PATH"] == f"lib:{source}"
    assert "CRYSTAL_PATH" not in crystal_env(find_toolchain("crystal"))
    stdlib = stdlib_dir(toolchain.executable)
    assert not (source / "channel.cr").is_symlink()
    assert "removed receiver_ptr.value.fiber.enqueue" in (source / "channel.cr").read_text()
    assert (source / "crystal").resolve() == stdlib / "crystal"
    assert {p.name for p in source.iterdir()} == {p.name for p in stdlib.iterdir()}
    meta = json.loads((toolchain.home / "mutant.json").read_text())
    assert (meta["id"], meta["base"]) == ("channel-255-drop", "crystal-1.6.0-debian")
    # The default Crystal is still the release, never a mutant.
    assert find_toolchain("crystal").origin != "mutant"


def test_a_mutant_of_a_file_in_a_directory_shadows_that_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = _install("crystal-pointer_linked_list-60-drop", tmp_path / "t", monkeypatch)
    again = _install("crystal-pointer_linked_list-60-drop", tmp_path / "t", monkeypatch)
    assert first == again  # installing twice makes the same toolchain
    crystal_dir = first.home / "src" / "crystal"
    stdlib = stdlib_dir(first.executable)
    assert crystal_dir.is_dir() and not crystal_dir.is_symlink()
    assert not (crystal_dir / "pointer_linked_list.cr").is_symlink()
    assert (crystal_dir / "scheduler.cr").resolve() == stdlib / "crystal" / "scheduler.cr"


def test_the_mutants_command_lists_crystals_mutants() -> None:
    base = _base()
    out = StringIO()
    call_command("mutants", "list", "crystal", stdout=out)
    listed = out.getvalue().splitlines()
    mutants = crystal_mutants.list_mutants(stdlib_dir(base.executable))
    assert [line.split()[0] for line in listed] == [m.id for m in mutants]
    assert listed[0].split()[1:3] == [f"{mutants[0].file}:{mutants[0].line}", mutants[0].operator]


DEBIAN_SOURCES = """\
Types: deb
URIs: http://mirror.example/debian
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: https://vendor.example/apt
Suites: nodistro
Components: main
"""


def test_deb_src_lines_are_made_from_this_releases_sources_only() -> None:
    one_line = "deb http://old.example/debian bookworm main\ndeb http://x.example/ stable main\n"
    assert crystal_spec.deb_src_lines(one_line, [DEBIAN_SOURCES], "bookworm") == [
        "deb-src http://old.example/debian bookworm main",
        "deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg]"
        " http://mirror.example/debian bookworm main",
        "deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg]"
        " http://mirror.example/debian bookworm-updates main",
    ]


def test_without_the_spec_runtime_tests_say_why_and_ask_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CHANFUZZ_VAR_DIR", str(tmp_path / "var"))
    asked = []

    def no_source(version: str, root: Path) -> None:
        asked.append(version)
        raise SpecUnavailable("apt-get source crystal: E: 404 Not Found")

    monkeypatch.setattr(crystal_spec, "_fetch", no_source)
    toolchain = Toolchain("crystal", "1.6.0", "crystal-1.6.0-mutant-x", "mutant", tmp_path, Path())
    tree = tmp_path / "var" / "crystal-source" / "1.6.0" / "tree"
    why = (
        "Crystal 1.6.0's spec cannot be had: apt-get source crystal: E: 404 Not Found"
        f" (or unpack Crystal 1.6.0's source tree into {tree})"
    )
    for _ in range(2):
        result = crystal_spec.crystal_runtime_tests(toolchain)
        assert (result.status, result.by) == ("unavailable", why)
    assert asked == ["1.6.0"]  # the failure is remembered: a sweep asks apt once


def test_a_source_tree_put_in_place_is_used_when_it_is_the_version(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CHANFUZZ_VAR_DIR", str(tmp_path / "var"))
    monkeypatch.setattr(crystal_spec, "_fetch", lambda *_: pytest.fail("asked apt"))
    tree = crystal_spec.source_root("1.6.0") / "tree"
    (tree / "spec" / "std").mkdir(parents=True)
    (tree / crystal_spec.SPEC_FILES[0]).write_text("")
    (tree / "src").mkdir()
    (tree / "src" / "VERSION").write_text("1.6.0\n")
    assert crystal_spec.crystal_source("1.6.0") == tree
    (tree / "src" / "VERSION").write_text("1.7.0\n")
    with pytest.raises(SpecUnavailable, match="is Crystal 1.7.0's source, not 1.6.0's"):
        crystal_spec.crystal_source("1.6.0")


@pytest.mark.slow
def test_on_this_machine_the_spec_cannot_be_had_and_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Debian's mirror here serves the .dsc of crystal 1.6.0+dfsg-3 but not its
    # tarballs. When it does, this test fails: then the spec runs for real.
    monkeypatch.setenv("CHANFUZZ_VAR_DIR", str(tmp_path / "var"))
    result = crystal_spec.crystal_runtime_tests(_base())
    assert result.status == "unavailable", result
    assert "apt-get source crystal" in result.by and "404" in result.by


@pytest.fixture
def shared_toolchains() -> Iterator[Path]:
    """A toolchains directory others can read: the sandbox (uid 65534) binds a toolchain's
    home, a mutant's directory, which pytest's private tmp_path would hide from it."""
    with tempfile.TemporaryDirectory(prefix="chanfuzz-crystal-mutants-") as tmp:
        Path(tmp).chmod(0o755)
        yield Path(tmp) / "toolchains"


def _run(toolchain: Toolchain, tmp_path: Path, count: int = 4) -> list[str]:
    # Heuristic F: every program makes fibers wait on each other.
    programs = [generate_program(seed, settings_for("F")).program for seed in range(count)]
    report = execute_batch(
        programs, target_for(toolchain, repetitions=3), workdir=tmp_path / "build",
        sandbox=get_sandbox("local"), limits=Limits(timeout_s=10, quiet_s=2),
    )  # fmt: skip
    return [e.outcome.value for e in report.executions]


@pytest.mark.slow
def test_a_mutant_without_the_receivers_wake_up_hangs_every_program(
    tmp_path: Path, shared_toolchains: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # send() hands the value to a waiting receiver but never enqueues its fiber.
    toolchain = _install("channel-255-drop", shared_toolchains, monkeypatch)
    assert _run(toolchain, tmp_path) == ["timeout"] * 4


@pytest.mark.slow
def test_a_mutant_in_code_no_program_reaches_changes_nothing(
    tmp_path: Path, shared_toolchains: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Channel#inspect prints nothing: no generated program inspects a channel.
    toolchain = _install("channel-376-drop", shared_toolchains, monkeypatch)
    assert _run(toolchain, tmp_path) == ["terminated"] * 4


# A must-go send (generator.defaults): the buffer always has room, so the default never runs.
MUST_GO = "Chan(c, 1) ; Spawn(Get(c)) ; SelPut(c, eps) (+) Default(eps)"
# Closed once: close must answer true (the value oracle checks it).
CLOSED_ONCE = "Chan(c, 1) ; Put(c) ; Close(c) ; Get(c)"


@pytest.mark.slow
def test_a_capacity_one_channel_made_a_rendezvous_hangs_a_must_go_program(
    tmp_path: Path, shared_toolchains: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # `capacity > 0` became `capacity > 1`: Channel.new(1) gets no queue. Buffers added to
    # programs that terminate without them could not tell; a must-go send can.
    assert run_effect(_base(), MUST_GO, tmp_path) == "terminated"
    toolchain = _install("channel-177-off", shared_toolchains, monkeypatch)
    assert run_effect(toolchain, MUST_GO, tmp_path) == "timeout"


@pytest.mark.slow
def test_a_close_that_answers_false_is_a_wrong_value(
    tmp_path: Path, shared_toolchains: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert run_effect(_base(), CLOSED_ONCE, tmp_path, values=True) == "terminated"
    toolchain = _install("channel-205-bool", shared_toolchains, monkeypatch)
    assert run_effect(toolchain, CLOSED_ONCE, tmp_path, values=True) == "wrong_value"
    assert run_effect(toolchain, CLOSED_ONCE, tmp_path) == "terminated"


# A spec of our own in the place of Crystal's: it checks the runner, not the runtime.
OWN_SPEC = """\
require "spec"

describe Channel do
  it "hands a value to a receiver that waits" do
    ch = Channel(Int32).new
    spawn { sleep 0.1; ch.send 42 }
    ch.receive.should eq(42)
  end
end
"""


@pytest.mark.slow
def test_the_spec_runs_on_the_mutants_stdlib(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CHANFUZZ_VAR_DIR", str(tmp_path / "var"))
    tree = crystal_spec.source_root("1.6.0") / "tree"
    (tree / "spec" / "std").mkdir(parents=True)
    (tree / crystal_spec.SPEC_FILES[0]).write_text(OWN_SPEC)
    (tree / "src").mkdir()
    (tree / "src" / "VERSION").write_text("1.6.0\n")  # a tree of another version is refused
    # The binary's run only (its build has its own limit): the spec above takes 0.1 s, and
    # the mutant's hang waits all of it out.
    monkeypatch.setattr(crystal_spec, "SPEC_TIMEOUT_S", 15.0)
    toolchains = tmp_path / "toolchains"
    assert crystal_spec.crystal_runtime_tests(_base()).status == "survived"
    hang = crystal_spec.crystal_runtime_tests(_install("channel-255-drop", toolchains, monkeypatch))
    assert (hang.status, hang.by) == ("killed", "crystal spec (timed out)")
    # Without a received value `receive : Int32` would return nil: no typed channel compiles.
    nil = crystal_spec.crystal_runtime_tests(_install("channel-315-drop", toolchains, monkeypatch))
    assert nil.status == "build failed"
    assert "must return Int32 but it is returning (Int32 | Nil)" in nil.output

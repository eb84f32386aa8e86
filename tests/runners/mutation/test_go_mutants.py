"""Mutants of the Go runtime's channel code: the operators on known lines, stable ids,
and mutant toolchains that build, run and are found by chanfuzz (or are not)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from generator.pipeline import generate_program
from generator.settings import settings_for
from runners.engine.execute import execute_batch
from runners.engine.run_target import target_for
from runners.engine.sandbox import Limits, get_sandbox
from runners.engine.toolchains import find_toolchain, installed_toolchains
from runners.mutation import go_mutants
from runners.mutation.runtime_tests import go_runtime_tests
from runners.targets.go import mutants_dir
from tests.runners.conftest import require_toolchain
from tests.runners.mutation.helpers import run_effect

SNIPPET = """\
func chansend(c *hchan) bool {
	if c.qcount < c.dataqsiz { // room in the buffer
		c.qcount++
		unlock(&c.lock)
		return true
	}
	if b := getg().bubble; b != nil {
		print("bubble")
	}
	goready(gp, skip+1)
	return false
}
"""


def test_each_operator_changes_the_line_it_names() -> None:
    found = {m.id: m for m in go_mutants.mutants_of(SNIPPET, "chan.go")}
    assert found["chan-2-rel"].after.strip() == "if c.qcount <= c.dataqsiz { // room in the buffer"
    assert found["chan-2-not"].after.strip().startswith("if !(c.qcount < c.dataqsiz) {")
    assert found["chan-3-incdec"].after.strip() == "c.qcount--"
    assert "removed unlock(&c.lock)" in found["chan-4-drop"].after
    assert found["chan-5-bool"].after.strip() == "return false"
    # An if with an init statement: only its condition is negated, so it compiles.
    assert found["chan-7-not"].after.strip() == "if b := getg().bubble; !(b != nil) {"
    assert "removed goready(gp, skip+1)" in found["chan-10-drop"].after
    # Lines holding string literals are left alone (print("bubble")).
    assert not any(m.line == 8 for m in found.values())


def test_the_machines_go_has_hundreds_of_uniquely_named_mutants() -> None:
    go = require_toolchain("go")
    mutants = go_mutants.list_mutants(go.home)
    assert len(mutants) >= 60
    assert len({m.id for m in mutants}) == len(mutants)
    assert {m.file for m in mutants} == {"chan.go", "select.go"}
    assert {m.operator for m in mutants} == set(go_mutants.OPERATORS)
    assert go_mutants.list_mutants(go.home) == mutants  # the same every time


def _install(mutant_id: str, toolchains: Path, monkeypatch: pytest.MonkeyPatch):  # noqa: ANN202
    monkeypatch.setenv("CHANFUZZ_TOOLCHAINS_DIR", str(toolchains))
    go = require_toolchain("go", "1")
    base = next(t for t in installed_toolchains("go") if t.origin != "mutant")
    mutant = go_mutants.find_mutant(base.home, mutant_id)
    go_mutants.install(mutant, goroot=base.home, base_id=base.id, base_version=base.version,
                       root=mutants_dir())  # fmt: skip
    assert go.origin != "mutant"
    return find_toolchain("go", f"go-{base.version}-mutant-{mutant_id}")


def _run(toolchain, tmp_path: Path, count: int = 4) -> list[str]:  # noqa: ANN001
    programs = [generate_program(seed, settings_for("A")).program for seed in range(count)]
    report = execute_batch(
        programs, target_for(toolchain, repetitions=3), workdir=tmp_path / "build",
        sandbox=get_sandbox("local"), limits=Limits(timeout_s=10, quiet_s=2),
    )  # fmt: skip
    return [e.outcome.value for e in report.executions]


@pytest.mark.slow
def test_a_mutant_without_the_wake_up_deadlocks_every_program(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # send() on an unbuffered channel hands the value over but never wakes the receiver.
    toolchain = _install("chan-350-drop", tmp_path / "toolchains", monkeypatch)
    assert toolchain.origin == "mutant" and toolchain.compiler_args[0] == "-overlay"
    assert toolchain.component("mutant") == "chan.go:350 drop"
    assert set(_run(toolchain, tmp_path)) == {"crash"}  # all goroutines are asleep
    # The default Go is still the release, never a mutant.
    assert find_toolchain("go").origin != "mutant"


@pytest.mark.slow
def test_a_mutant_in_code_no_program_reaches_changes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # msanwrite is a no-op unless built with -msan: an equivalent mutant.
    base = require_toolchain("go")
    equivalent = next(
        m.id for m in go_mutants.list_mutants(base.home)
        if m.operator == "drop" and m.before.strip().startswith("msanwrite(")
    )  # fmt: skip
    toolchain = _install(equivalent, tmp_path / "toolchains", monkeypatch)
    assert set(_run(toolchain, tmp_path)) == {"terminated"}


# p1 sends on c only after main's send on d, which main makes in the default of its try.
NEEDS_THE_DEFAULT = "Spawn(Get(d) ; Put(c)) ; SelGet(c, Put(d)) (+) Default(Put(d) ; Get(c))"
# A dead case first: a select with one receive case on a channel nobody sends on (nil in
# Go) and a default.
DEAD_CASE = "Spawn(Put(c)) ; SelGet(z, eps) (+) Default(Get(c))"


@pytest.mark.slow
@pytest.mark.parametrize(
    ("mutant", "effect"),
    [
        # selectnbrecv (one receive case and a default) blocks instead of taking the
        # default: only a work-first default (generator.defaults) needs it taken.
        ("chan-805-bool", NEEDS_THE_DEFAULT),
        # chanrecv's nil branch with `if !block` negated parks a select's poll of nil.
        ("chan-533-not", DEAD_CASE),
    ],
)
def test_a_select_with_a_default_the_mutant_blocks_deadlocks(
    mutant: str, effect: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert run_effect(require_toolchain("go"), effect, tmp_path) == "terminated"
    toolchain = _install(mutant, tmp_path / "toolchains", monkeypatch)
    assert run_effect(toolchain, effect, tmp_path) == "crash"  # goroutines asleep


# The quiet check (generator.render._go_quiet) of these programs, rendered with seed 0 as
# run_effect renders them, parks a plain send on c3 and closes c3 under it (the first), and
# parks a receive on c1 and closes c1 under it (the second).
PARKED_SEND_CLOSED = (
    "Chan(c4, 2) ; Chan(c5, 3) ; Chan(c6, 2) ; Spawn(Put(c1) ; Put(c4) ; Put(c5)) ; "
    "Get(c1) ; Get(c4) ; Get(c5) ; Spawn(Put(c2) ; Put(c6)) ; Get(c2) ; Get(c6) ; "
    "Spawn(Put(c3)) ; Get(c3)"
)
PARKED_RECEIVE_CLOSED = (
    "Chan(c4, 2) ; Spawn(Put(c1) ; Put(c4)) ; Get(c1) ; Get(c4) ; Spawn(Put(c2)) ; Get(c2) ; "
    "Spawn(Put(c3)) ; Get(c3)"
)

# Mutants that neither Go's own tests nor generated programs killed before the quiet check.
QUIET_KILLS = {
    # chansend woken by a close: `if c.closed == 0` negated throws "spurious wakeup" where
    # the send should panic.
    "close-under-a-parked-send": ("chan-304-not", PARKED_SEND_CLOSED, "crash"),
    # closechan leaves a profiled receiver's releasetime at -1: the block profile loses
    # its wait.
    "block-profile-of-a-receive-closed": ("chan-448-not", PARKED_RECEIVE_CLOSED, "wrong_value"),
    # reflect.Select of a default alone says it received something.
    "reflect-select-of-a-default": ("select-597-bool", PARKED_RECEIVE_CLOSED, "wrong_value"),
}


@pytest.mark.slow
@pytest.mark.parametrize("case", QUIET_KILLS.values(), ids=list(QUIET_KILLS))
def test_the_quiet_check_kills_what_go_and_its_programs_missed(
    case: tuple[str, str, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    mutant, effect, verdict = case
    assert run_effect(require_toolchain("go"), effect, tmp_path / "base") == "terminated"
    toolchain = _install(mutant, tmp_path / "toolchains", monkeypatch)
    assert run_effect(toolchain, effect, tmp_path / "mutant") == verdict


@pytest.mark.slow
def test_gos_own_channel_tests_kill_the_lost_wake_up(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    toolchain = _install("chan-350-drop", tmp_path / "toolchains", monkeypatch)
    result = go_runtime_tests(toolchain)
    # Killed by a failing test of the runtime, not by a go command that could not start.
    assert (result.status, result.by) == ("killed", "go test runtime"), result.output
    assert "FAIL" in result.output and "cannot find main module" not in result.output


def test_a_mutant_toolchain_is_read_again_only_when_its_file_changes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Go lookups list every installed mutant: each one's mutant.json is read once, and
    again when it is rewritten (a new mtime), not on every lookup."""
    from runners.targets import go as go_target

    monkeypatch.setenv("CHANFUZZ_TOOLCHAINS_DIR", str(tmp_path))
    goroot = tmp_path / "goroot"
    (goroot / "bin").mkdir(parents=True)
    (goroot / "bin" / "go").write_text("#!/bin/sh\n")
    meta = mutants_dir() / "x" / "chan-1-not" / "mutant.json"
    meta.parent.mkdir(parents=True)
    fields = {"goroot": str(goroot), "version": "1.99.0", "id": "chan-1-not",
              "file": "chan.go", "line": 1, "operator": "not"}  # fmt: skip
    meta.write_text(json.dumps(fields))
    reads = []
    real = go_target._read_mutant_toolchain
    monkeypatch.setattr(go_target, "_read_mutant_toolchain", lambda p: reads.append(p) or real(p))
    first = go_target._mutant_toolchain(meta)
    assert go_target._mutant_toolchain(meta) is first and reads == [meta]
    assert first.id == "go-1.99.0-mutant-chan-1-not"
    fields["line"] = 7
    meta.write_text(json.dumps(fields))
    os.utime(meta, ns=(1, meta.stat().st_mtime_ns + 10**9))
    again = go_target._mutant_toolchain(meta)
    assert reads == [meta, meta] and dict(again.components)["mutant"] == "chan.go:7 not"
    # Its base Go gone: no longer a toolchain, whatever was read before.
    (goroot / "bin" / "go").unlink()
    with pytest.raises(go_target.ToolchainUnavailable, match="base Go of mutant chan-1-not"):
        go_target._mutant_toolchain(meta)

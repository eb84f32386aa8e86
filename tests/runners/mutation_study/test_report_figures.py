"""The mutation report's figures and Markdown, from a study's JSON document."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.template.loader import render_to_string

from runners.mutation.base import MutantKind
from runners.mutation_study import report
from runners.mutation_study.report import kind_figures, markdown_context
from runners.targets.base import Toolchain


def _heuristic(killed: bool, programs: int, seconds: float, outcome: str = "") -> dict:
    return {
        "campaign": 1, "killed": killed, "outcome": outcome, "signature": "",
        "programs": programs, "seconds": seconds, "compile_errors": 0,
    }  # fmt: skip


def _mutant(mid: str, status: str, heuristics: dict, tests: str | None) -> dict:
    return {
        "kind": "go", "id": mid, "file": "chan.go", "line": 1, "operator": "drop",
        "change": "a || b  →  (removed)", "toolchain": f"go-1-mutant-{mid}", "status": status,
        "heuristics": heuristics,
        "runtime_tests": {"status": tests, "by": "go test runtime"} if tests else {},
    }  # fmt: skip


def _data(kinds: list[dict], heuristics: str, *, mutants: int) -> dict:
    """A report's JSON document around `kinds`."""
    plan = {"heuristics": heuristics, "mutants": mutants, "seed": 1, "programs": 30,
            "repetitions": 3, "timeout_s": 10.0, "hang_quiet_s": 2.0, "values": True,
            "budget_s": 240.0}  # fmt: skip
    return {"plan": plan, "started_at": "s", "finished_at": "f", "generated_at": "g",
            "kinds": kinds}  # fmt: skip


KIND = {
    "kind": "go",
    "source": "chan.go",
    "runtime_tests": "go test",
    "base": "go-1",
    "mutants_total": 500,
    "control_signatures": [],
    "mutants": [
        # killed by both; A kills after 3 programs in 4 s, F later
        _mutant(
            "m1",
            "killed",
            {"A": _heuristic(True, 3, 4.0, "timeout"), "F": _heuristic(True, 9, 20.0, "crash")},
            "killed",
        ),  # fmt: skip
        # killed by chanfuzz only, with a wrong value
        _mutant(
            "m2",
            "killed",
            {"A": _heuristic(False, 30, 50.0), "F": _heuristic(True, 1, 2.0, "wrong_value")},
            "survived",
        ),  # fmt: skip
        # killed by the tests only
        _mutant(
            "m3",
            "survived",
            {"A": _heuristic(False, 30, 50.0), "F": _heuristic(False, 30, 50.0)},
            "killed",
        ),  # fmt: skip
        # neither: an equivalence candidate
        _mutant(
            "m4",
            "survived",
            {"A": _heuristic(False, 30, 50.0), "F": _heuristic(False, 30, 50.0)},
            "survived",
        ),  # fmt: skip
        # does not build: in no score
        _mutant("m5", "build failed", {}, "build failed"),
        # killed by chanfuzz, tests not run: counts for chanfuzz, not in the comparison
        _mutant("m6", "killed", {"A": _heuristic(True, 5, 8.0, "timeout")}, None),
    ],
}


def test_scores_compare_only_mutants_that_built_and_were_tested() -> None:
    f = kind_figures(KIND, "AF")
    assert (f["sampled"], f["build_failed"], f["built"]) == (6, 1, 5)
    assert (f["chanfuzz"], f["tested"], f["tests"], f["both"]) == (3, 4, 2, 1)
    assert f["per_heuristic"] == {"A": 2, "F": 2}
    assert (f["only_chanfuzz"], f["only_tests"], f["neither"]) == (["m2"], ["m3"], ["m4"])
    # Each kill at its quickest heuristic: m1 by A (4 s, 3), m2 by F (2 s, 1), m6 by A (8 s, 5).
    assert (f["median_seconds"], f["median_programs"]) == (4.0, 3)
    assert f["verdicts"] == {"timeout": 2, "wrong_value": 1}


def test_the_markdown_shows_scores_rows_and_the_equivalence_reasoning() -> None:
    data = _data([KIND], "AF", mutants=6)
    text = render_to_string(
        "reports/mutation.md", markdown_context(data, {"go:m4": "only runs under -msan"})
    )
    assert (
        "| go | chan.go | `go-1` | 500 (6) | 1 | **60 % (3/5)** | 50 % (2/4) | 50 % (1/2) |" in text
    )
    # m4's reasoning does not conclude "Equivalent": it stays among the tests' misses.
    assert "| 0 | 50 % (1/2) | 4.0 s / 3 | timeout 2, wrong_value 1 |" in text
    assert (
        "| `m2` | chan.go:1 | drop | `a \\|\\| b  →  (removed)` | – (30) | wrong value @1 |" in text
    )
    assert "| `m4` | `a \\|\\| b  →  (removed)` | only runs under -msan |" in text
    assert "Killed by chanfuzz only: `m2`." in text
    tests_only = (
        "| `m3` | `a \\|\\| b  →  (removed)` | killed (go test runtime) | not inspected yet |"
    )
    assert tests_only in text


def test_a_mutant_recorded_equivalent_leaves_the_tests_misses() -> None:
    data = _data([KIND], "AF", mutants=6)
    reasoning = {"go:m4": "Inside `if raceenabled`: dead code without -race. Equivalent."}
    text = render_to_string("reports/mutation.md", markdown_context(data, reasoning))
    # m2 is chanfuzz's only kill among the tests' misses m2 and m4; m4 is equivalent.
    assert "| 50 % (1/2) | 1 | 100 % (1/1) | 4.0 s / 3 |" in text


@pytest.mark.parametrize(
    ("reasoning", "equivalent"),
    [
        ("Go 1.26.8. Dead code without -race. Equivalent.", True),
        ("Bookkeeping without effect: equivalent (and unreachable without reflect).", True),
        ("Equivalent (for programs without testing/synctest).", True),
        ("Needs close: unreachable for now, not equivalent.", False),
        ("Unreachable here (needs Select::ready).", False),
        ("", False),
    ],
)
def test_recorded_equivalent_reads_the_reasonings_conclusion(
    reasoning: str, equivalent: bool
) -> None:
    assert report.recorded_equivalent(reasoning) is equivalent


def test_a_kind_on_several_targets_says_which_target_killed() -> None:
    async_kill = {**_heuristic(True, 2, 3.0, "timeout"), "target": "rust-flume-async"}
    kind = {
        **KIND,
        "kind": "flume",
        "base": "rust-flume-0.12.0",
        "targets": ["rust-flume-0.12.0", "rust-flume-async-0.12.0"],
        "mutants": [_mutant("a1", "killed", {"A": async_kill, "F": _heuristic(False, 30, 9.0)},
                            "killed")],
    }  # fmt: skip
    data = _data([kind], "AF", mutants=1)
    text = render_to_string("reports/mutation.md", markdown_context(data, {}))
    assert "each mutant runs on `rust-flume-0.12.0` and `rust-flume-async-0.12.0`" in text
    assert "| timeout @2 on rust-flume-async | – (30) |" in text
    # flume's programs end with the Rust quiet-channel check, Go's (KIND) with Go's; Crystal's
    # with none.
    assert "On flume, each run ends with the quiet-channel check" in text
    go_data = _data([KIND], "AF", mutants=6)
    go = render_to_string("reports/mutation.md", markdown_context(go_data, {}))
    assert f"On {KIND['kind']}, each run ends with the quiet-channel check" in go
    crystal_data = _data([{**KIND, "kind": "crystal"}], "AF", mutants=6)
    crystal = render_to_string("reports/mutation.md", markdown_context(crystal_data, {}))
    assert "quiet-channel check" not in crystal
    assert "other settings" not in text
    # A kind run apart with another budget and sample says which setting differs.
    kind["plan"] = {**data["plan"], "mutants": 12, "budget_s": 90.0}
    text = render_to_string("reports/mutation.md", markdown_context(data, {}))
    assert "This kind ran with other settings: budget_s 90.0." in text
    # A kind on one target names none: the Go rows stay as they were.
    go = render_to_string("reports/mutation.md", markdown_context({**data, "kinds": [KIND]}, {}))
    assert "timeout @3 |" in go and " on go" not in go


def test_a_kinds_mutants_run_on_each_target_that_has_the_bases_release(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def toolchain(language: str, version: str, origin: str = "crates.io") -> Toolchain:
        return Toolchain(language, version, f"{language}-{version}", origin, Path(), Path())

    installed = {
        "rust-flume": [toolchain("rust-flume", "0.11.1"), toolchain("rust-flume", "0.12.0")],
        "rust-flume-async": [toolchain("rust-flume-async", "0.12.0"),
                             toolchain("rust-flume-async", "0.12.0", "mutant")],
        "rust-other": [toolchain("rust-other", "0.11.1")],
    }  # fmt: skip
    monkeypatch.setattr(report, "installed_toolchains", lambda target: installed[target])
    kind = MutantKind("flume", ("rust-flume", "rust-flume-async", "rust-other"), "",
                      list, lambda *_: Path(), lambda _: None, "")  # fmt: skip
    said: list[str] = []
    bases = report.kind_bases(kind, said.append)
    assert [b.id for b in bases] == ["rust-flume-0.12.0", "rust-flume-async-0.12.0"]
    assert said == [
        "flume: rust-other 0.12.0 is not installed: its mutants run on rust-flume-0.12.0 only "
        "(manage.py toolchains install rust-other 0.12.0)"
    ]


def test_runtime_tests_not_finished_are_shown_so_and_left_out_of_the_comparison() -> None:
    pending = _mutant("p1", "killed", {"A": _heuristic(True, 1, 1.0, "crash")}, None)
    pending["runtime_tests"] = {"status": "running", "by": "", "seconds": 0.0}
    kind = {**KIND, "mutants": [pending]}
    assert kind_figures(kind, "A")["tested"] == 0
    data = _data([kind], "A", mutants=1)
    text = render_to_string("reports/mutation.md", markdown_context(data, {}))
    assert "| crash @1 | **killed** | not finished (running) |" in text


def test_a_negative_wait_for_the_runtime_tests_is_refused() -> None:
    with pytest.raises(CommandError, match="--tests-wait must be ≥ 0"):
        call_command("mutation_report", "--tests-wait", "-1", "--workers", "0")


@pytest.mark.django_db
def test_a_report_elsewhere_shows_the_reasoning_recorded_in_docs(tmp_path: Path) -> None:
    # docs/mutation-equivalence.json holds go:chan-474-drop (dead code without -race).
    survived = _heuristic(False, 30, 9.0)
    kind = {**KIND, "mutants": [_mutant("chan-474-drop", "survived", {"A": survived}, "survived")]}
    (tmp_path / "mutation-report.json").write_text(json.dumps(_data([kind], "A", mutants=1)))
    call_command("mutation_report", "--steps", "none", "--output", str(tmp_path))
    text = (tmp_path / "mutation-report.md").read_text()
    assert "compiler removes the call either way. Equivalent. |" in text
    assert "| 0 % (0/1) | – | 1 | – |" in text  # recorded equivalent: no miss is left


def test_only_the_targets_with_a_quiet_check_are_named_so() -> None:
    assert report.quiet_checked(["rust-crossbeam"]) and report.quiet_checked(["go"])
    assert report.quiet_checked(["crystal", "rust-flume"])
    assert not report.quiet_checked(["crystal", "kotlin", "rust-chan", "rust-std"])
    # One version per check's code: Go's, crossbeam's and flume's (both of flume's targets
    # write the same) are three.
    assert len(report.quiet_checks(["go", "rust-crossbeam", "rust-flume"])) == 3
    assert len(report.quiet_checks(["rust-flume", "rust-flume-async"])) == 1

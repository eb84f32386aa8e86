"""Runs of a program (runners.engine.run_alone.Triage.runs): a program that ends clean runs
again, a process each time, up to its runs; its first other verdict, or its last clean
one, is recorded once, with the runs it took."""

from __future__ import annotations

import tempfile
from collections import Counter
from pathlib import Path
from types import SimpleNamespace

import pytest

from generator import lambda_chan as lc
from generator.pipeline import generate_program
from generator.settings import PRESETS
from runners.engine import execute
from runners.engine.execute import execute_batch
from runners.engine.run_alone import Triage
from runners.engine.run_records import ProgramRun, Stages
from runners.engine.run_target import make_target
from runners.engine.sandbox import Limits, get_sandbox
from runners.engine.shared_runs import GroupRun
from runners.engine.verdicts import Classification, Outcome
from runners.targets.base import SHARED_QUIET_S
from tests.runners.conftest import require_toolchain

CLEAN = Classification(Outcome.TERMINATED, "exit 0", "")
CRASH = Classification(Outcome.CRASH, "exit 2", "x | crash")
ONE = lc.Program(("c1",), lc.Then(lc.SpawnE(lc.Send("c1")), lc.Recv("c1")))


def _target() -> SimpleNamespace:
    """A target as far as _run_built asks of it with its runs replaced."""
    return SimpleNamespace(
        spec=SimpleNamespace(hangs_aside=2, shared_runs_at_once=1, shared_quiet_s=SHARED_QUIET_S)
    )


Recorded = list[tuple[int, Outcome, int]]


def _run_built(
    monkeypatch: pytest.MonkeyPatch, *, n: int, runs: int, shares: bool, fails: dict[int, int]
) -> tuple[Recorded, Counter[int]]:
    """Run `n` programs, program p failing on its run `fails[p]` (counted from 1) and
    clean otherwise; what was recorded (position, outcome, runs) and each one's runs."""
    monkeypatch.setattr(execute, "shares_runs", lambda _target, _size: shares)
    ran: Counter[int] = Counter()

    def verdict(position: int) -> ProgramRun:
        ran[position] += 1
        failed = fails.get(position) == ran[position]
        return ProgramRun(position, CRASH if failed else CLEAN)

    def run_group(_target, _artifact, positions, **_kwargs):  # noqa: ANN001, ANN202
        return GroupRun({p: verdict(p) for p in positions})

    def run_one(_target, _artifact, position, **_kwargs):  # noqa: ANN001, ANN202
        return verdict(position)

    monkeypatch.setattr(execute, "run_group", run_group)
    monkeypatch.setattr(execute, "run_one", run_one)
    recorded: Recorded = []
    execute._run_built(
        _target(), None, [ONE] * n, sandbox=None, limits=Limits(timeout_s=5),
        triage=Triage(retries=0, runs=runs), stages=Stages(),
        record=lambda position, run: recorded.append((position, run.outcome, run.runs)),
    )  # fmt: skip
    return recorded, ran


@pytest.mark.parametrize("shares", [False, True], ids=["alone", "shared"])
def test_a_clean_program_runs_its_runs_and_a_failing_one_stops_at_its_failure(
    monkeypatch: pytest.MonkeyPatch, shares: bool
) -> None:
    recorded, ran = _run_built(monkeypatch, n=4, runs=3, shares=shares, fails={1: 2, 3: 1})
    # Each once; in shared runs a program that failed comes before those run again.
    assert sorted(recorded) == [
        (0, Outcome.TERMINATED, 3),
        (1, Outcome.CRASH, 2),
        (2, Outcome.TERMINATED, 3),
        (3, Outcome.CRASH, 1),
    ]
    assert ran == {0: 3, 1: 2, 2: 3, 3: 1}


def test_one_run_records_each_verdict_as_it_comes(monkeypatch: pytest.MonkeyPatch) -> None:
    recorded, ran = _run_built(monkeypatch, n=3, runs=1, shares=False, fails={})
    assert recorded == [(p, Outcome.TERMINATED, 1) for p in range(3)]
    assert ran == {0: 1, 1: 1, 2: 1}


def test_a_program_set_aside_by_its_shared_run_is_recorded_after_its_run_alone(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A shared run blocked in it and it ran alone after that: two runs, whatever its
    runs, and its verdict is the run alone's."""
    monkeypatch.setattr(execute, "shares_runs", lambda _target, _size: True)
    alone: list[int] = []

    def run_group(_target, _artifact, positions, **_kwargs):  # noqa: ANN001, ANN202
        stop = 1 if 1 in positions else None
        ran = [p for p in positions if p < 1] if stop is not None else positions
        return GroupRun(
            {p: ProgramRun(p, CLEAN) for p in ran}, alone=stop, hung=stop is not None,
            quiet=stop is not None,
        )  # fmt: skip

    def run_one(_target, _artifact, position, **_kwargs):  # noqa: ANN001, ANN202
        alone.append(position)
        return ProgramRun(position, CLEAN)

    monkeypatch.setattr(execute, "run_group", run_group)
    monkeypatch.setattr(execute, "run_one", run_one)
    recorded: list[tuple[int, int]] = []
    execute._run_built(
        _target(), None, [ONE] * 3, sandbox=None,
        limits=Limits(timeout_s=5, quiet_s=0.2), triage=Triage(retries=0, runs=2),
        stages=Stages(), record=lambda position, run: recorded.append((position, run.runs)),
    )  # fmt: skip
    assert sorted(recorded) == [(0, 2), (1, 1), (2, 2)]
    assert alone.count(1) == 1


@pytest.mark.slow
@pytest.mark.parametrize(
    ("language", "processes"),
    # Go's four programs share a run, three times; Kotlin's run a JVM each, three times.
    [("go", 3), ("kotlin", 12)],
)
def test_each_program_runs_again_in_a_process_of_its_own(language: str, processes: int) -> None:
    require_toolchain(language)
    target = make_target(language, repetitions=2)
    programs = [generate_program(s, PRESETS["A"]).program for s in range(4)]
    # A workdir the sandbox's user can reach (pytest's tmp_path is under a private one).
    with tempfile.TemporaryDirectory(prefix="chanfuzz-test-") as workdir:
        report = execute_batch(
            programs, target, workdir=Path(workdir), sandbox=get_sandbox("local"),
            limits=Limits(timeout_s=20), triage=Triage(runs=3), use_cache=False,
        )  # fmt: skip
    assert [(e.index, e.outcome, e.runs) for e in report.executions] == [
        (i, Outcome.TERMINATED, 3) for i in range(4)
    ]
    assert report.stages.runs == processes

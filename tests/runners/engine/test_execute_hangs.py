"""How hangs are waited for (runners.engine.execute, runners.engine.fuzz): a shared run is
cut after a short quiet period, the program it stopped in is judged beside its batch with
its re-runs at once, and the next batch starts while a batch only waits for such programs.
These drive the scheduling with a sandbox that runs nothing (the real sandbox's quiet
watch has tests of its own: sandbox/test_quiet.py), so they can tell runs that overlap
from runs one after another without timing them."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from pathlib import Path

import pytest

from generator.settings import settings_for
from runners.engine import fuzz as fuzz_module
from runners.engine.build import Artifact
from runners.engine.execute import BatchReport
from runners.engine.fuzz import fuzz
from runners.engine.run_alone import Triage, run_one
from runners.engine.run_records import ProgramRun, Stages
from runners.engine.run_target import target_for
from runners.engine.sandbox import Limits, SandboxError, SandboxResult
from runners.engine.verdicts import Classification, Outcome
from tests.runners.conftest import require_toolchain

CLEAN = Classification(Outcome.TERMINATED, "exit 0", "")


class _HungSandbox:
    """Reports every run hung by its quiet period, and runs nothing. Run number n (from 0)
    first waits at `barriers[n]` when there is one: a barrier shared by runs that must be
    under way at once, which breaks (and makes that run an infra error) when they are not.
    `under_way` holds how many runs were under way as each began, itself included. A
    `spinning` one reports every run cut by its time limit instead, having used a core
    all along (a livelock), after the whole limit."""

    name = "hung"
    safe = True

    def __init__(
        self, barriers: dict[int, threading.Barrier] | None = None, *, spinning: bool = False
    ) -> None:
        self.barriers = barriers or {}
        self.spinning = spinning
        self.under_way: list[int] = []
        self._active = 0
        self._lock = threading.Lock()

    def run(self, argv: Sequence[str], *, limits: Limits | None = None, **_: object):  # noqa: ANN201
        with self._lock:
            number = len(self.under_way)
            self._active += 1
            self.under_way.append(self._active)
        try:
            if number in self.barriers:
                try:
                    self.barriers[number].wait()
                except threading.BrokenBarrierError as exc:
                    raise SandboxError(f"run {number} was not under way with its fellows") from exc
        finally:
            with self._lock:
                self._active -= 1
        assert limits is not None
        took = limits.timeout_s if self.spinning else limits.quiet_s or 0.0
        return SandboxResult(
            exit_code=None, signal=None, timed_out=True, duration_s=took,
            stdout="", stderr="", stdout_truncated=False, stderr_truncated=False,
            dump="", backend=self.name, quiet=not self.spinning,
            cpu_s=took if self.spinning else 0.0,
        )  # fmt: skip


def _artifact(tmp_path: Path) -> Artifact:
    return Artifact("go-test", "go", "key", tmp_path, ("/prog",), False, 0.0)


def _hang(
    tmp_path: Path,
    sandbox: _HungSandbox,
    *,
    suspected: bool,
    stages: Stages | None = None,
    retries: int = 2,
) -> ProgramRun:
    return run_one(
        target_for(require_toolchain("go"), repetitions=1), _artifact(tmp_path), 0,
        sandbox=sandbox,  # type: ignore[arg-type]
        limits=Limits(timeout_s=5, quiet_s=0.5), triage=Triage(retries=retries),
        suspected=suspected, stages=stages,
    )  # fmt: skip


def test_a_hang_not_re_run_is_neither_confirmed_nor_unconfirmed(tmp_path: Path) -> None:
    # `fuzz --retries 0` once said "hang confirmed in 1" of a hang nothing re-ran.
    run = _hang(tmp_path, _HungSandbox(), suspected=False, retries=0)
    assert run.outcome is Outcome.TIMEOUT
    assert run.hang_confirmed is None
    assert run.classification.reason.endswith("(not re-run)")
    assert len(run.attempts) == 1


def test_a_suspected_programs_re_runs_go_with_its_first_run(tmp_path: Path) -> None:
    together = threading.Barrier(3, timeout=10)  # the first run and its two re-runs
    run = _hang(tmp_path, _HungSandbox(dict.fromkeys(range(3), together)), suspected=True)
    assert run.outcome is Outcome.TIMEOUT, run.classification.reason
    assert run.hang_confirmed is True
    assert [a.timeout_s for a in run.attempts] == [5, 15, 15]


def test_a_programs_re_runs_go_together_once_its_first_run_hung(tmp_path: Path) -> None:
    together = threading.Barrier(2, timeout=10)  # the two re-runs
    sandbox = _HungSandbox({1: together, 2: together})
    run = _hang(tmp_path, sandbox, suspected=False)
    assert run.outcome is Outcome.TIMEOUT, run.classification.reason
    assert run.hang_confirmed is True
    # The first ran alone and had ended when the first re-run began.
    assert sandbox.under_way[:2] == [1, 1]


@pytest.mark.parametrize(
    ("spinning", "suspected", "out_of_time_s"),
    [(False, False, 0.0), (True, False, 5 + 15), (True, True, 15)],
)
def test_a_program_that_ran_out_of_its_limit_counts_its_run_and_longest_re_run_apart(
    tmp_path: Path, spinning: bool, suspected: bool, out_of_time_s: float
) -> None:
    """A spin's time is the limit's and its re-runs' (SPEC §9), which no batching
    shortens: the bench shows it apart (Stages.out_of_time_s). The re-runs go at once, so
    the longest counts, after the first run (5 s, re-runs 15 s) or beside it for a
    suspected program; a hang its quiet period cut counts none of it."""
    stages = Stages()
    run = _hang(tmp_path, _HungSandbox(spinning=spinning), suspected=suspected, stages=stages)
    assert run.outcome is Outcome.TIMEOUT and run.hang_confirmed is True
    assert ("never blocked" in run.classification.reason) is spinning
    assert stages.out_of_time_s == out_of_time_s
    assert stages.runs == 3


def test_the_next_batch_starts_while_a_batch_only_waits_for_hung_programs(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    target = target_for(require_toolchain("go"), repetitions=1)
    second_started = threading.Event()
    overlapped: list[bool] = []
    calls: list[int] = []

    def execute_batch(programs, *, on_result, on_waiting, **_kwargs):  # noqa: ANN001, ANN202
        calls.append(len(calls))
        first = calls[-1] == 0
        if not first:
            second_started.set()
        executions = [ProgramRun(i, CLEAN) for i in range(len(programs))]
        for execution in executions[:-1]:
            on_result(execution)
        if first:
            assert on_waiting()  # its last program waits aside: the next batch may start
            overlapped.append(second_started.wait(10))
        on_result(executions[-1])
        return BatchReport(executions=executions)

    monkeypatch.setattr(fuzz_module, "execute_batch", execute_batch)
    summary = fuzz(
        target=target, settings=settings_for("A"), count=6, seed=0,
        sandbox=_HungSandbox(), limits=Limits(timeout_s=5, quiet_s=1.0),  # type: ignore[arg-type]
        batch_size=3, jobs=1,
    )  # fmt: skip
    assert overlapped == [True]
    assert summary.count == 6


def test_fuzz_sums_its_batches_runs_out_of_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """A spin's triage can be most of a run's time: the summary says how much it was."""
    target = target_for(require_toolchain("go"), repetitions=1)

    def execute_batch(programs, *, on_result, **_kwargs):  # noqa: ANN001, ANN202
        executions = [ProgramRun(i, CLEAN) for i in range(len(programs))]
        for execution in executions:
            on_result(execution)
        return BatchReport(executions=executions, stages=Stages(run_s=3.0, out_of_time_s=2.5))

    monkeypatch.setattr(fuzz_module, "execute_batch", execute_batch)
    summary = fuzz(
        target=target, settings=settings_for("A"), count=6, seed=0,
        sandbox=_HungSandbox(), limits=Limits(timeout_s=5),  # type: ignore[arg-type]
        batch_size=3, jobs=1,
    )  # fmt: skip
    assert summary.count == 6
    assert summary.out_of_time_s == 5.0

"""The reducer on real toolchains: a real hang is reduced and its rate kept; a true
deadlock is never "reduced" into a terminating program; a stopped reduction resumes."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from generator.effects import parse, size
from runners.campaigns.programs import build_from_effect
from runners.engine.execute import execute_batch
from runners.engine.reduce import Budget, Reducer, ReductionError, ReductionState
from runners.engine.run_target import target_for
from runners.engine.sandbox import Limits, get_sandbox
from tests.runners.conftest import require_toolchain

# chan 0.1.23 hangs on every run of this (the Rust study's finding rust-chan-24).
CHAN_HANG = "Spawn(SelGet(c1, eps) (+) SelGet(c1, eps)) ; SelPut(c1, eps)"
# Where both threads wait, innermost library frame first: since Rust batches build with
# panic = "abort", maybe_try_select is no longer inlined into select (it was before).
CHAN_SIGNATURE = "rust-chan | hang | chan::select::Select::maybe_try_select×2"
STUCK = "Spawn(Get(c2)) ; Get(c1) ; Put(c2)"  # deadlocks on every runtime


def _chan_reducer(**kwargs: object) -> Reducer:
    toolchain = require_toolchain("rust-chan", "0.1.23")
    return Reducer(
        target=target_for(toolchain, repetitions=2),
        sandbox=get_sandbox("local"),
        signature=CHAN_SIGNATURE,
        seed=0,
        timeout_s=1.0,
        baseline_runs=4,
        **kwargs,
    )


@pytest.mark.slow
def test_a_real_hang_is_reduced_and_still_fails_as_often() -> None:
    # Channel c7: the last step names it c1, and that too must keep the hang.
    program = build_from_effect(CHAN_HANG.replace("c1", "c7"), 0).program
    states: list[ReductionState] = []
    state = _chan_reducer(on_state=states.append, budget=Budget(max_candidates=8)).run(program)
    assert state.done and state.baseline_failures == state.baseline_runs == 4
    assert state.stop_reason == "no single edit keeps the failure"
    assert state.current_size < state.original_size
    assert state.current_text == "Spawn(SelGet(c1, eps)) ; SelPut(c1, eps)"
    kept = state.accepted[0]
    assert kept.decision == "keeps" and kept.failures == kept.runs == 8
    assert state.accepted[-1].description.startswith("name the channels c1, c2")
    # Measured again like the original: it hangs every time.
    assert state.final_failures == state.final_runs == 4
    assert states[-1] == state and len(states) >= 2


@pytest.mark.slow
def test_a_stopped_reduction_resumes_from_its_state() -> None:
    program = build_from_effect(CHAN_HANG, 0).program
    states: list[ReductionState] = []
    stopper = _chan_reducer(on_state=states.append, should_stop=lambda: len(states) >= 2)
    stopped = stopper.run(program)
    assert stopped.stop_reason == "stopped" and not stopped.done
    assert len(stopped.tried) == 1
    resumed = _chan_reducer(budget=Budget(max_candidates=2)).run(program, stopped)
    # The baseline is not measured again, and the candidate tried is not tried again.
    assert (resumed.baseline_runs, resumed.baseline_failures) == (4, 4)
    assert resumed.tried[0] == stopped.tried[0] and len(resumed.tried) == 2
    assert size(parse(resumed.current_text)) < resumed.original_size


@pytest.mark.slow
def test_a_true_deadlock_is_never_traded_for_a_terminating_candidate(tmp_path: Path) -> None:
    toolchain = require_toolchain("go")
    target = target_for(toolchain, repetitions=1)
    program = build_from_effect(STUCK, 0).program
    sandbox = get_sandbox("local")
    first = execute_batch(
        [program], target, workdir=tmp_path, sandbox=sandbox, limits=Limits(timeout_s=10)
    ).executions[0]
    assert first.classification.is_finding  # Go reports every goroutine asleep
    reducer = Reducer(target=target, sandbox=sandbox, signature=first.classification.signature,
                      seed=0, timeout_s=10, baseline_runs=4)  # fmt: skip
    state = reducer.run(program)
    assert state.done and state.stop_reason == "no single edit keeps the failure"
    assert state.current_text == state.original_text and state.tried
    assert {s.decision for s in state.tried} <= {"loses", "unsure", "unsupported"}


@pytest.mark.slow
def test_a_program_that_does_not_fail_is_refused() -> None:
    program = build_from_effect("Spawn(Put(c1)) ; Get(c1)", 0).program
    reducer = replace(_chan_reducer(), signature="rust-chan | hang")
    with pytest.raises(ReductionError, match="did not fail"):
        reducer.run(program)

"""The reducer's search and bookkeeping, on a modelled runtime: what it runs, in what
batches, which candidates it keeps, when it stops, how it resumes, what it records.

Only the compile and the sandboxed runs are replaced: `build` records the source it is
given, and `run_one` answers as a runtime with one known bug would (a program with both a
select receive and a select send hangs, with a signature counting its select receives).
Rendering, the candidates, the termination checks, the rate test and `same_bug` run for
real. test_reduce.py runs the reducer on real toolchains and real hangs (slow).
"""

from __future__ import annotations

import random
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import SimpleNamespace

import pytest

from generator import effects as fx
from generator import render
from generator.lambda_chan import Program
from generator.synthesis import synthesize
from runners.engine import reduce as rd
from runners.engine.build import CompileError
from runners.engine.rates import RateTest
from runners.engine.reduce import Budget, Reducer, ReductionError, ReductionState, Step
from runners.engine.run_alone import Triage
from runners.engine.run_records import ProgramRun
from runners.engine.run_target import target_for
from runners.engine.sandbox import Limits
from runners.engine.verdicts import Classification, Outcome
from runners.targets.base import Toolchain
from tests.runners.conftest import fake_toolchain

GO = fake_toolchain("go")
# Hangs on the modelled runtime (a select receive and a select send); c7 so that the
# last step, naming the channels c1, c2, …, is a real change.
HANG = "Spawn(SelGet(c7, eps) (+) SelGet(c7, eps)) ; SelPut(c7, eps)"
SIGNATURE = "go | hang | select receive×2"
SANDBOX = object()


def _program(text: str) -> Program:
    return synthesize(fx.parse(text), random.Random(0))


@dataclass
class ModelRuntime:
    """The runtime the reducer runs on: `period(effect)` says how often a program with that
    effect hangs (1: every run, 2: every other run, 0: never); every other run terminates."""

    period: Callable[[str], int]
    compile_error: Callable[[str], bool] = lambda _source: False
    builds: list[tuple[str, Path, tuple[str, ...], int]] = field(default_factory=list)
    root_modes: set[int] = field(default_factory=set)
    runs: list[tuple[tuple, dict]] = field(default_factory=list)
    seen: Counter[str] = field(default_factory=Counter)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def build(self, toolchain: Toolchain, source: str, workdir: Path, *, flags=()):  # noqa: ANN001, ANN201
        assert toolchain is GO
        self.builds.append((source, workdir, tuple(flags), workdir.stat().st_mode & 0o777))
        self.root_modes.add(workdir.parent.stat().st_mode & 0o777)
        if self.compile_error(source):
            raise CompileError(toolchain.id, 2, "modelled compile error")
        return ("artifact", source)

    def run_one(self, *args, **kwargs) -> ProgramRun:  # noqa: ANN002, ANN003
        text = fx.to_text(rd.effect_of(kwargs["program"]))
        with self.lock:
            self.runs.append((args, kwargs))
            self.seen[text] += 1
            count = self.seen[text]
        period = self.period(text)
        if period and count % period == 0:
            selects = text.count("SelGet")
            verdict = Classification(
                Outcome.TIMEOUT, "hang", f"go | hang | select receive×{selects}"
            )
        else:
            verdict = Classification(Outcome.TERMINATED, "terminated", "")
        return ProgramRun(index=args[2], classification=verdict)

    def runs_of(self, text: str) -> int:
        return self.seen[text]


def _always_when_both_selects(text: str) -> int:
    return int("SelGet" in text and "SelPut" in text)


@pytest.fixture
def runtime(monkeypatch: pytest.MonkeyPatch) -> ModelRuntime:
    model = ModelRuntime(period=_always_when_both_selects)
    monkeypatch.setattr(rd, "build", lambda *a, **k: model.build(*a, **k))
    monkeypatch.setattr(rd, "run_one", lambda *a, **k: model.run_one(*a, **k))
    return model


def _reducer(**kwargs: object) -> Reducer:
    settings: dict[str, object] = {
        "target": target_for(GO, repetitions=2),
        "sandbox": SANDBOX,
        "signature": SIGNATURE,
        "seed": 0,
        "baseline_runs": 4,
    }
    settings.update(kwargs)
    return Reducer(**settings)  # type: ignore[arg-type]


def _steps(state: ReductionState) -> list[tuple[str, str, int, int, str]]:
    return [(s.description, s.effect_text, s.runs, s.failures, s.decision) for s in state.tried]


# ---------------------------------------------------------------- the search


def test_a_hang_every_run_is_reduced_to_a_local_minimum(runtime: ModelRuntime) -> None:
    states: list[ReductionState] = []
    state = _reducer(on_state=states.append).run(_program(HANG))
    assert _steps(state) == [
        ("turn the select SelPut(c7, eps) into its one operation",
         "Spawn(SelGet(c7, eps) (+) SelGet(c7, eps)) ; Put(c7)", 8, 0, "loses"),
        ("drop the case SelGet(c7, eps)", "Spawn(SelGet(c7, eps)) ; SelPut(c7, eps)", 8, 8,
         "keeps"),
        ("turn the select SelGet(c7, eps) into its one operation",
         "Spawn(Get(c7)) ; SelPut(c7, eps)", 8, 0, "loses"),
        ("turn the select SelPut(c7, eps) into its one operation",
         "Spawn(SelGet(c7, eps)) ; Put(c7)", 8, 0, "loses"),
        ("name the channels c1, c2, … in order", "Spawn(SelGet(c1, eps)) ; SelPut(c1, eps)",
         8, 8, "keeps"),
    ]  # fmt: skip
    assert [s.size for s in state.tried] == [8, 8, 6, 6, 8]
    assert state.accepted == (state.tried[1], state.tried[4])
    assert state.original_text == HANG and state.original_size == 10
    assert state.current_text == "Spawn(SelGet(c1, eps)) ; SelPut(c1, eps)"
    assert state.current_size == 8
    assert (state.baseline_runs, state.baseline_failures) == (4, 4)
    assert state.done and state.stop_reason == "no single edit keeps the failure"
    # The result measured again as the original was: 4 runs of the final effect.
    assert (state.final_runs, state.final_failures) == (4, 4)
    assert runtime.runs_of(state.current_text) == 8 + 4
    assert 0 < state.elapsed_s < 30
    # Published: the baseline, each candidate, and the end.
    assert len(states) == 7 and states[-1] == state
    assert [len(s.tried) for s in states] == [0, 1, 2, 3, 4, 5, 5]
    assert states[0].done is False and states[0].current_text == HANG


def test_each_program_is_built_once_and_run_as_the_target_says(runtime: ModelRuntime) -> None:
    target = replace(target_for(GO, repetitions=3), build_flags=("-modelled",))
    seeds_asked: list[Program] = []
    reducer = _reducer(
        target=target, timeout_s=2.5, render_seed_of=lambda p: seeds_asked.append(p) or 41
    )
    state = reducer.run(_program(HANG))
    names = [workdir.name for _source, workdir, _flags, _mode in runtime.builds]
    assert names == ["original", "c0", "c1", "c2", "c3", "c4", "final"]
    assert {workdir.parent for _s, workdir, _f, _m in runtime.builds} == {
        runtime.builds[0][1].parent
    }
    assert runtime.builds[0][1].parent.name.startswith("chanfuzz-reduce-")
    assert not runtime.builds[0][1].parent.exists()  # cleaned up
    # The sandbox's user must reach each workdir, and the directory they are in.
    assert {mode for *_rest, mode in runtime.builds} == {0o755}
    assert runtime.root_modes == {0o755}
    assert {flags for _s, _w, flags, _m in runtime.builds} == {("-modelled",)}
    final = reducer.program_of(fx.parse(state.current_text))
    assert runtime.builds[-1][0] == target.spec.render_batch(
        [final], seed=41, repetitions=3, **dict(target.render_options)
    )
    # Each program rendered with the seed its page shows it with: asked of that program.
    assert len(seeds_asked) == len(runtime.builds)
    assert seeds_asked[0] == _program(HANG) and seeds_asked[-1] == final
    args, kwargs = runtime.runs[-1]
    assert args == (target, ("artifact", runtime.builds[-1][0]), 0)
    assert kwargs == {
        "sandbox": SANDBOX,
        "limits": Limits(timeout_s=2.5),
        "triage": Triage(retries=0),
        "program": final,
    }


def test_the_time_spent_grows_with_each_state_published(runtime: ModelRuntime) -> None:
    states: list[ReductionState] = []
    began = time.monotonic()
    state = _reducer(on_state=states.append).run(_program(HANG))
    wall = time.monotonic() - began
    times = [s.elapsed_s for s in states]
    assert times[0] == 0.0  # the baseline, before any candidate
    assert times[1] > 0 and times == sorted(times) and len(set(times)) == len(times)
    assert states[-2].elapsed_s < state.elapsed_s <= wall


def test_no_effect_is_tried_twice_and_the_search_goes_on_past_one_tried(
    runtime: ModelRuntime,
) -> None:
    # Deciding the `if` gives the effect that turning the select into a put gives later,
    # once the choice is gone: that one is passed over, and the next edit is tried.
    text = "Spawn(SelGet(c1, eps) (+) SelGet(c1, eps)) ; (SelPut(c1, eps) + Put(c1))"
    state = _reducer().run(_program(text))
    assert [(s.description, s.effect_text, s.decision) for s in state.tried] == [
        ("decide every `if` as the program runs it",
         "Spawn(SelGet(c1, eps) (+) SelGet(c1, eps)) ; Put(c1)", "loses"),
        ("drop channel c1", "eps + eps", "loses"),
        ("turn the select SelPut(c1, eps) into its one operation",
         "Spawn(SelGet(c1, eps) (+) SelGet(c1, eps)) ; (Put(c1) + Put(c1))", "loses"),
        ("keep option 1 of the choice SelPut(c1, eps) + Put(c1)",
         "Spawn(SelGet(c1, eps) (+) SelGet(c1, eps)) ; SelPut(c1, eps)", "keeps"),
        ("drop the case SelGet(c1, eps)", "Spawn(SelGet(c1, eps)) ; SelPut(c1, eps)", "keeps"),
        ("turn the select SelGet(c1, eps) into its one operation",
         "Spawn(Get(c1)) ; SelPut(c1, eps)", "loses"),
        ("turn the select SelPut(c1, eps) into its one operation",
         "Spawn(SelGet(c1, eps)) ; Put(c1)", "loses"),
    ]  # fmt: skip
    assert runtime.runs_of("Spawn(SelGet(c1, eps) (+) SelGet(c1, eps)) ; Put(c1)") == 8


def test_a_candidate_is_synthesised_from_its_effect_with_the_reducer_seed() -> None:
    effect = fx.parse(HANG)
    assert _reducer(seed=5).program_of(effect) == synthesize(effect, random.Random(5))
    assert _reducer(seed=5).program_of(effect) != _reducer(seed=6).program_of(effect)
    assert fx.to_text(rd.effect_of(_program(HANG))) == HANG


def test_runs_go_in_batches_of_jobs_and_stop_at_each_checkpoint(runtime: ModelRuntime) -> None:
    before_batch: list[int] = []

    def should_stop() -> bool:
        before_batch.append(len(runtime.runs))
        return False

    reducer = _reducer(baseline_runs=5, jobs=2, should_stop=should_stop,
                       budget=Budget(max_candidates=2))  # fmt: skip
    state = reducer.run(_program(HANG))
    # The baseline: 5 runs as 2 + 2 + 1, never past what was asked.
    assert before_batch[:3] == [0, 2, 4]
    assert (state.baseline_runs, state.baseline_failures) == (5, 5)
    # A candidate that never fails is decided at the first checkpoint (8 runs), one that
    # always fails too: 4 batches of 2 each, with a stop check before each candidate too;
    # then the result measured as the original was.
    assert before_batch[3:] == [5, 5, 7, 9, 11, 13, 13, 15, 17, 19, 21, 23, 25]
    assert [(s.runs, s.failures) for s in state.tried] == [(8, 0), (8, 8)]
    assert state.stop_reason == "candidate budget spent"


def test_runs_never_pass_a_checkpoint_whatever_the_batch_size(runtime: ModelRuntime) -> None:
    state = _reducer(jobs=3, budget=Budget(max_candidates=2)).run(_program(HANG))
    # 3 + 3 + 2: the look at 8 runs comes when the test asks for it, not at 9.
    assert [(s.runs, s.failures, s.decision) for s in state.tried] == [
        (8, 0, "loses"),
        (8, 8, "keeps"),
    ]


def test_a_candidate_that_cannot_be_kept_is_given_up_after_one_batch(
    runtime: ModelRuntime,
) -> None:
    # 8 failures in 8 runs cannot show a rate of 90 % (one look, 95 %): unsure as soon as
    # a first batch is in, but not before a single run.
    reducer = _reducer(keep_ratio=0.9, checkpoints=(8,), budget=Budget(max_candidates=2))
    state = reducer.run(_program(HANG))
    assert [(s.runs, s.failures, s.decision) for s in state.tried] == [
        (2, 0, "unsure"),
        (2, 2, "unsure"),
    ]
    # The renaming, last, is a candidate like the others: the budget holds for it too.
    assert state.stop_reason == "candidate budget spent"


def test_a_flaky_failure_is_judged_by_the_rate_test_at_half_its_rate(
    runtime: ModelRuntime,
) -> None:
    # The original hangs every other run, and so does the case dropped; any other program
    # with both selects hangs one run in 8: under half the original's rate.
    dropped = "Spawn(SelGet(c7, eps)) ; SelPut(c7, eps)"
    periods = {HANG: 2, dropped: 2}
    runtime.period = lambda text: periods.get(text, 8 * _always_when_both_selects(text))
    reducer = _reducer(baseline_runs=16, checkpoints=(8, 16, 32, 64))
    state = reducer.run(_program(HANG))
    assert (state.baseline_runs, state.baseline_failures) == (16, 8)
    test = reducer.rate_test(state)
    assert test == RateTest(threshold=0.25, alpha=0.05, checkpoints=(8, 16, 32, 64))
    assert [(s.effect_text, s.runs, s.failures, s.decision) for s in state.tried] == [
        ("Spawn(SelGet(c7, eps) (+) SelGet(c7, eps)) ; Put(c7)", 16, 0, "loses"),
        (dropped, 30, 15, "keeps"),  # known before the look at 32
        ("Spawn(Get(c7)) ; SelPut(c7, eps)", 16, 0, "loses"),
        ("Spawn(SelGet(c7, eps)) ; Put(c7)", 16, 0, "loses"),
        # 5 in 46: even 18 more failures could not keep it at the last look.
        ("Spawn(SelGet(c1, eps)) ; SelPut(c1, eps)", 46, 5, "unsure"),
    ]
    for step in state.tried:
        assert step.decision == test.decide(step.failures, step.runs)
    assert state.current_text == dropped
    # Measured again with the baseline's runs: still every other run.
    assert (state.final_runs, state.final_failures) == (16, 8)
    assert runtime.runs_of(dropped) == 30 + 16


def test_an_unreduced_failure_keeps_its_baseline_as_its_final_rate(
    runtime: ModelRuntime,
) -> None:
    runtime.period = lambda text: 2 * (text == HANG)
    state = _reducer(baseline_runs=6).run(_program(HANG))
    assert state.current_text == HANG and not state.accepted and state.done
    assert {s.decision for s in state.tried} == {"loses"}
    assert (state.final_runs, state.final_failures) == (6, 3)
    assert runtime.runs_of(HANG) == 6  # not measured again
    assert "final" not in [w.name for _s, w, _f, _m in runtime.builds]


def test_the_rate_test_keeps_a_failure_at_the_ratio_of_the_baseline_rate() -> None:
    state = ReductionState("Get(c1)", 1, 20, 5, "Get(c1)")
    test = _reducer(keep_ratio=0.4, alpha=0.1, checkpoints=(4, 9)).rate_test(state)
    assert test == RateTest(threshold=0.1, alpha=0.1, checkpoints=(4, 9))
    # A baseline with no failure still gives a valid (tiny) threshold.
    assert _reducer().rate_test(replace(state, baseline_failures=0)).threshold == 1e-6


def test_the_biggest_cut_first_decides_every_if_as_the_program_runs_it(
    runtime: ModelRuntime,
) -> None:
    text = "Spawn(SelGet(c1, eps)) ; (eps + Put(c2)) ; SelPut(c1, eps)"
    program = _program(text)
    state = _reducer(budget=Budget(max_candidates=3)).run(program)
    decided = fx.to_text(rd.behaviour(program))
    assert decided != text
    assert state.tried[0].description == "decide every `if` as the program runs it"
    assert state.tried[0].effect_text == decided and state.tried[0].kept
    # Offered on the original only: the next candidates are edits of the decided effect.
    assert all("decide every" not in s.description for s in state.tried[1:])
    assert state.tried[1].effect_text in {c.text for c in rd.candidates(fx.parse(decided))}


def test_channels_already_named_in_order_are_not_renamed(runtime: ModelRuntime) -> None:
    state = _reducer().run(_program(HANG.replace("c7", "c1")))
    assert state.current_text == "Spawn(SelGet(c1, eps)) ; SelPut(c1, eps)"
    assert all(not s.description.startswith("name the channels") for s in state.tried)


def test_a_search_that_ends_on_its_last_allowed_candidate_says_it_reached_a_minimum(
    runtime: ModelRuntime,
) -> None:
    # Channels already c1: no renaming is offered after the last edit, so a budget of
    # exactly the edits tried is not what ended the search.
    whole = _reducer().run(_program(HANG.replace("c7", "c1")))
    exact = _reducer(budget=Budget(max_candidates=len(whole.tried))).run(
        _program(HANG.replace("c7", "c1"))
    )
    assert exact.tried == whole.tried
    assert exact.stop_reason == "no single edit keeps the failure"


def test_a_renaming_that_loses_the_failure_is_not_taken(runtime: ModelRuntime) -> None:
    runtime.period = lambda text: _always_when_both_selects(text) * ("c1" not in text)
    state = _reducer().run(_program(HANG))
    assert state.tried[-1].description == "name the channels c1, c2, … in order"
    assert state.tried[-1].decision == "loses"
    assert state.current_text == "Spawn(SelGet(c7, eps)) ; SelPut(c7, eps)"
    assert state.stop_reason == "no single edit keeps the failure"


def test_a_renaming_already_tried_is_not_run_again(runtime: ModelRuntime) -> None:
    first = _reducer().run(_program(HANG))
    # Resumed with its steps, but as if the renaming had not been taken.
    again = replace(first, current_text=first.tried[1].effect_text, tried=first.tried[:-1] + (
        replace(first.tried[-1], decision="loses"),), done=False)  # fmt: skip
    runs_before = len(runtime.runs)
    state = _reducer().run(_program(HANG), again)
    assert state.tried == again.tried
    assert state.current_text == first.tried[1].effect_text
    assert len(runtime.runs) - runs_before == 4  # the final measure only


# ---------------------------------------------------------------- refusals and failures


def test_an_original_that_never_fails_is_refused(runtime: ModelRuntime) -> None:
    runtime.period = lambda _text: 0
    reducer = _reducer(timeout_s=3, target=target_for(GO, repetitions=5))
    with pytest.raises(ReductionError) as excinfo:
        reducer.run(_program(HANG))
    assert str(excinfo.value) == (
        "the original program did not fail with 'go | hang | select receive×2' in 4 runs"
        " (3 s limit, 5 repetitions): nothing to keep; reproduce it first, or give more"
        " runs or repetitions"
    )


def test_an_original_failing_another_way_is_refused(runtime: ModelRuntime) -> None:
    with pytest.raises(ReductionError, match="did not fail with 'go | crash | x'"):
        _reducer(signature="go | crash | x").run(_program(HANG))


def test_an_original_that_does_not_compile_is_refused(runtime: ModelRuntime) -> None:
    runtime.compile_error = lambda _source: True
    expected = r"^the original does not compile: go-1.0-test: compile failed \(exit 2\)"
    with pytest.raises(ReductionError, match=expected):
        _reducer().run(_program(HANG))


def test_a_candidate_that_does_not_compile_is_recorded_and_passed_over(
    runtime: ModelRuntime,
) -> None:
    calls = 0

    def second_build_fails(_source: str) -> bool:
        nonlocal calls
        calls += 1
        return calls == 2  # the first candidate's

    runtime.compile_error = second_build_fails
    state = _reducer(budget=Budget(max_candidates=2)).run(_program(HANG))
    assert _steps(state)[0] == (
        "turn the select SelPut(c7, eps) into its one operation",
        "Spawn(SelGet(c7, eps) (+) SelGet(c7, eps)) ; Put(c7)",
        0,
        0,
        "compile error",
    )
    assert state.tried[0].size == 8
    assert not state.tried[0].kept and state.tried[1].kept


def test_a_candidate_the_target_cannot_express_is_recorded_and_never_run(
    runtime: ModelRuntime, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = render.unsupported_reason
    asked: list[dict[str, object]] = []

    def no_plain_put(program: Program, lang: str, **options: object) -> str | None:
        asked.append(options)
        text = fx.to_text(rd.effect_of(program))
        return "no plain put" if "; Put(" in text else real(program, lang, **options)

    monkeypatch.setattr(render, "unsupported_reason", no_plain_put)
    state = _reducer(budget=Budget(max_candidates=1)).run(_program(HANG))
    assert _steps(state) == [
        ("turn the select SelPut(c7, eps) into its one operation",
         "Spawn(SelGet(c7, eps) (+) SelGet(c7, eps)) ; Put(c7)", 0, 0, "unsupported"),
    ]  # fmt: skip
    assert state.tried[0].size == 8
    # Asked with the options the target renders with (the value oracle here).
    assert asked == [{"values": True}]
    assert runtime.runs_of("Spawn(SelGet(c7, eps) (+) SelGet(c7, eps)) ; Put(c7)") == 0
    assert [w.name for _s, w, _f, _m in runtime.builds] == ["original"]


# ---------------------------------------------------------------- budgets, stops, resuming


def test_the_candidate_budget_ends_the_search(runtime: ModelRuntime) -> None:
    state = _reducer(budget=Budget(max_candidates=3)).run(_program(HANG))
    assert len(state.tried) == 3 and state.done
    assert state.stop_reason == "candidate budget spent"
    assert state.current_text == "Spawn(SelGet(c7, eps)) ; SelPut(c7, eps)"
    assert (state.final_runs, state.final_failures) == (4, 4)


def test_the_time_budget_ends_the_search(runtime: ModelRuntime) -> None:
    state = _reducer(budget=Budget(max_seconds=0)).run(_program(HANG))
    assert state.tried == () and state.done
    assert state.stop_reason == "time budget spent"
    assert (state.final_runs, state.final_failures) == (4, 4)
    # Resumed with time already spent: the budget counts it.
    spent = replace(state, done=False, stop_reason="", elapsed_s=100.0)
    resumed = _reducer(budget=Budget(max_seconds=99)).run(_program(HANG), spent)
    assert resumed.tried == () and resumed.stop_reason == "time budget spent"
    assert resumed.elapsed_s >= 100.0


def test_a_time_budget_spent_by_the_last_edit_leaves_the_names_as_they_are(
    runtime: ModelRuntime, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A clock that moves one second a run: the baseline (4 runs) and four candidates
    # (8 runs each) spend the 36 s, so the renaming, last, is not run.
    seconds = [0.0]
    real_run_one = runtime.run_one

    def run_one_second(*args, **kwargs) -> ProgramRun:  # noqa: ANN002, ANN003
        seconds[0] += 1.0
        return real_run_one(*args, **kwargs)

    monkeypatch.setattr(rd, "run_one", run_one_second)
    monkeypatch.setattr(rd, "time", SimpleNamespace(monotonic=lambda: seconds[0]))
    state = _reducer(budget=Budget(max_seconds=36.0)).run(_program(HANG))
    assert len(state.tried) == 4 and state.done
    assert state.stop_reason == "time budget spent"
    assert state.current_text == "Spawn(SelGet(c7, eps)) ; SelPut(c7, eps)"
    assert state.elapsed_s == 36.0 + 4  # and the final measure


def test_a_stop_between_candidates_keeps_what_was_done(runtime: ModelRuntime) -> None:
    states: list[ReductionState] = []
    reducer = _reducer(on_state=states.append, should_stop=lambda: len(states) >= 3)
    state = reducer.run(_program(HANG))
    assert state.stop_reason == "stopped" and not state.done
    assert len(state.tried) == 2 and state.current_text == state.tried[1].effect_text
    assert (state.final_runs, state.final_failures) == (0, 0)
    assert states[-1] == state and len(states) == 4
    # The time up to the stop, counted on from the last state published.
    assert state.elapsed_s > states[-2].elapsed_s > 0
    assert state.elapsed_s < 30


def test_a_stop_during_a_candidates_runs_keeps_the_last_state(runtime: ModelRuntime) -> None:
    states: list[ReductionState] = []
    # Asked before every batch of runs: stop in the middle of the second candidate.
    reducer = _reducer(on_state=states.append, should_stop=lambda: len(runtime.runs) >= 4 + 8 + 2)
    state = reducer.run(_program(HANG))
    assert state.stop_reason == "stopped"
    assert len(state.tried) == 1 and state.tried[0].decision == "loses"
    assert state.current_text == HANG
    assert len(runtime.runs) == 14


def test_a_stopped_reduction_resumes_where_it_stopped(runtime: ModelRuntime) -> None:
    whole = _reducer().run(_program(HANG))
    runs_whole = len(runtime.runs)
    states: list[ReductionState] = []
    # Stopped after the third candidate, the first edit of the kept one: resumed, that
    # edit is passed over and the next one tried.
    stopped = _reducer(on_state=states.append, should_stop=lambda: len(states) >= 4).run(
        _program(HANG)
    )
    assert len(stopped.tried) == 3
    # Resumed from what a database kept of it: no baseline again, no candidate twice.
    saved = ReductionState.from_dict(stopped.as_dict())
    builds_before = len(runtime.builds)
    resumed = _reducer().run(_program(HANG), replace(saved, stop_reason="", elapsed_s=50.0))
    assert "original" not in [w.name for _s, w, _f, _m in runtime.builds[builds_before:]]
    assert [w.name for _s, w, _f, _m in runtime.builds[builds_before:]][0] == "c3"
    assert _steps(resumed) == _steps(whole)
    assert resumed.current_text == whole.current_text and resumed.done
    # Together, the stopped and the resumed reduction ran what the whole one did.
    assert len(runtime.runs) == 2 * runs_whole
    assert 50.0 <= resumed.elapsed_s < 80.0  # the time already spent, and more


# ---------------------------------------------------------------- what is recorded


def test_a_state_survives_its_dict_form() -> None:
    step = Step("drop it", "Get(c1)", 2, 8, 3, "unsure")
    assert step.as_dict() == {
        "description": "drop it",
        "effect": "Get(c1)",
        "size": 2,
        "runs": 8,
        "failures": 3,
        "decision": "unsure",
    }
    assert Step.from_dict(step.as_dict()) == step
    assert not step.kept and replace(step, decision="keeps").kept
    state = ReductionState(
        original_text="Spawn(Put(c1)) ; Get(c1) ; Get(c2)",
        original_size=5,
        baseline_runs=16,
        baseline_failures=12,
        current_text="Get(c2)",
        tried=(step, replace(step, decision="keeps")),
        elapsed_s=12.345,
        done=True,
        final_runs=16,
        final_failures=11,
        stop_reason="no single edit keeps the failure",
    )
    assert state.as_dict() == {
        "original": "Spawn(Put(c1)) ; Get(c1) ; Get(c2)",
        "original_size": 5,
        "baseline_runs": 16,
        "baseline_failures": 12,
        "current": "Get(c2)",
        "current_size": 1,
        "tried": [step.as_dict(), replace(step, decision="keeps").as_dict()],
        "elapsed_s": 12.3,
        "done": True,
        "final_runs": 16,
        "final_failures": 11,
        "stop_reason": "no single edit keeps the failure",
    }
    assert ReductionState.from_dict(state.as_dict()) == replace(state, elapsed_s=12.3)
    assert state.baseline_rate == 0.75 and state.accepted == (state.tried[1],)


def test_a_state_saved_before_the_search_reads_back_with_its_defaults() -> None:
    saved = {
        "original": "Get(c1)",
        "original_size": 1,
        "baseline_runs": 0,
        "baseline_failures": 0,
        "current": "Get(c1)",
    }
    state = ReductionState.from_dict(saved)
    assert state == ReductionState("Get(c1)", 1, 0, 0, "Get(c1)")
    assert state.tried == () and state.elapsed_s == 0.0 and state.done is False
    assert (state.final_runs, state.final_failures, state.stop_reason) == (0, 0, "")
    assert state.baseline_rate == 0.0

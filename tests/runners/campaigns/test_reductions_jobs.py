"""A reduction as the site keeps it: what start_reduction records and enqueues, the job
that runs it (saved states, the reduced program stored, cancels, failures), and the
summary a report shows.

No Redis and no toolchain run: the job runs the real Reducer with only its compile and
its sandboxed runs replaced by the modelled runtime of tests/runners/engine/
test_reduce_search.py (a select receive with a select send hangs). test_reductions.py
reduces chan 0.1.23's real hang through a real worker (slow).
"""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from generator import lambda_chan
from runners.campaigns import reductions, services
from runners.campaigns.models import Execution, Finding, Program, Reduction
from runners.campaigns.programs import (
    build_from_effect,
    program_id,
    program_object,
    render_seed_for,
    store_program,
)
from runners.campaigns.queueing import COMPILE_ALLOWANCE_S, RUN_REDUCTION
from runners.engine import reduce as rd
from runners.engine.reduce import ReductionState
from runners.engine.run_target import target_for
from tests.runners.conftest import require_toolchain
from tests.runners.engine.test_reduce_search import GO, ModelRuntime, _always_when_both_selects

pytestmark = pytest.mark.django_db

HANG = "Spawn(SelGet(c7, eps) (+) SelGet(c7, eps)) ; SelPut(c7, eps)"
REDUCED = "Spawn(SelGet(c1, eps)) ; SelPut(c1, eps)"
SIGNATURE = "go | hang | select receive×2"


def _finding(example: Program | None = None) -> Finding:
    now = timezone.now()
    finding, _ = Finding.objects.update_or_create(
        signature=SIGNATURE,
        defaults={"outcome": "timeout", "language": "go", "title": "hang", "first_seen": now,
                  "last_seen": now, "example": example},
    )  # fmt: skip
    return finding


def _reduction(program: Program, **fields: object) -> Reduction:
    settings: dict[str, object] = {
        "finding": _finding(program),
        "program": program,
        "language": "go",
        "toolchain_id": "go-1.0-test",
        "signature": SIGNATURE,
        "timeout_s": 3.0,
        "repetitions": 2,
        "baseline_runs": 4,
    }
    settings.update(fields)
    return Reduction.objects.create(**settings)


@pytest.fixture
def runtime(monkeypatch: pytest.MonkeyPatch) -> ModelRuntime:
    """The modelled runtime, and the target and sandbox the job asks for, recorded."""
    model = ModelRuntime(period=_always_when_both_selects)
    model.asked = []  # type: ignore[attr-defined]

    def make_target(language: str, toolchain_id: str, **kwargs: object):  # noqa: ANN202
        model.asked.append(("target", language, toolchain_id, kwargs))  # type: ignore[attr-defined]
        return target_for(GO, repetitions=kwargs["repetitions"])  # type: ignore[arg-type]

    def get_sandbox(**kwargs: object) -> str:
        model.asked.append(("sandbox", kwargs))  # type: ignore[attr-defined]
        return "sandbox"

    monkeypatch.setattr(reductions, "make_target", make_target)
    monkeypatch.setattr(reductions, "get_sandbox", get_sandbox)
    monkeypatch.setattr(rd, "build", lambda *a, **k: model.build(*a, **k))
    monkeypatch.setattr(rd, "run_one", lambda *a, **k: model.run_one(*a, **k))
    return model


# ---------------------------------------------------------------- the job


def test_a_reduction_runs_to_its_end_and_stores_the_reduced_program(
    runtime: ModelRuntime,
) -> None:
    original = store_program(build_from_effect(HANG, 17))
    reduction = _reduction(original, pct_depth=3, jobs=3, keep_ratio=0.4, alpha=0.1)
    seen: list[ReductionState] = []
    result = reductions.run_reduction(reduction.pk, progress=seen.append)
    reduction.refresh_from_db()
    assert result == {"reduction": reduction.pk, "status": "done", "size": [10, 8]}
    assert reduction.status == "done"
    assert timezone.now() - reduction.finished_at < timedelta(minutes=1)
    assert reduction.state == seen[-1].as_dict() and seen[-1].done
    assert reduction.state["current"] == REDUCED
    assert reduction.state["stop_reason"] == "no single edit keeps the failure"
    # Every state was saved as it came (the progress sees each after its save).
    assert [len(s.tried) for s in seen] == [0, 1, 2, 3, 4, 5, 5]
    # The reduced program has a permalink of its own, with the original's seed.
    assert reduction.reduced == store_program(build_from_effect(REDUCED, 17))
    assert reduction.reduced.seed == 17
    # The target as the reduction was asked, and the sandbox for its language.
    assert runtime.asked == [  # type: ignore[attr-defined]
        ("target", "go", "go-1.0-test", {"repetitions": 2, "pct_depth": 3}),
        ("sandbox", {"language": "go"}),
    ]
    # Each program rendered with the seed its own page renders it with.
    first_source = runtime.builds[0][0]
    program = program_object(original)
    seed = render_seed_for(program_id(lambda_chan.to_text(program)))
    target = target_for(GO, repetitions=2)
    assert first_source == target.spec.render_batch(
        [program], seed=seed, repetitions=2, **dict(target.render_options)
    )
    # Runs with the reduction's own limit, in batches of its jobs.
    assert {kwargs["limits"].timeout_s for _args, kwargs in runtime.runs} == {3.0}
    assert len(runtime.runs) == 4 + 5 * 8 + 4


def test_the_reducer_is_given_the_reductions_settings(
    runtime: ModelRuntime, monkeypatch: pytest.MonkeyPatch
) -> None:
    made: list[rd.Reducer] = []
    real_run = rd.Reducer.run

    def run(self: rd.Reducer, program, state=None):  # noqa: ANN001, ANN202
        made.append(self)
        return real_run(self, program, state)

    monkeypatch.setattr(rd.Reducer, "run", run)
    original = store_program(build_from_effect(HANG, 5))
    reduction = _reduction(
        original, jobs=3, keep_ratio=0.4, alpha=0.1, max_candidates=2, max_seconds=60.0
    )
    reductions.run_reduction(reduction.pk)
    reducer = made[0]
    assert reducer.sandbox == "sandbox" and reducer.signature == SIGNATURE
    assert reducer.seed == 5 and reducer.render_seed_of is reductions._render_seed
    assert (reducer.timeout_s, reducer.baseline_runs, reducer.jobs) == (3.0, 4, 3)
    assert (reducer.keep_ratio, reducer.alpha) == (0.4, 0.1)
    assert reducer.budget == rd.Budget(max_candidates=2, max_seconds=60.0)
    assert reducer.target.repetitions == 2
    reduction.refresh_from_db()
    assert reduction.state["stop_reason"] == "candidate budget spent"
    assert len(reduction.state["tried"]) == 2


def test_a_saved_reduction_resumes_from_its_state(runtime: ModelRuntime) -> None:
    original = store_program(build_from_effect(HANG, 0))
    whole = reductions.run_reduction(_reduction(original).pk)
    runs_whole = len(runtime.runs)
    # A worker killed after two candidates: the row keeps its state and its status.
    killed = _reduction(original, status="running")
    saved: list[ReductionState] = []
    reducer = rd.Reducer(
        target=target_for(GO, repetitions=2), sandbox="sandbox", signature=SIGNATURE, seed=0,
        render_seed_of=reductions._render_seed, timeout_s=3.0, baseline_runs=4,
        on_state=saved.append, should_stop=lambda: len(saved) >= 3,
    )  # fmt: skip
    reducer.run(program_object(original))
    Reduction.objects.filter(pk=killed.pk).update(state=saved[-1].as_dict())
    runs_before = len(runtime.runs)
    result = reductions.run_reduction(killed.pk)
    killed.refresh_from_db()
    assert result == whole | {"reduction": killed.pk}
    assert killed.status == "done" and killed.state["current"] == REDUCED
    # No second baseline, no candidate run twice: the two parts ran what one whole did.
    assert runs_before - runs_whole + len(runtime.runs) - runs_before == runs_whole
    assert [s["effect"] for s in killed.state["tried"]][:2] == [
        s.effect_text for s in saved[-1].tried
    ]


def test_a_reduction_cancelled_while_it_runs_keeps_its_smallest_program(
    runtime: ModelRuntime,
) -> None:
    original = store_program(build_from_effect(HANG, 0))
    reduction = _reduction(original)

    def cancel_after_two_candidates(state: ReductionState) -> None:
        if len(state.tried) == 2:
            Reduction.objects.filter(pk=reduction.pk).update(status="cancelled")

    result = reductions.run_reduction(reduction.pk, progress=cancel_after_two_candidates)
    reduction.refresh_from_db()
    assert result == {"reduction": reduction.pk, "status": "cancelled", "size": [10, 8]}
    assert reduction.status == "cancelled" and reduction.finished_at is None
    assert reduction.state["stop_reason"] == "stopped" and not reduction.state["done"]
    assert len(reduction.state["tried"]) == 2
    # The second candidate was kept: the smallest program so far has its permalink.
    assert reduction.reduced == store_program(
        build_from_effect("Spawn(SelGet(c7, eps)) ; SelPut(c7, eps)", 0)
    )


def test_a_reduction_that_fails_says_why_and_keeps_what_it_had(
    runtime: ModelRuntime,
) -> None:
    original = store_program(build_from_effect(HANG, 0))
    reduction = _reduction(original)
    calls = 0

    def break_on_the_third_build(_source: str) -> bool:
        nonlocal calls
        calls += 1
        if calls == 4:
            raise OSError("disk full")
        return False

    runtime.compile_error = break_on_the_third_build
    with pytest.raises(OSError, match="disk full"):
        reductions.run_reduction(reduction.pk)
    reduction.refresh_from_db()
    assert reduction.status == "failed" and reduction.last_error == "OSError: disk full"
    assert timezone.now() - reduction.finished_at < timedelta(minutes=1)
    assert len(reduction.state["tried"]) == 2
    assert reduction.reduced == store_program(
        build_from_effect("Spawn(SelGet(c7, eps)) ; SelPut(c7, eps)", 0)
    )


def test_a_failure_message_is_cut_to_what_the_row_keeps(runtime: ModelRuntime) -> None:
    reduction = _reduction(store_program(build_from_effect(HANG, 0)))

    def fail(_source: str) -> bool:
        raise RuntimeError("x" * 9000)

    runtime.compile_error = fail
    with pytest.raises(RuntimeError):
        reductions.run_reduction(reduction.pk)
    reduction.refresh_from_db()
    assert reduction.last_error == ("RuntimeError: " + "x" * 9000)[:8000]
    assert reduction.reduced is None and reduction.state is None


def test_a_reduction_no_longer_wanted_is_not_run(runtime: ModelRuntime) -> None:
    original = store_program(build_from_effect(HANG, 0))
    for status in ("done", "failed", "cancelled"):
        reduction = _reduction(original, status=status)
        assert reductions.run_reduction(reduction.pk) == {
            "reduction": reduction.pk,
            "skipped": f"already {status}",
        }
        reduction.refresh_from_db()
        assert reduction.status == status
    assert runtime.runs == []


def test_a_failure_that_is_not_reduced_stores_no_new_program(runtime: ModelRuntime) -> None:
    runtime.period = lambda text: int(text == HANG)
    original = store_program(build_from_effect(HANG, 0))
    reduction = _reduction(original)
    reductions.run_reduction(reduction.pk)
    reduction.refresh_from_db()
    assert reduction.status == "done" and reduction.state["current"] == HANG
    assert reduction.reduced is None
    assert Program.objects.count() == 1


# ---------------------------------------------------------------- starting, cancelling


def _campaign_program(go_id: str, **campaign: object) -> Program:
    """A program a campaign ran and saw fail: its settings are the reduction's defaults."""
    created = services.campaign_from_programs(
        effects=[HANG], targets=[("go", go_id)], enqueue=False, **campaign
    )
    program = store_program(build_from_effect(HANG, 0))
    Execution.objects.create(
        target=created.targets.get(), campaign=created, program=program, index=0,
        outcome="timeout", signature=SIGNATURE, finding=_finding(program),
        attempts=[{"outcome": "timeout"}],
    )  # fmt: skip
    return program


def test_a_reduction_starts_with_the_settings_its_program_failed_with() -> None:
    go = require_toolchain("go")
    program = _campaign_program(go.id, timeout_s=4, repetitions=7, pct_depth=2)
    finding = _finding(program)
    reduction = reductions.start_reduction(finding=finding, enqueue=False)
    reduction.refresh_from_db()
    assert (reduction.finding, reduction.program, reduction.language) == (finding, program, "go")
    assert (reduction.toolchain_id, reduction.toolchain_description) == (go.id, go.describe())
    assert (reduction.timeout_s, reduction.repetitions, reduction.pct_depth) == (4.0, 7, 2)
    assert reduction.signature == SIGNATURE and reduction.status == "queued"
    assert (reduction.jobs, reduction.baseline_runs, reduction.keep_ratio) == (2, 16, 0.5)
    assert (reduction.alpha, reduction.max_candidates, reduction.max_seconds) == (
        0.05, 200, 3600.0,
    )  # fmt: skip
    assert reduction.rq_job_id == "" and reduction.owner is None


def test_settings_given_to_a_reduction_replace_its_programs() -> None:
    go = require_toolchain("go")
    program = _campaign_program(go.id, timeout_s=4, repetitions=7)
    owner = get_user_model().objects.create_user("maintainer")
    reduction = reductions.start_reduction(
        finding=_finding(program), version=go.id, timeout_s=2.5, repetitions=3, jobs=4,
        baseline_runs=20, keep_ratio=0.3, alpha=0.01, max_candidates=9, max_seconds=120,
        enqueue=False, owner=owner,
    )  # fmt: skip
    reduction.refresh_from_db()
    assert (reduction.timeout_s, reduction.repetitions, reduction.jobs) == (2.5, 3, 4)
    assert (reduction.baseline_runs, reduction.keep_ratio, reduction.alpha) == (20, 0.3, 0.01)
    assert (reduction.max_candidates, reduction.max_seconds) == (9, 120.0)
    assert reduction.owner == owner and reduction.pct_depth is None


def test_a_program_no_campaign_ran_takes_the_defaults() -> None:
    go = require_toolchain("go")
    program = store_program(build_from_effect(HANG, 0))
    reduction = reductions.start_reduction(finding=_finding(program), version=go.id,
                                           enqueue=False)  # fmt: skip
    assert (reduction.timeout_s, reduction.repetitions, reduction.pct_depth) == (10.0, 10, None)


LIMITS = [
    ("timeout_s", 0.1, 3600.0),
    ("repetitions", 1, 100_000),
    ("jobs", 1, 16),
    ("baseline_runs", 1, 1_000),
    ("keep_ratio", 0.01, 1.0),
    ("alpha", 0.001, 0.5),
    ("max_candidates", 1, 5_000),
    ("max_seconds", 1, 7 * 24 * 3600.0),
]


@pytest.mark.parametrize(("field", "low", "high"), LIMITS)
def test_each_setting_is_taken_at_its_limits_and_refused_past_them(
    field: str, low: float, high: float
) -> None:
    go = require_toolchain("go")
    program = store_program(build_from_effect(HANG, 0))
    finding = _finding(program)
    for value in (low, high):
        reduction = reductions.start_reduction(
            finding=finding, version=go.id, enqueue=False, **{field: value}
        )
        assert getattr(reduction, field) == value
    step = 0.001 if isinstance(low, float) and low < 1 else 1
    for value in (low - step, high + step):
        with pytest.raises(ValueError) as refused:
            reductions.start_reduction(
                finding=finding, version=go.id, enqueue=False, **{field: value}
            )
        assert str(refused.value) == f"{field} must be from {low:g} to {high:g}, not {value!r}"
    assert Reduction.objects.count() == 2


def test_a_reduction_is_enqueued_once_its_row_is_committed(
    monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks,  # noqa: ANN001
) -> None:
    go = require_toolchain("go")
    program = store_program(build_from_effect(HANG, 0))
    queued: list[tuple] = []
    monkeypatch.setattr(
        reductions, "enqueue_or_fail", lambda *args, **kwargs: queued.append((args, kwargs))
    )
    with django_capture_on_commit_callbacks(execute=True):
        reduction = reductions.start_reduction(
            finding=_finding(program), version=go.id, max_seconds=100
        )
        assert queued == []  # not before the commit
    reduction.refresh_from_db()
    assert reduction.rq_job_id.startswith(f"reduce-{reduction.pk}-")
    assert len(reduction.rq_job_id) == len(f"reduce-{reduction.pk}-") + 8
    (rows, function, pk), kwargs = queued[0]
    assert list(rows) == [reduction] and (function, pk) == (RUN_REDUCTION, reduction.pk)
    assert kwargs == {
        "job_id": reduction.rq_job_id,
        "job_timeout": int(100 * 1.5 + COMPILE_ALLOWANCE_S),
        "description": f"reduce {program.id} on {go.id}",
    }


def test_cancelling_a_running_reduction_cancels_its_job(
    runtime: ModelRuntime, monkeypatch: pytest.MonkeyPatch
) -> None:
    cancelled_jobs: list[list[str]] = []
    monkeypatch.setattr(reductions, "cancel_jobs", cancelled_jobs.append)
    original = store_program(build_from_effect(HANG, 0))
    state = replace(
        ReductionState(HANG, 10, 4, 4, HANG),
        current_text="Spawn(SelGet(c7, eps)) ; SelPut(c7, eps)",
    )
    running = _reduction(original, status="running", rq_job_id="reduce-1-abc",
                         state=state.as_dict())  # fmt: skip
    cancelled = reductions.cancel_reduction(reduction=running)
    assert cancelled.status == "cancelled" and cancelled.finished_at is not None
    assert cancelled_jobs == [["reduce-1-abc"]]
    assert cancelled.reduced == store_program(build_from_effect(state.current_text, 0))
    # A reduction already over is left as it was, and no job is touched.
    done = _reduction(original, status="done", rq_job_id="reduce-2-abc")
    assert reductions.cancel_reduction(reduction=done).status == "done"
    assert cancelled_jobs == [["reduce-1-abc"]]
    # A queued one with no job yet: cancelled, nothing to cancel in the queue.
    queued = _reduction(original)
    assert reductions.cancel_reduction(reduction=queued).status == "cancelled"
    assert cancelled_jobs == [["reduce-1-abc"]]


# ---------------------------------------------------------------- the summary


def test_the_summary_shows_sizes_rates_and_the_steps_kept(runtime: ModelRuntime) -> None:
    original = store_program(build_from_effect(HANG, 0))
    reduction = _reduction(original)
    reductions.run_reduction(reduction.pk)
    reduction.refresh_from_db()
    state = reduction.state
    assert reductions.summary(reduction) == {
        "reduction": reduction.pk,
        "finding": reduction.finding_id,
        "status": "done",
        "toolchain": "go-1.0-test",
        "repetitions": 2,
        "timeout_s": 3.0,
        "original": {"id": original.id, "effect": HANG, "size": 10},
        "reduced": {"id": reduction.reduced_id, "effect": REDUCED, "size": 8},
        "baseline": [4, 4],
        "final": [4, 4],
        "candidates": 5,
        "kept": [state["tried"][1], state["tried"][4]],
        "stop_reason": "no single edit keeps the failure",
        "elapsed_s": state["elapsed_s"],
        "finished_at": reduction.finished_at.isoformat(),
    }
    assert [s["decision"] for s in reductions.summary(reduction)["kept"]] == ["keeps"] * 2


def test_the_summary_of_a_reduction_not_started_has_its_empty_figures() -> None:
    original = store_program(build_from_effect(HANG, 0))
    reduction = _reduction(original)
    summary = reductions.summary(reduction)
    assert summary["original"] == {"id": original.id, "effect": None, "size": None}
    assert summary["reduced"] == {"id": None, "effect": None, "size": None}
    assert (summary["baseline"], summary["final"]) == ([0, 0], [0, 0])
    assert (summary["candidates"], summary["kept"], summary["stop_reason"]) == (0, [], "")
    assert summary["elapsed_s"] is None and summary["finished_at"] is None
    assert summary["status"] == "queued"


# ---------------------------------------------------------------- which rows, which program


def test_a_cancel_touches_its_own_reduction_only(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(reductions, "cancel_jobs", lambda ids: None)
    original = store_program(build_from_effect(HANG, 0))
    mine, other = _reduction(original), _reduction(original, status="running")
    reductions.cancel_reduction(reduction=mine)
    assert Reduction.objects.get(pk=other.pk).status == "running"
    assert Reduction.objects.get(pk=other.pk).finished_at is None


def test_a_failed_job_marks_its_own_running_reduction_only(runtime: ModelRuntime) -> None:
    original = store_program(build_from_effect(HANG, 0))
    other = _reduction(original, status="running")
    failing = _reduction(original)

    def cancel_then_fail(_source: str) -> bool:
        # Cancelled while it ran, then the job failed: it stays cancelled.
        Reduction.objects.filter(pk=failing.pk).update(status="cancelled")
        raise OSError("disk full")

    runtime.compile_error = cancel_then_fail
    with pytest.raises(OSError):
        reductions.run_reduction(failing.pk)
    failing.refresh_from_db()
    assert (failing.status, failing.last_error, failing.finished_at) == ("cancelled", "", None)
    assert Reduction.objects.get(pk=other.pk).status == "running"


def test_a_reduction_cancelled_as_it_ended_stays_cancelled(runtime: ModelRuntime) -> None:
    original = store_program(build_from_effect(HANG, 0))
    reduction = _reduction(original)

    def cancel_at_the_end(state: ReductionState) -> None:
        if state.done:
            Reduction.objects.filter(pk=reduction.pk).update(status="cancelled")

    reductions.run_reduction(reduction.pk, progress=cancel_at_the_end)
    reduction.refresh_from_db()
    assert reduction.status == "cancelled" and reduction.finished_at is None
    assert reduction.state["done"] and reduction.reduced is not None


def test_storing_the_reduced_program_writes_nothing_else() -> None:
    original = store_program(build_from_effect(HANG, 0))
    state = replace(ReductionState(HANG, 10, 4, 4, HANG), current_text=REDUCED)
    reduction = _reduction(original, state=state.as_dict())
    stale = Reduction.objects.get(pk=reduction.pk)
    # The job moved on since this copy was read.
    Reduction.objects.filter(pk=reduction.pk).update(status="running", last_error="x")
    reductions._store_reduced(stale)
    reduction.refresh_from_db()
    assert reduction.reduced == store_program(build_from_effect(REDUCED, 0))
    assert (reduction.status, reduction.last_error) == ("running", "x")


def test_a_reduction_runs_on_the_toolchain_its_program_failed_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    go = require_toolchain("go")
    program = _campaign_program(go.id)
    asked: list[tuple[str, str | None]] = []

    def resolve(language: str, version: str | None):  # noqa: ANN202
        asked.append((language, version))
        return go

    monkeypatch.setattr(reductions, "resolve_toolchain", resolve)
    reductions.start_reduction(finding=_finding(program), enqueue=False)
    reductions.start_reduction(finding=_finding(program), version="1.2.3", enqueue=False)
    assert asked == [("go", go.id), ("go", "1.2.3")]


def test_an_owner_over_quota_cannot_start_a_reduction(settings) -> None:  # noqa: ANN001
    go = require_toolchain("go")
    program = store_program(build_from_effect(HANG, 0))
    owner = get_user_model().objects.create_user("visitor")
    settings.QUOTAS = replace(settings.QUOTAS, reduction_minutes=10)
    with pytest.raises(reductions.quotas.QuotaExceeded, match="minutes per reduction"):
        reductions.start_reduction(
            finding=_finding(program), version=go.id, max_seconds=3600, owner=owner,
            enqueue=False,
        )  # fmt: skip
    assert not Reduction.objects.exists()


def test_the_program_reduced_is_the_example_a_campaign_ran_or_the_latest_run(
    runtime: ModelRuntime,
) -> None:
    go = require_toolchain("go")
    ran = _campaign_program(go.id)  # a campaign ran it and saw the finding
    finding = Finding.objects.get(signature=SIGNATURE)
    loaded = store_program(build_from_effect("Spawn(Put(c1)) ; Get(c1)", 9))
    later = store_program(build_from_effect("Spawn(Get(c1)) ; Put(c1)", 9))
    campaign = Execution.objects.get(program=ran).campaign
    target = campaign.targets.get()
    # The example no campaign ran gives way to the latest campaign run of the finding...
    Finding.objects.filter(pk=finding.pk).update(example=loaded)
    finding.refresh_from_db()
    assert reductions._reducible_program(finding) == ran
    latest = Execution.objects.create(
        target=target, campaign=campaign, program=later, index=1, outcome="timeout",
        signature=SIGNATURE, finding=finding,
    )  # fmt: skip
    assert reductions._reducible_program(finding) == later
    # ... the latest by time, then by row when two came at the same moment...
    Execution.objects.filter(pk=latest.pk).update(created_at=T_EARLY)
    assert reductions._reducible_program(finding) == ran
    Execution.objects.filter(finding=finding).update(created_at=T_EARLY)
    assert reductions._reducible_program(finding) == later
    # ... never a run of another finding, nor a reproduction's run.
    other = Finding.objects.create(
        signature="go | crash | other", outcome="crash", language="go", title="x",
        first_seen=T_EARLY, last_seen=T_EARLY,
    )  # fmt: skip
    elsewhere = store_program(build_from_effect("Spawn(Put(c2)) ; Get(c2)", 9))
    Execution.objects.create(
        target=target, campaign=campaign, program=elsewhere, index=2, outcome="crash",
        signature=other.signature, finding=other,
    )  # fmt: skip
    Execution.objects.create(program=elsewhere, index=0, outcome="timeout", finding=finding)
    assert reductions._reducible_program(finding) == later
    # An example a campaign ran is taken as it is.
    Finding.objects.filter(pk=finding.pk).update(example=ran)
    finding.refresh_from_db()
    assert reductions._reducible_program(finding) == ran
    # No example: the latest campaign run; no example and no campaign run: nothing.
    assert reductions._reducible_program(other) == elsewhere
    lonely = Finding.objects.create(
        signature="go | crash | lonely", outcome="crash", language="go", title="x",
        first_seen=T_EARLY, last_seen=T_EARLY,
    )  # fmt: skip
    assert reductions._reducible_program(lonely) is None


T_EARLY = timezone.now() - timedelta(days=30)

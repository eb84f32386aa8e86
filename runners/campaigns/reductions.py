"""Reductions of findings: start one, cancel it, and the RQ job that runs it.

`start_reduction` records what is asked (the finding's example program, the
toolchain and settings it failed with, the statistical test and the budget)
and enqueues `run_reduction` once the transaction commits. The job runs the
Django-free reducer (runners.engine.reduce), saving its state after every
candidate: a worker killed mid-way loses at most one candidate, and running
the job again (`manage.py reduce --resume ID`, or RQ's retry) goes on from
the saved state. A cancel is noticed between candidates and between runs.
When the reduction ends, the reduced effect is stored as a Program of its own
(source "effect", the original's seed), so it has a permalink like any other.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

from django.db import close_old_connections, transaction
from django.utils import timezone

from generator import lambda_chan
from runners.campaigns import quotas
from runners.campaigns.models import Execution, Finding, Program, Reduction
from runners.campaigns.programs import (
    build_from_effect,
    program_id,
    program_object,
    render_seed_for,
    store_program,
)
from runners.campaigns.queueing import (
    COMPILE_ALLOWANCE_S,
    RUN_REDUCTION,
    cancel_jobs,
    enqueue_or_fail,
)
from runners.campaigns.selectors import original_runs
from runners.campaigns.services import (
    MAX_CAMPAIGN_REPETITIONS,
    MAX_TIMEOUT_S,
    check_range,
    resolve_toolchain,
)
from runners.engine.reduce import Budget, Reducer, ReductionState
from runners.engine.run_target import make_target
from runners.engine.sandbox import get_sandbox

MAX_JOBS = 16
MAX_CANDIDATES = 5_000
MAX_SECONDS = 7 * 24 * 3600.0


class ReductionNotQueued(RuntimeError):
    """Redis refused a reduction's job; the row is marked failed (enqueue_or_fail), and
    `resume_reduction` enqueues it again later."""

    def __init__(self, reduction: Reduction, error: Exception) -> None:
        super().__init__(f"reduction {reduction.pk} was not queued: the queue is unavailable "
                         f"({error})")  # fmt: skip
        self.reduction = reduction


def start_reduction(
    *,
    finding: Finding,
    program: Program | None = None,
    version: str | None = None,
    timeout_s: float | None = None,
    repetitions: int | None = None,
    hang_quiet_s: float | None = None,
    jobs: int = 2,
    baseline_runs: int = 16,
    keep_ratio: float = 0.5,
    alpha: float = 0.05,
    max_candidates: int = 200,
    max_seconds: float = 3600.0,
    enqueue: bool = True,
    owner: object | None = None,
) -> Reduction:
    """Reduce `finding`'s example program (or `program`) on the toolchain it failed on.

    Without `program`: the finding's example when a campaign ran it here, else the
    program of the finding's latest campaign execution.

    Unset settings come from the campaign where the program showed the finding
    (its toolchain, repetitions, timeout and quiet period; its schedule perturbation,
    always):
    a reduction under other settings
    would reduce another experiment. `enqueue=False` only creates the row; the
    caller runs `run_reduction(pk)` itself (`manage.py reduce`). ReductionNotQueued when
    Redis refuses the job (the row is kept, marked failed, for `resume_reduction`).
    """
    program = program or _reducible_program(finding)
    if program is None:
        raise ValueError(f"finding {finding.pk} has no example program to reduce")
    original = original_runs(program)
    if version is None and original is None:
        raise ValueError(
            f"program {program.id} showed no finding in a campaign: name the toolchain to run it"
            " on (manage.py reduce --toolchain VERSION)"
        )
    toolchain = resolve_toolchain(finding.language, version or original.toolchain_id)
    timeout_s = timeout_s if timeout_s is not None else (original.timeout_s if original else 10.0)
    repetitions = (
        repetitions if repetitions is not None else (original.repetitions if original else 10)
    )
    if hang_quiet_s is None and original is not None and original.hang_quiet_s is not None:
        hang_quiet_s = min(original.hang_quiet_s, timeout_s)
    check_range("timeout_s", timeout_s, 0.1, MAX_TIMEOUT_S)
    if hang_quiet_s is not None:
        check_range("hang_quiet_s", hang_quiet_s, 0.1, timeout_s)
    check_range("repetitions", repetitions, 1, MAX_CAMPAIGN_REPETITIONS)
    check_range("jobs", jobs, 1, MAX_JOBS)
    check_range("baseline_runs", baseline_runs, 1, 1_000)
    check_range("keep_ratio", keep_ratio, 0.01, 1.0)
    check_range("alpha", alpha, 0.001, 0.5)
    check_range("max_candidates", max_candidates, 1, MAX_CANDIDATES)
    check_range("max_seconds", max_seconds, 1, MAX_SECONDS)
    quotas.check_reduction(owner=owner, max_seconds=max_seconds)
    # A program found under schedule perturbation is reduced under the same.
    pct_depth = original.pct_depth if original is not None else None
    program_object(program)  # fails now, not in a worker, if it cannot be built any more
    from redis.exceptions import RedisError

    reduction: Reduction | None = None
    try:
        with transaction.atomic():
            reduction = Reduction.objects.create(
                finding=finding,
                program=program,
                language=finding.language,
                toolchain_id=toolchain.id,
                toolchain_description=toolchain.describe(),
                signature=finding.signature,
                timeout_s=float(timeout_s),
                repetitions=repetitions,
                pct_depth=pct_depth,
                hang_quiet_s=hang_quiet_s,
                jobs=jobs,
                baseline_runs=baseline_runs,
                keep_ratio=keep_ratio,
                alpha=alpha,
                max_candidates=max_candidates,
                max_seconds=float(max_seconds),
                owner=owner,
            )
            if enqueue:
                _enqueue(reduction)
    except RedisError as exc:  # from the on_commit enqueue: the row is committed
        if reduction is None:
            raise
        raise ReductionNotQueued(reduction, exc) from exc
    return reduction


def needs_toolchain(finding: Finding) -> bool:
    """Whether reducing `finding` needs a toolchain named: no campaign here ran the
    program it would reduce (a finding loaded with the documentation)."""
    example = finding.example
    if example is None:
        return False
    # _reducible_program's and original_runs' questions, by existence only (original_runs
    # reads every run of the program).
    campaigns = Execution.objects.filter(campaign__isnull=False, target__isnull=False)
    ran = campaigns.filter(program=example, finding__isnull=False) | campaigns.filter(
        finding=finding
    )
    return not ran.exists()


def _reducible_program(finding: Finding) -> Program | None:
    """The finding's example, unless no campaign ran it here (a program loaded with the
    documentation, say): then the program of its latest campaign execution, whose
    toolchain and settings are known."""
    example = finding.example
    if example is not None and original_runs(example) is not None:
        return example
    latest = (
        Execution.objects.filter(finding=finding, campaign__isnull=False)
        .select_related("program")
        .order_by("-created_at", "-id")
        .first()
    )
    return latest.program if latest is not None else example


def _enqueue(reduction: Reduction) -> None:
    job_id = f"reduce-{reduction.pk}-{uuid.uuid4().hex[:8]}"
    reduction.rq_job_id = job_id
    reduction.save(update_fields=["rq_job_id"])
    pk = reduction.pk
    transaction.on_commit(
        lambda: enqueue_or_fail(
            Reduction.objects.filter(pk=pk),
            RUN_REDUCTION,
            pk,
            job_id=job_id,
            # The wall-time budget, the final measurement, compiles: RQ must not cut it first.
            job_timeout=int(reduction.max_seconds * 1.5 + COMPILE_ALLOWANCE_S),
            description=f"reduce {reduction.program_id} on {reduction.toolchain_id}",
        )
    )


def resume_reduction(*, reduction: Reduction, enqueue: bool = True) -> Reduction:
    """Go on with a failed or cancelled reduction from its saved state: queued again, and
    enqueued once the transaction commits unless `enqueue` is False (the caller then runs
    `run_reduction(pk)` itself). ValueError for a reduction that is done;
    ReductionNotQueued when Redis refuses the job."""
    from redis.exceptions import RedisError

    try:
        with transaction.atomic():
            reduction = Reduction.objects.select_for_update().get(pk=reduction.pk)
            if reduction.status == Reduction.Status.DONE:
                raise ValueError(f"reduction {reduction.pk} is done: nothing to resume")
            reduction.status = Reduction.Status.QUEUED
            reduction.last_error = ""
            reduction.finished_at = None
            reduction.save(update_fields=["status", "last_error", "finished_at"])
            if enqueue:
                _enqueue(reduction)
    except RedisError as exc:  # from the on_commit enqueue: marked failed again
        raise ReductionNotQueued(reduction, exc) from exc
    return reduction


def cancel_reduction(*, reduction: Reduction) -> Reduction:
    """Stop a queued or running reduction; it keeps the smallest program found so far."""
    with transaction.atomic():
        updated = Reduction.objects.filter(
            pk=reduction.pk, status__in=(Reduction.Status.QUEUED, Reduction.Status.RUNNING)
        ).update(status=Reduction.Status.CANCELLED, finished_at=timezone.now())
    if updated and reduction.rq_job_id:
        cancel_jobs([reduction.rq_job_id])
    reduction.refresh_from_db()
    _store_reduced(reduction)
    return reduction


def summary(reduction: Reduction) -> dict[str, Any]:
    """A reduction as a report shows it: sizes, rates before and after, the steps kept."""
    state = reduction.state or {}
    tried = state.get("tried", [])
    return {
        "reduction": reduction.pk,
        "finding": reduction.finding_id,
        "status": reduction.status,
        "toolchain": reduction.toolchain_id,
        "repetitions": reduction.repetitions,
        "timeout_s": reduction.timeout_s,
        "original": {
            "id": reduction.program_id,
            "effect": state.get("original"),
            "size": state.get("original_size"),
        },  # fmt: skip
        "reduced": {
            "id": reduction.reduced_id,
            "effect": state.get("current"),
            "size": state.get("current_size"),
        },  # fmt: skip
        "baseline": [state.get("baseline_failures", 0), state.get("baseline_runs", 0)],
        "final": [state.get("final_failures", 0), state.get("final_runs", 0)],
        "candidates": len(tried),
        "kept": [s for s in tried if s["decision"] == "keeps"],
        "stop_reason": state.get("stop_reason", ""),
        "elapsed_s": state.get("elapsed_s"),
        "finished_at": reduction.finished_at.isoformat() if reduction.finished_at else None,
    }


def _render_seed(program: lambda_chan.Program) -> int:
    return render_seed_for(program_id(lambda_chan.to_text(program)))


def _store_reduced(reduction: Reduction) -> None:
    """The current smallest program, stored with its permalink, when it is smaller."""
    state = reduction.state
    if not state or state["current"] == state["original"]:
        return
    built = build_from_effect(state["current"], reduction.program.seed)
    reduction.reduced = store_program(built)
    reduction.save(update_fields=["reduced"])


def run_reduction(
    reduction_id: int, *, progress: Callable[[ReductionState], None] | None = None
) -> dict[str, Any]:
    """The RQ job: run (or resume) a Reduction until it ends, is cancelled or fails.

    `progress` sees every saved state too (the command prints it).
    """
    close_old_connections()
    reduction = Reduction.objects.select_related("program").get(pk=reduction_id)
    if reduction.status not in (Reduction.Status.QUEUED, Reduction.Status.RUNNING):
        return {"reduction": reduction.pk, "skipped": f"already {reduction.status}"}
    Reduction.objects.filter(pk=reduction.pk).update(status=Reduction.Status.RUNNING)

    def save(state: ReductionState) -> None:
        Reduction.objects.filter(pk=reduction.pk).update(state=state.as_dict())
        if progress:
            progress(state)

    def cancelled() -> bool:
        status = Reduction.objects.filter(pk=reduction.pk).values_list("status", flat=True)
        return status.first() != Reduction.Status.RUNNING

    try:
        target = make_target(
            reduction.language,
            reduction.toolchain_id,
            repetitions=reduction.repetitions,
            pct_depth=reduction.pct_depth,
        )
        reducer = Reducer(
            target=target,
            sandbox=get_sandbox(language=target.language),
            signature=reduction.signature,
            seed=reduction.program.seed,
            render_seed_of=_render_seed,
            timeout_s=reduction.timeout_s,
            quiet_s=reduction.hang_quiet_s,
            baseline_runs=reduction.baseline_runs,
            keep_ratio=reduction.keep_ratio,
            alpha=reduction.alpha,
            jobs=reduction.jobs,
            budget=Budget(reduction.max_candidates, reduction.max_seconds),
            on_state=save,
            should_stop=cancelled,
        )
        resumed = ReductionState.from_dict(reduction.state) if reduction.state else None
        state = reducer.run(program_object(reduction.program), resumed)
    except BaseException as exc:
        Reduction.objects.filter(pk=reduction.pk, status=Reduction.Status.RUNNING).update(
            status=Reduction.Status.FAILED,
            last_error=f"{type(exc).__name__}: {exc}"[:8000],
            finished_at=timezone.now(),
        )
        reduction.refresh_from_db()
        _store_reduced(reduction)
        raise
    reduction.refresh_from_db()
    if state.done and reduction.status == Reduction.Status.RUNNING:
        reduction.status = Reduction.Status.DONE
        reduction.finished_at = timezone.now()
        reduction.save(update_fields=["status", "finished_at"])
    _store_reduced(reduction)
    return {
        "reduction": reduction.pk,
        "status": reduction.status,
        "size": [state.original_size, state.current_size],
    }

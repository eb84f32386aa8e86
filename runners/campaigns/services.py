"""Campaign services: every write to campaigns, executions, findings, reproductions.

Views, commands and jobs call these (keyword-only arguments, ValueError with a
message a person can act on for bad input); they never write models directly.

- `create_campaign` / `campaign_from_programs`: validate, resolve toolchains,
  create targets and chunks (fixed sizes, or sized as they are claimed:
  runners.campaigns.chunk_sizing), and enqueue one RQ job per chunk once the
  transaction has committed (a worker must find the rows it is given).
- `cancel_campaign`, `pause_campaign`, `resume_campaign`: the life of a
  campaign after that; jobs see a cancel or pause between two programs and
  stop, keeping what they recorded. Chunks whose worker died are requeued by
  runners.campaigns.chunks.requeue_stale_chunks.
- `record_execution`: one verdict into the database (Execution, its Program,
  the Finding of its signature), idempotent per (target, index);
  `record_executions`: many verdicts that make no finding, in one transaction.
- `reproduce`: re-run one stored program K times on a chosen target.
- `record_bisection`: a finding's last bad / first good release.

Programs are built and stored by runners.campaigns.programs; reads live in
runners.campaigns.selectors. Jobs are enqueued by dotted path
(runners.campaigns.queueing), so this module never imports runners.campaigns.jobs.
"""

from __future__ import annotations

import logging
import re
import uuid
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone

from generator import effects as effects_mod
from generator.capabilities import FULL, Capabilities, InexpressibleSettings
from generator.pipeline import GENERATOR_VERSION
from generator.settings import PRESETS, GeneratorSettings, settings_for
from runners.campaigns import chunk_sizing, quotas
from runners.campaigns.chunks import assign_job, finish_campaign_if_complete
from runners.campaigns.models import (
    FINDING_OUTCOMES,
    MAX_ATTEMPT_CHARS,
    MAX_DUMP_CHARS,
    MAX_SIGNATURE_CHARS,
    MAX_STREAM_CHARS,
    Campaign,
    CampaignTarget,
    Chunk,
    Execution,
    Finding,
    OutcomeCount,
    Program,
    Reproduction,
)
from runners.campaigns.programs import program_object
from runners.campaigns.queueing import (
    COMPILE_ALLOWANCE_S,
    RUN_REPRODUCTION,
    cancel_jobs,
    enqueue_or_fail,
    interactive_queue_name,
)
from runners.engine import run_alone, run_records, run_target
from runners.engine.bisect import Bisection
from runners.engine.sandbox import BACKENDS
from runners.engine.toolchains import Toolchain, ToolchainUnavailable, find_toolchain
from runners.logs import fields
from runners.targets import get_target, runnable_names, shared_capabilities

log = logging.getLogger("chanfuzz.campaigns")

MAX_COUNT = 1_000_000
MAX_CHUNK_SIZE = 1_000
MAX_TIMEOUT_S = 3_600.0
# Repetitions of a program's body per process in a campaign or a reproduction (and in
# the /p/<id> sources and bundles); the playground has its own, smaller bound.
MAX_CAMPAIGN_REPETITIONS = run_target.MAX_REPETITIONS
MAX_TIMES = 10_000
MAX_TRIAGE_RETRIES = run_alone.MAX_TRIAGE_RETRIES  # the engine's bound, for the forms
MAX_RUNS = run_alone.MAX_RUNS

# ---------------------------------------------------------------- executions


def _bounded(text: str | None, limit: int) -> str:
    if not text:
        return ""
    if len(text) <= limit:
        return text
    return text[:limit] + f"\n… [{len(text) - limit} more characters dropped]"


_CUT = re.compile(r"\n… \[\d+ more characters dropped\]$")


def was_cut(text: str) -> bool:
    """Whether a stored output or dump was cut to its bound (`_bounded`)."""
    return bool(_CUT.search(text))


def _attempt_json(a: run_records.Attempt) -> dict[str, Any]:
    return {
        "timeout_s": a.timeout_s,
        "outcome": str(a.outcome),
        "exit_code": a.exit_code,
        "signal": a.signal,
        "timed_out": a.timed_out,
        "quiet": a.quiet,
        "threads": a.threads,
        "group": a.group,
        "duration_s": round(a.duration_s, 3),
        "stdout": _bounded(a.stdout, MAX_ATTEMPT_CHARS),
        "stderr": _bounded(a.stderr, MAX_ATTEMPT_CHARS),
        "dump": _bounded(a.dump, MAX_ATTEMPT_CHARS),
    }


def _upsert_finding(
    *,
    signature: str,
    outcome: str,
    reason: str,
    language: str,
    program: Program,
    confirmed: bool,
    now: datetime,
) -> Finding:
    finding, created = Finding.objects.get_or_create(
        signature=signature,
        defaults={
            "outcome": outcome,
            "language": language,
            "title": reason,
            "first_seen": now,
            "last_seen": now,
            "example": program,
        },
    )
    if created:
        log.info(
            "new finding %d: %s", finding.pk, reason,
            extra=fields(
                "finding_new", finding=finding.pk, outcome=outcome, language=language,
                signature=signature, program=program.pk,
            ),
        )  # fmt: skip
    # Counted before this execution is inserted: is the program new to the finding?
    new_program = not Execution.objects.filter(finding=finding, program=program).exists()
    updates: dict[str, Any] = {
        "execution_count": F("execution_count") + 1,
        "last_seen": now,
        "confirmed_hangs": F("confirmed_hangs") + int(confirmed),
    }
    if new_program:
        updates["program_count"] = F("program_count") + 1
    Finding.objects.filter(pk=finding.pk).update(**updates)
    if not created and (
        finding.example_id is None
        or Program.objects.filter(
            pk=finding.example_id, effect_size__gt=program.effect_size
        ).exists()
    ):
        Finding.objects.filter(pk=finding.pk).update(example=program)
    return finding


def _execution_row(
    *,
    program: Program,
    index: int,
    result: run_records.ProgramRun | None,
    language: str,
    target: CampaignTarget | None,
    reproduction: Reproduction | None = None,
) -> Execution:
    """The unsaved Execution of one verdict (its finding left to the caller)."""
    row = Execution(
        target=target,
        campaign_id=target.campaign_id if target is not None else None,
        reproduction=reproduction,
        program=program,
        index=index,
    )
    if result is None:
        row.outcome, row.reason = "skipped", f"{language} cannot express this program"
        return row
    verdict = result.classification
    first = result.attempts[0] if result.attempts else None
    row.outcome = str(verdict.outcome)
    row.reason = verdict.reason
    row.signature = verdict.signature[:MAX_SIGNATURE_CHARS]
    row.hang_confirmed = result.hang_confirmed
    row.runs = result.runs
    row.compile_output = _bounded(result.compile_output, MAX_STREAM_CHARS)
    row.attempts = [_attempt_json(a) for a in result.attempts]
    if first is not None:
        row.exit_code, row.signal = first.exit_code, first.signal
        row.duration_s = first.duration_s
        row.stdout = _bounded(first.stdout, MAX_STREAM_CHARS)
        row.stderr = _bounded(first.stderr, MAX_STREAM_CHARS)
        row.dump = _bounded(first.dump, MAX_DUMP_CHARS)
    return row


def record_executions(
    *,
    verdicts: Sequence[tuple[Program, int, run_records.ProgramRun | None]],
    language: str,
    target: CampaignTarget,
) -> int:
    """Store many verdicts of a campaign target that are no finding (`Classification.is_finding`)
    in one transaction; (program, index, result) each. Indices recorded already are
    skipped, as by record_execution. Returns how many were stored.

    A chunk of a fast target records hundreds of verdicts a second: one transaction
    each (a check, an insert and a count) was a fifth of a Racket chunk's time.
    """
    if any(result is not None and result.classification.is_finding for _, _, result in verdicts):
        raise ValueError("record_executions stores no finding: use record_execution")
    try:
        with transaction.atomic():
            indices = [index for _, index, _ in verdicts]
            known = set(
                Execution.objects.filter(target=target, index__in=indices).values_list(
                    "index", flat=True
                )
            )
            rows = [
                _execution_row(program=program, index=index, result=result, language=language,
                               target=target)
                for program, index, result in verdicts
                if index not in known
            ]  # fmt: skip
            # bulk_create skips Execution.save, which counts each row: counted here, in
            # the same transaction.
            Execution.objects.bulk_create(rows)
            for outcome in {r.outcome for r in rows}:
                OutcomeCount.add(
                    target_id=target.pk,
                    campaign_id=target.campaign_id,
                    outcome=outcome,
                    n=sum(r.outcome == outcome for r in rows),
                )
            return len(rows)
    except IntegrityError:
        # Another job recorded one of them meanwhile (a requeued chunk): one at a time.
        return sum(
            record_execution(program=program, index=index, result=result, language=language,
                             target=target) is not None
            for program, index, result in verdicts
        )  # fmt: skip


def record_execution(
    *,
    program: Program,
    index: int,
    result: run_records.ProgramRun | None,
    language: str,
    target: CampaignTarget | None = None,
    reproduction: Reproduction | None = None,
) -> Execution | None:
    """Store one verdict; None when (target, index) was recorded already (a retried chunk).

    `result` None records a program the target's language cannot express (skipped).
    """
    now = timezone.now()
    try:
        with transaction.atomic():
            if target is not None and Execution.objects.filter(target=target, index=index).exists():
                return None
            row = _execution_row(
                program=program, index=index, result=result, language=language, target=target,
                reproduction=reproduction,
            )  # fmt: skip
            signature = row.signature
            if result is not None and row.outcome in FINDING_OUTCOMES and signature:
                row.finding = _upsert_finding(
                    signature=signature,
                    outcome=row.outcome,
                    reason=row.reason,
                    language=language,
                    program=program,
                    confirmed=bool(result.hang_confirmed),
                    now=now,
                )
            row.save()
            return row
    except IntegrityError:
        # Another worker recorded the same (target, index) between our check and insert.
        if target is not None and Execution.objects.filter(target=target, index=index).exists():
            return None
        raise


# ---------------------------------------------------------------- campaigns


class QueueUnavailable(RuntimeError):
    """Redis refused a campaign's jobs. After `create_campaign` the rows are committed and
    `resume_campaign` enqueues them later; after `resume_campaign` (`created` False) the
    campaign is as it was before, and resuming again will do."""

    def __init__(self, campaign: Campaign, error: Exception, *, created: bool = True) -> None:
        what = "was created but not queued" if created else "was not resumed"
        super().__init__(
            f"campaign {campaign.pk} {what} ({error}); "
            f"start Redis and run `manage.py campaign resume {campaign.pk}`"
        )
        self.campaign = campaign


def check_range(name: str, value: float, low: float, high: float) -> None:
    """ValueError naming `name` unless low <= value <= high (a number, not a bool)."""
    if isinstance(value, bool) or not isinstance(value, int | float) or not low <= value <= high:
        raise ValueError(f"{name} must be from {low:g} to {high:g}, not {value!r}")


def resolve_toolchain(language: str, version: str | None) -> Toolchain:
    """The installed toolchain for a target; ValueError naming what is missing and why."""
    if language not in runnable_names():
        raise ValueError(
            f"unknown language {language!r}: choose one of {', '.join(runnable_names())}"
        )
    try:
        return find_toolchain(language, version or None)
    except ToolchainUnavailable as missing:
        raise ValueError(f"target {language} {version or '(newest)'}: {missing.reason}") from None


def _create(
    *,
    name: str,
    heuristic: str,
    settings: GeneratorSettings,
    targets: Sequence[tuple[str, str | None]],
    count: int,
    timeout_s: float,
    repetitions: int,
    seed: int,
    chunk_size: int,
    triage_retries: int,
    runs: int,
    hang_quiet_s: float | None,
    value_oracle: bool,
    pct_depth: int | None,
    fixed_programs: list[dict[str, Any]],
    sandbox: str,
    enqueue: bool,
    owner: object | None,
) -> Campaign:
    check_range("count", count, 1, MAX_COUNT)
    check_range("timeout_s", timeout_s, 0.1, MAX_TIMEOUT_S)
    check_range("repetitions", repetitions, 1, MAX_CAMPAIGN_REPETITIONS)
    check_range("chunk_size", chunk_size, chunk_sizing.AUTO, MAX_CHUNK_SIZE)
    check_range("triage_retries", triage_retries, 0, MAX_TRIAGE_RETRIES)
    check_range("runs", runs, 1, MAX_RUNS)
    if hang_quiet_s is not None:
        check_range("hang_quiet_s", hang_quiet_s, 0.1, timeout_s)
    if sandbox and sandbox not in BACKENDS:  # stored, then refused by every chunk's job
        raise ValueError(f"unknown sandbox {sandbox!r}: choose one of {', '.join(BACKENDS)}")
    if isinstance(seed, bool) or not isinstance(seed, int) or abs(seed) >= 2**62:
        raise ValueError(f"seed must be a whole number below 2**62 in size, not {seed!r}")
    if not targets:
        raise ValueError("a campaign needs at least one target (language, version)")
    quotas.check_campaign(
        owner=owner, count=count, timeout_s=timeout_s, repetitions=repetitions, runs=runs
    )
    resolved: list[tuple[str, str, Toolchain]] = []
    for language, version in targets:
        toolchain = resolve_toolchain(language, version)
        if any(t.id == toolchain.id for _, _, t in resolved):
            raise ValueError(f"target {toolchain.id} is given twice")
        resolved.append((language, version or "", toolchain))
    for language, _, _ in resolved:
        get_target(language).pct_options(pct_depth)  # every target must be able to yield
    # Programs are generated for what every target can express: none is refused.
    capabilities = shared_capabilities([language for language, _, _ in resolved])
    if not fixed_programs:
        try:
            capabilities.restrict(settings)
        except InexpressibleSettings as exc:
            languages = ", ".join(language for language, _, _ in resolved)
            raise ValueError(f"for {languages}: {exc}") from None
    from redis.exceptions import RedisError

    campaign: Campaign | None = None
    try:
        with transaction.atomic():
            campaign = _insert_rows(
                name=name, heuristic=heuristic, settings=settings, count=count,
                timeout_s=timeout_s, repetitions=repetitions, seed=seed, chunk_size=chunk_size,
                triage_retries=triage_retries, runs=runs, hang_quiet_s=hang_quiet_s,
                value_oracle=value_oracle, pct_depth=pct_depth, fixed_programs=fixed_programs,
                sandbox=sandbox,
                resolved=resolved, enqueue=enqueue, capabilities=capabilities, owner=owner,
            )  # fmt: skip
    except RedisError as exc:
        # Raised by an on_commit enqueue: the rows are committed by then.
        if campaign is None:
            raise
        raise QueueUnavailable(campaign, exc) from exc
    log.info(
        "campaign %d created: %d programs on %s",
        campaign.pk, count, ", ".join(t.id for _, _, t in resolved),
        extra=fields(
            "campaign_created", campaign=campaign.pk, heuristic=heuristic, programs=count,
            targets=[t.id for _, _, t in resolved], owner=getattr(owner, "pk", None),
            queued=enqueue,
        ),
    )  # fmt: skip
    return campaign


def _insert_rows(
    *,
    name: str,
    heuristic: str,
    settings: GeneratorSettings,
    count: int,
    timeout_s: float,
    repetitions: int,
    seed: int,
    chunk_size: int,
    triage_retries: int,
    runs: int,
    hang_quiet_s: float | None,
    value_oracle: bool,
    pct_depth: int | None,
    fixed_programs: list[dict[str, Any]],
    sandbox: str,
    resolved: list[tuple[str, str, Toolchain]],
    enqueue: bool,
    capabilities: Capabilities,
    owner: object | None,
) -> Campaign:
    campaign = Campaign.objects.create(
        owner=owner,
        capabilities={} if capabilities == FULL else capabilities.as_dict(),
        name=name.strip()[:200] or f"{heuristic} × {count}",
        heuristic=heuristic,
        settings=settings.as_dict(),
        seed=seed,
        program_count=count,
        timeout_s=float(timeout_s),
        repetitions=repetitions,
        chunk_size=chunk_size,
        triage_retries=triage_retries,
        runs=runs,
        hang_quiet_s=hang_quiet_s,
        value_oracle=value_oracle,
        pct_depth=pct_depth,
        generator_version=GENERATOR_VERSION,
        fixed_programs=fixed_programs,
        sandbox=sandbox,
    )
    for language, version, toolchain in resolved:
        target = CampaignTarget.objects.create(
            campaign=campaign,
            language=language,
            requested_version=version,
            toolchain_id=toolchain.id,
            toolchain_description=toolchain.describe(),
        )
        if chunk_size == chunk_sizing.AUTO:
            ranges = chunk_sizing.first_ranges(count)
        else:
            ranges = [(s, min(s + chunk_size, count)) for s in range(0, count, chunk_size)]
        Chunk.objects.bulk_create(Chunk(target=target, start=s, end=e) for s, e in ranges)
    if enqueue:
        for chunk in Chunk.objects.filter(target__campaign=campaign).select_related(
            "target__campaign"
        ):
            assign_job(chunk)
    return campaign


def create_campaign(
    *,
    name: str = "",
    heuristic: str = "A",
    weights: Mapping[str, int] | None = None,
    sizes: Mapping[str, int] | None = None,
    targets: Sequence[tuple[str, str | None]],
    count: int,
    timeout_s: float = 10.0,
    repetitions: int = 10,
    seed: int = 0,
    chunk_size: int = chunk_sizing.AUTO,
    triage_retries: int = 2,
    runs: int = 1,
    hang_quiet_s: float | None = None,
    value_oracle: bool = True,
    pct_depth: int | None = None,
    buffered: bool = False,
    sandbox: str = "",
    enqueue: bool = True,
    owner: object | None = None,
) -> Campaign:
    """A campaign of `count` generated programs on every target, queued as chunk jobs.

    `heuristic` names a preset (A–F); `weights` (rule name → weight, e.g.
    {"g_select": 15}) and `sizes` (e.g. {"max_depth": 4}) override fields of
    it; with weights the campaign's heuristic label is "custom". Targets are
    (language, version or None for the newest installed). `enqueue=False`
    creates the rows only (resume_campaign enqueues them later). `owner`, a user,
    is held to their quotas (runners.campaigns.quotas: QuotaExceeded). `pct_depth`
    perturbs schedules (programs yield before pct_depth - 1 communication steps).
    `buffered` goes beyond the paper (buffered channels, close and range, as far as
    every target can write them): it rides in the stored settings, so chunks
    regenerate the same programs. `chunk_size` programs make a chunk job; AUTO (the
    default) sizes each chunk from what the target's earlier chunks cost. `runs` runs
    each program up to that many times, a process each, while it ends clean
    (runners.engine.run_alone.Triage): for races a cold runtime meets now and then.
    """
    overrides = {**(weights or {}), **(sizes or {}), "buffered": buffered}
    settings = settings_for(heuristic, **overrides)
    label = "custom" if weights else heuristic.upper()
    return _create(
        name=name,
        heuristic=label,
        settings=settings,
        targets=targets,
        count=count,
        timeout_s=timeout_s,
        repetitions=repetitions,
        seed=seed,
        chunk_size=chunk_size,
        triage_retries=triage_retries,
        runs=runs,
        hang_quiet_s=hang_quiet_s,
        value_oracle=value_oracle,
        pct_depth=pct_depth,
        fixed_programs=[],
        sandbox=sandbox,
        enqueue=enqueue,
        owner=owner,
    )


def campaign_from_programs(
    *,
    name: str = "",
    effects: Sequence[str],
    targets: Sequence[tuple[str, str | None]],
    timeout_s: float = 10.0,
    repetitions: int = 10,
    seed: int = 0,
    chunk_size: int = chunk_sizing.AUTO,
    triage_retries: int = 2,
    runs: int = 1,
    hang_quiet_s: float | None = None,
    value_oracle: bool = True,
    pct_depth: int | None = None,
    sandbox: str = "",
    enqueue: bool = True,
    owner: object | None = None,
) -> Campaign:
    """A campaign of given programs: effect i is synthesised with seed `seed + i`.

    The effects are not checked for termination: this is how a known
    deadlock, or a finding's program, is run on more targets.
    """
    fixed = []
    for i, text in enumerate(effects):
        try:
            effect = effects_mod.parse(text)
        except ValueError as exc:
            raise ValueError(f"effect {i + 1}: {exc}") from None
        fixed.append({"effect": effects_mod.to_text(effect), "seed": seed + i})
    if not fixed:
        raise ValueError("a campaign of given programs needs at least one effect")
    return _create(
        name=name,
        heuristic="fixed",
        settings=PRESETS["A"],
        targets=targets,
        count=len(fixed),
        timeout_s=timeout_s,
        repetitions=repetitions,
        seed=seed,
        chunk_size=chunk_size,
        triage_retries=triage_retries,
        runs=runs,
        hang_quiet_s=hang_quiet_s,
        value_oracle=value_oracle,
        pct_depth=pct_depth,
        fixed_programs=fixed,
        sandbox=sandbox,
        enqueue=enqueue,
        owner=owner,
    )


def _stop(campaign: Campaign, status: str) -> Campaign:
    with transaction.atomic():
        campaign = Campaign.objects.select_for_update().get(pk=campaign.pk)
        if campaign.status in (Campaign.Status.DONE, Campaign.Status.CANCELLED):
            return campaign
        campaign.status = status
        if status == Campaign.Status.CANCELLED:
            campaign.finished_at = timezone.now()
        campaign.save(update_fields=["status", "finished_at"])
        job_ids = list(
            Chunk.objects.filter(target__campaign=campaign, state=Chunk.State.QUEUED)
            .exclude(rq_job_id="")
            .values_list("rq_job_id", flat=True)
        )
        transaction.on_commit(lambda: cancel_jobs(job_ids))
    log.info(
        "campaign %d %s", campaign.pk, status,
        extra=fields(f"campaign_{status}", campaign=campaign.pk, jobs_cancelled=len(job_ids)),
    )  # fmt: skip
    return campaign


def cancel_campaign(*, campaign: Campaign) -> Campaign:
    """Stop a campaign for good; running chunks stop after their current program."""
    return _stop(campaign, Campaign.Status.CANCELLED)


def pause_campaign(*, campaign: Campaign) -> Campaign:
    """Stop a campaign until resume_campaign; nothing recorded is lost."""
    return _stop(campaign, Campaign.Status.PAUSED)


def delete_campaign(*, campaign: Campaign) -> None:
    """Delete a stopped campaign with its targets, chunks and executions.

    Its programs stay (their permalinks may be in bug reports), and so do its
    findings (a finding is every execution with its signature, campaigns'
    and reproductions' alike). A queued or running campaign is refused, and so is one
    whose chunk is still finishing its current program: the chunk would write
    executions of a campaign that is gone.
    """
    with transaction.atomic():
        campaign = Campaign.objects.select_for_update().get(pk=campaign.pk)
        if campaign.is_active:
            raise ValueError(
                f"campaign {campaign.pk} is {campaign.status}: pause or cancel it, then delete it"
            )
        if Chunk.objects.filter(target__campaign=campaign, state=Chunk.State.RUNNING).exists():
            raise ValueError(
                f"a chunk of campaign {campaign.pk} is still finishing its current program; "
                "delete it again in a moment"
            )
        job_ids = list(
            Chunk.objects.filter(target__campaign=campaign)
            .exclude(rq_job_id="")
            .values_list("rq_job_id", flat=True)
        )
        pk = campaign.pk
        campaign.delete()
        transaction.on_commit(lambda: cancel_jobs(job_ids))
    log.info("campaign %d deleted", pk, extra=fields("campaign_deleted", campaign=pk))


def resume_campaign(*, campaign: Campaign) -> Campaign:
    """Enqueue every unfinished chunk again (paused, cancelled, or a failed chunk's campaign).

    Chunks still running with a fresh heartbeat are left alone; failed chunks
    start over with their attempts reset. Executions already recorded are skipped.
    QueueUnavailable when Redis refuses the jobs, with the campaign's status put back: a
    campaign marked queued for jobs that do not exist could be neither run nor deleted.
    Its chunks stay queued, as a paused campaign's are, for the next resume.
    """
    from redis.exceptions import RedisError

    before: dict[str, object] = {}
    try:
        with transaction.atomic():
            campaign = _resume_rows(campaign, before)
    except RedisError as exc:  # from the on_commit enqueues: the rows are committed
        Campaign.objects.filter(pk=campaign.pk).update(**before)
        raise QueueUnavailable(campaign, exc, created=False) from exc
    campaign.refresh_from_db()
    return campaign


def _resume_rows(campaign: Campaign, before: dict[str, object]) -> Campaign:
    """resume_campaign's writes, in its transaction; `before` gets the campaign's status
    fields as they were."""
    campaign = Campaign.objects.select_for_update().get(pk=campaign.pk)
    before.update(
        status=campaign.status,
        finished_at=campaign.finished_at,
        status_note=campaign.status_note,
    )
    chunks = list(
        Chunk.objects.select_related("target__campaign").filter(
            target__campaign=campaign, state__in=[Chunk.State.QUEUED, Chunk.State.FAILED]
        )
    )
    started = Execution.objects.filter(campaign=campaign).exists()
    campaign.status = Campaign.Status.RUNNING if started else Campaign.Status.QUEUED
    campaign.finished_at = None
    campaign.status_note = ""
    campaign.save(update_fields=["status", "finished_at", "status_note"])
    for chunk in chunks:
        if chunk.state == Chunk.State.FAILED:
            chunk.attempts = 0
        chunk.state = Chunk.State.QUEUED
        chunk.save(update_fields=["attempts", "state"])
        chunk.target.campaign = campaign
        assign_job(chunk)
    if not chunks:
        finish_campaign_if_complete(campaign_id=campaign.pk)
    return campaign


def record_bisection(*, finding: Finding, bisection: Bisection) -> Finding:
    """Store `bisection` (last bad / first good release) on `finding`; its page shows it."""
    finding.bisection = bisection.as_dict()
    finding.bisected_at = timezone.now()
    finding.save(update_fields=["bisection", "bisected_at"])
    return finding


# ---------------------------------------------------------------- reproductions


def reproduce(
    *,
    program: Program,
    language: str,
    version: str | None = None,
    times: int,
    timeout_s: float = 10.0,
    repetitions: int = 10,
    pct_depth: int | None = None,
    enqueue: bool = True,
    owner: object | None = None,
) -> Reproduction:
    """Re-run `program` `times` times on one target and record how often it crashes or hangs
    (with the schedule perturbation of `pct_depth`, as the campaign that found it had).

    Queued as an RQ job after commit. `enqueue=False` creates the row only: the
    caller then runs `runners.campaigns.jobs.run_reproduction(repro.pk)` here and
    now (no Redis needed: `manage.py reproduce`).
    """
    check_range("times", times, 1, MAX_TIMES)
    check_range("timeout_s", timeout_s, 0.1, MAX_TIMEOUT_S)
    check_range("repetitions", repetitions, 1, MAX_CAMPAIGN_REPETITIONS)
    quotas.check_reproduction(owner=owner, times=times, timeout_s=timeout_s,
                              repetitions=repetitions)  # fmt: skip
    toolchain = resolve_toolchain(language, version)
    get_target(language).pct_options(pct_depth)
    program_object(program)  # fails now, not in a worker, if it cannot be built any more
    with transaction.atomic():
        repro = Reproduction.objects.create(
            program=program,
            language=language,
            requested_version=version or "",
            toolchain_id=toolchain.id,
            toolchain_description=toolchain.describe(),
            times=times,
            timeout_s=float(timeout_s),
            repetitions=repetitions,
            pct_depth=pct_depth,
            owner=owner,
        )
        if enqueue:
            job_id = f"repro-{repro.pk}-{uuid.uuid4().hex[:8]}"
            repro.rq_job_id = job_id
            repro.save(update_fields=["rq_job_id"])
            job_timeout = int(times * timeout_s * 2 + COMPILE_ALLOWANCE_S)
            transaction.on_commit(
                lambda: enqueue_or_fail(
                    Reproduction.objects.filter(pk=repro.pk),
                    RUN_REPRODUCTION,
                    repro.pk,
                    queue_name=interactive_queue_name(),
                    job_id=job_id,
                    job_timeout=job_timeout,
                    description=f"reproduce {program.id} on {toolchain.id} ×{times}",
                )
            )
    return repro

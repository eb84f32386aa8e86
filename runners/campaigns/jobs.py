"""RQ jobs: run one chunk of a campaign, run one reproduction.

Workers are `python manage.py rqworker default`, as many as wanted, on any host
that reaches the same Redis and database (and has the targets' toolchains).
A job's state of record is the database, not its RQ result:

- `run_chunk` regenerates the chunk's programs (program i: seed campaign.seed + i),
  skips indices already executed (a retried chunk), and writes a finding's Execution
  as soon as its verdict is in, the others together after a run once the last write is
  CHECK_EVERY_S old, so a worker killed mid-chunk loses at most the run under way and
  that long of clean verdicts (a retry runs them again). A thread beats the chunk's
  heartbeat meanwhile; runners.campaigns.chunks.requeue_stale_chunks re-enqueues chunks
  whose heartbeat stopped.
- A cancelled or paused campaign is noticed between two programs, at most
  CHECK_EVERY_S after it happened: the job stops, keeping what it recorded.
- While a chunk only waits for hung programs beside it, its job runs the target's next
  queued chunk on a thread (_JobChunks), as `fuzz` starts its next batch.
"""

from __future__ import annotations

import logging
import threading
import time
import traceback
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from django.db import DatabaseError, close_old_connections, connection, transaction
from django.utils import timezone

from runners import config
from runners.campaigns import chunk_sizing
from runners.campaigns.chunks import (
    MAX_CHUNK_ATTEMPTS,
    assign_job,
    finish_campaign_if_complete,
)
from runners.campaigns.models import (
    Campaign,
    CampaignTarget,
    Chunk,
    Execution,
    Program,
    Reproduction,
)
from runners.campaigns.programs import campaign_program, program_object, store_programs
from runners.campaigns.quotas import budget_note
from runners.campaigns.services import record_execution, record_executions
from runners.engine.build import build, compiles_kept_running, scratch
from runners.engine.execute import execute_batch
from runners.engine.run_alone import Triage, run_one
from runners.engine.run_records import ProgramRun
from runners.engine.run_target import RunTarget, make_target
from runners.engine.sandbox import Limits, get_sandbox
from runners.engine.verdicts import Outcome
from runners.logs import fields

log = logging.getLogger("chanfuzz.campaigns")

# Chunks a job takes while its chunks wait for hung programs (_JobChunks), besides its own.
MAX_TAKEN = 8
# How often a chunk job asks whether it should go on (its campaign paused or cancelled, its
# chunk given to another job): a pause stops the job within this, plus the program running.
CHECK_EVERY_S = 0.5


class _Stopped(Exception):
    """The campaign was cancelled or paused while the chunk ran."""


class _Superseded(Exception):
    """requeue_stale_chunks gave the chunk to another job (this one was thought dead)."""


class _Heartbeat:
    """Updates `Chunk.heartbeat_at` every ``CHANFUZZ_HEARTBEAT_S`` from a thread of its own."""

    def __init__(self, chunk_id: int, job_id: str, interval: float | None = None) -> None:
        self.chunk_id = chunk_id
        self.job_id = job_id
        self.interval = float(config.heartbeat_s()) if interval is None else interval
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"heartbeat-{chunk_id}", daemon=True)

    def _run(self) -> None:
        try:
            while not self._stop.wait(self.interval):
                try:
                    Chunk.objects.filter(
                        pk=self.chunk_id, state=Chunk.State.RUNNING, rq_job_id=self.job_id
                    ).update(heartbeat_at=timezone.now())
                except DatabaseError as e:
                    # A busy or restarting database (SQLite's "table is locked") must not
                    # end the beats: a chunk without them looks dead, and another job would
                    # be given its programs. The next beat tries again, on a new connection.
                    log.warning(
                        "heartbeat of chunk %s missed: %s", self.chunk_id, e,
                        extra=fields("heartbeat_missed", chunk=self.chunk_id),
                    )  # fmt: skip
                    connection.close()
        finally:
            connection.close()  # this thread's own connection

    def __enter__(self) -> _Heartbeat:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(timeout=30)


def _current_job_id() -> str | None:
    from rq import get_current_job

    job = get_current_job()
    return job.id if job is not None else None


def _current_job_timeout() -> float | None:
    """Seconds rq gives the job under way before it kills it; None outside a job."""
    from rq import get_current_job

    job = get_current_job()
    return float(job.timeout) if job is not None and job.timeout else None


def _claim(chunk_id: int, job_id: str | None = None) -> tuple[Chunk, str] | tuple[None, str]:
    """Mark the chunk running (and its campaign) for job `job_id` (default: the job under
    way), or say why this job must not run it."""
    job_id = job_id or _current_job_id()
    now = timezone.now()
    with transaction.atomic():
        chunk = (
            Chunk.objects.select_for_update()
            .select_related("target__campaign")
            .filter(pk=chunk_id)
            .first()
        )
        if chunk is None:
            return None, "chunk gone: its campaign was deleted"
        campaign = chunk.target.campaign
        if chunk.state in (Chunk.State.DONE, Chunk.State.FAILED):
            return None, f"chunk already {chunk.state}"
        if campaign.status not in (Campaign.Status.QUEUED, Campaign.Status.RUNNING):
            return None, f"campaign {campaign.status}"
        note = budget_note(campaign)
        if note:
            # The chunk stays queued: resume_campaign enqueues it again.
            Campaign.objects.filter(pk=campaign.pk).update(
                status=Campaign.Status.PAUSED, status_note=note
            )
            return None, note
        if job_id and chunk.rq_job_id and chunk.rq_job_id != job_id:
            # requeue_stale_chunks gave the chunk to a newer job.
            return None, f"superseded by job {chunk.rq_job_id}"
        rest = None
        if campaign.chunk_size == chunk_sizing.AUTO and chunk.started_at is None:
            rest = chunk_sizing.split_off(chunk)
        chunk.state = Chunk.State.RUNNING
        chunk.attempts += 1
        chunk.heartbeat_at = chunk.started_at = now
        if job_id:
            chunk.rq_job_id = job_id
        chunk.save(
            update_fields=[
                "state",
                "attempts",
                "heartbeat_at",
                "started_at",
                "rq_job_id",
                "end",
                "sized",
            ]
        )
        if rest is not None:
            assign_job(rest)
        Campaign.objects.filter(pk=campaign.pk, status=Campaign.Status.QUEUED).update(
            status=Campaign.Status.RUNNING, started_at=now
        )
    return chunk, ""


def campaign_target(target_row: CampaignTarget) -> RunTarget:
    """How the campaign's programs run on one of its targets: its toolchain, its
    repetitions, the value oracle and schedule perturbation if the campaign asked."""
    campaign = target_row.campaign
    return make_target(
        target_row.language,
        target_row.toolchain_id,
        repetitions=campaign.repetitions,
        values=campaign.value_oracle,
        pct_depth=campaign.pct_depth,
    )


def run_chunk(chunk_id: int) -> dict[str, Any]:
    """Run chunk `chunk_id` of a campaign, and those the job takes while it only waits
    (_JobChunks); returns a summary (RQ keeps it a day)."""
    close_old_connections()
    chunk, why = _claim(chunk_id)
    if chunk is None:
        log.info("chunk %d skipped: %s", chunk_id, why,
                 extra=fields("chunk_skipped", chunk=chunk_id, reason=why))  # fmt: skip
        return {"chunk": chunk_id, "skipped": why}
    timeout = _current_job_timeout()
    # Taking chunks stops at half the job's time, so that the job's own chunk and those it
    # took end before rq kills it, on any but a campaign whose every program hangs its
    # whole limit; then the sweep gives the chunks under way to new jobs, keeping what
    # they recorded.
    until = None if timeout is None else time.monotonic() + timeout / 2
    # The job under way, not the chunk's field: a chunk run outside rq may still carry the
    # id of a job that no worker runs, which must take no chunks.
    return _JobChunks(job_id=_current_job_id() or "", until=until).run(chunk)


class _JobChunks:
    """The chunks one RQ job runs: its own and, while one of them only waits for hung
    programs beside it (execute_batch's `on_waiting`: a quiet hang's run and re-runs, a
    second or more that use no core), the next queued chunk of the same target, run on a
    thread of this job's. A worker holds its job to the last verdict; without this, on a
    runtime that hangs in a sixth of its programs (flume) every chunk ended waiting for
    its last hang, where `fuzz` starts its next batch. Each chunk takes at most one, and
    a job at most MAX_TAKEN, so that other campaigns' chunks queued behind it wait no
    longer than that.

    A chunk taken is claimed for this job (its own RQ job then finds it superseded); one
    that fails goes back to the queue with a new job, as its own job's failure would."""

    def __init__(self, *, job_id: str, until: float | None) -> None:
        self.job_id = job_id
        self.until = until
        self.taken: list[dict[str, Any]] = []
        self._count = 0
        self._threads: list[threading.Thread] = []
        self._lock = threading.Lock()

    def run(self, chunk: Chunk) -> dict[str, Any]:
        try:
            summary = _run_claimed(chunk, on_waiting=self._on_waiting(chunk))
        finally:
            self._join()
        if self.taken:
            summary["taken"] = sorted(self.taken, key=lambda s: s["chunk"])
        return summary

    def _on_waiting(self, chunk: Chunk) -> Callable[[], bool] | None:
        if not self.job_id:  # run outside rq (a test, a shell): nothing to take chunks for
            return None
        asked = False

        def on_waiting() -> bool:
            # A batch split around a compile error may wait twice: one chunk taken a chunk.
            nonlocal asked
            if asked:
                return False
            asked = True
            taken = self._take_next(chunk)
            if taken is None:
                return False
            thread = threading.Thread(
                target=self._run_taken, args=(taken,), name=f"chunk-{taken.pk}", daemon=True
            )
            with self._lock:
                self._threads.append(thread)
            thread.start()
            return True

        return on_waiting

    def _take_next(self, waiting: Chunk) -> Chunk | None:
        """Claim the first queued chunk of `waiting`'s target for this job; None when there
        is none, or the job took enough (MAX_TAKEN, half its time)."""
        with self._lock:
            if self._count >= MAX_TAKEN or (self.until and time.monotonic() > self.until):
                return None
            self._count += 1  # held while it looks, given back if it takes none
        taken = self._claim_next(waiting)
        if taken is None:
            with self._lock:
                self._count -= 1
        return taken

    def _claim_next(self, waiting: Chunk) -> Chunk | None:
        queued = Chunk.objects.filter(target_id=waiting.target_id, state=Chunk.State.QUEUED)
        row = queued.order_by("start").values_list("pk", "rq_job_id").first()
        if row is None:
            return None
        pk, its_job = row
        # Only if no worker claimed it meanwhile: its own job, when it runs, finds this id.
        if not queued.filter(pk=pk, rq_job_id=its_job).update(rq_job_id=self.job_id):
            return None
        chunk, why = _claim(pk, job_id=self.job_id)
        if chunk is None:  # its campaign paused meanwhile, say: its own job may have it back
            queued.filter(pk=pk, rq_job_id=self.job_id).update(rq_job_id=its_job)
            log.info("chunk %d not taken: %s", pk, why,
                     extra=fields("chunk_skipped", chunk=pk, reason=why))  # fmt: skip
            return None
        log.info(
            "chunk %d taken by job %s while chunk %d waits for hung programs",
            chunk.pk, self.job_id, waiting.pk,
            extra=fields("chunk_taken", chunk=chunk.pk, job=self.job_id, waiting=waiting.pk),
        )  # fmt: skip
        return chunk

    def _run_taken(self, chunk: Chunk) -> None:
        try:
            summary = _run_claimed(chunk, on_waiting=self._on_waiting(chunk))
            with self._lock:
                self.taken.append(summary)
        except BaseException:
            # _run_claimed logged it and put the chunk back to queued (or gave it up); its
            # job is this one, which goes on, so no sweep would see it dead: a new job.
            with transaction.atomic():
                back = (
                    Chunk.objects.select_for_update()
                    .select_related("target__campaign")
                    .filter(pk=chunk.pk, rq_job_id=self.job_id, state=Chunk.State.QUEUED)
                    .first()
                )
                if back is not None:
                    assign_job(back)
        finally:
            connection.close()  # this thread's own

    def _join(self) -> None:
        """Wait for every chunk taken, those taken by taken ones too."""
        while True:
            with self._lock:
                if not self._threads:
                    return
                thread = self._threads.pop()
            thread.join()


def _run_claimed(chunk: Chunk, *, on_waiting: Callable[[], bool] | None) -> dict[str, Any]:
    """Run `chunk`, claimed by this job, and record its verdicts; its summary."""
    target_row = chunk.target
    campaign = target_row.campaign
    started = time.monotonic()
    where = {
        "campaign": campaign.pk, "chunk": chunk.pk, "toolchain": target_row.toolchain_id,
        "first": chunk.start, "end": chunk.end, "attempt": chunk.attempts,
    }  # fmt: skip
    log.info("chunk %d of campaign %d started", chunk.pk, campaign.pk,
             extra=fields("chunk_started", **where))  # fmt: skip
    # Every later write to the chunk is conditional on still owning it: a job
    # thought dead (and requeued) may still be running, and must not undo the
    # newer job's state.
    mine = Chunk.objects.filter(pk=chunk.pk, rq_job_id=chunk.rq_job_id)
    recorded = 0
    try:
        with _Heartbeat(chunk.pk, chunk.rq_job_id):
            done = set(
                Execution.objects.filter(
                    target=target_row, index__gte=chunk.start, index__lt=chunk.end
                ).values_list("index", flat=True)
            )
            target = campaign_target(target_row)
            options = dict(target.render_options)
            indices = [i for i in range(chunk.start, chunk.end) if i not in done]
            built = [campaign_program(campaign, index) for index in indices]
            to_run: list[tuple[int, Program, Any]] = []
            # Verdicts that make no finding, written together (record_executions) after a
            # run ends, if the last write is CHECK_EVERY_S old: a shared run's verdicts
            # come at once, and the next run may take a while. A finding is written as
            # soon as it is in.
            pending: list[tuple[Program, int, ProgramRun | None]] = []
            written = time.monotonic()

            def flush() -> None:
                nonlocal recorded, written
                if pending:
                    recorded += record_executions(
                        verdicts=pending, language=target.language, target=target_row
                    )
                    pending.clear()
                written = time.monotonic()

            def flush_if_due() -> None:
                if time.monotonic() - written >= CHECK_EVERY_S:
                    flush()

            for index, b, row in zip(indices, built, store_programs(built), strict=True):
                if target.spec.supports(b.program, **options):
                    to_run.append((index, row, b.program))
                else:
                    pending.append((row, index, None))
            flush()

            checked = time.monotonic()

            def on_result(result: ProgramRun) -> None:
                nonlocal recorded, checked
                index, row, _ = to_run[result.index]
                if result.classification.is_finding:
                    flush()
                    recorded += bool(
                        record_execution(
                            program=row,
                            index=index,
                            result=result,
                            language=target.language,
                            target=target_row,
                        )
                    )
                else:
                    pending.append((row, index, result))
                # Whether the chunk is still this job's and its campaign still running is
                # asked every CHECK_EVERY_S, not after every program: on a fast target (Go:
                # a few ms a program) two more queries a program weigh on the campaign path
                # (bench/campaign_path.py).
                if time.monotonic() - checked < CHECK_EVERY_S:
                    return
                checked = time.monotonic()
                if not mine.update(heartbeat_at=timezone.now()):
                    raise _Superseded
                status = Campaign.objects.values_list("status", flat=True).get(pk=campaign.pk)
                if status not in (Campaign.Status.QUEUED, Campaign.Status.RUNNING):
                    raise _Stopped(status)

            costs: dict[str, Any] = {}
            if to_run:
                shared_runs = chunk_sizing.shared_runs_for(target_row.pk)
                with scratch(f"chanfuzz-chunk-{chunk.pk}-") as tmp:
                    kept_running = compiles_kept_running(
                        target.toolchain, Path(tmp), target.build_flags
                    )
                    sizer = chunk_sizing.sizer_for(target_row.pk)
                    groups = sizer.groups(len(to_run), kept_running=kept_running)
                    try:
                        report = execute_batch(
                            [p for _, _, p in to_run],
                            target,
                            workdir=Path(tmp),
                            sandbox=get_sandbox(campaign.sandbox or None, language=target.language),
                            limits=Limits(
                                timeout_s=campaign.timeout_s, quiet_s=campaign.hang_quiet_s
                            ),
                            render_seed=campaign.seed + chunk.start,
                            triage=Triage(retries=campaign.triage_retries, runs=campaign.runs),
                            on_result=on_result,
                            after_run=flush_if_due,
                            shared_runs=shared_runs,
                            on_waiting=on_waiting,
                            groups=groups,
                        )
                    finally:
                        flush()  # stopped, superseded or failed: the verdicts in are kept
                # What the next chunks of an auto-sized campaign are sized from.
                costs = {
                    "cost_programs": len(to_run),
                    "compile_s": report.stages.sizing_compile_s,
                    "run_s": report.stages.sizing_run_s,
                    "waited_s": report.stages.sizing_wait_s,
                    "shared_run_size": shared_runs.size,
                }
    except (_Superseded, _Stopped) as stopped:
        reason = "superseded" if isinstance(stopped, _Superseded) else str(stopped)
        if isinstance(stopped, _Stopped):
            mine.update(state=Chunk.State.QUEUED)
        log.info(
            "chunk %d stopped (%s) after %d programs", chunk.pk, reason, recorded,
            extra=fields("chunk_stopped", **where, reason=reason, recorded=recorded,
                         seconds=round(time.monotonic() - started, 2)),
        )  # fmt: skip
        return {"chunk": chunk.pk, "recorded": recorded, "stopped": reason}
    except BaseException as exc:
        # Back to queued so requeue_stale_chunks (or resume) tries again,
        # up to MAX_CHUNK_ATTEMPTS; the error is kept for the campaign's page.
        failed = chunk.attempts >= MAX_CHUNK_ATTEMPTS
        mine.update(
            state=Chunk.State.FAILED if failed else Chunk.State.QUEUED,
            last_error=f"{type(exc).__name__}: {exc}\n{traceback.format_exc()}"[-8000:],
        )
        log.exception(
            "chunk %d failed: %s", chunk.pk, exc,
            extra=fields("chunk_failed", **where, recorded=recorded, given_up=failed,
                         seconds=round(time.monotonic() - started, 2)),
        )  # fmt: skip
        if failed:
            finish_campaign_if_complete(campaign_id=campaign.pk)
        raise
    mine.update(
        state=Chunk.State.DONE, finished_at=timezone.now(), heartbeat_at=timezone.now(), **costs
    )
    finished = finish_campaign_if_complete(campaign_id=campaign.pk)
    log.info(
        "chunk %d of campaign %d done: %d programs", chunk.pk, campaign.pk, recorded,
        extra=fields("chunk_done", **where, recorded=recorded,
                     seconds=round(time.monotonic() - started, 2)),
    )  # fmt: skip
    if finished:
        log.info("campaign %d done", campaign.pk,
                 extra=fields("campaign_done", campaign=campaign.pk))  # fmt: skip
    return {"chunk": chunk.pk, "recorded": recorded}


def run_reproduction(reproduction_id: int) -> dict[str, Any]:
    """Run a Reproduction: its program `times` times on its target, compiled once."""
    close_old_connections()
    repro = Reproduction.objects.select_related("program").get(pk=reproduction_id)
    if repro.status in (Reproduction.Status.DONE, Reproduction.Status.FAILED):
        return {"reproduction": repro.pk, "skipped": f"already {repro.status}"}
    # A retried job starts the count over: runs of a killed attempt are dropped.
    Execution.objects.filter(reproduction=repro).delete()
    Reproduction.objects.filter(pk=repro.pk).update(
        status=Reproduction.Status.RUNNING, completed=0, crashed=0, hung=0, wrong_values=0
    )
    counts = {"completed": 0, "crashed": 0, "hung": 0, "wrong_values": 0}
    try:
        target = make_target(
            repro.language,
            repro.toolchain_id,
            repetitions=repro.repetitions,
            pct_depth=repro.pct_depth,
        )
        program = program_object(repro.program)
        options = dict(target.render_options)
        if not target.spec.supports(program, **options):
            raise ValueError(f"{target.language} cannot express program {repro.program_id}")
        sandbox = get_sandbox(language=target.language)
        limits = Limits(timeout_s=repro.timeout_s)
        with scratch(f"chanfuzz-repro-{repro.pk}-") as tmp:
            workdir = Path(tmp)
            workdir.chmod(0o755)  # the sandbox's user reaches uncached artifacts here
            source = target.spec.render_batch(
                [program],
                seed=repro.program.render_seed,
                repetitions=target.repetitions,
                **options,
            )
            artifact = build(target.toolchain, source, workdir, flags=target.build_flags)
            for run in range(repro.times):
                # No triage re-runs: every run counts once, a re-run would be another run.
                # The program goes along: under perturbation it runs with its own threads.
                result = run_one(
                    target, artifact, 0, sandbox=sandbox, limits=limits,
                    triage=Triage(retries=0), program=program,
                )  # fmt: skip
                record_execution(
                    program=repro.program,
                    index=run,
                    result=replace(result, index=run),
                    language=target.language,
                    reproduction=repro,
                )
                counts["completed"] += 1
                counts["crashed"] += result.outcome is Outcome.CRASH
                counts["hung"] += result.outcome is Outcome.TIMEOUT
                counts["wrong_values"] += result.outcome is Outcome.WRONG_VALUE
                Reproduction.objects.filter(pk=repro.pk).update(**counts)
    except BaseException as exc:
        Reproduction.objects.filter(pk=repro.pk).update(
            status=Reproduction.Status.FAILED,
            last_error=f"{type(exc).__name__}: {exc}"[:8000],
            finished_at=timezone.now(),
        )
        log.exception(
            "reproduction %d failed: %s", repro.pk, exc,
            extra=fields("reproduction_failed", reproduction=repro.pk,
                         program=repro.program_id, toolchain=repro.toolchain_id, **counts),
        )  # fmt: skip
        raise
    Reproduction.objects.filter(pk=repro.pk).update(
        status=Reproduction.Status.DONE, finished_at=timezone.now()
    )
    repro.refresh_from_db()
    log.info(
        "reproduction %d done: %d of %d runs failed", repro.pk,
        counts["crashed"] + counts["hung"] + counts["wrong_values"], counts["completed"],
        extra=fields("reproduction_done", reproduction=repro.pk, program=repro.program_id,
                     toolchain=repro.toolchain_id, **counts),
    )  # fmt: skip
    return {"reproduction": repro.pk, "completed": repro.completed, "rate": repro.rate}

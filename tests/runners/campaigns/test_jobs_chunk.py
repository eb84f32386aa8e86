"""A chunk job from claim to done: what it runs, with what, what it records, and each way
it stops (skipped, superseded, paused, failed).

`run_chunk` runs for real on a database; only the batch (compile and sandboxed runs) is
replaced by one that records its arguments and answers a verdict per program. The slow
tests of test_jobs.py run real programs through real workers.
"""

from __future__ import annotations

import logging
import threading
import time
from datetime import timedelta
from types import SimpleNamespace

import pytest
from django.utils import timezone

from generator.settings import PRESETS
from runners.campaigns import jobs
from runners.campaigns.chunks import MAX_CHUNK_ATTEMPTS
from runners.campaigns.models import Campaign, CampaignTarget, Chunk, Execution
from runners.campaigns.programs import campaign_program, store_program
from runners.engine.execute import BatchReport
from runners.engine.run_alone import Triage
from runners.engine.run_records import ProgramRun, Stages
from runners.engine.run_target import target_for
from runners.engine.sandbox import Limits
from runners.engine.verdicts import Classification, Outcome
from tests.runners.conftest import fake_toolchain

pytestmark = pytest.mark.django_db


class Batches:
    """The batch the job runs, recorded: every call's programs and arguments; each
    program gets the verdict `verdict(index)` (a clean exit unless told)."""

    def __init__(self) -> None:
        self.calls: list[tuple[list, object, dict]] = []
        self.verdict = lambda _index: Classification(Outcome.TERMINATED, "exit 0", "")
        self.during = lambda _index: None  # what happens as each verdict comes in
        # What a batch of n programs reports it cost: (render + compile, runs) seconds, and
        # of the runs, its wait at its end for hung programs where there is a third.
        self.cost = lambda n: (2.0, 0.5 * n)
        self.shared = 1  # programs a run takes (its verdicts come together, then after_run)
        # The size each batch's shared runs started at, and what they grew to.
        self.shared_starts: list[int] = []
        self.grow = lambda size: 2 * size
        # What the batch does once its verdicts are in, given its programs and its
        # `on_waiting` (None: the job has no chunks to take): nothing, unless told.
        self.waits = lambda _programs, _on_waiting: None
        self.handed = 0.0  # of a wait at its end, what it handed to other work (on_waiting)

    def __call__(self, programs, run_target, **kwargs):  # noqa: ANN001, ANN204
        self.calls.append((list(programs), run_target, kwargs))
        self.shared_starts.append(kwargs["shared_runs"].size)
        kwargs["shared_runs"].size = self.grow(kwargs["shared_runs"].size)
        workdir = kwargs["workdir"]
        assert workdir.is_dir() and workdir.name.startswith("chanfuzz-chunk-")
        for first in range(0, len(programs), self.shared):
            run = range(first, min(first + self.shared, len(programs)))
            for index in run:
                self.during(index)
            for index in run:
                kwargs["on_result"](ProgramRun(index=index, classification=self.verdict(index)))
            kwargs["after_run"]()
        self.waits(programs, kwargs["on_waiting"])
        compile_s, run_s, *waited = self.cost(len(programs))
        stages = Stages(render_s=0.25, compile_s=compile_s - 0.25, run_s=run_s)
        stages.waited_s = sum(waited)
        stages.handed_s = self.handed
        return BatchReport(stages=stages)


@pytest.fixture
def batches(monkeypatch: pytest.MonkeyPatch) -> Batches:
    recorded = Batches()
    asked: list[tuple] = []
    monkeypatch.setattr(jobs, "execute_batch", recorded)
    monkeypatch.setattr(
        jobs, "get_sandbox", lambda *args, **kwargs: asked.append((args, kwargs)) or "sandbox"
    )
    monkeypatch.setattr(
        jobs,
        "make_target",
        lambda language, toolchain_id, **kwargs: target_for(fake_toolchain(language), **kwargs),
    )
    monkeypatch.setattr(jobs, "CHECK_EVERY_S", 0.0)  # ask after every program
    recorded.sandboxes = asked  # type: ignore[attr-defined]
    return recorded


def _chunk(
    *, start: int = 0, end: int = 4, language: str = "go", **campaign_fields: object
) -> Chunk:
    settings: dict[str, object] = {
        "name": "chunk", "heuristic": "A", "settings": PRESETS["A"].as_dict(), "seed": 40,
        "program_count": end, "timeout_s": 5.0, "repetitions": 3, "chunk_size": end - start,
        "generator_version": "test",
    }  # fmt: skip
    settings.update(campaign_fields)
    campaign = Campaign.objects.create(**settings)
    target = CampaignTarget.objects.create(
        campaign=campaign, language=language, toolchain_id=f"{language}-1.0-test"
    )
    return Chunk.objects.create(target=target, start=start, end=end)


def _executions(chunk: Chunk) -> list[tuple[int, str]]:
    rows = Execution.objects.filter(target=chunk.target).order_by("index")
    return [(e.index, e.outcome) for e in rows]


# ---------------------------------------------------------------- a chunk that runs


def test_a_chunk_runs_its_programs_as_its_campaign_says(batches: Batches) -> None:
    chunk = _chunk(start=4, end=7, program_count=7, timeout_s=2.5, hang_quiet_s=1.5,
                   triage_retries=1, sandbox="local", repetitions=3, pct_depth=2,
                   value_oracle=False)  # fmt: skip
    assert jobs.run_chunk(chunk.pk) == {"chunk": chunk.pk, "recorded": 3}
    ((programs, target, kwargs),) = batches.calls
    campaign = chunk.target.campaign
    assert programs == [campaign_program(campaign, i).program for i in (4, 5, 6)]
    assert target == target_for(fake_toolchain("go"), repetitions=3, values=False, pct_depth=2)
    assert kwargs["limits"] == Limits(timeout_s=2.5, quiet_s=1.5)
    assert kwargs["render_seed"] == 40 + 4
    assert kwargs["triage"] == Triage(retries=1)
    assert kwargs["sandbox"] == "sandbox"
    assert batches.sandboxes == [(("local",), {"language": "go"})]  # type: ignore[attr-defined]
    assert kwargs["workdir"].name.startswith(f"chanfuzz-chunk-{chunk.pk}-")
    assert not kwargs["workdir"].exists()  # cleaned up
    assert _executions(chunk) == [(4, "terminated"), (5, "terminated"), (6, "terminated")]
    rows = Execution.objects.filter(target=chunk.target).order_by("index")
    assert [r.program_id for r in rows] == [
        store_program(campaign_program(campaign, i)).id for i in (4, 5, 6)
    ]
    chunk.refresh_from_db()
    assert chunk.state == Chunk.State.DONE and chunk.attempts == 1
    assert (chunk.cost_programs, chunk.compile_s, chunk.run_s) == (3, 2.0, 1.5)
    assert chunk.end == 7 and chunk.sized is None  # a fixed size: never cut
    assert timezone.now() - chunk.finished_at < timedelta(minutes=1)
    assert chunk.heartbeat_at >= chunk.started_at
    # The only chunk: its campaign is done.
    campaign.refresh_from_db()
    assert campaign.status == Campaign.Status.DONE and campaign.finished_at is not None
    assert campaign.started_at is not None


def test_a_chunk_starts_its_shared_runs_where_the_targets_last_chunk_left_them(
    batches: Batches, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CHANFUZZ_SHARED_RUN_SIZE", "6")
    first = _chunk(end=8, program_count=8, chunk_size=4)
    Chunk.objects.filter(pk=first.pk).update(end=4)
    second = Chunk.objects.create(target=first.target, start=4, end=8)
    other = _chunk(end=4)  # another campaign's target: its runs start afresh
    for chunk in (first, second, other):
        jobs.run_chunk(chunk.pk)
    assert batches.shared_starts == [6, 12, 6]
    sizes = Chunk.objects.filter(pk__in=[first.pk, second.pk, other.pk]).order_by("pk")
    assert list(sizes.values_list("shared_run_size", flat=True)) == [12, 24, 12]


def test_the_default_sandbox_is_asked_for_when_the_campaign_names_none(
    batches: Batches,
) -> None:
    chunk = _chunk()
    jobs.run_chunk(chunk.pk)
    assert batches.sandboxes == [((None,), {"language": "go"})]  # type: ignore[attr-defined]
    assert batches.calls[0][2]["limits"] == Limits(timeout_s=5.0, quiet_s=None)
    assert batches.calls[0][2]["triage"] == Triage(retries=2)


def test_a_campaign_with_other_chunks_left_is_not_done(batches: Batches) -> None:
    chunk = _chunk(end=2, program_count=4)
    Chunk.objects.create(target=chunk.target, start=2, end=4)
    assert jobs.run_chunk(chunk.pk) == {"chunk": chunk.pk, "recorded": 2}
    campaign = Campaign.objects.get(pk=chunk.target.campaign_id)
    assert campaign.status == Campaign.Status.RUNNING and campaign.finished_at is None


def test_programs_already_recorded_are_not_run_again(batches: Batches) -> None:
    chunk = _chunk(end=4)
    campaign = chunk.target.campaign
    for index in (0, 2):
        Execution.objects.create(
            campaign=campaign, target=chunk.target, index=index, outcome="crash",
            program=store_program(campaign_program(campaign, index)),
        )  # fmt: skip
    assert jobs.run_chunk(chunk.pk) == {"chunk": chunk.pk, "recorded": 2}
    ((programs, _target, _kwargs),) = batches.calls
    assert programs == [campaign_program(campaign, i).program for i in (1, 3)]
    assert _executions(chunk) == [(0, "crash"), (1, "terminated"), (2, "crash"),
                                  (3, "terminated")]  # fmt: skip


def test_a_chunk_whose_programs_are_all_recorded_runs_no_batch(batches: Batches) -> None:
    chunk = _chunk(end=1)
    campaign = chunk.target.campaign
    Execution.objects.create(
        campaign=campaign, target=chunk.target, index=0, outcome="terminated",
        program=store_program(campaign_program(campaign, 0)),
    )  # fmt: skip
    assert jobs.run_chunk(chunk.pk) == {"chunk": chunk.pk, "recorded": 0}
    assert batches.calls == []
    done = Chunk.objects.get(pk=chunk.pk)
    assert done.state == Chunk.State.DONE
    assert (done.cost_programs, done.compile_s, done.run_s) == (None, None, None)  # no batch


def test_programs_the_target_cannot_express_are_recorded_not_run(batches: Batches) -> None:
    # Heuristic A's programs select; std's channels have no select.
    chunk = _chunk(language="rust-std", end=3)
    campaign = chunk.target.campaign
    target = target_for(fake_toolchain("rust-std"), repetitions=3)
    expressible = [
        i for i in range(3)
        if target.spec.supports(campaign_program(campaign, i).program,
                                **dict(target.render_options))
    ]  # fmt: skip
    assert len(expressible) < 3
    assert jobs.run_chunk(chunk.pk) == {"chunk": chunk.pk, "recorded": 3}
    ran = [p for p, _t, _k in batches.calls][0] if batches.calls else []
    assert ran == [campaign_program(campaign, i).program for i in expressible]
    skipped = Execution.objects.filter(target=chunk.target, outcome="skipped")
    assert {e.index for e in skipped} == set(range(3)) - set(expressible)
    assert {e.reason for e in skipped} == {"rust-std cannot express this program"}


def test_a_verdict_is_recorded_with_its_own_index(batches: Batches) -> None:
    chunk = _chunk(end=3)
    batches.verdict = lambda index: (
        Classification(Outcome.CRASH, "panic", "go | crash | x")
        if index == 1
        else Classification(Outcome.TERMINATED, "exit 0", "")
    )
    jobs.run_chunk(chunk.pk)
    assert _executions(chunk) == [(0, "terminated"), (1, "crash"), (2, "terminated")]


def test_clean_verdicts_wait_for_the_next_check_and_a_finding_is_written_at_once(
    batches: Batches, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(jobs, "CHECK_EVERY_S", 3600.0)  # no check before the chunk ends
    chunk = _chunk(end=4)
    seen: list[list[tuple[int, str]]] = []
    batches.verdict = lambda index: (
        Classification(Outcome.CRASH, "panic", "go | crash | x")
        if index == 2
        else Classification(Outcome.TERMINATED, "exit 0", "")
    )
    batches.during = lambda _index: seen.append(_executions(chunk))
    assert jobs.run_chunk(chunk.pk) == {"chunk": chunk.pk, "recorded": 4}
    # Before program i's verdict: the crash of 2 came in with the clean 0 and 1 before it.
    assert seen == [[], [], [], [(0, "terminated"), (1, "terminated"), (2, "crash")]]
    assert _executions(chunk) == [(0, "terminated"), (1, "terminated"), (2, "crash"),
                                  (3, "terminated")]  # fmt: skip


def test_a_shared_runs_verdicts_are_written_when_it_ends_if_the_last_write_is_old(
    batches: Batches, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(jobs, "CHECK_EVERY_S", 0.2)
    chunk = _chunk(end=7)
    batches.shared = 3  # runs of programs 0-2, 3-5 and 6
    seen: dict[int, list[int]] = {}

    def run_for_a_while(index: int) -> None:
        if index % 3 == 0:  # the first program of a run: the run takes 0.3 s
            seen[index] = [i for i, _ in _executions(chunk)]
            time.sleep(0.3)

    batches.during = run_for_a_while
    assert jobs.run_chunk(chunk.pk) == {"chunk": chunk.pk, "recorded": 7}
    # Each run's verdicts are in the database before the next run starts.
    assert seen == {0: [], 3: [0, 1, 2], 6: [0, 1, 2, 3, 4, 5]}


def test_verdicts_in_before_a_failed_batch_are_kept(
    batches: Batches, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(jobs, "CHECK_EVERY_S", 3600.0)
    chunk = _chunk(end=4)

    def boom(index: int) -> None:
        if index == 2:
            raise RuntimeError("boom")

    batches.during = boom
    with pytest.raises(RuntimeError, match="boom"):
        jobs.run_chunk(chunk.pk)
    assert _executions(chunk) == [(0, "terminated"), (1, "terminated")]


# ---------------------------------------------------------------- chunks sized from costs


def _run_every_queued_chunk() -> None:
    while chunk := Chunk.objects.filter(state=Chunk.State.QUEUED).order_by("start").first():
        jobs.run_chunk(chunk.pk)


def test_an_auto_sized_chunk_is_cut_to_its_size_and_the_rest_queued(batches: Batches) -> None:
    chunk = _chunk(end=300, chunk_size=0)
    assert jobs.run_chunk(chunk.pk) == {"chunk": chunk.pk, "recorded": 10}
    chunk.refresh_from_db()
    assert (chunk.start, chunk.end, chunk.sized, chunk.state) == (0, 10, 10, "done")
    assert (chunk.cost_programs, chunk.compile_s, chunk.run_s) == (10, 2.0, 5.0)
    assert chunk.waited_s == 0.0
    rest = Chunk.objects.get(target=chunk.target, start=10)
    assert (rest.end, rest.state, rest.started_at, rest.sized) == (300, "queued", None, None)
    assert rest.rq_job_id.startswith(f"chunk-{rest.pk}-")
    assert _executions(chunk) == [(i, "terminated") for i in range(10)]
    assert Campaign.objects.get(pk=chunk.target.campaign_id).status == Campaign.Status.RUNNING


@pytest.mark.parametrize(("end", "cut"), [(14, False), (15, True)])
def test_a_rest_shorter_than_half_a_chunk_stays_with_it(
    batches: Batches, end: int, cut: bool
) -> None:
    chunk = _chunk(end=end, chunk_size=0)  # sized 10: a rest of 4 stays, one of 5 does not
    jobs.run_chunk(chunk.pk)
    chunk.refresh_from_db()
    assert (chunk.end, chunk.sized) == ((10 if cut else end), 10)
    assert Chunk.objects.filter(target=chunk.target, start=10).exists() == cut


def test_a_chunks_end_wait_handed_to_the_next_chunk_still_sizes_the_chunks(
    batches: Batches,
) -> None:
    # A chunk that took the next chunk while it waited for its hung programs (on_waiting)
    # waited no time of its own, yet that wait is the fixed cost the next sizes answer for
    # (Stages.sizing_wait_s): its runs' time and its wait as if it had waited.
    batches.handed = 1.5
    chunk = _chunk(end=300, chunk_size=0)
    jobs.run_chunk(chunk.pk)
    chunk.refresh_from_db()
    assert (chunk.cost_programs, chunk.run_s, chunk.waited_s) == (10, 6.5, 1.5)


def test_a_chunk_compiled_by_a_compiler_kept_running_runs_its_first_program_first(
    batches: Batches, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where compiles go to a compiler kept running, the first chunks compile in groups
    from one program, doubling; once two sizes were measured, each chunk at once."""
    monkeypatch.setattr(jobs, "compiles_kept_running", lambda *args: True)
    batches.cost = lambda n: (0.1 + 0.25 * n, 0.25 * n)  # kotlinc 1.2.41 and #504's runs
    _chunk(end=45, chunk_size=0)
    _run_every_queued_chunk()
    chunks = list(Chunk.objects.order_by("start"))
    assert [c.sized for c in chunks] == [10, 20, 10, 5]
    assert [call[2]["groups"] for call in batches.calls] == [
        [1, 2, 4, 3], [1, 2, 4, 8, 5], [10], [5],
    ]  # fmt: skip


def test_a_chunk_compiled_cold_compiles_at_once(batches: Batches) -> None:
    batches.cost = lambda n: (0.2 + 0.0126 * n, 0.004 * n)  # Rust: rustc's start, quick runs
    _chunk(end=280, chunk_size=0)
    _run_every_queued_chunk()
    assert [call[2]["groups"] for call in batches.calls] == [[10], [20], [120], [130]]


def test_chunks_claimed_before_any_cost_is_known_get_the_first_sizes(batches: Batches) -> None:
    first = _chunk(end=1000, chunk_size=0)
    Chunk.objects.filter(pk=first.pk).update(end=250)
    for start in (250, 500, 750):
        Chunk.objects.create(target=first.target, start=start, end=start + 250)
    for chunk in Chunk.objects.order_by("start"):
        jobs._claim(chunk.pk)
    claimed = Chunk.objects.filter(sized__isnull=False).order_by("started_at", "start")
    assert [(c.start, c.end, c.sized) for c in claimed] == [
        (0, 10, 10), (250, 270, 20), (500, 520, 20), (750, 770, 20),
    ]  # fmt: skip
    rests = Chunk.objects.filter(started_at__isnull=True).order_by("start")
    assert [(c.start, c.end) for c in rests] == [(10, 250), (270, 500), (520, 750), (770, 1000)]


@pytest.mark.parametrize(
    ("cost", "count", "sizes"),
    [
        # The compile is nearly all of it (a slow compiler, quick runs): long chunks; the
        # third takes the 670 left, less than one and a half sizes of 500.
        (lambda n: (20 + 0.01 * n, 0.001 * n), 700, [10, 20, 500]),
        (lambda n: (20 + 0.01 * n, 0.001 * n), 1100, [10, 20, 500, 500]),
        # The runs are (a thousand repetitions, hangs): short ones.
        (lambda n: (2.0, 1.0 * n), 90, [10, 20, 20, 20, 20]),
        # Quick runs, but each chunk ends waiting for a hung program (flume): long ones,
        # (0.3 + 2.5) / (0.1 · 0.1); the fourth takes the 390 left.
        (lambda n: (0.3, 0.1 * n + 2.5, 2.5), 700, [10, 20, 280, 280]),
    ],
)
def test_auto_sized_chunks_follow_what_the_earlier_ones_cost(
    batches: Batches, cost, count: int, sizes: list[int],  # noqa: ANN001
) -> None:  # fmt: skip
    batches.cost = cost
    chunk = _chunk(end=count, chunk_size=0)
    _run_every_queued_chunk()
    chunks = list(Chunk.objects.order_by("start"))
    assert [c.sized for c in chunks] == sizes
    assert [c.state for c in chunks] == ["done"] * len(sizes)
    assert [c.start for c in chunks[1:]] == [c.end for c in chunks[:-1]]
    assert chunks[-1].end == count
    assert _executions(chunk) == [(i, "terminated") for i in range(count)]
    assert Campaign.objects.get(pk=chunk.target.campaign_id).status == Campaign.Status.DONE


def test_an_auto_sized_chunk_claimed_again_is_not_cut_again(batches: Batches) -> None:
    # A chunk paused mid-run goes back to queued with the size it was given.
    chunk = _chunk(end=40, chunk_size=0)
    Chunk.objects.filter(pk=chunk.pk).update(started_at=timezone.now(), sized=40, attempts=1)
    assert jobs.run_chunk(chunk.pk) == {"chunk": chunk.pk, "recorded": 40}
    assert list(Chunk.objects.values_list("start", "end", "sized")) == [(0, 40, 40)]


# ---------------------------------------------------------------- claims


def test_a_chunk_is_claimed_by_its_job(batches: Batches, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(jobs, "_current_job_id", lambda: "job-b")
    chunk = _chunk()
    Chunk.objects.filter(pk=chunk.pk).update(attempts=2)
    claimed, why = jobs._claim(chunk.pk)
    assert why == "" and claimed.pk == chunk.pk
    chunk.refresh_from_db()
    assert (chunk.state, chunk.attempts, chunk.rq_job_id) == ("running", 3, "job-b")
    assert chunk.started_at == chunk.heartbeat_at
    assert timezone.now() - chunk.started_at < timedelta(minutes=1)
    campaign = chunk.target.campaign
    campaign.refresh_from_db()
    assert campaign.status == Campaign.Status.RUNNING and campaign.started_at is not None


def test_a_running_campaign_keeps_when_it_started(batches: Batches) -> None:
    chunk = _chunk()
    began = timezone.now() - timedelta(hours=1)
    Campaign.objects.filter(pk=chunk.target.campaign_id).update(status="running", started_at=began)
    jobs._claim(chunk.pk)
    assert Campaign.objects.get(pk=chunk.target.campaign_id).started_at == began


def test_a_chunk_run_outside_rq_keeps_its_job_id(batches: Batches) -> None:
    chunk = _chunk()
    Chunk.objects.filter(pk=chunk.pk).update(rq_job_id="job-a")
    jobs._claim(chunk.pk)
    assert Chunk.objects.get(pk=chunk.pk).rq_job_id == "job-a"


@pytest.mark.parametrize(
    ("setup", "why"),
    [
        (lambda c: Chunk.objects.filter(pk=c.pk).update(state="done"), "chunk already done"),
        (lambda c: Chunk.objects.filter(pk=c.pk).update(state="failed"), "chunk already failed"),
        (lambda c: Campaign.objects.update(status="paused"), "campaign paused"),
        (lambda c: Campaign.objects.update(status="cancelled"), "campaign cancelled"),
        (lambda c: Campaign.objects.update(status="done"), "campaign done"),
    ],
)
def test_a_chunk_not_to_run_is_skipped_and_left_as_it_is(
    batches: Batches,
    setup,
    why: str,  # noqa: ANN001
) -> None:
    chunk = _chunk()
    setup(chunk)
    before = Chunk.objects.get(pk=chunk.pk)
    assert jobs.run_chunk(chunk.pk) == {"chunk": chunk.pk, "skipped": why}
    after = Chunk.objects.get(pk=chunk.pk)
    assert (after.state, after.attempts, after.started_at) == (
        before.state, before.attempts, before.started_at,
    )  # fmt: skip
    assert batches.calls == []


def test_a_chunk_of_a_deleted_campaign_is_skipped(batches: Batches) -> None:
    chunk = _chunk()
    chunk.target.campaign.delete()
    assert jobs.run_chunk(chunk.pk) == {
        "chunk": chunk.pk,
        "skipped": "chunk gone: its campaign was deleted",
    }


def test_a_chunk_given_to_a_newer_job_is_not_run_by_the_old_one(
    batches: Batches, monkeypatch: pytest.MonkeyPatch
) -> None:
    chunk = _chunk()
    Chunk.objects.filter(pk=chunk.pk).update(rq_job_id="job-new")
    monkeypatch.setattr(jobs, "_current_job_id", lambda: "job-old")
    assert jobs.run_chunk(chunk.pk) == {"chunk": chunk.pk, "skipped": "superseded by job job-new"}
    assert Chunk.objects.get(pk=chunk.pk).attempts == 0


def test_an_owner_out_of_run_time_pauses_the_campaign(
    batches: Batches, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(jobs, "budget_note", lambda campaign: "daily run time spent")
    chunk = _chunk()
    assert jobs.run_chunk(chunk.pk) == {"chunk": chunk.pk, "skipped": "daily run time spent"}
    campaign = Campaign.objects.get(pk=chunk.target.campaign_id)
    assert (campaign.status, campaign.status_note) == ("paused", "daily run time spent")
    assert Chunk.objects.get(pk=chunk.pk).state == Chunk.State.QUEUED


# ---------------------------------------------------------------- stops and failures


def test_a_cancel_stops_the_chunk_and_requeues_it(batches: Batches) -> None:
    chunk = _chunk(end=4)
    batches.during = lambda index: (
        Campaign.objects.update(status="cancelled") if index == 1 else None
    )
    assert jobs.run_chunk(chunk.pk) == {"chunk": chunk.pk, "recorded": 2, "stopped": "cancelled"}
    assert Chunk.objects.get(pk=chunk.pk).state == Chunk.State.QUEUED
    assert [i for i, _o in _executions(chunk)] == [0, 1]


def test_a_job_superseded_mid_chunk_stops_and_leaves_the_chunk_to_the_new_one(
    batches: Batches, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(jobs, "_current_job_id", lambda: "job-old")
    chunk = _chunk(end=4)
    batches.during = lambda index: (
        Chunk.objects.filter(pk=chunk.pk).update(rq_job_id="job-new", state="queued")
        if index == 2
        else None
    )
    assert jobs.run_chunk(chunk.pk) == {
        "chunk": chunk.pk, "recorded": 3, "stopped": "superseded",
    }  # fmt: skip
    after = Chunk.objects.get(pk=chunk.pk)
    assert (after.state, after.rq_job_id, after.finished_at) == ("queued", "job-new", None)


def test_each_check_refreshes_the_heartbeat(batches: Batches) -> None:
    chunk = _chunk(end=2)
    old = timezone.now() - timedelta(hours=1)
    beats = []

    def age_then_look(index: int) -> None:
        if index == 1:
            beats.append(Chunk.objects.get(pk=chunk.pk).heartbeat_at)
        Chunk.objects.filter(pk=chunk.pk).update(heartbeat_at=old)

    batches.during = age_then_look
    jobs.run_chunk(chunk.pk)
    assert timezone.now() - beats[0] < timedelta(minutes=1)


def test_a_failed_batch_requeues_the_chunk_with_its_error(batches: Batches) -> None:
    chunk = _chunk(end=3)

    def boom(index: int) -> None:
        if index == 1:
            raise RuntimeError("boom")

    batches.during = boom
    with pytest.raises(RuntimeError, match="boom"):
        jobs.run_chunk(chunk.pk)
    after = Chunk.objects.get(pk=chunk.pk)
    assert after.state == Chunk.State.QUEUED and after.attempts == 1
    assert after.last_error.startswith("RuntimeError: boom\nTraceback (most recent call last):")
    assert "in boom" in after.last_error
    # What was recorded before is kept.
    assert _executions(chunk) == [(0, "terminated")]
    assert Campaign.objects.get(pk=chunk.target.campaign_id).status == Campaign.Status.RUNNING


def test_a_chunk_failing_its_last_attempt_fails_and_ends_its_campaign(
    batches: Batches,
) -> None:
    chunk = _chunk(end=2)
    Chunk.objects.filter(pk=chunk.pk).update(attempts=MAX_CHUNK_ATTEMPTS - 1)

    def boom(index: int) -> None:
        raise RuntimeError("x" * 9000)

    batches.during = boom
    with pytest.raises(RuntimeError):
        jobs.run_chunk(chunk.pk)
    after = Chunk.objects.get(pk=chunk.pk)
    assert after.state == Chunk.State.FAILED and after.attempts == MAX_CHUNK_ATTEMPTS
    # The end of the error is kept (the traceback's last frames), 8000 characters of it.
    assert len(after.last_error) == 8000 and after.last_error.endswith("x" * 100 + "\n")
    campaign = Campaign.objects.get(pk=chunk.target.campaign_id)
    assert campaign.status == Campaign.Status.DONE


def test_a_chunk_failing_before_its_last_attempt_leaves_its_campaign_running(
    batches: Batches,
) -> None:
    chunk = _chunk(end=2)
    Chunk.objects.filter(pk=chunk.pk).update(attempts=MAX_CHUNK_ATTEMPTS - 2)
    batches.during = lambda index: (_ for _ in ()).throw(RuntimeError("boom"))
    with pytest.raises(RuntimeError):
        jobs.run_chunk(chunk.pk)
    assert Chunk.objects.get(pk=chunk.pk).state == Chunk.State.QUEUED
    assert Campaign.objects.get(pk=chunk.target.campaign_id).status == Campaign.Status.RUNNING


def test_a_campaigns_target_runs_with_its_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    asked = []
    monkeypatch.setattr(
        jobs, "make_target", lambda *args, **kwargs: asked.append((args, kwargs)) or "target"
    )
    chunk = _chunk(repetitions=6, value_oracle=False, pct_depth=3)
    assert jobs.campaign_target(chunk.target) == "target"
    assert asked == [(("go", "go-1.0-test"), {"repetitions": 6, "values": False, "pct_depth": 3})]


# ---------------------------------------------------------------- rows touched, logs


def test_a_run_of_another_target_does_not_count_as_done(batches: Batches) -> None:
    chunk = _chunk(end=2)
    campaign = chunk.target.campaign
    other = CampaignTarget.objects.create(campaign=campaign, language="go", toolchain_id="go-b")
    Execution.objects.create(
        campaign=campaign, target=other, index=1, outcome="terminated",
        program=store_program(campaign_program(campaign, 1)),
    )  # fmt: skip
    assert jobs.run_chunk(chunk.pk) == {"chunk": chunk.pk, "recorded": 2}
    assert _executions(chunk) == [(0, "terminated"), (1, "terminated")]


def test_claiming_a_chunk_starts_its_own_campaign_only(batches: Batches) -> None:
    chunk = _chunk()
    waiting = _chunk()
    jobs._claim(chunk.pk)
    assert Campaign.objects.get(pk=waiting.target.campaign_id).status == Campaign.Status.QUEUED


def test_a_chunk_ends_with_a_fresh_heartbeat(
    batches: Batches, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(jobs, "CHECK_EVERY_S", 3600.0)  # no beat between programs
    chunk = _chunk(end=2)
    jobs.run_chunk(chunk.pk)
    chunk.refresh_from_db()
    assert chunk.heartbeat_at > chunk.started_at
    assert chunk.heartbeat_at >= chunk.finished_at - timedelta(seconds=1)


def test_the_heartbeat_thread_beats_for_this_chunk_and_job(
    batches: Batches, monkeypatch: pytest.MonkeyPatch
) -> None:
    made: list[tuple[int, str]] = []
    real = jobs._Heartbeat

    def heartbeat(chunk_id: int, job_id: str) -> object:
        made.append((chunk_id, job_id))
        return real(chunk_id, job_id)

    monkeypatch.setattr(jobs, "_Heartbeat", heartbeat)
    monkeypatch.setattr(jobs, "_current_job_id", lambda: "job-a")
    chunk = _chunk(end=1)
    jobs.run_chunk(chunk.pk)
    assert made == [(chunk.pk, "job-a")]


def _events(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.name == jobs.log.name]


def _where(chunk: Chunk, attempt: int = 1) -> dict[str, object]:
    return {
        "campaign": chunk.target.campaign_id, "chunk": chunk.pk,
        "toolchain": chunk.target.toolchain_id, "first": chunk.start, "end": chunk.end,
        "attempt": attempt,
    }  # fmt: skip


def _fields(record: logging.LogRecord, *names: str) -> dict[str, object]:
    return {name: getattr(record, name) for name in names}


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """The job's clock: 100 s when it starts, 101.23456 s at every later look."""
    times = iter([100.0])
    monkeypatch.setattr(jobs, "time", SimpleNamespace(monotonic=lambda: next(times, 101.23456)))


def _seconds(record: logging.LogRecord) -> float:
    # What the job took, to the hundredth of a second, as the clock above tells it.
    assert record.seconds == 1.23 and isinstance(record.seconds, float)
    return record.seconds


WHERE = ("campaign", "chunk", "toolchain", "first", "end", "attempt")


def test_a_chunk_logs_its_start_and_end_with_their_fields(
    batches: Batches, caplog: pytest.LogCaptureFixture, clock: None
) -> None:
    caplog.set_level(logging.INFO, logger=jobs.log.name)
    chunk = _chunk(start=2, end=4, program_count=4)
    jobs.run_chunk(chunk.pk)
    started, done, campaign_done = _events(caplog)
    campaign = chunk.target.campaign_id
    assert started.getMessage() == f"chunk {chunk.pk} of campaign {campaign} started"
    assert started.event == "chunk_started"
    assert _fields(started, *WHERE) == _where(chunk)
    assert done.getMessage() == f"chunk {chunk.pk} of campaign {campaign} done: 2 programs"
    assert done.event == "chunk_done" and done.recorded == 2
    assert _fields(done, *WHERE) == _where(chunk)
    _seconds(done)
    assert campaign_done.getMessage() == f"campaign {campaign} done"
    assert (campaign_done.event, campaign_done.campaign) == ("campaign_done", campaign)


def test_a_skipped_chunk_logs_why(batches: Batches, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger=jobs.log.name)
    chunk = _chunk()
    Campaign.objects.update(status="paused")
    jobs.run_chunk(chunk.pk)
    (skipped,) = _events(caplog)
    assert skipped.getMessage() == f"chunk {chunk.pk} skipped: campaign paused"
    assert _fields(skipped, "event", "chunk", "reason") == {
        "event": "chunk_skipped", "chunk": chunk.pk, "reason": "campaign paused",
    }  # fmt: skip


def test_a_stopped_chunk_logs_why_and_what_it_recorded(
    batches: Batches, caplog: pytest.LogCaptureFixture, clock: None
) -> None:
    caplog.set_level(logging.INFO, logger=jobs.log.name)
    chunk = _chunk(end=3)
    batches.during = lambda index: Campaign.objects.update(status="paused") if index else None
    jobs.run_chunk(chunk.pk)
    _started, stopped = _events(caplog)
    assert stopped.getMessage() == f"chunk {chunk.pk} stopped (paused) after 2 programs"
    assert _fields(stopped, "event", "reason", "recorded") == {
        "event": "chunk_stopped", "reason": "paused", "recorded": 2,
    }  # fmt: skip
    assert _fields(stopped, *WHERE) == _where(chunk)
    _seconds(stopped)


def test_a_failed_chunk_logs_its_error_and_whether_it_gave_up(
    batches: Batches, caplog: pytest.LogCaptureFixture, clock: None
) -> None:
    caplog.set_level(logging.INFO, logger=jobs.log.name)
    chunk = _chunk(end=2)
    Chunk.objects.filter(pk=chunk.pk).update(attempts=MAX_CHUNK_ATTEMPTS - 1)

    def boom(index: int) -> None:
        if index:
            raise RuntimeError("boom")

    batches.during = boom
    with pytest.raises(RuntimeError):
        jobs.run_chunk(chunk.pk)
    _started, failed = _events(caplog)
    assert failed.getMessage() == f"chunk {chunk.pk} failed: boom"
    assert failed.levelno == logging.ERROR and failed.exc_info is not None
    assert _fields(failed, "event", "recorded", "given_up") == {
        "event": "chunk_failed", "recorded": 1, "given_up": True,
    }  # fmt: skip
    assert _fields(failed, *WHERE) == _where(chunk, attempt=MAX_CHUNK_ATTEMPTS)
    _seconds(failed)


# ---------------------------------------------------------------- the heartbeat


@pytest.mark.django_db(transaction=True)
def test_a_heartbeat_the_database_refuses_is_tried_again(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    from django.db import OperationalError
    from django.db.models import QuerySet

    long_ago = timezone.now() - timedelta(hours=1)
    chunk = _chunk()
    Chunk.objects.filter(pk=chunk.pk).update(
        state=Chunk.State.RUNNING, rq_job_id="job-1", heartbeat_at=long_ago
    )
    # The first beat meets a locked table, as SQLite answers a writer while another writes.
    real_update, refused = QuerySet.update, []

    def update(self: QuerySet, **kwargs: object) -> int:
        if self.model is Chunk and "heartbeat_at" in kwargs and not refused:
            refused.append(kwargs)
            raise OperationalError("database table is locked")
        return real_update(self, **kwargs)

    monkeypatch.setattr(QuerySet, "update", update)
    with (
        caplog.at_level(logging.WARNING, logger="chanfuzz.campaigns"),
        jobs._Heartbeat(chunk.pk, "job-1", interval=0.05),
    ):
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            chunk.refresh_from_db()
            if chunk.heartbeat_at > long_ago:
                break
            time.sleep(0.05)
    assert refused, "the beat never met the locked table"
    assert chunk.heartbeat_at > long_ago  # the next beat went through
    assert f"heartbeat of chunk {chunk.pk} missed: database table is locked" in caplog.text


# ---------------------------------------------------------------- chunks taken while one waits


class _Taking:
    """A campaign of three chunks of 4, queued with jobs job-a, job-b and job-c; the job
    under way is job-a, which rq gives all the time it wants. `started[i]` is set when
    chunk i's batch has its verdicts, `ended[i]` when the thread that ran taken chunk i
    has ended: a batch that waits for it writes nothing meanwhile (the tests' SQLite, in
    memory, locks a table two connections write to at once)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.setattr(jobs, "_current_job_id", lambda: "job-a")
        monkeypatch.setattr(jobs, "_current_job_timeout", lambda: None)
        first = _chunk(end=4, program_count=12)
        self.chunks = [first] + [
            Chunk.objects.create(target=first.target, start=start, end=start + 4)
            for start in (4, 8)
        ]
        for chunk, job in zip(self.chunks, ("job-a", "job-b", "job-c"), strict=True):
            Chunk.objects.filter(pk=chunk.pk).update(rq_job_id=job)
        self.started = [threading.Event() for _ in self.chunks]
        self.ended = [threading.Event() for _ in self.chunks]
        run_taken = jobs._JobChunks._run_taken

        def noted(job_chunks: jobs._JobChunks, chunk: Chunk) -> None:
            try:
                run_taken(job_chunks, chunk)
            finally:
                self.ended[self.which(chunk.start)].set()

        monkeypatch.setattr(jobs._JobChunks, "_run_taken", noted)

    def which(self, start: int) -> int:
        return [c.start for c in self.chunks].index(start)

    def of(self, programs: list) -> int:
        """Which chunk a batch's programs are."""
        campaign = self.chunks[0].target.campaign
        firsts = [campaign_program(campaign, c.start).program for c in self.chunks]
        return firsts.index(programs[0])


@pytest.mark.django_db(transaction=True)
def test_a_chunk_waiting_for_hung_programs_runs_the_next_queued_chunk_meanwhile(
    batches: Batches, monkeypatch: pytest.MonkeyPatch
) -> None:
    taking = _Taking(monkeypatch)
    chunks = taking.chunks
    overlapped: list[bool] = []

    def waits(programs: list, on_waiting) -> None:  # noqa: ANN001
        i = taking.of(programs)
        taking.started[i].set()
        if i < 2:  # the first two end waiting for a hung program; the next is taken
            assert on_waiting() is True
            overlapped.append(taking.started[i + 1].wait(10))
            assert taking.ended[i + 1].wait(10)

    batches.waits = waits
    summary = jobs.run_chunk(chunks[0].pk)
    assert overlapped == [True, True]  # each was under way while the one before waited
    taken = [{"chunk": chunks[1].pk, "recorded": 4}, {"chunk": chunks[2].pk, "recorded": 4}]
    assert summary == {"chunk": chunks[0].pk, "recorded": 4, "taken": taken}
    rows = Chunk.objects.order_by("start")
    assert [(c.state, c.rq_job_id, c.attempts) for c in rows] == [("done", "job-a", 1)] * 3
    assert _executions(chunks[0]) == [(i, "terminated") for i in range(12)]
    assert Campaign.objects.get(pk=chunks[0].target.campaign_id).status == "done"
    # The taken chunks' own jobs, when a worker gets to them, have nothing to do.
    monkeypatch.setattr(jobs, "_current_job_id", lambda: "job-b")
    assert jobs.run_chunk(chunks[1].pk) == {"chunk": chunks[1].pk, "skipped": "chunk already done"}


@pytest.mark.django_db(transaction=True)
def test_a_job_takes_at_most_max_taken_chunks_and_none_outside_rq(
    batches: Batches, monkeypatch: pytest.MonkeyPatch
) -> None:
    taking = _Taking(monkeypatch)
    chunks = taking.chunks
    monkeypatch.setattr(jobs, "MAX_TAKEN", 1)
    answers: list[bool] = []

    def waits(programs: list, on_waiting) -> None:  # noqa: ANN001
        answers.append(on_waiting())
        if taking.of(programs) == 0:
            assert taking.ended[1].wait(10)

    batches.waits = waits
    summary = jobs.run_chunk(chunks[0].pk)
    assert [t["chunk"] for t in summary["taken"]] == [chunks[1].pk]
    assert answers == [True, False]  # the second chunk's wait was its own
    third = Chunk.objects.get(pk=chunks[2].pk)
    assert (third.state, third.rq_job_id) == ("queued", "job-c")
    # Run outside rq (no job under way), though the chunk names its queued job: no chunk
    # to take for.
    monkeypatch.setattr(jobs, "_current_job_id", lambda: None)
    Chunk.objects.create(target=third.target, start=12, end=16)
    batches.waits = lambda _programs, on_waiting: answers.append(on_waiting)
    assert jobs.run_chunk(third.pk) == {"chunk": third.pk, "recorded": 4}
    assert answers[-1] is None


@pytest.mark.django_db(transaction=True)
def test_a_taken_chunk_that_fails_goes_back_to_the_queue_with_a_job_of_its_own(
    batches: Batches, monkeypatch: pytest.MonkeyPatch
) -> None:
    from runners.campaigns import chunks as chunks_module

    taking = _Taking(monkeypatch)
    chunks = taking.chunks
    monkeypatch.setattr(jobs, "MAX_TAKEN", 1)
    enqueued: list[str] = []
    monkeypatch.setattr(
        chunks_module,
        "get_queue",
        lambda: SimpleNamespace(enqueue=lambda *_a, job_id, **_k: enqueued.append(job_id)),
    )

    def waits(programs: list, on_waiting) -> None:  # noqa: ANN001
        if taking.of(programs) == 1:
            raise RuntimeError("boom")
        assert on_waiting() is True
        assert taking.ended[1].wait(10)

    batches.waits = waits
    summary = jobs.run_chunk(chunks[0].pk)
    assert summary == {"chunk": chunks[0].pk, "recorded": 4}  # the job itself went on
    failed = Chunk.objects.get(pk=chunks[1].pk)
    assert failed.state == "queued" and "RuntimeError: boom" in failed.last_error
    assert failed.rq_job_id.startswith(f"chunk-{failed.pk}-") and enqueued == [failed.rq_job_id]


def test_a_wait_with_no_chunk_queued_uses_none_of_the_jobs_allowance(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(jobs, "MAX_TAKEN", 1)
    running = _chunk(end=4, program_count=12)
    Chunk.objects.filter(pk=running.pk).update(state=Chunk.State.RUNNING, rq_job_id="job-a")
    job_chunks = jobs._JobChunks(job_id="job-a", until=None)
    assert job_chunks._take_next(running) is None  # nothing queued: nothing used up
    later = [Chunk.objects.create(target=running.target, start=s, end=s + 4) for s in (4, 8)]
    taken = job_chunks._take_next(running)
    assert taken is not None and taken.pk == later[0].pk
    assert (taken.state, taken.rq_job_id) == ("running", "job-a")
    assert job_chunks._take_next(running) is None  # MAX_TAKEN
    assert Chunk.objects.get(pk=later[1].pk).state == "queued"
    # Past half the job's time: none either.
    assert jobs._JobChunks(job_id="job-a", until=time.monotonic() - 1)._take_next(running) is None

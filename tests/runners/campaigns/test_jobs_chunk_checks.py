"""A chunk job asks whether to go on (its campaign paused or cancelled) at most every
`jobs.CHECK_EVERY_S`, not after each program: `run_chunk` runs for real with the batch's
compile and runs replaced by verdicts, and the campaign is paused after its first program."""

from __future__ import annotations

import pytest

from generator.settings import PRESETS
from runners.campaigns import jobs
from runners.campaigns.models import Campaign, CampaignTarget, Chunk, Execution
from runners.engine.execute import BatchReport
from runners.engine.run_records import ProgramRun
from runners.engine.run_target import target_for
from runners.engine.verdicts import Classification, Outcome
from tests.runners.conftest import fake_toolchain

pytestmark = pytest.mark.django_db

FAKE_GO = fake_toolchain("go")


@pytest.fixture
def chunk(monkeypatch: pytest.MonkeyPatch) -> Chunk:
    """A queued chunk of 6 programs whose batch 'runs' each to a clean exit, the campaign
    being paused as the first verdict comes in."""
    campaign = Campaign.objects.create(
        name="checks", heuristic="A", settings=PRESETS["A"].as_dict(), seed=5,
        program_count=6, timeout_s=5.0, repetitions=1, chunk_size=6, generator_version="test",
    )  # fmt: skip
    target = CampaignTarget.objects.create(
        campaign=campaign, language="go", toolchain_id=FAKE_GO.id
    )
    made = Chunk.objects.create(target=target, start=0, end=6)

    def fake_batch(programs, run_target, *, on_result, **_kwargs):  # noqa: ANN001, ANN202
        for index in range(len(programs)):
            verdict = Classification(Outcome.TERMINATED, "exit 0", "")
            on_result(ProgramRun(index=index, classification=verdict))
            if index == 0:
                Campaign.objects.filter(pk=campaign.pk).update(status=Campaign.Status.PAUSED)
        return BatchReport()

    monkeypatch.setattr(jobs, "campaign_target", lambda row: target_for(FAKE_GO, repetitions=1))
    monkeypatch.setattr(jobs, "get_sandbox", lambda *args, **kwargs: None)
    monkeypatch.setattr(jobs, "execute_batch", fake_batch)
    return made


def test_a_pause_stops_the_chunk_at_the_next_check(
    chunk: Chunk, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(jobs, "CHECK_EVERY_S", 0.0)
    assert jobs.run_chunk(chunk.pk) == {"chunk": chunk.pk, "recorded": 2, "stopped": "paused"}
    chunk.refresh_from_db()
    # Back to queued with what it recorded kept: resuming runs the other four.
    assert chunk.state == Chunk.State.QUEUED
    assert Execution.objects.filter(target=chunk.target).count() == 2


def test_between_checks_the_chunk_runs_on(chunk: Chunk, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(jobs, "CHECK_EVERY_S", 3600.0)
    assert jobs.run_chunk(chunk.pk) == {"chunk": chunk.pk, "recorded": 6}
    chunk.refresh_from_db()
    assert chunk.state == Chunk.State.DONE
    assert Execution.objects.filter(target=chunk.target).count() == 6

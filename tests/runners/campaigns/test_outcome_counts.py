"""The executions per verdict kept on each campaign target (OutcomeCount, issue #20's load
test): whatever inserts a campaign's execution, the stored counts equal a COUNT of the rows,
and the list and progress read them.

The concurrent test runs on PostgreSQL only (scripts/test.sh's second run): SQLite
serialises every write, so it cannot show a lost update.
"""

from __future__ import annotations

import threading
from collections import Counter
from pathlib import Path

import pytest
from django.apps import apps
from django.db import IntegrityError, close_old_connections, connection

from runners.campaigns import backup, programs, selectors, services
from runners.campaigns.models import (
    Campaign,
    CampaignTarget,
    Execution,
    OutcomeCount,
    Reproduction,
)
from runners.engine.run_records import ProgramRun
from runners.engine.verdicts import Classification, Outcome

pytestmark = pytest.mark.django_db

OUTCOMES = ["terminated", "terminated", "crash", "timeout", "terminated", "wrong_value"]


def _campaign(languages: tuple[str, ...] = ("go", "kotlin")) -> Campaign:
    campaign = Campaign.objects.create(
        name="counts", heuristic="A", settings={}, seed=1, program_count=100,
        timeout_s=5.0, repetitions=1, chunk_size=10, generator_version="test",
        status=Campaign.Status.DONE,
    )  # fmt: skip
    for language in languages:
        CampaignTarget.objects.create(
            campaign=campaign, language=language, toolchain_id=f"{language}-test"
        )
    return campaign


def _result(outcome: str) -> ProgramRun:
    verdict = Classification(Outcome(outcome), f"it {outcome}", f"go | {outcome} | sig")
    return ProgramRun(index=0, classification=verdict)


def _stored(campaign: Campaign) -> dict[tuple[int, str], int]:
    return {
        (row.target_id, row.outcome): row.count
        for row in OutcomeCount.objects.filter(campaign=campaign)
        if row.count
    }


def _counted(campaign: Campaign) -> dict[tuple[int, str], int]:
    return dict(
        Counter(
            Execution.objects.filter(campaign=campaign).values_list("target_id", "outcome")
        )
    )


def test_record_execution_counts_each_verdict_once_per_target() -> None:
    campaign = _campaign()
    go, kotlin = campaign.targets.all()
    program = programs.store_program(programs.build_from_effect("Get(c1)"))
    for index, outcome in enumerate(OUTCOMES):
        services.record_execution(
            program=program, index=index, result=_result(outcome), language="go", target=go
        )
    services.record_execution(
        program=program, index=0, result=None, language="kotlin", target=kotlin
    )
    # A retried chunk records nothing again: not counted again.
    again = services.record_execution(
        program=program, index=2, result=_result("crash"), language="go", target=go
    )
    assert again is None
    assert _stored(campaign) == {
        (go.pk, "terminated"): 3,
        (go.pk, "crash"): 1,
        (go.pk, "timeout"): 1,
        (go.pk, "wrong_value"): 1,
        (kotlin.pk, "skipped"): 1,
    }
    assert _stored(campaign) == _counted(campaign)


def test_direct_inserts_are_counted_and_a_reproductions_runs_are_not() -> None:
    campaign = _campaign(("go",))
    target = campaign.targets.get()
    program = programs.store_program(programs.build_from_effect("Put(c1)"))
    # Without campaign set: the count finds the target's campaign itself.
    Execution.objects.create(target=target, program=program, index=0, outcome="crash")
    Execution.objects.create(
        target=target, campaign=campaign, program=program, index=1, outcome="crash"
    )
    repro = Reproduction.objects.create(
        program=program, language="go", toolchain_id="go-test", times=1, timeout_s=5.0,
        repetitions=1,
    )  # fmt: skip
    Execution.objects.create(reproduction=repro, program=program, index=0, outcome="crash")
    assert _stored(campaign) == {(target.pk, "crash"): 2}
    assert OutcomeCount.objects.count() == 1


def test_a_refused_insert_counts_nothing() -> None:
    campaign = _campaign(("go",))
    target = campaign.targets.get()
    program = programs.store_program(programs.build_from_effect("Put(c1)"))
    Execution.objects.create(target=target, campaign=campaign, program=program, index=0,
                             outcome="terminated")  # fmt: skip
    with pytest.raises(IntegrityError, match="(?i)unique"):
        Execution.objects.create(
            target=target, campaign=campaign, program=program, index=0, outcome="crash"
        )
    assert _stored(campaign) == {(target.pk, "terminated"): 1}


def test_list_and_progress_read_the_stored_counts() -> None:
    campaign = _campaign()
    go, kotlin = campaign.targets.all()
    program = programs.store_program(programs.build_from_effect("Get(c1)"))
    for index, outcome in enumerate(OUTCOMES):
        Execution.objects.create(target=go, campaign=campaign, program=program, index=index,
                                 outcome=outcome)  # fmt: skip
    Execution.objects.create(target=kotlin, campaign=campaign, program=program, index=0,
                             outcome="crash")  # fmt: skip
    want = {"terminated": 3, "crash": 2, "timeout": 1, "wrong_value": 1}
    assert selectors.campaigns_outcome_counts([campaign.pk]) == {campaign.pk: want}
    progress = selectors.campaign_progress(campaign)
    assert [t.counts for t in progress.targets] == [
        {"terminated": 3, "crash": 1, "timeout": 1, "wrong_value": 1},
        {"crash": 1},
    ]
    assert (progress.done, progress.total) == (7, 200)
    # The figures come from the stored counts, not from the rows: a count moved by hand
    # shows on the page (which a COUNT over the executions would not).
    OutcomeCount.objects.filter(target=kotlin, outcome="crash").update(count=5)
    assert selectors.campaigns_outcome_counts([campaign.pk])[campaign.pk]["crash"] == 6
    assert selectors.campaign_progress(campaign).done == 11


def test_recount_and_the_migration_count_rows_inserted_in_bulk() -> None:
    campaign = _campaign()
    go, kotlin = campaign.targets.all()
    program = programs.store_program(programs.build_from_effect("Get(c1)"))
    Execution.objects.bulk_create(
        Execution(target=t, campaign=campaign, program=program, index=i, outcome=o)
        for t in (go, kotlin)
        for i, o in enumerate(OUTCOMES)
    )
    assert _stored(campaign) == {}  # bulk_create bypasses Execution.save
    OutcomeCount.recount([go.pk])
    assert _stored(campaign) == {k: v for k, v in _counted(campaign).items() if k[0] == go.pk}
    OutcomeCount.recount([go.pk, kotlin.pk])
    assert _stored(campaign) == _counted(campaign)

    migration = __import__(
        "runners.campaigns.migrations.0011_outcome_counts", fromlist=["count_existing"]
    )
    OutcomeCount.objects.all().delete()
    migration.count_existing(apps, None)
    assert _stored(campaign) == _counted(campaign)


def test_a_restored_campaign_has_its_counts(tmp_path: Path) -> None:
    campaign = _campaign()
    go, _ = campaign.targets.all()
    program = programs.store_program(programs.build_from_effect("Get(c1)"))
    for index, outcome in enumerate(OUTCOMES):
        services.record_execution(
            program=program, index=index, result=_result(outcome), language="go", target=go
        )
    before = selectors.campaigns_outcome_counts([campaign.pk])[campaign.pk]
    out = tmp_path / "campaign.json"
    backup.backup(campaign.pk, out)
    restored, _ = backup.restore(out)
    assert restored.pk != campaign.pk
    assert selectors.campaigns_outcome_counts([restored.pk])[restored.pk] == before
    assert _stored(restored) == _counted(restored)


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_concurrent_workers_lose_no_count() -> None:
    """Four threads (four connections) record 30 executions each on one target, with the
    first insert of each verdict raced: every one is counted."""
    if connection.vendor != "postgresql":
        pytest.skip("SQLite serialises writes; scripts/test.sh's PostgreSQL run has this test")
    campaign = _campaign(("go",))
    target = campaign.targets.get()
    program = programs.store_program(programs.build_from_effect("Get(c1)"))
    start = threading.Barrier(4)
    errors: list[BaseException] = []

    def work(worker: int) -> None:
        try:
            start.wait()
            for i in range(30):
                services.record_execution(
                    program=program, index=worker * 30 + i,
                    result=_result(OUTCOMES[i % len(OUTCOMES)]), language="go", target=target,
                )  # fmt: skip
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)
        finally:
            close_old_connections()
            connection.close()

    threads = [threading.Thread(target=work, args=(w,)) for w in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    assert _stored(campaign) == _counted(campaign)
    assert sum(_stored(campaign).values()) == 120

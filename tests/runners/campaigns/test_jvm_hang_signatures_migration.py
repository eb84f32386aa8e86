"""Migration 0014: JVM hangs stored before their signatures left the JVM's own threads out
are signed again from their dumps, and their findings renamed or merged."""

from __future__ import annotations

import importlib
from datetime import timedelta
from pathlib import Path

import pytest
from django.apps import apps
from django.utils import timezone

from runners.campaigns.models import Campaign, CampaignTarget, Execution, Finding, Reduction
from runners.campaigns.programs import build_from_effect, store_program
from runners.engine.verdicts import classify_run

pytestmark = pytest.mark.django_db

migration = importlib.import_module("runners.campaigns.migrations.0014_jvm_hang_signatures")
DUMPS = Path(__file__).parents[1] / "engine" / "samples"
JAVA17 = (DUMPS / "jvm17_kotlinx019_hang_dump.txt").read_text()
JAVA25 = (DUMPS / "jvm25_kotlinx019_hang_dump.txt").read_text()
# As stored before: the same hang of kotlinx.coroutines 0.19 on Java 17, and as a trial
# build on Java 25 signed it (without the replay thread: one RUNNABLE fewer).
OLD_17 = (
    "kotlin | hang | RUNNABLE×8, TIMED_WAITING on object monitor, TIMED_WAITING parking,"
    " WAITING on object monitor, WAITING parking×8"
)
OLD_25 = OLD_17.replace("RUNNABLE×8", "RUNNABLE×7")
NEW = "kotlin | hang | TIMED_WAITING parking, WAITING parking×8"
NOW = timezone.now()
# A program of its own for each run (programs are stored by content).
EFFECTS = ("Get(c1)", "Put(c1)", "Spawn(Get(c1)) ; Put(c1)", "Get(c1) ; Get(c2)", "Put(c2)")


def _finding(signature: str, seen_days_ago: int) -> Finding:
    when = NOW - timedelta(days=seen_days_ago)
    return Finding.objects.create(
        signature=signature, outcome="timeout", language=signature.split(" | ")[0],
        title="hung", first_seen=when, last_seen=when,
    )  # fmt: skip


@pytest.fixture
def target() -> CampaignTarget:
    campaign = Campaign.objects.create(
        name="before", heuristic="E", settings={}, seed=1, program_count=10, timeout_s=30.0,
        repetitions=1000, chunk_size=10, generator_version="test", status=Campaign.Status.DONE,
    )  # fmt: skip
    return CampaignTarget.objects.create(
        campaign=campaign, language="kotlin", toolchain_id="kotlin-1.2.41-coroutines-0.19"
    )


def _run(target: CampaignTarget, finding: Finding, index: int, dump: str, **extra) -> Execution:
    program = store_program(build_from_effect(EFFECTS[index]))
    return Execution.objects.create(
        target=target, campaign=target.campaign, program=program, index=index,
        outcome="timeout", signature=finding.signature, finding=finding, dump=dump, **extra,
    )  # fmt: skip


def test_the_dumps_sign_as_the_verdicts_do_today() -> None:
    for dump in (JAVA17, JAVA25):
        today = classify_run(
            "kotlin", exit_code=None, signal=None, timed_out=True, stdout="", stderr="", dump=dump
        )
        assert migration.signature("kotlin", dump) == today.signature == NEW


def test_one_hang_stored_three_ways_becomes_one_finding(target: CampaignTarget) -> None:
    on_17, on_25, today = _finding(OLD_17, 30), _finding(OLD_25, 2), _finding(NEW, 1)
    _run(target, on_17, 0, JAVA17, hang_confirmed=True)
    _run(target, on_17, 1, JAVA17)
    _run(target, on_25, 2, JAVA25)
    _run(target, today, 3, JAVA25, hang_confirmed=True)
    Finding.objects.filter(pk=on_17.pk).update(bisection={"first_bad": "0.19"})
    reduction = Reduction.objects.create(
        finding=on_17, program=on_17.executions.first().program, language="kotlin",
        toolchain_id=target.toolchain_id, signature=OLD_17, timeout_s=30.0, repetitions=1000,
    )  # fmt: skip
    go = _finding("go | hang | chan receive", 5)
    _run(target, go, 4, "goroutine 1 [chan receive]:\nmain.main()\n")

    migration.resign(apps, None)

    merged = Finding.objects.get(signature__startswith="kotlin")
    assert merged.pk == today.pk and merged.signature == NEW
    assert (merged.execution_count, merged.program_count, merged.confirmed_hangs) == (4, 4, 2)
    assert merged.first_seen == on_17.first_seen and merged.last_seen == today.last_seen
    assert merged.bisection == {"first_bad": "0.19"}
    assert set(merged.executions.values_list("signature", flat=True)) == {NEW}
    reduction.refresh_from_db()
    assert (reduction.finding_id, reduction.signature) == (merged.pk, NEW)
    assert Finding.objects.get(pk=go.pk).signature == "go | hang | chan receive"
    assert Execution.objects.get(index=4).signature == "go | hang | chan receive"


def test_a_finding_alone_with_its_new_signature_is_renamed(target: CampaignTarget) -> None:
    old = _finding(OLD_17, 3)
    _run(target, old, 0, JAVA17)
    stray = Execution.objects.create(
        program=store_program(build_from_effect("Get(c1)")), index=0, outcome="timeout",
        signature=OLD_25, dump=JAVA25,
    )  # fmt: skip
    migration.resign(apps, None)
    old.refresh_from_db()
    assert old.signature == NEW
    assert set(Execution.objects.values_list("signature", flat=True)) == {NEW}
    stray.refresh_from_db()
    assert stray.signature == NEW
    migration.resign(apps, None)  # again: nothing left to do
    assert list(Finding.objects.values_list("signature", flat=True)) == [NEW]


def test_a_cut_dump_follows_its_finding_and_decides_nothing(target: CampaignTarget) -> None:
    # A stored dump is cut at 64,000 characters (services._bounded): it may list fewer
    # threads than the run had, so its finding is signed by the whole dumps only.
    cut = JAVA17[:3000] + "\n… [61000 more characters dropped]"
    assert migration.signature("kotlin", cut) != NEW
    whole, only_cut = _finding(OLD_17, 3), _finding(OLD_25, 3)
    _run(target, whole, 0, cut)
    _run(target, whole, 1, JAVA17)
    _run(target, only_cut, 2, cut)
    migration.resign(apps, None)
    assert set(whole.executions.values_list("signature", flat=True)) == {NEW}
    assert Finding.objects.get(pk=whole.pk).signature == NEW
    assert Finding.objects.get(pk=only_cut.pk).signature == OLD_25
    assert set(only_cut.executions.values_list("signature", flat=True)) == {OLD_25}

"""`campaign_backup` / `campaign_restore` (runners.campaigns.backup): a round trip keeps every
row and figure exactly, on the database the run uses (SQLite, and PostgreSQL in
scripts/test.sh's second run), and a backup made on one kind restores on the other.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import connection
from django.utils import timezone

from runners.campaigns import backup, programs
from runners.campaigns.models import (
    Campaign,
    CampaignTarget,
    Chunk,
    Execution,
    Finding,
    Program,
)
from tests.database import drop_postgres_database

pytestmark = pytest.mark.django_db

REPO = Path(__file__).resolve().parents[3]
EFFECTS = ["Get(c1)", "Put(c1)", "Spawn(Put(c1)) ; Get(c1)", "Spawn(Get(c1)) ; Put(c1)"]


def _campaign(status: str = Campaign.Status.DONE, owner=None) -> Campaign:  # noqa: ANN001
    """Two targets, three chunks each (one running), 30 executions per target, two findings
    (one a confirmed hang), four programs, odd text in the outputs."""
    stored = [programs.store_program(programs.build_from_effect(e)) for e in EFFECTS]
    start = timezone.now() - timedelta(hours=3)
    campaign = Campaign.objects.create(
        name="backup «ü» test",
        heuristic="custom",
        settings={"g_select": 2, "max_processes": 4},
        capabilities={"select": True},
        seed=41,
        program_count=30,
        timeout_s=5.0,
        repetitions=3,
        chunk_size=10,
        generator_version="test",
        status=status,
        started_at=start,
        pct_depth=3,
        owner=owner,
        status_note="",
    )
    crash = Finding.objects.create(
        signature="go|crash|panic: send on closed channel",
        outcome="crash",
        language="go",
        title="panic: send on closed channel",
        first_seen=start,
        last_seen=start + timedelta(minutes=5),
        example=stored[2],
        bisection={"releases": ["1.25.0"], "verdicts": {"1.25.0": "crash"}},
    )
    hang = Finding.objects.create(
        signature="kotlin|timeout|parked",
        outcome="timeout",
        language="kotlin",
        title="every thread parked",
        first_seen=start,
        last_seen=start,
        example=stored[3],
    )
    for t, (language, toolchain) in enumerate([("go", "go-1.26"), ("kotlin", "kotlin-0.19")]):
        target = CampaignTarget.objects.create(
            campaign=campaign, language=language, toolchain_id=toolchain, requested_version=""
        )
        for c in range(3):
            Chunk.objects.create(
                target=target,
                start=10 * c,
                end=10 * c + 10,
                state=Chunk.State.RUNNING if c == 2 else Chunk.State.DONE,
                rq_job_id=f"job-{t}-{c}",
                attempts=1 + c,
                heartbeat_at=start + timedelta(minutes=c),
            )
        for index in range(30):
            finding = None
            if language == "go" and index % 7 == 3:
                finding = crash
            elif language == "kotlin" and index % 11 == 5:
                finding = hang
            Execution.objects.create(
                target=target,
                campaign=campaign,
                program=stored[index % len(stored)],
                index=index,
                outcome=finding.outcome if finding else "terminated",
                reason=finding.title if finding else "exit 0",
                signature=finding.signature if finding else "",
                exit_code=2 if finding is crash else 0,
                duration_s=0.01 * index,
                stderr="goroutine 1 [select]:\n\tmain.go:12 ☃\n" if finding else "",
                attempts=[{"timeout_s": 5.0, "outcome": "terminated", "threads": 2}],
                hang_confirmed=True if finding is hang else None,
                finding=finding,
            )
    Execution.objects.filter(campaign=campaign).update(created_at=start + timedelta(minutes=1))
    for f in (crash, hang):
        rows = Execution.objects.filter(finding=f)
        Finding.objects.filter(pk=f.pk).update(
            execution_count=rows.count(),
            program_count=rows.values("program_id").distinct().count(),
            confirmed_hangs=rows.filter(hang_confirmed=True).count(),
        )
    return campaign


def _snapshot(campaign: Campaign) -> dict[str, Any]:
    """Everything a backup promises to keep, by natural keys (no ids)."""
    campaign.refresh_from_db()
    skip = {"id", "campaign_id", "target_id", "owner_id", "finding_id", "reproduction_id"}

    def fields(obj: Any) -> dict[str, Any]:
        return {
            f.attname: f.value_from_object(obj)
            for f in obj._meta.concrete_fields
            if f.attname not in skip
        }

    executions = Execution.objects.filter(campaign=campaign).select_related("target", "finding")
    findings = Finding.objects.filter(executions__campaign=campaign).distinct()
    program_ids = set(executions.values_list("program_id", flat=True))
    return {
        "campaign": {**fields(campaign), "owner": campaign.owner_id and campaign.owner.username},
        "targets": sorted(
            (fields(t) for t in campaign.targets.all()), key=lambda r: r["toolchain_id"]
        ),
        "chunks": sorted(
            (
                {**fields(c), "target": c.target.toolchain_id}
                for c in Chunk.objects.filter(target__campaign=campaign)
            ),
            key=lambda r: (r["target"], r["start"]),
        ),  # fmt: skip
        "executions": sorted(
            (
                {
                    **fields(e),
                    "target": e.target.toolchain_id,
                    "finding": e.finding.signature if e.finding else None,
                }
                for e in executions
            ),
            key=lambda r: (r["target"], r["index"]),
        ),
        "findings": sorted((fields(f) for f in findings), key=lambda r: r["signature"]),
        "programs": sorted(
            ({**fields(p), "id": p.pk} for p in Program.objects.filter(pk__in=program_ids)),
            key=lambda r: r["id"],
        ),
    }


def _wipe() -> None:
    Execution.objects.all().delete()
    Campaign.objects.all().delete()
    Finding.objects.all().delete()
    Program.objects.all().delete()


def test_a_round_trip_keeps_every_row_and_figure(tmp_path: Path) -> None:
    owner = get_user_model().objects.create_user(username="ada", password="not-a-real-1")
    campaign = _campaign(owner=owner)
    before = _snapshot(campaign)
    out = tmp_path / "campaign.json"
    counts = backup.backup(campaign.pk, out)
    assert counts == {
        "targets": 2, "chunks": 6, "findings": 2, "programs": 4, "executions": 60,
    }  # fmt: skip
    _wipe()
    restored, made = backup.restore(out)
    assert made == {"targets": 2, "chunks": 6, "executions": 60, "findings": 2, "programs": 4}
    after = _snapshot(restored)
    # The restore's own changes: no RQ job of the source exists here.
    for chunk in before["chunks"]:
        chunk["rq_job_id"] = ""
        if chunk["state"] == "running":
            chunk["state"] = "queued"
    assert after == before
    assert Execution.objects.count() == 60 and Finding.objects.count() == 2


def test_restoring_next_to_the_original_shares_programs_and_findings(tmp_path: Path) -> None:
    campaign = _campaign()
    crash = Finding.objects.get(outcome="crash")
    figures = (crash.execution_count, crash.program_count)
    out = tmp_path / "campaign.json"
    backup.backup(campaign.pk, out)
    copy, made = backup.restore(out)
    assert copy.pk != campaign.pk
    assert made["programs"] == 0 and made["findings"] == 0 and made["executions"] == 60
    assert Program.objects.count() == 4 and Finding.objects.count() == 2
    assert Execution.objects.count() == 120
    crash.refresh_from_db()
    # Counted again over what this database holds: twice the executions, the same programs.
    assert (crash.execution_count, crash.program_count) == (2 * figures[0], figures[1])
    assert Finding.objects.get(outcome="timeout").confirmed_hangs == 2 * 3


def test_a_running_campaign_is_refused(tmp_path: Path) -> None:
    campaign = _campaign(status=Campaign.Status.RUNNING)
    with pytest.raises(backup.BackupError, match=r"is running: pause it"):
        backup.backup(campaign.pk, tmp_path / "campaign.json")
    assert not (tmp_path / "campaign.json").exists()


def test_a_backup_of_an_active_campaign_is_restored_paused_with_its_work_queued(
    tmp_path: Path,
) -> None:
    """A file written by hand, or by a version that let a running campaign through."""
    campaign = _campaign(status=Campaign.Status.PAUSED)
    out = tmp_path / "campaign.json"
    backup.backup(campaign.pk, out)
    data = json.loads(out.read_text())
    data["campaign"]["status"] = "running"
    out.write_text(json.dumps(data))
    restored, _ = backup.restore(out)
    assert restored.status == Campaign.Status.PAUSED
    assert f"backup of campaign #{campaign.pk} while it was running" in restored.status_note
    states = Chunk.objects.filter(target__campaign=restored).values_list("state", flat=True)
    assert sorted(states) == ["done"] * 4 + ["queued"] * 2
    assert not Chunk.objects.filter(target__campaign=restored).exclude(rq_job_id="").exists()


def test_an_unknown_owner_is_dropped(tmp_path: Path) -> None:
    owner = get_user_model().objects.create_user(username="grace", password="not-a-real-1")
    out = tmp_path / "campaign.json"
    backup.backup(_campaign(owner=owner).pk, out)
    owner.delete()
    restored, _ = backup.restore(out)
    assert restored.owner is None


def test_the_commands(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from django.core.management.base import CommandError

    campaign = _campaign()
    out = tmp_path / "c.json"
    call_command("campaign_backup", str(campaign.pk), str(out))
    assert f"campaign #{campaign.pk} → {out}: 2 targets, 6 chunks, 2 findings, 4 programs" in (
        capsys.readouterr().out
    )
    call_command("campaign_restore", str(out))
    assert "restored as campaign #" in capsys.readouterr().out
    with pytest.raises(CommandError, match="no campaign #9999"):
        call_command("campaign_backup", "9999", str(tmp_path / "x.json"))
    with pytest.raises(CommandError, match="not written to stdout"):  # it wrote a file "-"
        call_command("campaign_backup", str(campaign.pk), "-")
    (tmp_path / "bad.json").write_text('{"format": "something else"}')
    with pytest.raises(CommandError, match="not a chanfuzz campaign backup"):
        call_command("campaign_restore", str(tmp_path / "bad.json"))
    with pytest.raises(CommandError, match="not readable as JSON"):
        call_command("campaign_restore", str(tmp_path / "missing.json"))


@pytest.fixture
def other_database(tmp_path: Path) -> Iterator[str]:
    """A database of the other kind than this run's: PostgreSQL (a fresh database in
    scripts/start_postgres.sh's server, dropped afterwards) when this run is on SQLite,
    else a SQLite file."""
    if connection.vendor != "sqlite":
        yield f"sqlite:///{tmp_path / 'other.sqlite3'}"
        return
    # Never a name used before: the server outlives test runs, and a database left by
    # an interrupted run under a reused pid held the campaign already restored.
    name = f"chanfuzz_backup_{uuid.uuid4().hex}"
    started = subprocess.run(
        ["bash", "scripts/start_postgres.sh"],
        cwd=REPO,
        env={**os.environ, "CHANFUZZ_PG_DB": name},
        capture_output=True,
        text=True,
    )
    if started.returncode != 0:
        if os.environ.get("CI") == "true":
            pytest.fail(f"PostgreSQL did not start: {started.stderr}")
        pytest.skip(f"no PostgreSQL here: {started.stderr.strip()[-200:]}")
    url = started.stdout.strip().removeprefix("export DATABASE_URL=")
    try:
        yield url
    finally:
        drop_postgres_database(url)


@pytest.mark.slow
@pytest.mark.postgres
def test_a_backup_restores_on_the_other_kind_of_database(
    tmp_path: Path, other_database: str
) -> None:
    """SQLite → PostgreSQL in the main run, PostgreSQL → SQLite in the PostgreSQL run: the
    child migrates the other database, restores, and reads the snapshot back."""
    campaign = _campaign()
    before = _snapshot(campaign)
    out = tmp_path / "campaign.json"
    backup.backup(campaign.pk, out)
    env = {
        **{k: v for k, v in os.environ.items() if k != "PYTEST_XDIST_WORKER"},
        "DATABASE_URL": other_database,
        "CHANFUZZ_VAR_DIR": str(tmp_path / "var"),
        "CHANFUZZ_LOAD_DOCUMENTED": "0",
    }
    code = (
        "import json, django; django.setup();"
        "from django.db import connection;"
        "from runners.campaigns import backup;"
        "from tests.runners.campaigns.test_backup import _snapshot;"
        f"c, made = backup.restore(__import__('pathlib').Path({str(out)!r}));"
        "print(json.dumps({'vendor': connection.vendor, 'made': made,"
        " 'snapshot': _snapshot(c)}, default=str))"
    )
    for argv in (["manage.py", "migrate", "-v", "0"], ["-c", code]):
        child = subprocess.run(
            [sys.executable, *argv],
            cwd=REPO,
            env={**env, "DJANGO_SETTINGS_MODULE": "chanfuzz_site.settings"},
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert child.returncode == 0, child.stderr[-3000:]
    result = json.loads(child.stdout.strip().splitlines()[-1])
    assert result["vendor"] != connection.vendor
    assert result["made"]["executions"] == 60
    for chunk in before["chunks"]:
        chunk["rq_job_id"] = ""
        if chunk["state"] == "running":
            chunk["state"] = "queued"
    # Compared as JSON: datetimes as text, the same instants on both sides.
    assert result["snapshot"] == json.loads(json.dumps(before, default=str))


def test_a_hang_backed_up_under_an_older_rule_joins_todays_finding(tmp_path: Path) -> None:
    # Before 2026-12-01 a JVM hang's shape counted the JVM's own threads (migration 0014):
    # a backup made then restores into the finding the same hang has today.
    dump = (REPO / "tests/runners/engine/samples/jvm17_kotlinx019_hang_dump.txt").read_text()
    old = (
        "kotlin | hang | RUNNABLE×8, TIMED_WAITING on object monitor, TIMED_WAITING parking,"
        " WAITING on object monitor, WAITING parking×8"
    )
    today = "kotlin | hang | TIMED_WAITING parking, WAITING parking×8"
    campaign = _campaign()
    hang = Finding.objects.get(outcome="timeout")
    Finding.objects.filter(pk=hang.pk).update(signature=old)
    Execution.objects.filter(finding=hang).update(signature=old, dump=dump)
    out = tmp_path / "campaign.json"
    backup.backup(campaign.pk, out)
    _wipe()
    found_today = Finding.objects.create(
        signature=today, outcome="timeout", language="kotlin", title="parked",
        first_seen=timezone.now(), last_seen=timezone.now(),
    )  # fmt: skip
    restored, made = backup.restore(out)
    assert made["findings"] == 1  # the crash; the hang found its finding of today
    assert not Finding.objects.filter(signature=old).exists()
    rows = Execution.objects.filter(campaign=restored, outcome="timeout")
    assert rows.count() == 3 and set(rows.values_list("signature", flat=True)) == {today}
    assert set(rows.values_list("finding_id", flat=True)) == {found_today.pk}
    found_today.refresh_from_db()
    assert found_today.execution_count == 3 and found_today.confirmed_hangs == 3

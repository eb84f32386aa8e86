"""One campaign, written to a JSON file and read back into any database (issue #20, item 5).

`manage.py campaign_backup ID OUT.json` and `manage.py campaign_restore IN.json`.

What a backup holds: the campaign row, its targets, its chunks (the RQ jobs' state of
record), every execution of it, the findings those executions belong to and the programs
they ran (each finding's example program too). Rows are written field by field as Django
stores them (datetimes in ISO 8601, JSON fields as JSON), so a backup made on SQLite
restores on PostgreSQL and the other way round.

Restoring keeps nothing of the source database's numbering: the campaign, its targets,
chunks and executions get new ids (the executions point at the new target and campaign);
programs are found by their content-derived id and findings by their signature (natural
keys), made when missing and shared when present; a hang's signature is the one today's
rule gives its whole dumps (`_signed_today`: a backup made before a rule changed joins the
findings its hangs have now). Each finding's figures (executions,
programs, confirmed hangs) are then counted again over the rows this database holds. The
campaign's owner is found by username (none when that user does not exist here). A
campaign that was queued or running is restored paused, its unfinished chunks queued, with
a note: no RQ job of it exists here, and `manage.py campaign resume` (or the page's Resume
button) queues what is left. Reproductions and reductions are not part of a backup.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import Any

from django.contrib.auth import get_user_model
from django.core.serializers.json import DjangoJSONEncoder
from django.db import models, transaction
from django.db.models import Count

from runners.campaigns.models import (
    Campaign,
    CampaignTarget,
    Chunk,
    Execution,
    Finding,
    OutcomeCount,
    Program,
)
from runners.campaigns.services import was_cut
from runners.engine.verdicts import hang_signature, is_hang_signature

FORMAT = "chanfuzz-campaign-backup"
VERSION = 1
BATCH = 2000


class BackupError(ValueError):
    """The file is not a campaign backup this version can read."""


class _Encoder(DjangoJSONEncoder):
    """Django's, but datetimes to the microsecond (it cuts them to milliseconds)."""

    def default(self, o: Any) -> Any:
        if isinstance(o, datetime):
            return o.isoformat()
        return super().default(o)


def _fields(model: type[models.Model], *, skip: Iterable[str] = ()) -> list[models.Field]:
    skipped = set(skip)
    return [f for f in model._meta.concrete_fields if f.attname not in skipped]


def _row(obj: models.Model, fields: list[models.Field]) -> dict[str, Any]:
    return {f.attname: f.value_from_object(obj) for f in fields}


def _values(model: type[models.Model], row: dict[str, Any], fields: list[models.Field]):
    """Keyword arguments for `model(...)` from a backup row (values parsed as the field does)."""
    out = {}
    for f in fields:
        if f.attname not in row:
            continue  # a field newer than the backup keeps its default
        value = row[f.attname]
        if value is not None and isinstance(f, models.DateTimeField | models.DateField):
            value = f.to_python(value)
        out[f.attname] = value
    return out


# What each row keeps; ids and the foreign keys that are remapped are left out.
CAMPAIGN_FIELDS = _fields(Campaign, skip=("id", "owner_id"))
TARGET_FIELDS = _fields(CampaignTarget, skip=("id", "campaign_id"))
CHUNK_FIELDS = _fields(Chunk, skip=("id", "target_id"))
EXECUTION_FIELDS = _fields(
    Execution, skip=("id", "target_id", "campaign_id", "reproduction_id", "finding_id")
)
FINDING_FIELDS = _fields(Finding, skip=("id",))
PROGRAM_FIELDS = _fields(Program)


def _executions(campaign: Campaign, signatures: dict[int, str]) -> Iterator[dict[str, Any]]:
    rows = Execution.objects.filter(campaign=campaign).order_by("target_id", "index", "id")
    for e in rows.iterator(chunk_size=BATCH):
        yield {
            **_row(e, EXECUTION_FIELDS),
            "target": e.target_id,
            "finding": signatures[e.finding_id] if e.finding_id else None,
        }


def backup(campaign_id: int, out: Path) -> dict[str, int]:
    """Write campaign `campaign_id` to `out`; returns the rows written per kind.

    Raises Campaign.DoesNotExist, and BackupError for a queued or running campaign (its
    rows change while they are read: pause it first). Executions are streamed, so a
    campaign of a million runs needs its file's size on disk, not in memory."""
    campaign = Campaign.objects.select_related("owner").get(pk=campaign_id)
    if campaign.is_active:
        raise BackupError(
            f"campaign #{campaign_id} is {campaign.status}: pause it (or let it finish) first"
        )
    targets = list(campaign.targets.order_by("id"))
    chunks = list(Chunk.objects.filter(target__campaign=campaign).order_by("target_id", "start"))
    finding_ids = (
        Execution.objects.filter(campaign=campaign, finding__isnull=False)
        .values("finding_id")
        .distinct()
    )
    findings = list(Finding.objects.filter(pk__in=finding_ids).order_by("id"))
    program_ids = set(
        Execution.objects.filter(campaign=campaign).values_list("program_id", flat=True).distinct()
    )
    program_ids |= {f.example_id for f in findings if f.example_id}
    programs = list(Program.objects.filter(pk__in=program_ids).order_by("id"))
    counts = {
        "targets": len(targets),
        "chunks": len(chunks),
        "findings": len(findings),
        "programs": len(programs),
        "executions": 0,
    }

    def dump(value: Any) -> str:
        return json.dumps(value, cls=_Encoder, ensure_ascii=False)

    header = {
        "format": FORMAT,
        "version": VERSION,
        "campaign": {
            **_row(campaign, CAMPAIGN_FIELDS),
            "id": campaign.pk,
            "owner": campaign.owner.get_username() if campaign.owner else None,
        },
        "targets": [{**_row(t, TARGET_FIELDS), "id": t.pk} for t in targets],
        "chunks": [{**_row(c, CHUNK_FIELDS), "target": c.target_id} for c in chunks],
        "programs": [_row(p, PROGRAM_FIELDS) for p in programs],
        "findings": [_row(f, FINDING_FIELDS) for f in findings],
    }
    tmp = out.with_name(out.name + ".part")
    with tmp.open("w", encoding="utf-8") as stream:
        stream.write("{\n")
        for key, value in header.items():
            stream.write(f"{json.dumps(key)}: {dump(value)},\n")
        stream.write('"executions": [\n')
        signatures = {f.pk: f.signature for f in findings}
        for n, row in enumerate(_executions(campaign, signatures)):
            stream.write((",\n" if n else "") + dump(row))
            counts["executions"] += 1
        stream.write("\n]}\n")
    tmp.replace(out)
    return counts


def _read(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise BackupError(f"{path}: not readable as JSON ({exc})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise BackupError(f"{path}: not a chanfuzz campaign backup")
    if data.get("version") != VERSION:
        raise BackupError(f"{path}: backup version {data.get('version')!r}; this reads {VERSION}")
    return data


def _recount(finding_ids: list[int]) -> None:
    """Each finding's figures over the executions this database holds."""
    for finding_id in finding_ids:
        rows = Execution.objects.filter(finding_id=finding_id)
        figures = rows.aggregate(
            executions=Count("id"), programs=Count("program_id", distinct=True)
        )
        Finding.objects.filter(pk=finding_id).update(
            execution_count=figures["executions"],
            program_count=figures["programs"],
            confirmed_hangs=rows.filter(hang_confirmed=True).count(),
        )


def _signed_today(executions: Iterable[dict[str, Any]]) -> dict[str, str]:
    """The backup's hang signatures that today's rule gives otherwise, each from the whole
    dumps of its executions (the most common, should they disagree), so that a campaign
    backed up before a rule changed joins the findings its hangs have today: since
    2026-12-01 a JVM hang's shape leaves the JVM's own threads out (migration 0014 did the
    same to the rows stored then)."""
    votes: dict[str, Counter[str]] = {}
    for e in executions:
        old, dump = e.get("finding") or "", e.get("dump") or ""
        if not is_hang_signature(old) or not dump or was_cut(dump):
            continue
        try:
            new = hang_signature(old.split(" | ")[0], dump)
        except ValueError:  # a language this chanfuzz has no target for
            continue
        votes.setdefault(old, Counter())[new] += 1
    renamed = {old: signed.most_common(1)[0][0] for old, signed in votes.items()}
    return {old: new for old, new in renamed.items() if new != old}


def restore(path: Path) -> tuple[Campaign, dict[str, int]]:
    """Read a backup into this database as a new campaign; returns it and the rows made
    (programs and findings: only those that were not here already). All or nothing."""
    data = _read(path)
    made = {"targets": 0, "chunks": 0, "executions": 0, "findings": 0, "programs": 0}
    with transaction.atomic(), _times_as_given():
        present = set(
            Program.objects.filter(pk__in=[p["id"] for p in data["programs"]]).values_list(
                "pk", flat=True
            )
        )
        new_programs = [
            Program(**_values(Program, p, PROGRAM_FIELDS))
            for p in data["programs"]
            if p["id"] not in present
        ]
        Program.objects.bulk_create(new_programs, batch_size=BATCH)
        made["programs"] = len(new_programs)

        findings: dict[str, int] = {}  # by the signature the backup wrote
        renamed = _signed_today(data["executions"])
        for f in data["findings"]:
            values = _values(Finding, f, FINDING_FIELDS)
            signature = values.pop("signature")
            finding, created = Finding.objects.get_or_create(
                signature=renamed.get(signature, signature), defaults=values
            )
            if not created:
                # Seen here too: the earliest first sighting and the latest last one.
                first, last = values["first_seen"], values["last_seen"]
                Finding.objects.filter(pk=finding.pk, first_seen__gt=first).update(first_seen=first)
                Finding.objects.filter(pk=finding.pk, last_seen__lt=last).update(last_seen=last)
            findings[f["signature"]] = finding.pk
            made["findings"] += int(created)

        source = data["campaign"]
        values = _values(Campaign, source, CAMPAIGN_FIELDS)
        owner = None
        if source.get("owner"):
            owner = get_user_model().objects.filter(username=source["owner"]).first()
        was_active = values.get("status") in (Campaign.Status.QUEUED, Campaign.Status.RUNNING)
        if was_active:
            values["status"] = Campaign.Status.PAUSED
            values["status_note"] = (
                f"restored from a backup of campaign #{source['id']} while it was "
                f"{source['status']}: resume it to run what is left"
            )[:300]
        campaign = Campaign.objects.create(owner=owner, **values)

        targets: dict[int, CampaignTarget] = {}
        for t in data["targets"]:
            targets[t["id"]] = CampaignTarget.objects.create(
                campaign=campaign, **_values(CampaignTarget, t, TARGET_FIELDS)
            )
        made["targets"] = len(targets)

        chunks = []
        for c in data["chunks"]:
            values = _values(Chunk, c, CHUNK_FIELDS)
            values["rq_job_id"] = ""  # no job of it exists in this Redis
            if values["state"] == Chunk.State.RUNNING:
                values["state"] = Chunk.State.QUEUED
            chunks.append(Chunk(target=targets[c["target"]], **values))
        Chunk.objects.bulk_create(chunks, batch_size=BATCH)
        made["chunks"] = len(chunks)

        batch: list[Execution] = []
        for e in data["executions"]:
            target = targets[e["target"]]
            values = _values(Execution, e, EXECUTION_FIELDS)
            if e["finding"] in renamed:
                values["signature"] = renamed[e["finding"]]
            batch.append(
                Execution(
                    target=target,
                    campaign=campaign,
                    finding_id=findings[e["finding"]] if e["finding"] else None,
                    **values,
                )
            )
            if len(batch) >= BATCH:
                made["executions"] += _insert(batch)
                batch.clear()
        made["executions"] += _insert(batch)
        _recount(sorted(set(findings.values())))
        # bulk_create skips Execution.save, which keeps the counts per verdict.
        OutcomeCount.recount([t.pk for t in targets.values()])
    return campaign, made


@contextmanager
def _times_as_given() -> Iterator[None]:
    """Rows keep the backup's `created_at`: auto_now_add would stamp the restore's time
    (Django offers no per-save switch, so the fields' flag is lowered meanwhile)."""
    stamped = [
        f
        for model in (Campaign, Program, Execution)
        for f in model._meta.concrete_fields
        if getattr(f, "auto_now_add", False)
    ]
    for f in stamped:
        f.auto_now_add = False
    try:
        yield
    finally:
        for f in stamped:
            f.auto_now_add = True


def _insert(batch: list[Execution]) -> int:
    if not batch:
        return 0
    Execution.objects.bulk_create(batch, batch_size=BATCH)
    return len(batch)

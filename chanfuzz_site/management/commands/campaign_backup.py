"""`manage.py campaign_backup ID OUT.json`: one campaign with its chunks, executions, findings
and programs, as a JSON file that `campaign_restore` reads into any database (SQLite or
PostgreSQL; runners.campaigns.backup says what is kept). Exit 1: no such campaign, or one
that is queued or running (pause it first)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from runners.campaigns import backup
from runners.campaigns.models import Campaign


class Command(BaseCommand):
    help = "Write a campaign, its chunks, executions, findings and programs to a JSON file."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("campaign_id", type=int)
        parser.add_argument("out", type=Path, help="the JSON file to write (replaced)")

    def handle(self, *args: Any, **options: Any) -> None:
        if str(options["out"]) == "-":  # not stdout, as a user may expect: a file named "-"
            raise CommandError("give the file to write (the backup is not written to stdout)")
        try:
            counts = backup.backup(options["campaign_id"], options["out"])
        except Campaign.DoesNotExist:
            raise CommandError(f"no campaign #{options['campaign_id']}") from None
        except backup.BackupError as exc:
            raise CommandError(str(exc)) from None
        except OSError as exc:
            raise CommandError(f"cannot write {options['out']}: {exc}") from None
        figures = ", ".join(f"{n} {kind}" for kind, n in counts.items())
        self.stdout.write(f"campaign #{options['campaign_id']} → {options['out']}: {figures}")

"""`manage.py campaign_restore IN.json`: read a `campaign_backup` file into this database as a
new campaign (new ids; programs and findings found by their natural keys and shared when
present; runners.campaigns.backup). Prints the new campaign's id. Exit 1: not a backup."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from chanfuzz_site.database import require_migrated
from runners.campaigns import backup


class Command(BaseCommand):
    help = "Restore a campaign written by campaign_backup, as a new campaign."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("backup", type=Path, help="a file campaign_backup wrote")

    def handle(self, *args: Any, **options: Any) -> None:
        require_migrated()
        try:
            campaign, made = backup.restore(options["backup"])
        except backup.BackupError as exc:
            raise CommandError(str(exc)) from None
        figures = ", ".join(f"{n} {kind}" for kind, n in made.items())
        self.stdout.write(f"restored as campaign #{campaign.pk} ({campaign.status}): {figures}")
        if campaign.status_note:
            self.stdout.write(campaign.status_note)

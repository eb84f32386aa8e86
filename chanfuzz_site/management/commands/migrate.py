"""`manage.py migrate`: Django's, then the documented programs the database lacks.

Migration 0005 loads `runners/campaigns/fixtures/documented_programs.json` once, when
the database is made. A permalink added to the README or docs/ afterwards would then
answer 404 on every database made before it, the deployed ones included. So a full
`migrate` (scripts/setup.sh, compose's `migrate` service) loads the fixture again:
`documented.load` only creates what is missing, and leaves the rows already there (and a
fuzzing database's counts) as they are.
"""

from __future__ import annotations

from typing import Any

from django.core.management.commands.migrate import Command as DjangoMigrate
from django.db import DEFAULT_DB_ALIAS

from runners import config
from runners.campaigns import documented


class Command(DjangoMigrate):
    def handle(self, *args: Any, **options: Any) -> None:
        super().handle(*args, **options)
        if not self._migrated_to_the_end(options) or not config.load_documented():
            return
        from runners.campaigns.models import Finding, Program

        programs, findings = documented.load(Program, Finding)
        if (programs or findings) and options["verbosity"] >= 1:
            self.stdout.write(f"loaded {programs} documented program(s) and {findings} finding(s)")

    @staticmethod
    def _migrated_to_the_end(options: dict[str, Any]) -> bool:
        # Only then do today's models match the tables (not after `migrate runners 0003`),
        # and only on the database the models' managers use.
        return (
            options["app_label"] is None
            and options["database"] == DEFAULT_DB_ALIAS
            and not (options["plan"] or options["check_unapplied"] or options["prune"])
        )

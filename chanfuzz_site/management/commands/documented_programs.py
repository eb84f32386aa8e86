"""`manage.py documented_programs {check,export,load}`: the programs the docs link to.

`check` lists the /p/<id> links of README.md and docs/ that the fixture lacks
(exit 1 if any); `export` writes the fixture (runners/campaigns/documented.py)
from this database's rows, after a report added links; `load` adds the
fixture's programs and findings to this database (migrate does it once).
"""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from runners.campaigns import documented
from runners.campaigns.models import Finding, Program


class Command(BaseCommand):
    help = "Keep the programs the documentation links to loadable on any database."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("action", choices=("check", "export", "load"))

    def handle(self, *args: Any, **options: Any) -> None:
        ids = documented.documented_ids(documented.documentation_files())
        if options["action"] == "load":
            programs, findings = documented.load(Program, Finding)
            self.stdout.write(f"loaded {programs} program(s) and {findings} finding(s)")
            return
        if options["action"] == "export":
            try:
                data = documented.export(ids, Program, Finding)
            except KeyError as exc:
                raise CommandError(exc.args[0], returncode=1) from exc
            documented.FIXTURE.parent.mkdir(parents=True, exist_ok=True)
            documented.FIXTURE.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n")
            self.stdout.write(
                f"wrote {len(data['programs'])} program(s) and {len(data['findings'])}"
                f" finding(s) to {documented.FIXTURE}"
            )
            return
        fixture = documented.FIXTURE
        have = (
            {p["id"] for p in json.loads(fixture.read_text())["programs"]}
            if fixture.exists()
            else set()
        )
        missing = [pid for pid in ids if pid not in have]
        self.stdout.write(f"{len(ids)} documented program(s), {len(missing)} not in the fixture")
        for pid in missing:
            self.stdout.write(f"  {pid}")
        if missing:
            raise CommandError("run `manage.py documented_programs export`", returncode=1)

"""`manage.py sandbox [--backend NAME]`: how programs are contained here, in words: the
backend, its namespaces and files, the system-call filter, and which limits are in
force (per-process rlimits, and a per-run cgroup where the machine allows one).

Exit status 0; 2 when the backend cannot run here (the reason is printed)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from runners.engine.sandbox import BACKENDS, describe


class Command(BaseCommand):
    help = "Say how the sandbox contains programs on this machine, and which limits are in force."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--backend", choices=BACKENDS, help="default: $CHANFUZZ_SANDBOX")

    def handle(self, *args: Any, **options: Any) -> None:
        lines = describe(options["backend"])
        for line in lines:
            self.stdout.write(line)
        if "unavailable here" in lines[0]:
            raise SystemExit(2)

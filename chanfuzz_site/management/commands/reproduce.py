"""`manage.py reproduce PROGRAM_ID --lang L [--version V] --times K`: how often does it fail?

Runs here and now (no Redis, no worker): compiles the stored program once for
the target, runs it K times, records a Reproduction with every run and prints
the rate of crashes and hangs. Exit 0 when it ran, 2 on bad arguments, an
unknown program or an unavailable toolchain.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from runners.campaigns import selectors, services
from runners.campaigns.jobs import run_reproduction
from runners.campaigns.models import Program
from runners.targets import runnable_names


class Command(BaseCommand):
    help = "Re-run a stored program K times on one target and record the reproduction rate."

    def create_parser(self, prog_name: str, subcommand: str, **kwargs: Any) -> CommandParser:
        # Django's own --version would shadow the toolchain's.
        return super().create_parser(prog_name, subcommand, conflict_handler="resolve", **kwargs)

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("program_id", help="the id of /p/<id>")
        parser.add_argument("--lang", required=True, choices=runnable_names())
        parser.add_argument("--version", help="toolchain version or id (default: newest)")
        parser.add_argument("--times", type=int, required=True)
        parser.add_argument("--timeout", type=float, default=10.0, help="seconds per run")
        parser.add_argument("--repetitions", type=int, default=10)
        parser.add_argument(
            "--pct-depth",
            type=int,
            metavar="D",
            help="schedule perturbation: the program yields before D-1 communication steps "
            "(give the depth the finding was found with)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            program = selectors.get_program(options["program_id"])
        except Program.DoesNotExist:
            raise CommandError(f"no program {options['program_id']}", returncode=2) from None
        try:
            repro = services.reproduce(
                program=program,
                language=options["lang"],
                version=options["version"],
                times=options["times"],
                timeout_s=options["timeout"],
                repetitions=options["repetitions"],
                pct_depth=options["pct_depth"],
                enqueue=False,
            )
            run_reproduction(repro.pk)  # here and now, as a worker would
        except ValueError as exc:
            raise CommandError(str(exc), returncode=2) from exc
        repro.refresh_from_db()
        rate = repro.rate or 0.0
        self.stdout.write(
            f"reproduction {repro.pk}: program {program.id} on {repro.toolchain_id}: "
            f"{repro.crashed} crashed, {repro.hung} hung, {repro.wrong_values} wrong values "
            f"of {repro.completed} runs "
            f"(rate {rate:.0%})"
        )

"""`manage.py bisect FINDING_ID [--times K]`: on which releases does a finding's program fail?

Runs the finding's example program on every installed toolchain of its
language (oldest first), `--times` runs each, prints a table and the last bad
and first good release, and stores the result on the finding (its page shows
it). Exit 0 when a first good release was found, 1 when the bug is seen up to
the newest release tried (or nowhere), 2 on bad arguments.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db.models import Q

from runners.campaigns.models import Execution, Finding
from runners.campaigns.programs import program_object
from runners.campaigns.services import (
    MAX_CAMPAIGN_REPETITIONS,
    MAX_TIMEOUT_S,
    record_bisection,
)
from runners.engine.bisect import VersionResult, bisect_program
from runners.engine.sandbox import BACKENDS, SandboxUnavailable, get_sandbox
from runners.engine.verdicts import same_bug_across_releases
from runners.targets import get_target


class Command(BaseCommand):
    help = "Bisect a finding across the installed releases of its language."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("finding_id", type=int)
        parser.add_argument("--times", type=int, default=5, help="runs per release (default 5)")
        parser.add_argument(
            "--repetitions", type=int, help="body repetitions (default: as in its finding)"
        )
        parser.add_argument("--timeout", type=float, default=30.0, help="seconds per run")
        parser.add_argument(
            "--hang-quiet", type=float, metavar="SECONDS",
            help="declare a run hung once its processes used no CPU and had no thread running"
            " for this long, instead of waiting out --timeout (off by default)",
        )  # fmt: skip
        parser.add_argument(
            "--any-finding",
            action="store_true",
            help="count any crash or hang as bad, not only this finding's signature",
        )
        parser.add_argument("--sandbox", choices=BACKENDS)

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            finding = Finding.objects.select_related("example").get(pk=options["finding_id"])
        except Finding.DoesNotExist:
            raise CommandError(f"no finding {options['finding_id']}", returncode=2) from None
        if finding.example is None:
            raise CommandError(f"finding {finding.pk} has no example program", returncode=2)
        refused = get_target(finding.language).no_bisection
        if refused:
            raise CommandError(f"finding {finding.pk} cannot be bisected: {refused}", returncode=2)
        if not 1 <= options["times"] <= 1000:
            raise CommandError("--times must be from 1 to 1000", returncode=2)
        timeout, quiet = options["timeout"], options["hang_quiet"]
        if not 0.1 <= timeout <= MAX_TIMEOUT_S:
            raise CommandError(f"--timeout must be from 0.1 to {MAX_TIMEOUT_S:g}", returncode=2)
        if quiet is not None and not 0.1 <= quiet <= timeout:
            raise CommandError(
                f"--hang-quiet must be from 0.1 s to --timeout ({timeout:g} s)", returncode=2
            )
        given = options["repetitions"]
        if given is not None and not 1 <= given <= MAX_CAMPAIGN_REPETITIONS:
            raise CommandError(
                f"--repetitions must be from 1 to {MAX_CAMPAIGN_REPETITIONS}", returncode=2
            )
        try:
            program = program_object(finding.example)
            sandbox = get_sandbox(options["sandbox"], language=finding.language)
        except SandboxUnavailable as exc:
            raise CommandError(exc.reason, returncode=2) from exc
        except ValueError as exc:
            raise CommandError(str(exc), returncode=2) from exc
        repetitions = given if given is not None else _repetitions_seen(finding)
        self.stdout.write(
            f"bisecting finding {finding.pk} ({finding.signature[:100]}) with program "
            f"{finding.example_id}: {options['times']} runs per release, "
            f"{repetitions} repetitions, timeout {options['timeout']:g} s"
        )

        def show(r: VersionResult) -> None:
            state = "bad" if r.bad else "undecided" if not r.decided else "not seen"
            self.stdout.write(
                f"  {r.version:10} {r.toolchain_id:42} {r.bad_runs}/{r.runs} bad  {state}"
            )

        def same_bug_as_finding(signature: str) -> bool:
            return same_bug_across_releases(finding.signature, signature)

        try:
            bisection = bisect_program(
                program,
                finding.language,
                sandbox=sandbox,
                times=options["times"],
                repetitions=repetitions,
                timeout_s=options["timeout"],
                quiet_s=quiet,
                # The finding's bug as another release shows it (its frames renamed, the
                # recursion entered elsewhere), or with --any-finding any crash or hang.
                matches=None if options["any_finding"] else same_bug_as_finding,
                on_result=show,
                counted="any crash or hang" if options["any_finding"] else "this finding's bug",
            )
        except KeyboardInterrupt:
            raise CommandError(
                "interrupted: nothing stored (a bisection is stored once every release ran)",
                returncode=130,
            ) from None
        record_bisection(finding=finding, bisection=bisection)
        self.stdout.write(bisection.summary())
        if bisection.first_good is None:
            raise CommandError(bisection.summary(), returncode=1)


def _repetitions_seen(finding: Finding) -> int:
    """The repetitions of the campaign or reproduction run that showed the finding first
    (1 if unknown)."""
    first = (
        Execution.objects.filter(finding=finding)
        .filter(Q(campaign__isnull=False) | Q(reproduction__isnull=False))
        .select_related("campaign", "reproduction")
        .order_by("created_at", "id")
        .first()
    )
    run = first and (first.campaign or first.reproduction)
    return run.repetitions if run else 1

"""`manage.py reduce FINDING_ID`: the smallest program that still shows a finding.

Reduces the finding's example program on the toolchain, repetitions and
timeout it failed with (runners.campaigns.reductions, runners.engine.reduce),
here and now, printing every candidate run; the reduction is stored on the
finding (its page shows it) and the last line printed is the reduced effect.
`--queue` hands it to the RQ workers instead; `--resume ID` goes on with a
reduction that was cut off. Exit 0 when it ended, 1 when it failed or was
stopped, 2 on bad arguments.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from runners.campaigns.models import Finding, Reduction
from runners.campaigns.reductions import (
    MAX_SECONDS,
    ReductionNotQueued,
    resume_reduction,
    run_reduction,
    start_reduction,
)
from runners.engine.reduce import ReductionError, ReductionState


class Command(BaseCommand):
    help = "Reduce a finding's example program, keeping its failure and its rate."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("finding_id", type=int, nargs="?")
        parser.add_argument("--resume", type=int, metavar="REDUCTION_ID",
                            help="go on with a reduction that was cut off")  # fmt: skip
        parser.add_argument(
            "--toolchain", help="version or toolchain id (default: the one it failed on)"
        )
        parser.add_argument("--timeout", type=float, help="seconds per run (default: as found)")
        parser.add_argument("--repetitions", type=int, help="body repetitions (default: as found)")
        parser.add_argument(
            "--hang-quiet", type=float, metavar="SECONDS",
            help="a run blocked this long is hung (default: as the campaign that found it)",
        )  # fmt: skip
        parser.add_argument("--jobs", type=int, default=2, help="runs in parallel (default 2)")
        parser.add_argument("--baseline-runs", type=int, default=16,
                            help="runs measuring the original's rate (default 16)")  # fmt: skip
        parser.add_argument("--keep-ratio", type=float, default=0.5,
                            help="keep a candidate failing at ≥ this share of the original's"
                                 " rate (default 0.5)")  # fmt: skip
        parser.add_argument("--max-candidates", type=int, default=200)
        parser.add_argument("--max-minutes", type=float, default=60.0)
        parser.add_argument("--queue", action="store_true", help="enqueue for the RQ workers")

    def handle(self, *args: Any, **options: Any) -> None:
        reduction = self._reduction(options)
        self.stdout.write(
            f"reduction {reduction.pk}: program {reduction.program_id} of finding"
            f" {reduction.finding_id} on {reduction.toolchain_id}, {reduction.repetitions}"
            f" repetitions, timeout {reduction.timeout_s:g} s"
            + (
                f" (hung after {reduction.hang_quiet_s:g} s blocked)"
                if reduction.hang_quiet_s is not None
                else ""
            )
            + f", {reduction.jobs} parallel runs"
        )
        if options["queue"]:
            self.stdout.write(f"queued as RQ job {reduction.rq_job_id}")
            return
        shown = len((reduction.state or {}).get("tried", []))

        def progress(state: ReductionState) -> None:
            nonlocal shown
            if shown == 0 and not state.tried:
                self.stdout.write(
                    f"original: {state.original_size} nodes, failed {state.baseline_failures}"
                    f" of {state.baseline_runs} runs"
                )
            for step in state.tried[shown:]:
                self.stdout.write(
                    f"  {step.decision:13} {step.failures:3}/{step.runs:<3} {step.size:4} nodes"
                    f"  {step.description}"
                )
            shown = len(state.tried)

        try:
            run_reduction(reduction.pk, progress=progress)
        except ReductionError as exc:
            raise CommandError(str(exc), returncode=1) from exc
        except KeyboardInterrupt:
            # Its state is saved after every step: nothing tried is lost.
            raise CommandError(
                f"interrupted: reduction {reduction.pk} is kept; go on with"
                f" `manage.py reduce --resume {reduction.pk}`",
                returncode=130,
            ) from None
        reduction.refresh_from_db()
        state = ReductionState.from_dict(reduction.state)
        self.stdout.write(
            f"{reduction.status}: {state.original_size} → {state.current_size} nodes"
            f" ({state.stop_reason}); failed {state.final_failures} of {state.final_runs} runs"
            f" (original {state.baseline_failures} of {state.baseline_runs})"
            + (f"; program {reduction.reduced_id}" if reduction.reduced_id else "")
        )
        self.stdout.write(state.current_text)
        if reduction.status != Reduction.Status.DONE:
            raise CommandError(f"reduction {reduction.status}", returncode=1)

    def _reduction(self, options: dict[str, Any]) -> Reduction:
        if options["resume"] is not None:
            try:
                reduction = Reduction.objects.get(pk=options["resume"])
            except Reduction.DoesNotExist:
                raise CommandError(f"no reduction {options['resume']}", returncode=2) from None
            # A failed or cancelled reduction goes on from its saved state.
            try:
                return resume_reduction(reduction=reduction, enqueue=options["queue"])
            except ValueError as exc:
                raise CommandError(str(exc), returncode=2) from exc
            except ReductionNotQueued as exc:
                raise _not_queued(exc) from exc
        if options["finding_id"] is None:
            raise CommandError("give a FINDING_ID, or --resume REDUCTION_ID", returncode=2)
        if not 1 <= options["max_minutes"] * 60 <= MAX_SECONDS:
            raise CommandError(
                f"--max-minutes must be from 1/60 to {MAX_SECONDS / 60:g}", returncode=2
            )
        try:
            finding = Finding.objects.select_related("example").get(pk=options["finding_id"])
        except Finding.DoesNotExist:
            raise CommandError(f"no finding {options['finding_id']}", returncode=2) from None
        try:
            return start_reduction(
                finding=finding,
                version=options["toolchain"],
                timeout_s=options["timeout"],
                repetitions=options["repetitions"],
                hang_quiet_s=options["hang_quiet"],
                jobs=options["jobs"],
                baseline_runs=options["baseline_runs"],
                keep_ratio=options["keep_ratio"],
                max_candidates=options["max_candidates"],
                max_seconds=options["max_minutes"] * 60,
                enqueue=options["queue"],
            )
        except ValueError as exc:
            raise CommandError(_in_option_words(str(exc)), returncode=2) from exc
        except ReductionNotQueued as exc:
            raise _not_queued(exc) from exc


# The service's names for what this command's options set ("jobs must be from 1 to 16").
_OPTIONS = {
    "timeout_s": "--timeout",
    "repetitions": "--repetitions",
    "hang_quiet_s": "--hang-quiet",
    "jobs": "--jobs",
    "baseline_runs": "--baseline-runs",
    "keep_ratio": "--keep-ratio",
    "max_candidates": "--max-candidates",
}


def _in_option_words(message: str) -> str:
    name, space, rest = message.partition(" ")
    return f"{_OPTIONS[name]} {rest}" if space and name in _OPTIONS else message


def _not_queued(error: ReductionNotQueued) -> CommandError:
    return CommandError(
        f"{error}; start Redis and run `manage.py reduce --resume {error.reduction.pk} --queue`",
        returncode=1,
    )

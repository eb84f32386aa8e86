"""`manage.py fuzz --lang L [--version V] --count N …`: fuzz one target from the terminal.

Runs without Redis or the database: generates `--count` programs (seeds
`--seed`, `--seed`+1, …), runs them sandboxed in batches, shows a progress bar
and ends with a summary: counts per verdict, programs per minute, and the
findings grouped by signature with the seeds that reproduce them, and how long
the first finding took (`--stop-at-first` ends the run there). `--buffered`
generates beyond the paper (buffered channels, close and range) as far as the
target can write them, and says what it cannot.
Exit 0 when nothing was found, 1 when something was, 2 on bad arguments or
an unavailable toolchain or sandbox. Ctrl-C stops the run after the runs under
way and still prints the summary of what ran (exit 130 unless something was
found); a second Ctrl-C aborts at once.
"""

from __future__ import annotations

import os
import signal
import threading
from dataclasses import replace
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from tqdm import tqdm

from chanfuzz_site.beyond_paper import missing_note
from generator.settings import PRESETS, settings_for
from runners.engine.fuzz import MAX_JOBS, FuzzSummary, fuzz
from runners.engine.run_alone import Triage
from runners.engine.run_records import ProgramRun
from runners.engine.run_target import MAX_REPETITIONS, make_target
from runners.engine.sandbox import BACKENDS, Limits, SandboxUnavailable, get_sandbox
from runners.engine.toolchains import ToolchainUnavailable
from runners.engine.verdicts import Outcome
from runners.targets import names

MAX_COUNT = 1_000_000
MIN_HANG_QUIET_S = 0.1
# Batches under way at once: a hang waits out its limit on no core, and a compile
# can overlap another batch's runs; more than 4 only makes every run slower.
DEFAULT_JOBS = min(4, os.cpu_count() or 1)


class Command(BaseCommand):
    help = "Fuzz one toolchain with generated programs and report what it found."

    def create_parser(self, prog_name: str, subcommand: str, **kwargs: Any) -> CommandParser:
        # Django's own --version (its release) would shadow ours (the toolchain's).
        return super().create_parser(prog_name, subcommand, conflict_handler="resolve", **kwargs)

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--lang", required=True, choices=names())
        parser.add_argument("--version", help="toolchain version or id (default: newest)")
        parser.add_argument("--count", type=int, required=True, help="number of programs")
        parser.add_argument("--heuristic", type=str.upper, choices=sorted(PRESETS), default="A")
        parser.add_argument(
            "--buffered",
            action="store_true",
            help="beyond the paper: buffered channels, close and range where the target has "
            "them (off by default)",
        )
        parser.add_argument("--timeout", type=float, default=10.0, help="seconds per run")
        parser.add_argument(
            "--hang-quiet",
            type=float,
            metavar="SECONDS",
            help="declare a run hung once its processes used no CPU and had no thread running "
            "for this long, instead of waiting out --timeout (off by default)",
        )
        parser.add_argument("--seed", type=int, default=0, help="seed of the first program")
        parser.add_argument("--repetitions", type=int, default=10, help="runs of the body")
        parser.add_argument(
            "--threads",
            type=int,
            help="the runtime's threads where the target has a pool: Kotlin's dispatcher (0 to "
            "64, default 8; 0 = the library's default dispatcher), tokio's workers (1 to 256)",
        )
        parser.add_argument(
            "--batch-size",
            default="auto",
            metavar="N|auto",
            help="programs per compile (1 to 1000); auto (the default) chooses each batch's "
            "size from the compile and run times of the batches before it",
        )
        parser.add_argument(
            "--jobs",
            type=int,
            default=DEFAULT_JOBS,
            help=f"batches under way at once (default {DEFAULT_JOBS}: the cores, at most 4)",
        )
        parser.add_argument(
            "--retries", type=int, default=2, help="re-runs of a timeout (0 to 10; default 2)"
        )
        parser.add_argument(
            "--runs", type=int, default=1,
            help="runs of each program, a process each, while it ends clean (1 to 20; "
            "default 1): for races a cold runtime meets now and then",
        )  # fmt: skip
        parser.add_argument(
            "--sandbox", choices=BACKENDS, help="default: $CHANFUZZ_SANDBOX, else local"
        )
        parser.add_argument(
            "--no-values",
            action="store_true",
            help="programs do not check the values their messages carry (the value oracle, "
            "on by default where the target has it): only hangs and crashes are found",
        )
        parser.add_argument(
            "--pct-depth",
            type=int,
            metavar="D",
            help="schedule perturbation (PCT): each program yields before D-1 of its "
            "communication steps, drawn from the program (1 to 64; off by default)",
        )
        parser.add_argument("--no-progress", action="store_true")
        parser.add_argument(
            "--stop-at-first", action="store_true", help="stop at the first finding"
        )
        parser.add_argument(
            "--no-cache",
            action="store_true",
            help="compile every batch even if the artifact cache has it (honest timings)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        count, timeout = options["count"], options["timeout"]
        if not 1 <= count <= MAX_COUNT:
            raise CommandError(f"--count must be from 1 to {MAX_COUNT}", returncode=2)
        if not 0 < timeout <= 3600:
            raise CommandError("--timeout must be more than 0 and at most 3600", returncode=2)
        batch_size = _batch_size(options["batch_size"])
        if not 1 <= options["repetitions"] <= MAX_REPETITIONS:
            raise CommandError(f"--repetitions must be from 1 to {MAX_REPETITIONS}", returncode=2)
        if batch_size == 0:
            raise CommandError("--batch-size must be from 1 to 1000, or auto", returncode=2)
        if not 1 <= options["jobs"] <= MAX_JOBS:
            raise CommandError(f"--jobs must be from 1 to {MAX_JOBS}", returncode=2)
        quiet = options["hang_quiet"]
        # Shorter, and a program that only waits on a lock for a moment is a false hang
        # (a quiet period of 1 ms flagged a correct Go program); as campaigns take it.
        if quiet is not None and not MIN_HANG_QUIET_S <= quiet <= timeout:
            raise CommandError(
                f"--hang-quiet must be from {MIN_HANG_QUIET_S:g} s to --timeout ({timeout:g} s)",
                returncode=2,
            )
        try:
            triage = Triage(retries=options["retries"])
        except ValueError as exc:
            raise CommandError(f"--retries: {exc}", returncode=2) from exc
        try:
            triage = replace(triage, runs=options["runs"])
        except ValueError as exc:
            raise CommandError(f"--runs: {exc}", returncode=2) from exc
        try:
            target = make_target(
                options["lang"],
                options["version"],
                repetitions=options["repetitions"],
                threads=options["threads"],
                values=not options["no_values"],
                pct_depth=options["pct_depth"],
            )
            sandbox = get_sandbox(options["sandbox"], language=options["lang"])
        except (ToolchainUnavailable, SandboxUnavailable) as exc:
            raise CommandError(exc.reason, returncode=2) from exc
        except ValueError as exc:  # the renderer refuses an option: threads out of its range
            raise CommandError(str(exc), returncode=2) from exc
        settings = settings_for(options["heuristic"], buffered=options["buffered"])
        limits = Limits(timeout_s=timeout, quiet_s=quiet)
        self.stdout.write(
            f"fuzzing {target.toolchain.describe()} with {count} programs "
            f"(heuristic {options['heuristic']}, seeds {options['seed']}…, "
            f"timeout {timeout:g} s"
            + (f" (hung after {limits.quiet_s:g} s blocked)" if limits.quiet_s else "")
            + f", {target.repetitions} repetitions, "
            + (f"up to {triage.runs} runs a program, " if triage.runs > 1 else "")
            + ("values checked, " if dict(target.render_options).get("values") else "")
            + (f"PCT depth {options['pct_depth']}, " if options["pct_depth"] else "")
            + ("buffered, " if options["buffered"] else "")
            + f"sandbox {sandbox.name}, "
            f"{options['jobs']} at once)"
        )
        note = missing_note(target.spec.capabilities, [options["lang"]])
        if options["buffered"] and note:
            self.stdout.write(note)
        bar = tqdm(total=count, unit="prog", disable=options["no_progress"], dynamic_ncols=True)
        findings = 0

        def progress(_generated: Any, execution: ProgramRun) -> None:
            nonlocal findings
            findings += execution.classification.is_finding
            bar.update(1)
            bar.set_postfix(findings=findings, refresh=False)

        interrupted = threading.Event()

        def interrupt(_signum: int, _frame: object) -> None:
            if interrupted.is_set():
                raise KeyboardInterrupt
            interrupted.set()
            self.stderr.write("\nstopping after the runs under way (Ctrl-C again to abort)")

        previous = signal.signal(signal.SIGINT, interrupt)
        try:
            summary = fuzz(
                target=target,
                settings=settings,
                count=count,
                seed=options["seed"],
                sandbox=sandbox,
                limits=limits,
                batch_size=batch_size,
                triage=triage,
                on_result=progress,
                stop_at_first=options["stop_at_first"],
                stop_when=lambda _generated, _execution: interrupted.is_set(),
                use_cache=not options["no_cache"],
                jobs=options["jobs"],
            )
        finally:
            signal.signal(signal.SIGINT, previous)
            bar.close()
        self.stdout.write(format_summary(summary, interrupted=interrupted.is_set()))
        if summary.findings:
            raise CommandError(f"{len(summary.findings)} finding(s)", returncode=1)
        if interrupted.is_set():
            raise CommandError(f"interrupted after {summary.count} programs", returncode=130)


def _batch_size(text: str) -> int | None:
    """None for auto, the number for 1…1000, 0 for anything else (refused)."""
    if text.strip().lower() == "auto":
        return None
    if text.strip().isascii() and text.strip().isdigit() and 1 <= int(text) <= 1000:
        return int(text)
    return 0


def _sizes(sizes: list[int]) -> str:
    """`25, 50, 180 ×6, 97`: the batch sizes in order, repeats counted."""
    runs: list[list[int]] = []
    for size in sizes:
        if runs and runs[-1][0] == size:
            runs[-1][1] += 1
        else:
            runs.append([size, 1])
    return ", ".join(f"{size} ×{n}" if n > 1 else str(size) for size, n in runs)


def format_summary(summary: FuzzSummary, *, interrupted: bool = False) -> str:
    lines = [
        "",
        f"target      {summary.target}",
        f"programs    {summary.count} in {summary.seconds:.1f} s "
        f"({summary.per_minute:.0f}/min, compiling {summary.compile_s:.1f} s)"
        + (" — interrupted" if interrupted else ""),
    ]
    if summary.out_of_time_s:
        lines.append(
            f"out of time {summary.out_of_time_s:.1f} s in runs their limit cut while they"
            " used a core (spins, or programs too slow), and their re-runs"
        )
    if summary.batch_sizes:
        lines.append(f"batches     {len(summary.batch_sizes)}: {_sizes(summary.batch_sizes)}")
    if summary.skipped:
        lines.append(f"skipped     {summary.skipped} the language cannot express")
    if summary.first_finding_s is not None:
        stopped = " (stopped there)" if summary.stopped_early and not interrupted else ""
        lines.append(
            f"first       finding after {summary.first_finding_s:.1f} s, "
            f"at program {summary.first_finding_programs}{stopped}"
        )
    lines.append("")
    lines.append(f"{'verdict':15} {'programs':>8}")
    for outcome in Outcome:
        lines.append(f"{outcome.value:15} {summary.outcomes.get(outcome, 0):8}")
    lines.append("")
    if not summary.findings:
        lines.append("findings    none")
    for n, finding in enumerate(sorted(summary.findings.values(), key=lambda f: -len(f.seeds)), 1):
        # Runs in parallel finish out of order; the seeds are listed in order.
        seeds = ", ".join(map(str, sorted(finding.seeds)[:10]))
        more = f" (+{len(finding.seeds) - 10} more)" if len(finding.seeds) > 10 else ""
        lines.append(f"finding {n}   {finding.outcome.value}: {finding.signature}")
        lines.append(f"            {finding.reason[:200]}")
        hangs = f", hang confirmed in {finding.confirmed_hangs}" if finding.confirmed_hangs else ""
        lines.append(f"            {len(finding.seeds)} program(s){hangs}; seeds {seeds}{more}")
    for seed, outcome, detail in sorted(summary.errors)[:5]:
        first = detail.strip().splitlines()[0] if detail.strip() else ""
        lines.append(f"{outcome.value} (seed {seed}): {first[:200]}")
    return "\n".join(lines)

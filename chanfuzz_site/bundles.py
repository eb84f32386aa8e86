"""Reproducer bundles: one zip a runtime maintainer can attach to a bug report.

`/p/<id>.zip` holds, for a stored program: its source in every language that
can express it, a run script per language (compile, run with a timeout, say
what the exit status means), the Dockerfiles of the runtime images chanfuzz
ran it in, the effect and λ_chan text, and a README with the expected result
(exit 0: every generated program terminates by construction) and what was
observed, and for each finding it shows, the finding's standalone reproducer
and upstream bug report. Entries are sorted and carry a fixed timestamp, so the same program
and the same observations give the same bytes.
"""

from __future__ import annotations

import io
import zipfile
from dataclasses import dataclass

from django.db.models import Q

from runners.campaigns import bug_reports, selectors
from runners.campaigns.models import Execution, Finding, Program
from runners.targets import all_targets, get_target, names

ZIP_EPOCH = (1980, 1, 1, 0, 0, 0)  # the earliest time a zip entry can carry
# How many finding executions the README lists.
OBSERVED_LIMIT = 20

_SCRIPT_HEAD = """#!/bin/sh
# {title}
# Exit status, as chanfuzz judges it:
#   0    the program terminated: what every generated program must do
#   124  no end within $TIMEOUT seconds: a hang (deadlock or livelock in the runtime)
#   3    the compiler rejected the program (a compiler bug: the program is well typed)
#   65   the program saw a message lost, doubled or on the wrong channel (runtime bug)
#   else the program crashed (exception, stack overflow, signal): a runtime bug
set -u
here=$(cd "$(dirname "$0")" && pwd)
TIMEOUT=${{TIMEOUT:-30}}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$here/{source}" "$work/"
cd "$work"
"""

_SCRIPT_TAIL = (
    "status=$?\n"
    + bug_reports.KILLED_AT_LIMIT
    + """
case $status in
  0) echo "terminated (exit 0): as expected" ;;
  124) echo "hung: no end within ${TIMEOUT}s (runtime bug)" ;;
  65) echo "wrong value: a message lost, doubled or misdelivered (runtime bug)" ;;
  *) echo "crashed: exit status $status (runtime bug)" ;;
esac
exit $status
"""
)


def run_script(language: str) -> str:
    """The shell script that compiles and runs the bundle's `language` source."""
    target = get_target(language)
    head = _SCRIPT_HEAD.format(
        title=f"Compile and run {target.source_file} ({language}).",
        source=f"{language}/{target.source_file}",
    )
    return head + target.bundle_script + _SCRIPT_TAIL


@dataclass(frozen=True)
class BundleSource:
    language: str
    text: str | None  # None: the language cannot express the program (see `problem`)
    problem: str = ""


def bundle_sources(
    program: Program, *, repetitions: int, versions: dict[str, str] | None = None
) -> list[BundleSource]:
    """The program in every language, rendered as `program_source` does (stable per id),
    checking the values its messages carry as runs do."""
    out = []
    for language in names():
        version = (versions or {}).get(language)
        try:
            text = selectors.program_source(
                program, language, version=version, repetitions=repetitions, values=True
            )
        except ValueError as exc:
            out.append(BundleSource(language, None, str(exc)))
            continue
        out.append(BundleSource(language, text))
    return out


def _observed(program: Program) -> list[str]:
    lines = []
    findings = list(selectors.program_findings(program))
    for f in findings:
        lines.append(
            f"- Finding #{f.pk}: {f.outcome} — {f.title}\n"
            f"  signature: {f.signature}\n"
            f"  seen {f.execution_count} time(s) in {f.program_count} program(s), "
            f"{f.first_seen:%Y-%m-%d %H:%M} … {f.last_seen:%Y-%m-%d %H:%M} UTC"
        )
    shown: list[Execution] = list(
        selectors.program_executions(program)
        .filter(finding__isnull=False)
        .defer("stdout", "stderr", "dump", "attempts", "compile_output")[:OBSERVED_LIMIT]
    )
    for e in shown:
        where = e.target or e.reproduction
        toolchain = getattr(where, "toolchain_description", "") or "?"
        lines.append(
            f"- {e.created_at:%Y-%m-%d %H:%M:%S} on {toolchain}: {e.outcome} "
            f"(exit {e.exit_code}, signal {e.signal}, {e.duration_s or 0:.2f} s) — {e.reason}"
        )
    for r in selectors.program_reproductions(program):
        if r.completed:
            lines.append(
                f"- Reproduction ×{r.times} on {r.toolchain_id}: {r.crashed} crashed, "
                f"{r.hung} hung, {r.wrong_values} wrong values of {r.completed} runs"
            )
    return lines or ["- No crash or hang recorded for this program (yet)."]


def readme(
    program: Program, sources: list[BundleSource], *, permalink: str, repetitions: int
) -> str:
    if program.source == Program.Source.GENERATED:
        expectation = (
            "chanfuzz generated this program from a terminating effect, so it terminates by\n"
            "construction: every run script must end with exit status 0. A hang or a crash\n"
            "is a bug of the compiler or of the runtime's channels and processes."
        )
    else:
        expectation = (
            "This program was given as an effect, not generated: it terminates only if its\n"
            "effect does (a deadlocking effect hangs on every correct runtime)."
        )
    files = [
        f"- {s.language}/{get_target(s.language).source_file}, run-{s.language}.sh"
        for s in sources
        if s.text is not None
    ]
    missing = [f"- {s.language}: {s.problem}" for s in sources if s.text is None]
    parts = [
        f"chanfuzz reproducer for program {program.id}",
        "=" * 40,
        "",
        f"Permalink: {permalink}",
        f"Each run of main repeats the program {repetitions} time(s), with fresh channels.",
        "",
        "Expected result",
        "---------------",
        expectation,
        "",
        "Observed",
        "--------",
        *_observed(program),
        "",
        "Effect (effect.txt)",
        "-------------------",
        program.effect_text,
        "",
        "λ_chan program (lambda_chan.txt)",
        "--------------------------------",
        program.lambda_text,
        "",
        "Files",
        "-----",
        *files,
        "- docker/*.Dockerfile: the runtime images chanfuzz ran programs in",
        "",
        "Run one with e.g. `TIMEOUT=30 sh run-go.sh` (the toolchain on PATH, or GO=/path/to/go).",
        "Each script prints what its exit status means and exits with it.",
    ]
    if missing:
        parts += ["", "Not rendered", "------------", *missing]
    return "\n".join(parts) + "\n"


def _finding_entries(program: Program, permalink: str) -> dict[str, tuple[str, bool]]:
    """For each finding the program is the reported program of: its standalone reproducer
    and its bug report (runners.campaigns.bug_reports)."""
    entries: dict[str, tuple[str, bool]] = {}
    shown = Finding.objects.filter(Q(executions__program=program) | Q(reductions__reduced=program))
    for finding in shown.distinct().order_by("pk"):
        ev = bug_reports.evidence(finding)
        if ev is None or ev.program.id != program.id:
            continue
        try:
            script = bug_reports.reproducer_script(finding, ev, permalink=permalink)
            report = bug_reports.report_markdown(
                finding, ev, permalink=permalink, script_url=bug_reports.reproducer_name(finding)
            )
        except ValueError:
            continue
        entries[f"findings/{bug_reports.reproducer_name(finding)}"] = (script, True)
        entries[f"findings/chanfuzz-finding-{finding.pk}.md"] = (report, False)
    return entries


def build_bundle(
    program: Program, *, permalink: str, repetitions: int, versions: dict[str, str] | None = None
) -> bytes:
    """The zip of `program` (see the module docstring)."""
    sources = bundle_sources(program, repetitions=repetitions, versions=versions)
    entries: dict[str, tuple[str, bool]] = {  # name -> (text, executable)
        "README.md": (
            readme(program, sources, permalink=permalink, repetitions=repetitions),
            False,
        ),
        "effect.txt": (program.effect_text + "\n", False),
        "lambda_chan.txt": (program.lambda_text + "\n", False),
    }
    for s in sources:
        if s.text is None:
            continue
        entries[f"{s.language}/{get_target(s.language).source_file}"] = (s.text, False)
        entries[f"run-{s.language}.sh"] = (run_script(s.language), True)
    for target in all_targets():
        if target.dockerfile_path is not None:
            entries[target.dockerfile] = (target.dockerfile_path.read_text(), False)
    entries.update(_finding_entries(program, permalink))
    buffer = io.BytesIO()
    root = f"chanfuzz-{program.id}"
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name in sorted(entries):
            text, executable = entries[name]
            info = zipfile.ZipInfo(f"{root}/{name}", date_time=ZIP_EPOCH)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = (0o100755 if executable else 0o100644) << 16
            archive.writestr(info, text.encode())
    return buffer.getvalue()


def observed_settings(program: Program) -> tuple[int, dict[str, str]]:
    """Repetitions and toolchain per language under which the program last showed a finding.

    A bundle renders with them, so a bug that needs many repetitions in one
    process (or one Kotlin package layout) shows with the bundle too; a program a
    reduction made takes the reduction's; a program with no finding gets one
    repetition and each language's newest toolchain.
    """
    execution = (
        selectors.program_executions(program)
        .filter(finding__isnull=False)
        .defer("stdout", "stderr", "dump", "attempts", "compile_output")
        .first()
    )
    if execution is None:
        reduction = selectors.reduction_of(program)
        if reduction is None:
            return 1, {}
        return reduction.repetitions, {reduction.language: reduction.toolchain_id}
    where = execution.target or execution.reproduction
    run = execution.campaign or execution.reproduction
    repetitions = run.repetitions if run is not None else 1
    return repetitions, ({where.language: where.toolchain_id} if where is not None else {})

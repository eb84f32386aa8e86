"""What a finding gives a runtime maintainer: a standalone reproducer and a bug report.

`reproducer_script` is one file that needs nothing of chanfuzz: a shell script
holding the program's source in the target language, which builds it with the
release the finding was seen on (versions pinned where a package manager pins
them, named in the header where the user supplies the toolchain) and runs it
again and again until a run fails, each run in a fresh process with a time
limit, as chanfuzz ran it. `report_markdown` is the upstream bug report to
paste: title, versions, how often it failed, the dump, the program and the
command. Both take the finding's smallest known program: the result of its
last finished reduction when there is one (the program it started from, at the rate it
measured, when it kept nothing smaller), else its example.

Every target's `bundle_script` builds, then runs on its last line (a
`timeout …` command): the reproducer builds once and repeats that line.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import PurePosixPath

from django.db.models import Case, When

from runners.campaigns import selectors
from runners.campaigns.models import Execution, Finding, Program, Reduction
from runners.campaigns.programs import effect_terminates, program_object
from runners.engine.schedule import threads_for
from runners.engine.toolchains import ToolchainUnavailable, find_toolchain
from runners.engine.verdicts import is_hang_signature
from runners.targets import get_target
from runners.targets.base import RunSettings, TargetSpec, Toolchain

DEFAULT_RUNS = 1000
DUMP_LINES = 120
# A run killed 5 s after its limit (timeout's 137) hung as surely as one that ended at it
# (124): a JVM lives on after SIGQUIT, which only makes it print its dump.
KILLED_AT_LIMIT = '[ "$status" -eq 137 ] && status=124  # killed after the limit: a hang'
# What a report says of a program no campaign here ran (one loaded with the documentation):
# the settings of a campaign by default, which the reproducer then uses.
UNRUN_REPETITIONS = RunSettings.repetitions
UNRUN_TIMEOUT_S = 10.0


@dataclass(frozen=True)
class Evidence:
    """The program a report shows, and how often it failed, and where."""

    language: str
    program: Program
    reduced_from: Program | None
    toolchain_id: str  # "" when no run here showed it
    toolchain: Toolchain | None  # that toolchain, resolved once (None: not installed here)
    repetitions: int
    timeout_s: float
    failures: int
    runs: int
    dump: str
    pct_depth: int | None = None  # the schedule perturbation it failed under

    @property
    def version(self) -> str:
        return self.toolchain.version if self.toolchain is not None else ""

    @property
    def toolchain_description(self) -> str:
        """The toolchain's versions, not where it is installed here (a report is public)."""
        if self.toolchain is not None:
            return self.toolchain.summary()
        return self.toolchain_id or "not run here"

    @functools.cached_property  # rendered once: the reproducer and the report both show it
    def source(self) -> str:
        """The program in its language, with the repetitions, release and yields it failed
        with, checking its values as runs do (ValueError when the language cannot express
        it)."""
        return selectors.program_source(
            self.program,
            self.language,
            version=self.version or None,
            repetitions=self.repetitions,
            values=True,
            pct_depth=self.pct_depth,
        )

    @functools.cached_property
    def schedule_env(self) -> dict[str, str]:
        """The environment that gives a perturbed run the thread count chanfuzz gave it
        (runners.engine.schedule): GOMAXPROCS=3, say; empty without perturbation."""
        spec = get_target(self.language)
        if self.pct_depth is None or spec.threads_env is None:
            return {}
        options = {
            **spec.source_options(self.toolchain),
            **spec.pct_options(self.pct_depth),
        }
        threads = threads_for(program_object(self.program), self.pct_depth)
        return dict(spec.threads_env(threads, options))

    @functools.cached_property
    def terminating(self) -> bool | None:
        """Whether the program's effect is proved terminating: True for one generated or
        reduced by chanfuzz (by construction); a given effect (`campaign create --effect`,
        not checked there: how a known deadlock runs on more targets) is checked now,
        None when the check does not decide."""
        if self.reduced_from is not None or self.program.source != Program.Source.EFFECT:
            return True
        return effect_terminates(self.program.effect_text)

    @property
    def claim(self) -> str:
        """What the program is, as a report's title and the reproducer's header say it."""
        return {
            True: "a program that must terminate",
            False: "a program whose effect can deadlock",
            None: "a program not proved terminating",
        }[self.terminating]

    @property
    def rate_text(self) -> str:
        if not self.toolchain_id:
            return "not run on this installation (chanfuzz's default settings below)"
        if not self.runs:
            return "rate not measured"
        return (
            f"{self.failures} of {self.runs} runs failed ({100 * self.failures / self.runs:.0f} %)"
        )


def evidence(finding: Finding) -> Evidence | None:
    """The smallest program known to show `finding`, with its rate; None without a program.
    An example no campaign here ran (one loaded with the documentation) gives way to the
    smallest program of the finding a campaign here did run; with none, the report names
    no release: the newest installed one may well be one the bug was never seen on."""
    # The newest reduction that kept a smaller program; else the newest that kept nothing,
    # which still measured its program, at its own settings and on its own toolchain,
    # with more runs than a campaign gives one program.
    reduction = (
        Reduction.objects.filter(finding=finding, status=Reduction.Status.DONE)
        .select_related("reduced", "program")
        .order_by(Case(When(reduced=None, then=1), default=0), "-finished_at", "-id")
        .first()
    )
    if reduction is not None and not (
        reduction.reduced or (reduction.state or {}).get("final_runs")
    ):
        reduction = None
    example = finding.example
    if example is None and reduction is None:
        return None
    # A hang's dump, or a crash's own output (its message and stack).
    # Newest by (created_at, id): the (finding, created_at) index serves it, where "-id"
    # alone walked the whole table's primary key backwards on PostgreSQL.
    newest = ("-created_at", "-id")
    shown = (
        Execution.objects.filter(finding=finding).exclude(dump="").order_by(*newest).first()
        or Execution.objects.filter(finding=finding).order_by(*newest).first()
    )
    dump = (shown.dump or shown.stderr or shown.stdout) if shown else ""
    if reduction is not None:
        state = reduction.state or {}
        return Evidence(
            language=finding.language,
            program=reduction.reduced or reduction.program,
            reduced_from=reduction.program if reduction.reduced else None,
            toolchain_id=reduction.toolchain_id,
            toolchain=_toolchain(finding.language, reduction.toolchain_id),
            repetitions=reduction.repetitions,
            timeout_s=reduction.timeout_s,
            failures=state.get("final_failures", 0),
            runs=state.get("final_runs", 0),
            dump=dump,
            pct_depth=reduction.pct_depth,
        )
    original = selectors.original_runs(example)
    if original is None:
        ran = (
            Execution.objects.filter(finding=finding, campaign__isnull=False)
            .select_related("program")
            .order_by("program__effect_size", *newest)
            .first()
        )
        if ran is not None and (ran_original := selectors.original_runs(ran.program)):
            example, original = ran.program, ran_original
    toolchain_id = original.toolchain_id if original else ""
    return Evidence(
        language=finding.language,
        program=example,
        reduced_from=None,
        toolchain_id=toolchain_id,
        toolchain=_toolchain(finding.language, toolchain_id) if toolchain_id else None,
        repetitions=original.repetitions if original else UNRUN_REPETITIONS,
        timeout_s=original.timeout_s if original else UNRUN_TIMEOUT_S,
        failures=original.bad_runs if original else 0,
        runs=original.runs if original else 0,
        dump=dump,
        pct_depth=original.pct_depth if original else None,
    )


def _toolchain(language: str, toolchain_id: str) -> Toolchain | None:
    try:
        return find_toolchain(language, toolchain_id or None)
    except (ToolchainUnavailable, ValueError):
        return None


def _fetch_lines(target: TargetSpec, ev: Evidence) -> list[str]:
    """What the target's build needs of the release seen, fetched unless the user set it."""
    if target.reproducer_fetch is None or ev.toolchain is None:
        return []
    return list(target.reproducer_fetch(ev.toolchain))


def reproducer_name(finding: Finding) -> str:
    return f"chanfuzz-finding-{finding.pk}.sh"


def reproducer_script(finding: Finding, ev: Evidence, *, permalink: str) -> str:
    """The standalone reproducer: build once, run until a run fails (ValueError when the
    target cannot express the program)."""
    target = get_target(finding.language)
    source = ev.source
    *build, run = target.bundle_script.strip().splitlines()
    name = PurePosixPath(target.source_file).name
    marker = "END_OF_PROGRAM_SOURCE"
    # A package manager pins the release (Rust's Cargo.toml reads $VERSION): the one seen.
    pins = (
        f"VERSION=${{VERSION:-{ev.version}}}"
        if ev.version and "$VERSION" in "\n".join(build)
        else ""
    )
    hang = is_hang_signature(finding.signature)
    lines = [
        "#!/bin/sh",
        f"# chanfuzz finding {finding.pk}: {target.title} — {ev.claim}"
        + (" hangs." if hang else " crashes."),
        (
            f"# Program {ev.program.id} ({permalink}), seen on {ev.toolchain_description}."
            if ev.toolchain_id
            else f"# Program {ev.program.id} ({permalink}), not run on this installation."
        ),
        f"# Signature: {finding.signature}",
        f"# Observed: {ev.rate_text}, {ev.timeout_s:g} s a run, main repeating the"
        f" program {ev.repetitions} times.",
        "#",
        f"# Usage: sh {reproducer_name(finding)}   (TIMEOUT=seconds a run, RUNS=most runs)",
        "# Builds once, then runs until a run fails: exit 124 is a hang, 3 a rejected",
        "# build, anything else but 0 a crash; 0 when every run terminated.",
        "set -u",
        *(
            f"export {var}={value}  # the thread count it ran with"
            for var, value in ev.schedule_env.items()
        ),
        f"TIMEOUT=${{TIMEOUT:-{max(ev.timeout_s, 1.0):g}}}",
        f"RUNS=${{RUNS:-{DEFAULT_RUNS}}}",
        pins or None,
        "work=$(mktemp -d)",
        "trap 'rm -rf \"$work\"' EXIT",
        'cd "$work"',
        *_fetch_lines(target, ev),
        f"cat > {name} <<'{marker}'",
        source.rstrip("\n"),
        marker,
        *build,
        "n=0",
        'while [ "$n" -lt "$RUNS" ]; do',
        f"  {run}",
        "  status=$?",
        f"  {KILLED_AT_LIMIT}",
        '  [ "$status" -ne 0 ] && break',
        "  n=$((n + 1))",
        "done",
        "case ${status:-0} in",
        '  0) echo "no failure in $RUNS runs" ;;',
        '  124) echo "hung (no end within ${TIMEOUT}s) after $n passing runs" ;;',
        '  65) echo "wrong value (a message lost, doubled or misdelivered) after $n passing'
        ' runs" ;;',
        '  *) echo "crashed (exit $status) after $n passing runs" ;;',
        "esac",
        'exit "${status:-0}"',
        "",
    ]
    return "\n".join(line for line in lines if line is not None)


def report_markdown(finding: Finding, ev: Evidence, *, permalink: str, script_url: str) -> str:
    """The upstream bug report, in Markdown, ready to paste."""
    target = get_target(finding.language)
    hang = is_hang_signature(finding.signature)
    source = ev.source
    what = "hangs" if hang else "crashes"
    name = f"{target.release_of or target.title} {ev.version}".strip()
    where = f" on {ev.toolchain_description}" if ev.toolchain_id else ""
    if ev.terminating:
        intro = (
            f"A program generated by [chanfuzz]({permalink}) from a terminating effect {what}"
            f"{where}: every run of it must end with exit status 0."
        )
    else:
        # A given effect: a hang of a program that may deadlock is no runtime bug.
        why = "can deadlock" if ev.terminating is False else "was not proved terminating"
        intro = (
            f"A [program]({permalink}) given to chanfuzz as an effect that {why}"
            f" (chanfuzz's termination checker) {what}{where}. Its own deadlock may be"
            " the cause, not the runtime: check that before filing this."
        )
    lines = [
        f"# {name}: {ev.claim} {what}",
        "",
        intro,
        "",
        f"- Signature: `{finding.signature}`",
        f"- How often: {ev.rate_text} ({ev.timeout_s:g} s a run; `main` repeats the program"
        f" {ev.repetitions} times with fresh channels)",
        f"- Versions: {ev.toolchain_description}",
    ]
    if ev.pct_depth is not None:
        lines.append(
            f"- Schedule: the program yields to the scheduler before {ev.pct_depth - 1} of its"
            " channel operations (chanfuzz's schedule perturbation, PCT depth"
            f" {ev.pct_depth}); the yields are in the source below"
            + "".join(f"; it ran with `{k}={v}`" for k, v in ev.schedule_env.items())
        )
    if ev.reduced_from is not None:
        lines.append(
            f"- Reduced by chanfuzz from program {ev.reduced_from.id}"
            f" ({ev.reduced_from.effect_size} → {ev.program.effect_size} characters of effect),"
            " keeping the failure at a comparable rate"
        )
    lines += [
        "",
        "## Program",
        "",
        f"```{target.lexer}",
        source.rstrip("\n"),
        "```",
        "",
        "## How to run it",
        "",
        f"Save [the reproducer]({script_url}) (it holds the program above) and run"
        f" `sh {reproducer_name(finding)}`: it builds the program once, then runs it until a run"
        " fails (exit 124: a hang; another non-zero status: a crash).",
        "",
        "```sh",
        *target.bundle_script.strip().splitlines(),
        "```",
        "",
    ]
    if ev.dump:
        # A hang's dump as the target trims it (a JVM's own threads out), a crash's output
        # as it is; either cut at DUMP_LINES, saying so.
        lines_of = (target.dump_excerpt(ev.dump) if hang else ev.dump).strip().splitlines()
        shown = "\n".join(lines_of[:DUMP_LINES])
        if len(lines_of) > DUMP_LINES:
            shown += f"\n… ({len(lines_of) - DUMP_LINES} more lines on the program's page)"
        lines += ["## Dump at the time limit" if hang else "## Output", "", "```", shown, "```", ""]
    lines += ["## The effect (what each process does)", "", "```", ev.program.effect_text, "```"]
    return "\n".join(lines) + "\n"


__all__ = ["Evidence", "evidence", "report_markdown", "reproducer_name", "reproducer_script"]

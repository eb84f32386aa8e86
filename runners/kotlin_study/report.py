"""The kotlinx.coroutines reproduction (issue #7): what it runs and the figures it reads back.

Experiments on the select stack overflow of Kotlin/kotlinx.coroutines#504 (and
on the hangs the same campaigns turn up):

- **Table 2**: for each heuristic A–F, `programs` generated programs on one
  buggy release (the paper used 0.19); counted are the programs that reveal
  the bug, beside the paper's counts out of 5,000.
- **Release sweep**: the `sweep_programs` shortest programs that revealed the
  bug in Table 2 (given by their effects), on every installed release.
- **Time to the first finding**: queue-less fuzz runs from fresh seeds, each
  stopped at its first finding, compiling every batch (no artifact cache), so
  the time is what a first run on a fresh machine pays.
- **Regression fixture**: the shortest program that showed the bug, run
  `fixture_runs` times on every installed release (a bisection). The releases
  where it crashed are the buggy ones, the others after the last buggy one the
  fixed ones; `manage.py kotlin_report` stores the program and both lists for
  the slow test that keeps the result true. The shortest crashing program on
  two channels (#504's own scenario) and the shortest hang that repeated in a
  re-run are bisected the same way (`hang_spec`: a hang costs its whole limit).

The first two are ordinary campaigns (chunk jobs through RQ on Redis, rows in
the database), so the web app shows them like any other. They are found again
by name: a report cut off halfway resumes its campaigns instead of starting
them over. The figures go to a JSON document from which the Markdown report is
rendered (templates/reports/kotlin.md).
"""

from __future__ import annotations

import functools
import re
import statistics
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from django.db.models import Count, Q

from generator import effects
from generator.settings import PRESETS, settings_for
from runners.campaigns import services, studies
from runners.campaigns.models import Campaign, Execution, Finding, Program
from runners.campaigns.programs import program_object
from runners.engine.bisect import VersionResult, bisect_program
from runners.engine.fuzz import fuzz
from runners.engine.run_alone import Triage
from runners.engine.run_target import target_for
from runners.engine.sandbox import Limits, Sandbox
from runners.engine.toolchains import Toolchain, installed_toolchains, version_key
from runners.engine.verdicts import is_hang_signature
from runners.targets.kotlin import DEFAULT_KOTLIN_THREADS

# The paper's Table 2, Kotlin column: programs out of 5,000 that revealed the bug.
PAPER_PROGRAMS = 5000
PAPER_KOTLIN = {"A": 48, "B": 149, "C": 0, "D": 0, "E": 148, "F": 155}
PAPER_WEIGHTS = {
    "A": "1 1 1 1 1 1 1 1 1",
    "B": "1 1 1 1 1 1 1 1 0",
    "C": "1 1 1 1 1 1 1 0 1",
    "D": "1 1 1 1 1 1 0 1 1",
    "E": "0 0 0 0 0 0 1 1 1",
    "F": "1 1 1 2 2 2 15 1 1",
}
NAME_PREFIX = "kotlin report:"

# The bug: a StackOverflowError whose recursion runs through select's machinery
# (runners.engine.verdicts names the cycle; both the experimental and the later package).
_SELECT_OVERFLOW = re.compile(r"StackOverflowError.*selects\.SelectBuilderImpl", re.S)


def is_select_overflow(signature: str) -> bool:
    """Whether a finding signature is the select stack overflow of #504."""
    return bool(_SELECT_OVERFLOW.search(signature))


def is_parked_hang(signature: str) -> bool:
    """A hang with every thread of the dispatcher pool parked: nothing can run any more
    (a program merely slow under load has running pool threads)."""
    parked = f"WAITING parking×{DEFAULT_KOTLIN_THREADS}"
    return is_hang_signature(signature) and parked in signature


@dataclass(frozen=True)
class ReportPlan:
    """How big each experiment is; the defaults are what docs/kotlin-report.md was made with."""

    release: str = "0.19"  # the buggy release of Table 2 (the paper's)
    heuristics: str = "ABCDEF"
    programs: int = 1000  # per heuristic
    sweep_programs: int = 12  # per release: the shortest that revealed the bug in Table 2
    repetitions: int = 1000  # body repetitions per run
    timeout_s: float = 30.0  # per run, as in the paper
    chunk_size: int = 50
    seed: int = 0
    first_trials: int = 5
    first_heuristic: str = "E"
    first_max_programs: int = 300  # a trial gives up after this many programs
    first_batch_size: int = 10
    first_jobs: int = 2  # batches under way at once (fuzz --jobs): this machine's cores
    fixture_runs: int = 6  # runs of the fixture program per release
    fixture_repetitions: int = 100_000
    releases: tuple[str, ...] = ()  # of the sweep and the fixture; () for every installed one
    # The shortest program whose hang repeated in a re-run, bisected like the fixture.
    # A hang costs its whole limit, so a release stops at its first hang; a normal
    # run of it at 100,000 repetitions takes about 2 s.
    hang_runs: int = 3
    hang_repetitions: int = 100_000
    hang_timeout_s: float = 10.0

    def table2_name(self, heuristic: str) -> str:
        return (
            f"{NAME_PREFIX} Table 2 heuristic {heuristic} on kotlinx.coroutines {self.release}"
            f" ({self.programs} programs)"
        )

    def sweep_name(self, releases: Sequence[Toolchain]) -> str:
        span = f"{releases[0].version} … {releases[-1].version}" if releases else "none"
        return (
            f"{NAME_PREFIX} the {self.sweep_programs} shortest programs that crashed"
            f" {self.release}, on {len(releases)} kotlinx.coroutines releases ({span})"
        )


def kotlin_releases(only: Sequence[str] = ()) -> list[Toolchain]:
    """The installed Kotlin toolchains (of the releases `only`, when given), oldest first."""
    chosen = [t for t in installed_toolchains("kotlin") if not only or t.version in only]
    return sorted(chosen, key=lambda t: (version_key(t.version), t.id))


# ---------------------------------------------------------------- campaigns


def table2_campaigns(plan: ReportPlan) -> list[Campaign]:
    """One campaign per heuristic on the buggy release (created and queued when missing)."""
    return [
        studies.find_or_create(
            plan.table2_name(h),
            lambda h=h: services.create_campaign(
                name=plan.table2_name(h),
                heuristic=h,
                targets=[("kotlin", plan.release)],
                count=plan.programs,
                timeout_s=plan.timeout_s,
                repetitions=plan.repetitions,
                seed=plan.seed,
                chunk_size=plan.chunk_size,
            ),
        )
        for h in plan.heuristics
    ]


def revealing_programs(campaigns: Sequence[Campaign]) -> list[Program]:
    """The programs that revealed the bug in `campaigns`, shortest effect first."""
    ids = {
        e.program_id
        for e in Execution.objects.filter(campaign__in=list(campaigns), outcome="crash").only(
            "signature", "program_id"
        )
        if is_select_overflow(e.signature)
    }
    return list(Program.objects.filter(pk__in=ids).order_by("effect_size", "id"))


def sweep_campaign(
    plan: ReportPlan, releases: Sequence[Toolchain], table2: Sequence[Campaign]
) -> Campaign | None:
    """The shortest programs that revealed the bug in `table2`, on every one of `releases`
    (created and queued when missing; None when no program revealed it)."""
    name = plan.sweep_name(releases)
    chosen = revealing_programs(table2)[: plan.sweep_programs]
    if not chosen and not Campaign.objects.filter(name=name).exists():
        return None
    return studies.find_or_create(
        name,
        lambda: services.campaign_from_programs(
            name=name,
            # Synthesised again from their effects (seed + i): the same effects as in
            # Table 2, not necessarily the same code.
            effects=[p.effect_text for p in chosen],
            targets=[("kotlin", t.id) for t in releases],
            timeout_s=plan.timeout_s,
            repetitions=plan.repetitions,
            seed=plan.seed,
            chunk_size=plan.chunk_size,
        ),
    )


# ---------------------------------------------------------------- reading campaigns


@dataclass
class TargetFigures:
    """What one campaign target showed."""

    campaign_id: int
    toolchain_id: str
    version: str
    programs: int  # executions that ran (skipped ones excluded)
    revealing: int  # programs whose run was the select stack overflow
    other_findings: int  # crashes or hangs with another signature
    errors: int  # compile or infrastructure errors
    seconds: float  # wall clock of the whole campaign
    example: str | None  # the shortest program that revealed it


def target_figures(campaign: Campaign) -> list[TargetFigures]:
    """Per target of `campaign`: programs run, programs revealing the bug, other findings."""
    rows = []
    for target in campaign.targets.order_by("id"):
        executions = Execution.objects.filter(target=target)
        counts = executions.aggregate(
            ran=Count("id", filter=~Q(outcome="skipped")),
            errors=Count("id", filter=Q(outcome__in=["compile_error", "infra_error"])),
        )
        findings = executions.filter(outcome__in=["crash", "timeout"])
        revealing = [
            e for e in findings.only("signature", "program_id") if is_select_overflow(e.signature)
        ]
        shortest = (
            Program.objects.filter(pk__in={e.program_id for e in revealing})
            .order_by("effect_size", "id")
            .values_list("id", flat=True)
            .first()
        )
        rows.append(
            TargetFigures(
                campaign_id=campaign.pk,
                toolchain_id=target.toolchain_id,
                version=_version_of(target.toolchain_id),
                programs=counts["ran"],
                revealing=len({e.program_id for e in revealing}),
                other_findings=findings.count() - len(revealing),
                errors=counts["errors"],
                seconds=studies.campaign_seconds(campaign),
                example=shortest,
            )
        )
    return rows


def _version_of(toolchain_id: str) -> str:
    """The kotlinx.coroutines release of a toolchain id (kotlin-<kotlin>-coroutines-<release>)."""
    return toolchain_id.rsplit("-coroutines-", 1)[-1]


def report_findings(campaigns: Sequence[Campaign]) -> list[dict[str, Any]]:
    """The distinct findings of `campaigns`, most programs first, with their bisection if any."""
    ids = {c.pk for c in campaigns}
    findings = (
        Finding.objects.filter(executions__campaign_id__in=ids)
        .annotate(
            here=Count(
                "executions__program", filter=Q(executions__campaign_id__in=ids), distinct=True
            )
        )
        .order_by("-here", "pk")
    )
    return [
        {
            "id": f.pk,
            "outcome": f.outcome,
            "title": f.title[:300],
            "signature": f.signature,
            "is_select_overflow": is_select_overflow(f.signature),
            "programs": f.here,
            "example": f.example_id,
            "bisection": (f.bisection or {}).get("summary"),
        }
        for f in findings
    ]


def _selects(effect: effects.Effect) -> Iterator[effects.Select]:
    if isinstance(effect, effects.Select):
        yield effect
        for case in effect.cases:
            yield from _selects(case.body)
    elif isinstance(effect, effects.Spawn):
        yield from _selects(effect.body)
    elif isinstance(effect, effects.Seq):
        for item in effect.items:
            yield from _selects(item)
    elif isinstance(effect, effects.Choice):
        for option in effect.options:
            yield from _selects(option)


@functools.lru_cache(maxsize=1 << 16)  # the whole report and each Table 2 row ask
def has_duplicate_clauses(effect_text: str) -> bool:
    """Whether some select of the effect has two cases on one channel."""
    return any(
        len({case.chan for case in select.cases}) < len(select.cases)
        for select in _selects(effects.parse(effect_text))
    )


def duplicate_clause_figures(campaigns: Sequence[Campaign]) -> dict[str, int]:
    """How many programs of `campaigns` (and of those that revealed the bug) have a select
    with two cases on one channel: the shape every crash here had so far."""
    revealing = {p.id for p in revealing_programs(campaigns)}
    programs = Program.objects.filter(executions__campaign__in=list(campaigns)).distinct()
    figures = dict.fromkeys(("programs", "with_dup", "revealing", "revealing_with_dup"), 0)
    for program in programs.only("id", "effect_text"):
        dup = has_duplicate_clauses(program.effect_text)
        figures["programs"] += 1
        figures["with_dup"] += dup
        if program.id in revealing:
            figures["revealing"] += 1
            figures["revealing_with_dup"] += dup
    return figures


def channel_count(effect_text: str) -> int:
    """How many distinct channels an effect uses (c1, c2, …)."""
    return len(set(re.findall(r"\bc\d+\b", effect_text)))


def shortest_revealing_program(
    campaigns: Sequence[Campaign], *, min_channels: int = 1
) -> Program | None:
    """The program with the shortest effect among those that revealed the bug in `campaigns`.

    `min_channels=2` asks for #504's own scenario: selects on two channels in
    opposite orders (the shortest program overall may use a single channel).
    """
    candidates = revealing_programs(campaigns)
    return next((p for p in candidates if channel_count(p.effect_text) >= min_channels), None)


def hang_figures(campaigns: Sequence[Campaign]) -> dict[str, int]:
    """Timeouts of `campaigns`: how many, how many hung again in a re-run, in every re-run."""
    figures = dict.fromkeys(("timeouts", "parked", "repeated", "confirmed"), 0)
    for e in Execution.objects.filter(campaign__in=list(campaigns), outcome="timeout").only(
        "attempts", "hang_confirmed", "signature"
    ):
        figures["timeouts"] += 1
        figures["parked"] += is_parked_hang(e.signature)
        figures["repeated"] += sum(a.get("outcome") == "timeout" for a in e.attempts) >= 2
        figures["confirmed"] += bool(e.hang_confirmed)
    return figures


def shortest_repeating_hang(campaigns: Sequence[Campaign]) -> Program | None:
    """The shortest program whose timeout hung again in at least one re-run."""
    ids = [
        e.program_id
        for e in Execution.objects.filter(campaign__in=list(campaigns), outcome="timeout").only(
            "attempts", "program_id"
        )
        if sum(a.get("outcome") == "timeout" for a in e.attempts) >= 2
    ]
    return Program.objects.filter(pk__in=ids).order_by("effect_size", "id").first()


# ---------------------------------------------------------------- time to the first finding


@dataclass
class FirstFindingTrial:
    seed: int
    found: bool  # the #504 overflow
    seconds: float  # to the first overflow, or of the whole trial when none
    programs: int  # programs run by then
    first_any_s: float | None  # the first finding of any kind (a hang is flagged at its limit)
    first_any_programs: int | None
    first_any_signature: str


def first_finding_trials(
    plan: ReportPlan,
    *,
    sandbox: Sandbox,
    on_trial: Callable[[FirstFindingTrial], None] | None = None,
) -> list[FirstFindingTrial]:
    """`plan.first_trials` fuzz runs on the buggy release, each from a fresh seed range,
    each stopped at its first select overflow; the first finding of any kind is noted."""
    toolchain = next(t for t in kotlin_releases() if t.version == plan.release)
    target = target_for(toolchain, repetitions=plan.repetitions)
    trials = []
    for n in range(plan.first_trials):
        # Seed ranges no report campaign used: these are programs never run before.
        seed = 1_000_000 * (n + 1)
        first_signature = ""

        def overflow(_generated: Any, execution: Any) -> bool:
            nonlocal first_signature
            verdict = execution.classification
            if verdict.is_finding and not first_signature:
                first_signature = verdict.signature
            return verdict.is_finding and is_select_overflow(verdict.signature)

        summary = fuzz(
            target=target,
            settings=settings_for(plan.first_heuristic),
            count=plan.first_max_programs,
            seed=seed,
            sandbox=sandbox,
            limits=Limits(timeout_s=plan.timeout_s),
            batch_size=plan.first_batch_size,
            jobs=plan.first_jobs,
            # A hang counts when its limit runs out, as the paper's timeouts did;
            # confirming it by re-runs is triage, not finding.
            triage=Triage(retries=0),
            stop_when=overflow,
            use_cache=False,
        )
        trial = FirstFindingTrial(
            seed=seed,
            found=summary.stopped_early,
            seconds=summary.seconds,
            programs=summary.count,
            first_any_s=summary.first_finding_s,
            first_any_programs=summary.first_finding_programs,
            first_any_signature=first_signature,
        )
        trials.append(trial)
        if on_trial:
            on_trial(trial)
    return trials


# ---------------------------------------------------------------- the regression fixture


@dataclass
class FixtureResult:
    program: dict[str, Any]
    repetitions: int
    runs: int
    results: list[dict[str, Any]] = field(default_factory=list)
    buggy: list[str] = field(default_factory=list)
    fixed: list[str] = field(default_factory=list)
    last_bad: str | None = None
    first_good: str | None = None
    not_monotonic: list[str] = field(default_factory=list)  # good releases among bad ones
    missed: str | None = None  # a release it had to crash and did not (the bisection stopped)


def fixture_program_dict(program: Program) -> dict[str, Any]:
    return {
        "id": program.id,
        "permalink": f"/p/{program.id}",
        "source": program.source,
        "seed": program.seed,
        "settings": program.settings,
        "effect": program.effect_text,
        "generator_version": program.generator_version,
        "lambda": program.lambda_text,
    }


@dataclass(frozen=True)
class BisectionSpec:
    """What a bisection of the report counts as bad, and how hard it looks."""

    matches: Callable[[str], bool]
    runs: int
    repetitions: int
    timeout_s: float
    stop_at_bad: bool = False  # a hang costs its whole limit: one per release is enough


def overflow_spec(plan: ReportPlan) -> BisectionSpec:
    return BisectionSpec(
        is_select_overflow, plan.fixture_runs, plan.fixture_repetitions, plan.timeout_s
    )


def hang_spec(plan: ReportPlan) -> BisectionSpec:
    return BisectionSpec(
        is_parked_hang, plan.hang_runs, plan.hang_repetitions, plan.hang_timeout_s, True
    )


def bisect_fixture(
    program: Program,
    plan: ReportPlan,
    *,
    sandbox: Sandbox,
    spec: BisectionSpec | None = None,
    on_result: Callable[[VersionResult], None] | None = None,
    must_crash: Sequence[str] = (),
) -> FixtureResult:
    """Run `program` on every release of the plan; bad runs are those `spec` (default:
    the select overflow, `plan.fixture_runs` × `plan.fixture_repetitions`) matches.
    With `must_crash`, it gives up at the first of those releases without a bad run
    (`missed` says which): a fixture must crash every buggy release. A bisection that
    ran to the end is stored on the program's finding that `spec` matches."""
    spec = spec or overflow_spec(plan)
    bisection = bisect_program(
        program_object(program),
        "kotlin",
        sandbox=sandbox,
        times=spec.runs,
        repetitions=spec.repetitions,
        timeout_s=spec.timeout_s,
        matches=spec.matches,
        stop_at_bad=spec.stop_at_bad,
        toolchains=kotlin_releases(plan.releases),
        on_result=on_result,
        give_up=lambda r: r.version in must_crash and not r.bad,
    )
    last_bad = bisection.last_bad
    result = FixtureResult(
        program=fixture_program_dict(program),
        repetitions=spec.repetitions,
        runs=spec.runs,
        results=bisection.as_dict()["results"],  # type: ignore[arg-type]
        buggy=[r.version for r in bisection.results if r.bad],
        last_bad=last_bad.version if last_bad else None,
        first_good=bisection.first_good.version if bisection.first_good else None,
    )
    if last_bad is not None:
        boundary = version_key(last_bad.version)
        result.fixed = [
            r.version
            for r in bisection.results
            if version_key(r.version) > boundary and r.decided and not r.bad
        ]
        result.not_monotonic = [
            r.version for r in bisection.results if version_key(r.version) < boundary and not r.bad
        ]
    last = bisection.results[-1] if bisection.results else None
    if last is not None and last.version in must_crash and not last.bad:
        result.missed = last.version
        return result
    shown_by = Q(example=program) | Q(executions__program=program)
    findings = Finding.objects.filter(shown_by).distinct().order_by("pk")
    finding = next((f for f in findings if spec.matches(f.signature)), None)
    if finding is not None:
        services.record_bisection(finding=finding, bisection=bisection)
    return result


# ---------------------------------------------------------------- the document


def table2_rows(plan: ReportPlan, campaigns: Sequence[Campaign]) -> list[dict[str, Any]]:
    rows = []
    for campaign in campaigns:
        (figures,) = target_figures(campaign)
        h = campaign.heuristic
        paper = PAPER_KOTLIN[h]
        rows.append(
            {
                "heuristic": h,
                "weights": PAPER_WEIGHTS[h],
                **asdict(figures),
                "percent": 100 * figures.revealing / figures.programs if figures.programs else 0.0,
                "paper": paper,
                "paper_percent": 100 * paper / PAPER_PROGRAMS,
                "per_minute": 60 * figures.programs / figures.seconds if figures.seconds else 0.0,
                "minutes": figures.seconds / 60,
                "with_duplicate_case": duplicate_clause_figures([campaign])["with_dup"],
            }
        )
    return rows


def trials_summary(trials: Sequence[FirstFindingTrial]) -> dict[str, Any]:
    found = [t for t in trials if t.found]
    any_found = [t for t in trials if t.first_any_s is not None]
    return {
        "trials": [asdict(t) for t in trials],
        "found": len(found),
        "any_median_s": statistics.median(t.first_any_s for t in any_found) if any_found else None,
        "any_median_programs": (
            statistics.median(t.first_any_programs for t in any_found) if any_found else None
        ),
        "median_s": statistics.median(t.seconds for t in found) if found else None,
        "max_s": max((t.seconds for t in found), default=None),
        "median_programs": statistics.median(t.programs for t in found) if found else None,
        "max_programs": max((t.programs for t in found), default=None),
    }


def plan_dict(plan: ReportPlan) -> dict[str, Any]:
    return {
        **asdict(plan),
        "threads": DEFAULT_KOTLIN_THREADS,
        "settings": {h: PRESETS[h].as_dict() for h in plan.heuristics},
    }


# ---------------------------------------------------------------- the Markdown


def markdown_context(data: dict[str, Any]) -> dict[str, Any]:
    """What templates/reports/kotlin.md needs, derived from the JSON document."""
    fixture = data.get("fixture") or {}
    two = data.get("two_channels") or {}
    rates = {r["version"]: r for r in fixture.get("results", [])}
    rates2 = {r["version"]: r for r in two.get("results", [])}
    hang = data.get("hang") or {}
    hangs = {r["version"]: r for r in hang.get("results", [])}
    sweep = {r["version"]: r for r in data.get("sweep", [])}
    toolchains = data.get("installed_toolchains", {})
    releases = list(toolchains)
    rows = []
    for version in releases:
        swept, fixed, second = sweep.get(version), rates.get(version), rates2.get(version)
        seen = bool(
            (swept and swept["revealing"])
            or (fixed and fixed["bad_runs"])
            or (second and second["bad_runs"])
        )
        rows.append(
            {
                "version": version,
                "toolchain": toolchains[version],
                "sweep": swept,
                "fixture": fixed,
                "two_channels": second,
                "hang": hangs.get(version),
                "seen": seen,
            }
        )
    seen_versions = [r["version"] for r in rows if r["seen"]]
    last_seen = seen_versions[-1] if seen_versions else None
    after = (
        [r["version"] for r in rows if version_key(r["version"]) > version_key(last_seen)]
        if last_seen
        else []
    )
    uninstalled = [v for v in data.get("registry_releases", []) if v not in releases]
    table2 = data.get("table2", [])
    first = data.get("first_finding") or {}
    return {
        "data": data,
        "plan": data.get("plan", {}),
        "table2": table2,
        # Heuristics where one side saw the bug and the other never did.
        "table2_disagree": [
            r for r in table2 if r["programs"] and (r["paper"] == 0) != (r["revealing"] == 0)
        ],
        "table2_other": sum(r["other_findings"] for r in table2),
        "dup": data.get("duplicate_clauses") or {},
        "hangs": data.get("hangs") or {},
        "overflow_rate": next(
            (
                r["percent"]
                for r in table2
                if r["heuristic"] == data.get("plan", {}).get("first_heuristic")
            ),
            None,
        ),
        "table2_total": sum(r["programs"] for r in table2),
        "releases": rows,
        "first_seen": seen_versions[0] if seen_versions else None,
        "last_seen": last_seen,
        "first_clean": after[0] if after else None,
        "clean_count": len(after),
        "seen_count": len(seen_versions),
        "uninstalled": uninstalled,
        "sweep_campaign": next((c for c in data.get("campaigns", []) if c["targets"] > 1), None),
        "first": first,
        "first_by_jobs": [
            {"jobs": int(jobs), **figures}
            for jobs, figures in sorted(
                (data.get("first_finding_by_jobs") or {}).items(), key=lambda kv: int(kv[0])
            )
        ],
        "fixture": fixture,
        "reduced": data.get("fixture_reduction") or {},
        "two": two,
        "hang": hang,
        "hang_has_dup": bool(hang.get("program"))
        and has_duplicate_clauses(hang["program"]["effect"]),
        "shortest": data.get("shortest"),
        "findings": data.get("findings", []),
    }

"""Reads for pages and commands: campaigns, progress, executions, findings, programs.

Every function returns model instances, querysets (for pagination) or small
dataclasses; none writes. Querysets are ordered and use the indexes of
runners.campaigns.models, so lists stay fast with 100k executions per campaign.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Count, Max, Min, Q, QuerySet, Sum
from django.utils import timezone

from runners.campaigns.models import (
    FINDING_OUTCOMES,
    Campaign,
    CampaignTarget,
    Chunk,
    Execution,
    Finding,
    OutcomeCount,
    Program,
    Reduction,
    Reproduction,
)
from runners.campaigns.programs import program_object
from runners.engine.toolchains import ToolchainUnavailable, find_toolchain
from runners.targets import get_target
from runners.targets.base import TargetSpec


def list_campaigns(*, status: str | None = None) -> QuerySet[Campaign]:
    """Campaigns, newest first, with their targets prefetched."""
    qs = Campaign.objects.prefetch_related("targets")
    return qs.filter(status=status) if status else qs


def get_campaign(campaign_id: int) -> Campaign:
    """Raises Campaign.DoesNotExist."""
    return Campaign.objects.prefetch_related("targets").get(pk=campaign_id)


@dataclass
class TargetProgress:
    target: CampaignTarget
    done: int
    total: int
    counts: dict[str, int] = field(default_factory=dict)  # outcome → executions
    chunks: dict[str, int] = field(default_factory=dict)  # chunk state → chunks


@dataclass
class CampaignProgress:
    campaign: Campaign
    targets: list[TargetProgress]
    done: int
    total: int
    per_minute: float  # executions per minute since the campaign started
    findings: int  # distinct findings among the campaign's executions

    @property
    def fraction(self) -> float:
        return self.done / self.total if self.total else 1.0


def campaign_progress(campaign: Campaign, *, findings: int | None = None) -> CampaignProgress:
    """Done/total per target, executions per verdict per target, programs per minute, and
    distinct findings (`findings` when the caller counted them already)."""
    targets = list(CampaignTarget.objects.filter(campaign=campaign))
    counts: dict[int, dict[str, int]] = {t.pk: {} for t in targets}
    # The counts kept as executions are inserted (OutcomeCount): a few rows per target,
    # not a COUNT over the campaign's executions.
    for target_id, outcome, n in OutcomeCount.objects.filter(campaign=campaign).values_list(
        "target_id", "outcome", "count"
    ):
        if n:
            counts[target_id][outcome] = n
    chunk_states: dict[int, dict[str, int]] = {t.pk: {} for t in targets}
    for row in (
        Chunk.objects.filter(target__campaign=campaign)
        .values("target_id", "state")
        .annotate(n=Count("id"))
        .order_by()
    ):
        chunk_states[row["target_id"]][row["state"]] = row["n"]
    per_target = [
        TargetProgress(
            target=t,
            done=sum(counts[t.pk].values()),
            total=campaign.program_count,
            counts=counts[t.pk],
            chunks=chunk_states[t.pk],
        )
        for t in targets
    ]
    done = sum(t.done for t in per_target)
    per_minute = 0.0
    if campaign.started_at and done:
        end = campaign.finished_at or timezone.now()
        minutes = max((end - campaign.started_at).total_seconds(), 1.0) / 60
        per_minute = done / minutes
    if findings is None:
        findings = (
            Execution.objects.filter(campaign=campaign, finding__isnull=False)
            .values("finding_id")
            .distinct()
            .count()
        )
    return CampaignProgress(
        campaign=campaign,
        targets=per_target,
        done=done,
        total=campaign.program_count * len(targets),
        per_minute=per_minute,
        findings=findings,
    )


def campaign_executions(
    campaign: Campaign,
    *,
    outcome: str | None = None,
    target: CampaignTarget | None = None,
    findings_only: bool = False,
) -> QuerySet[Execution]:
    """The campaign's executions by index (paginate them), filtered by verdict or target."""
    qs = Execution.objects.filter(campaign=campaign).select_related("program", "target")
    if outcome:
        qs = qs.filter(outcome=outcome)
    if target is not None:
        qs = qs.filter(target=target)
    if findings_only:
        qs = qs.filter(finding__isnull=False)
    return qs.defer("stdout", "stderr", "dump", "attempts", "compile_output").order_by(
        "index", "target_id"
    )


def indices_are_dense(target: CampaignTarget, count: int | None) -> bool:
    """Whether the target's `count` executions have exactly the indices 0 … count−1 (as a
    finished campaign's do): (target, index) is unique, so the highest index tells."""
    if not count:
        return False
    highest = (
        Execution.objects.filter(target=target)
        .order_by("-index")
        .values_list("index", flat=True)
        .first()
    )
    return highest == count - 1


def campaign_findings(campaign: Campaign) -> QuerySet[Finding]:
    """Findings the campaign's executions belong to, with `in_campaign` = their count there."""
    return (
        Finding.objects.filter(executions__campaign=campaign)
        .annotate(in_campaign=Count("executions", filter=Q(executions__campaign=campaign)))
        .select_related("example")
        .order_by("-in_campaign", "id")
    )


def list_findings(*, outcome: str | None = None, language: str | None = None) -> QuerySet[Finding]:
    """Every finding, most recently seen first."""
    qs = Finding.objects.select_related("example")
    if outcome:
        qs = qs.filter(outcome=outcome)
    if language:
        qs = qs.filter(language=language)
    return qs.order_by("-last_seen", "-id")


def get_finding(finding_id: int) -> Finding:
    """Raises Finding.DoesNotExist."""
    return Finding.objects.select_related("example").get(pk=finding_id)


def finding_executions(finding: Finding) -> QuerySet[Execution]:
    """The finding's executions, newest first."""
    return (
        Execution.objects.filter(finding=finding)
        .select_related("program", "target", "campaign")
        .defer("stdout", "stderr", "dump", "attempts", "compile_output")
        .order_by("-created_at", "-id")
    )


def finding_campaigns(finding: Finding) -> QuerySet[Campaign]:
    """Campaigns in which the finding showed, with first/last time there."""
    return (
        Campaign.objects.filter(executions__finding=finding)
        .annotate(
            hits=Count("executions", filter=Q(executions__finding=finding)),
            first_hit=Min("executions__created_at", filter=Q(executions__finding=finding)),
            last_hit=Max("executions__created_at", filter=Q(executions__finding=finding)),
        )
        .order_by("-last_hit")
    )


def get_program(program_id: str) -> Program:
    """The program of a permalink `/p/<id>`; raises Program.DoesNotExist."""
    return Program.objects.get(pk=program_id.lower())


def program_executions(program: Program) -> QuerySet[Execution]:
    return (
        Execution.objects.filter(program=program)
        .select_related("target", "campaign", "finding", "reproduction")
        .order_by("-created_at", "-id")
    )


def program_findings(program: Program) -> QuerySet[Finding]:
    # Ties broken as list_findings breaks them: the same order on every page load.
    return (
        Finding.objects.filter(executions__program=program).distinct().order_by("-last_seen", "-id")
    )


@dataclass(frozen=True)
class OriginalRuns:
    """How a program showed its finding in campaigns: the settings it ran with, and
    how many of its runs there (re-runs of a hang and clean runs before a verdict
    included) failed."""

    language: str
    toolchain_id: str
    repetitions: int
    timeout_s: float
    bad_runs: int
    runs: int
    pct_depth: int | None = None  # the campaign's schedule perturbation
    hang_quiet_s: float | None = None  # the campaign's quiet period (None: its timeout)

    @property
    def rate(self) -> float:
        return self.bad_runs / self.runs if self.runs else 0.0

    def chance_of_none(self, times: int) -> float:
        """The chance that `times` runs all pass if each fails at the original rate."""
        return (1.0 - self.rate) ** times


def original_runs(program: Program) -> OriginalRuns | None:
    """The campaign settings and failure rate of the program's latest finding (None
    when no campaign found one): what a reproduction must match to be a fair test."""
    execution = (
        Execution.objects.filter(program=program, finding__isnull=False, campaign__isnull=False)
        .select_related("target", "campaign")
        .order_by("-created_at", "-id")
        .first()
    )
    if execution is None or execution.target is None or execution.campaign is None:
        return None
    bad = runs = 0
    rows = Execution.objects.filter(program=program, target=execution.target)
    for attempts, clean_before in rows.values_list("attempts", "runs"):
        runs += clean_before - 1  # the clean runs before the verdict's (Campaign.runs)
        for attempt in attempts or []:
            runs += 1
            bad += attempt.get("outcome") in FINDING_OUTCOMES
    return OriginalRuns(
        language=execution.target.language,
        toolchain_id=execution.target.toolchain_id,
        repetitions=execution.campaign.repetitions,
        timeout_s=execution.campaign.timeout_s,
        bad_runs=bad,
        runs=runs,
        pct_depth=execution.campaign.pct_depth,
        hang_quiet_s=execution.campaign.hang_quiet_s,
    )


def reduction_of(program: Program) -> Reduction | None:
    """The newest finished reduction whose result `program` is (None: no reduction here
    made it). A reduced program never ran in a campaign: its page and bundle take their
    settings from this."""
    return (
        Reduction.objects.filter(reduced=program, status=Reduction.Status.DONE)
        .select_related("finding", "program")
        .order_by("-finished_at", "-id")
        .first()
    )


def reproduction_verdict(reproduction: Reproduction, original: OriginalRuns | None) -> str:
    """What a finished reproduction means beside the original runs ("" while running,
    or when nothing is known of the original)."""
    if original is None or reproduction.status != Reproduction.Status.DONE:
        return ""
    differs = [
        f"{name} {mine:g} (found with {theirs:g})"
        for name, mine, theirs in (
            ("repetitions", reproduction.repetitions, original.repetitions),
            ("timeout", reproduction.timeout_s, original.timeout_s),
        )
        if mine != theirs
    ]
    if reproduction.toolchain_id != original.toolchain_id:
        differs.append(f"toolchain {reproduction.toolchain_id} (found on {original.toolchain_id})")
    if reproduction.pct_depth != original.pct_depth:
        differs.append(
            f"PCT depth {reproduction.pct_depth or 'none'} (found with "
            f"{original.pct_depth or 'none'})"
        )
    parts = [
        f"Originally {original.bad_runs} of {original.runs} run(s) failed"
        f" ({100 * original.rate:.0f} %)."
    ]
    if differs:
        # Another toolchain or fewer repetitions is another experiment: no verdict.
        parts.append("Not the same settings: " + "; ".join(differs) + ".")
    elif reproduction.failed == 0 and original.rate and reproduction.completed:
        chance = original.chance_of_none(reproduction.completed)
        parts.append(
            f"At that rate, {reproduction.completed} passing run(s) in a row happen with"
            f" chance {100 * chance:.1f} %"
            + (
                ": the bug is most likely not present with these settings."
                if chance < 0.05
                else ": too few runs to tell; run more."
            )
        )
    return " ".join(parts)


def finding_reductions(finding: Finding) -> QuerySet[Reduction]:
    return Reduction.objects.filter(finding=finding).select_related("program", "reduced")


def get_reduction(reduction_id: int) -> Reduction:
    return Reduction.objects.select_related("program", "reduced", "finding").get(pk=reduction_id)


def program_reproductions(program: Program) -> QuerySet[Reproduction]:
    return Reproduction.objects.filter(program=program).order_by("-created_at", "-id")


def get_reproduction(reproduction_id: int) -> Reproduction:
    return Reproduction.objects.select_related("program").get(pk=reproduction_id)


def _source_setup(
    program: Program, language: str, version: str | None, values: bool, pct_depth: int | None
) -> tuple[TargetSpec, object, dict[str, object]]:
    """What rendering the program in `language` takes: the target, the λ_chan program and
    the options (ValueError when the language cannot express it; program_source)."""
    spec = get_target(language)
    try:
        toolchain = find_toolchain(language, version)
    except (ToolchainUnavailable, ValueError):
        toolchain = None
    options = spec.source_options(toolchain)
    if values and spec.value_oracle:
        options["values"] = True
    options.update(spec.pct_options(pct_depth))
    lc_program = program_object(program)
    if not spec.supports(lc_program, **options):
        raise ValueError(f"{spec.title} cannot express program {program.id}")
    return spec, lc_program, options


def program_source(
    program: Program,
    language: str,
    *,
    version: str | None = None,
    repetitions: int = 1,
    values: bool = False,
    pct_depth: int | None = None,
) -> str:
    """The program's source in `language`, rendered with its own render seed (stable per id).

    Uses the render options of the installed toolchain of `version` (newest if
    None; the language's defaults if none is installed); `values` adds the value
    oracle where the language has it, as runs have it; `pct_depth` the yields of
    schedule perturbation. ValueError when the language cannot express the program
    (or cannot yield) or the generator changed since.
    """
    spec, lc_program, options = _source_setup(program, language, version, values, pct_depth)
    return spec.render(lc_program, seed=program.render_seed, repetitions=repetitions, **options)


def program_source_problem(program: Program, language: str, *, values: bool = False) -> str:
    """Why `program_source` would refuse (its ValueError's message), or "" when it renders:
    a page that shows a source later (a tab fetched when shown) asks this, not renders."""
    try:
        _source_setup(program, language, None, values, None)
    except ValueError as exc:
        return str(exc)
    return ""


def campaigns_outcome_counts(campaign_ids: list[int]) -> dict[int, dict[str, int]]:
    """Executions per verdict of each campaign in `campaign_ids`, from the counts kept as
    executions are inserted (one small query however many executions they hold)."""
    counts: dict[int, dict[str, int]] = {pk: {} for pk in campaign_ids}
    for row in (
        OutcomeCount.objects.filter(campaign_id__in=campaign_ids)
        .values("campaign_id", "outcome")
        .annotate(n=Sum("count"))
        .order_by()
    ):
        if row["n"]:
            counts[row["campaign_id"]][row["outcome"]] = row["n"]
    return counts


def campaign_finding_hits(campaign: Campaign) -> list[dict[str, object]]:
    """Per (finding, target) of the campaign: distinct programs, executions, first/last hit.

    The cells of the paper's Table 2 (programs revealing each bug per heuristic
    and target) and the points of a findings-over-time plot. Filtering on the
    finding outcomes lets the (target, outcome) index skip terminated runs.
    """
    return list(
        Execution.objects.filter(
            target__in=CampaignTarget.objects.filter(campaign=campaign).values("id"),
            outcome__in=FINDING_OUTCOMES,
            finding__isnull=False,
        )
        # Target first: SQLite then walks the (target, outcome) index, not every finding's rows.
        .values("target_id", "finding_id")
        .annotate(
            programs=Count("program_id", distinct=True),
            executions=Count("id"),
            first=Min("created_at"),
            last=Max("created_at"),
        )
        .order_by("target_id", "finding_id")
    )


def finding_hits_by_target(finding: Finding) -> list[dict[str, object]]:
    """Programs revealing `finding` per (heuristic, toolchain): its row of the paper's Table 2."""
    return list(
        Execution.objects.filter(finding=finding, target__isnull=False)
        .values("campaign__heuristic", "target__toolchain_id")
        .annotate(programs=Count("program_id", distinct=True), executions=Count("id"))
        .order_by("campaign__heuristic", "target__toolchain_id")
    )

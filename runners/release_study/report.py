"""A release study: the campaigns a family's report runs (runners.release_study.families:
the Rust channel crates for issue #13, Clojure core.async and Racket for #19) and
the figures it reads back.

For every target of the family:

- **Campaigns**: one per heuristic A–F on the newest installed release, and the
  same on the oldest installed release that still builds generated programs (a
  target with one release, like Racket, has no oldest). A campaign asks for
  `programs / 6` programs and is paused when its share of the time budget runs
  out, so the report says how many ran in how long (a hang costs its whole
  limit; on a release where many programs hang, fewer fit).
- **Findings per heuristic** (the paper's Table 2): programs that crashed or
  hung, and the distinct findings (signatures) among them.
- **Time to the first finding**: from a campaign's first chunk to its first
  finding, per heuristic.
- **Bisection**: for the most common findings on the newest release, the
  shortest program that showed it runs on every installed release (first bad,
  last bad, first good); stored on the finding.
- **Bug reports**: for each such finding, a standalone project (the program, a
  build file pinning the release: runners.release_study.families.project) with
  the rate at which it fails and the thread dump of a hang, ready to send upstream.

Campaigns are ordinary ones (chunk jobs through RQ, rows in the database), so
the web app shows them; they are found again by name, and a campaign paused at
its budget counts as done: running the report again reads it instead of
extending it.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from django.db.models import Count, Q

from generator.capabilities import InexpressibleSettings
from generator.settings import PRESETS, GeneratorSettings
from runners.campaigns import selectors, services, studies
from runners.campaigns.models import FINDING_OUTCOMES, Campaign, Execution, Finding, Program
from runners.campaigns.programs import program_object
from runners.engine.bisect import Bisection, VersionResult, bisect_program, runs_on
from runners.engine.build import scratch
from runners.engine.fuzz import fuzz
from runners.engine.run_alone import Triage
from runners.engine.run_target import target_for
from runners.engine.sandbox import Limits, Sandbox
from runners.engine.toolchains import Toolchain, installed_toolchains, version_key
from runners.engine.verdicts import is_hang_signature
from runners.release_study.families import FAMILIES, RUST, Family, Project, project
from runners.targets import TargetSpec, get_target

# A hang whose re-run ended is not counted as revealing a bug: a stalled machine makes
# those too (they are counted apart, since a rare race can also fail to repeat).
UNCONFIRMED = Q(outcome="timeout", hang_confirmed=False)


def releases(target: str, only: Sequence[str] = ()) -> list[Toolchain]:
    """The installed toolchains (releases) of `target` (those of the versions
    `only`, when given), oldest first. Mutants (runners.mutation) share their base's
    version but are no release: they are left out."""
    chosen = [
        t
        for t in installed_toolchains(target)
        if t.origin != "mutant" and (not only or t.version in only)
    ]
    return sorted(chosen, key=lambda t: (version_key(t.version), t.id))


@dataclass(frozen=True)
class StudyPlan:
    """How big each experiment is; the defaults are what docs/rust-report.md was made with
    (docs/clojure-racket-report.md says what it changed)."""

    family: str = RUST.name
    targets: tuple[str, ...] = ()  # () for every target of the family
    releases: tuple[str, ...] = ()  # the releases used; () for every installed one
    heuristics: str = "ABCDEF"
    programs: int = 20_000  # asked per target and release, split over the heuristics
    newest_budget_s: float = 600.0  # per target, split evenly over the heuristics
    oldest_budget_s: float = 180.0
    timeout_s: float = 2.0  # per run: a generated program ends in milliseconds
    hang_quiet_s: float | None = None  # a run blocked this long is hung then (Limits.quiet_s)
    repetitions: int = 10
    chunk_size: int = 100
    seed: int = 0
    bisect_findings: int = 2  # per target: the most common findings on the newest release
    bisect_runs: int = 5  # per release; a release stops at its first bad run
    rate_runs: int = 40  # runs of a bug report's program, for its failure rate

    @property
    def family_spec(self) -> Family:
        return FAMILIES[self.family]

    def chosen_targets(self) -> list[TargetSpec]:
        return [t for t in self.family_spec.targets() if not self.targets or t.name in self.targets]

    def per_heuristic(self, target: str | None = None) -> int:
        """What each heuristic's campaign asks for: `programs` split over the heuristics
        `target` can express (rust-std has no E), so that every target is asked for
        `programs` in all; over all the plan's heuristics without a target."""
        heuristics = expressible(self, target) if target else self.heuristics
        return -(-self.programs // max(1, len(heuristics)))

    def campaign_name(self, target: str, version: str, heuristic: str) -> str:
        # Another --seed is another round of programs: campaigns beside the first
        # round's, which the report adds up (each keeps its own clean timing).
        seeds = f", seeds {self.seed}…" if self.seed else ""
        stem = self.campaign_stem(target, version, heuristic)
        return f"{stem}{self.per_heuristic(target)} programs asked{seeds})"

    def campaign_stem(self, target: str, version: str, heuristic: str) -> str:
        """The start of the name of every round's campaign of `heuristic` on `version`."""
        return f"{self.family_spec.name_prefix} {target} {version} heuristic {heuristic} ("


# ---------------------------------------------------------------- which releases


@dataclass(frozen=True)
class Probe:
    version: str
    builds: bool
    why: str = ""  # the first compile or infrastructure error when it does not


def probe(toolchain: Toolchain, *, sandbox: Sandbox, count: int = 6) -> Probe:
    """Whether `count` generated programs (heuristic A) compile and run on `toolchain`."""
    summary = fuzz(
        target=target_for(toolchain, repetitions=1),
        settings=PRESETS["A"],
        count=count,
        seed=0,
        sandbox=sandbox,
        limits=Limits(timeout_s=10.0),
        batch_size=count,
        triage=Triage(retries=0),
    )
    if summary.errors or not summary.count:
        why = summary.errors[0][2] if summary.errors else "no program ran"
        return Probe(toolchain.version, False, why.strip().splitlines()[0][:300] if why else "")
    return Probe(toolchain.version, True)


def oldest_building(
    target: str,
    *,
    sandbox: Sandbox,
    only: Sequence[str] = (),
    on_probe: Callable[[Probe], None] | None = None,
) -> tuple[Toolchain | None, list[Probe]]:
    """The oldest installed release of `target` older than the newest whose programs
    build here (None when there is none), and the releases probed.

    A release builds the programs once it has every API they use, and then
    on; so the releases are bisected (a probe compiles a batch: 10-20 s)."""
    older = releases(target, only)[:-1]
    tried: list[Probe] = []
    low, high, found = 0, len(older) - 1, None
    while low <= high:
        middle = (low + high) // 2
        result = probe(older[middle], sandbox=sandbox)
        tried.append(result)
        if on_probe:
            on_probe(result)
        if result.builds:
            found, high = older[middle], middle - 1
        else:
            low = middle + 1
    return found, tried


# ---------------------------------------------------------------- campaigns


def campaign_for(plan: StudyPlan, target: str, toolchain: Toolchain, heuristic: str) -> Campaign:
    """The study's campaign of `heuristic` on `toolchain` (created and queued when missing)."""
    name = plan.campaign_name(target, toolchain.version, heuristic)
    existing = Campaign.objects.filter(name=name).exclude(status=Campaign.Status.CANCELLED).first()
    if existing is not None:
        return existing
    return services.create_campaign(
        name=name,
        heuristic=heuristic,
        targets=[(target, toolchain.id)],
        count=plan.per_heuristic(target),
        timeout_s=plan.timeout_s,
        repetitions=plan.repetitions,
        seed=plan.seed,
        chunk_size=plan.chunk_size,
        # A hang is confirmed by one re-run: triage, not finding, and each costs its limit.
        triage_retries=1,
        hang_quiet_s=plan.hang_quiet_s,
    )


def expressible(plan: StudyPlan, target: str) -> str:
    """The plan's heuristics that generate programs `target` can express, each set of
    programs once: on rust-std, not E (G-Select alone, and it has no select) nor D (A
    without G-Select: on a target without select, A's weights are D's, and the same
    seeds give the same programs)."""
    capabilities = get_target(target).capabilities
    kept = ""
    seen: list[GeneratorSettings] = []
    for heuristic in plan.heuristics:
        try:
            restricted = capabilities.restrict(PRESETS[heuristic])
        except InexpressibleSettings:
            continue
        if restricted not in seen:
            seen.append(restricted)
            kept += heuristic
    return kept


def run_campaigns(
    plan: StudyPlan,
    target: str,
    toolchain: Toolchain,
    *,
    budget_s: float,
    on_progress: studies.ProgressHook | None = None,
) -> list[Campaign]:
    """One campaign per heuristic on `toolchain`, one after another, each paused when
    its share of `budget_s` runs out. A campaign already paused or done is kept."""
    heuristics = expressible(plan, target)
    share = budget_s / max(1, len(heuristics))
    campaigns = []
    for heuristic in heuristics:
        campaign = campaign_for(plan, target, toolchain, heuristic)
        if campaign.is_active:
            studies.wait_for(
                [campaign], poll_s=5.0, on_progress=on_progress, deadline=time.monotonic() + share
            )
        campaigns.append(campaign)
    return campaigns


def study_campaigns(plan: StudyPlan, target: str, version: str) -> dict[str, list[Campaign]]:
    """The study's campaigns on `target` at `version` by heuristic, every round (seed)
    of them, oldest first; heuristics without a campaign, or whose programs another
    heuristic already gave (`expressible`), are left out."""
    found: dict[str, list[Campaign]] = {}
    for heuristic in expressible(plan, target):
        campaigns = list(
            Campaign.objects.filter(name__startswith=plan.campaign_stem(target, version, heuristic))
            .exclude(status=Campaign.Status.CANCELLED)
            .order_by("pk")
        )
        if campaigns:
            found[heuristic] = campaigns
    return found


# ---------------------------------------------------------------- reading campaigns


def _first_finding_s(campaigns: Sequence[Campaign]) -> float | None:
    """Seconds of campaigning until the first finding: the rounds before the one that
    found it count whole."""
    elapsed = 0.0
    for campaign in campaigns:
        first = (
            Execution.objects.filter(campaign=campaign, outcome__in=FINDING_OUTCOMES)
            .exclude(UNCONFIRMED)
            .order_by("created_at")
            .values_list("created_at", flat=True)
            .first()
        )
        if first is not None and campaign.started_at is not None:
            return elapsed + (first - campaign.started_at).total_seconds()
        elapsed += studies.campaign_seconds(campaign)
    return None


def heuristic_figures(campaigns: Sequence[Campaign]) -> dict[str, Any]:
    """What one heuristic's campaigns (its rounds) showed: programs run, programs
    revealing a bug, distinct findings, how long, and when the first finding came."""
    executions = Execution.objects.filter(campaign__in=list(campaigns))
    counts = executions.aggregate(
        ran=Count("id", filter=~Q(outcome="skipped")),
        errors=Count("id", filter=Q(outcome__in=["compile_error", "infra_error"])),
        crashes=Count("program", filter=Q(outcome="crash"), distinct=True),
        hangs=Count("program", filter=Q(outcome="timeout") & ~UNCONFIRMED, distinct=True),
        unconfirmed=Count("program", filter=UNCONFIRMED, distinct=True),
    )
    findings = executions.filter(outcome__in=FINDING_OUTCOMES).exclude(UNCONFIRMED)
    seconds = sum(studies.campaign_seconds(c) for c in campaigns)
    revealing = findings.values("program").distinct().count()
    return {
        "campaigns": [{"id": c.pk, "url": f"/campaigns/{c.pk}/"} for c in campaigns],
        "heuristic": campaigns[0].heuristic,
        "asked": sum(c.program_count for c in campaigns),
        "programs": counts["ran"],
        "errors": counts["errors"],
        "revealing": revealing,
        "crashes": counts["crashes"],
        "hangs": counts["hangs"],
        "unconfirmed": counts["unconfirmed"],
        "signatures": findings.values("signature").distinct().count(),
        "percent": 100 * revealing / counts["ran"] if counts["ran"] else 0.0,
        "seconds": seconds,
        "minutes": seconds / 60,
        "per_minute": 60 * counts["ran"] / seconds if seconds else 0.0,
        "first_finding_s": _first_finding_s(campaigns),
        "stopped_at_budget": any(c.status == Campaign.Status.PAUSED for c in campaigns),
    }


def release_figures(rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The totals of one release's heuristic rows."""
    ran = sum(r["programs"] for r in rows)
    seconds = sum(r["seconds"] for r in rows)
    firsts = [r["first_finding_s"] for r in rows if r["first_finding_s"] is not None]
    return {
        "programs": ran,
        "asked": sum(r["asked"] for r in rows),
        "revealing": sum(r["revealing"] for r in rows),
        "unconfirmed": sum(r["unconfirmed"] for r in rows),
        "errors": sum(r["errors"] for r in rows),
        "seconds": seconds,
        "minutes": seconds / 60,
        "per_minute": 60 * ran / seconds if seconds else 0.0,
        "percent": 100 * sum(r["revealing"] for r in rows) / ran if ran else 0.0,
        # Heuristics ran one after another, each from a fresh start: the quickest.
        "first_finding_s": min(firsts) if firsts else None,
        "median_first_finding_s": statistics.median(firsts) if firsts else None,
        "stopped_at_budget": any(r["stopped_at_budget"] for r in rows),
    }


def findings_of(campaigns: Sequence[Campaign]) -> list[dict[str, Any]]:
    """The distinct findings of `campaigns`, most programs first, each with its shortest
    program here and the bisection stored on it."""
    ids = [c.pk for c in campaigns]
    rows = []
    findings = (
        Finding.objects.filter(executions__campaign_id__in=ids)
        .annotate(
            here=Count(
                "executions__program", filter=Q(executions__campaign_id__in=ids), distinct=True
            )
        )
        .order_by("-here", "pk")
    )
    for f in findings:
        shortest = (
            Program.objects.filter(executions__finding=f, executions__campaign_id__in=ids)
            .order_by("effect_size", "id")
            .first()
        )
        rows.append(
            {
                "id": f.pk,
                "url": f"/findings/{f.pk}/",
                "outcome": f.outcome,
                "is_hang": is_hang_signature(f.signature),
                "title": f.title[:300],
                "signature": f.signature,
                "programs": f.here,
                "confirmed_hangs": f.confirmed_hangs,
                "shortest": shortest.id if shortest else None,
                "shortest_url": f"/p/{shortest.id}" if shortest else None,
                "bisection": f.bisection,
            }
        )
    return rows


# ---------------------------------------------------------------- bisection


def _confirmed(findings: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Crashes, wrong values and confirmed hangs: what a report counts and bisects."""
    return [f for f in findings if not f["is_hang"] or f["confirmed_hangs"]]


def newest_findings(entry: dict[str, Any], limit: int) -> list[dict[str, Any]]:
    """The `limit` most common crashes and confirmed hangs of a target's newest release
    (the rows `findings_of` wrote into the JSON entry): what bug reports are made of."""
    newest = entry.get("newest")
    if not newest:
        return []
    return _confirmed(entry["releases"][newest]["findings"])[:limit]


def findings_to_bisect(entry: dict[str, Any], limit: int) -> list[dict[str, Any]]:
    """The newest release's `newest_findings`, then up to `limit` crashes and confirmed
    hangs seen on the oldest release and not on the newest, each with its shortest
    program on the oldest. Only those can show a release that fixed a bug (a first
    good release after the last bad one): a finding of the newest is bad there."""
    chosen = newest_findings(entry, limit)
    newest, oldest = entry.get("newest"), entry.get("oldest")
    if not oldest or oldest == newest or oldest not in entry.get("releases", {}):
        return chosen
    on_newest = {f["id"] for f in entry["releases"][newest]["findings"]} if newest else set()
    only_oldest = [
        f for f in _confirmed(entry["releases"][oldest]["findings"]) if f["id"] not in on_newest
    ]
    return chosen + only_oldest[:limit]


def bisect_finding(
    finding: Finding,
    program: Program,
    target: str,
    plan: StudyPlan,
    *,
    sandbox: Sandbox,
    on_result: Callable[[VersionResult], None] | None = None,
) -> Bisection:
    """Run `program` on every installed release of `target`; a run is bad when it is a
    finding of the same kind (a hang's shape names functions a release may have
    renamed, so any hang counts for a hang, any crash for a crash). Stored on `finding`."""
    hang = is_hang_signature(finding.signature)
    bisection = bisect_program(
        program_object(program),
        target,
        sandbox=sandbox,
        times=plan.bisect_runs,
        repetitions=plan.repetitions,
        timeout_s=plan.timeout_s,
        quiet_s=plan.hang_quiet_s,
        matches=lambda s: is_hang_signature(s) == hang,
        stop_at_bad=True,
        toolchains=releases(target, plan.releases),
        on_result=on_result,
    )
    services.record_bisection(finding=finding, bisection=bisection)
    return bisection


def bisection_summary(bisection: dict[str, Any] | None) -> dict[str, Any] | None:
    """First bad, last bad, first good after it, and the releases that could not run it."""
    if not bisection:
        return None
    results = bisection.get("results", [])
    bad = [r["version"] for r in results if r["bad_runs"]]
    return {
        "first_bad": bad[0] if bad else None,
        "last_bad": bisection.get("last_bad"),
        "first_good": bisection.get("first_good"),
        "bad": bad,
        "good": [r["version"] for r in results if not r["bad_runs"] and not r["errors"]],
        "errors": [r["version"] for r in results if r["errors"] and not r["bad_runs"]],
        "tried": len(results),
    }


# ---------------------------------------------------------------- bug reports


def failure_rate(
    program: Program, toolchain: Toolchain, plan: StudyPlan, *, sandbox: Sandbox
) -> VersionResult:
    """`plan.rate_runs` runs of `program` on `toolchain`: how often it hangs or crashes."""
    with scratch("chanfuzz-rate-") as tmp:
        workdir = Path(tmp)
        workdir.chmod(0o755)
        return runs_on(
            program_object(program),
            toolchain,
            sandbox=sandbox,
            times=plan.rate_runs,
            repetitions=plan.repetitions,
            timeout_s=plan.timeout_s,
            quiet_s=plan.hang_quiet_s,
            workdir=workdir,
        )


def write_bug_report(
    finding: Finding,
    program: Program,
    target: TargetSpec,
    toolchain: Toolchain,
    plan: StudyPlan,
    *,
    rate: VersionResult,
    directory: Path,
    site_url: str,
) -> dict[str, Any]:
    """A standalone project in `directory` (the program, its pinned build file, a
    README.md) that shows `finding` on `toolchain`, with the measured failure rate and
    the dump."""
    source = selectors.program_source(
        program, target.name, version=toolchain.version, repetitions=plan.repetitions
    )
    standalone = project(target, toolchain, source)
    for name, text in standalone.files.items():
        path = directory / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    example = (
        Execution.objects.filter(finding=finding, program=program).exclude(dump="").first()
        or Execution.objects.filter(finding=finding).exclude(dump="").first()
        or Execution.objects.filter(finding=finding, program=program).first()
    )
    dump = (example.dump or example.stderr) if example else ""
    summary = {
        "finding": finding.pk,
        "target": target.name,
        "version": toolchain.version,
        "program": program.id,
        "directory": str(directory),
        "runs": rate.runs,
        "bad_runs": rate.bad_runs,
        "errors": rate.errors,
        "signatures": list(rate.signatures),
    }
    (directory / "README.md").write_text(
        _bug_readme(finding, program, target, toolchain, plan, rate, dump, site_url, standalone)
    )
    return summary


def _bug_readme(
    finding: Finding,
    program: Program,
    target: TargetSpec,
    toolchain: Toolchain,
    plan: StudyPlan,
    rate: VersionResult,
    dump: str,
    site_url: str,
    standalone: Project,
) -> str:
    hang = is_hang_signature(finding.signature)
    lines = [
        f"# {target.title} {toolchain.version}: a generated program"
        + (" hangs" if hang else " crashes"),
        "",
        f"Found by chanfuzz (finding {site_url}/findings/{finding.pk}/, program"
        f" {site_url}/p/{program.id}). The program was generated from a terminating effect:",
        "every run must end with exit status 0 on a correct runtime. Its processes share",
        "nothing but its channels (rendezvous channels unless the effect declares a buffer);",
        f"`main` runs the program {plan.repetitions} times with fresh channels.",
        "",
        "## Run it",
        "",
        "```sh",
        standalone.run,
        "```",
        "",
        f"Built with {standalone.built_with}.",
        "",
        "## How often it fails",
        "",
        f"{rate.bad_runs} of {rate.runs} runs {'hung' if hang else 'crashed'}"
        f" (limit {plan.timeout_s:g} s a run; compile or infrastructure errors: {rate.errors}).",
        "",
        f"Signature: `{finding.signature}`",
        "",
        f"What happened first: {finding.title[:500]}",
        "",
    ]
    if dump:
        shown = "\n".join(dump.strip().splitlines()[:120])
        heading = "## Dump (every thread, when the run was declared hung)"
        lines += [heading, "", "```", shown, "```", ""]
    lines += ["## The effect the program was generated from", "", "```", program.effect_text, "```"]
    return "\n".join(lines) + "\n"


def plan_dict(plan: StudyPlan) -> dict[str, Any]:
    return {
        **asdict(plan),
        "per_heuristic": plan.per_heuristic(),
        "settings": {h: PRESETS[h].as_dict() for h in plan.heuristics},
    }


# ---------------------------------------------------------------- the Markdown


def _role(version: str, entry: dict[str, Any]) -> str:
    if version != entry.get("newest"):
        return "oldest that builds"
    return "the only release installed" if len(entry.get("installed", [])) == 1 else "newest"


def markdown_context(data: dict[str, Any]) -> dict[str, Any]:
    """What templates/reports/release_study.md needs, derived from the JSON document."""
    family = FAMILIES[data.get("plan", {}).get("family", RUST.name)]
    # In the registry's order, whichever order the rounds studied them in.
    order = {t.name: i for i, t in enumerate(family.targets())}
    studied = sorted(data.get("targets", {}).items(), key=lambda kv: order.get(kv[0], len(order)))
    targets = []
    for name, entry in studied:
        releases_shown = []
        for version, release in (entry.get("releases") or {}).items():
            findings = release["findings"]
            for f in findings:
                f["bisected"] = bisection_summary(f.get("bisection"))
                # A pipe ends a Markdown table cell, even inside a code span.
                f["signature_shown"] = f["signature"].replace(" | ", " · ")
            releases_shown.append(
                {
                    "confirmed_findings": len(_confirmed(findings)),
                    "version": version,
                    "role": _role(version, entry),
                    **release,
                }
            )
        bisected = {
            f["id"]: {"finding": f, "summary": f["bisected"], "found_on": r["version"]}
            for r in reversed(releases_shown)
            for f in r["findings"]
            if f.get("bisected")
        }  # a finding seen on both releases is the newest's: its shortest program there
        newest_first = sorted(bisected.values(), key=lambda b: b["found_on"] != entry.get("newest"))
        targets.append({"name": name, **entry, "shown": releases_shown, "bisected": newest_first})
    all_rows = [r for t in targets for r in t["shown"]]
    return {
        "family": family,
        "data": data,
        "plan": data.get("plan", {}),
        "targets": targets,
        "total_programs": sum(r["total"]["programs"] for r in all_rows),
        "total_seconds": sum(r["total"]["seconds"] for r in all_rows),
        "bug_reports": data.get("bug_reports", []),
    }

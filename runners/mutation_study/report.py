"""The mutation study (issue #14): how many injected faults in a runtime's channel code
chanfuzz finds, against the runtime's own test suite on the same mutants.

For every kind of mutant (runners.mutation.kinds: the Go runtime's chan.go and
select.go, Crystal's stdlib channel, the flume and crossbeam-channel crates):

- **Sample**: `mutants` of the kind's mutants of the newest installed base
  toolchain, drawn with `seed` (all of them with 0), each installed as a
  toolchain of every target of the kind that has the base's release installed
  (flume's mutants run on rust-flume and rust-flume-async: the faults in its
  async half are reached only through the second).
- **Control**: per heuristic, the same programs on the unmutated base. A
  finding is the base's own (a known bug, or noise), and kills no mutant, when
  its signature was seen there, when the base's run of the same program was a
  finding, or when the program shows one in `BASE_RERUNS` runs on the base (a
  race of the base's own, as flume's, shows in one program or run in several).
- **chanfuzz**: per mutant, one campaign per heuristic of `programs` programs,
  each run on every target's mutant toolchain (hangs declared after
  `hang_quiet_s` blocked, one triage re-run), queued through RQ. A campaign
  stops (is paused) at its first finding that the control did not show: the
  mutant is killed by that heuristic, with that verdict, after that many
  programs and seconds. The mutant's campaigns also stop when its `budget_s` is
  spent. A mutant whose every program fails to compile does not build: it is
  counted apart and in no score.
- **The runtime's own tests** (runners.mutation kinds' `runtime_tests`) on
  each mutant, as RQ jobs whose results are MutantTests rows.

Campaigns are ordinary ones, found again by name, and a test result is a row:
running the report again resumes it. Mutants that neither kills may be
equivalent: docs/mutation-equivalence.json holds the reasoning recorded for
those inspected, and the report shows it beside them.
"""

from __future__ import annotations

import json
import random
import re
import statistics
import tempfile
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from django.utils import timezone

from generator.render import quiet_check
from runners.campaigns import services, studies
from runners.campaigns.models import (
    FINDING_OUTCOMES,
    Campaign,
    Execution,
    MutantTests,
)
from runners.campaigns.programs import program_object
from runners.engine.bisect import runs_on
from runners.engine.sandbox import get_sandbox
from runners.engine.toolchains import Toolchain, installed_toolchains, version_key
from runners.mutation.base import Mutant, MutantKind
from runners.mutation.kinds import all_kinds, installed_mutant, kind_for
from runners.mutation_study.jobs import request_runtime_tests
from runners.targets import all_targets, get_target, shared_capabilities

NAME_PREFIX = "mutation report:"
Log = Callable[[str], None]


@dataclass(frozen=True)
class MutationPlan:
    """How big the study is; the defaults are what docs/mutation-report.md was made with."""

    kinds: tuple[str, ...] = ()  # () for every kind
    mutants: int = 24  # sampled per kind; 0 for all
    mutant_ids: tuple[str, ...] = ()  # these mutants instead of a sample (of every kind chosen)
    heuristics: str = "ABCDEF"
    programs: int = 30  # per mutant and heuristic
    budget_s: float = 240.0  # per mutant, its heuristics together
    timeout_s: float = 10.0
    hang_quiet_s: float = 2.0
    repetitions: int = 3
    seed: int = 1
    values: bool = True  # the value oracle
    pct_depth: int | None = None  # schedule perturbation (None: none)
    buffered: bool = False  # programs with buffered channels, close and range (beyond the paper)
    runtime_tests: bool = True
    # How long to wait for the runtime tests after the campaigns; those not done by then
    # are reported as not finished (a report run again attaches them when they are).
    tests_wait_s: float = 3 * 3600.0
    chunk_size: int = 5  # small chunks: a campaign stops soon after its first finding


@dataclass
class HeuristicResult:
    campaign: int
    killed: bool
    outcome: str = ""  # the verdict that killed it
    signature: str = ""
    programs: int = 0  # programs run up to and including the killing one (all, if none)
    seconds: float = 0.0  # from the campaign's start to the kill (to its end, if none)
    compile_errors: int = 0
    target: str = ""  # the language whose run killed it (a kind may run on several)
    base_findings: int = 0  # findings (before the kill) that the unmutated base shows too


@dataclass
class MutantResult:
    kind: str
    id: str
    file: str
    line: int
    operator: str
    change: str
    toolchain: str
    status: str  # "killed", "survived", "build failed"
    heuristics: dict[str, HeuristicResult] = field(default_factory=dict)
    runtime_tests: dict[str, Any] = field(default_factory=dict)


def _releases(target: str) -> list[Toolchain]:
    return [t for t in installed_toolchains(target) if t.origin != "mutant"]


def base_toolchain(kind: MutantKind) -> Toolchain:
    """The newest installed release of the kind's first target (ToolchainUnavailable-like
    LookupError when none is installed)."""
    target = kind.targets[0]
    releases = _releases(target)
    if not releases:
        raise LookupError(f"no {target} toolchain installed to mutate")
    return max(releases, key=lambda t: (version_key(t.version), t.id))


def kind_bases(kind: MutantKind, log: Log) -> list[Toolchain]:
    """The base of each of the kind's targets: the first target's newest release, then
    the same release of every other target that has it installed. Mutants are listed
    from the first and installed on each; a target without that release is left out
    (and the log says so)."""
    first = base_toolchain(kind)
    found = [first]
    for target in kind.targets[1:]:
        same = [t for t in _releases(target) if t.version == first.version]
        if same:
            found.append(max(same, key=lambda t: t.id))
        else:
            install = f"manage.py toolchains install {target} {first.version}"
            log(f"{kind.name}: {target} {first.version} is not installed: its mutants run "
                f"on {first.id} only ({install})")  # fmt: skip
    return found


def sample(kind: MutantKind, base: Toolchain, plan: MutationPlan) -> list[Mutant]:
    """The plan's mutants of `base`, in the kind's order (seeded: the same every time)."""
    everyone = kind.list_mutants(base)
    if plan.mutant_ids:
        missing = set(plan.mutant_ids) - {m.id for m in everyone}
        if missing:
            raise LookupError(f"no mutants {sorted(missing)} of {base.id} ({kind.name})")
        return [m for m in everyone if m.id in plan.mutant_ids]
    if not plan.mutants or plan.mutants >= len(everyone):
        return everyone
    chosen = set(
        random.Random(f"{plan.seed}:{kind.name}").sample(range(len(everyone)), plan.mutants)
    )
    return [m for i, m in enumerate(everyone) if i in chosen]


def quiet_checks(languages: Iterable[str]) -> list[str]:
    """The versions of the quiet-channel check that programs for these targets end with."""
    targets = [get_target(lang) for lang in languages]
    found = {quiet_check(t.renderer, **t.renderer_options) for t in targets}
    return sorted(x for x in found if x is not None)


def quiet_checked(languages: Iterable[str]) -> bool:
    """Whether programs for any of these targets end with a quiet-channel check."""
    return bool(quiet_checks(languages))


def _campaign(
    name: str, toolchains: Sequence[Toolchain], heuristic: str, plan: MutationPlan
) -> Campaign:
    # Campaigns are found again by name: the name holds what makes them the experiment
    # they are (another size, seed or oracle is another campaign).
    pct = f", PCT depth {plan.pct_depth}" if plan.pct_depth else ""
    pct += ", buffered" if plan.buffered else ""
    # Where the targets can write a select with a default, buffered programs have some:
    # other programs than the campaigns made before defaults existed.
    if plan.buffered and shared_capabilities([t.language for t in toolchains]).select_default:
        pct += " and defaults"
    # Programs that end with a quiet-channel check (issue #14) are other programs too: a
    # campaign made before it, or with another version of it, must not stand for one with it.
    if checks := quiet_checks(t.language for t in toolchains):
        pct += f", quiet checks {' and '.join(checks)}"
    name += (
        f" ({plan.programs} programs, seed {plan.seed}{'' if plan.values else ', no values'}{pct})"
    )
    return studies.find_or_create(
        name,
        lambda: services.create_campaign(
            name=name,
            heuristic=heuristic,
            buffered=plan.buffered,
            targets=[(t.language, t.id) for t in toolchains],
            count=plan.programs,
            timeout_s=plan.timeout_s,
            repetitions=plan.repetitions,
            seed=plan.seed,
            chunk_size=plan.chunk_size,
            triage_retries=1,
            hang_quiet_s=plan.hang_quiet_s,
            value_oracle=plan.values,
            pct_depth=plan.pct_depth,
        ),
    )


# Runs of a killing program on the unmutated base, to tell a mutant's finding from a
# race the base has itself (flume 0.12.0 hangs in one program in ten; its rarest race
# shows in about one run in seven, so ten clean runs leave it a one-in-five chance).
BASE_RERUNS = 10


@dataclass
class Control:
    """What the unmutated bases show, so that a mutant is killed only by a finding of its own.

    A finding is the base's when its signature is one the control campaigns saw, when the
    control's run of the same program was a finding too, or when the program, run again
    on the base up to `BASE_RERUNS` times, is one. The last costs runs, so it is asked only
    of a finding that passed the first two, once (`judged`, by execution)."""

    campaigns: list[Campaign]  # done: what they found no longer changes
    bases: dict[str, Toolchain]  # by language
    plan: MutationPlan
    judged: dict[int, bool] = field(default_factory=dict)
    signatures: set[str] = field(init=False)

    def __post_init__(self) -> None:
        self.signatures = set(
            Execution.objects.filter(campaign__in=self.campaigns, outcome__in=FINDING_OUTCOMES)
            .values_list("signature", flat=True)
            .distinct()
        )

    def base_shows(self, execution: Execution) -> bool:
        if execution.pk not in self.judged:
            language = execution.target.language if execution.target else ""
            self.judged[execution.pk] = (
                execution.signature in self.signatures
                or Execution.objects.filter(
                    campaign__in=self.campaigns, program_id=execution.program_id,
                    target__language=language, outcome__in=FINDING_OUTCOMES,
                ).exists()
                or self._runs_show(execution, language)
            )  # fmt: skip
        return self.judged[execution.pk]

    def _runs_show(self, execution: Execution, language: str) -> bool:
        base = self.bases.get(language)
        if base is None:
            return False
        with tempfile.TemporaryDirectory(prefix="chanfuzz-base-") as tmp:
            workdir = Path(tmp)
            workdir.chmod(0o755)  # the sandbox's user reads the build
            result = runs_on(
                program_object(execution.program), base,
                sandbox=get_sandbox(language=language), times=BASE_RERUNS,
                repetitions=self.plan.repetitions, timeout_s=self.plan.timeout_s,
                quiet_s=self.plan.hang_quiet_s, stop_at_bad=True,
                render_seed=execution.program.render_seed, workdir=workdir,
            )  # fmt: skip
        return result.bad_runs > 0


def _findings(campaign: Campaign) -> list[Execution]:
    return list(
        Execution.objects.filter(campaign=campaign, outcome__in=FINDING_OUTCOMES)
        .exclude(outcome="timeout", hang_confirmed=False)
        .select_related("target", "program")
        .order_by("created_at", "id")
    )


def _first_kill(findings: Iterable[Execution], control: Control) -> Execution | None:
    """The first of `findings` that the base does not show."""
    return next((e for e in findings if not control.base_shows(e)), None)


def heuristic_result(campaign: Campaign, control: Control) -> HeuristicResult:
    """What one campaign says of its mutant: killed or not, by what, after how much."""
    executions = Execution.objects.filter(campaign=campaign)
    errors = executions.filter(outcome="compile_error").count()
    findings = _findings(campaign)
    first = _first_kill(findings, control)
    # The findings before the kill (all of them, without one) are the base's.
    base_findings = findings.index(first) if first is not None else len(findings)
    if first is None:
        return HeuristicResult(
            campaign.pk, False, programs=executions.count(),
            seconds=studies.campaign_seconds(campaign), compile_errors=errors,
            base_findings=base_findings,
        )  # fmt: skip
    programs = executions.filter(created_at__lte=first.created_at).count()
    seconds = (
        (first.created_at - campaign.started_at).total_seconds() if campaign.started_at else 0.0
    )
    target = first.target.language if first.target else ""
    return HeuristicResult(
        campaign.pk, True, first.outcome, first.signature, programs, seconds, errors, target,
        base_findings,
    )  # fmt: skip


def run_control(bases: Sequence[Toolchain], plan: MutationPlan, log: Log) -> Control:
    """The control campaigns on the unmutated bases, run if not yet."""
    ids = " + ".join(b.id for b in bases)
    campaigns = [
        _campaign(f"{NAME_PREFIX} control {ids} {h}", bases, h, plan) for h in plan.heuristics
    ]
    log(f"control: {len(campaigns)} campaigns on {ids}")
    studies.wait_for(campaigns, poll_s=2.0)
    return Control(campaigns, {b.language: b for b in bases}, plan)


def run_mutant(
    kind: MutantKind, bases: Sequence[Toolchain], mutant: Mutant, plan: MutationPlan,
    control: Control, log: Log,
) -> MutantResult:  # fmt: skip
    """Install the mutant on each base, run its campaigns (each on every mutant toolchain)
    until each finds something or the budget is spent, and say what killed it."""
    toolchains = []
    for base in bases:
        kind.install(mutant, base)
        toolchain = installed_mutant(base.language, base, mutant.id)
        if toolchain is None:
            raise LookupError(f"mutant {mutant.id} of {base.id} installed but not found")
        toolchains.append(toolchain)
    toolchain = toolchains[0]
    ids = " + ".join(t.id for t in toolchains)
    campaigns = {
        h: _campaign(f"{NAME_PREFIX} {ids} {h}", toolchains, h, plan) for h in plan.heuristics
    }
    pending = {h: c.pk for h, c in campaigns.items()}
    called = timezone.now()
    while pending:
        for h, pk in list(pending.items()):
            campaign = Campaign.objects.get(pk=pk)
            if _first_kill(_findings(campaign), control) is not None or not campaign.is_active:
                if campaign.is_active:
                    services.pause_campaign(campaign=campaign)  # killed: no need to go on
                del pending[h]
        if pending and _spent(campaigns.values(), since=called) >= plan.budget_s:
            for pk in pending.values():
                campaign = Campaign.objects.get(pk=pk)
                if campaign.is_active:
                    services.pause_campaign(campaign=campaign)
            break
        if pending:
            time.sleep(1.0)
    heuristics = {
        h: heuristic_result(Campaign.objects.get(pk=c.pk), control) for h, c in campaigns.items()
    }
    ran = [r for r in heuristics.values() if r.programs]
    if ran and all(r.compile_errors == r.programs for r in ran):
        status = "build failed"
    elif any(r.killed for r in heuristics.values()):
        status = "killed"
    else:
        status = "survived"
    result = MutantResult(
        kind.name, mutant.id, mutant.file, mutant.line, mutant.operator, mutant.describe(),
        toolchain.id, status, heuristics,
    )  # fmt: skip
    killers = "".join(h for h, r in heuristics.items() if r.killed) or "-"
    log(f"{toolchain.id}: {status} (heuristics {killers})")
    return result


def _spent(campaigns: Iterable[Campaign], *, since: datetime) -> float:
    """Seconds since the first of `campaigns` started running, or since `since` when
    that is later (0 while all wait in the queue): a mutant's budget is its own running
    time, not the queue's, and a report run again gives a resumed mutant a whole one."""
    started = [
        s
        for s in Campaign.objects.filter(pk__in=[c.pk for c in campaigns]).values_list(
            "started_at", flat=True
        )
        if s is not None
    ]
    return (timezone.now() - max(min(started), since)).total_seconds() if started else 0.0


def attach_runtime_tests(
    kind: MutantKind, results: Sequence[MutantResult], *, wait_s: float, log: Log
) -> None:
    """Each result's runtime-tests row, queued now for those without one (after the
    campaigns: they would hold up the workers the campaigns' budgets count on), waiting
    up to `wait_s` for those still running."""
    for r in results:
        if r.status != "build failed":
            language = kind.targets[0]
            request_runtime_tests(language=language, toolchain_id=r.toolchain, kind=kind.name)
    ids = [r.toolchain for r in results]
    deadline = time.monotonic() + wait_s
    while True:
        rows = {row.toolchain_id: row for row in MutantTests.objects.filter(toolchain_id__in=ids)}
        open_rows = [row for row in rows.values() if not row.is_done]
        if not open_rows or time.monotonic() >= deadline:
            break
        log(f"waiting for the runtime tests of {len(open_rows)} mutant(s)")
        for row in open_rows:  # queued again if its job was lost or its worker killed
            request_runtime_tests(language=row.language, toolchain_id=row.toolchain_id,
                                  kind=row.kind)  # fmt: skip
        time.sleep(10.0)
    for r in results:
        row = rows.get(r.toolchain)
        if row is not None:
            r.runtime_tests = {"status": row.status, "by": row.by, "seconds": row.seconds}


def run_kind(kind: MutantKind, plan: MutationPlan, log: Log) -> dict[str, Any]:
    """The whole study of one kind; its part of the report's JSON document."""
    bases = kind_bases(kind, log)
    base = bases[0]
    everyone = kind.list_mutants(base)
    chosen = sample(kind, base, plan)
    log(f"{kind.name}: {len(everyone)} mutants of {base.id}, {len(chosen)} in the sample")
    control = run_control(bases, plan, log)
    results = [run_mutant(kind, bases, m, plan, control, log) for m in chosen]
    if plan.runtime_tests:
        attach_runtime_tests(kind, results, wait_s=plan.tests_wait_s, log=log)
    return {
        "kind": kind.name,
        "source": kind.source,
        "runtime_tests": kind.runtime_tests_name,
        "plan": asdict(plan),  # kinds run apart (and merged into one report) may differ
        "base": base.id,
        "targets": [b.id for b in bases],
        "mutants_total": len(everyone),
        "control_signatures": sorted(control.signatures),
        "mutants": [asdict(r) for r in results],
    }


def run_study(plan: MutationPlan, log: Log) -> dict[str, Any]:
    kinds = [k for k in all_kinds() if not plan.kinds or k.name in plan.kinds]
    return {
        "plan": asdict(plan),
        "started_at": studies.now_iso(),
        "kinds": [run_kind(k, plan, log) for k in kinds],
        "finished_at": studies.now_iso(),
    }


# ---------------------------------------------------------------- figures


def _pct(part: int, whole: int) -> str:
    return f"{100 * part / whole:.0f} % ({part}/{whole})" if whole else "–"


def kind_figures(kind: dict[str, Any], heuristics: str) -> dict[str, Any]:
    """The scores of one kind, from its JSON part."""
    mutants = kind["mutants"]
    built = [m for m in mutants if m["status"] != "build failed"]
    by_us = {m["id"] for m in built if m["status"] == "killed"}
    tested = [m for m in built if m["runtime_tests"].get("status") in ("killed", "survived")]
    by_tests = {m["id"] for m in tested if m["runtime_tests"]["status"] == "killed"}
    tested_ids = {m["id"] for m in tested}
    kills = [
        min((r for r in m["heuristics"].values() if r["killed"]), key=lambda r: r["seconds"])
        for m in built
        if m["id"] in by_us
    ]
    verdicts: dict[str, int] = {}
    for r in kills:
        verdicts[r["outcome"]] = verdicts.get(r["outcome"], 0) + 1
    return {
        "sampled": len(mutants),
        "build_failed": len(mutants) - len(built),
        "built": len(built),
        "chanfuzz": len(by_us),
        "per_heuristic": {
            h: sum(1 for m in built if m["heuristics"].get(h, {}).get("killed")) for h in heuristics
        },
        "tested": len(tested),
        "tests": len(by_tests),
        "both": len(by_us & by_tests),
        "only_chanfuzz": sorted((by_us & tested_ids) - by_tests),
        "only_tests": sorted(by_tests - by_us),
        "neither": sorted(tested_ids - by_us - by_tests),
        "median_seconds": statistics.median([r["seconds"] for r in kills]) if kills else None,
        "median_programs": statistics.median([r["programs"] for r in kills]) if kills else None,
        "verdicts": verdicts,
        "base_findings": sum(
            r.get("base_findings", 0) for m in built for r in m["heuristics"].values()
        ),
    }


def load_equivalence(path: Path) -> dict[str, str]:
    """Mutant id (kind:id) → the reasoning recorded when it was inspected for equivalence."""
    if not path.exists():
        return {}
    return {str(k): str(v) for k, v in json.loads(path.read_text()).items()}


# The recorded reasoning's verdict: a sentence (or a clause after a colon) that begins
# "Equivalent". "Unreachable here" and "not equivalent" are not: such a mutant changes
# behaviour that programs could reach, so it stays in the scores.
_EQUIVALENT = re.compile(r"(?:^|[.:] )Equivalent\b", re.IGNORECASE)


def recorded_equivalent(reasoning: str) -> bool:
    """Whether the reasoning recorded for a mutant concludes that it is equivalent."""
    return bool(_EQUIVALENT.search(reasoning))


def markdown_context(data: dict[str, Any], equivalence: dict[str, str]) -> dict[str, Any]:
    """What templates/reports/mutation.md shows, from the report's JSON document."""
    plan = data["plan"]
    kinds = []
    for kind in data["kinds"]:
        own = kind.get("plan", plan)
        differs = [
            f"{key} {own[key]}"
            for key in own
            if key not in _SAMPLE_KEYS and own[key] != plan.get(key)
        ]
        figures = kind_figures(kind, plan["heuristics"])
        several = len(kind.get("targets", [])) > 1
        rows = [_row(m, plan["heuristics"], several) for m in kind["mutants"]]
        by_id = {m["id"]: m for m in rows}
        reasoned = {
            i: {**by_id[i], "reasoning": equivalence.get(f"{kind['kind']}:{i}", "")}
            for i in figures["only_tests"] + figures["neither"]
        }
        # The aim counts non-equivalent mutants: those killed by neither whose
        # recorded reasoning concludes "Equivalent" leave the tests' misses.
        equivalent = [
            i for i in figures["neither"] if recorded_equivalent(reasoned[i]["reasoning"])
        ]
        misses = figures["tested"] - figures["tests"] - len(equivalent)
        kinds.append(
            {
                **kind,
                "figures": figures,
                "rows": rows,
                "only_chanfuzz": [by_id[i] for i in figures["only_chanfuzz"]],
                "only_tests": [reasoned[i] for i in figures["only_tests"]],
                "neither": [reasoned[i] for i in figures["neither"]],
                "per_heuristic": [
                    (h, _pct(n, figures["built"])) for h, n in figures["per_heuristic"].items()
                ],
                "sample": own.get("mutants", plan["mutants"]),
                "plan_differs": differs,
                "score": _pct(figures["chanfuzz"], figures["built"]),
                "tests_score": _pct(figures["tests"], figures["tested"]),
                "of_tests_kills": _pct(figures["both"], figures["tests"]),
                "equivalent": len(equivalent),
                "of_tests_misses": _pct(len(figures["only_chanfuzz"]), misses),
            }
        )
    # Which targets write selects with a default: the registry says, not the template.
    with_defaults = [t.title for t in all_targets() if t.capabilities.select_default]
    # The kinds whose programs end with a quiet-channel check.
    quiet = [k["kind"] for k in data["kinds"] if quiet_checked(kind_for(k["kind"]).targets)]
    return {
        "data": data,
        "plan": plan,
        "kinds": kinds,
        "with_defaults": ", ".join(with_defaults),
        "quiet_kinds": " and ".join(quiet),
    }


# Plan fields that say which mutants ran, or how long the report waited, not how they
# ran: kinds run apart may differ in them.
_SAMPLE_KEYS = ("kinds", "mutants", "mutant_ids", "tests_wait_s")


def _row(mutant: dict[str, Any], heuristics: str, several_targets: bool = False) -> dict[str, Any]:
    cells = []
    for h in heuristics:
        r = mutant["heuristics"].get(h)
        if r is None:
            cells.append("")
        elif r["killed"]:
            on = f" on {r['target']}" if several_targets and r.get("target") else ""
            cells.append(f"{r['outcome'].replace('_', ' ')} @{r['programs']}{on}")
        else:
            cells.append(f"– ({r['programs']})")
    tests = mutant["runtime_tests"]
    status = tests.get("status", "not run")
    if status in ("queued", "running"):
        status = f"not finished ({status})"
    return {
        **mutant,
        "change": mutant["change"].replace("|", "\\|"),  # a Markdown table cell
        "cells": cells,
        "tests": status + (f" ({tests['by']})" if tests.get("by") else ""),
    }

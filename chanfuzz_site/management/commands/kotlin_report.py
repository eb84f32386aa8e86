"""`manage.py kotlin_report`: regenerate docs/kotlin-report.md (issue #7) by running it all.

Steps, in order (`--steps` picks some; the others keep their figures from the
previous docs/kotlin-report.json):

- `install`   every kotlinx.coroutines release of toolchains/kotlin/releases.txt
              that is not installed yet (Maven Central; about 10–30 s each);
- `campaigns` Table 2 (one campaign per heuristic on `--release`), then the
              release sweep (Table 2's shortest crashing programs on every
              installed release), queued through RQ and waited for; `--workers N` starts N RQ
              workers (and a private Redis when REDIS_URL does not answer)
              for the duration, 0 relies on workers already running;
- `first`     time to the first finding: `--first-trials` fuzz runs from fresh
              seeds on `--release`, compiling everything (run on a quiet machine);
- `fixture`   the shortest program that revealed the bug, run `--fixture-runs`
              times on every installed release; writes the regression fixture
              (tests/runners/fixtures/kotlin_select_overflow.json) and stores
              the bisection on the program's finding. Then the same for the
              shortest crashing program on two channels and the shortest hang
              that repeated; a bisection done already is kept.
- `reduce`    the fixture reduced (runners.campaigns.reductions) on the release
              where its finding was seen, keeping its crash at a comparable rate;
              a finished reduction is kept.

The campaigns' figures are always read back from the database, so
`--steps none` rewrites the Markdown from what is there. Campaigns are found
again by name: a run cut off halfway resumes them.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.template.loader import render_to_string

from chanfuzz_site.database import require_migrated
from runners.campaigns import reductions, studies
from runners.campaigns.local_workers import local_workers
from runners.campaigns.models import Campaign, Finding, Program, Reduction
from runners.campaigns.selectors import CampaignProgress
from runners.engine.bisect import VersionResult
from runners.engine.fuzz import MAX_JOBS
from runners.engine.sandbox import BACKENDS, SandboxUnavailable, get_sandbox
from runners.kotlin_study import report
from runners.targets.kotlin_install import install_all_kotlin
from runners.targets.kotlin_releases import kotlin_releases as registry_releases

STEPS = ("install", "campaigns", "first", "fixture", "reduce")
BISECTIONS = ("fixture", "two_channels", "hang")
MAX_FIXTURE_CANDIDATES = 8
DOCS = settings.BASE_DIR / "docs"
FIXTURE = settings.BASE_DIR / "tests" / "runners" / "fixtures" / "kotlin_select_overflow.json"


class Command(BaseCommand):
    help = "Run the kotlinx.coroutines reproduction (issue #7) and write docs/kotlin-report.md."

    def add_arguments(self, parser: CommandParser) -> None:
        defaults = report.ReportPlan()
        parser.add_argument(
            "--steps", default=",".join(STEPS), help=f"comma-separated of {STEPS}, or none"
        )
        parser.add_argument("--release", default=defaults.release, help="buggy release of Table 2")
        parser.add_argument("--programs", type=int, default=defaults.programs, help="per heuristic")
        parser.add_argument("--heuristics", default=defaults.heuristics)
        parser.add_argument("--sweep-programs", type=int, default=defaults.sweep_programs)
        parser.add_argument(
            "--seed", type=int, default=defaults.seed, help="of Table 2's first program"
        )
        parser.add_argument("--repetitions", type=int, default=defaults.repetitions)
        parser.add_argument("--first-trials", type=int, default=defaults.first_trials)
        parser.add_argument(
            "--first-heuristic", type=str.upper, default=defaults.first_heuristic,
            choices=sorted(report.PAPER_KOTLIN),
        )  # fmt: skip
        parser.add_argument(
            "--first-max-programs", type=int, default=defaults.first_max_programs,
            help="a first-finding trial gives up after this many programs",
        )  # fmt: skip
        parser.add_argument(
            "--first-jobs", type=int, default=defaults.first_jobs,
            help="batches under way at once in a first-finding trial (fuzz --jobs)",
        )  # fmt: skip
        parser.add_argument(
            "--releases", default="",
            help="comma-separated releases for the sweep and the fixture (default: all installed)",
        )  # fmt: skip
        parser.add_argument("--fixture-runs", type=int, default=defaults.fixture_runs)
        parser.add_argument("--fixture-repetitions", type=int, default=defaults.fixture_repetitions)
        parser.add_argument(
            "--workers", type=int, default=2, help="RQ workers to start (0: use running ones)"
        )
        parser.add_argument("--sandbox", choices=BACKENDS)
        parser.add_argument("--output", type=Path, default=DOCS, help="directory of the report")
        parser.add_argument("--fixture-file", type=Path, default=FIXTURE)
        parser.add_argument(
            "--bisect", default=",".join(BISECTIONS),
            help=f"which bisections step fixture (re)runs, of {BISECTIONS}; the others keep "
            "their last results",
        )  # fmt: skip

    def handle(self, *args: Any, **options: Any) -> None:
        steps = {s for s in options["steps"].split(",") if s and s != "none"}
        self.bisections = {b for b in options["bisect"].split(",") if b}
        if unknown := self.bisections - set(BISECTIONS):
            raise CommandError(
                f"unknown bisections {sorted(unknown)}: choose from {BISECTIONS}", returncode=2
            )
        if unknown := steps - set(STEPS):
            raise CommandError(
                f"unknown steps {sorted(unknown)}: choose from {STEPS}", returncode=2
            )
        plan = report.ReportPlan(
            release=options["release"],
            heuristics=options["heuristics"].upper(),
            programs=options["programs"],
            sweep_programs=options["sweep_programs"],
            seed=options["seed"],
            repetitions=options["repetitions"],
            first_trials=options["first_trials"],
            first_heuristic=options["first_heuristic"],
            first_max_programs=options["first_max_programs"],
            first_jobs=options["first_jobs"],
            releases=tuple(v for v in options["releases"].split(",") if v),
            fixture_runs=options["fixture_runs"],
            fixture_repetitions=options["fixture_repetitions"],
        )
        if not set(plan.heuristics) <= set(report.PAPER_KOTLIN) or not plan.heuristics:
            raise CommandError("--heuristics: letters from A to F", returncode=2)
        if not 1 <= plan.programs <= 100_000 or not 0 <= plan.sweep_programs <= 100_000:
            raise CommandError("--programs 1…100000, --sweep-programs 0…100000", returncode=2)
        if not 0 <= options["workers"] <= 16:
            raise CommandError("--workers must be from 0 to 16", returncode=2)
        if not 1 <= plan.first_jobs <= MAX_JOBS:
            raise CommandError(f"--first-jobs must be from 1 to {MAX_JOBS}", returncode=2)
        try:
            sandbox = get_sandbox(options["sandbox"], language="kotlin")
        except SandboxUnavailable as exc:
            raise CommandError(exc.reason, returncode=2) from exc

        self.output = options["output"]
        json_path = self.output / "kotlin-report.json"
        data: dict[str, Any] = json.loads(json_path.read_text()) if json_path.exists() else {}
        started = time.monotonic()

        if "install" in steps:
            self._install_all()
        releases = report.kotlin_releases(plan.releases)
        if missing := set(plan.releases) - {t.version for t in releases}:
            raise CommandError(
                f"not installed: {', '.join(sorted(missing))} (step install, or "
                "manage.py toolchains install kotlin VERSION)",
                returncode=2,
            )
        if not any(t.version == plan.release for t in report.kotlin_releases()):
            raise CommandError(
                f"kotlinx.coroutines {plan.release} is not installed: "
                f"manage.py toolchains install kotlin {plan.release}",
                returncode=2,
            )
        require_migrated()
        data["plan"] = report.plan_dict(plan)
        data["registry_releases"] = [r.version for r in registry_releases()]
        data["installed_toolchains"] = {t.version: t.id for t in releases}

        if "campaigns" in steps:
            self._run_campaigns(plan, releases, options["workers"])
        self._read_campaigns(plan, releases, data)

        if "first" in steps:
            self.stdout.write(
                f"time to the first finding: {plan.first_trials} trials on {plan.release}"
            )
            trials = report.first_finding_trials(
                plan,
                sandbox=sandbox,
                on_trial=lambda t: self.stdout.write(
                    f"  seeds {t.seed}…: {'overflow' if t.found else 'no overflow'} after "
                    f"{t.seconds:.1f} s, {t.programs} programs; first finding of any kind "
                    + (
                        f"after {t.first_any_s:.1f} s, {t.first_any_programs} programs"
                        if t.first_any_s is not None
                        else "none"
                    )
                ),
            )
            data["first_finding"] = {
                **report.trials_summary(trials),
                "jobs": plan.first_jobs,
                "measured_at": studies.now_iso(),
            }
            # Each --first-jobs measured keeps its trials, for the side-by-side table.
            by_jobs = data.setdefault("first_finding_by_jobs", {})
            by_jobs[str(plan.first_jobs)] = data["first_finding"]
            self._write(data)

        if "fixture" in steps:
            self._fixture(plan, data, sandbox, options["fixture_file"])
        if "reduce" in steps:
            self._reduce_fixture(data)

        self._write(data)
        self.stdout.write(
            f"wrote {self.output / 'kotlin-report.md'} and kotlin-report.json "
            f"in {time.monotonic() - started:.0f} s"
        )

    # ------------------------------------------------------------ steps

    def _install_all(self) -> None:
        self.stdout.write("installing every kotlinx.coroutines release not installed yet")
        failed = install_all_kotlin(log=lambda line: self.stdout.write(f"  {line}"))
        for version, why in failed.items():
            self.stderr.write(f"kotlinx.coroutines {version}: not installed: {why[:300]}")

    def _run_campaigns(self, plan: report.ReportPlan, releases: list[Any], workers: int) -> None:
        last_line: dict[int, str] = {}

        def show(campaign: Campaign, progress: CampaignProgress) -> None:
            line = (
                f"  campaign {campaign.pk} {campaign.status}: {progress.done}/{progress.total}"
                f" ({progress.per_minute:.0f}/min, {progress.findings} finding(s)) {campaign.name}"
            )
            if last_line.get(campaign.pk) != line:
                last_line[campaign.pk] = line
                self.stdout.write(line)

        with local_workers(workers) as services:
            url = services.url
            if not workers and not _workers_listening():
                raise CommandError(
                    f"no RQ worker listens on {url}: start some (scripts/start_services.sh "
                    "--no-web) or pass --workers N",
                    returncode=2,
                )
            table2 = report.table2_campaigns(plan)
            self.stdout.write(f"waiting for {len(table2)} Table 2 campaign(s) on {url}")
            studies.wait_for(table2, on_progress=show)
            # The sweep runs Table 2's crashing programs, so it comes after it.
            if plan.sweep_programs:
                sweep = report.sweep_campaign(plan, releases, table2)
                if sweep is None:
                    self.stdout.write("no program revealed the bug: no release sweep")
                else:
                    studies.wait_for([sweep], on_progress=show)

    def _read_campaigns(
        self, plan: report.ReportPlan, releases: list[Any], data: dict[str, Any]
    ) -> None:
        table2 = [
            c
            for h in plan.heuristics
            if (
                c := Campaign.objects.filter(name=plan.table2_name(h))
                .exclude(status="cancelled")
                .first()
            )
        ]
        sweep = (
            Campaign.objects.filter(name=plan.sweep_name(releases))
            .exclude(status="cancelled")
            .first()
        )
        self.table2 = table2
        everything = [*table2, *([sweep] if sweep else [])]
        data["campaigns"] = [studies.campaign_dict(c) for c in everything]
        data["table2"] = report.table2_rows(plan, table2)
        data["duplicate_clauses"] = report.duplicate_clause_figures(table2)
        data["hangs"] = report.hang_figures(table2)
        data["sweep"] = [vars(r) for r in report.target_figures(sweep)] if sweep else []
        data["findings"] = report.report_findings(everything)
        # Generated programs only: the sweep runs Table 2's again, from their effects.
        shortest = report.shortest_revealing_program(table2)
        data["shortest"] = report.fixture_program_dict(shortest) if shortest else None
        two = report.shortest_revealing_program(table2, min_channels=2)
        data["shortest_two_channels"] = report.fixture_program_dict(two) if two else None
        hang = report.shortest_repeating_hang(table2)
        data["shortest_hang"] = report.fixture_program_dict(hang) if hang else None

    def _fixture(
        self, plan: report.ReportPlan, data: dict[str, Any], sandbox: Any, fixture_file: Path
    ) -> None:
        shortest = data.get("shortest")
        if not shortest:
            raise CommandError("no program revealed the bug: nothing to make a fixture of")
        if "fixture" in self.bisections:
            self._choose_fixture(plan, data, sandbox, fixture_file)
        # #504's own scenario, two channels selected in opposite orders, when the
        # shortest program overall used one channel only.
        two = data.get("shortest_two_channels")
        if "two_channels" in self.bisections and two and two["id"] != shortest["id"]:
            self._bisect(plan, data, "two_channels", two["id"], sandbox)
        # The other bug of the campaigns: hangs whose re-runs hung too.
        if "hang" in self.bisections and (hang := data.get("shortest_hang")):
            self._bisect(plan, data, "hang", hang["id"], sandbox, report.hang_spec(plan))

    def _choose_fixture(
        self, plan: report.ReportPlan, data: dict[str, Any], sandbox: Any, fixture_file: Path
    ) -> None:
        """The shortest program of Table 2 that crashes every buggy release in its runs.

        The overflow is a race, and some short programs lose it on some releases
        in every run; the fixture must crash each buggy one. Buggy means: bad for
        an earlier fixture or for the two-channel program. A candidate that misses
        one of those is given up at once, and the next shortest is tried.
        """
        must_crash = {
            v for key in ("fixture", "two_channels") for v in (data.get(key) or {}).get("buggy", [])
        }
        data["fixture_rejected"] = []
        for program in report.revealing_programs(self.table2)[:MAX_FIXTURE_CANDIDATES]:
            result = self._bisect(plan, data, "fixture", program.id, sandbox, must_crash=must_crash)
            if result.missed is None and not result.not_monotonic and result.fixed:
                break
            data["fixture_rejected"].append(
                {
                    "id": program.id,
                    "effect_length": len(program.effect_text),
                    "missed": result.missed or ", ".join(result.not_monotonic),
                    "runs": result.runs,
                }
            )
        else:
            raise CommandError(
                f"none of the {MAX_FIXTURE_CANDIDATES} shortest crashing programs crashed "
                "every buggy release: no fixture written"
            )
        fixture_file.parent.mkdir(parents=True, exist_ok=True)
        fixture_file.write_text(
            json.dumps(
                {
                    "about": "Written by `manage.py kotlin_report` (step fixture); read by "
                    "tests/runners/kotlin_study/test_kotlin_regression.py.",
                    "program": result.program,
                    "repetitions": result.repetitions,
                    "timeout_s": plan.timeout_s,
                    "buggy": result.buggy,
                    "fixed": result.fixed,
                    "rates": {r["version"]: [r["bad_runs"], r["runs"]] for r in result.results},
                },
                indent=2,
            )
            + "\n"
        )
        self.stdout.write(
            f"fixture: buggy {len(result.buggy)} releases, fixed {len(result.fixed)}; "
            f"last bad {result.last_bad}, first good {result.first_good} → {fixture_file}"
        )

    def _bisect(
        self,
        plan: report.ReportPlan,
        data: dict[str, Any],
        key: str,
        pid: str,
        sandbox: Any,
        spec: report.BisectionSpec | None = None,
        must_crash: set[str] | frozenset[str] = frozenset(),
    ) -> report.FixtureResult:
        """Bisect program `pid` over the releases into data[key], unless that ran already
        (data["bisections"] keeps every bisection by program id)."""
        spec = spec or report.overflow_spec(plan)
        releases = [t.version for t in report.kotlin_releases(plan.releases)]
        cache = data.setdefault("bisections", {})
        if (data.get(key) or {}).get("program", {}).get("id") == pid:
            cache.setdefault(pid, data[key])
        done = cache.get(pid) or {}
        if done.get("missed") and done["missed"] in must_crash:
            self.stdout.write(f"{key}: {pid} missed {done['missed']} before")
            return report.FixtureResult(**{k: v for k, v in done.items() if k != "measured_at"})
        if (
            done.get("program", {}).get("id") == pid
            and (done.get("runs"), done.get("repetitions")) == (spec.runs, spec.repetitions)
            and [r["version"] for r in done.get("results", [])] == releases
        ):
            self.stdout.write(f"{key}: {pid} was bisected on these releases already")
            data[key] = done
            return report.FixtureResult(**{k: v for k, v in done.items() if k != "measured_at"})
        program = Program.objects.get(pk=pid)
        self.stdout.write(
            f"{key}: {program.id} (effect of {program.effect_size} characters): "
            f"{spec.runs} runs × {spec.repetitions} repetitions per release"
        )

        def show(r: VersionResult) -> None:
            self.stdout.write(f"  {r.version:8} {r.bad_runs}/{r.runs} bad  {r.toolchain_id}")

        result = report.bisect_fixture(
            program, plan, sandbox=sandbox, spec=spec, on_result=show, must_crash=sorted(must_crash)
        )
        data[key] = cache[pid] = {**vars(result), "measured_at": studies.now_iso()}
        self._write(data)  # a later step cut off loses nothing of this one
        return result

    def _reduce_fixture(self, data: dict[str, Any]) -> None:
        pid = ((data.get("fixture") or {}).get("program") or {}).get("id")
        finding = (
            Finding.objects.filter(example_id=pid, language="kotlin").order_by("-last_seen").first()
            if pid
            else None
        )
        if finding is None:
            self.stdout.write(
                "reduce: no finding has the fixture as its example (run a campaign of it: "
                "campaign create --target kotlin:1.2.1 --heuristic E --seed SEED --count 1)"
            )
            return
        reduction = (
            Reduction.objects.filter(finding=finding, status=Reduction.Status.DONE)
            .order_by("-finished_at")
            .first()
        )
        if reduction is None:
            self.stdout.write(f"reduce: the fixture's finding {finding.pk}")
            reduction = reductions.start_reduction(finding=finding, enqueue=False)
            reductions.run_reduction(reduction.pk)
            reduction.refresh_from_db()
        data["fixture_reduction"] = reductions.summary(reduction)
        self._write(data)

    def _write(self, data: dict[str, Any]) -> None:
        data["generated_at"] = studies.now_iso()
        self.output.mkdir(parents=True, exist_ok=True)
        text = json.dumps(data, indent=2, default=str) + "\n"
        (self.output / "kotlin-report.json").write_text(text)
        markdown = render_to_string("reports/kotlin.md", report.markdown_context(data))
        (self.output / "kotlin-report.md").write_text(markdown)


def _workers_listening() -> bool:
    from rq import Worker

    from runners.campaigns.queueing import get_queue

    return bool(Worker.all(queue=get_queue()))

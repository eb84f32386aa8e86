"""What `manage.py rust_report` and `clojure_racket_report` share: a release study
(runners.release_study) of one family of targets, run and written to
docs/<family>-report.md and its JSON.

Steps, in order (`--steps` picks some; the others keep their figures from the
previous docs/<family>-report.json):

- `install`   every release of each target not installed yet (a release that
              no longer builds is recorded as such, not fatal; a target with
              nothing to install, like Racket, is skipped);
- `campaigns` per target, one campaign per heuristic on the newest installed
              release, then on the oldest installed release whose programs
              still build; each paused at its share of `--newest-budget` /
              `--oldest-budget` seconds. Queued through RQ; `--workers N`
              starts N RQ workers (and a private Redis when REDIS_URL does not
              answer) for the duration;
- `bisect`    the `--bisect-findings` most common findings of each target's
              newest-release campaigns, and as many seen only on its oldest
              release (the ones a later release may have fixed): their shortest
              program on every installed release (stored on the finding);
- `bugs`      for the newest release's findings, a standalone project under
              docs/<family>-bugs/ with its failure rate over `--rate-runs` runs.

The campaigns' figures are always read back from the database, so `--steps
none` rewrites the Markdown from what is there.
"""

from __future__ import annotations

import json
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.template.loader import render_to_string

from chanfuzz_site.database import require_migrated
from runners.campaigns import studies
from runners.campaigns.local_workers import local_workers
from runners.campaigns.models import Campaign, Finding, Program
from runners.campaigns.selectors import CampaignProgress
from runners.engine.install import InstallError, install
from runners.engine.sandbox import BACKENDS, SandboxUnavailable, get_sandbox
from runners.engine.toolchains import ToolchainUnavailable, known_toolchains
from runners.release_study import report
from runners.release_study.families import Family
from runners.targets import get_target

STEPS = ("install", "campaigns", "bisect", "bugs")
DOCS = settings.BASE_DIR / "docs"


class ReleaseReportCommand(BaseCommand):
    """A report command: a subclass gives the plan's defaults, which name its family."""

    defaults: report.StudyPlan

    @property
    def family(self) -> Family:
        return self.defaults.family_spec

    def add_arguments(self, parser: CommandParser) -> None:
        d = self.defaults
        names = [t.name for t in self.family.targets()]
        parser.add_argument(
            "--steps", default=",".join(STEPS), help=f"comma-separated of {STEPS}, or none"
        )
        parser.add_argument(
            "--targets", default="", help=f"comma-separated of {names} (default: all)"
        )
        parser.add_argument(
            "--releases", default="",
            help="comma-separated releases to use (default: every installed one)",
        )  # fmt: skip
        parser.add_argument("--heuristics", default=d.heuristics)
        parser.add_argument(
            "--programs", type=int, default=d.programs,
            help="asked per target and release, split over the heuristics",
        )  # fmt: skip
        parser.add_argument(
            "--newest-budget", type=float, default=d.newest_budget_s,
            help="seconds per target on its newest release (split over the heuristics)",
        )  # fmt: skip
        parser.add_argument("--oldest-budget", type=float, default=d.oldest_budget_s)
        parser.add_argument("--timeout", type=float, default=d.timeout_s, help="seconds per run")
        parser.add_argument(
            "--hang-quiet", type=float, default=d.hang_quiet_s,
            help="seconds with every process blocked after which a run is hung (default: off)",
        )  # fmt: skip
        parser.add_argument("--repetitions", type=int, default=d.repetitions)
        parser.add_argument("--seed", type=int, default=d.seed)
        parser.add_argument("--bisect-findings", type=int, default=d.bisect_findings)
        parser.add_argument("--bisect-runs", type=int, default=d.bisect_runs)
        parser.add_argument("--rate-runs", type=int, default=d.rate_runs)
        parser.add_argument(
            "--workers", type=int, default=3,
            help="RQ workers to start (0: use running ones); a hang waits without a core",
        )  # fmt: skip
        parser.add_argument("--sandbox", choices=BACKENDS)
        parser.add_argument("--output", type=Path, default=DOCS, help="directory of the report")
        parser.add_argument(
            "--site-url", default="http://127.0.0.1:8000", help="base of the permalinks"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        steps = {s for s in options["steps"].split(",") if s and s != "none"}
        if unknown := steps - set(STEPS):
            raise CommandError(
                f"unknown steps {sorted(unknown)}: choose from {STEPS}", returncode=2
            )
        names = [t.name for t in self.family.targets()]
        targets = tuple(t for t in options["targets"].split(",") if t)
        if unknown := set(targets) - set(names):
            raise CommandError(
                f"unknown targets {sorted(unknown)}: choose from {names}", returncode=2
            )
        plan = replace(
            self.defaults,
            targets=targets,
            releases=tuple(v for v in options["releases"].split(",") if v),
            heuristics=options["heuristics"].upper(),
            programs=options["programs"],
            newest_budget_s=options["newest_budget"],
            oldest_budget_s=options["oldest_budget"],
            timeout_s=options["timeout"],
            hang_quiet_s=options["hang_quiet"],
            repetitions=options["repetitions"],
            seed=options["seed"],
            bisect_findings=options["bisect_findings"],
            bisect_runs=options["bisect_runs"],
            rate_runs=options["rate_runs"],
        )
        if not plan.heuristics or not set(plan.heuristics) <= set("ABCDEF"):
            raise CommandError("--heuristics: letters from A to F", returncode=2)
        if not 1 <= plan.programs <= 1_000_000:
            raise CommandError("--programs must be from 1 to 1000000", returncode=2)
        if not 0 <= options["workers"] <= 16:
            raise CommandError("--workers must be from 0 to 16", returncode=2)
        try:
            self.sandbox = get_sandbox(options["sandbox"], language=names[0])
        except SandboxUnavailable as exc:
            raise CommandError(exc.reason, returncode=2) from exc
        require_migrated()
        self.plan = plan
        self.output = options["output"]
        self.site_url = options["site_url"].rstrip("/")
        json_path = self.output / f"{self.family.name}-report.json"
        data: dict[str, Any] = json.loads(json_path.read_text()) if json_path.exists() else {}
        data.setdefault("targets", {})
        started = time.monotonic()

        if "install" in steps:
            for target in plan.chosen_targets():
                self._install_all(target.name)
        if "campaigns" in steps:
            self._campaigns(data, options["workers"])
        self._read(data)
        if "bisect" in steps:
            self._bisect(data)
            self._read(data)
        if "bugs" in steps:
            self._bugs(data)
        data["plan"] = report.plan_dict(plan)
        data["generated_at"] = studies.now_iso()
        self._write(data)
        self.stdout.write(
            f"wrote {self.output / self.family.name}-report.md and its JSON "
            f"in {time.monotonic() - started:.0f} s"
        )

    # ------------------------------------------------------------ steps

    def _install_all(self, target: str) -> None:
        if get_target(target).install is None:
            return
        try:
            statuses = known_toolchains(target)
        except ToolchainUnavailable as exc:
            self.stderr.write(f"{target}: {exc.reason}")
            return
        for status in statuses:
            if status.state != "not installed":
                continue
            began = time.monotonic()
            try:
                install(target, status.version, log=lambda _line: None)
                self.stdout.write(
                    f"  {target} {status.version}: installed in {time.monotonic() - began:.0f} s"
                )
            except (InstallError, ToolchainUnavailable) as exc:
                self.stdout.write(f"  {target} {status.version}: not installed: {str(exc)[:200]}")

    def _campaigns(self, data: dict[str, Any], workers: int) -> None:
        last: dict[int, str] = {}

        def show(campaign: Campaign, progress: CampaignProgress) -> None:
            line = (
                f"  campaign {campaign.pk} {campaign.status}: {progress.done}/{progress.total}"
                f" ({progress.per_minute:.0f}/min, {progress.findings} finding(s)) {campaign.name}"
            )
            if last.get(campaign.pk) != line:
                last[campaign.pk] = line
                self.stdout.write(line)

        # Each run of the step is a round the report lists: its budgets and workers
        # made the figures, and a later round may use others.
        data.setdefault("rounds", []).append(
            {
                "started_at": studies.now_iso(),
                "seed": self.plan.seed,
                "programs": self.plan.programs,
                "targets": [t.name for t in self.plan.chosen_targets()],
                "newest_budget_s": self.plan.newest_budget_s,
                "oldest_budget_s": self.plan.oldest_budget_s,
                "hang_quiet_s": self.plan.hang_quiet_s,
                "workers": workers,
            }
        )
        with local_workers(workers):
            for target in self.plan.chosen_targets():
                chosen = report.releases(target.name, self.plan.releases)
                if not chosen:
                    self.stderr.write(f"{target.name}: no release installed; skipped")
                    continue
                newest = chosen[-1]
                self.stdout.write(f"{target.name} {newest.version}: newest release")
                report.run_campaigns(
                    self.plan, target.name, newest,
                    budget_s=self.plan.newest_budget_s, on_progress=show,
                )  # fmt: skip
                entry = data["targets"].setdefault(target.name, {})
                # A later round keeps the oldest release an earlier one probed for (each
                # probe compiles a batch), as long as it is still installed and wanted.
                oldest = next((t for t in chosen[:-1] if t.version == entry.get("oldest")), None)
                # With one release chosen (the only one there is, or --releases naming the
                # newest for another round of it) nothing is probed, and an earlier round's
                # probes stay in the report.
                if oldest is None and len(chosen) > 1:
                    oldest, tried = report.oldest_building(
                        target.name,
                        sandbox=self.sandbox,
                        only=self.plan.releases,
                        on_probe=lambda p, t=target.name: self.stdout.write(
                            f"  {t} {p.version}: "
                            + ("builds" if p.builds else f"does not: {p.why}")
                        ),
                    )
                    entry["oldest_probes"] = [vars(p) for p in tried]
                if oldest is None:
                    self.stdout.write(
                        f"{target.name}: no older release builds its programs"
                        if len(chosen) > 1
                        else f"{target.name}: one release installed, no older one to study"
                    )
                    continue
                self.stdout.write(f"{target.name} {oldest.version}: oldest release that builds")
                report.run_campaigns(
                    self.plan, target.name, oldest,
                    budget_s=self.plan.oldest_budget_s, on_progress=show,
                )  # fmt: skip
                entry["oldest"] = oldest.version
                self._write(data)

    def _read(self, data: dict[str, Any]) -> None:
        for target in self.plan.chosen_targets():
            entry = data["targets"].setdefault(target.name, {})
            chosen = report.releases(target.name, self.plan.releases)
            entry["title"] = target.title
            entry["capabilities"] = target.capabilities.describe()
            entry["known_bugs"] = list(target.known_bugs)
            entry["installed"] = [t.version for t in chosen]
            versions = [
                v for v in (chosen[-1].version if chosen else None, entry.get("oldest")) if v
            ]
            entry["releases"] = {}
            for version in dict.fromkeys(versions):
                by_heuristic = report.study_campaigns(self.plan, target.name, version)
                rows = [report.heuristic_figures(c) for c in by_heuristic.values()]
                campaigns = [c for rounds in by_heuristic.values() for c in rounds]
                entry["releases"][version] = {
                    "heuristics": rows,
                    "total": report.release_figures(rows),
                    "findings": report.findings_of(campaigns),
                }
            entry["newest"] = versions[0] if versions else None

    def _bisect(self, data: dict[str, Any]) -> None:
        for target in self.plan.chosen_targets():
            entry = data["targets"].get(target.name, {})
            for row in report.findings_to_bisect(entry, self.plan.bisect_findings):
                finding = Finding.objects.get(pk=row["id"])
                program = Program.objects.get(pk=row["shortest"])
                self.stdout.write(
                    f"{target.name}: bisecting finding {finding.pk} with program {program.id}"
                )
                bisection = report.bisect_finding(
                    finding, program, target.name, self.plan, sandbox=self.sandbox,
                    on_result=lambda r: self.stdout.write(
                        f"  {r.version}: {r.bad_runs}/{r.runs} bad"
                        + (f", {r.errors} error(s)" if r.errors else "")
                    ),
                )  # fmt: skip
                self.stdout.write(f"  {bisection.summary()}")

    def _bugs(self, data: dict[str, Any]) -> None:
        data["bug_reports"] = []
        for target in self.plan.chosen_targets():
            chosen = report.releases(target.name, self.plan.releases)
            entry = data["targets"].get(target.name, {})
            for row in report.newest_findings(entry, self.plan.bisect_findings):
                finding = Finding.objects.get(pk=row["id"])
                program = Program.objects.get(pk=row["shortest"])
                newest = chosen[-1]
                rate = report.failure_rate(program, newest, self.plan, sandbox=self.sandbox)
                directory = self.output / self.family.bugs_folder / f"{target.name}-{finding.pk}"
                summary = report.write_bug_report(
                    finding, program, target, newest, self.plan,
                    rate=rate, directory=directory, site_url=self.site_url,
                )  # fmt: skip
                summary["directory"] = str(directory.relative_to(self.output))
                data["bug_reports"].append(summary)
                self.stdout.write(
                    f"{target.name}: {summary['directory']}: {rate.bad_runs}/{rate.runs} bad runs"
                )
                self._write(data)

    def _write(self, data: dict[str, Any]) -> None:
        self.output.mkdir(parents=True, exist_ok=True)
        stem = self.output / f"{self.family.name}-report"
        stem.with_suffix(".json").write_text(json.dumps(data, indent=1) + "\n")
        stem.with_suffix(".md").write_text(
            render_to_string("reports/release_study.md", report.markdown_context(data))
        )

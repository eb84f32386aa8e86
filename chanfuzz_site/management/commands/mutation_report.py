"""`manage.py mutation_report`: regenerate docs/mutation-report.md (issue #14) by running it.

For each kind of mutant (`--kinds`, default every kind of runners.mutation.kinds):
a seeded sample of `--mutants` mutants of the newest installed base toolchain,
control campaigns on the base, one campaign per heuristic on each mutant
(stopped at its first finding, or when the mutant's `--budget` is spent), and
the runtime's own tests on each mutant. Campaigns and test runs go through RQ
(`--workers N` starts N workers, and a private Redis when REDIS_URL does not
answer); they are found again by name and row, so a report cut off halfway
resumes. `--steps none` rewrites the Markdown from docs/mutation-report.json.
Each run replaces the kinds it ran in the JSON and keeps the others.

Exit 0 on success, 2 on bad arguments (an unknown kind says which exist).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.template.loader import render_to_string

from chanfuzz_site.database import require_migrated
from runners.campaigns import studies
from runners.campaigns.local_workers import local_workers
from runners.mutation.kinds import all_kinds
from runners.mutation_study import report

DOCS = settings.BASE_DIR / "docs"


class Command(BaseCommand):
    help = "Run the mutation study (issue #14) and write docs/mutation-report.md."

    def add_arguments(self, parser: CommandParser) -> None:
        d = report.MutationPlan()
        parser.add_argument("--steps", choices=("run", "none"), default="run")
        parser.add_argument("--kinds", default="", help="comma-separated kinds (default: all)")
        parser.add_argument("--mutants", type=int, default=d.mutants, help="per kind; 0: all")
        parser.add_argument(
            "--mutant-ids", default="", help="comma-separated mutant ids instead of a sample"
        )
        parser.add_argument("--heuristics", default=d.heuristics)
        parser.add_argument("--programs", type=int, default=d.programs, help="per campaign")
        parser.add_argument(
            "--budget", type=float, default=d.budget_s, help="seconds per mutant, all heuristics"
        )
        parser.add_argument("--timeout", type=float, default=d.timeout_s, help="seconds per run")
        parser.add_argument("--hang-quiet", type=float, default=d.hang_quiet_s)
        parser.add_argument("--repetitions", type=int, default=d.repetitions)
        parser.add_argument("--seed", type=int, default=d.seed)
        parser.add_argument("--no-values", action="store_true", help="without the value oracle")
        parser.add_argument(
            "--pct-depth", type=int, metavar="D", help="with schedule perturbation of depth D"
        )
        parser.add_argument(
            "--buffered",
            action="store_true",
            help="programs with buffered channels, close and range (beyond the paper)",
        )
        parser.add_argument("--no-runtime-tests", action="store_true")
        parser.add_argument(
            "--tests-wait",
            type=float,
            default=d.tests_wait_s,
            help="seconds to wait for the runtime tests after the campaigns; those not done "
            "by then are reported as not finished",
        )
        parser.add_argument("--workers", type=int, default=2, help="RQ workers to start (0: none)")
        parser.add_argument("--output", type=Path, default=DOCS, help="directory of the report")

    def handle(self, *args: Any, **options: Any) -> None:
        known = [k.name for k in all_kinds()]
        kinds = tuple(k for k in options["kinds"].split(",") if k)
        if unknown := set(kinds) - set(known):
            raise CommandError(
                f"unknown kinds {sorted(unknown)}: choose from {known}", returncode=2
            )
        plan = report.MutationPlan(
            kinds=kinds,
            mutants=options["mutants"],
            mutant_ids=tuple(i for i in options["mutant_ids"].split(",") if i),
            heuristics=options["heuristics"].upper(),
            programs=options["programs"],
            budget_s=options["budget"],
            timeout_s=options["timeout"],
            hang_quiet_s=options["hang_quiet"],
            repetitions=options["repetitions"],
            seed=options["seed"],
            values=not options["no_values"],
            pct_depth=options["pct_depth"],
            buffered=options["buffered"],
            runtime_tests=not options["no_runtime_tests"],
            tests_wait_s=options["tests_wait"],
        )
        if not plan.heuristics or not set(plan.heuristics) <= set("ABCDEF"):
            raise CommandError("--heuristics: letters from A to F", returncode=2)
        if plan.mutants < 0 or not 1 <= plan.programs <= 100_000 or plan.budget_s <= 0:
            raise CommandError("--mutants ≥ 0, --programs 1…100000, --budget > 0", returncode=2)
        if plan.tests_wait_s < 0:
            raise CommandError("--tests-wait must be ≥ 0", returncode=2)
        if not 0 <= options["workers"] <= 16:
            raise CommandError("--workers must be from 0 to 16", returncode=2)
        require_migrated()
        output: Path = options["output"]
        json_path = output / "mutation-report.json"
        data: dict[str, Any] = json.loads(json_path.read_text()) if json_path.exists() else {}
        if options["steps"] == "run":
            with local_workers(options["workers"]):
                try:
                    ran = report.run_study(plan, lambda line: self.stdout.write(line))
                except LookupError as exc:
                    raise CommandError(str(exc.args[0]), returncode=2) from exc
            kept = [
                k
                for k in data.get("kinds", [])
                if k["kind"] not in {r["kind"] for r in ran["kinds"]}
            ]
            data = {**ran, "kinds": kept + ran["kinds"]}
            output.mkdir(parents=True, exist_ok=True)
            json_path.write_text(json.dumps(data, indent=1) + "\n")
        if not data:
            raise CommandError(f"no {json_path}: run the study first (--steps run)", returncode=2)
        data["generated_at"] = studies.now_iso()
        # One record of reasoning serves every report (keys name kind and mutant); a report
        # elsewhere (--output) may keep its own beside it, which then comes first.
        equivalence = {
            **report.load_equivalence(DOCS / "mutation-equivalence.json"),
            **report.load_equivalence(output / "mutation-equivalence.json"),
        }
        context = report.markdown_context(data, equivalence)
        (output / "mutation-report.md").write_text(render_to_string("reports/mutation.md", context))
        for kind in context["kinds"]:
            f = kind["figures"]
            self.stdout.write(
                f"{kind['kind']}: chanfuzz killed {f['chanfuzz']} of {f['built']} built mutants; "
                f"the runtime's tests {f['tests']} of {f['tested']}"
            )
        self.stdout.write(f"wrote {output / 'mutation-report.md'}")

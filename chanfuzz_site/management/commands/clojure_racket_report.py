"""`manage.py clojure_racket_report`: regenerate docs/clojure-racket-report.md (issue #19)
by running it all (the steps: chanfuzz_site.release_report).

Its defaults differ from the Rust study's where the runtimes do: a JVM starts in
about a second and several programs share one (`CHANFUZZ_SHARED_RUN_SIZE`), so a
run's limit is 10 s and a run whose threads are all blocked for 2 s is hung then;
10,000 programs are asked per target and release (issue #19's figure).
"""

from __future__ import annotations

from chanfuzz_site.release_report import ReleaseReportCommand
from runners.release_study.families import CLOJURE_RACKET
from runners.release_study.report import StudyPlan


class Command(ReleaseReportCommand):
    help = (
        "Run the Clojure core.async and Racket study (issue #19) and write"
        " docs/clojure-racket-report.md."
    )
    defaults = StudyPlan(
        family=CLOJURE_RACKET.name,
        programs=10_000,
        newest_budget_s=1800.0,
        oldest_budget_s=1200.0,
        timeout_s=10.0,
        hang_quiet_s=2.0,
    )

"""`manage.py rust_report`: regenerate docs/rust-report.md (issue #13) by running it all
(the steps: chanfuzz_site.release_report)."""

from __future__ import annotations

from chanfuzz_site.release_report import ReleaseReportCommand
from runners.release_study.families import RUST
from runners.release_study.report import StudyPlan


class Command(ReleaseReportCommand):
    help = "Run the Rust channel crates study (issue #13) and write docs/rust-report.md."
    defaults = StudyPlan(family=RUST.name)

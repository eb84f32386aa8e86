"""A release study's pure parts: which targets and heuristics it takes, campaign
names per family, bisection summaries, and the Markdown it renders."""

from __future__ import annotations

import dataclasses

from django.template.loader import render_to_string

from runners.release_study import report
from tests.runners.conftest import fake_toolchain


def test_every_rust_target_is_studied() -> None:
    names = [t.name for t in report.StudyPlan().chosen_targets()]
    assert names == ["rust-crossbeam", "rust-flume", "rust-flume-async", "rust-chan", "rust-std"]


def test_clojure_racket_family_studies_its_three_targets() -> None:
    plan = report.StudyPlan(family="clojure-racket", targets=("racket",))
    assert [t.name for t in plan.chosen_targets()] == ["racket"]
    everything = report.StudyPlan(family="clojure-racket").chosen_targets()
    assert [t.name for t in everything] == ["clojure-go", "clojure-thread", "racket"]


def test_each_family_names_its_campaigns_apart() -> None:
    rust = report.StudyPlan().campaign_stem("racket", "8.7", "A")
    ours = report.StudyPlan(family="clojure-racket").campaign_stem("racket", "8.7", "A")
    assert rust == "rust report: racket 8.7 heuristic A ("
    assert ours == "clojure-racket report: racket 8.7 heuristic A ("


def test_rust_std_skips_the_heuristic_that_only_selects_and_the_one_that_repeats_a() -> None:
    plan = report.StudyPlan()
    assert report.expressible(plan, "rust-std") == "ABCF"
    assert report.expressible(plan, "rust-flume") == "ABCDEF"


def test_programs_are_split_over_the_heuristics_rounding_up() -> None:
    plan = report.StudyPlan(programs=20_000, heuristics="ABCDEF")
    assert plan.per_heuristic() == 3334
    assert "rust-chan 0.1.23 heuristic C (3334 programs asked)" in plan.campaign_name(
        "rust-chan", "0.1.23", "C"
    )


def test_a_target_without_a_heuristic_shares_its_programs_over_the_others() -> None:
    # rust-std cannot express E (only selects), and its A is D (A without select): its
    # four campaigns ask for 20,000 in all.
    plan = report.StudyPlan(programs=20_000, heuristics="ABCDEF")
    assert report.expressible(plan, "rust-std") == "ABCF"
    assert plan.per_heuristic("rust-std") == 5000
    assert plan.campaign_name("rust-std", "1.95.0", "A").endswith("(5000 programs asked)")
    assert plan.per_heuristic("rust-flume") == 3334
    assert report.expressible(report.StudyPlan(heuristics="DA"), "rust-std") == "D"


def test_another_seed_is_another_round_with_the_same_stem() -> None:
    first = report.StudyPlan().campaign_name("rust-chan", "0.1.1", "A")
    second = report.StudyPlan(seed=10**6).campaign_name("rust-chan", "0.1.1", "A")
    assert first != second and second.endswith("(3334 programs asked, seeds 1000000…)")
    stem = report.StudyPlan().campaign_stem("rust-chan", "0.1.1", "A")
    assert first.startswith(stem) and second.startswith(stem)
    # One release's stem is not the start of another's (0.1.1 / 0.1.10).
    assert not report.StudyPlan().campaign_name("rust-chan", "0.1.10", "A").startswith(stem)


def test_bisection_summary_names_first_bad_last_bad_and_first_good() -> None:
    bisection = {
        "last_bad": "0.11.1",
        "first_good": None,
        "results": [
            {"version": "0.1.0", "runs": 5, "bad_runs": 0, "errors": 5},
            {"version": "0.10.14", "runs": 5, "bad_runs": 0, "errors": 0},
            {"version": "0.11.0", "runs": 1, "bad_runs": 1, "errors": 0},
            {"version": "0.11.1", "runs": 2, "bad_runs": 1, "errors": 0},
        ],
    }
    summary = report.bisection_summary(bisection)
    assert summary is not None
    assert (summary["first_bad"], summary["last_bad"]) == ("0.11.0", "0.11.1")
    assert summary["good"] == ["0.10.14"] and summary["errors"] == ["0.1.0"]
    assert report.bisection_summary(None) is None


def _heuristic_row(h: str, revealing: int) -> dict:
    return {
        "campaigns": [{"id": 7, "url": "/campaigns/7/"}, {"id": 9, "url": "/campaigns/9/"}],
        "heuristic": h, "asked": 100, "programs": 80, "errors": 0,
        "revealing": revealing, "crashes": 0, "hangs": revealing, "signatures": 1,
        "unconfirmed": 2,
        "percent": revealing * 1.25, "seconds": 60.0, "minutes": 1.0, "per_minute": 80.0,
        "first_finding_s": 3.5 if revealing else None, "stopped_at_budget": True,
    }  # fmt: skip


def test_markdown_shows_table2_findings_bisection_and_bug_reports() -> None:
    rows = [_heuristic_row("A", 4), _heuristic_row("B", 0)]
    finding = {
        "id": 3, "url": "/findings/3/", "outcome": "timeout", "is_hang": True, "title": "hang",
        "signature": "rust-flume | hang | flume::select::Selector::wait_inner", "programs": 4,
        "confirmed_hangs": 4, "shortest": "abcdefghijkl", "shortest_url": "/p/abcdefghijkl",
        "bisection": {"last_bad": "0.12.0", "first_good": None, "results": [
            {"version": "0.10.14", "runs": 5, "bad_runs": 0, "errors": 0},
            {"version": "0.12.0", "runs": 1, "bad_runs": 1, "errors": 0},
        ]},
    }  # fmt: skip
    data = {
        "generated_at": "2026-11-23T12:00:00+00:00",
        "plan": report.plan_dict(report.StudyPlan()),
        "targets": {
            "rust-flume": {
                "title": "Rust (flume)", "capabilities": "select with send cases",
                "known_bugs": ["a known one"], "installed": ["0.10.14", "0.12.0"],
                "newest": "0.12.0",
                "releases": {"0.12.0": {
                    "heuristics": rows, "total": report.release_figures(rows),
                    "findings": [finding, {
                        **finding, "id": 4, "url": "/findings/4/", "programs": 1,
                        "confirmed_hangs": 0, "bisection": None,
                    }],
                }},
            }
        },
        "bug_reports": [{
            "finding": 3, "target": "rust-flume", "version": "0.12.0",
            "program": "abcdefghijkl", "directory": "rust-bugs/rust-flume-3", "runs": 40,
            "bad_runs": 9, "errors": 0, "signatures": [],
        }],
    }  # fmt: skip
    text = render_to_string("reports/release_study.md", report.markdown_context(data))
    assert text.startswith("# Rust channel crates: what chanfuzz found")
    assert "`python manage.py rust_report`" in text and "cargo `--release`" in text
    assert "| `rust-flume` | 0.12.0 (newest) | 160 (200) |" in text
    # Distinct findings: the confirmed one only; 4 unconfirmed hangs; the first after 3.5 s.
    assert "| **4** | 2.50 | 1 | 4 | 3.5 s | yes |" in text
    assert "| A | 80 (100) | **4** | 5.00 | 0 | 4 | 1 | 2 | 0 |" in text
    assert "| [#7](/campaigns/7/) [#9](/campaigns/9/) |" in text
    # The signature's pipes would split the table's row: shown with dots.
    shown = "`rust-flume · hang · flume::select::Selector::wait_inner`"
    assert f"[#3](/findings/3/) | hang | 4 | {shown} |" in text
    assert "[#4](/findings/4/) | hang, not confirmed (its re-run ended) | 1 |" in text
    assert "| [#3](/findings/3/) | 0.12.0 | 0.12.0 | 0.12.0 | — | 1 of 2: 0.12.0 |" in text
    assert "| 9 of 40 | [rust-bugs/rust-flume-3](rust-bugs/rust-flume-3/README.md) |" in text


def test_markdown_says_whether_the_bugs_step_found_nothing_or_did_not_run() -> None:
    data = {"generated_at": "2026-11-27T00:00:00+00:00", "targets": {}}
    data["plan"] = report.plan_dict(report.StudyPlan(family="clojure-racket"))
    not_run = render_to_string("reports/release_study.md", report.markdown_context(data))
    assert not_run.startswith("# Clojure core.async and Racket channels: what chanfuzz found")
    assert "None yet (step `bugs`)." in not_run
    found_nothing = {**data, "bug_reports": []}
    text = render_to_string("reports/release_study.md", report.markdown_context(found_nothing))
    assert "None: no crash or confirmed hang on a newest release." in text
    assert "None yet" not in text


def test_a_target_of_one_release_says_so_in_the_summary() -> None:
    rows = [_heuristic_row("A", 0)]
    release = {"heuristics": rows, "total": report.release_figures(rows), "findings": []}
    entry = {"title": "Racket", "capabilities": "", "known_bugs": [], "installed": ["8.7"],
             "newest": "8.7", "releases": {"8.7": release}}  # fmt: skip
    data = {
        "generated_at": "2026-11-27T00:00:00+00:00",
        "plan": report.plan_dict(report.StudyPlan(family="clojure-racket")),
        # Studied before clojure-thread, shown after it: the registry's order.
        "targets": {"racket": entry, "clojure-thread": {**entry, "installed": ["0.3.443", "8.7"]}},
    }
    text = render_to_string("reports/release_study.md", report.markdown_context(data))
    assert "| `racket` | 8.7 (the only release installed) | 80 (100) |" in text
    assert "| `clojure-thread` | 8.7 (newest) |" in text
    assert text.index("`clojure-thread` | 8.7") < text.index("`racket` | 8.7")


def _finding(pk: int, *, confirmed: bool = True, bisection: dict | None = None) -> dict:
    return {
        "id": pk, "url": f"/findings/{pk}/", "outcome": "timeout", "is_hang": True,
        "title": "hang", "signature": f"rust-chan | hang | chan::wait{pk}", "programs": 1,
        "confirmed_hangs": 1 if confirmed else 0, "shortest": f"p{pk:011d}",
        "shortest_url": f"/p/p{pk:011d}", "bisection": bisection,
    }  # fmt: skip


def _chan_entry(newest: list[dict], oldest: list[dict]) -> dict:
    rows = [_heuristic_row("A", 1)]
    figures = {"heuristics": rows, "total": report.release_figures(rows)}
    return {
        "title": "Rust (chan)", "capabilities": "", "known_bugs": [],
        "installed": ["0.1.10", "0.1.12", "0.1.13", "0.1.23"],
        "newest": "0.1.23", "oldest": "0.1.10",
        "releases": {
            "0.1.23": {**figures, "findings": newest},
            "0.1.10": {**figures, "findings": oldest},
        },
    }  # fmt: skip


def test_bisection_adds_confirmed_findings_seen_only_on_the_oldest_release() -> None:
    # 1 is on both releases; 2 and 6 are unconfirmed hangs; 5 and 7 only on the oldest.
    newest = [_finding(1), _finding(2, confirmed=False)]
    oldest = [_finding(1), _finding(5), _finding(6, confirmed=False), _finding(7)]
    entry = _chan_entry(newest, oldest)
    assert [f["id"] for f in report.findings_to_bisect(entry, 1)] == [1, 5]
    assert [f["id"] for f in report.findings_to_bisect(entry, 2)] == [1, 5, 7]
    # Bug reports are made of the newest release's findings only.
    assert [f["id"] for f in report.newest_findings(entry, 2)] == [1]
    one_release = {**entry, "oldest": None}
    assert [f["id"] for f in report.findings_to_bisect(one_release, 2)] == [1]


def test_markdown_shows_a_release_that_fixed_a_finding_of_the_oldest() -> None:
    results = [
        {"version": "0.1.10", "runs": 1, "bad_runs": 1, "errors": 0},
        {"version": "0.1.12", "runs": 2, "bad_runs": 1, "errors": 0},
        {"version": "0.1.13", "runs": 5, "bad_runs": 0, "errors": 0},
        {"version": "0.1.23", "runs": 5, "bad_runs": 0, "errors": 0},
    ]
    fixed = {"last_bad": "0.1.12", "first_good": "0.1.13", "results": results}
    still = {"last_bad": "0.1.23", "first_good": None, "results": [
        {**r, "bad_runs": 1} for r in results
    ]}  # fmt: skip
    both = _finding(1, bisection=still)
    entry = _chan_entry([both], [both, _finding(5, bisection=fixed)])
    data = {
        "generated_at": "2026-11-27T00:00:00+00:00",
        "plan": report.plan_dict(report.StudyPlan()),
        "targets": {"rust-chan": entry},
    }
    text = render_to_string("reports/release_study.md", report.markdown_context(data))
    newest_row = "| [#1](/findings/1/) | 0.1.23 | 0.1.10 | 0.1.23 | — | 4 of 4:"
    fixed_row = (
        "| [#5](/findings/5/) | 0.1.10 | 0.1.10 | 0.1.12 | 0.1.13 | 2 of 4: 0.1.10, 0.1.12 |"
    )
    assert newest_row in text and fixed_row in text
    assert text.index(newest_row) < text.index(fixed_row)
    assert text.count("| [#1](/findings/1/) | 0.1.") == 1  # once, though on both releases


def test_a_mutant_of_a_release_is_no_release(monkeypatch) -> None:  # noqa: ANN001
    # A mutant (runners.mutation) shares its base's version: bisecting over it would run
    # the base's version again, once a mutant.
    old, new = fake_toolchain("rust-flume", "0.10.14"), fake_toolchain("rust-flume", "0.12.0")
    mutant = dataclasses.replace(new, id="rust-flume-0.12.0-mutant-lib-1", origin="mutant")
    monkeypatch.setattr(report, "installed_toolchains", lambda _target: [mutant, new, old])
    assert report.releases("rust-flume") == [old, new]
    assert report.releases("rust-flume", only=("0.12.0",)) == [new]

"""The study's campaigns are found again by name, so the name holds every setting that
makes another experiment: size, seed, the value oracle, schedule perturbation."""

from __future__ import annotations

import pytest

from generator.render import _go_quiet, rust
from runners.mutation_study import report
from tests.runners.conftest import require_toolchain

pytestmark = pytest.mark.django_db

# Go programs end with the quiet-channel check: the campaigns' names say which version.
GO_QUIET = f"quiet checks {_go_quiet.quiet_check_id()}"


def test_a_campaign_with_schedule_perturbation_is_an_experiment_of_its_own() -> None:
    go = require_toolchain("go")
    plain = report._campaign("go base A", [go], "A", report.MutationPlan(programs=3))
    perturbed = report._campaign(
        "go base A", [go], "A", report.MutationPlan(programs=3, values=False, pct_depth=4)
    )
    assert plain.name == f"go base A (3 programs, seed 1, {GO_QUIET})" and plain.pct_depth is None
    assert perturbed.name == f"go base A (3 programs, seed 1, no values, PCT depth 4, {GO_QUIET})"
    assert (perturbed.pct_depth, perturbed.value_oracle) == (4, False)
    again = report._campaign(
        "go base A", [go], "A", report.MutationPlan(programs=3, values=False, pct_depth=4)
    )
    assert again.pk == perturbed.pk != plain.pk


def test_a_campaign_of_buffered_programs_is_an_experiment_of_its_own() -> None:
    go = require_toolchain("go")
    plain = report._campaign("go base B", [go], "B", report.MutationPlan(programs=3))
    buffered = report._campaign(
        "go base B", [go], "B", report.MutationPlan(programs=3, buffered=True)
    )
    # Go writes selects with a default: its buffered programs have some, unlike those of
    # the campaigns made before defaults existed, which the name tells apart.
    assert buffered.name == f"go base B (3 programs, seed 1, buffered and defaults, {GO_QUIET})"
    assert buffered.pk != plain.pk
    assert buffered.settings["buffered"] is True and "buffered" not in plain.settings
    assert buffered.capabilities["select_default"] is True


def test_a_campaign_with_another_version_of_the_quiet_check_is_another_experiment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    crossbeam = require_toolchain("rust-crossbeam")
    plan = report.MutationPlan(programs=3)
    first = report._campaign("crossbeam base A", [crossbeam], "A", plan)
    assert first.name.endswith(f", quiet checks {rust.quiet_check_id()})")
    # The check's code changes: its programs are others, and so is the campaign.
    monkeypatch.setattr(rust, "_SAME", rust._SAME + "\n// another check")
    second = report._campaign("crossbeam base A", [crossbeam], "A", plan)
    assert second.pk != first.pk and second.name != first.name


def test_a_go_campaign_with_another_version_of_the_quiet_check_is_another_experiment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    go = require_toolchain("go")
    plan = report.MutationPlan(programs=3)
    first = report._campaign("go base C", [go], "C", plan)
    monkeypatch.setattr(_go_quiet, "_QUIET", _go_quiet._QUIET + "\n// another check")
    second = report._campaign("go base C", [go], "C", plan)
    assert second.pk != first.pk and second.name != first.name

"""The study's campaigns are found again by name, so the name holds every setting that
makes another experiment: size, seed, the value oracle, schedule perturbation."""

from __future__ import annotations

import pytest

from generator.render import _go_quiet, _rust_quiet, quiet_check
from runners.mutation_study import report
from runners.targets import get_target
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


# A target, and the module and name of its check's code.
CHECKS = {"rust-crossbeam": (_rust_quiet, "_SAME"), "go": (_go_quiet, "_QUIET")}


@pytest.mark.parametrize("lang", sorted(CHECKS))
def test_a_campaign_with_another_version_of_the_quiet_check_is_another_experiment(
    lang: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    toolchain = require_toolchain(lang)
    plan = report.MutationPlan(programs=3)
    first = report._campaign(f"{lang} base A", [toolchain], "A", plan)
    target = get_target(lang)
    version = quiet_check(target.renderer, **target.renderer_options)
    assert first.name.endswith(f", quiet checks {version})")
    # The check's code changes: its programs are others, and so is the campaign.
    module, name = CHECKS[lang]
    monkeypatch.setattr(module, name, getattr(module, name) + "\n// another check")
    second = report._campaign(f"{lang} base A", [toolchain], "A", plan)
    assert second.pk != first.pk and second.name != first.name

"""A mutant is killed only by a finding of its own: one the unmutated base shows (the same
signature in the control, the control's run of the same program failing, or the program
failing when run again on the base) kills nothing, and is counted apart."""

from __future__ import annotations

import pytest

from runners.campaigns import programs
from runners.campaigns.models import Campaign, Execution
from runners.mutation_study import report
from tests.runners.conftest import require_toolchain

pytestmark = pytest.mark.django_db

PLAN = report.MutationPlan(programs=3, timeout_s=10.0, hang_quiet_s=1.0, repetitions=1)


def _finding(campaign: Campaign, effect: str, index: int, outcome: str, signature: str):  # noqa: ANN202
    program = programs.store_program(programs.build_from_effect(effect, index))
    return Execution.objects.create(
        campaign=campaign, target=campaign.targets.get(), index=index, program=program,
        outcome=outcome, signature=signature, hang_confirmed=outcome == "timeout" or None,
    )  # fmt: skip


def _campaigns(name: str) -> tuple[Campaign, Campaign]:
    go = require_toolchain("go")
    control = report._campaign(f"{name} control", [go], "A", PLAN)
    mutant = report._campaign(f"{name} mutant", [go], "A", PLAN)
    return control, mutant


def test_only_a_finding_the_base_does_not_show_kills() -> None:
    control_campaign, campaign = _campaigns("own")
    _finding(control_campaign, "Get(c1)", 0, "crash", "deadlock in chanrecv")
    _finding(control_campaign, "Get(c2)", 1, "timeout", "hang in selectgo")
    # No base to run on: only what the control campaigns saw counts against a finding.
    control = report.Control([control_campaign], {}, PLAN)
    seen_signature = _finding(campaign, "Get(c3)", 0, "crash", "deadlock in chanrecv")
    same_program = _finding(campaign, "Get(c2)", 1, "crash", "nil map write")
    own = _finding(campaign, "Get(c4)", 2, "wrong_value", "received but never sent")
    assert control.signatures == {"deadlock in chanrecv", "hang in selectgo"}
    assert control.base_shows(seen_signature) and control.base_shows(same_program)
    assert not control.base_shows(own)

    result = report.heuristic_result(campaign, control)
    assert (result.killed, result.outcome, result.programs) == (True, "wrong_value", 3)
    assert (result.base_findings, result.target) == (2, "go")


def test_without_a_finding_of_its_own_the_mutant_survives_and_the_bases_are_counted() -> None:
    control_campaign, campaign = _campaigns("none")
    _finding(control_campaign, "Get(c1)", 0, "crash", "deadlock in chanrecv")
    control = report.Control([control_campaign], {}, PLAN)
    _finding(campaign, "Get(c5)", 0, "crash", "deadlock in chanrecv")
    # An unconfirmed hang is no finding at all: neither a kill nor the base's.
    Execution.objects.create(
        campaign=campaign, target=campaign.targets.get(), index=1, outcome="timeout",
        program=programs.store_program(programs.build_from_effect("Get(c6)", 1)),
        hang_confirmed=False,
    )  # fmt: skip
    result = report.heuristic_result(campaign, control)
    assert (result.killed, result.base_findings, result.programs) == (False, 1, 2)


@pytest.mark.slow
def test_a_program_that_fails_when_run_again_on_the_base_is_the_bases() -> None:
    go = require_toolchain("go")
    control_campaign, campaign = _campaigns("reruns")
    control = report.Control([control_campaign], {"go": go}, PLAN)
    # Not in the control, but Go itself says every goroutine is asleep: the base's.
    stuck = _finding(campaign, "Get(c1)", 0, "crash", "all goroutines are asleep")
    # A program that terminates on the base: the finding is the mutant's.
    fine = _finding(campaign, "Spawn(Put(c1)) ; Get(c1)", 1, "crash", "nil pointer")
    assert control.base_shows(stuck)
    assert not control.base_shows(fine)
    assert control.judged == {stuck.pk: True, fine.pk: False}

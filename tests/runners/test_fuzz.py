"""runners.fuzz: a queue-less run, its summary, and stopping at the first finding."""

from __future__ import annotations

import pytest

from generator.settings import settings_for
from runners.execute import Triage, target_for
from runners.fuzz import fuzz
from runners.sandbox import Limits, get_sandbox
from runners.verdicts import Outcome
from tests.runners.conftest import require_toolchain


@pytest.mark.slow
def test_stop_at_first_ends_the_run_at_the_first_finding() -> None:
    # A limit far below a Go program's start-up makes every run a timeout, so
    # the first program is a finding for sure.
    target = target_for(require_toolchain("go"), repetitions=10)
    summary = fuzz(
        target=target,
        settings=settings_for("A"),
        count=20,
        seed=0,
        sandbox=get_sandbox("local"),
        limits=Limits(timeout_s=0.001),
        batch_size=10,
        triage=Triage(retries=0),
        stop_at_first=True,
        use_cache=False,
    )
    assert summary.stopped_early
    assert summary.count == 1
    assert summary.first_finding_programs == 1
    assert summary.outcomes[Outcome.TIMEOUT] == 1
    assert summary.first_finding_s is not None
    assert 0 < summary.first_finding_s <= summary.seconds


@pytest.mark.slow
def test_without_findings_the_first_finding_is_unset() -> None:
    target = target_for(require_toolchain("go"), repetitions=2)
    summary = fuzz(
        target=target,
        settings=settings_for("A"),
        count=5,
        seed=0,
        sandbox=get_sandbox("local"),
        limits=Limits(timeout_s=20),
        stop_at_first=True,
    )
    assert summary.count == 5
    assert not summary.stopped_early
    assert summary.first_finding_s is None and summary.first_finding_programs is None


@pytest.mark.slow
def test_stop_when_ends_the_run_at_the_result_it_accepts() -> None:
    target = target_for(require_toolchain("go"), repetitions=2)
    summary = fuzz(
        target=target,
        settings=settings_for("A"),
        count=10,
        seed=40,
        sandbox=get_sandbox("local"),
        limits=Limits(timeout_s=20),
        batch_size=5,
        stop_when=lambda generated, _execution: generated.seed == 46,
    )
    assert summary.stopped_early
    assert summary.count == 7  # seeds 40 … 46, the second batch cut short
    assert summary.first_finding_s is None

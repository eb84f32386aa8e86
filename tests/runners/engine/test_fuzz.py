"""runners.engine.fuzz: a queue-less run, its summary, and stopping at the first finding."""

from __future__ import annotations

import pytest

from generator.settings import settings_for
from runners.engine.fuzz import fuzz
from runners.engine.run_alone import Triage
from runners.engine.run_target import target_for
from runners.engine.sandbox import Limits, get_sandbox
from runners.engine.verdicts import Outcome
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
    # The batch the stop cut short was compiled: its compile counts (it once read 0.0 s).
    assert summary.compile_s > 0


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


@pytest.mark.slow
def test_batches_under_way_at_once_give_the_same_verdicts() -> None:
    target = target_for(require_toolchain("go"), repetitions=2)

    def run(jobs: int) -> tuple[dict[int, Outcome], object]:
        verdicts: dict[int, Outcome] = {}
        summary = fuzz(
            target=target,
            settings=settings_for("F"),
            count=24,
            seed=300,
            sandbox=get_sandbox("local"),
            limits=Limits(timeout_s=20),
            batch_size=4,
            on_result=lambda g, e: verdicts.__setitem__(g.seed, e.outcome),
            jobs=jobs,
        )
        return verdicts, summary

    one, one_summary = run(1)
    three, three_summary = run(3)
    assert list(one) == list(range(300, 324))  # one job: in seed order
    assert three == one  # every program once, the same verdict
    assert three_summary.count == one_summary.count == 24
    assert three_summary.outcomes == one_summary.outcomes


@pytest.mark.slow
def test_a_stop_with_batches_under_way_records_nothing_after_it() -> None:
    target = target_for(require_toolchain("go"), repetitions=2)
    seen: list[int] = []
    summary = fuzz(
        target=target,
        settings=settings_for("A"),
        count=40,
        seed=40,
        sandbox=get_sandbox("local"),
        limits=Limits(timeout_s=20),
        batch_size=5,
        on_result=lambda g, _e: seen.append(g.seed),
        stop_when=lambda generated, _execution: generated.seed == 47,
        jobs=2,
    )
    assert summary.stopped_early
    assert seen[-1] == 47 and summary.count == len(seen) < 40
    assert summary.seconds > 0


def test_jobs_below_one_are_refused() -> None:
    with pytest.raises(ValueError, match="jobs must be from 1 to 64, not 0"):
        fuzz(
            target=None,  # type: ignore[arg-type]
            settings=settings_for("A"),
            count=1,
            seed=0,
            sandbox=None,  # type: ignore[arg-type]
            limits=Limits(),
            jobs=0,
        )


class _BrokenSandbox:
    """A sandbox whose engine went away: every run raises."""

    name = "broken"

    def run(self, *_args: object, **_kwargs: object) -> None:
        raise RuntimeError("the sandbox went away")


@pytest.mark.slow
def test_an_error_in_a_batch_ends_the_run_with_that_error() -> None:
    target = target_for(require_toolchain("go"), repetitions=2)
    with pytest.raises(RuntimeError, match="the sandbox went away"):
        fuzz(
            target=target,
            settings=settings_for("A"),
            count=40,
            seed=0,
            sandbox=_BrokenSandbox(),  # type: ignore[arg-type]
            limits=Limits(timeout_s=20),
            batch_size=5,
            jobs=3,
        )


@pytest.mark.slow
def test_without_a_batch_size_the_measured_costs_choose_it() -> None:
    target = target_for(require_toolchain("go"), repetitions=2)
    summary = fuzz(
        target=target,
        settings=settings_for("A"),
        count=200,
        seed=0,
        sandbox=get_sandbox("local"),
        limits=Limits(timeout_s=20),
        use_cache=False,
    )
    assert summary.count == 200 and summary.outcomes[Outcome.TERMINATED] == 200
    sizes = summary.batch_sizes
    assert sizes[:2] == [25, 50] and sum(sizes) == 200
    # From the third on, what the first two cost decides: a Go compile is quick, a run
    # quicker, so batches stay between the bounds; the last takes what is left.
    assert all(5 <= size <= 500 for size in sizes[2:-1]), sizes
    assert 1 <= sizes[-1] <= 500, sizes

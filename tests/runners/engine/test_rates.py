"""Exact binomial bounds, and the sequential test a reducer keeps candidates by."""

from __future__ import annotations

import math
import random

import pytest

from runners.engine.rates import Decision, RateTest, lower_bound, upper_bound


def test_bounds_of_all_or_nothing_have_closed_forms() -> None:
    # k = n: P(X = n) = p^n = α at the lower bound; k = 0 mirrors it.
    assert lower_bound(8, 8, 0.05) == pytest.approx(0.05 ** (1 / 8), abs=1e-9)
    assert upper_bound(0, 8, 0.05) == pytest.approx(1 - 0.05 ** (1 / 8), abs=1e-9)
    assert lower_bound(0, 8, 0.05) == 0.0 and upper_bound(8, 8, 0.05) == 1.0


def test_bounds_match_the_binomial_tail_they_are_defined_by() -> None:
    k, n, alpha = 3, 20, 0.05
    lo, hi = lower_bound(k, n, alpha), upper_bound(k, n, alpha)

    def at_least(p: float) -> float:
        return sum(math.comb(n, i) * p**i * (1 - p) ** (n - i) for i in range(k, n + 1))

    assert at_least(lo) == pytest.approx(alpha, abs=1e-6)
    assert 1 - at_least(hi) + math.comb(n, k) * hi**k * (1 - hi) ** (n - k) == pytest.approx(
        alpha, abs=1e-6
    )
    assert lo < k / n < hi


def test_a_failure_in_every_run_keeps_at_the_first_look() -> None:
    test = RateTest(threshold=0.5)
    assert test.decide(8, 8) is Decision.KEEPS
    # Known before the look: 8 failures of the 8 asked for.
    assert test.decide(7, 7) is Decision.MORE


def test_a_candidate_that_never_fails_loses() -> None:
    assert RateTest(threshold=0.5).decide(0, 8) is Decision.LOSES
    # A low threshold cannot be ruled out in 32 runs: unsure, never kept.
    assert RateTest(threshold=0.02).decide(0, 32) is Decision.UNSURE


def test_a_rate_under_the_threshold_is_kept_no_more_often_than_alpha() -> None:
    # The promise behind "a flaky pass is never counted as reduced", checked by
    # simulation: a candidate failing at 60 % of the threshold is kept ≤ α of the time.
    test = RateTest(threshold=0.4, alpha=0.05)
    rng = random.Random(20261123)
    kept = 0
    trials = 4_000
    for _ in range(trials):
        failures = runs = 0
        while (decision := test.decide(failures, runs) if runs else Decision.MORE) is Decision.MORE:
            runs += 1
            failures += rng.random() < 0.24
        kept += decision is Decision.KEEPS
    assert kept / trials <= 0.05


def test_a_rate_well_above_the_threshold_is_mostly_kept() -> None:
    test = RateTest(threshold=0.25, alpha=0.05)
    rng = random.Random(7)
    kept = 0
    for _ in range(1_000):
        failures = runs = 0
        while (decision := test.decide(failures, runs) if runs else Decision.MORE) is Decision.MORE:
            runs += 1
            failures += rng.random() < 0.8
        kept += decision is Decision.KEEPS
    assert kept >= 950


def test_bad_settings_are_refused() -> None:
    with pytest.raises(ValueError, match="threshold"):
        RateTest(threshold=0)
    with pytest.raises(ValueError, match="checkpoints"):
        RateTest(threshold=0.5, checkpoints=(16, 8))

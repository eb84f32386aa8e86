"""Exact binomial bounds, and the sequential test a reducer keeps candidates by."""

from __future__ import annotations

import math
import random

import pytest

from runners.engine.rates import Decision, RateTest, lower_bound, upper_bound


@pytest.fixture(autouse=True)
def _fresh_bounds() -> None:
    # lower_bound keeps its answers (lru_cache): each test computes its own, so that a
    # test sees the code as it is now, not an answer an earlier test left (mutmut's
    # mutants run in processes forked after the whole suite ran once).
    lower_bound.cache_clear()


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


def test_bounds_at_the_edges_of_the_counts() -> None:
    assert upper_bound(8, 8, 0.05) == 1.0 and upper_bound(9, 8, 0.05) == 1.0
    assert upper_bound(7, 8, 0.05) < 1.0
    assert lower_bound(-1, 8, 0.05) == 0.0 and lower_bound(1, 8, 0.05) > 0.0
    # Exact to the bisection's last halving, not to a looser tolerance.
    assert lower_bound(1, 1, 0.05) == pytest.approx(0.05, abs=1e-15)
    assert lower_bound(2, 2, 0.25) == pytest.approx(0.5, abs=1e-15)


CHECKED = RateTest(threshold=0.3, alpha=0.05, checkpoints=(8, 16, 32))


def _every_count(test: RateTest) -> list[tuple[int, int]]:
    return [(f, r) for r in range(1, test.max_runs + 1) for f in range(r + 1)]


def test_at_a_checkpoint_the_decision_is_the_bounds_at_that_look() -> None:
    a = CHECKED.per_look_alpha
    assert a == pytest.approx(0.05 / 3)
    for failures, runs in _every_count(CHECKED):
        if runs not in CHECKED.checkpoints:
            continue
        if lower_bound(failures, runs, a) >= 0.3:
            expected = Decision.KEEPS
        elif upper_bound(failures, runs, a) < 0.3:
            expected = Decision.LOSES
        else:
            expected = Decision.UNSURE if runs == 32 else Decision.MORE
        assert CHECKED.decide(failures, runs) is expected, (failures, runs)


def test_between_checkpoints_only_an_answer_already_known_is_given() -> None:
    # KEEPS early only if the next look keeps it even when every run left passes;
    # UNSURE early only if the last look cannot keep it even when every run left fails.
    seen = set()
    for failures, runs in _every_count(CHECKED):
        if runs in CHECKED.checkpoints:
            continue
        decision = CHECKED.decide(failures, runs)
        seen.add(decision)
        look = CHECKED.next_checkpoint(runs)
        if decision is Decision.KEEPS:
            assert CHECKED.decide(failures, look) is Decision.KEEPS, (failures, runs)
        elif decision is Decision.UNSURE:
            assert look == 32
            assert CHECKED.decide(failures + look - runs, look) is not Decision.KEEPS
        else:
            assert decision is Decision.MORE, (failures, runs)
            # Either answer is still possible at the next look.
            assert CHECKED.decide(failures, look) is not Decision.KEEPS
            last = CHECKED.decide(failures + look - runs, look)
            assert last is Decision.KEEPS or (look < 32 and last is Decision.MORE)
    assert seen == {Decision.KEEPS, Decision.UNSURE, Decision.MORE}


def test_the_decisions_before_the_first_look() -> None:
    assert CHECKED.decide(0, 4) is Decision.MORE
    assert CHECKED.decide(7, 7) is Decision.KEEPS
    assert CHECKED.decide(2, 7) is Decision.MORE
    assert CHECKED.decide(10, 17) is Decision.MORE
    assert CHECKED.decide(1, 20) is Decision.UNSURE  # 13 failures of 32 at most: too few


def test_a_rate_exactly_at_the_threshold_counts_as_reaching_it() -> None:
    # "At least the threshold": a bound equal to it keeps (or does not lose).
    a = CHECKED.per_look_alpha
    at_look = lower_bound(3, 8, a)
    assert RateTest(threshold=at_look).decide(3, 8) is Decision.KEEPS
    assert RateTest(threshold=upper_bound(1, 8, a)).decide(1, 8) is Decision.MORE
    # Between the last two looks: 20 runs, 5 failures; 12 more failures reach the bound.
    assert RateTest(threshold=lower_bound(5 + 12, 32, a)).decide(5, 20) is Decision.MORE


def test_the_next_look_is_the_first_checkpoint_past_the_runs() -> None:
    looks = [CHECKED.next_checkpoint(runs) for runs in (0, 1, 7, 8, 9, 16, 31, 32, 40)]
    assert looks == [8, 8, 8, 16, 16, 32, 32, 32, 32]
    assert CHECKED.max_runs == 32


def test_a_test_says_what_it_promises() -> None:
    assert RateTest(threshold=0.9, alpha=0.1, checkpoints=(4, 9)).describe() == (
        "fails in at least 90 % of runs, with confidence 90 % (Clopper–Pearson, looks at 4, 9 runs)"
    )
    assert (
        RateTest(threshold=0.25, alpha=0.01)
        .describe()
        .startswith("fails in at least 25 % of runs, with confidence 99 %")
    )


def test_settings_at_their_limits_are_taken() -> None:
    assert RateTest(threshold=1.0).threshold == 1.0
    assert RateTest(threshold=1e-9, alpha=0.999, checkpoints=(1,)).max_runs == 1


def test_bad_settings_are_refused() -> None:
    for threshold in (0, -0.5, 1.0000001, 2):
        with pytest.raises(ValueError, match=f"^threshold must be in \\(0, 1\\], not {threshold}$"):
            RateTest(threshold=threshold)
    for alpha in (0, 1, 1.5, -0.1):
        with pytest.raises(ValueError, match=f"^alpha must be in \\(0, 1\\), not {alpha}$"):
            RateTest(threshold=0.5, alpha=alpha)
    for checkpoints in ((16, 8), (), (8, 8, 16)):
        with pytest.raises(ValueError, match="^checkpoints must be increasing run counts$"):
            RateTest(threshold=0.5, checkpoints=checkpoints)

"""bench/_stats.py: the interval the first-finding benches print beside a median."""

from __future__ import annotations

import importlib.util
import math
from pathlib import Path

import pytest

_SPEC = importlib.util.spec_from_file_location(
    "bench_stats", Path(__file__).resolve().parents[2] / "bench" / "_stats.py"
)
assert _SPEC is not None and _SPEC.loader is not None
stats = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(stats)


def test_twenty_trials_give_the_sixth_and_fifteenth():
    # The textbook pair for n = 20 at 95 %: P(B(20, 1/2) <= 5) = 0.0207 a side.
    low, high, covered = stats.median_interval([float(v) for v in range(20, 0, -1)])
    assert (low, high) == (6.0, 15.0)
    assert covered == pytest.approx(1 - 2 * 21700 / 2**20)


def test_a_hundred_trials_give_the_fortieth_and_sixty_first():
    low, high, covered = stats.median_interval([float(v) for v in range(1, 101)])
    assert (low, high) == (40.0, 61.0)
    assert covered >= 0.95


def test_five_trials_fall_short_and_say_how_far():
    low, high, covered = stats.median_interval([11.7, 49.3, 8.4, 3.7, 3.9])
    assert (low, high) == (3.7, 49.3)
    assert covered == pytest.approx(1 - 2 / 32)


def test_a_trial_without_a_finding_bounds_nothing_above():
    low, high, _ = stats.median_interval([1.0, 2.0, 5.0, math.inf, math.inf, math.inf])
    assert low == 1.0 and high == math.inf
    assert "none found" in stats.describe([1.0, math.inf, math.inf])


def test_describe_names_median_coverage_and_bounds():
    text = stats.describe([4.3, 7.7, 4.0])
    assert text == "median 4.3 s, 75 % interval 4.0–7.7 s"


def test_no_trials_is_an_error():
    with pytest.raises(ValueError):
        stats.median_interval([])

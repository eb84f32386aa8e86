"""How far a median of a few trials can be trusted: the benches that time a first finding
print one with each median, because a race decides those times and their trials spread
over a factor of ten or more (README, issue #18).

The interval is distribution-free: of n trials, the number below the true median is
binomial(n, 1/2), so the k-th smallest and k-th largest trial hold it with probability
1 − 2·P(B ≤ k − 1). No assumption about the times' shape is needed, which a race's
long tail would break.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence


def median_interval(
    values: Sequence[float], confidence: float = 0.95
) -> tuple[float, float, float]:
    """(low, high, coverage): the narrowest pair of order statistics, the k-th smallest and
    the k-th largest of `values`, that holds the median with at least `confidence`; where
    even the smallest and the largest do not (fewer than 6 trials for 95 %), those two
    with the coverage they have. A trial that found nothing counts as `math.inf`."""
    if not values:
        raise ValueError("no values")
    ordered = sorted(values)
    n = len(ordered)

    def coverage(k: int) -> float:
        below = sum(math.comb(n, i) for i in range(k)) / 2**n
        return 1.0 - 2.0 * below

    k = 1
    while k + 1 <= (n + 1) // 2 and coverage(k + 1) >= confidence:
        k += 1
    return ordered[k - 1], ordered[n - k], coverage(k)


def describe(values: Sequence[float], unit: str = "s") -> str:
    """'median 7.6 s, 95 % interval 6.2–14.4 s' (the coverage it has when lower)."""
    low, high, covered = median_interval(values)
    median = statistics.median(values)  # infinite where a no-finding trial is in the middle
    return (
        f"median {_shown(median, unit)}, {covered * 100:.3g} % interval "
        f"{_shown(low, '')}–{_shown(high, unit)}"
    )


def _shown(value: float, unit: str) -> str:
    return f"{value:.1f} {unit}".rstrip() if math.isfinite(value) else "none found"

"""How sure can we be of a failure rate seen in a few runs? Exact binomial bounds.

A race shows in some runs only, so "still fails" is a statement about a rate,
and a handful of runs gives a wide interval. The bounds here are the one-sided
Clopper–Pearson ones (exact: no normal approximation, which is wrong exactly
where it matters, at rates near 0 or 1 and small n). n stays small (tens of
runs), so the binomial sums are computed directly; scipy would be a heavy
dependency for two sums.

`RateTest` is a group-sequential test: runs are looked at only at a few
checkpoints (8, 16, 32, … runs), and the error α is split evenly over them
(Bonferroni), so that stopping early at a checkpoint keeps the stated
confidence.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from enum import StrEnum

DEFAULT_CHECKPOINTS = (8, 16, 32)
_BISECTIONS = 60  # halvings of [0, 1]: far below any rate that matters


def _at_least(k: int, n: int, p: float) -> float:
    """P(X ≥ k) for X ~ Binomial(n, p)."""
    return sum(math.comb(n, i) * p**i * (1 - p) ** (n - i) for i in range(k, n + 1))


@functools.lru_cache(maxsize=4096)  # a test asks for the same few (k, n) over and over
def lower_bound(k: int, n: int, alpha: float) -> float:
    """The one-sided (1 − α) Clopper–Pearson lower bound of a rate seen k times in n."""
    if k <= 0:
        return 0.0
    lo, hi = 0.0, 1.0
    for _ in range(_BISECTIONS):
        mid = (lo + hi) / 2
        # P(X ≥ k) grows with p: the bound is where it reaches α.
        if _at_least(k, n, mid) < alpha:
            lo = mid
        else:
            hi = mid
    return lo


def upper_bound(k: int, n: int, alpha: float) -> float:
    """The one-sided (1 − α) Clopper–Pearson upper bound of a rate seen k times in n."""
    if k >= n:
        return 1.0
    return 1.0 - lower_bound(n - k, n, alpha)


class Decision(StrEnum):
    KEEPS = "keeps"  # fails at least at the threshold, with the stated confidence
    LOSES = "loses"  # fails below the threshold, with the stated confidence
    UNSURE = "unsure"  # the last checkpoint came and neither was shown
    MORE = "more"  # not yet: run up to the next checkpoint


@dataclass(frozen=True)
class RateTest:
    """Does a candidate fail at a rate of at least `threshold`?

    `checkpoints`: the run counts at which the test looks (increasing); at each
    the confidence is 1 − α/len(checkpoints), so that the whole sequential test
    keeps its confidence of 1 − α. Only KEEPS may count as "still fails".
    """

    threshold: float
    alpha: float = 0.05
    checkpoints: tuple[int, ...] = DEFAULT_CHECKPOINTS

    def __post_init__(self) -> None:
        if not 0.0 < self.threshold <= 1.0:
            raise ValueError(f"threshold must be in (0, 1], not {self.threshold}")
        if not 0.0 < self.alpha < 1.0:
            raise ValueError(f"alpha must be in (0, 1), not {self.alpha}")
        if not self.checkpoints or list(self.checkpoints) != sorted(set(self.checkpoints)):
            raise ValueError("checkpoints must be increasing run counts")

    @property
    def per_look_alpha(self) -> float:
        return self.alpha / len(self.checkpoints)

    @property
    def max_runs(self) -> int:
        return self.checkpoints[-1]

    def next_checkpoint(self, runs: int) -> int:
        """How many runs the test wants in all before it looks again."""
        return next((c for c in self.checkpoints if c > runs), self.max_runs)

    def decide(self, failures: int, runs: int) -> Decision:
        """The decision after `failures` of `runs`; only at a checkpoint does it look.

        Between checkpoints it still answers KEEPS when the bound at the next
        checkpoint is met even if every remaining run passes, and LOSES when it
        cannot be met even if every remaining run fails: the answer is then known.
        """
        a = self.per_look_alpha
        target = runs if runs in self.checkpoints else self.next_checkpoint(runs)
        if lower_bound(failures, target, a) >= self.threshold:
            return Decision.KEEPS
        if runs in self.checkpoints and upper_bound(failures, runs, a) < self.threshold:
            return Decision.LOSES
        if runs >= self.max_runs:
            return Decision.UNSURE
        if lower_bound(failures + target - runs, target, a) < self.threshold and (
            target == self.max_runs
        ):
            # Even if every run left failed, the last look could not keep it.
            return Decision.UNSURE
        return Decision.MORE

    def describe(self) -> str:
        return (
            f"fails in at least {100 * self.threshold:.0f} % of runs, with confidence"
            f" {100 * (1 - self.alpha):.0f} % (Clopper–Pearson, looks at"
            f" {', '.join(map(str, self.checkpoints))} runs)"
        )


__all__ = ["DEFAULT_CHECKPOINTS", "Decision", "RateTest", "lower_bound", "upper_bound"]

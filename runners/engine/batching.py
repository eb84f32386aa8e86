"""How many programs a batch holds, chosen from what the batches so far cost (issue #18).

A batch pays its compile once, then one run per program (with its re-runs, if it
hung). With a compile of `fixed + n · per_program` seconds for n programs and `run`
seconds of runs per program, a program costs `fixed / n + per_program + run`: the larger
the batch, the less of the fixed cost each program carries, but the longer a first
finding, a stop or a Ctrl-C waits for the batch under way, and the more a batch that
does not compile costs to split. So the size is the smallest that makes the fixed cost
at most `share` of the rest (`n = fixed / (share · (per_program + run))`), within
[`low`, `high`] and within `max_batch_s` of expected time.

The first batch has `start` programs and the second twice as many, so that two sizes
tell the fixed cost from the per-program one (a least-squares line through every
batch's size and compile time); from the third on, the size follows the costs as they
are measured, so a target whose compile is slow (Crystal, Rust, Clojure) gets large
batches and one whose runs dominate (a runtime that hangs often) smaller ones.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from runners.engine.execute import Stages


@dataclass(frozen=True)
class BatchCost:
    """What one batch cost: its programs, its compile (renders and builds, splits of a
    batch that did not compile included) and its runs (every attempt)."""

    programs: int
    compile_s: float
    run_s: float


@dataclass
class BatchSizer:
    start: int = 25
    low: int = 5
    high: int = 500
    share: float = 0.1  # the fixed compile cost, at most this share of a program's cost
    max_batch_s: float = 300.0
    costs: list[BatchCost] = field(default_factory=list)
    given: list[int] = field(default_factory=list)  # the sizes asked so far

    def __post_init__(self) -> None:
        if not 1 <= self.low <= self.start <= self.high:
            raise ValueError(f"batch sizes must satisfy 1 ≤ low ≤ start ≤ high: {self}")

    def observe(self, programs: int, stages: Stages) -> None:
        """Learn from a finished batch (nothing from an empty one)."""
        if programs > 0:
            compile_s = stages.render_s + stages.compile_s
            self.costs.append(BatchCost(programs, compile_s, stages.run_s))

    def compile_line(self) -> tuple[float, float]:
        """(fixed, per-program) compile seconds: the least-squares line through the
        batches' sizes and compile times, neither below 0. With one size only, all of it
        is taken as fixed."""
        sizes = [c.programs for c in self.costs]
        times = [c.compile_s for c in self.costs]
        mean_n, mean_t = sum(sizes) / len(sizes), sum(times) / len(times)
        spread = sum((n - mean_n) ** 2 for n in sizes)
        if spread == 0:
            return mean_t, 0.0
        slope = sum((n - mean_n) * (t - mean_t) for n, t in zip(sizes, times, strict=True))
        per_program = max(slope / spread, 0.0)
        return max(mean_t - per_program * mean_n, 0.0), per_program

    def run_per_program(self) -> float:
        return sum(c.run_s for c in self.costs) / sum(c.programs for c in self.costs)

    def next_size(self) -> int:
        """The size of the next batch (batches under way at once ask before any has
        ended: the first gets `start`, the next twice as many, the others the last size
        until two sizes were measured)."""
        if len({c.programs for c in self.costs}) < 2:
            if not self.given:
                size = self.start
            elif len(set(self.given)) < 2:
                size = min(self.high, 2 * self.start)
            else:
                size = self.given[-1]
        else:
            size = self._sized()
        self.given.append(size)
        return size

    def _sized(self) -> int:
        fixed, per_program = self.compile_line()
        rest = per_program + self.run_per_program()
        if rest <= 0:
            return self.high
        size = fixed / (self.share * rest)
        # A batch's expected time: fixed + size · rest, kept within max_batch_s.
        size = min(size, max((self.max_batch_s - fixed) / rest, 1.0))
        return int(min(max(round(size), self.low), self.high))

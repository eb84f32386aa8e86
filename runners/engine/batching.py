"""How many programs a batch holds, chosen from what the batches so far cost (issue #18).

A batch pays its compile once, then one run per program (with its re-runs, if it
hung), and, where it cannot hand the wait to other work, a wait at its end for the hung
programs it set aside (about one hang's length: `waits`, fixed like the compile's
`fixed`). With a compile of `fixed + n · per_program` seconds for n programs and `run`
seconds of runs per program, a program costs `(fixed + waits) / n + per_program + run`:
the larger the batch, the less of the fixed costs each program carries, but the longer a first
finding, a stop or a Ctrl-C waits for the batch under way, and the more a batch that
does not compile costs to split. So the size is the smallest that makes the fixed costs
at most `share` of the rest (`n = (fixed + waits) / (share · (per_program + run))`), within
[`low`, `high`] and within `max_batch_s` of expected time.

The first batch has `start` programs and the second twice as many, so that two sizes
tell the fixed cost from the per-program one; from the third on, the size follows the
costs as they are measured, so a target whose compile is slow (Crystal, Rust, Clojure)
gets large batches and one whose runs dominate (a thousand repetitions) smaller ones.

The line through the batches' sizes and compile times is a Theil–Sen one (the median
of the slopes between batches whose sizes differ by half again or more, then the median
intercept), not least squares: on a busy machine one slow compile tilted the
least-squares line until its intercept fell below zero, the size fell to `low`, and
the batches that followed, all of about one size, left the slope to noise (`fuzz` on
rust-std gave batches of 9 to 29, where on rust-crossbeam a program of a batch of 100
compiles in 70 % of the time one of a batch of 25 does; bench/throughput.py showed Go
batches of 5 between ones of 400 and 110). For
the same reason a size shrinks at most by half from one batch to the next, and grows by
half where the line says a compile costs nothing fixed (every compile starts a process:
that is noise, mostly of the first two batches alone, and a size apart from the others
lets the line find the fixed cost).
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass, field
from itertools import combinations

from runners.engine.run_records import Stages

# Batches the compile line is drawn through besides the first three: robust, cheap to
# draw after every batch of a long run, and following a machine whose load changes.
WINDOW = 64


def with_rest(size: int, remaining: int) -> int:
    """A batch of `size` when `remaining` programs are left: all of them when the rest after
    it would be shorter than half a batch, which would pay a whole fixed cost for a few
    programs (bench/throughput.py's 600 programs of rust-std ended with a batch of 3: its
    compile cost a fifth of a second, as much as 20 programs of the batches before it)."""
    return remaining if remaining < size + size // 2 else size


def leading_groups(count: int, first: int) -> list[int]:
    """The sizes of the groups a batch of `count` programs compiles in, each compiled and
    run before the next (runners.engine.execute's `groups`): `first`, twice that, four
    times, …; a group takes the rest when it would leave fewer than half its size
    (`with_rest`), so `[count]` when `first` leaves no second group worth a compile."""
    sizes: list[int] = []
    size = max(first, 1)
    left = count
    while left > 0:
        taken = with_rest(size, left)
        sizes.append(taken)
        left -= taken
        size *= 2
    return sizes


def _apart(n: int, m: int) -> bool:
    """Whether two batch sizes differ enough for their compile times to give a slope."""
    return max(n, m) >= 1.5 * min(n, m)


@dataclass(frozen=True)
class BatchCost:
    """What one batch cost: its programs, its compile (renders and builds, splits of a
    batch that did not compile included), its runs (every attempt) and, of them, its
    wait at its end for programs set aside, waited or handed to other work
    (Stages.sizing_run_s, Stages.sizing_wait_s)."""

    programs: int
    compile_s: float
    run_s: float
    waited_s: float = 0.0


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
            self.costs.append(
                BatchCost(
                    programs, stages.sizing_compile_s, stages.sizing_run_s, stages.sizing_wait_s
                )
            )

    def compile_line(self) -> tuple[float, float]:
        """(fixed, per-program) compile seconds: the Theil–Sen line (module docstring)
        through the first batches and the last `WINDOW`, neither below 0. Sizes too close
        to give a slope count only when no others differ; with one size only, all of the
        compile is taken as fixed."""
        fixed, per_program, _ = self._line()
        return fixed, per_program

    def _line(self) -> tuple[float, float, float]:
        """compile_line's (fixed, per-program), and the median slope before it was held at
        0 or more."""
        costs = self.costs[:3] + self.costs[3:][-WINDOW:]  # the first ones hold the spread
        pairs = [(a, b) for a, b in combinations(costs, 2) if a.programs != b.programs]
        apart = [(a, b) for a, b in pairs if _apart(a.programs, b.programs)]
        if not pairs:
            return statistics.median(c.compile_s for c in costs), 0.0, 0.0
        slopes = [
            (b.compile_s - a.compile_s) / (b.programs - a.programs) for a, b in apart or pairs
        ]
        slope = statistics.median(slopes)
        per_program = max(slope, 0.0)
        fixed = statistics.median(c.compile_s - per_program * c.programs for c in costs)
        return max(fixed, 0.0), per_program, slope

    def run_per_program(self) -> float:
        """Seconds of runs a program costs, its batch's wait at its end left out: the
        median of the last `WINDOW` batches' costs a program. Not their mean: a program
        that spins holds its batch for its limit and its re-runs (chan, one in about 600:
        2 minutes on one core), and counted into every program's cost, it shrank the
        batches that followed to 7-13 programs, whose compiles then cost twice as much a
        program, for a cost no batch size changes."""
        recent = self.costs[-WINDOW:]
        return statistics.median((c.run_s - c.waited_s) / c.programs for c in recent)

    def wait_per_batch(self) -> float:
        """Seconds a batch waits at its end for programs set aside, or hands that wait to
        other work (Stages.sizing_wait_s), on average over the last `WINDOW` batches: one
        hang's length, whatever the batch's size, so a fixed cost like the compile's (on
        flume, which hangs in a sixth of its programs, ~2.5 s against ~0.1 s a program: a
        campaign's chunks fell to 3 programs as long as it counted per program, and
        `fuzz`'s batches to 40-120 while a handed wait counted for nothing)."""
        recent = self.costs[-WINDOW:]
        return sum(c.waited_s for c in recent) / len(recent)

    def _measured(self) -> bool:
        """Whether two sizes were measured: what the line needs to tell fixed costs apart."""
        return len({c.programs for c in self.costs}) >= 2

    def groups(self, count: int, *, kept_running: bool) -> list[int]:
        """The groups a batch of `count` programs compiles in, each run before the next
        compiles (runners.engine.execute's `groups`). Until two sizes were measured, where
        compiles go to a compiler kept running (`kept_running`: a compile's fixed cost is a
        round trip), from a single program, doubling (leading_groups); otherwise, and
        after, the batch at once: a cold compiler's start is a batch's fixed cost (0.2 s a
        Rust batch), and the sizes that follow are chosen to make it small.

        A race that shows in the first programs is thus met after a program's compile, not
        a batch's: on kotlinx.coroutines 0.19 a campaign's second chunk, 20 programs,
        compiled for 5 s before its first run (kotlinc 1.2.41 kept running: 0.25 s a
        program; README, issue #18). Only the first batches: a compile costs the Kotlin
        compiler kept running 0.1–0.2 s of its own, which later batches, grown to tens or
        hundreds of programs, would pay once a group. What the first batches cost, their
        groups' fixed costs included, is what the sizes after them are drawn from: more
        fixed cost than one compile has, so larger batches, not smaller."""
        if kept_running and not self._measured():
            return leading_groups(count, 1)
        return [count] if count else []

    def next_size(self) -> int:
        """The size of the next batch (batches under way at once ask before any has
        ended: the first gets `start`, the next twice as many, the others the last size
        until two sizes were measured)."""
        if not self._measured():
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

    def size_for(self, remaining: int) -> int:
        """The next batch's size when `remaining` programs are left to run: next_size(),
        the rest joined to it as `with_rest` says."""
        return with_rest(self.next_size(), remaining)

    def _sized(self) -> int:
        fixed, per_program, slope = self._line()
        rest = per_program + self.run_per_program()
        if rest <= 0:
            return self.high
        waits = self.wait_per_batch()
        # A batch's expected time: fixed + waits + size · rest, kept within max_batch_s.
        within = max((self.max_batch_s - fixed - waits) / rest, 1.0)
        if (fixed <= 0 or slope < 0) and self.given:
            # Every compile starts a process: no fixed cost at all is noise in the line
            # (two batches whose times wandered), not a reason to shrink. Nor to hold:
            # batches of the last size again would never move the line (bench/throughput.py
            # kept clojure-go at 50 for 1,000 programs), so the next is half as large again,
            # a size apart enough to give the line a slope of its own. A line that falls (a
            # larger batch compiled quicker: a compiler warming up) is noise as well, and
            # its fixed cost, near all of a batch's time, would have asked for the largest
            # batches at once.
            # The waits are measured apart from the line, and are no noise.
            size = min(max(self.given[-1] * 3 / 2, waits / (self.share * rest)), within)
            return int(min(max(round(size), self.given[-1], self.low), self.high))
        size = min((fixed + waits) / (self.share * rest), within)
        # Shrinking by half at most: a slow batch or a hang costs a few smaller batches,
        # not a fall to `low` (module docstring).
        size = max(size, self.given[-1] // 2) if self.given else size
        return int(min(max(round(size), self.low), self.high))

"""runners.engine.batching: each batch's size from the measured costs of those before it."""

from __future__ import annotations

import pytest

from runners.engine.batching import BatchCost, BatchSizer, leading_groups, with_rest
from runners.engine.run_records import Stages


def _feed(sizer: BatchSizer, fixed: float, per_program: float, run: float, batches: int = 3) -> int:
    """Give the sizer batches that cost exactly so; the size it asks next."""
    for _ in range(batches):
        n = sizer.next_size()
        sizer.observe(n, Stages(render_s=0.0, compile_s=fixed + per_program * n, run_s=run * n))
    return sizer.next_size()


def test_the_first_two_batches_tell_the_fixed_cost_from_the_per_program_one() -> None:
    sizer = BatchSizer(start=20)
    assert sizer.next_size() == 20
    sizer.observe(20, Stages(compile_s=1.0 + 0.01 * 20, run_s=20 * 0.05))
    assert sizer.next_size() == 40
    sizer.observe(40, Stages(compile_s=1.0 + 0.01 * 40, run_s=40 * 0.05))
    fixed, per_program = sizer.compile_line()
    assert fixed == pytest.approx(1.0) and per_program == pytest.approx(0.01)
    assert sizer.run_per_program() == pytest.approx(0.05)
    # fixed / (share · (per_program + run)) = 1 / (0.1 · 0.06)
    assert sizer.next_size() == round(1 / 0.006)


@pytest.mark.parametrize(
    ("fixed", "per_program", "run", "size"),
    [
        (0.5, 0.015, 0.04, 91),  # Go-like: a quick compile, quick runs
        (12.0, 0.02, 0.2, 500),  # Crystal-like: a slow compile: as large as allowed
        (1.0, 0.0, 5.0, 5),  # runs that hang: small batches, no smaller than low
        (100.0, 0.0, 1.0, 200),  # a batch kept within max_batch_s: (300 − 100) / 1
    ],
)
def test_the_size_follows_the_costs(fixed: float, per_program: float, run: float, size: int):
    assert _feed(BatchSizer(), fixed, per_program, run, batches=6) == size


def test_a_size_shrinks_by_half_at_most_from_one_batch_to_the_next() -> None:
    sizer = BatchSizer()
    assert _feed(sizer, 1.0, 0.0, 5.0, batches=5) == 5  # runs that hang: `low` it is
    assert sizer.given == [25, 50, 25, 12, 6, 5]
    assert _feed(BatchSizer(), 12.0, 0.02, 0.2, batches=2) == 500  # growing is not held


def test_a_line_with_no_fixed_cost_grows_the_size_by_half_until_it_finds_one() -> None:
    # 25 programs in 2.0 s and 50 in 3.0 s: 40 ms a program and 1 s fixed. Had the first
    # compile wandered down to 1.0 s, the line would meet zero before any program.
    sizer = BatchSizer()
    for n, compile_s in ((25, 2.0), (50, 3.0)):
        sizer.observe(n, Stages(compile_s=compile_s, run_s=0.003 * n))
        sizer.given.append(n)
    assert sizer.compile_line() == (pytest.approx(1.0), pytest.approx(0.04))
    sizer.costs[0] = BatchCost(25, 1.0, 0.075)
    assert sizer.compile_line()[0] == 0.0
    # Neither shrunk nor held (held, the line would stay as it is): half as large again
    # while the line finds no fixed cost, then sized from the 1 s it finds.
    sizes = []
    for _ in range(5):
        sizes.append(sizer.next_size())
        sizer.observe(sizes[-1], Stages(compile_s=1.0 + 0.04 * sizes[-1], run_s=0.003 * sizes[-1]))
    assert sizes == [75, 112, 168, 233, 233]  # 233 = 1 s / (0.1 · 43 ms)
    assert sizer.compile_line() == (pytest.approx(1.0), pytest.approx(0.04))


def test_a_falling_line_grows_the_size_by_half_instead_of_to_the_largest() -> None:
    # A compiler warming up: 25 programs in 4.0 s, then 50 in 3.0 s. Read as a line, that
    # is 3.5 s fixed and nothing a program, which asked for `high` at once.
    sizer = BatchSizer()
    for n, compile_s in ((25, 4.0), (50, 3.0)):
        sizer.observe(n, Stages(compile_s=compile_s, run_s=0.017 * n))
        sizer.given.append(n)
    assert sizer.compile_line()[1] == 0.0
    assert sizer.next_size() == 75


def test_a_compiler_started_for_a_batch_is_not_its_fixed_cost() -> None:
    sizer = BatchSizer()
    sizer.observe(25, Stages(compile_s=2.0 + 3.0, compiler_start_s=3.0, run_s=0.1))
    sizer.observe(50, Stages(compile_s=3.0, run_s=0.2))
    assert sizer.compile_line() == (pytest.approx(1.0), pytest.approx(0.04))


def test_growing_to_find_a_fixed_cost_stays_within_the_bounds() -> None:
    sizer = BatchSizer(high=60)
    for n in (25, 50):
        sizer.observe(n, Stages(compile_s=0.04 * n, run_s=0.003 * n))
        sizer.given.append(n)
    assert sizer.compile_line()[0] == 0.0
    assert sizer.next_size() == 60  # not 75: `high`
    slow = BatchSizer(max_batch_s=5.0)  # 540 ms a program: 50 take 27 s, 75 would take 40 s
    for n in (25, 50):
        slow.observe(n, Stages(compile_s=0.04 * n, run_s=0.5 * n))
        slow.given.append(n)
    assert slow.next_size() == 50  # 75 overruns 5 s more, and no fixed cost is no reason to shrink


def test_one_slow_compile_on_a_busy_machine_does_not_shrink_the_batches() -> None:
    # Go-like costs (0.17 s fixed, 8.4 ms a program, runs of 1 ms), then the batch of 400
    # compiles while another job holds the core: least squares put the line's intercept
    # below zero and the next batch at `low`.
    sizer = BatchSizer()
    for n, compile_s in ((25, 0.38), (50, 0.59), (400, 3.5 * 2.5), (150, 1.43), (160, 1.51)):
        assert sizer.next_size() > 0
        sizer.observe(n, Stages(compile_s=compile_s, run_s=0.001 * n))
    fixed, per_program = sizer.compile_line()
    assert per_program == pytest.approx(0.0084, rel=0.15)
    assert fixed == pytest.approx(0.17, rel=0.4)
    assert sizer.next_size() >= 100


def test_batches_of_about_one_size_leave_the_slope_to_those_far_apart() -> None:
    # After the first sizes, batches of 16 to 18 whose times wander by a fifth: slopes
    # between them would be noise; the first batches' sizes set the slope.
    sizer = BatchSizer()
    fixed, per_program = 0.4, 0.05
    wander = [1.2, 0.8, 1.1, 0.9, 1.2, 0.8]
    sizes = [25, 50, 500, *([16, 17, 18] * 10)]
    for k, n in enumerate(sizes):
        sizer.observe(n, Stages(compile_s=(fixed + per_program * n) * wander[k % 6], run_s=0.0))
    got_fixed, got_per_program = sizer.compile_line()
    # (Counting the slopes between 16, 17 and 18 too: 0.040 and 0.71.)
    assert got_per_program == pytest.approx(per_program, rel=0.15)
    assert got_fixed == pytest.approx(fixed, rel=0.3)


def test_render_time_counts_as_compile_time_and_empty_batches_teach_nothing() -> None:
    sizer = BatchSizer(start=10)
    sizer.observe(0, Stages(compile_s=99.0))
    assert sizer.costs == [] and sizer.next_size() == 10
    sizer.observe(10, Stages(render_s=0.5, compile_s=1.5, run_s=1.0))
    assert sizer.costs[0].compile_s == 2.0


def test_one_size_only_counts_all_compile_time_as_fixed() -> None:
    sizer = BatchSizer(start=10, high=10)
    sizer.observe(10, Stages(compile_s=2.0, run_s=1.0))
    sizer.observe(10, Stages(compile_s=4.0, run_s=1.0))
    assert sizer.compile_line() == (3.0, 0.0)
    # The second size cannot double past high: the formula answers, clamped.
    assert sizer.next_size() == 10


def test_bad_bounds_are_refused() -> None:
    with pytest.raises(ValueError, match="1 ≤ low ≤ start ≤ high"):
        BatchSizer(start=600, high=500)


def test_batches_asked_before_any_ends_are_start_then_twice_then_the_same() -> None:
    sizer = BatchSizer(start=25)
    assert [sizer.next_size() for _ in range(4)] == [25, 50, 50, 50]
    sizer.observe(25, Stages(compile_s=1.0, run_s=2.5))
    assert sizer.next_size() == 50  # one size measured: still waiting for the second
    sizer.observe(50, Stages(compile_s=1.5, run_s=5.0))
    # fixed 0.5 s, 0.02 s a program to compile, 0.1 s to run: 0.5 / (0.1 · 0.12)
    assert sizer.next_size() == round(0.5 / 0.012)


def test_a_batchs_wait_for_hung_programs_is_a_fixed_cost_not_a_per_program_one() -> None:
    # flume-like: a quick compile (0.3 s fixed), 0.1 s of runs a program, and a batch of
    # any size ends waiting ~2.5 s for the hung program it set aside last.
    def sized(waits_apart: bool) -> int:
        sizer = BatchSizer(start=10)
        for _ in range(4):
            n = sizer.next_size()
            run_s = 0.1 * n + 2.5
            waited_s = 2.5 if waits_apart else 0.0
            sizer.observe(n, Stages(compile_s=0.3 + 0.002 * n, run_s=run_s, waited_s=waited_s))
        return sizer.next_size()

    # Counted per program, the wait shrank the batches, which then waited the more often.
    assert sized(waits_apart=False) < 40
    # (0.3 + 2.5) / (0.1 · (0.002 + 0.1)) ≈ 275
    assert sized(waits_apart=True) == 275
    sizer = BatchSizer()
    sizer.observe(10, Stages(run_s=3.0, waited_s=2.0))
    sizer.observe(20, Stages(run_s=2.0))
    assert sizer.wait_per_batch() == pytest.approx(1.0)
    assert sizer.run_per_program() == pytest.approx(3.0 / 30)


def test_a_wait_handed_to_other_work_still_sizes_the_batches_as_one_waited() -> None:
    # fuzz starts its next batch while one only waits for its hung programs (Stages.handed_s,
    # not in run_s): sized without that wait, flume's batches fell to 40-120 programs and
    # ran a quarter slower than batches of 475 (Stages.sizing_wait_s).
    def sized(handed: bool) -> int:
        sizer = BatchSizer(start=10)
        for _ in range(4):
            n = sizer.next_size()
            stages = Stages(compile_s=0.3 + 0.002 * n, run_s=0.1 * n)
            if handed:
                stages.handed_s = 2.5
            else:
                stages.run_s += 2.5
                stages.waited_s = 2.5
            sizer.observe(n, stages)
        return sizer.next_size()

    assert sized(handed=True) == sized(handed=False) == 275
    sizer = BatchSizer()
    sizer.observe(10, Stages(run_s=1.0, handed_s=2.0))
    sizer.observe(20, Stages(run_s=2.0))
    assert sizer.wait_per_batch() == pytest.approx(1.0)
    assert sizer.run_per_program() == pytest.approx(0.1)


def test_one_program_that_spins_does_not_shrink_the_batches_after_it() -> None:
    # A spin holds its batch for its limit and re-runs: two minutes once in hundreds of
    # programs, a cost no batch size changes (BatchSizer.run_per_program).
    def sizes(spin: bool) -> list[int]:
        sizer = BatchSizer()
        for k in range(6):
            n = sizer.next_size()
            run_s = 0.01 * n + (120.0 if spin and k == 2 else 0.0)
            sizer.observe(n, Stages(compile_s=2.0 + 0.01 * n, run_s=run_s))
        return sizer.given

    assert sizes(spin=True) == sizes(spin=False)


def test_a_rest_shorter_than_half_a_batch_joins_the_batch_before_it() -> None:
    sizer = BatchSizer(start=20)
    assert sizer.size_for(600) == 20
    assert sizer.size_for(59) == 59  # 40 asked: a rest of 19 is less than half of 40
    assert sizer.given == [20, 40]
    assert BatchSizer(start=20).size_for(29) == 29
    # A rest of half a batch or more is a batch of its own.
    assert BatchSizer(start=20).size_for(30) == 20
    sizer = BatchSizer(start=20)
    sizer.size_for(600)
    assert sizer.size_for(61) == 40


@pytest.mark.parametrize(
    ("size", "remaining", "taken"),
    [(40, 100, 40), (40, 60, 40), (40, 59, 59), (40, 40, 40), (40, 12, 12), (1, 1, 1), (1, 2, 1)],
)
def test_with_rest_takes_a_rest_shorter_than_half_a_batch(size: int, remaining: int, taken: int):
    assert with_rest(size, remaining) == taken


@pytest.mark.parametrize(
    ("count", "first", "groups"),
    [
        (10, 1, [1, 2, 4, 3]),
        (20, 1, [1, 2, 4, 8, 5]),  # 8 leaves 5: not shorter than half of it
        (100, 13, [13, 26, 61]),  # 52 would leave 9: the last group takes them
        (5, 10, [5]),
        (1, 1, [1]),
        (0, 1, []),
    ],
)
def test_leading_groups_double_from_the_first(count: int, first: int, groups: list[int]) -> None:
    assert leading_groups(count, first) == groups
    assert sum(groups) == count


def test_the_first_batches_compile_in_groups_from_one_program_where_compiles_are_cheap():
    sizer = BatchSizer(start=10)
    assert sizer.groups(10, kept_running=True) == [1, 2, 4, 3]  # a round trip a compile
    assert sizer.groups(10, kept_running=False) == [10]  # a cold compiler's start
    sizer.observe(10, Stages(compile_s=2.6, run_s=2.5))
    assert sizer.groups(20, kept_running=True) == [1, 2, 4, 8, 5]  # one size measured
    sizer.observe(20, Stages(compile_s=5.1, run_s=5.0))
    # Measured: the sizes are chosen to make the fixed cost small, so a batch is one compile.
    assert sizer.groups(30, kept_running=True) == [30]
    assert sizer.groups(0, kept_running=True) == []

"""bench/_measure.py: the speed-ups the throughput bench derives from what it measured."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

_BENCH = Path(__file__).resolve().parents[2] / "bench"
_SPEC = importlib.util.spec_from_file_location("bench_measure", _BENCH / "_measure.py")
assert _SPEC is not None and _SPEC.loader is not None
measure = importlib.util.module_from_spec(_SPEC)
sys.modules["bench_measure"] = measure  # its dataclasses look their module up there
_SPEC.loader.exec_module(measure)
Rate = measure.Rate


def test_without_limits_leaves_out_either_loops_runs_out_of_time() -> None:
    # Ours met a spin of 150 s among 600 programs (15 s for the rest), the naive loop none.
    naive = Rate(30, 9.0, {"out of time": 0.0})
    ours = Rate(600, 165.0, {"out of time": 150.0})
    assert measure.without_limits(naive, ours) == pytest.approx((9.0 / 30) / (15.0 / 600))


def test_the_naive_loops_hangs_are_weighed_as_often_as_ours_met_them() -> None:
    # The naive loop: 2 hangs of 30 programs at 2 s each, the other 28 at 0.25 s. Ours met
    # hangs in 60 of its 600 programs, a tenth: the naive loop would then have spent
    # 0.9 * 0.25 + 0.1 * 2 = 0.425 s a program, against ours' 0.02.
    naive = Rate(30, 28 * 0.25 + 2 * 2.0, {"out of time": 0.0}, hung=2, hung_s=4.0)
    ours = Rate(600, 12.0, {"out of time": 0.0}, hung=60)
    assert measure.at_ours_hang_share(naive, ours) == pytest.approx(0.425 / 0.02)
    # As measured, the naive loop's sample met fewer hangs than ours' share: less.
    assert measure.without_limits(naive, ours) < measure.at_ours_hang_share(naive, ours)


def test_hangs_weigh_nothing_where_neither_loop_met_one() -> None:
    naive = Rate(30, 9.0, {"out of time": 0.0})
    ours = Rate(600, 15.0, {"out of time": 0.0})
    assert measure.at_ours_hang_share(naive, ours) == measure.without_limits(naive, ours)


@pytest.mark.parametrize("naive_hung", [0, 30])
def test_no_weighing_where_the_naive_loop_cannot_price_one_kind(naive_hung: int) -> None:
    naive = Rate(30, 60.0, {"out of time": 0.0}, hung=naive_hung, hung_s=60.0 * bool(naive_hung))
    ours = Rate(600, 15.0, {"out of time": 0.0}, hung=60)
    assert measure.at_ours_hang_share(naive, ours) is None

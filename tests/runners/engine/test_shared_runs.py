"""Shared runs' parts that need no run (runners.engine.shared_runs): how a run's output is
cut into programs' shares, which targets share runs, and how large the next run grows.
Shared runs themselves, on real toolchains, are tested in test_execute_groups.py."""

from __future__ import annotations

import pytest

from generator.render import GROUP_DONE
from runners.config import ConfigError, shared_run_size
from runners.engine.run_target import make_target
from runners.engine.sandbox import Limits
from runners.engine.shared_runs import (
    SharedRunSize,
    first_group_size,
    marked,
    next_group_size,
    shared_run_limits,
    shares_runs,
)
from runners.targets import all_targets
from runners.targets.base import SHARED_QUIET_S
from tests.runners.conftest import require_toolchain


def test_marks_give_each_finished_program_its_output_and_stop_at_the_first_missing() -> None:
    stdout = f"{GROUP_DONE}0\nhello\n{GROUP_DONE}1\n{GROUP_DONE}2\npartial"
    assert marked(stdout) == ({0: "", 1: "hello\n", 2: ""}, "partial")
    assert marked("") == ({}, "")
    assert marked(f"{GROUP_DONE}x\n") == ({}, f"{GROUP_DONE}x\n")  # no index: no mark


def test_every_target_but_kotlin_shares_runs() -> None:
    # Kotlin: a warm JIT made kotlinx.coroutines#504 rarer (README).
    sharing = {t.name for t in all_targets() if t.runnable and t.group_runs}
    rust = {"rust-crossbeam", "rust-flume", "rust-flume-async", "rust-chan", "rust-std"}
    assert sharing == {"go", "crystal", "clojure-go", "clojure-thread", "racket", *rust}


def test_the_shared_run_size_comes_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    assert shared_run_size() == 25
    monkeypatch.setenv("CHANFUZZ_SHARED_RUN_SIZE", "7")
    assert shared_run_size() == 7
    for bad in ("0", "-3", "many"):
        monkeypatch.setenv("CHANFUZZ_SHARED_RUN_SIZE", bad)
        with pytest.raises(ConfigError, match="CHANFUZZ_SHARED_RUN_SIZE"):
            shared_run_size()


def test_a_shared_run_that_ended_cleanly_doubles_the_next_up_to_the_most() -> None:
    quick = {"duration_s": 0.5, "timeout_s": 30.0, "least": 25, "most": 200}
    assert next_group_size(25, programs=25, **quick) == 50
    assert next_group_size(150, programs=150, **quick) == 200
    assert next_group_size(200, programs=200, **quick) == 200
    # A run too quick to time (a clock's resolution) bounds nothing.
    instant = {"duration_s": 0.0, "timeout_s": 30.0, "least": 25, "most": 200}
    assert next_group_size(25, programs=25, **instant) == 50


def test_a_shared_run_grows_only_while_twice_its_time_fits_half_the_limit() -> None:
    sizes = {"least": 25, "most": 200}
    # 25 programs in 3 s (a JVM's start in a container and 25 short programs): against a
    # 30 s limit, 50 fit in half of it by this run's time; against 10 s, not even twice
    # this run would, but this run itself does: the size stays.
    assert next_group_size(25, programs=25, duration_s=3.0, timeout_s=30.0, **sizes) == 50
    assert next_group_size(25, programs=25, duration_s=3.0, timeout_s=10.0, **sizes) == 25
    assert next_group_size(25, programs=25, duration_s=3.75, timeout_s=15.0, **sizes) == 50
    assert next_group_size(25, programs=25, duration_s=3.76, timeout_s=15.0, **sizes) == 25
    # A batch's short last group says as much about a program's time as a full one.
    assert next_group_size(25, programs=5, duration_s=0.6, timeout_s=30.0, **sizes) == 50


def test_a_shared_run_over_half_the_limit_halves_the_next_down_to_the_configured_size() -> None:
    sizes = {"least": 25, "most": 200}
    assert next_group_size(200, programs=200, duration_s=6.0, timeout_s=10.0, **sizes) == 100
    assert next_group_size(40, programs=40, duration_s=6.0, timeout_s=10.0, **sizes) == 25
    assert next_group_size(61, programs=61, duration_s=6.0, timeout_s=10.0, **sizes) == 30
    # Exactly half the limit still fits.
    assert next_group_size(50, programs=50, duration_s=5.0, timeout_s=10.0, **sizes) == 50
    # Where the start is most of a run, a smaller one would not be quicker: the
    # configured size stays.
    assert next_group_size(25, programs=25, duration_s=6.0, timeout_s=10.0, **sizes) == 25
    assert next_group_size(100, programs=5, duration_s=1.5, timeout_s=10.0, **sizes) == 50


def test_a_batch_starts_where_the_runs_before_grew_to_within_this_configured_size() -> None:
    assert first_group_size(None, 25) == 25
    assert first_group_size(SharedRunSize(100), 25) == 100
    # Carried from a chunk that ran under another CHANFUZZ_SHARED_RUN_SIZE.
    assert first_group_size(SharedRunSize(10), 25) == 25
    assert first_group_size(SharedRunSize(400), 25) == 200


def test_a_perturbed_run_with_a_thread_count_of_its_own_is_not_shared() -> None:
    require_toolchain("clojure-go")
    assert shares_runs(make_target("clojure-go"), 25)
    # clojure-go sizes its pool per program under PCT: each needs its own run.
    assert not shares_runs(make_target("clojure-go", pct_depth=3), 25)
    require_toolchain("racket")
    assert shares_runs(make_target("racket", pct_depth=3), 25)  # green threads: no pool
    assert not shares_runs(make_target("racket"), 1)  # size 1: sharing off


def test_a_shared_run_is_cut_after_the_short_quiet_period() -> None:
    limits = Limits(timeout_s=30, quiet_s=2.0)
    assert shared_run_limits(limits).quiet_s == SHARED_QUIET_S
    assert shared_run_limits(limits).timeout_s == 30


@pytest.mark.parametrize(
    "limits",
    [
        Limits(timeout_s=30),  # no quiet period asked: the limit, as the user set it
        Limits(timeout_s=30, quiet_s=0.1),  # already shorter
        Limits(timeout_s=30, quiet_s=2.0, quiet_witness=True),  # the false-hang bench's
    ],
)
def test_a_shared_run_keeps_limits_it_cannot_shorten(limits: Limits) -> None:
    assert shared_run_limits(limits) == limits

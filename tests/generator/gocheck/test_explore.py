"""How gocheck's traces read (generator/gocheck/explore.py): a loop's rounds, repeated
step for step, show once with their count."""

from __future__ import annotations

from generator.gocheck.explore import FOLD_AT, Step, folded

SEND = Step("g1", 7, "send on ch")
RECV = Step("main", 11, "receive from ch")
START = Step("main", 5, "go g1")
END = Step("main", 12, "close(ch)")


def test_rounds_of_a_loop_show_once_with_how_many_more():
    trace = (START, *(SEND, RECV) * 500, END)
    assert folded(trace) == (
        START, SEND, RECV,
        Step("main", 0, "… the 2 steps above, 499 more times (rounds of a loop)"), END)


def test_a_step_repeated_alone_folds_into_one():
    assert folded((SEND,) * 10) == (SEND, Step("g1", 0, "… the step above, 9 more times "
                                                        "(rounds of a loop)"))


def test_a_few_repeats_stay_as_they_were():
    trace = (START, *(SEND, RECV) * (FOLD_AT - 1), END)
    assert folded(trace) == trace

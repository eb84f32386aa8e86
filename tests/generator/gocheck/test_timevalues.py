"""gocheck's time.Time values (no Go needed): times from one `Now` compare exactly, a later
`Now` reads the clock no earlier, the zero Time is before all."""

from __future__ import annotations

from generator.gocheck import numeric as N
from generator.gocheck import timevalues as T
from generator.gocheck.values import UNKNOWN, ZERO_TIME

SECOND = 1_000_000_000


def test_a_fake_clock_advanced_to_its_timer_has_reached_it():
    cur = T.now(4)
    when = T.method("Add", [cur, SECOND])
    cur = T.method("Add", [cur, T.method("Sub", [when, cur])])
    assert T.method("After", [when, cur]) is False
    assert T.method("Equal", [when, cur]) is True
    assert T.method("Compare", [cur, T.method("Add", [cur, 1])]) == -1


def test_a_later_now_reads_the_clock_no_earlier():
    first, later = T.now(4), T.now(9)
    assert T.method("After", [first, later]) is False
    assert T.method("Before", [first, later]) == UNKNOWN  # the same nanosecond, maybe
    assert T.method("Before", [first, T.method("Add", [later, 1])]) is True
    assert T.method("Sub", [later, first]) == N.ranged(0, None)
    assert T.method("After", [T.method("Add", [first, SECOND]), later]) == UNKNOWN


def test_the_zero_time_is_before_every_reading_and_far_from_it():
    assert T.method("IsZero", [ZERO_TIME]) is True
    assert T.method("IsZero", [T.now(3)]) is False
    assert T.method("Before", [ZERO_TIME, T.now(3)]) is True
    assert T.method("Sub", [T.now(3), ZERO_TIME]) == (1 << 63) - 1  # Go saturates


def test_since_and_until_know_the_clock_only_goes_forward():
    assert T.since(T.method("Add", [T.now(2), -SECOND])) == N.ranged(SECOND, None)
    assert T.until(T.method("Add", [T.now(2), SECOND])) == N.ranged(None, SECOND)
    assert T.method("Add", [T.now(2), UNKNOWN]) == UNKNOWN
    assert T.method("Format", [T.now(2), "15:04"]) == UNKNOWN


def test_a_duration_the_checker_does_not_know_still_adds_up():
    d = N.named(UNKNOWN, 8)
    cur = T.method("Add", [T.now(4), SECOND])
    when = T.method("Add", [cur, d])
    cur = T.method("Add", [cur, T.method("Sub", [when, cur])])
    assert T.method("After", [when, cur]) is False
    assert T.method("Sub", [when, T.now(4)]) == N.shifted(d, SECOND)
    assert T.method("Before", [T.now(4), when]) == UNKNOWN  # d may be negative
    assert T.method("Add", [cur, N.ranged(0, 5)]) == UNKNOWN  # no name: nothing to relate

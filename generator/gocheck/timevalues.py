"""time.Time values in gocheck: an instant the checker does not know plus a known offset.

`("time", base, offset)`: `base` names one call of `time.Now` (a number the state gives
out) or is `ZERO`, Go's zero Time; `offset` is in nanoseconds, known or a named integer
(`numeric`): a timer set a Duration the checker does not know past a fake clock's time
is reached when the clock advances by that same Duration. What `time.Now` returns is
unknown, but `t.Add(d)` of a known Duration is not, nor is `when.Sub(cur)` or
`when.After(cur)` for two times from the same `Now`: fake clocks in tests (x/time/rate's,
a scheduler's) compare only such times. Of two calls of `Now`, the later one reads the
clock no earlier, and the zero Time is before every other. Anything else of a Time (its
date, a time the library made) is unknown, as before.

A state's key keeps only the differences between offsets (`State.canon` shifts them so
that the first one met is at 0) and the order of the bases: the instants themselves are
unknown, so a fake clock advanced round a loop repeats its states.
"""

from __future__ import annotations

from typing import Any

from generator.gocheck import numeric as N
from generator.gocheck.values import UNKNOWN, ZERO_TIME, Value

ZERO = ZERO_TIME[1]  # the zero Time's base: the earliest instant there is
_MAX_DURATION = (1 << 63) - 1


def now(base: int) -> Value:
    return ("time", base, 0)


def is_time(v: Value) -> bool:
    return type(v) is tuple and len(v) == 3 and v[0] == "time"


def _order(a: Value, b: Value) -> int | str | None:
    """-1, 0 or 1 as instant `a` is before, at or after `b`; "le" or "ge" where only
    that much is known; None when nothing is.

    Bases are numbered as the search gives numbers out, so along a path a later call of
    `Now` has the larger one and reads the clock no earlier (Go's is monotonic).
    """
    if not (is_time(a) and is_time(b)):
        return None
    if a[1] == b[1]:
        d = N.bounds(_minus(a[2], b[2]))
        if d is None:
            return None
        lo, hi = d
        if lo is not None and lo == hi:
            return (lo > 0) - (lo < 0)
        if lo is not None and lo > 0 or hi is not None and hi < 0:
            return 1 if lo is not None and lo > 0 else -1
        if lo is not None and lo >= 0:
            return "ge"
        return "le" if hi is not None and hi <= 0 else None
    if ZERO in (a[1], b[1]):
        return -1 if a[1] == ZERO else 1
    if type(a[2]) is not int or type(b[2]) is not int:
        return None
    if a[1] > b[1]:
        flipped = _order(b, a)
        return -flipped if isinstance(flipped, int) else _FLIPPED[flipped]
    # a's Now came first: a is before b if its offset is smaller, at most b if equal.
    if a[2] < b[2]:
        return -1
    return "le" if a[2] == b[2] else None


_FLIPPED = {"le": "ge", "ge": "le", None: None}
_ANSWERS: dict[str, dict[Any, bool]] = {
    "After": {1: True, -1: False, 0: False, "le": False},
    "Before": {-1: True, 1: False, 0: False, "ge": False},
    "Equal": {0: True, 1: False, -1: False},
    "Compare": {-1: -1, 0: 0, 1: 1},  # type: ignore[dict-item]
}


def method(name: str, args: list[Value]) -> Value:
    """A call of time.Time's method `name` (`"Add"`, …) with its receiver first; UNKNOWN
    where the checker cannot tell."""
    t = args[0]
    if not is_time(t):
        return UNKNOWN
    if name == "Add":
        offset = _plus(t[2], args[1])
        return UNKNOWN if offset is None else ("time", t[1], offset)
    if name == "IsZero":
        return t == ZERO_TIME
    if name == "Sub":
        return _sub(t, args[1])
    if name not in _ANSWERS or len(args) < 2:
        return UNKNOWN
    return _ANSWERS[name].get(_order(t, args[1]), UNKNOWN)


def _plus(offset: Value, d: Value) -> Value | None:
    """A time's offset plus Duration `d`, each a known or a named integer (`numeric`);
    None when the sum is not one. A time's offset is taken as far from int64's bounds: a
    program that adds ±292 years is not one the checker meets."""
    if type(offset) is int and type(d) is int:
        return offset + d
    if type(d) is int and N.name_of(offset) is not None:
        return N.shifted(offset, d)
    if type(offset) is int and N.name_of(d) is not None:
        return N.shifted(d, offset)
    return None


def _minus(a: Value, b: Value) -> Value:
    """The difference of two offsets of one reading: known, a range, or UNKNOWN."""
    if type(a) is int and type(b) is int:
        return a - b
    if N.name_of(a) is not None and N.name_of(a) == N.name_of(b):
        return a[4] - b[4]
    if type(b) is int and N.name_of(a) is not None:
        return N.shifted(a, -b)
    return UNKNOWN


def _sub(t: Value, u: Value) -> Value:
    if not is_time(u):
        return UNKNOWN
    if u[1] == t[1]:
        return _minus(t[2], u[2])
    # Go's Sub saturates: from year 1 to any clock reading is far past 292 years.
    if u[1] == ZERO:
        return _MAX_DURATION
    if t[1] == ZERO:
        return -_MAX_DURATION - 1
    if type(t[2]) is not int or type(u[2]) is not int:
        return UNKNOWN
    # Two calls of Now: the later one read the clock no earlier.
    return N.ranged(t[2] - u[2], None) if t[1] > u[1] else N.ranged(None, t[2] - u[2])


def since(t: Value) -> Value:
    """time.Since(t) of a time `Now` gave plus `offset`: the clock has not gone back, so
    at least -offset."""
    if is_time(t) and t[1] != ZERO and type(t[2]) is int:
        return N.ranged(-t[2], None)
    return UNKNOWN


def until(t: Value) -> Value:
    """time.Until(t): at most t's offset past its `Now`."""
    if is_time(t) and t[1] != ZERO and type(t[2]) is int:
        return N.ranged(None, t[2])
    return UNKNOWN

"""gocheck's float64 arithmetic and ranges of unknown integers (no Go needed): each
answer the checker gives must be the one every run would give."""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from generator.gocheck import numeric as N
from generator.gocheck.values import BIG, INT_LIMIT, UNKNOWN, is_unknown

OPS = ("<", "<=", ">", ">=", "==", "!=")


def holds(op: str, a: int, b: int) -> bool:
    return {"<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b, "==": a == b,
            "!=": a != b}[op]


def test_float_arithmetic_is_ieee_as_in_go():
    assert N.float_binop("-", 3.0, 2.0) == 1.0
    assert N.float_binop("+", 0.1, 0.2) == 0.30000000000000004
    assert N.float_binop("<", 1.0, 0.0) is False
    assert N.float_binop("/", 1.0, 0.0) == math.inf
    assert N.float_binop("/", -1.0, 0.0) == -math.inf
    assert N.float_binop("/", 0.0, 0.0) == UNKNOWN  # NaN: no state key can hold it
    assert N.float_binop("*", math.inf, 0.0) == UNKNOWN


def test_a_float_counter_past_the_limit_is_big_but_large_data_stays_exact():
    assert N.float_binop("+", float(INT_LIMIT), 1.0) == BIG
    assert N.float_binop("+", 1e9, 1.0) == 1e9 + 1
    assert N.float_binop("==", math.inf, math.inf) is True


def test_conversions_between_floats_and_integers_truncate_or_are_unknown():
    assert N.as_float(3) == 3.0
    assert N.as_float(UNKNOWN) == UNKNOWN
    assert N.as_int(-2.7, 64, False) == -2
    assert N.as_int(300.0, 8, True) == UNKNOWN  # out of uint8's range: Go does not say
    assert N.as_int(math.inf, 64, False) == UNKNOWN


def test_math_functions_answer_as_go_does():
    assert N.math_call("math.Min", [9.2e18, 0.0]) == 0.0
    assert N.math_call("math.Inf", [1]) == math.inf
    assert N.math_call("math.IsInf", [math.inf, 0]) is True
    assert N.math_call("math.IsInf", [math.inf, -1]) is False
    assert N.math_call("math.Round", [-2.5]) == -3.0
    assert N.math_call("math.Round", [0.49999999999999994]) == 0.0
    assert N.math_call("math.Floor", [math.inf]) == math.inf
    assert N.math_call("math.Sqrt", [-1.0]) == UNKNOWN
    assert N.math_call("math.Min", [UNKNOWN, 1.0]) == UNKNOWN
    assert N.math_call("math.Cbrt", [8.0]) == UNKNOWN  # not modelled


def test_duration_seconds_add_whole_units_and_the_rest():
    assert N.duration_in(1_500_000_000, 1_000_000_000) == 1.5
    assert N.duration_in(-90_000_000_000, 60_000_000_000) == -1.5


def test_a_range_is_unknown_to_everything_else_and_exact_when_its_bounds_meet():
    assert is_unknown(N.ranged(0, 9))
    assert N.ranged(4, 4) == 4
    assert N.ranged(None, None) == UNKNOWN


def test_a_random_number_plus_one_is_at_least_one():
    n = N.range_binop("+", N.ranged(0, 49), 1, 64, False)
    assert n == ("?", 1, 50)
    assert N.range_binop(">=", n, 1, None, False) is True
    assert N.range_binop("<", 0, n, None, False) is True
    assert N.range_binop("<", 10, n, None, False) == UNKNOWN


def test_a_range_that_may_wrap_round_is_unknown():
    assert N.range_binop("-", N.ranged(0, 5), 1, 64, True) == UNKNOWN  # uint below 0
    assert N.range_binop("+", N.ranged(1, None), 1, 64, False) == UNKNOWN


def test_the_remainder_of_an_unknown_unsigned_number_is_below_the_divisor():
    # A hash picks a shard: unknown, but never negative, so its remainder is 0 to n-1.
    assert N.range_binop("%", N.named(UNKNOWN, 7), 4, 32, True) == ("?", 0, 3)
    assert N.range_binop("%", N.named(UNKNOWN, 7), 4, 64, False) == UNKNOWN  # may be < 0


def test_a_branch_narrows_the_compared_integer_each_way():
    assert N.refined(UNKNOWN, ">", 0, True) == ("?", 1, None)
    assert N.refined(UNKNOWN, ">", 0, False) == ("?", None, 0)
    assert N.refined(N.ranged(1, 50), "<", 2, False) == ("?", 2, 50)
    assert N.refined(N.ranged(1, 50), "<", 2, True) == 1
    assert N.refined(N.ranged(0, 3), "!=", 0, True) == ("?", 1, 3)
    assert N.refined(5, "<", 9, True) is None  # nothing to learn of a known integer
    assert N.refined(UNKNOWN, "<", 1.5, True) is None  # floats are not narrowed


bound = st.one_of(st.none(), st.integers(-20, 20))


@st.composite
def ranges(draw) -> tuple:
    lo, hi = draw(bound), draw(bound)
    if lo is not None and hi is not None and lo > hi:
        lo, hi = hi, lo
    return lo, hi


def members(lo: int | None, hi: int | None) -> range:
    return range(-40 if lo is None else lo, 41 if hi is None else hi + 1)


@given(ranges(), ranges(), st.sampled_from(OPS))
def test_a_comparison_a_range_settles_holds_for_every_member(a, b, op):
    answer = N.range_binop(op, N.ranged(*a), N.ranged(*b), 64, False)
    if answer == UNKNOWN or is_unknown(answer):
        return
    for x in members(*a):
        for y in members(*b):
            assert holds(op, x, y) is answer


@given(ranges(), st.integers(-20, 20), st.sampled_from(("+", "-", "*", "%")))
def test_arithmetic_on_a_range_holds_every_result(a, k, op):
    result = N.range_binop(op, N.ranged(*a), k, 64, False)
    lo, hi = N.bounds(result) if N.bounds(result) is not None else (None, None)
    for x in members(*a):
        if op == "%" and k == 0:
            continue
        y = {"+": x + k, "-": x - k, "*": x * k, "%": math.fmod(x, k) if k else 0}[op]
        assert (lo is None or y >= lo) and (hi is None or y <= hi), (x, y, result)


@given(ranges(), st.integers(-20, 20), st.sampled_from(OPS), st.booleans())
def test_narrowing_keeps_every_member_the_branch_lets_through(a, k, op, way):
    new = N.refined(N.ranged(*a), op, k, way)
    if new is None:
        return
    lo, hi = N.bounds(new)
    for x in members(*a):
        if holds(op, x, k) is way:
            assert (lo is None or x >= lo) and (hi is None or x <= hi), (x, new)


def test_an_integer_of_a_known_width_lies_within_its_type():
    assert N.range_binop("<=", UNKNOWN, (1 << 63) - 1, 64, False) is True
    assert N.range_binop("<", UNKNOWN, 0, 32, True) is False  # a uint32 is never negative
    assert N.range_binop("<", UNKNOWN, 0, 64, False) == UNKNOWN
    assert N.range_binop("<=", UNKNOWN, (1 << 63) - 1, None, False) == UNKNOWN


def test_a_comparison_of_a_named_integer_waits_for_what_a_branch_learns_of_it():
    n = N.named(UNKNOWN, 7)
    cmp = N.range_binop(">", n, 0, 64, False)
    assert N.is_comparison(cmp) and is_unknown(cmp)
    # Another goroutine's branch found n <= 0: the comparison is false from then on.
    (name, k, learnt), = N.learnt(N.range_binop("<=", n, 0, 64, False), True)
    assert (name, k) == (7, 0)
    assert N.decided(("?cmp", ">", learnt, 0, 64, False)) is False
    assert N.decided(N.negated(("?cmp", ">", learnt, 0, 64, False))) is True


def test_a_named_integer_equals_itself():
    n = N.named(N.ranged(0, 9), 3)
    assert N.range_binop("==", n, n, 64, False) is True
    assert N.range_binop("<", n, n, 64, False) is False
    assert N.range_binop("-", n, n, 64, False) == 0
    assert N.is_comparison(N.range_binop("==", n, N.named(N.ranged(0, 9), 4), 64, False))


def test_a_comparison_decided_again_once_both_sides_are_known():
    assert N.decided(("?cmp", "==", 2, 2, 64, False)) is True
    assert N.decided(("?cmp", "!=", 2, 2, 64, False)) is False
    assert N.decided(("?cmp", "<", 1, 2, 64, False)) is True


def test_a_named_integer_plus_a_known_one_keeps_its_name():
    n = N.named(N.ranged(0, 100), 5)
    m = N.range_binop("-", n, 1, 64, False)
    assert m == ("?", -1, 99, 5, -1)
    assert N.range_binop("<", m, n, 64, False) is True
    assert N.range_binop("-", n, m, 64, False) == 1
    assert N.range_binop("+", n, 0, 64, False) == n
    # n - 1 > 0 learnt: n itself is at least 2, wherever it was copied.
    (name, k, new), = N.learnt(N.range_binop(">", m, 0, 64, False), True)
    assert N.rebased(n, k, new) == ("?", 2, 100, 5, 0)
    assert N.rebased(n, k, 41) == 42


@given(ranges(), st.integers(-5, 5), st.integers(-20, 20), st.sampled_from(OPS), st.booleans())
def test_what_a_branch_learns_of_n_plus_k_holds_for_n(a, k, c, op, way):
    r = N.ranged(*a)
    if type(r) is int:
        return
    n = N.named(r, 1)
    shifted = N.range_binop("+", n, k, 64, False)
    cmp = N.range_binop(op, shifted, c, 64, False)
    if not N.is_comparison(cmp):
        return
    for _name, at, new in N.learnt(cmp, way):
        again = N.rebased(n, at, new)
        lo, hi = N.bounds(again)
        for x in members(*a):
            if holds(op, x + k, c) is way:
                assert (lo is None or x >= lo) and (hi is None or x <= hi), (x, again)


# --- facts: comparisons of two unknown integers that branches found to hold

# Three names, each 0..4 (small enough to try every assignment), copies of them offset by
# -2..2, and facts between copies of two different names.
NAMES = (1, 2, 3)
SPAN = range(5)


def _copy(name: int, k: int) -> tuple:
    return ("?", k, 4 + k, name, k)


@st.composite
def facts(draw) -> tuple:
    out = []
    for _ in range(draw(st.integers(0, 4))):
        a, b = draw(st.lists(st.sampled_from(NAMES), min_size=2, max_size=2, unique=True))
        ka, kb = draw(st.integers(-2, 2)), draw(st.integers(-2, 2))
        out.append(("?cmp", draw(st.sampled_from(OPS)), _copy(a, ka), _copy(b, kb), 64, False))
    return tuple(out)


def _worlds(fs: tuple) -> list[dict[int, int]]:
    """Every assignment of the names under which each fact holds."""
    out = []
    for x in SPAN:
        for y in SPAN:
            for z in SPAN:
                w = dict(zip(NAMES, (x, y, z), strict=True))
                if all(holds(f[1], w[f[2][3]] + f[2][4], w[f[3][3]] + f[3][4]) for f in fs):
                    out.append(w)
    return out


@settings(max_examples=400)
@given(facts(), st.sampled_from(OPS), st.integers(-2, 2), st.integers(-2, 2))
def test_what_facts_imply_of_two_names_holds_in_every_world_they_allow(fs, op, ka, kb):
    cmp = ("?cmp", op, _copy(1, ka), _copy(2, kb), 64, False)
    answer = N.implied(fs, cmp)
    worlds = _worlds(fs)
    if answer is True:
        assert all(holds(op, w[1] + ka, w[2] + kb) for w in worlds)
    elif answer is False:
        assert not any(holds(op, w[1] + ka, w[2] + kb) for w in worlds)
    else:
        assert answer == UNKNOWN


@settings(max_examples=400)
@given(facts(), st.sampled_from(NAMES), st.integers(-2, 2), st.integers(-2, 6))
def test_a_value_facts_rule_out_is_in_no_world_they_allow(fs, name, k, n):
    if not N.admits(fs, _copy(name, k), n):
        assert not any(w[name] + k == n for w in _worlds(fs))


def test_two_numbers_swapped_into_order_are_in_order():
    # `lo, hi := from, to; if lo > hi { lo, hi = hi, lo }` on the way not taken, after
    # `if from == to { return }`: from <= to and from != to, both 0..7.
    lo, hi = ("?", 0, 7, 1, 0), ("?", 0, 7, 2, 0)
    fs = (("?cmp", "<=", lo, hi, 64, False), ("?cmp", "!=", lo, hi, 64, False))
    assert N.implied(fs, ("?cmp", ">", lo, hi, 64, False)) is False
    assert N.implied(fs, ("?cmp", "<", lo, hi, 64, False)) is True
    assert N.implied(fs, ("?cmp", "<", hi, lo, 64, False)) is False  # mirrored
    assert [n for n in range(8) if N.admits(fs, lo, n)] == list(range(7))
    assert [n for n in range(8) if N.admits(fs, hi, n)] == list(range(1, 8))
    # Once lo is 2, hi is 3..7: one fact became a bound, the other a number left out.
    fs2 = (("?cmp", "<=", 2, hi, 64, False), ("?cmp", "!=", 2, hi, 64, False))
    assert [n for n in range(8) if N.admits(fs2, hi, n)] == list(range(3, 8))


def test_a_number_left_out_of_a_copy_is_left_out_of_its_name_at_its_offset():
    # a + 1 != b and a > b, both 0..4: with b = 3, a is 4 (a + 1 is 5, not 3).
    a, b = _copy(1, 0), _copy(2, 0)
    fs = (("?cmp", "!=", _copy(1, 1), b, 64, False), ("?cmp", ">", a, b, 64, False))
    assert N.admits(fs, b, 3)
    assert not N.admits(fs, b, 4)  # a would be 5
    assert [n for n in range(5) if N.admits(fs, a, n)] == [1, 2, 3, 4]

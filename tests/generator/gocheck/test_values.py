"""gocheck's abstract values: exact small integers, unknown data, counters past the limit,
zero values from the front end's type classes (no Go needed)."""

from __future__ import annotations

import pytest

from generator.gocheck import values as V
from generator.gocheck.values import (
    BIG,
    INT_LIMIT,
    NIL,
    UNKNOWN,
    binop,
    exact_counts,
    get_path,
    set_path,
    unop,
    zero,
)


def test_small_integers_stay_exact_so_constant_loops_unroll():
    assert binop("+", 2, 3) == 5
    assert binop("<", 2, 3) is True
    assert binop("%", -7, 3) == -1  # Go truncates towards zero
    assert binop("/", -7, 2) == -3


def test_a_counter_growing_past_the_limit_is_big_and_stays_big():
    assert binop("+", INT_LIMIT, 1) == BIG
    assert binop("<", BIG, 10) == BIG
    assert unop("-", BIG) == BIG


def test_a_walk_counts_exactly_past_the_limit_and_only_while_it_walks():
    with exact_counts():
        assert binop("+", INT_LIMIT, 1) == INT_LIMIT + 1
        assert binop("<", 100_000, 100_001) is True
    assert binop("+", INT_LIMIT, 1) == BIG


def test_large_data_that_is_not_a_counter_is_unknown_not_big():
    assert binop("*", 1000, 1_000_000) == UNKNOWN
    assert binop("+", 10**9, 1) == UNKNOWN


def test_unknown_data_makes_comparisons_unknown_but_not_nil_tests_of_references():
    assert binop("==", UNKNOWN, 1) == UNKNOWN
    assert binop("!=", ("iface", "*errors.errorString", UNKNOWN), NIL) is True
    assert binop("==", ("chan", 3), NIL) is False
    assert binop("==", NIL, NIL) is True


def test_zero_values_follow_the_type_class():
    assert zero("int") == 0
    assert zero("chan") == NIL
    assert zero("slice:chan") == NIL
    assert zero("struct{chan;int;sync.Mutex}") == ("struct", (NIL, 0, ("mu", False)))
    assert zero("array[2]sync.WaitGroup") == ("array", (("wg", 0), ("wg", 0)))
    assert zero("sync.RWMutex") == ("rw", False, 0, -1)
    assert zero("float") == UNKNOWN


def test_paths_read_and_write_nested_fields_and_cond_l():
    v = zero("struct{int;struct{chan;int}}")
    v = set_path(v, (1, 0), ("chan", 7))
    assert get_path(v, (1, 0)) == ("chan", 7)
    assert get_path(v, (5,)) == UNKNOWN
    cond = set_path(zero("sync.Cond"), (1,), ("addr", 2, ()))
    assert get_path(cond, (1,)) == ("addr", 2, ())


@pytest.mark.parametrize("op", ["+", "<", "&"])
def test_bools_are_not_integers(op):
    assert binop(op, True, 1) == UNKNOWN


def _fnv32(key: bytes) -> int:
    h = 2166136261
    for c in key:
        h = V.exact_binop("*", h, 16777619, 32, True)
        h = V.exact_binop("^", h, c, 32, True)
    return h


def test_hashing_arithmetic_wraps_as_go_computes_it():
    # FNV-1 (concurrent-map's shard hash): Go's uint32 multiply wraps; `go run` printed
    # 27 and 23 for these keys' shards of 32.
    assert _fnv32(b"alpha") % 32 == 27
    assert _fnv32(b"beta") % 32 == 23
    assert V.wrapped(-1, 8, True) == 255
    assert V.wrapped(200, 8, False) == -56
    assert V.exact_binop("/", -7, 2, 64, False) == -3  # Go truncates toward zero
    assert V.exact_binop("%", -7, 2, 64, False) == -1
    assert V.exact_binop("%", 7, 0, 64, False) is UNKNOWN
    assert V.exact_binop("<<", 1, 40, 32, True) == 0

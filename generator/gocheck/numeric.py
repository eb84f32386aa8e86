"""Numbers beyond gocheck's exact small integers: float64 values, and ranges of integers
the checker does not know exactly.

**float64** values are Python floats: both are IEEE 754 doubles, so Go's `+ - * /` and
comparisons give the same bits. Go's division by zero gives an infinity where Python
raises, and a NaN is never equal to itself, which a state's key cannot hold: a NaN is
unknown. A float that grows past `INT_LIMIT` by addition, from operands within it, is
`BIG`, as an integer counter is (`values.count`): a float loop counter must not unroll
for ever.

**A range** `("?", lo, hi)` is an integer the checker does not know, between `lo` and
`hi` inclusive (`None`: the type's own bound). `rand.Intn(50) + 1` is one (1 to 50), and
so is a length the checker cannot tell (at least 0). A range is unknown to everything
else (`values.is_unknown`); a comparison it settles is decided, and a branch on one it
does not settle narrows the compared register on each way (`refined`): the two ways of
`if n > 0` agree with a later `for i := 0; i < n; i++`.
"""

from __future__ import annotations

import math
from typing import Any

from generator.gocheck.values import BIG, INT_LIMIT, UNKNOWN, Value

# No slice, string or map can hold more items than memory has bytes: a length the checker
# cannot tell is at most this (2^48, the address space of today's 64-bit machines).
LEN_MAX = 1 << 48
COMPARISONS = frozenset({"<", "<=", ">", ">=", "==", "!="})
# `a op b` false is `a negated(op) b`.
_NEGATED = {"<": ">=", "<=": ">", ">": "<=", ">=": "<", "==": "!=", "!=": "=="}
# `a op b` is `b mirrored(op) a`.
_MIRRORED = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "==", "!=": "!="}


def is_float(v: Value) -> bool:
    return type(v) is float


def is_range(v: Value) -> bool:
    return type(v) is tuple and len(v) in (3, 5) and v[0] == "?"


def named(v: Value, name: int) -> Value:
    """Unknown integer `v` (UNKNOWN or a range) with a name: the same number wherever it
    is copied, until the search names another. `("?", lo, hi, name, k)` is that number
    plus `k`, within `lo`..`hi`: `n - 1` keeps `n`'s name."""
    return ("?", None, None, name, 0) if len(v) == 1 else (*v[:3], name, 0)


def name_of(v: Value) -> int | None:
    return v[3] if type(v) is tuple and len(v) == 5 and v[0] == "?" else None


def shifted(v: tuple, c: int) -> Value:
    """Named integer `v` plus `c`, with no thought of wrapping round (a time's offset)."""
    return ("?", None if v[1] is None else v[1] + c, None if v[2] is None else v[2] + c,
            v[3], v[4] + c)


def rebased(v: tuple, k: int, new: Value) -> Value:
    """Occurrence `v` of a named integer, once the occurrence of it with offset `k` was
    found to be `new`: the same number, `v`'s offset apart."""
    d = v[4] - k
    if type(new) is int:
        return new + d
    return ("?", None if new[1] is None else new[1] + d, None if new[2] is None else new[2] + d,
            v[3], v[4])


def ranged(lo: int | None, hi: int | None) -> Value:
    """The integer between `lo` and `hi`: exact when they meet, UNKNOWN when unbounded."""
    if lo is not None and lo == hi:
        return lo
    if lo is None and hi is None:
        return UNKNOWN
    return ("?", lo, hi)


def bounds(v: Value) -> tuple[int | None, int | None] | None:
    """The least and greatest integer `v` may be; None when it is not an integer (or
    not one the checker can bound: BIG)."""
    if type(v) is int:
        return v, v
    if is_range(v):
        return v[1], v[2]
    if v == UNKNOWN:
        return None, None
    return None


def fits(v: tuple, bits: int, unsigned: bool) -> bool:
    """Whether every number of range `v` is one an integer type of this width holds."""
    lo_t, hi_t = _limits(bits, unsigned)
    return v[1] is not None and v[2] is not None and lo_t <= v[1] and v[2] <= hi_t


def _limits(bits: int | None, unsigned: bool) -> tuple[int, int]:
    bits = bits or 64
    if unsigned:
        return 0, (1 << bits) - 1
    return -(1 << (bits - 1)), (1 << (bits - 1)) - 1


# --- float64


def as_float(v: Value) -> Value:
    """float64(v): an integer or float converted, anything else UNKNOWN."""
    if type(v) is float:
        return v
    if type(v) is int:
        return float(v)
    return UNKNOWN


def as_int(v: float, bits: int | None, unsigned: bool) -> Value:
    """An integer type's conversion of float `v` (truncated); UNKNOWN where Go leaves the
    result to the implementation (out of the type's range, infinite)."""
    if not math.isfinite(v):
        return UNKNOWN
    n = int(v)
    lo, hi = _limits(bits, unsigned)
    return n if lo <= n <= hi else UNKNOWN


def _exact(f: float) -> Value:
    return UNKNOWN if math.isnan(f) else f


def float_binop(op: str, a: float, b: float) -> Value:
    """`a op b` on float64 values as Go computes it."""
    if op in COMPARISONS:
        return {"<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b, "==": a == b,
                "!=": a != b}[op]
    if op == "/":
        if b == 0:
            if a == 0 or math.isnan(a):
                return UNKNOWN  # NaN
            return math.copysign(math.inf, a) * math.copysign(1.0, b)
        return _exact(a / b)
    if op in ("+", "-"):
        r = a + b if op == "+" else a - b
        if abs(r) > INT_LIMIT and abs(a) <= INT_LIMIT and abs(b) <= INT_LIMIT:
            return BIG  # a float counter grown past what the checker unrolls
        return _exact(r)
    if op == "*":
        return _exact(a * b)
    return UNKNOWN


def _fin(f: Any) -> Value:
    return _exact(f) if type(f) is float else f


def _rounded(f: float, how: Any) -> float:
    return float(how(f)) if math.isfinite(f) else f


def _half_away(f: float) -> float:
    t = float(math.trunc(f))  # f - t is exact: no 0.49999999999999994 + 0.5 = 1.0
    return t + math.copysign(1.0, f) if abs(f - t) >= 0.5 else t


def _mod(x: float, y: float) -> Value:
    if y == 0 or not math.isfinite(x) or math.isnan(y):
        return UNKNOWN
    return math.fmod(x, y) if math.isfinite(y) else x


# math's functions of float64 values, by name: each as Go's, for finite and infinite
# arguments (a NaN comes out UNKNOWN).
MATH = {
    "math.Min": lambda x, y: min(x, y),
    "math.Max": lambda x, y: max(x, y),
    "math.Abs": abs,
    "math.Floor": lambda x: _rounded(x, math.floor),
    "math.Ceil": lambda x: _rounded(x, math.ceil),
    "math.Trunc": lambda x: _rounded(x, math.trunc),
    "math.Round": lambda x: _rounded(x, _half_away),
    "math.Sqrt": lambda x: math.sqrt(x) if x >= 0 else math.nan,
    "math.Mod": _mod,
    "math.IsInf": lambda x, sign: (x == math.inf and sign >= 0) or (x == -math.inf and sign <= 0),
    "math.Signbit": lambda x: math.copysign(1.0, x) < 0,
}


def math_call(name: str, args: list[Value]) -> Value:
    """A call of math's function `name` on known arguments, else UNKNOWN."""
    if name == "math.Inf" and type(args[0]) is int:
        return math.inf if args[0] >= 0 else -math.inf
    if name == "math.IsNaN" and type(args[0]) is float:
        return False  # a NaN is never known
    f = MATH.get(name)
    if f is None or not all(type(a) in (float, int) for a in args):
        return UNKNOWN
    if name != "math.IsInf" and not all(type(a) is float for a in args):
        return UNKNOWN
    return _fin(f(*args))


def duration_in(d: int, unit: int) -> float:
    """(time.Duration).Seconds, Minutes, Hours: whole units and the rest, as Go adds them."""
    whole = abs(d) // unit * (1 if d >= 0 else -1)
    return float(whole) + float(d - whole * unit) / unit


# --- ranges of integers


def range_binop(op: str, a: Value, b: Value, bits: int | None, unsigned: bool) -> Value:
    """`a op b` where one side is a range and the other an integer or a range; UNKNOWN
    where the ranges do not settle it."""
    ba, bb = bounds(a), bounds(b)
    if ba is None or bb is None:
        return UNKNOWN
    na, nb = name_of(a), name_of(b)
    if na is not None and na == nb:  # one number, each side its own offset from it
        d = a[4] - b[4]
        if op in COMPARISONS:
            return _compare(op, (d, d), (0, 0))
        if op == "-":
            return d
    if op in ("+", "-") and type(b) is int and b == 0:
        return a
    lo_t, hi_t = _limits(bits, unsigned)
    if op in COMPARISONS:
        if bits is not None:
            # An integer of a known width lies within its type's bounds, whatever it is.
            ba, bb = ((lo_t if lo is None else lo, hi_t if hi is None else hi)
                      for lo, hi in (ba, bb))
        answer = _compare(op, ba, bb)
        if answer == UNKNOWN and (name_of(a) is not None or name_of(b) is not None):
            return ("?cmp", op, a, b, bits, unsigned)
        return answer
    (alo, ahi), (blo, bhi) = ba, bb
    lo: int | None
    hi: int | None
    if op in ("+", "-"):
        if op == "-":
            blo, bhi = (None if bhi is None else -bhi), (None if blo is None else -blo)
        lo = None if alo is None or blo is None else alo + blo
        hi = None if ahi is None or bhi is None else ahi + bhi
        # A bound the type's own bound stands for may wrap round: nothing is known then.
        if (lo is None and (alo is not None or blo is not None)) or \
                (hi is None and (ahi is not None or bhi is not None)):
            return UNKNOWN
    elif op == "*" and type(b) is int and b > 0 and alo is not None and ahi is not None:
        lo, hi = alo * b, ahi * b
    elif op == "%" and type(b) is int and b > 0 and (unsigned or alo is not None and alo >= 0):
        # (an unsigned number is never negative, whatever the checker knows of it: a
        # hash's remainder picks one of b shards)
        lo, hi = 0, min(b - 1, ahi) if ahi is not None else b - 1
    else:
        return UNKNOWN
    if (lo is not None and lo < lo_t) or (hi is not None and hi > hi_t):
        return UNKNOWN  # it may wrap round
    if op in ("+", "-") and lo != hi:  # a named number plus a known one keeps the name
        if na is not None and type(b) is int:
            return ("?", lo, hi, na, a[4] + (b if op == "+" else -b))
        if nb is not None and type(a) is int and op == "+":
            return ("?", lo, hi, nb, b[4] + a)
    return ranged(lo, hi)


def _compare(op: str, a: tuple, b: tuple) -> Value:
    (alo, ahi), (blo, bhi) = a, b
    lt = ahi is not None and blo is not None and ahi < blo  # a < b whatever they are
    le = ahi is not None and blo is not None and ahi <= blo
    gt = alo is not None and bhi is not None and alo > bhi
    ge = alo is not None and bhi is not None and alo >= bhi
    same = alo is not None and alo == ahi == blo == bhi  # one number, known
    decided = {"<": (lt, ge), "<=": (le, gt), ">": (gt, le), ">=": (ge, lt),
               "==": (same, lt or gt), "!=": (lt or gt, same)}[op]
    if decided[0]:
        return True
    if decided[1]:
        return False
    return UNKNOWN


def is_comparison(v: Value) -> bool:
    """A comparison of integers not decided when it ran, at least one of them named: a
    later branch on one of them may decide it (`decided`)."""
    return type(v) is tuple and len(v) == 6 and v[0] == "?cmp"


def decided(cmp: tuple) -> Value:
    """The comparison again, on what is known of its integers now."""
    return range_binop(*cmp[1:])


def negated(cmp: tuple) -> tuple:
    return ("?cmp", _NEGATED[cmp[1]], *cmp[2:])


def learnt(cmp: tuple, holds: bool) -> list[tuple[int, int, Value]]:
    """Each named integer of the comparison, its offset there, and what that side is now
    that the comparison was found to be `holds`."""
    _, op, a, b = cmp[:4]
    out = []
    for mine, other, how in ((a, b, op), (b, a, _MIRRORED[op])):
        name = name_of(mine)
        new = refined(mine, how, other, holds) if name is not None else None
        if new is not None:
            out.append((name, mine[4], new))
    return out


def refined(v: Value, op: str, other: Value, holds: bool) -> Value | None:
    """What integer `v` is once `v op other` was found to be `holds`; None where that
    says nothing new (v not an integer the checker bounds, `other` not one either)."""
    bv, bo = bounds(v), bounds(other)
    if bv is None or bo is None or type(v) is int:
        return None
    if not holds:
        op = _NEGATED[op]
    (lo, hi), (olo, ohi) = bv, bo
    if op in ("<", "<="):
        limit = None if ohi is None else ohi - (op == "<")
        hi = limit if hi is None or (limit is not None and limit < hi) else hi
    elif op in (">", ">="):
        limit = None if olo is None else olo + (op == ">")
        lo = limit if lo is None or (limit is not None and limit > lo) else lo
    elif op == "==" and olo is not None and olo == ohi:
        lo = hi = olo
    elif op == "!=" and olo is not None and olo == ohi:
        if olo == lo:
            lo += 1
        elif olo == hi:
            hi -= 1  # type: ignore[operator]
        else:
            return None
    else:
        return None
    if lo is not None and hi is not None and lo > hi:
        return None  # the way cannot be taken; the search's choice settles that
    new = ranged(lo, hi)
    if name_of(v) is not None and type(new) is not int:
        new = ("?", lo, hi, v[3], v[4])
    return None if new == v else new


def mirrored(op: str) -> str:
    return _MIRRORED[op]


# --- what branches learnt of two unknown integers together


def difference(cmp: tuple) -> tuple[int, int, str, int] | None:
    """Comparison `cmp` of two named integers as `(A, B, op, c)`: `A - B op c`, the names
    in order; None when it does not compare two names."""
    _, op, a, b = cmp[:4]
    na, nb = name_of(a), name_of(b)
    if na is None or nb is None or na == nb:
        return None
    c = b[4] - a[4]  # A + ka op B + kb: A - B op kb - ka
    return (nb, na, _MIRRORED[op], -c) if na > nb else (na, nb, op, c)


def implied(facts: tuple, cmp: tuple) -> Value:
    """What the comparisons in `facts`, each known to hold, say of comparison `cmp` of two
    named integers: True, False, or UNKNOWN when they do not settle it. Only facts on the
    same two names count (no chains through a third): a range cannot say that `lo <= hi`
    once `if lo > hi { lo, hi = hi, lo }` swapped them, and these can."""
    target = difference(cmp)
    if target is None:
        return UNKNOWN
    lo: int | None = None
    hi: int | None = None
    holes: set[int] = set()
    for fact in facts:
        d = difference(fact)
        if d is None or d[:2] != target[:2]:
            continue
        if d[2] == "!=":
            holes.add(d[3])
            continue
        flo, fhi = _interval_of(d[2], (d[3], d[3]))
        lo = flo if lo is None or (flo is not None and flo > lo) else lo
        hi = fhi if hi is None or (fhi is not None and fhi < hi) else hi
    while lo is not None and lo in holes:
        lo += 1
    while hi is not None and hi in holes:
        hi -= 1
    op, c = target[2], target[3]
    if op == "!=":
        if (lo is not None and c < lo) or (hi is not None and c > hi) or c in holes:
            return True
        return False if lo is not None and lo == hi == c else UNKNOWN
    tlo, thi = _interval_of(op, (c, c))
    if (tlo is None or (lo is not None and lo >= tlo)) and \
            (thi is None or (hi is not None and hi <= thi)):
        return True
    if (tlo is not None and hi is not None and hi < tlo) or \
            (thi is not None and lo is not None and lo > thi):
        return False
    if op == "==" and c in holes:
        return False
    return UNKNOWN


def admits(facts: tuple, v: tuple, n: int) -> bool:
    """Whether named integer `v` may be `n` as far as `facts` say. Each name's interval (from
    the ranges its occurrences carry) is narrowed by the facts in turn until nothing
    changes, a `!=` against a known number taking that number out at either end: a fact
    that can no longer hold, or a name left with no number, rules `n` out. (`lo <= hi` and
    `lo != hi` with both in 0..7: `lo` may not be 7.)"""
    box: dict[int, list] = {}
    named_in = [x for fact in facts for x in fact[2:4] if name_of(x) is not None]
    for x in named_in:
        _narrow_box(box, x[3], _shift(bounds(x), -x[4]))  # type: ignore[arg-type]
    if not _narrow_box(box, v[3], (n - v[4], n - v[4])):
        return False
    holes: dict[int, set[int]] = {}
    for _ in range(4 * len(facts) + 4):
        changed = False
        for fact in facts:
            op, a, b = fact[1], fact[2], fact[3]
            ia, ib = _box_of(box, a), _box_of(box, b)
            if _compare(op, ia, ib) is False:
                return False
            for mine, other, how in ((a, b, op), (b, a, _MIRRORED[op])):
                name = name_of(mine)
                if name is None:
                    continue
                io = _box_of(box, other)
                if how == "!=":
                    if io[0] is not None and io[0] == io[1]:
                        gap = io[0] - mine[4]
                        if gap not in holes.setdefault(name, set()):
                            holes[name].add(gap)
                            changed = True
                    continue
                lo, hi = _interval_of(how, io)
                before = list(box[name])
                if not _narrow_box(box, name, _shift((lo, hi), -mine[4])):
                    return False
                changed |= box[name] != before
        for name, gaps in holes.items():
            lo, hi = box[name]
            while lo is not None and lo in gaps:
                lo += 1
            while hi is not None and hi in gaps:
                hi -= 1
            if lo is not None and hi is not None and lo > hi:
                return False
            if [lo, hi] != box[name]:
                box[name] = [lo, hi]
                changed = True
        if not changed:
            return True
    return True


def _shift(iv: tuple, d: int) -> tuple:
    return tuple(None if x is None else x + d for x in iv)


def _box_of(box: dict[int, list], x: Value) -> tuple:
    """The interval occurrence `x` lies in: a number's own, a name's box plus its offset."""
    if type(x) is int:
        return x, x
    name = name_of(x)
    if name is None:
        return bounds(x) or (None, None)
    return _shift(tuple(box[name]), x[4])


def _interval_of(op: str, other: tuple) -> tuple:
    """Where `mine` lies for `mine op other` to hold, `other` within its interval."""
    olo, ohi = other
    if op in ("<", "<="):
        return None, None if ohi is None else ohi - (op == "<")
    if op in (">", ">="):
        return (None if olo is None else olo + (op == ">")), None
    return olo, ohi  # ==


def _narrow_box(box: dict[int, list], name: int, iv: tuple) -> bool:
    """Intersect `name`'s interval with `iv`; False when nothing is left."""
    lo, hi = box.setdefault(name, [None, None])
    if iv[0] is not None and (lo is None or iv[0] > lo):
        lo = iv[0]
    if iv[1] is not None and (hi is None or iv[1] < hi):
        hi = iv[1]
    box[name] = [lo, hi]
    return lo is None or hi is None or lo <= hi

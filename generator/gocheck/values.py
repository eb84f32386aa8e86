"""The abstract values of gocheck's interpreter, and the arithmetic on them.

Every value is hashable (ints, bools, strings, tuples), so that a whole machine state can
be a dictionary key. Data the checker cannot know is `UNKNOWN`; a branch on it goes both
ways. Integers are kept exactly while small (loops with constant bounds unroll); a counter
that grows past `INT_LIMIT` becomes `BIG`, and a branch on `BIG` raises `TooLarge`, which
makes that path undecided, or (explore's search, `Machine.approximate`) goes both ways on a
path marked approximate, whose findings are not reported: going both ways would let a loop
of 100,000 rounds stop early and report a deadlock that no run has. A counter nobody
branches on (a statistic bumped on every tick) costs nothing.

Shapes: `("chan", id)`, `("addr", object, path)` a pointer into an object,
`("fn", name, bindings)` a function or closure, `("model", name, data)` a standard-library
function value the checker models (a context's cancel), `("iface", dynamic type, value)`,
`("struct", fields)`, `("array", items)`, `("slice", object, path, low, high)`,
`("time", base, offset)` a time.Time (`timevalues`), `("?", low, high[, name])` an unknown
integer within bounds (`numeric`),
`("map", object)`, `("iter", map object, keys still to visit)` a range over a map,
`("tuple", items)`, `("ctx", done channel, whether it has a deadline)`, `("?slice", length)`
a slice from the input whose items the checker does not know, with its length (a named
integer: every range over it agrees), and the sync objects
`("wg", counter)`, `("mu", locked)`, `("rw", writer, readers, pending writer)`,
`("once", 0 | 1 running | 2 done | 3 panicked, …)`,
`("cond", locker, waiting goroutines, woken goroutines)`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from typing import Any

UNKNOWN: tuple = ("?",)
# A counter that grew past INT_LIMIT: unknown too, but a branch on it cuts the path
# (TooLarge) instead of going both ways, since both ways would be a guess.
BIG: tuple = ("?big",)
NIL: tuple = ("nil",)
# An error value known not to be nil, though not which error: errors.New's result, a
# library's error variable, a done context's Err, time.ParseDuration's.
ERROR: tuple = ("iface", "*errors.errorString", UNKNOWN)
# A done context's Err, by what ended it: its deadline, or a cancel (its own, or its
# parent's, which passes the parent's on). `context.Canceled` and `DeadlineExceeded` load
# as these, so `errors.Is(ctx.Err(), context.DeadlineExceeded)` is decided, as in Go.
CTX_CANCELED: tuple = ("iface", "*errors.errorString", ("ctxerr", "context canceled"))
CTX_DEADLINE: tuple = ("iface", "*errors.errorString", ("ctxerr", "context deadline exceeded"))
CTX_ERRORS = {"context.Canceled": CTX_CANCELED, "context.DeadlineExceeded": CTX_DEADLINE}
# A done channel's `closed` when the context's deadline closed it (else True).
DEADLINE_CAUSE = "deadline"
# An error that may wrap another: fmt.Errorf with %w (or a format the checker cannot
# read), strconv's *NumError (it wraps ErrSyntax or ErrRange).
WRAPPING: tuple = ("iface", "*fmt.wrapError", UNKNOWN)
# Go's zero time.Time (`timevalues`): before every other instant.
ZERO_TIME: tuple = ("time", "zero", 0)
INT_LIMIT = 1 << 10
# sync.Cond's exported field L is its second (after noCopy).
_COND_L = 1

Value = Any


class TooLarge(Exception):
    """An integer outgrew INT_LIMIT: the path is beyond what the checker unrolls."""

    def __init__(self, line: int = 0) -> None:
        super().__init__(f"a loop counter or integer past {INT_LIMIT}")
        self.line = line


class Unsupported(Exception):
    """The program uses something outside the modelled subset (with its line)."""

    def __init__(self, what: str, line: int = 0) -> None:
        super().__init__(what)
        self.what = what
        self.line = line


def is_unknown(v: Value) -> bool:
    """UNKNOWN, BIG, a range of integers or a comparison not yet decided (`numeric`), a
    slice of unknown items: a value the checker does not know exactly."""
    return type(v) is tuple and 0 < len(v) <= 6 and v[0] in ("?", "?big", "?cmp", "?slice")


def split_class(text: str, open_: str, close: str) -> list[str]:
    """The `;`-separated parts inside `open_…close` at the top level of a type class."""
    inner = text[text.index(open_) + 1 : -1]
    parts, depth, cur = [], 0, []
    for ch in inner:
        if ch in "{(":
            depth += 1
        elif ch in "})":
            depth -= 1
        if ch == ";" and depth == 0:
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    if cur or parts:
        parts.append("".join(cur))
    return parts


@cache
def zero(type_class: str) -> Value:
    """The zero value of a type, from the front end's class of it."""
    if type_class in ("int", "time.Duration"):
        return 0
    if type_class == "float64":
        return 0.0
    if type_class == "time.Time":
        return ZERO_TIME
    if type_class == "bool":
        return False
    if type_class == "string":
        return ""
    if type_class.startswith("struct{"):
        return ("struct", tuple(zero(p) for p in split_class(type_class, "{", "}")))
    if type_class.startswith("array["):
        n = int(type_class[6 : type_class.index("]")])
        return ("array", (zero(type_class[type_class.index("]") + 1 :]),) * n)
    if type_class.startswith("tuple("):
        return ("tuple", tuple(zero(p) for p in split_class(type_class, "(", ")")))
    if type_class == "sync.WaitGroup":
        return ("wg", 0)
    if type_class == "sync.Mutex":
        return ("mu", False)
    if type_class == "sync.RWMutex":
        return ("rw", False, 0, -1)
    if type_class == "sync.Once":
        return ("once", 0)
    if type_class == "sync.Cond":
        return ("cond", NIL, (), ())
    if type_class in ("chan", "ptr", "slice", "map", "func", "iface", "context.Context", "nil") \
            or type_class.startswith("slice:"):
        return NIL
    return UNKNOWN


def unknown_of(type_class: str) -> Value:
    """A value the checker does not know, shaped as a result of this type class (a tuple
    of unknowns for a call with several results)."""
    if type_class.startswith("tuple("):
        return ("tuple", tuple(UNKNOWN for _ in split_class(type_class, "(", ")")))
    return UNKNOWN


# Operators whose result the checker computes exactly on unsigned integers, wrapped to
# the type's width as Go does, when both operands are known: hashing (fnv's multiply and
# xor) picks a shard by its result. Addition and subtraction are counted instead
# (`count`), and signed integers too: a loop bound of `id*100000` must stay unknown, not
# become a loop the checker cannot unroll.
WRAPPED_OPS = frozenset({"*", "^", "&", "|", "&^", "<<", ">>", "%", "/"})


def wrapped(n: int, bits: int, unsigned: bool) -> int:
    """`n` as an integer of `bits` bits holds it (two's complement when signed)."""
    n &= (1 << bits) - 1
    if not unsigned and n >= 1 << (bits - 1):
        n -= 1 << bits
    return n


def exact_binop(op: str, a: int, b: int, bits: int, unsigned: bool) -> Value:
    """`a op b` on integers of a known width, as Go computes it; UNKNOWN where Go
    panics (a division by zero) or the shift is out of range."""
    if op in ("/", "%"):
        if b == 0:
            return UNKNOWN
        q = abs(a) // abs(b) * (1 if (a < 0) == (b < 0) else -1)  # Go truncates
        return wrapped(q if op == "/" else a - b * q, bits, unsigned)
    if op in ("<<", ">>"):
        if b < 0 or b >= 1 << 16:
            return UNKNOWN
        return wrapped(a << b if op == "<<" else a >> b, bits, unsigned)
    result = {"*": a * b, "^": a ^ b, "&": a & b, "|": a | b, "&^": a & ~b}[op]
    return wrapped(result, bits, unsigned)


def clamp(n: int) -> Value:
    """`n`, or UNKNOWN when it is too large to keep (data such as durations)."""
    return n if -INT_LIMIT <= n <= INT_LIMIT else UNKNOWN


# Whether counters are kept exactly past INT_LIMIT (`exact_counts`).
_EXACT_COUNTS: ContextVar[bool] = ContextVar("exact_counts", default=False)


@contextmanager
def exact_counts() -> Iterator[None]:
    """Within it, counters stay exact however far they grow: a random walk (`walk`)
    follows one path, where a loop's 100,000 rounds are 100,000 steps more, not 100,000
    times the states, and it can then follow the path to where the loop really ends."""
    token = _EXACT_COUNTS.set(True)
    try:
        yield
    finally:
        _EXACT_COUNTS.reset(token)


def count(n: int, a: int, b: int) -> Value:
    """The result of `a ± b`: a small counter growing past the limit is `BIG`."""
    if -INT_LIMIT <= n <= INT_LIMIT or _EXACT_COUNTS.get():
        return n
    if abs(a) <= INT_LIMIT and abs(b) <= INT_LIMIT:
        return BIG
    return UNKNOWN


# Where a tagged value holds plain tuples rather than values: a struct's fields, an
# array's items, a call's results, a closure's free variables, a T's cleanups and parallel
# subtests, a map range's keys still to visit (each a plain tuple of values); a map's
# entries (a plain tuple of (key, value) pairs); a range over an iterator's items still
# to yield (a tuple of argument tuples).
# Go data may be any string, so the first item of a plain tuple may read like a tag
# ("chan", "map", "?"): every walk over values goes through `children`, never guesses.
_PLAIN = {"struct": (1,), "array": (1,), "tuple": (1,), "fn": (2,), "tcommon": (2, 8),
          "iter": (2,)}
_PAIRS = {"mapv": 1, "seq": 2}


def children(v: tuple) -> Iterator[Value]:
    """The values directly inside tagged value `v`."""
    tag = v[0]
    plain = _PLAIN.get(tag, ())
    pairs = _PAIRS.get(tag)
    for i in range(1, len(v)):
        x = v[i]
        if i in plain:
            yield from x
        elif i == pairs:
            for pair in x:
                yield from pair
        else:
            yield x


def map_children(v: tuple, f: Callable[[Value], Value]) -> tuple:
    """Tagged value `v` with `f` applied to each tagged value directly inside it; plain
    data (numbers, strings) is kept as it is, which every `f` here does too. A state's key
    maps every value of the state this way (`State.canon`): the test before each call
    saves most of them."""
    tag = v[0]
    plain = _PLAIN.get(tag, ())
    pairs = _PAIRS.get(tag)
    out: list = [tag]
    for i in range(1, len(v)):
        x = v[i]
        if i in plain:
            out.append(tuple([f(y) if type(y) is tuple else y for y in x]))
        elif i == pairs:
            out.append(tuple([tuple([f(y) if type(y) is tuple else y for y in pair])
                              for pair in x]))
        else:
            out.append(f(x) if type(x) is tuple else x)
    return tuple(out)


def contains_unknown(v: Value) -> bool:
    if is_unknown(v):
        return True
    if type(v) is tuple and v:
        return any(contains_unknown(x) for x in children(v))
    return False


def _is_ref(v: Value) -> bool:
    return isinstance(v, tuple) and len(v) > 1 and v[0] in (
        "iface", "chan", "addr", "fn", "slice", "model", "ctx")


def binop(op: str, a: Value, b: Value) -> Value:
    """`a op b` for Go's binary operators, UNKNOWN when either side is not known."""
    if a == BIG or b == BIG:
        return BIG
    if op in ("==", "!="):
        if (a == NIL) != (b == NIL) and (_is_ref(a) or _is_ref(b)):
            # A reference that exists (an error made by errors.New, a channel) is not nil,
            # whatever else about it is unknown.
            return op == "!="
        if contains_unknown(a) or contains_unknown(b):
            return UNKNOWN
        eq = a == b and type(a) is type(b)
        return eq if op == "==" else not eq
    if is_unknown(a) or is_unknown(b):
        return UNKNOWN
    if isinstance(a, bool) or isinstance(b, bool):
        return UNKNOWN
    if isinstance(a, str) and isinstance(b, str):
        if op == "+":
            return a + b if len(a) + len(b) <= 64 else UNKNOWN
        if op in ("<", "<=", ">", ">="):
            return _compare(op, a, b)
        return UNKNOWN
    if not (isinstance(a, int) and isinstance(b, int)):
        return UNKNOWN
    if op in ("<", "<=", ">", ">="):
        return _compare(op, a, b)
    try:
        if op == "+":
            return count(a + b, a, b)
        if op == "-":
            return count(a - b, a, b)
        if op == "*":
            return clamp(a * b)
        if op == "/":
            return UNKNOWN if b == 0 else clamp(int(a / b))
        if op == "%":
            return UNKNOWN if b == 0 else clamp(a - b * int(a / b))
        if op == "&":
            return clamp(a & b)
        if op == "|":
            return clamp(a | b)
        if op == "^":
            return clamp(a ^ b)
        if op == "&^":
            return clamp(a & ~b)
        if op == "<<":
            return clamp(a << b) if 0 <= b < 64 else UNKNOWN
        if op == ">>":
            return clamp(a >> b) if 0 <= b < 64 else UNKNOWN
    except (OverflowError, ValueError):
        return UNKNOWN
    return UNKNOWN


def _compare(op: str, a: Any, b: Any) -> bool:
    if op == "<":
        return a < b
    if op == "<=":
        return a <= b
    if op == ">":
        return a > b
    return a >= b


def unop(op: str, a: Value) -> Value:
    if a == BIG:
        return BIG
    if is_unknown(a):
        return UNKNOWN
    if op == "!":
        return (not a) if isinstance(a, bool) else UNKNOWN
    if op == "-" and isinstance(a, int) and not isinstance(a, bool):
        return clamp(-a)
    if op == "^" and isinstance(a, int) and not isinstance(a, bool):
        return clamp(~a)
    return UNKNOWN


def get_path(v: Value, path: tuple) -> Value:
    for i in path:
        if isinstance(v, tuple) and v[0] == "cond" and i == _COND_L:
            v = v[1]
            continue
        if is_unknown(v) or not isinstance(v, tuple) or v[0] not in ("struct", "array"):
            return UNKNOWN
        items = v[1]
        if not isinstance(i, int) or not 0 <= i < len(items):
            return UNKNOWN
        v = items[i]
    return v


def set_path(v: Value, path: tuple, new: Value) -> Value:
    if not path:
        return new
    if isinstance(v, tuple) and v[0] == "cond" and path[0] == _COND_L:
        return ("cond", set_path(v[1], path[1:], new), v[2], v[3])
    if not isinstance(v, tuple) or v[0] not in ("struct", "array"):
        raise Unsupported("a store into a value the checker does not know the shape of")
    i = path[0]
    items = list(v[1])
    items[i] = set_path(items[i], path[1:], new)
    return (v[0], tuple(items))


def holds_sync(type_class: str) -> bool:
    """Whether a value of this type (its class, as the front end writes it) may hold a
    channel, sync object, function or context."""
    return any(k in type_class for k in ("chan", "sync.", "func", "context.Context"))


SYNC_TAGS = frozenset({"chan", "wg", "mu", "rw", "once", "cond", "ctx", "fn", "model"})


def value_holds_sync(v: Value) -> bool:
    """Whether a value holds a channel, function or sync object anywhere inside it."""
    if not (type(v) is tuple and v):
        return False
    if v[0] in SYNC_TAGS:
        return True
    return any(value_holds_sync(x) for x in children(v) if type(x) is tuple)

"""What `fmt.Sprintf`, `Sprint`, `Sprintln` and `strconv.Itoa` give for operands the checker knows.

Keys made with them (`fmt.Sprintf("web-%d", i)`) would otherwise be unknown, and a map
filled under unknown keys has an unknown length and entries, so a loop over it runs to the
checker's limit and a branch on its length goes both ways (a false deadlock). Only what is
certain is computed: the verbs `%d`, `%s`, `%v` and `%%` without flags or widths, on
integers, strings and booleans of the basic types (a named type may have a `String`
method, which fmt would call); anything else stays unknown.
"""

from __future__ import annotations

from generator.gocheck.values import UNKNOWN, Value

_BASIC = frozenset({"int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16",
                    "uint32", "uint64", "uintptr", "string", "bool"})
MAX_LEN = 64  # as string concatenation: longer strings are not worth keeping exactly


def _text(v: Value) -> str | None:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int | str):
        return str(v)
    return None


def operand(v: Value) -> Value:
    """The plain value inside an `any` operand of a basic type, else UNKNOWN."""
    if isinstance(v, tuple) and len(v) == 3 and v[0] == "iface" and v[1] in _BASIC:
        return v[2]
    return UNKNOWN


def sprintf(format_: str, operands: list[Value]) -> str | None:
    out: list[str] = []
    i = k = 0
    while i < len(format_):
        c = format_[i]
        if c != "%":
            out.append(c)
            i += 1
            continue
        if i + 1 >= len(format_):
            return None
        verb = format_[i + 1]
        i += 2
        if verb == "%":
            out.append("%")
            continue
        if verb not in "dsv" or k >= len(operands):
            return None
        v = operands[k]
        k += 1
        if verb == "d" and (not isinstance(v, int) or isinstance(v, bool)):
            return None
        if verb == "s" and not isinstance(v, str):
            return None
        text = _text(v)
        if text is None:
            return None
        out.append(text)
    if k != len(operands):
        return None  # Go appends %!(EXTRA …)
    return _bounded("".join(out))


def sprint(operands: list[Value]) -> str | None:
    """fmt.Sprint: a space between two operands when neither is a string."""
    out: list[str] = []
    for n, v in enumerate(operands):
        text = _text(v)
        if text is None:
            return None
        if n and not isinstance(v, str) and not isinstance(operands[n - 1], str):
            out.append(" ")
        out.append(text)
    return _bounded("".join(out))


def itoa(v: Value) -> str | None:
    return str(v) if isinstance(v, int) and not isinstance(v, bool) else None


def sprintln(operands: list[Value]) -> str | None:
    """fmt.Sprintln: a space between every two operands, and a newline."""
    texts = [_text(v) for v in operands]
    if any(t is None for t in texts):
        return None
    return _bounded(" ".join(t for t in texts if t is not None) + "\n")


def _bounded(s: str) -> str | None:
    return s if len(s) <= MAX_LEN else None


def wrapped(format_: str, operands: tuple | None) -> tuple | None:
    """The operands fmt.Errorf's %w verbs take, in order; None when the checker cannot
    tell which they are (operands it lost, a `*` width or an explicit argument index)."""
    if operands is None:
        return None
    out: list = []
    i = k = 0
    while i < len(format_):
        if format_[i] != "%":
            i += 1
            continue
        j = i + 1
        while j < len(format_) and format_[j] in "+-# 0123456789.":
            j += 1
        if j >= len(format_) or format_[j] in "*[":
            return None
        verb = format_[j]
        i = j + 1
        if verb == "%":
            continue
        if k >= len(operands):
            return None
        if verb == "w":
            out.append(operands[k])
        k += 1
    return tuple(out)

"""The standard library's text functions on text the checker knows: `strings`' and
`strconv`'s pure functions, `time.ParseDuration`, and a `bufio.Scanner` reading a
`strings.Reader` of a known string.

A program that scans a string literal line by line (an index of pages, a config) had an
unknown number of lines, each `Scan` going both ways: a worker pool fed one job a line
was said to deadlock once the lines outnumbered a buffer, though the literal has seven
(a held-out probe modelled on hugo). Only what is certain is computed: ASCII text (Go
counts bytes, Python code points; they agree there), the default split into lines or
`bufio.ScanWords`; anything else stays unknown, as before. A test that splits a constant
with `strings.Cut` or parses one with `strconv.Atoi` and calls t.Fatalf on a result it
never gets had that branch taken too, skipping a worker's `wg.Done`: a false deadlock.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from fractions import Fraction

from generator.gocheck.values import ERROR, NIL, UNKNOWN, WRAPPING, Value

MAX_LEN = 4096  # longer texts are not worth keeping exactly


def _ascii(*texts: object) -> bool:
    return all(isinstance(t, str) and t.isascii() and len(t) <= MAX_LEN for t in texts)


def _trim_prefix(s: str, p: str) -> str:
    return s[len(p):] if s.startswith(p) else s


def _trim_suffix(s: str, p: str) -> str:
    return s[: len(s) - len(p)] if p and s.endswith(p) else s


def _short(s: str) -> Value:
    return s if len(s) <= MAX_LEN else UNKNOWN


def _parse_int(s: str, base: int, bits: int) -> Value:
    """strconv.ParseInt of a base-10 number (Atoi's): its value and nil, or Go's
    out-of-range value and an error."""
    if base != 10 or not 0 <= bits <= 64:
        return UNKNOWN
    if not re.fullmatch(r"[+-]?[0-9]+", s):  # (Python's int() takes "4_2" and " 4")
        return ("tuple", (0, WRAPPING))
    n = int(s)
    lo, hi = (-(1 << (bits or 64) - 1), (1 << (bits or 64) - 1) - 1)
    if n < lo or n > hi:
        return ("tuple", (lo if n < lo else hi, WRAPPING))
    return ("tuple", (n, NIL))


def _parse_bool(s: str) -> Value:
    if s in ("1", "t", "T", "TRUE", "true", "True"):
        return ("tuple", (True, NIL))
    if s in ("0", "f", "F", "FALSE", "false", "False"):
        return ("tuple", (False, NIL))
    return ("tuple", (False, WRAPPING))


def _quote(s: str) -> Value:
    """strconv.Quote of printable ASCII (other bytes' escapes are left unknown)."""
    if not all(" " <= c <= "~" for c in s):
        return UNKNOWN
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


_DURATION_UNITS = {"ns": 1, "us": 1_000, "\u00b5s": 1_000, "\u03bcs": 1_000, "ms": 1_000_000,
                   "s": 1_000_000_000, "m": 60_000_000_000, "h": 3_600_000_000_000}
_DURATION = re.compile(r"([0-9]*(?:\.[0-9]*)?)(ns|us|\u00b5s|\u03bcs|ms|s|m|h)")


def _parse_duration(s: str) -> Value:
    """time.ParseDuration: a sum of decimal numbers, each with a unit ("1h30m",
    "1.5s", "-2ms", "0"), or an error; UNKNOWN where Go's float arithmetic on a
    fraction might round (a fraction that is not a whole number of nanoseconds) or the
    sum overflows."""
    body = s[1:] if s[:1] in "+-" else s
    if body == "0":
        return ("tuple", (0, NIL))
    total, at = Fraction(0), 0
    while at < len(body):
        m = _DURATION.match(body, at)
        if m is None or m.group(1) in ("", "."):
            return ("tuple", (0, ERROR))
        total += Fraction(m.group(1)) * _DURATION_UNITS[m.group(2)]
        at = m.end()
    if not body or total.denominator != 1 or total >= 1 << 63:
        return ("tuple", (0, ERROR)) if not body else UNKNOWN
    return ("tuple", (-int(total) if s[:1] == "-" else int(total), NIL))


def _cut(s: str, sep: str) -> Value:
    i = s.find(sep)  # Go's Index: 0 for an empty separator, as find gives
    return ("tuple", (s[:i], s[i + len(sep):], True) if i >= 0 else (s, "", False))


def _cut_prefix(s: str, p: str) -> Value:
    return ("tuple", (s[len(p):], True) if s.startswith(p) else (s, False))


def _cut_suffix(s: str, p: str) -> Value:
    return ("tuple", (s[: len(s) - len(p)], True) if s.endswith(p) else (s, False))


# name: the function of its string arguments (all ASCII text); several results come as
# a ("tuple", …), as the machine gives them.
_STRINGS: dict[str, Callable[..., Value]] = {
    "strings.TrimSpace": lambda s: s.strip(" \t\n\v\f\r"),
    "strings.HasPrefix": lambda s, p: s.startswith(p),
    "strings.HasSuffix": lambda s, p: s.endswith(p),
    "strings.Contains": lambda s, p: p in s,
    "strings.ToUpper": lambda s: s.upper(),
    "strings.ToLower": lambda s: s.lower(),
    "strings.TrimPrefix": _trim_prefix,
    "strings.TrimSuffix": _trim_suffix,
    "strings.Index": lambda s, p: s.find(p),
    "strings.LastIndex": lambda s, p: s.rfind(p),
    "strings.Count": lambda s, p: s.count(p) if p else len(s) + 1,
    "strings.EqualFold": lambda s, p: s.lower() == p.lower(),
    "strings.Cut": _cut,
    "strings.CutPrefix": _cut_prefix,
    "strings.CutSuffix": _cut_suffix,
    # A cutset of ASCII bytes: Python's strip removes the same characters from the ends.
    "strings.Trim": lambda s, cut: s.strip(cut),
    "strings.TrimLeft": lambda s, cut: s.lstrip(cut),
    "strings.TrimRight": lambda s, cut: s.rstrip(cut),
    "strings.ReplaceAll": lambda s, old, new: _short(s.replace(old, new)),
    "strings.Compare": lambda a, b: (a > b) - (a < b),
    "strconv.Atoi": lambda s: _parse_int(s, 10, 64),
    "strconv.ParseBool": _parse_bool,
    "strconv.Quote": _quote,
    "time.ParseDuration": _parse_duration,
}


def _format_int(n: int, base: int) -> Value:
    if not 2 <= base <= 36:
        return UNKNOWN
    digits, m = [], abs(n)
    while True:
        m, d = divmod(m, base)
        digits.append("0123456789abcdefghijklmnopqrstuvwxyz"[d])
        if not m:
            break
    return ("-" if n < 0 else "") + "".join(reversed(digits))


# name: the types of its arguments (a str is ASCII text), then the function.
_MIXED: dict[str, tuple[tuple[type, ...], Callable[..., Value]]] = {
    "strings.IndexByte": ((str, int), lambda s, b: s.find(chr(b)) if 0 <= b < 128 else UNKNOWN),
    "strings.Repeat": ((str, int),
                       lambda s, n: s * n if n >= 0 and len(s) * n <= MAX_LEN else UNKNOWN),
    "strings.Replace": ((str, str, str, int),
                        lambda s, old, new, n: _short(s.replace(old, new, n))),
    "strconv.ParseInt": ((str, int, int), _parse_int),
    "strconv.FormatInt": ((int, int), _format_int),
    "strconv.FormatBool": ((bool,), lambda b: "true" if b else "false"),
}


_GO_SPACE = re.compile(r"[ \t\n\v\f\r]+")  # unicode.IsSpace on ASCII


def _split(s: str, sep: str) -> list[str] | None:
    return s.split(sep) if sep else None  # by UTF-8 sequences: left unknown


# name: the function, whose result is a list of strings ([]string in Go).
_STRING_LISTS: dict[str, Callable[..., list[str] | None]] = {
    "strings.Fields": lambda s: [f for f in _GO_SPACE.split(s) if f],
    "strings.Split": _split,
}


def strings_list(name: str, args: list[Value]) -> tuple[str, ...] | None:
    """`name(args)` for one of `strings`' functions that give a []string, on ASCII text;
    None when it is not one, or the text is not known."""
    f = _STRING_LISTS.get(name)
    if f is None or not args or not _ascii(*args):
        return None
    out = f(*args)
    return None if out is None else tuple(out)


def strings_call(name: str, args: list[Value]) -> Value:
    """`name(args)` for one of `strings`' pure functions of ASCII text, else UNKNOWN."""
    mixed = _MIXED.get(name)
    if mixed is not None:
        types, g = mixed
        if len(args) != len(types) or not all(
                type(a) is t and (t is not str or _ascii(a))
                for t, a in zip(types, args, strict=True)):
            return UNKNOWN
        return g(*args)
    f = _STRINGS.get(name)
    if f is None or not args or not _ascii(*args):
        return UNKNOWN
    return f(*args)


# A scanner over known text: ("scanner", text still to read, the last token, by words).
SCAN_LINES, SCAN_WORDS = False, True


def scanner(text: Value) -> Value:
    """What bufio.NewScanner makes of a reader of `text`, or UNKNOWN."""
    return ("scanner", text, "", SCAN_LINES) if _ascii(text) else UNKNOWN


def scan(sc: tuple) -> tuple[bool, tuple]:
    """Scanner.Scan: whether there is a token, and the scanner after it."""
    _, rest, _, words = sc
    if words:
        fields = rest.split(maxsplit=1)
        if not fields:
            return False, ("scanner", "", "", words)
        return True, ("scanner", fields[1] if len(fields) > 1 else "", fields[0], words)
    if not rest:
        return False, ("scanner", "", "", words)
    line, newline, after = rest.partition("\n")
    if newline and line.endswith("\r"):
        line = line[:-1]
    return True, ("scanner", after, line, words)


def join(items: tuple, sep: Value) -> Value:
    """strings.Join of known ASCII texts, else UNKNOWN."""
    if not _ascii(sep, *items):
        return UNKNOWN
    return _short(sep.join(items))

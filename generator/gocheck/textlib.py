"""The standard library's text functions on text the checker knows: `strings`' pure
functions, and a `bufio.Scanner` reading a `strings.Reader` of a known string.

A program that scans a string literal line by line (an index of pages, a config) had an
unknown number of lines, each `Scan` going both ways: a worker pool fed one job a line
was said to deadlock once the lines outnumbered a buffer, though the literal has seven
(a held-out probe modelled on hugo). Only what is certain is computed: ASCII text (Go
counts bytes, Python code points; they agree there), the default split into lines or
`bufio.ScanWords`; anything else stays unknown, as before.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from generator.gocheck.values import UNKNOWN, Value

MAX_LEN = 4096  # longer texts are not worth keeping exactly


def _ascii(*texts: object) -> bool:
    return all(isinstance(t, str) and t.isascii() and len(t) <= MAX_LEN for t in texts)


def _trim_prefix(s: str, p: str) -> str:
    return s[len(p):] if s.startswith(p) else s


def _trim_suffix(s: str, p: str) -> str:
    return s[: len(s) - len(p)] if p and s.endswith(p) else s


# name: (how many string arguments, then the function); ints are passed as they are.
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
    if name == "strings.IndexByte" and len(args) == 2 and _ascii(args[0]) and \
            type(args[1]) is int and 0 <= args[1] < 128:
        return args[0].find(chr(args[1]))
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

"""Which program of a batch a compile error names (issue #18: a batch that does not compile).

A batch that does not compile used to split in halves until each failing program stood
alone: a program that alone cannot compile (a Clojure `go` block too large a method for the
JVM, about one in a thousand) cost its batch's compile about twice over. Compilers name the
line of what they reject, and every renderer names program i's functions `prog<i>` (`func
prog3(`, `(defn prog3-proc0`, `fn prog3_once`), so the nearest such name at or above that
line is the program to try alone; the rest compile together. A guess is checked, not
trusted: runners.engine.execute goes back to halves when the program named compiles alone.
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath

_PROGRAM = re.compile(r"\bprog(\d+)(?!\d)")


def named_program(output: str, source: str, source_file: str) -> int | None:
    """The index of the program whose code holds the first line of `source` (saved as
    `source_file`) that the compiler's `output` names; None when it names none, or a line
    before every program's (shared code)."""
    name = re.escape(PurePosixPath(source_file).name)
    where = re.search(rf"(?<![\w.-]){name}:(\d+)", output)
    if where is None:
        return None
    lines = source.splitlines()
    line = int(where.group(1))
    if not 1 <= line <= len(lines):
        return None
    for text in reversed(lines[:line]):
        found = _PROGRAM.search(text)
        if found:
            return int(found.group(1))
    return None

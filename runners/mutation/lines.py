"""Line-based mutation, whatever the language: what the Go and Crystal kinds share.

A kind names its files and says, line by line, which changes it makes
(``LineMutator``); this module turns that into :class:`Mutant` values with
stable ids ``<stem>-<line>-<operator>[-<n>]`` (the n-th change of that operator
on the line), puts a mutant's line into its file's text, and holds the
operators whose text is the same in both languages: comparisons swapped and
``true``/``false`` flipped. Comments are cut off by :func:`code_part` so no
operator ever reaches into one.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

from runners.mutation.base import Mutant

# (operator, mutated line) for each change a kind makes to line `index` of `lines`.
LineMutator = Callable[[Sequence[str], int], Iterator[tuple[str, str]]]

REL_SWAP = {"<": "<=", "<=": "<", ">": ">=", ">=": ">", "==": "!=", "!=": "=="}
# A comparison stands between spaces: `<<`, `<=>`, `===` and `=>` never match.
_REL = re.compile(r"(?<=\s)(<=|>=|==|!=|<|>)(?=\s)")
_BOOL = re.compile(r"\b(true|false)\b")


def code_part(line: str, comment: str) -> str:
    """The line without a trailing comment (``//`` or ``#``), string literals kept whole."""
    in_string = False
    for i, ch in enumerate(line):
        if ch == '"':
            in_string = not in_string
        elif not in_string and line.startswith(comment, i):
            return line[:i]
    return line


def swapped_comparisons(code: str) -> Iterator[str]:
    """`code` with one comparison swapped (< ↔ <=, > ↔ >=, == ↔ !=), for each in turn."""
    for m in _REL.finditer(code):
        yield code[: m.start()] + REL_SWAP[m.group(1)] + code[m.end() :]


def flipped_bools(code: str) -> Iterator[str]:
    """`code` with one `true`/`false` flipped, for each in turn."""
    for m in _BOOL.finditer(code):
        flipped = "false" if m.group(1) == "true" else "true"
        yield code[: m.start()] + flipped + code[m.end() :]


def numbered(operator: str, changes: Iterator[str]) -> Iterator[tuple[str, str]]:
    """(`operator`, `operator-1`, … , change): the suffixes that keep ids unique on a line."""
    for k, after in enumerate(changes):
        yield (f"{operator}-{k}" if k else operator), after


def mutants_of(text: str, file: str, mutator: LineMutator, stem: str | None = None) -> list[Mutant]:
    """Every mutant of one file's text, in line order; ids start with `stem` (the file's)."""
    stem = stem or Path(file).stem
    lines = text.splitlines()
    found = []
    for index, line in enumerate(lines):
        number = index + 1
        for suffix, after in mutator(lines, index):
            operator = suffix.split("-", 1)[0]
            found.append(Mutant(f"{stem}-{number}-{suffix}", file, number, operator, line, after))
    return found


def mutated_text(text: str, mutant: Mutant) -> str:
    """`text` (the file the mutant was made from) with the mutant's line in place."""
    lines = text.split("\n")
    if lines[mutant.line - 1] != mutant.before:
        raise ValueError(f"{mutant.file}:{mutant.line} is not the line mutant {mutant.id} changes")
    lines[mutant.line - 1] = mutant.after
    return "\n".join(lines)


__all__ = [
    "REL_SWAP",
    "LineMutator",
    "code_part",
    "flipped_bools",
    "mutants_of",
    "mutated_text",
    "numbered",
    "swapped_comparisons",
]

"""The gocheck evaluation corpus: one Go program a file, its known verdict in a header.

Each ``corpus/NAME.go`` starts with a block of ``//`` comment lines that holds::

    // want: partial-deadlock
    // source: where the program comes from
    // what: what the program does and where its bug is

(``what:`` may go on over the following ``//`` lines indented by two spaces or more; the
header ends at the first line that is not a ``//`` comment, e.g. a blank line).
``load_corpus()`` parses them all and raises ``CorpusError`` naming the file and the fault
when a header is malformed.
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

CORPUS_DIR = Path(__file__).resolve().parent / "corpus"
# Programs that import modules outside the standard library (golang.org/x/sync, conc, ...):
# gocheck fetches them through the Go module proxy; confirm.py, which builds each program
# alone, cannot, so they were confirmed by hand (their headers say how).
MODULES_DIR = Path(__file__).resolve().parent / "corpus_modules"

# The four verdicts a corpus program is about, and the one it may say sparingly.
MAIN_VERDICTS = ("ok", "global-deadlock", "partial-deadlock", "channel-safety")
VERDICTS = (*MAIN_VERDICTS, "unsupported")

_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]*$")
_FIELD = re.compile(r"^//\s*(want|source|what):\s*(.*?)\s*$")


class CorpusError(ValueError):
    """A corpus file whose header is malformed."""


@dataclasses.dataclass(frozen=True)
class CorpusProgram:
    name: str
    path: Path
    want: str
    source: str
    what: str


def parse_header(path: Path) -> CorpusProgram:
    """The header of one corpus file; CorpusError if it is malformed."""
    name = path.stem
    if not _NAME.match(name):
        raise CorpusError(f"{path}: the name {name!r} is not lower-case letters, digits, - or _")
    fields: dict[str, str] = {}
    last: str | None = None
    for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.startswith("//"):
            break  # the header is the first block of // lines
        match = _FIELD.match(line)
        if match:
            key, value = match.groups()
            if key in fields:
                raise CorpusError(f"{path}:{lineno}: {key}: given twice")
            fields[key] = value
            last = key
        elif last == "what" and line.startswith("//  ") and line[2:].strip():
            fields["what"] += " " + line[2:].strip()  # a what: that goes on, indented
        else:
            last = None
    for key in ("want", "source", "what"):
        if not fields.get(key):
            raise CorpusError(f"{path}: the header has no `// {key}: ...` line (or it is empty)")
    if fields["want"] not in VERDICTS:
        raise CorpusError(f"{path}: want: {fields['want']!r} is not one of {', '.join(VERDICTS)}")
    return CorpusProgram(
        name=name, path=path, want=fields["want"], source=fields["source"], what=fields["what"]
    )


def load_corpus(directory: Path = CORPUS_DIR) -> list[CorpusProgram]:
    """Every corpus program, sorted by name; CorpusError on a malformed header."""
    programs = [parse_header(path) for path in sorted(directory.glob("*.go"))]
    seen: set[str] = set()
    for program in programs:
        if program.name in seen:
            raise CorpusError(f"{program.path}: the name {program.name!r} is used twice")
        seen.add(program.name)
    return programs

"""Mutants of the Crystal stdlib's channel, and mutant toolchains built from them.

A mutant is one small change to the channel implementation in the stdlib of a
Crystal compiler (Debian's 1.6.0 keeps it in ``/usr/lib/crystal/lib``):
``channel.cr`` (channels and ``select``; later releases split ``select`` into
``channel/**/*.cr``, taken too when present) and
``crystal/pointer_linked_list.cr`` (the lists of waiting senders and
receivers, which nothing else in the stdlib uses). The compiler reads the
stdlib from source on every build, through ``CRYSTAL_PATH``, so a mutant
toolchain is the base compiler plus a directory whose ``src/`` is the stdlib
with the one file replaced: every other entry is a symbolic link into the
base's stdlib, so a mutant costs a few kilobytes, not 11 MB.
runners.targets.crystal finds these directories as toolchains (origin
"mutant", id ``crystal-<version>-mutant-<mutant id>``) and builds with
``CRYSTAL_PATH=lib:<mutant>/src`` and a compiler cache of their own.

Operators, applied to code lines only (comments, string literals and macro
code untouched):

- ``rel``: a comparison in an ``if``/``unless``/``elsif``/``while``/``until``
  condition, block or modifier form, swapped (< ↔ <=, > ↔ >=, == ↔ !=);
- ``not``: a condition negated (``if c`` → ``if !(c)``, ``unless`` → ``if``,
  ``while`` ↔ ``until``), except a condition that binds a variable
  (``if x = queue.shift?``): negated, the body would see ``x`` as nil and the
  mutant would not compile;
- ``drop``: a statement removed when it is a call (wake-ups: ``fiber.enqueue``,
  ``Crystal::Scheduler.enqueue``; locking: ``@lock.lock``/``unlock``,
  ``ops_locks.each &.lock``; parking: ``Crystal::Scheduler.reschedule``;
  queueing: ``@senders.push``/``delete``, ``queue << value``; a step of a
  call chain such as ``.sort_by(&.lock_object_id)``), or an assignment to an
  instance variable or attribute (``@closed = true``, ``x.value.state = …``).
  Not a method's value (its last line, unless it is declared to return
  Nil), a bare ``X.new``, nor an instance variable's first value: those
  mutants would mostly fail to compile, or change nothing;
- ``incdec``: ``x += 1`` ↔ ``x -= 1`` (1.6's channel has none; later ones may);
- ``bool``: ``true`` ↔ ``false`` in a ``return``, an assignment or a method's
  last line;
- ``off``: a count off by one: the right side of an ordering comparison in a
  condition (``capacity > 0`` → ``capacity > 1``, ``queue.size < @capacity`` →
  ``@capacity - 1``) and ``x.size`` in a ``return``.

Ids are ``<file stem>-<line>-<operator>[-<n>]``; a file under a directory has
the directory in its stem (``crystal-pointer_linked_list-49-rel``), so every
id is unique and names the same change for as long as the file is the same
(the base compiler's version pins it).

No existing mutation tool fits: no package on PyPI or npm mutates Crystal
(their package lists were searched), crates.io's tools (cargo-mutants) mutate
Rust, and the Crystal one, crytic, is a shard on GitHub only, which this
machine cannot reach. Like the others it mutates a project and runs its specs
per mutant, where chanfuzz needs named, stable mutants that become toolchains
for campaigns, bisection and the web app.
Crystal's own channel spec, the yardstick, is runners.mutation.crystal_spec.
"""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Iterator, Sequence
from dataclasses import asdict
from pathlib import Path

from runners.mutation import lines as line_mutation
from runners.mutation.base import Mutant, MutantKind
from runners.mutation.lines import code_part, flipped_bools, numbered, swapped_comparisons
from runners.targets.base import Toolchain
from runners.targets.crystal import mutants_dir, stdlib_dir

# Globs under the stdlib, in id order; a release lacking one has no mutants of it.
FILES = ("channel.cr", "channel/**/*.cr", "crystal/pointer_linked_list.cr")
OPERATORS = ("rel", "not", "drop", "incdec", "bool", "off")

_CONDITION_KEYWORDS = ("if", "unless", "elsif", "while", "until")
_NEGATED = {"if": "if", "elsif": "elsif", "unless": "if", "while": "until", "until": "while"}
_BLOCK = re.compile(r"^(\s*)(if|unless|elsif|while|until) (.+)$")
_MODIFIER = re.compile(r"^(\s*\S.*?) (if|unless|while|until) (.+)$")
# An assignment (not ==, !=, <=, >=, =~, =>): a condition holding one binds a variable.
_BINDS = re.compile(r"(?<![=!<>])=(?![=~>])")
# Lines that are declarations or control flow, never a droppable statement.
_KEYWORDS = frozenset(
    ("def", "end", "if", "unless", "elsif", "else", "while", "until", "case", "in", "when",
     "then", "return", "yield", "next", "break", "class", "struct", "module", "enum",
     "include", "extend", "require", "property", "getter", "setter", "record", "abstract",
     "private", "protected", "macro", "lib", "fun", "alias", "annotation", "begin", "rescue",
     "ensure", "do", "super", "raise", "loop", "spawn", "select", "with", "uninitialized",
     "nil", "true", "false")
)  # fmt: skip
_RECEIVER = r"(?:[A-Z]\w*(?:::[A-Z]\w*)+|typeof\(\w+\)|@?\w+)"
_CALL = re.compile(rf"^{_RECEIVER}((?:\.@?\w+[?!]?)*)(.*)$")
_CHAIN_STEP = re.compile(r"^\.\w+[?!]?(?:\(.*\))?$")
_STORE = re.compile(r"^(?:@\w+(?:, @?\w+)*|\w+(?:\.@?\w+)+) = (?!uninitialized\b)")
_OPERATOR_START = re.compile(r"^(?:[=+*/%<>!|^~?:]|-\s|&&|&\s|\.\.)")
_INCDEC = re.compile(r"(?<=\S )(&?)([+-])(=\s+1)\s*$")
_ORDERING = re.compile(r"(?<=\s)(?:<=|>=|<|>)\s+(@?\w+(?:\.\w+[?!]?)*)")
_EQUALS_NUMBER = re.compile(r"(?<=\s)(?:==|!=)\s+(\d+)\b")
_SIZE = re.compile(r"\b\w+\.size\b")
_DEF = re.compile(r"^\s*(?:(?:private|protected) )?def [^(:]*(?:\(.*\))?(?:\s:\s*(\S.*?))?\s*$")
_INITIALISER = re.compile(
    r"^\s*(?:(?:private|protected|abstract) )*(?:class|struct|module|def initialize)\b"
)
_NEW = re.compile(r"\.new\b(?:\(.*\))?$")


def _condition(code: str) -> tuple[str, str, str] | None:
    """(text before the condition keyword, keyword, condition) of a conditional line."""
    if m := _BLOCK.match(code):
        return m.group(1), m.group(2), m.group(3)
    if (m := _MODIFIER.match(code)) and m.group(1).strip().split()[0] not in _CONDITION_KEYWORDS:
        return m.group(1) + " ", m.group(2), m.group(3)
    return None


def _negated(head: str, keyword: str, condition: str) -> Iterator[str]:
    if _BINDS.search(condition):
        return
    negated = f"!({condition})" if keyword in ("if", "elsif") else condition
    yield f"{head}{_NEGATED[keyword]} {negated}"


def _shifted(code: str, pattern: re.Pattern[str]) -> Iterator[str]:
    """`code` with one count (a group of `pattern`) one more, then one less, for each."""
    for m in pattern.finditer(code):
        operand = m.group(1) if m.groups() else m.group(0)
        start, end = (m.start(1), m.end(1)) if m.groups() else (m.start(), m.end())
        if operand.isdigit():
            shifted = (str(int(operand) + 1), str(int(operand) - 1))
        else:
            shifted = (f"{operand} + 1", f"{operand} - 1")
        for replacement in shifted:
            yield code[:start] + replacement + code[end:]


def _is_call(statement: str) -> bool:
    """A method call standing alone: `a.b`, `a.b(x)`, `a.b x`, `f(x)`, `q << x`, `.step(x)`."""
    if statement.startswith("."):
        return bool(_CHAIN_STEP.match(statement))
    m = _CALL.match(statement)
    if not m or statement.split(".")[0].split("(")[0] in _KEYWORDS:
        return False
    chain, rest = m.group(1), m.group(2)
    if rest.startswith("(") or rest.startswith(" << "):
        return True
    if not chain:
        return False  # a bare name: a variable as often as a call
    return rest == "" or (rest.startswith(" ") and not _OPERATOR_START.match(rest[1:]))


def _code_lines(source: Sequence[str], index: int, step: int) -> Iterator[str]:
    """The code lines after (step 1) or before (step -1) line `index`, blank lines and
    comments skipped."""
    i = index + step
    while 0 <= i < len(source):
        code = code_part(source[i], "#").rstrip()
        if code.strip():
            yield code
        i += step


def _indent(code: str) -> int:
    return len(code) - len(code.lstrip())


def _is_method_value(source: Sequence[str], index: int, code: str) -> bool:
    """Is line `index` the value of a method (its last line) not declared to return Nil?
    Callers may use that value: a mutant without it would mostly fail to compile."""
    after = next(_code_lines(source, index, 1), "")
    if after.strip() != "end" or _indent(after) >= _indent(code):
        return False
    opener = next((c for c in _code_lines(source, index, -1) if _indent(c) <= _indent(after)), "")
    m = _DEF.match(opener)
    return bool(m) and m.group(1) != "Nil"


def _initialises(source: Sequence[str], index: int, code: str) -> bool:
    """Is line `index` in a class body or an `initialize`, where instance variables begin?"""
    opener = next((c for c in _code_lines(source, index, -1) if _indent(c) < _indent(code)), "")
    return bool(_INITIALISER.match(opener))


def _unbalanced(statement: str) -> bool:
    return any(statement.count(a) != statement.count(b) for a, b in ("()", "{}", "[]"))


def _droppable(source: Sequence[str], index: int, code: str) -> bool:
    statement = code.strip()
    if (m := _MODIFIER.match(code)) and m.group(2) in ("if", "unless"):
        statement = m.group(1).strip()  # `@head = _next if @head == node`: drop it all
    if statement.endswith((" do", "|", "(", ",", "\\")) or _unbalanced(statement):
        return False  # opens a block or goes on on the next line
    following = next(_code_lines(source, index, 1), "").lstrip()
    if following.startswith(".") and not statement.startswith("."):
        return False  # the head of a chain going on below (`ops_locks = ops\n  .to_a`)
    previous = next(_code_lines(source, index, -1), "")
    if previous.endswith((",", "(", "\\", "&&", "||", "=")):
        return False  # the end of a statement begun above
    if _is_call(statement):
        # A bare `X.new(…)` does nothing but make a value: without it the method
        # returns nil, which compiles or not but changes no channel.
        return not _NEW.search(statement) and not _is_method_value(source, index, code)
    if _STORE.match(statement):
        # An instance variable's first value: without it the variable would be nil
        # where its type says otherwise, a mutant that could only fail to compile.
        return not (statement.startswith("@") and _initialises(source, index, code))
    return False


def _line_mutants(source: Sequence[str], index: int) -> Iterator[tuple[str, str]]:
    """(operator id suffix, mutated line) for each change of one source line."""
    line = source[index]
    code = code_part(line, "#").rstrip()
    stripped = code.strip()
    if not stripped or '"' in stripped or "'" in stripped or stripped.startswith(("{%", "{{")):
        return
    tail = line[len(code) :]
    changes: dict[str, list[str]] = {operator: [] for operator in OPERATORS}
    if found := _condition(code):
        head, keyword, condition = found
        before = f"{head}{keyword} "
        changes["rel"] += [before + c for c in swapped_comparisons(condition)]
        changes["not"] += _negated(head, keyword, condition)
        counts = [*_shifted(condition, _ORDERING), *_shifted(condition, _EQUALS_NUMBER)]
        changes["off"] += [before + c for c in counts]
    if _droppable(source, index, code):
        changes["drop"].append(f"{code[: _indent(code)]}# chanfuzz mutant: removed {stripped}")
    if m := _INCDEC.search(code):
        flipped = "-" if m.group(2) == "+" else "+"
        changes["incdec"].append(code[: m.start(2)] + flipped + code[m.end(2) :])
    if stripped.startswith("return ") or re.search(r"(?:^|\w\s*=\s*)(true|false)$", stripped):
        changes["bool"] += flipped_bools(code)
    if stripped.startswith("return "):
        changes["off"] += _shifted(code, _SIZE)
    for operator, mutated in changes.items():
        # The removal comment is the whole line; any other change keeps the line's comment.
        ending = "" if operator == "drop" else tail
        yield from numbered(operator, (m + ending for m in mutated))


def file_stem(file: str) -> str:
    """The id prefix of a file: `channel.cr` → `channel`, `channel/select/timeout_action.cr`
    → `channel-select-timeout_action` (a directory is part of it, so stems stay unique)."""
    return file.removesuffix(".cr").replace("/", "-")


def mutants_of(text: str, file: str) -> list[Mutant]:
    """Every mutant of one file's text, in line order."""
    return line_mutation.mutants_of(text, file, _line_mutants, stem=file_stem(file))


def channel_files(stdlib: Path) -> list[str]:
    """The channel implementation's files in `stdlib`, relative to it, in id order."""
    found: list[str] = []
    for pattern in FILES:
        for path in sorted(stdlib.glob(pattern)):
            relative = path.relative_to(stdlib).as_posix()
            if relative not in found:
                found.append(relative)
    return found


def list_mutants(stdlib: Path) -> list[Mutant]:
    """Every mutant of the channel implementation in the stdlib at `stdlib`."""
    found = []
    for file in channel_files(stdlib):
        found += mutants_of((stdlib / file).read_text(), file)
    return found


def _shadow(stdlib: Path, into: Path, file: str, text: str) -> None:
    """Make `into` read as `stdlib` with `file` holding `text`: real directories along
    `file`'s path, a symbolic link for every other entry."""
    parts = Path(file).parts
    source, target = stdlib, into
    for depth, part in enumerate(parts):
        target.mkdir(parents=True, exist_ok=True)
        for entry in source.iterdir():
            if entry.name != part:
                (target / entry.name).symlink_to(entry)
        source, target = source / part, target / part
        if depth == len(parts) - 1:
            target.write_text(text)


def install(mutant: Mutant, *, crystal: Path, stdlib: Path, base_id: str, base_version: str,
            root: Path) -> Path:  # fmt: skip
    """Write the mutant toolchain's directory under `root` (idempotent); return it."""
    directory = root / base_id / mutant.id
    meta_path = directory / "mutant.json"
    meta_path.unlink(missing_ok=True)  # a half-rewritten mutant must not be found
    source = directory / "src"
    if source.exists():
        shutil.rmtree(source)
    text = line_mutation.mutated_text((stdlib / mutant.file).read_text(), mutant)
    _shadow(stdlib, source, mutant.file, text)
    meta = {"base": base_id, "version": base_version, "crystal": str(crystal),
            "stdlib": str(stdlib), **asdict(mutant)}  # fmt: skip
    meta_path.write_text(json.dumps(meta, indent=1) + "\n")  # last: it makes it a toolchain
    # The compiler runs as this user, but the sandbox's may read what builds name.
    for path in (directory, directory.parent, root):
        path.chmod(0o755)
    return directory


def _kind_install(mutant: Mutant, base: Toolchain) -> Path:
    return install(mutant, crystal=base.executable, stdlib=stdlib_dir(base.executable),
                   base_id=base.id, base_version=base.version, root=mutants_dir())  # fmt: skip


def kind() -> MutantKind:
    """The Crystal stdlib's channel as a kind of mutant (runners.mutation.kinds)."""
    from runners.mutation.crystal_spec import SPEC_NAME, crystal_runtime_tests

    return MutantKind(
        name="crystal",
        targets=("crystal",),
        source="the stdlib's channel.cr (and channel/) and crystal/pointer_linked_list.cr",
        list_mutants=lambda base: list_mutants(stdlib_dir(base.executable)),
        install=_kind_install,
        runtime_tests=crystal_runtime_tests,
        runtime_tests_name=SPEC_NAME,
    )


__all__ = [
    "FILES",
    "OPERATORS",
    "channel_files",
    "file_stem",
    "install",
    "kind",
    "list_mutants",
    "mutants_of",
]

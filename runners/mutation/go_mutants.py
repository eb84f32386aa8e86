"""Mutants of the Go runtime's channel code, and mutant toolchains built from them.

A mutant is one small change to `runtime/chan.go` or `runtime/select.go` of a
Go toolchain's GOROOT. It needs no copy of the GOROOT: `go build -overlay`
replaces the file for one build, and the Go command rebuilds the runtime from
that source (about 8 s the first time, cached per toolchain after). So a
mutant toolchain is the base toolchain plus a directory holding the mutated
file and its `overlay.json`, found by the Go target's discovery like any other
toolchain (origin "mutant", id `go-<version>-mutant-<mutant id>`).

Operators, applied to code lines only (comments and string literals untouched):

- `rel`: a comparison in an `if`/`for` condition swapped (< ↔ <=, > ↔ >=, == ↔ !=);
- `not`: an `if` condition negated;
- `drop`: a statement that is a bare call removed (wake-ups: `goready`; locking:
  `lock`, `unlock`, `sellock`, `selunlock`; parking, queueing, copying, …);
- `incdec`: `x++` ↔ `x--` (counts and ring indices of buffered channels);
- `bool`: `true` ↔ `false` in a `return` or an assignment.

Ids are `<file stem>-<line>-<operator>[-<n>]` (the n-th change of that operator on
the line), so an id names the same change for as long as the file is the same
(the base toolchain's version pins it). No existing mutation tool fits: the
PyPI tools mutate Python; go-mutesting (through the Go proxy) rewrites a
package and runs a test command per mutant, where this needs named, stable
mutants that become toolchains for campaigns, bisection and the web app.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Sequence
from dataclasses import asdict
from pathlib import Path

from runners.mutation import lines
from runners.mutation.base import Mutant, MutantKind
from runners.mutation.lines import code_part, flipped_bools, numbered, swapped_comparisons
from runners.targets.base import Toolchain
from runners.targets.go import mutants_dir

FILES = ("chan.go", "select.go")
OPERATORS = ("rel", "not", "drop", "incdec", "bool")

_IF = re.compile(r"^(\s*(?:\} else )?if )(.+?)( \{\s*)$")
_CALL = re.compile(r"^\s*[A-Za-z_][\w.]*(?:\[[^\]]*\])?\(.*\)\s*$")
_INCDEC = re.compile(r"(\w(?:[\w.\[\]]*\w)?)(\+\+|--)\s*$")


def _line_mutants(source: Sequence[str], index: int) -> Iterator[tuple[str, str]]:
    """(operator id suffix, mutated line) for each change of one source line."""
    line = source[index]
    code = code_part(line, "//").rstrip()
    stripped = code.strip()
    if not stripped or stripped.startswith(("//", "*", "/*")) or '"' in stripped:
        return
    tail = line[len(code) :] if line.startswith(code) else ""
    if re.match(r"^(\} else )?if |^for ", stripped):
        yield from numbered("rel", (s + tail for s in swapped_comparisons(code)))
    if m := _IF.match(code):
        head, condition = m.group(1), m.group(2)
        if "; " in condition:  # `if x := f(); x != nil {`: negate the condition only
            init, condition = condition.rsplit("; ", 1)
            head += init + "; "
        yield "not", f"{head}!({condition}){m.group(3).rstrip()}" + tail
    if _CALL.match(code) and not stripped.startswith(("return", "go ", "defer ", "if ", "for ")):
        indent = code[: len(code) - len(code.lstrip())]
        yield "drop", f"{indent}// chanfuzz mutant: removed {stripped}"
    if m := _INCDEC.search(code):
        flipped = "--" if m.group(2) == "++" else "++"
        yield "incdec", code[: m.start(2)] + flipped + code[m.end(2) :] + tail
    if stripped.startswith("return ") or re.search(r"\w\s*=\s*(true|false)\s*$", stripped):
        yield from numbered("bool", (s + tail for s in flipped_bools(code)))


def mutants_of(text: str, file: str) -> list[Mutant]:
    """Every mutant of one file's text, in line order."""
    return lines.mutants_of(text, file, _line_mutants)


def runtime_dir(goroot: Path) -> Path:
    return goroot / "src" / "runtime"


def list_mutants(goroot: Path) -> list[Mutant]:
    """Every mutant of the channel code of the Go at `goroot`."""
    found = []
    for file in FILES:
        found += mutants_of((runtime_dir(goroot) / file).read_text(), file)
    return found


def find_mutant(goroot: Path, mutant_id: str) -> Mutant:
    """The mutant `mutant_id` of the Go at `goroot`; KeyError naming it when there is none."""
    for mutant in list_mutants(goroot):
        if mutant.id == mutant_id:
            return mutant
    raise KeyError(f"no mutant {mutant_id!r} of the Go runtime at {goroot}")


def mutated_text(goroot: Path, mutant: Mutant) -> str:
    return lines.mutated_text((runtime_dir(goroot) / mutant.file).read_text(), mutant)


def install(mutant: Mutant, *, goroot: Path, base_id: str, base_version: str, root: Path) -> Path:
    """Write the mutant toolchain's directory under `root` (idempotent); return it."""
    directory = root / base_id / mutant.id
    directory.mkdir(parents=True, exist_ok=True)
    source = directory / mutant.file
    source.write_text(mutated_text(goroot, mutant))
    overlay = {"Replace": {str(runtime_dir(goroot) / mutant.file): str(source)}}
    (directory / "overlay.json").write_text(json.dumps(overlay, indent=1) + "\n")
    meta = {"base": base_id, "version": base_version, "goroot": str(goroot), **asdict(mutant)}
    (directory / "mutant.json").write_text(json.dumps(meta, indent=1) + "\n")
    # The sandbox user compiles nothing, but reads the overlay's paths through builds.
    for path in (directory, directory.parent, root):
        path.chmod(0o755)
    return directory


def _kind_install(mutant: Mutant, base: Toolchain) -> Path:
    return install(mutant, goroot=base.home, base_id=base.id, base_version=base.version,
                   root=mutants_dir())  # fmt: skip


def kind() -> MutantKind:
    """The Go runtime's channel code as a kind of mutant (runners.mutation.kinds)."""
    from runners.mutation.runtime_tests import go_runtime_tests

    return MutantKind(
        name="go",
        targets=("go",),
        source="$GOROOT/src/runtime/chan.go and select.go",
        list_mutants=lambda base: list_mutants(base.home),
        install=_kind_install,
        runtime_tests=go_runtime_tests,
        runtime_tests_name="go test -short -run 'Chan|Select' runtime, then test/chan",
    )


__all__ = [
    "FILES",
    "OPERATORS",
    "Mutant",
    "find_mutant",
    "install",
    "kind",
    "list_mutants",
    "mutants_of",
]

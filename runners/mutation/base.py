"""What every kind of mutant shares: a mutant, the verdict of a runtime's own tests, and
the declaration of one mutated channel implementation (:class:`MutantKind`).

A *kind* is one channel implementation that chanfuzz mutates (the Go runtime's
`chan.go`/`select.go`, a Rust crate's source, Crystal's stdlib channel). It
lists the mutants of a base toolchain, installs one as a toolchain of its
targets (origin ``"mutant"``, the base's version, an id ending in
``-mutant-<mutant id>``, found by the targets' own discovery), and runs the
implementation's own test suite on an installed mutant. ``runners.mutation.kinds``
is the registry that `manage.py mutants` and the mutation report iterate over.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from runners.targets.base import Toolchain


@dataclass(frozen=True)
class Mutant:
    id: str  # stable for a given base: names the same change every time
    file: str  # the mutated file, relative to the implementation's source root
    line: int  # 1-based
    operator: str
    before: str  # the line as it was
    after: str  # the line as the mutant has it ("" or a comment when removed)

    def describe(self) -> str:
        return f"{self.before.strip()}  →  {self.after.strip() or '(removed)'}"


@dataclass(frozen=True)
class RuntimeTests:
    status: str  # "killed", "survived", "build failed" or "unavailable" (no suite to run)
    by: str  # what killed it ("" when it survived)
    seconds: float
    output: str  # the end of what the failing step printed


@dataclass(frozen=True)
class MutantKind:
    name: str  # "go", "flume", "crossbeam-channel", "crystal"
    targets: tuple[str, ...]  # the target languages whose toolchains its mutants become
    source: str  # what is mutated, for people ("runtime/chan.go and runtime/select.go")
    list_mutants: Callable[[Toolchain], list[Mutant]]  # of a base (non-mutant) toolchain
    install: Callable[[Mutant, Toolchain], Path]  # idempotent; returns the mutant's directory
    runtime_tests: Callable[[Toolchain], RuntimeTests]  # on an installed mutant toolchain
    runtime_tests_name: str  # "go test -run 'Chan|Select' runtime + test/chan"

    def find(self, base: Toolchain, mutant_id: str) -> Mutant:
        """The mutant `mutant_id` of `base`; KeyError naming it when there is none."""
        for mutant in self.list_mutants(base):
            if mutant.id == mutant_id:
                return mutant
        raise KeyError(f"no mutant {mutant_id!r} of {base.id}")


__all__ = ["Mutant", "MutantKind", "RuntimeTests"]

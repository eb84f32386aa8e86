"""The registry of mutated channel implementations: every :class:`MutantKind` by name.

`manage.py mutants`, the mutation report and its tests iterate over
:func:`all_kinds`; a kind is found from a target language by :func:`kind_for`.
Each kind lives in its own module, which exposes ``kind()`` (or ``kinds()``, a list).
"""

from __future__ import annotations

import importlib

from runners.engine.toolchains import installed_toolchains
from runners.mutation.base import MutantKind
from runners.targets.base import Toolchain

# Modules of kinds, in the order reports list them.
_MODULES = (
    "runners.mutation.go_mutants",
    "runners.mutation.crystal_mutants",
    "runners.mutation.rust_mutants",
)


def all_kinds() -> list[MutantKind]:
    found = []
    for name in _MODULES:
        module = importlib.import_module(name)
        # A module mutating several implementations (two Rust crates) lists them in kinds().
        found += module.kinds() if hasattr(module, "kinds") else [module.kind()]
    return found


def kind_for(target: str) -> MutantKind:
    """The kind whose mutants become toolchains of `target`; KeyError saying which exist."""
    kinds = all_kinds()
    for kind in kinds:
        if target in kind.targets or target == kind.name:
            return kind
    mutable = ", ".join(t for k in kinds for t in k.targets)
    raise KeyError(f"no mutants of {target}: targets with mutants are {mutable}")


def installed_mutant(target: str, base: Toolchain, mutant_id: str) -> Toolchain | None:
    """The installed toolchain of `target` that is mutant `mutant_id` of `base`, if any."""
    for toolchain in installed_toolchains(target):
        if (
            toolchain.origin == "mutant"
            and toolchain.version == base.version
            and toolchain.id.endswith(f"-mutant-{mutant_id}")
        ):
            return toolchain
    return None


__all__ = ["all_kinds", "installed_mutant", "kind_for"]

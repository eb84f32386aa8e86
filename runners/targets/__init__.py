"""The target registry: every language chanfuzz renders for, each declared once.

A target is a module of this package that defines ``TARGET``, a
:class:`~runners.targets.base.TargetSpec` saying everything about it (renderer,
capabilities, toolchains, build and run commands, output readers, sandbox image,
display names). The registry finds them by their files; every other place (the
CLI's choices, forms, playground tabs, bundles, docker images, ``toolchains
list``, campaign pages) iterates over :func:`all_targets`. Adding a target is
adding its module, its renderer, its tests and its Dockerfile: see
docs/adding-a-target.md.
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache

from generator.capabilities import Capabilities
from runners.targets.base import TargetSpec

__all__ = [
    "TargetSpec",
    "all_targets",
    "get_target",
    "names",
    "runnable_names",
    "shared_capabilities",
]


@cache
def _registry() -> dict[str, TargetSpec]:
    found: list[TargetSpec] = []
    for info in pkgutil.iter_modules(__path__):
        module = importlib.import_module(f"{__name__}.{info.name}")
        spec = getattr(module, "TARGET", None)
        if isinstance(spec, TargetSpec):
            found.append(spec)
    found.sort(key=lambda t: (t.position, t.name))
    registry = {t.name: t for t in found}
    if len(registry) != len(found):
        raise RuntimeError("two targets declare the same name")
    return registry


def all_targets() -> tuple[TargetSpec, ...]:
    """Every target, in display order."""
    return tuple(_registry().values())


def names() -> tuple[str, ...]:
    return tuple(_registry())


def runnable_names() -> tuple[str, ...]:
    """Targets whose programs can be built and run here (not render-only)."""
    return tuple(t.name for t in all_targets() if t.runnable)


def get_target(name: str) -> TargetSpec:
    """The target called ``name``; ValueError naming the known ones otherwise."""
    try:
        return _registry()[name]
    except (KeyError, TypeError):
        raise ValueError(f"unknown language {name!r}; known: {', '.join(names())}") from None


def shared_capabilities(target_names: list[str] | tuple[str, ...]) -> Capabilities:
    """What every one of these targets can express (generation for a campaign over them)."""
    return Capabilities.shared(get_target(n).capabilities for n in target_names)

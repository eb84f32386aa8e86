"""Behaviour kept: generated programs of every heuristic render byte for byte as before, on
every target and option variant of make_golden.py (200 seeds for the first five, 40 or 12
for the others).

renders.json was written by make_golden.py before the target registry replaced the
per-language tables; a change that moves any generated source fails here with the
variant, heuristic and seed that moved.
"""

from __future__ import annotations

import json

import pytest

from tests.golden.make_golden import GOLDEN, HEURISTICS, VARIANTS, compute_variant, labels


@pytest.fixture(scope="module")
def recorded() -> dict[str, dict[str, list[str]]]:
    return json.loads(GOLDEN.read_text())


def test_the_recorded_variants_are_the_declared_ones(recorded: dict) -> None:
    assert set(recorded) == set(VARIANTS)


# One test a variant: a change names every variant it moves, and mutation runs (which stop
# at the first failure) need not render all of them.
@pytest.mark.parametrize("variant", list(VARIANTS))
def test_the_variant_renders_the_recorded_programs_byte_for_byte(
    variant: str, recorded: dict
) -> None:
    was, now = recorded[variant], compute_variant(variant)
    moved = []
    for h in HEURISTICS:
        hashes = zip(labels(VARIANTS[variant]), was[h], now[h], strict=False)
        moved += [f"{h} {where}" for where, old, new in hashes if old != new]
        if len(was[h]) != len(now[h]):
            moved.append(f"{h}: {len(was[h])} hashes recorded, {len(now[h])} now")
    assert not moved, f"{len(moved)} renders of {variant} changed, first: {moved[:5]}"

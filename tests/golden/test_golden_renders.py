"""Behaviour kept: generated programs of every heuristic render byte for byte as before, on
every target and option variant of make_golden.py (200 seeds for the first five, 40 for the
others).

renders.json was written by make_golden.py before the target registry replaced the
per-language tables; a change that moves any generated source fails here with the
variant, heuristic and seed that moved.
"""

from __future__ import annotations

import json

from tests.golden.make_golden import GOLDEN, HEURISTICS, VARIANTS, compute, labels


def test_every_target_renders_the_recorded_programs_byte_for_byte() -> None:
    recorded = json.loads(GOLDEN.read_text())
    assert set(recorded) == set(VARIANTS)
    now = compute()
    moved = []
    for variant, per in recorded.items():
        for h in HEURISTICS:
            hashes = zip(labels(VARIANTS[variant]), per[h], now[variant][h], strict=False)
            moved += [f"{variant} {h} {where}" for where, old, new in hashes if old != new]
            if len(per[h]) != len(now[variant][h]):
                moved.append(f"{variant} {h}: {len(per[h])} hashes, now {len(now[variant][h])}")
    assert not moved, f"{len(moved)} renders changed, first: {moved[:5]}"

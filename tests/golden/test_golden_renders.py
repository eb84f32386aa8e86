"""Behaviour kept: 200 seeds × every heuristic × every target render byte for byte as before.

renders.json was written by make_golden.py before the target registry replaced the
per-language tables; a change that moves any generated source fails here with the
variant, heuristic and seed that moved.
"""

from __future__ import annotations

import json

from tests.golden.make_golden import BATCH, GOLDEN, HEURISTICS, SEEDS, VARIANTS, compute


def test_every_target_renders_the_recorded_programs_byte_for_byte() -> None:
    recorded = json.loads(GOLDEN.read_text())
    assert set(recorded) == set(VARIANTS)
    now = compute()
    moved = []
    for variant, per in recorded.items():
        for h in HEURISTICS:
            for i, (old, new) in enumerate(zip(per[h], now[variant][h], strict=True)):
                where = (
                    f"seed {SEEDS[i]}" if i < len(SEEDS) else f"batch {(i - len(SEEDS)) * BATCH}"
                )
                if old != new:
                    moved.append(f"{variant} {h} {where}")
    assert not moved, f"{len(moved)} renders changed, first: {moved[:5]}"

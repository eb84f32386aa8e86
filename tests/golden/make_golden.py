"""Write tests/golden/renders.json: hashes of generated programs rendered for every target.

Run once before a change that must keep behaviour (``python -m tests.golden.make_golden``);
``test_golden_renders.py`` then checks that the same seeds render byte for byte the same
sources. Each entry is the first 16 hex digits of the source's SHA-256: enough to tell
any change, small enough to keep in git.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

GOLDEN = Path(__file__).with_name("renders.json")
SEEDS = range(200)
HEURISTICS = "ABCDEF"
BATCH = 50
REPETITIONS = 10

# Every target (and option variant a toolchain selects) whose output must not move.
VARIANTS: dict[str, tuple[str, dict[str, object]]] = {
    "go": ("go", {}),
    "crystal": ("crystal", {}),
    "kotlin-modern": (
        "kotlin",
        {"package_layout": "modern", "duplicate_clauses": "keep", "threads": 8},
    ),
    "kotlin-merge": (
        "kotlin",
        {"package_layout": "modern", "duplicate_clauses": "merge", "threads": 8},
    ),
    "kotlin-experimental": (
        "kotlin",
        {"package_layout": "experimental", "duplicate_clauses": "keep", "threads": 8},
    ),
}


def digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def compute() -> dict[str, dict[str, list[str]]]:
    """{variant: {heuristic: [single-program hashes..., then one hash per batch of BATCH]}}."""
    from generator.pipeline import generate_program
    from generator.render import render, render_batch
    from generator.settings import PRESETS

    result: dict[str, dict[str, list[str]]] = {}
    programs = {h: [generate_program(s, PRESETS[h]).program for s in SEEDS] for h in HEURISTICS}
    for name, (lang, options) in VARIANTS.items():
        per: dict[str, list[str]] = {}
        for h in HEURISTICS:
            progs = programs[h]
            hashes = [
                digest(render(p, lang, seed=s, repetitions=REPETITIONS, **options))
                for s, p in zip(SEEDS, progs, strict=True)
            ]
            for start in range(0, len(progs), BATCH):
                batch = progs[start : start + BATCH]
                hashes.append(
                    digest(
                        render_batch(batch, lang, seed=start, repetitions=REPETITIONS, **options)
                    )
                )
            per[h] = hashes
        result[name] = per
    return result


if __name__ == "__main__":
    GOLDEN.write_text(json.dumps(compute(), indent=0, sort_keys=True) + "\n")
    print(f"wrote {GOLDEN}")

"""Programs the documentation links to, so that their permalinks resolve on any database.

The README and the reports in docs/ link programs as `/p/<id>`. A permalink
lives in the database, and a fresh `./scripts/run.sh` starts with an empty one,
so every documented program (and each finding it is the example of) is kept in
`FIXTURE`, a JSON file in the repository, and loaded by a data migration
(0005), by every full `manage.py migrate` after it (chanfuzz_site's `migrate`:
links added after a database was made) and by `manage.py documented_programs
load`. `manage.py documented_programs export` writes the file again from a
database that has the programs; a test checks that every link in the committed
Markdown and JSON resolves after `migrate` alone.

`load` takes the model classes as arguments, so the migration can hand it its
historical models.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
FIXTURE = Path(__file__).resolve().parent / "fixtures" / "documented_programs.json"
PERMALINK = re.compile(r"/p/([a-z2-7]{12})\b")

PROGRAM_FIELDS = (
    "id", "effect_text", "effect_size", "lambda_text", "source", "seed", "settings",
    "capabilities", "generator_version", "render_seed",
)  # fmt: skip
FINDING_FIELDS = (
    "signature", "outcome", "language", "title", "first_seen", "last_seen", "execution_count",
    "program_count", "confirmed_hangs", "bisection", "bisected_at",
)  # fmt: skip


def documentation_files(root: Path = REPO) -> list[Path]:
    """The README and every Markdown or JSON file under docs/."""
    docs = root / "docs"
    found = [p for p in docs.rglob("*") if p.suffix in (".md", ".json")] if docs.is_dir() else []
    readme = root / "README.md"
    return sorted([readme] if readme.exists() else []) + sorted(found)


def documented_ids(files: Iterable[Path]) -> list[str]:
    """Every program id linked as /p/<id> in `files`, each once, in order of appearance."""
    seen: dict[str, None] = {}
    for path in files:
        for pid in PERMALINK.findall(path.read_text(encoding="utf-8")):
            seen.setdefault(pid, None)
    return list(seen)


def _row(obj: Any, fields: Iterable[str]) -> dict[str, Any]:
    out = {}
    for name in fields:
        value = getattr(obj, name)
        out[name] = value.isoformat() if hasattr(value, "isoformat") else value
    return out


def export(ids: Iterable[str], program_model: Any, finding_model: Any) -> dict[str, Any]:
    """The fixture's content for `ids`, read from the database; KeyError naming any missing."""
    ids = list(ids)
    rows = {p.id: p for p in program_model.objects.filter(id__in=ids)}
    missing = [pid for pid in ids if pid not in rows]
    if missing:
        raise KeyError(f"not in this database: {', '.join(missing)}")
    findings = finding_model.objects.filter(example_id__in=ids).order_by("first_seen", "id")
    return {
        "programs": [_row(rows[pid], PROGRAM_FIELDS) for pid in ids],
        "findings": [{**_row(f, FINDING_FIELDS), "example": f.example_id} for f in findings],
    }


def load(program_model: Any, finding_model: Any, path: Path = FIXTURE) -> tuple[int, int]:
    """Create the fixture's programs and findings that the database lacks: (programs, findings).

    Rows already there are left as they are (same id, same program; same
    signature, same finding): a database that has been fuzzing keeps its counts.
    """
    if not path.exists():
        return 0, 0
    data = json.loads(path.read_text(encoding="utf-8"))
    programs = findings = 0
    for row in data["programs"]:
        _, created = program_model.objects.get_or_create(
            id=row["id"], defaults={k: v for k, v in row.items() if k != "id"}
        )
        programs += created
    for row in data["findings"]:
        defaults = {k: v for k, v in row.items() if k not in ("signature", "example")}
        _, created = finding_model.objects.get_or_create(
            signature=row["signature"], defaults={**defaults, "example_id": row["example"]}
        )
        findings += created
    return programs, findings


__all__ = ["FIXTURE", "documentation_files", "documented_ids", "export", "load"]

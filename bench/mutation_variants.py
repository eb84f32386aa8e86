"""The same mutants under different settings: what each oracle or widening adds (issue #15).

    python bench/mutation_variants.py NAME=PATH [NAME=PATH ...]

Each PATH is the `--output` of one `manage.py mutation_report` run (the folder of its
mutation-report.json) or that JSON itself (docs/oracles-study/ keeps issue #15's), all made
with the same kinds, sample, programs and budget, and one setting changed (`--no-values`,
`--buffered`, `--pct-depth D`). The first is the baseline. Prints, per run: mutants killed
(of those built), per heuristic, the verdicts that killed, the median programs to the kill;
then every mutant some run killed and another did not, with the verdict each gave. Refuses
runs whose plans differ in anything but those settings.
"""

from __future__ import annotations

import argparse
import json
import statistics
from pathlib import Path

# What may differ between the runs compared: the settings under study.
VARIANT_KEYS = {"values", "pct_depth", "buffered", "runtime_tests"}


def load(path: Path) -> dict:
    if path.is_dir():
        path = path / "mutation-report.json"
    if not path.exists():
        raise SystemExit(f"{path}: no such report (run manage.py mutation_report --output DIR)")
    return json.loads(path.read_text())


def mutants(report: dict) -> dict[str, dict]:
    return {f"{k['kind']}:{m['id']}": m for k in report["kinds"] for m in k["mutants"]}


def first_kill(mutant: dict) -> tuple[str, int] | None:
    """The verdict and programs of the heuristic that killed soonest, or None."""
    kills = [h for h in mutant["heuristics"].values() if h["killed"]]
    if not kills:
        return None
    best = min(kills, key=lambda h: h["programs"])
    return best["outcome"], best["programs"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("runs", nargs="+", metavar="NAME=PATH")
    args = parser.parse_args()
    runs = []
    for item in args.runs:
        name, _, directory = item.partition("=")
        if not directory:
            raise SystemExit(f"{item!r}: expected NAME=PATH")
        runs.append((name, load(Path(directory))))
    base_plan = {k: v for k, v in runs[0][1]["plan"].items() if k not in VARIANT_KEYS}
    for name, report in runs[1:]:
        plan = {k: v for k, v in report["plan"].items() if k not in VARIANT_KEYS}
        if plan != base_plan:
            differ = sorted(k for k in plan.keys() | base_plan.keys()
                            if plan.get(k) != base_plan.get(k))  # fmt: skip
            raise SystemExit(f"{name}: not the same study as {runs[0][0]} ({', '.join(differ)})")
    heuristics = base_plan["heuristics"]
    width = max(12, *(len(name) for name, _ in runs))
    print(f"{'run':{width}} {'killed':>12}  " + " ".join(f"{h:>6}" for h in heuristics)
          + "  verdicts; median programs to the kill")  # fmt: skip
    tables = {name: mutants(report) for name, report in runs}
    for name, table in tables.items():
        built = [m for m in table.values() if m["status"] != "build failed"]
        killed = [m for m in built if m["status"] == "killed"]
        per_h = [sum(m["heuristics"][h]["killed"] for m in built if h in m["heuristics"])
                 for h in heuristics]  # fmt: skip
        verdicts: dict[str, int] = {}
        programs = []
        for m in killed:
            outcome, n = first_kill(m) or ("?", 0)
            verdicts[outcome] = verdicts.get(outcome, 0) + 1
            programs.append(n)
        median = statistics.median(programs) if programs else 0
        print(
            f"{name:{width}} {len(killed):>5} of {len(built):<4}  "
            + " ".join(f"{n:>6}" for n in per_h)
            + "  "
            + ", ".join(f"{v} {n}" for v, n in sorted(verdicts.items()))
            + f"; {median:g}"
        )
    ids = sorted(set().union(*tables.values()))
    differing = [
        i for i in ids if len({tables[n].get(i, {}).get("status") for n in tables}) > 1
    ]
    if differing:
        print("\nkilled in some runs only:")
        for i in differing:
            cells = []
            for name, table in tables.items():
                m = table.get(i)
                kill = first_kill(m) if m else None
                shown = f"{kill[0]} @{kill[1]}" if kill else m["status"] if m else "-"
                cells.append(f"{name}: {shown}")
            change = next(t[i]["change"] for t in tables.values() if i in t)
            print(f"  {i}  ({change[:90]})\n      " + " | ".join(cells))


if __name__ == "__main__":
    main()

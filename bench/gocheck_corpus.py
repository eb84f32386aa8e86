"""gocheck on its evaluation corpus: accuracy per verdict class and time per program.

    .venv/bin/python bench/gocheck_corpus.py [--time-limit S] [--no-reduce] [--no-symmetry]
        [--json OUT] [NAME_PREFIX…]

Runs `runners.gocheck.check.check_file` on every program of tests/gocheck/corpus (or the
ones whose names start with a prefix given) and prints one row a program (known verdict,
gocheck's, seconds: front end + search, states) and then, per known verdict, how many
gocheck got right and what it said instead. The front end's SSA cache is bypassed so that
the times include Go's type checking, as Godel's Table 3 times include its SSA build.
`--no-reduce` turns partial-order reduction off, `--no-symmetry` the merging of states that
differ only in which of alike goroutines is which, to compare state counts with them.
docs/gocheck-report.md quotes a run of this.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "chanfuzz_site.settings")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--time-limit", type=float, default=20.0)
    parser.add_argument("--no-reduce", action="store_true")
    parser.add_argument("--no-symmetry", action="store_true")
    parser.add_argument("--json", type=Path)
    parser.add_argument("prefixes", nargs="*")
    args = parser.parse_args()

    from runners import config
    from runners.gocheck import frontend
    from runners.gocheck.check import check_file
    from tests.gocheck.corpus import load_corpus

    frontend.helper_path()
    programs = [p for p in load_corpus()
                if not args.prefixes or any(p.name.startswith(x) for x in args.prefixes)]
    rows = []
    # A fresh SSA cache: each program pays for Go's front end, as a first check does.
    with tempfile.TemporaryDirectory() as var:
        helper_dir = config.var_dir() / "gocheck"
        os.environ["CHANFUZZ_VAR_DIR"] = var
        (Path(var) / "gocheck").mkdir()
        for d in helper_dir.iterdir():
            if d.is_dir() and (d / "gocheck-ssa").exists():
                (Path(var) / "gocheck" / d.name).symlink_to(d)
        for prog in programs:
            start = time.monotonic()
            checked = check_file(prog.path, time_limit=args.time_limit,
                                 reduce=not args.no_reduce,
                                 symmetry=not args.no_symmetry)
            seconds = time.monotonic() - start
            r = checked.result
            rows.append({
                "name": prog.name, "want": prog.want, "got": checked.verdict,
                "seconds": round(seconds, 2),
                "search_seconds": round(r.seconds, 2) if r else 0.0,
                "states": r.states if r else 0,
                "note": (r.unsupported[0][0] if r and r.unsupported else ""),
            })
            row = rows[-1]
            mark = "ok " if row["got"] == row["want"] else "MISS"
            print(f"{mark} {prog.name:42s} want {prog.want:17s} got {row['got']:17s} "
                  f"{seconds:6.2f} s {row['states']:7d} states {row['note'][:60]}",
                  flush=True)
    by_want: dict[str, Counter] = defaultdict(Counter)
    for row in rows:
        by_want[row["want"]][row["got"]] += 1
    print()
    print("| known verdict | programs | gocheck right | said instead |")
    print("|---|---|---|---|")
    total = right = 0
    for want in sorted(by_want):
        c = by_want[want]
        n = sum(c.values())
        ok = c[want]
        total += n
        right += ok
        other = ", ".join(f"{k} {v}" for k, v in sorted(c.items()) if k != want) or "—"
        print(f"| {want} | {n} | {ok} ({100 * ok / n:.0f} %) | {other} |")
    print(f"| all | {total} | {right} ({100 * right / max(total, 1):.0f} %) | |")
    times = sorted(r["seconds"] for r in rows)
    if times:
        print(f"\ntime per program: median {times[len(times) // 2]:.2f} s, "
              f"90th percentile {times[int(len(times) * 0.9)]:.2f} s, max {times[-1]:.2f} s; "
              f"under 2 s: {sum(t < 2 for t in times)} of {len(times)}")
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

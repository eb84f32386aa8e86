"""gocheck on Go files found under directories: a verdict and a time per file, then counts.

    .venv/bin/python bench/gocheck_files.py [--time-limit S] [--max-states N] DIR_OR_FILE…

For suites kept outside this repository, as they are written: GoBench's kernels
(`gobench/goker/blocking`, each a `_test.go` file whose test shows one bug), a project's
own tests. Every `.go` file under each directory is checked with
`runners.gocheck.check.check_file`, in name order; a row a file (verdict, seconds: front
end + search, states, the first unsupported construct), then how many files got each
verdict. No file carries a known verdict here: for GoBench's blocking kernels every one is
a bug, so anything but a deadlock or channel-safety verdict is a miss.
docs/gocheck-report.md quotes a run of this.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "chanfuzz_site.settings")


def _files(roots: list[Path]) -> list[Path]:
    out: list[Path] = []
    for root in roots:
        out.extend([root] if root.is_file() else sorted(root.rglob("*.go")))
    return out


def main() -> int:
    from generator.gocheck.explore import DEFAULT_MAX_STATES

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--time-limit", type=float, default=30.0)
    parser.add_argument("--max-states", type=int, default=DEFAULT_MAX_STATES)
    parser.add_argument("paths", nargs="+", type=Path)
    args = parser.parse_args()

    from runners.gocheck import frontend
    from runners.gocheck.check import check_file

    frontend.helper_path()
    files = _files(args.paths)
    if not files:
        print("no .go files under " + ", ".join(map(str, args.paths)), file=sys.stderr)
        return 2
    verdicts: Counter[str] = Counter()
    times = []
    for path in files:
        start = time.monotonic()
        checked = check_file(path, time_limit=args.time_limit, max_states=args.max_states)
        seconds = time.monotonic() - start
        times.append(seconds)
        r = checked.result
        note = r.unsupported[0][0] if r and r.unsupported else checked.error[:60]
        verdicts[checked.verdict] += 1
        print(f"{path.name:40s} {checked.verdict:17s} {seconds:6.2f} s "
              f"{r.states if r else 0:7d} states {note[:70]}", flush=True)
    times.sort()
    print()
    for verdict, n in verdicts.most_common():
        print(f"{verdict:17s} {n:4d}")
    print(f"{len(files)} files; median {times[len(times) // 2]:.2f} s a file, "
          f"slowest {times[-1]:.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())

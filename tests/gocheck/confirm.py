"""Confirm each gocheck corpus program's known verdict by running it with the real Go.

    python tests/gocheck/confirm.py [--runs N] [--only NAME ...] [--jobs J] [--dir DIR]

Each program is built once (``go build``, in a temporary directory, GOTOOLCHAIN=local), then
run N times (default 20) with GOMAXPROCS cycling through 1, 2, 4 and a 10 s timeout a run.
What a run can show:

* global-deadlock: the runtime's ``fatal error: all goroutines are asleep - deadlock!``;
* channel-safety: a panic ``send on closed channel``, ``close of closed channel`` or
  ``close of nil channel``, or the sync package's ``negative WaitGroup counter`` panic or
  ``unlock of unlocked mutex`` fatal error (and RWMutex's);
* partial-deadlock (a goroutine leaked when main returns): Go 1.26's goroutine leak profile.
  With ``GOEXPERIMENT=goroutineleakprofile`` the runtime gains the ``runtime/pprof`` profile
  ``goroutineleak``: a GC pass that finds goroutines blocked on a channel, mutex, wait group
  or cond that no runnable goroutine can reach any more, i.e. blocked for ever. To take it
  when main returns, a second copy of each program is built in which the program's
  ``func main() {`` line is renamed ``func main0() {`` (the corpus programs have exactly one
  such line; no other text is touched) and a second file ``zz_leakcheck.go`` of the same
  package adds a ``main`` that calls ``main0()``, waits 20 ms for goroutines that can still run,
  and prints the profile's count to stderr (``LEAKCHECK: leaked=K``), together with the
  states of the goroutines still blocked then (``blocked=...``, from ``runtime.Stack``; a
  goroutine blocked on a channel that a global variable still reaches is not "leaked" for
  the GC, so that list is shown as evidence but does not confirm by itself).
  The leak-check copy is run N times as well, for the programs that want partial-deadlock
  or ok; the plain binary is run N times for every program.
* ok: every run of both binaries exits 0 within the timeout, prints no deadlock or panic, and
  the leak profile finds no leaked goroutine.

A test file (a package other than main: its tests are the program, as gocheck checks it)
is built with ``go test -c`` and run without the test timeout (whose alarm would hide a
deadlock from the runtime); its leak check is a ``TestMain`` in a second file that takes
the profile once the tests have returned, and a test that fails is an ordinary exit.

A program's row is ``confirmed`` (the runs show its want), ``contradicted`` (a run shows that
the want is wrong: a ``want: ok`` program that deadlocks, panics, leaks or times out, or any
program that crashes for another reason, e.g. an index out of range) or ``not confirmed``
(the bug is interleaving-dependent and no run hit it, or running cannot show it). The script
prints a table and exits 1 if any program is contradicted, 0 otherwise.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import re
import subprocess
import sys
import tempfile
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

if __package__ in (None, ""):  # run as a script: import the sibling module by path
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from corpus import CorpusProgram, load_corpus  # type: ignore[no-redef]
else:
    from .corpus import CorpusProgram, load_corpus

GO = os.environ.get("GO", "/usr/local/go/bin/go")
TIMEOUT = 10.0
PROCS = (1, 2, 4)
DEADLOCK = "all goroutines are asleep - deadlock!"
SAFETY = (
    "send on closed channel",
    "close of closed channel",
    "close of nil channel",
    # The sync package's misuses that gocheck also calls channel-safety: a panic for the
    # WaitGroup, a fatal error (no recover stops it) for the locks.
    "sync: negative WaitGroup counter",
    "sync: unlock of unlocked mutex",
    "sync: Unlock of unlocked RWMutex",
    "sync: RUnlock of unlocked RWMutex",
)
MAIN_LINE = re.compile(r"^func main\(\) \{", re.MULTILINE)

_IMPORTS = """
import (
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
	"strings"
	"testing"
	"time"
)
"""

# Waits for goroutines that can still run, then prints the leak profile's count and the
# states of the goroutines still there.
_LEAKCHECK_FUNC = """
func leakcheck() {
	time.Sleep(20 * time.Millisecond)
	buf := make([]byte, 1<<20)
	buf = buf[:runtime.Stack(buf, true)]
	var blocked []string
	for i, g := range strings.Split(string(buf), "\\n\\n") {
		if i == 0 {
			continue // this goroutine
		}
		head := strings.SplitN(g, "\\n", 2)[0]
		if a, b := strings.Index(head, "["), strings.Index(head, "]"); a >= 0 && b > a {
			blocked = append(blocked, head[a+1:b])
		}
	}
	p := pprof.Lookup("goroutineleak")
	if p == nil {
		fmt.Fprintln(os.Stderr, "LEAKCHECK: no-profile")
		return
	}
	var sb strings.Builder
	_ = p.WriteTo(&sb, 1) // runs the leak-finding GC cycle
	n := p.Count()
	fmt.Fprintf(os.Stderr, "LEAKCHECK: leaked=%d blocked=%s\\n", n, strings.Join(blocked, ","))
}
"""

LEAKCHECK_GO = (
    "package main\n\n"
    "// Added by tests/gocheck/confirm.py: runs the program's main (renamed main0), then takes\n"
    "// Go's goroutine leak profile (GOEXPERIMENT=goroutineleakprofile) when it has returned.\n"
    + _IMPORTS.replace('\t"testing"\n', "")
    + "\nfunc main() {\n\tmain0()\n\tleakcheck()\n}\n"
    + _LEAKCHECK_FUNC
)

# For a test file: a TestMain of the same package runs the tests, then the leak check.
LEAKCHECK_TEST_GO = (
    "package PACKAGE\n\n"
    "// Added by tests/gocheck/confirm.py: runs the file's tests, then takes Go's goroutine\n"
    "// leak profile (GOEXPERIMENT=goroutineleakprofile) before the test binary exits.\n"
    + _IMPORTS
    + "\nfunc TestMain(m *testing.M) {\n\tcode := m.Run()\n\tleakcheck()\n\tos.Exit(code)\n}\n"
    + _LEAKCHECK_FUNC
)
PACKAGE_LINE = re.compile(r"^package (\w+)", re.MULTILINE)


@dataclasses.dataclass
class Run:
    procs: int
    kind: str  # exit0, deadlock, safety, crash, timeout
    leaked: int | None = None  # leak-check runs only
    blocked: str = ""
    detail: str = ""


@dataclasses.dataclass
class Result:
    program: CorpusProgram
    status: str  # confirmed, contradicted, not confirmed
    evidence: str
    runs: list[Run] = dataclasses.field(default_factory=list)


def _env(procs: int | None = None, leak: bool = False) -> dict[str, str]:
    env = dict(os.environ, GOTOOLCHAIN="local", GOFLAGS="-mod=mod", GO111MODULE="on")
    env.pop("GOEXPERIMENT", None)
    if leak:
        env["GOEXPERIMENT"] = "goroutineleakprofile"
    if procs is not None:
        env["GOMAXPROCS"] = str(procs)
    return env


def is_test_file(src: str) -> bool:
    """A test file (its tests are the program) rather than a package main program."""
    match = PACKAGE_LINE.search(src)
    return bool(match) and match.group(1) != "main"


def build(program: CorpusProgram, workdir: Path, leak: bool) -> tuple[Path | None, str]:
    """Build the program (or its leak-check copy); the binary's path, or None and Go's error.
    A test file is built as a test binary (`go test -c`)."""
    src = program.path.read_text(encoding="utf-8")
    pkg = workdir / (program.name + ("-leak" if leak else ""))
    pkg.mkdir(parents=True, exist_ok=True)
    tests = is_test_file(src)
    if leak and tests:
        name = PACKAGE_LINE.search(src).group(1)
        (pkg / "zz_leakcheck_test.go").write_text(
            LEAKCHECK_TEST_GO.replace("PACKAGE", name, 1), encoding="utf-8")
    elif leak:
        if len(MAIN_LINE.findall(src)) != 1:
            return None, "no single `func main() {` line to rename"
        src = MAIN_LINE.sub("func main0() {", src)
        (pkg / "zz_leakcheck.go").write_text(LEAKCHECK_GO, encoding="utf-8")
    (pkg / ("prog_test.go" if tests else "main.go")).write_text(src, encoding="utf-8")
    (pkg / "go.mod").write_text("module corpusprog\n\ngo 1.26\n", encoding="utf-8")
    binary = pkg / "prog"
    command = ["test", "-c"] if tests else ["build"]
    proc = subprocess.run(
        [GO, *command, "-o", str(binary), "."],
        cwd=pkg,
        env=_env(leak=leak),
        capture_output=True,
        text=True,
        timeout=300,
    )
    if proc.returncode != 0:
        return None, (proc.stderr or proc.stdout).strip()
    return binary, ""


def run_once(binary: Path, procs: int, *, tests: bool = False) -> Run:
    """One run. A test binary runs without `go test`'s timeout, whose alarm would keep the
    runtime from seeing a deadlock; a test that merely fails (t.Fatal, t.Error) is an
    ordinary exit."""
    try:
        proc = subprocess.run(
            [str(binary), *(["-test.timeout=0", "-test.count=1"] if tests else [])],
            env=_env(procs),
            capture_output=True,
            text=True,
            timeout=TIMEOUT,
            stdin=subprocess.DEVNULL,
        )
    except subprocess.TimeoutExpired:
        return Run(procs, "timeout", detail=f"no exit within {TIMEOUT:g} s")
    err = proc.stderr
    leaked, blocked = None, ""
    match = re.search(r"LEAKCHECK: leaked=(\d+) blocked=(\S*)", err)
    if match:
        leaked, blocked = int(match.group(1)), match.group(2)
    if DEADLOCK in err:
        return Run(procs, "deadlock", detail=DEADLOCK)
    for message in SAFETY:
        if f"panic: {message}" in err or f"fatal error: {message}" in err:
            return Run(procs, "safety", detail=message)
    failed = tests and proc.returncode == 1 and "--- FAIL" in proc.stdout and "panic:" not in err
    if proc.returncode != 0 and not failed:
        first = next((ln for ln in err.splitlines() if ln.strip()), f"exit {proc.returncode}")
        return Run(procs, "crash", detail=first[:120])
    return Run(procs, "exit0", leaked=leaked, blocked=blocked)


def confirm(program: CorpusProgram, runs: int, workdir: Path) -> Result:
    binary, error = build(program, workdir, leak=False)
    if binary is None:
        return Result(program, "contradicted", f"does not build: {error[:200]}")
    tests = is_test_file(program.path.read_text(encoding="utf-8"))
    plain = [run_once(binary, PROCS[i % len(PROCS)], tests=tests) for i in range(runs)]
    leak_runs: list[Run] = []
    leak_note = ""
    if program.want in ("partial-deadlock", "ok"):
        leak_binary, error = build(program, workdir, leak=True)
        if leak_binary is None:
            leak_note = f"leak check not built: {error[:120]}"
        else:
            leak_runs = [run_once(leak_binary, PROCS[i % len(PROCS)], tests=tests)
                         for i in range(runs)]
    return judge(program, plain, leak_runs, leak_note)


def judge(program: CorpusProgram, plain: list[Run], leak_runs: list[Run], note: str) -> Result:
    everything = plain + leak_runs
    kinds = Counter(run.kind for run in everything)
    n = len(everything)

    def seen(kind: str) -> int:
        return kinds.get(kind, 0)

    crashes = [run for run in everything if run.kind == "crash"]
    if crashes:
        return Result(program, "contradicted", f"crash: {crashes[0].detail}", everything)
    leaks = [run for run in leak_runs if run.kind == "exit0" and (run.leaked or 0) > 0]
    blocked = [run for run in leak_runs if run.kind == "exit0" and run.blocked]
    summary = ", ".join(f"{k} {v}/{n}" for k, v in sorted(kinds.items()))
    want = program.want
    if want == "ok":
        bad = seen("deadlock") + seen("safety") + seen("timeout") + len(leaks)
        if bad:
            what = [f"{k} {seen(k)}/{n}" for k in ("deadlock", "safety", "timeout") if seen(k)]
            if leaks:
                what.append(f"leaked goroutines in {len(leaks)}/{len(leak_runs)} leak-check runs")
            return Result(program, "contradicted", "; ".join(what), everything)
        if not leak_runs:
            return Result(
                program, "confirmed", f"exit 0 in {n}/{n} runs ({note or 'no leak check'})"
            )
        extra = f"; blocked at exit (not leaked) in {len(blocked)} runs" if blocked else ""
        return Result(
            program,
            "confirmed",
            f"exit 0 in {n}/{n} runs, no leak in {len(leak_runs)} leak-check runs{extra}",
            everything,
        )
    if want == "global-deadlock":
        if seen("deadlock"):
            return Result(
                program,
                "confirmed",
                f"runtime deadlock in {seen('deadlock')}/{n} runs ({summary})",
                everything,
            )
        return Result(program, "not confirmed", f"not confirmed by running ({summary})", everything)
    if want == "channel-safety":
        if seen("safety"):
            messages = sorted({run.detail for run in everything if run.kind == "safety"})
            return Result(
                program,
                "confirmed",
                f"panic '{'; '.join(messages)}' in {seen('safety')}/{n} runs ({summary})",
                everything,
            )
        return Result(program, "not confirmed", f"not confirmed by running ({summary})", everything)
    if want == "partial-deadlock":
        if leaks:
            most = max(run.leaked or 0 for run in leaks)
            return Result(
                program,
                "confirmed",
                f"leak profile: up to {most} leaked goroutine(s) at main's return in "
                f"{len(leaks)}/{len(leak_runs)} leak-check runs ({summary})",
                everything,
            )
        if not leak_runs:
            return Result(program, "not confirmed", f"not confirmable by running: {note}")
        states = sorted({state for run in blocked for state in run.blocked.split(",")})
        extra = f"; blocked at exit in {len(blocked)} runs: {', '.join(states)}" if blocked else ""
        return Result(
            program, "not confirmed", f"not confirmed by running ({summary}{extra})", everything
        )
    return Result(program, "not confirmed", f"not confirmable by running ({summary})", everything)


def confirm_all(programs: list[CorpusProgram], runs: int, jobs: int = 2) -> list[Result]:
    with tempfile.TemporaryDirectory(prefix="gocheck-confirm-") as tmp:
        workdir = Path(tmp)
        with ThreadPoolExecutor(max_workers=jobs) as pool:
            return list(pool.map(lambda p: confirm(p, runs, workdir), programs))


def table(results: list[Result]) -> str:
    rows = [("program", "want", "result", "evidence")]
    rows += [(r.program.name, r.program.want, r.status, r.evidence) for r in results]
    widths = [max(len(row[i]) for row in rows) for i in range(3)]
    lines = []
    for i, row in enumerate(rows):
        lines.append(
            "| "
            + " | ".join(
                [cell.ljust(width) for cell, width in zip(row[:3], widths, strict=True)] + [row[3]]
            )
            + " |"
        )
        if i == 0:
            lines.append("|" + "|".join("-" * (w + 2) for w in widths) + "|---|")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=20, help="runs per binary (default 20)")
    parser.add_argument("--jobs", type=int, default=2, help="programs confirmed at once")
    parser.add_argument("--only", nargs="*", help="names of the programs to confirm")
    parser.add_argument(
        "--dir",
        type=Path,
        help="confirm the programs of this directory instead of the corpus (new probes, say)",
    )
    args = parser.parse_args(argv)
    programs = load_corpus(args.dir) if args.dir else load_corpus()
    if args.only:
        programs = [p for p in programs if p.name in set(args.only)]
    results = confirm_all(programs, args.runs, args.jobs)
    print(table(results))
    counts = Counter((r.program.want, r.status) for r in results)
    print()
    for want in sorted({r.program.want for r in results}):
        parts = [f"{s} {counts[(want, s)]}" for s in ("confirmed", "not confirmed", "contradicted")]
        print(f"{want}: " + ", ".join(parts))
    bad = [r.program.name for r in results if r.status == "contradicted"]
    if bad:
        print("contradicted: " + " ".join(bad))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Check a Go file or source text: front end, then the model checker, then the report.

The file is a `package main` program, or a test file whose tests are checked one by one,
then those that share package variables one after another.

`check_source`/`check_file` are what `manage.py gocheck` and the playground call. The
report's last line is the verdict, as `verdict: KIND`; `EXIT_CODES` maps verdicts to the
command's exit status (0 ok, 1 a violation, 2 bad input, 3 undecided, 4 unsupported).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from generator.effects import to_text
from generator.gocheck import relevance, ssa
from generator.gocheck.effect import infer
from generator.gocheck.explore import (
    DEFAULT_MAX_STATES,
    DEFAULT_TIME_LIMIT,
    Result,
    Step,
    check,
    merged,
)
from generator.gocheck.gotest import PARALLEL_METHOD, run_in_order
from generator.gocheck.instructions import CPU_COUNTS
from runners.gocheck import frontend

EXIT_CODES = {
    "ok": 0,
    "global-deadlock": 1,
    "partial-deadlock": 1,
    "channel-safety": 1,
    "bad-input": 2,
    "undecided": 3,
    "unsupported": 4,
}


@dataclass(frozen=True)
class Checked:
    """A checked program: the verdict, or Go's error when it is not a valid program."""

    verdict: str
    result: Result | None
    error: str = ""
    program: ssa.Program | None = None

    @property
    def exit_code(self) -> int:
        return EXIT_CODES[self.verdict]


def check_file(path: Path, *, max_states: int = DEFAULT_MAX_STATES,
               time_limit: float = DEFAULT_TIME_LIMIT, reduce: bool = True,
               symmetry: bool = True, abstract: bool = True) -> Checked:
    return _check(lambda: frontend.ssa_of_file(path), max_states, time_limit, reduce,
                  symmetry, abstract)


def check_source(source: str, *, max_states: int = DEFAULT_MAX_STATES,
                 time_limit: float = DEFAULT_TIME_LIMIT, reduce: bool = True,
                 symmetry: bool = True, modules: Sequence[str] | None = None,
                 abstract: bool = True) -> Checked:
    """`modules`: the only module paths the source may import from outside the standard
    library (frontend.ssa_of_file); None, any."""
    return _check(lambda: frontend.ssa_of_source(source, modules=modules), max_states,
                  time_limit, reduce, symmetry, abstract)


def _check(load: Callable[[], dict], max_states: int, time_limit: float,
           reduce: bool, symmetry: bool, abstract: bool = True) -> Checked:
    """`reduce=False` turns partial-order reduction off, `symmetry=False` the merging of
    states that differ only in which of alike goroutines is which, `abstract=False` the
    unknown values in place of those no verdict depends on (`relevance`; to compare
    state counts)."""
    try:
        raw = load()
        program = ssa.load(relevance.abstracted(raw) if abstract else raw)
    except frontend.BadInput as e:
        return Checked("bad-input", None, str(e))
    if not program.tests:
        result = check(program, max_states=max_states, time_limit=time_limit, reduce=reduce,
                       symmetry=symmetry)
        return Checked(result.verdict, result, program=program)
    # A test file: each test alone, as `go test -run` runs it; then the tests whose
    # order may matter (they share package variables: `gotest.run_in_order`) one after
    # another in one process, as plain `go test` runs them. The time left is shared
    # among the checks still to make, so a quick one leaves its share over.
    in_order = run_in_order(program)
    checks = [(test, ()) for test in program.tests]
    if len(in_order) > 1:
        checks.append((in_order[-1], in_order[:-1]))
    named = []
    deadline = time.monotonic() + time_limit
    for n, (test, before) in enumerate(checks):
        if before and any(r.verdict in ("undecided", "unsupported") for _, r in named):
            break  # what the tests leave each other would not be known either
        share = (deadline - time.monotonic()) / (len(checks) - n)
        result = check(replace(program, entry=test, before=before), max_states=max_states,
                       time_limit=max(share, 0.0), reduce=reduce, symmetry=symmetry)
        names = [t.replace(program.package + ".", "") for t in (*before, test)]
        named.append((", ".join(names) + " in order" if before else names[0], result))
    result = merged(named)
    return Checked(result.verdict, result, program=program)


def report_lines(checked: Checked) -> list[str]:
    """The human report; its last line is `verdict: …`."""
    lines: list[str] = []
    if checked.verdict == "bad-input":
        lines.append("the file is not a Go program gocheck can load:")
        lines.extend("  " + ln for ln in checked.error.splitlines())
        lines.append("verdict: bad-input")
        return lines
    r = checked.result
    assert r is not None
    def step(s: Step) -> str:
        # A timer's firing, and a branch Go's SSA gives no position, have no line.
        return f"    {s.goroutine}: {s.where}{s.text}"

    for f in r.findings:
        lines.append(f"{f.kind}: {f.message}")
        if f.trace:
            lines.append("  trace:")
            lines.extend(map(step, f.trace))
        if f.stuck:
            lines.append("  at the end:")
            lines.extend(map(step, f.stuck))
    for what, line in r.unsupported:
        where = f"line {line}: " if line else ""
        lines.append(f"unsupported: {where}{what}")
    if r.verdict == "undecided":
        lines.append(f"undecided: the budget was spent after {r.states} states "
                     f"({r.seconds:.1f} s)")
    lines.extend(r.notes)
    if checked.program is not None and checked.program.package_files:
        lines.append("checked with its package's other files: "
                     + ", ".join(checked.program.package_files))
    counts = ", ".join(map(str, CPU_COUNTS[:-1])) + f" or {CPU_COUNTS[-1]}"
    if checked.program is not None and checked.program.asks_cpus:
        lines.append(f"runtime.NumCPU() and GOMAXPROCS(0) were taken as {counts}")
    if checked.program is not None and checked.program.calls(PARALLEL_METHOD):
        lines.append(f"tests ran at most {counts} at once (go test -parallel's "
                     "default, the run's CPU count)")
    if checked.program is not None and checked.program.module:
        lines.append(f"checked inside its module, {checked.program.module}")
    if checked.program is not None and checked.program.modules:
        lines.append("checked with the modules: " + ", ".join(checked.program.modules)
                     + (" (as its go.mod requires)" if checked.program.module else
                        " (the newest the Go module proxy has)"))
    lines.append(f"explored {r.states} states in {r.seconds:.2f} s")
    lines.append(f"verdict: {r.verdict}")
    return lines


def effect_of(checked: Checked) -> tuple[str | None, str]:
    """The λ_chan effect of a checked program (text), or None and why it has none."""
    if checked.program is None:
        return None, "the program did not load"
    effect, why = infer(checked.program)
    if effect is None:
        return None, why
    return to_text(effect), ""

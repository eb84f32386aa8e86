"""False hangs of the quiet period (issue #18, item 1), counted rather than inferred.

    python bench/false_hangs.py --lang rust-flume [--version V] [--count 10000]
                                [--quiet 2] [--timeout 10] [--heuristic A] [--seed 7000000]
                                [--jobs 1] [--repetitions 10]

`fuzz --hang-quiet S` declares a run hung once its processes have been blocked for S
seconds. On a runtime that never hangs, no hang in 10,000 runs shows that no run was
declared hung falsely. On one that hangs by itself (flume, chan) that says nothing: each
hang could be real or a run that would have gone on. So this bench runs the programs
with the quiet period as a witness only (`Limits.quiet_witness`): every sandboxed run
is watched as `--hang-quiet` would watch it, the moment it went quiet is noted, and the
run goes on to its `--timeout`. A run that went quiet and then ended by itself was no
hang: a false hang. One that went quiet and stayed blocked to its limit was a hang. A
timeout that never went quiet spun (a livelock, or a starved machine).

A run that went quiet waits out its limit using no CPU, so on a runtime that hangs
often `--jobs` may well exceed the cores (8 on one core kept it busy here, against 2,
a quarter of the wall time for the same count); the other runs are then slowed by the
load, which a false hang would need less of, not more: a starved thread is runnable,
not blocked.

Every run counts: shared runs (Go, Rust, Clojure, Racket: several programs a process)
and the runs alone of the program a timed-out shared run stopped in. A timeout is not
re-run (each would wait out the limit again). Figures, not assertions.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys
import threading
import time
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "chanfuzz_site.settings")

from generator.settings import settings_for  # noqa: E402
from runners.engine.fuzz import fuzz  # noqa: E402
from runners.engine.run_alone import Triage  # noqa: E402
from runners.engine.run_target import make_target  # noqa: E402
from runners.engine.sandbox import Limits, SandboxResult, get_sandbox  # noqa: E402
from runners.engine.sandbox.base import Sandbox  # noqa: E402


@dataclasses.dataclass
class Tally:
    """Every sandboxed run, by what the quiet witness saw."""

    runs: int = 0
    quiet_then_ended: list[tuple[Sequence[str], SandboxResult]] = dataclasses.field(
        default_factory=list
    )  # false hangs
    quiet_to_the_limit: int = 0  # hangs
    spun_to_the_limit: int = 0  # timeouts never quiet
    lock: threading.Lock = dataclasses.field(default_factory=threading.Lock)

    def add(self, argv: Sequence[str], result: SandboxResult) -> None:
        with self.lock:
            self.runs += 1
            if result.quiet_at_s is not None and not result.out_of_time:
                self.quiet_then_ended.append((argv, result))
            elif result.quiet_at_s is not None:
                self.quiet_to_the_limit += 1
            elif result.out_of_time:
                self.spun_to_the_limit += 1


class WitnessedSandbox:
    """The sandbox `fuzz` runs through, each result tallied on its way back."""

    def __init__(self, inner: Sandbox, tally: Tally) -> None:
        self.inner, self.tally = inner, tally
        self.name, self.safe = inner.name, inner.safe

    def run(self, argv: Sequence[str], **kwargs: object) -> SandboxResult:
        result = self.inner.run(argv, **kwargs)  # type: ignore[arg-type]
        self.tally.add(argv, result)
        return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lang", required=True)
    parser.add_argument("--version", help="toolchain version or id (default: newest)")
    parser.add_argument("--count", type=int, default=10_000)
    parser.add_argument("--quiet", type=float, default=2.0, help="the quiet period watched")
    parser.add_argument("--timeout", type=float, default=10.0, help="each run's limit")
    parser.add_argument("--heuristic", default="A")
    parser.add_argument("--seed", type=int, default=7_000_000)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--repetitions", type=int, default=10)
    parser.add_argument("--sandbox", default="local", help="the local one watches CPU time")
    args = parser.parse_args()
    if args.quiet >= args.timeout:
        parser.error("--quiet must be shorter than --timeout")

    target = make_target(args.lang, args.version, repetitions=args.repetitions)
    tally = Tally()
    box = WitnessedSandbox(get_sandbox(args.sandbox, language=args.lang), tally)
    limits = Limits(timeout_s=args.timeout, quiet_s=args.quiet, quiet_witness=True)
    print(
        f"{target.label}: {args.count} programs (heuristic {args.heuristic}, seeds from "
        f"{args.seed}, {args.repetitions} repetitions), each run watched for {args.quiet:g} s "
        f"quiet and let go on to its {args.timeout:g} s limit, {args.jobs} at once",
        flush=True,
    )
    began = time.perf_counter()
    summary = fuzz(
        target=target,
        settings=settings_for(args.heuristic),
        count=args.count,
        seed=args.seed,
        sandbox=box,  # type: ignore[arg-type]
        limits=limits,
        triage=Triage(retries=0),
        jobs=args.jobs,
    )
    took = time.perf_counter() - began
    verdicts = ", ".join(f"{o.value} {n}" for o, n in sorted(summary.outcomes.items()))
    print(f"{summary.count} programs in {took:.0f} s ({summary.per_minute:.0f}/min): {verdicts}")
    false = len(tally.quiet_then_ended)
    quiet = false + tally.quiet_to_the_limit
    print(
        f"runs {tally.runs}: went quiet {quiet} (stayed blocked to the limit "
        f"{tally.quiet_to_the_limit}, ended by themselves {false}); timed out without "
        f"going quiet {tally.spun_to_the_limit}"
    )
    # With none seen in n runs, the rate is below 3/n with 95 % confidence (rule of three).
    bound = f"below {3 / tally.runs:.2%} (95 %)" if tally.runs and not false else ""
    rate = f"{false / tally.runs:.3%}" if tally.runs else "n/a"
    print(f"false hangs: {false} of {tally.runs} runs, {rate} {bound}".rstrip())
    for argv, result in tally.quiet_then_ended:
        print(
            f"  {' '.join(argv[-3:])}: quiet at {result.quiet_at_s:.2f} s, ended at "
            f"{result.duration_s:.2f} s, exit {result.exit_code} signal {result.signal}"
        )


if __name__ == "__main__":
    main()

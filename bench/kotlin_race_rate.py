"""How often a Kotlin program's run finds a bug, by the Java it runs on (issue #18).

    python bench/kotlin_race_rate.py [--version 0.19] [--programs 200] [--runs 4]
                                     [--seed 90000000] [--heuristic E]
                                     [--repetitions 1000] [--hang-quiet 2] [--jobs 2]

One batch of generated programs is built once. Each program then runs `--runs` times each
way, Java 25 with the runtime's AOT cache (the default) and Java 17 with its class-data
archive (`CHANFUZZ_JAVA25_RUNS=0`), in one shuffled order so that the machine's drift falls
on both; through the local sandbox and the engine's own verdicts, no re-run of a hang.
Prints, per way, the runs that overflowed the stack (kotlinx.coroutines#504 on 0.19), hung
or failed otherwise, the programs that did, and a clean run's mean time.

Why not the time to the first finding: the median of 10 trials on the campaign path
(`bench/campaign_first_finding.py`) was 5.7 s once and 16.1 s the next time, with the same
code and seeds; the race decides it. Rates over the same programs compare the two ways.
Figures, not assertions.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
from collections import Counter, defaultdict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path

from generator.pipeline import generate_program
from generator.settings import settings_for
from runners.engine.build import Artifact, build
from runners.engine.run_alone import Triage, run_one
from runners.engine.run_target import RunTarget, target_for
from runners.engine.sandbox import get_sandbox
from runners.engine.sandbox.base import Limits
from runners.engine.toolchains import Toolchain, find_toolchain

WAYS = {"java 25 + AOT cache": "1", "java 17 + CDS": "0"}


def _toolchain(version: str, java25: str) -> Toolchain:
    previous = os.environ.get("CHANFUZZ_JAVA25_RUNS")
    os.environ["CHANFUZZ_JAVA25_RUNS"] = java25
    try:
        return find_toolchain("kotlin", version)
    finally:
        if previous is None:
            os.environ.pop("CHANFUZZ_JAVA25_RUNS")
        else:
            os.environ["CHANFUZZ_JAVA25_RUNS"] = previous


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--version", default="0.19", help="kotlinx.coroutines release")
    parser.add_argument("--programs", type=int, default=200)
    parser.add_argument("--runs", type=int, default=4, help="runs of each program each way")
    parser.add_argument("--seed", type=int, default=90_000_000)
    parser.add_argument("--heuristic", default="E")
    parser.add_argument("--repetitions", type=int, default=1000)
    parser.add_argument("--hang-quiet", type=float, default=2.0, metavar="SECONDS")
    parser.add_argument("--timeout", type=float, default=10.0)
    parser.add_argument("--jobs", type=int, default=2, help="runs under way at once")
    args = parser.parse_args()

    toolchains = {way: _toolchain(args.version, flag) for way, flag in WAYS.items()}
    java25 = toolchains["java 25 + AOT cache"]
    if java25.run_executable is None:
        sys.exit(f"{java25.id} has no Java 25 AOT cache: run scripts/install_toolchains.sh")
    base = target_for(java25, repetitions=args.repetitions)
    options = dict(base.render_options)
    settings = settings_for(args.heuristic)
    programs = []
    seed = args.seed
    while len(programs) < args.programs:
        generated = generate_program(seed, settings, base.spec.capabilities)
        seed += 1
        if base.spec.supports(generated.program, **options):
            programs.append(generated.program)
    source = base.spec.render_batch(
        programs, seed=args.seed, repetitions=args.repetitions, **options
    )
    with tempfile.TemporaryDirectory(prefix="chanfuzz-race-rate-") as work:
        Path(work).chmod(0o755)  # the sandbox's user runs the classes
        built = build(java25, source, Path(work), flags=base.build_flags, use_cache=False)
        ways: dict[str, tuple[RunTarget, Artifact]] = {}
        for way, toolchain in toolchains.items():
            command = base.spec.run_command(toolchain, built.path)
            ways[way] = (replace(base, toolchain=toolchain), replace(built, command=command))
        print(
            f"kotlin {args.version}: {len(programs)} programs (heuristic {args.heuristic}, "
            f"seeds from {args.seed}, {args.repetitions} repetitions), {args.runs} runs each "
            f"way, {args.jobs} at once, hung after {args.hang_quiet:g} s blocked; compiled in "
            f"{built.compile_s:.1f} s"
        )
        tasks = [(way, i) for i in range(len(programs)) for _ in range(args.runs) for way in ways]
        random.Random(args.seed).shuffle(tasks)
        sandbox = get_sandbox("local")
        limits = Limits(timeout_s=args.timeout, quiet_s=args.hang_quiet)

        def one(task: tuple[str, int]) -> tuple[str, int, str, float]:
            way, index = task
            target, artifact = ways[way]
            run = run_one(
                target, artifact, index, sandbox=sandbox, limits=limits, triage=Triage(retries=0)
            )
            if not run.attempts:  # the sandbox failed
                why = run.classification.reason.splitlines()[0][:160]
                return way, index, f"{run.outcome}: {why}", 0.0
            outcome: str = run.outcome
            if outcome == "crash" and "StackOverflowError" in run.classification.signature:
                outcome = "overflow"
            return way, index, outcome, run.attempts[0].duration_s

        outcomes: dict[str, Counter[str]] = defaultdict(Counter)
        found: dict[str, dict[str, set[int]]] = defaultdict(lambda: defaultdict(set))
        clean: dict[str, list[float]] = defaultdict(list)
        with ThreadPoolExecutor(args.jobs) as pool:
            for way, index, outcome, seconds in pool.map(one, tasks):
                outcomes[way][outcome] += 1
                if outcome == "terminated":
                    clean[way].append(seconds)
                else:
                    found[way][outcome].add(index)
    for way in ways:
        runs = sum(outcomes[way].values())
        counts = ", ".join(f"{k} {v}" for k, v in sorted(outcomes[way].items()))
        mean = statistics.fmean(clean[way]) * 1000 if clean[way] else 0.0
        print(f"{way:<20} {runs} runs: {counts}; a clean run {mean:.0f} ms")
        for outcome, indices in sorted(found[way].items()):
            print(f"{'':<20} {outcome} in {len(indices)} programs: {sorted(indices)}")


if __name__ == "__main__":
    main()

"""A first look at chanfuzz's power on injected faults: a seeded sample of a runtime's mutants.

    python bench/go_mutation_sample.py [--target go] [--mutants 16] [--programs 60] [--seed 1]
                                       [--runtime-tests] [--no-select]

Each sampled mutant of the target's channel implementation (its kind in
runners.mutation.kinds: for Go the machine Go's runtime/chan.go and
select.go, for Crystal the stdlib's channel.cr and the waiters' linked list,
for rust-flume and rust-crossbeam cargo-mutants' mutants of the crate) is
installed as a toolchain in a temporary directory, then `--programs`
generated programs (heuristic F, 3 repetitions, 10 s limit, hangs declared
after 2 s blocked) run on it, ten at a time: the mutant is killed when any
program crashes or hangs (the rest are then skipped), and the verdict that
killed it is named. The programs run on the base release first, and those that
fail there are left out (flume 0.12.0 has bugs of its own: a kill must be the
mutant's, and they flake: `--no-select` leaves selects out of the programs,
flume's bugs being in its Selector). A mutant whose runtime does not compile is counted apart. With
`--runtime-tests`, the implementation's own tests run on it too (Go: `go test
-run 'Chan|Select' runtime` and test/chan, about 90 s a mutant; Crystal: its
channel spec, when it can be had; Rust: the crate's `cargo test`, 2–6 min).
This is a sample, not the mutation report the issue asks for; it prints its
figures and asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from generator.capabilities import Capabilities  # noqa: E402
from generator.lambda_chan import Program  # noqa: E402
from generator.pipeline import generate_program  # noqa: E402
from generator.settings import settings_for  # noqa: E402
from runners.engine.build import CompileError  # noqa: E402
from runners.engine.execute import execute_batch  # noqa: E402
from runners.engine.run_target import target_for  # noqa: E402
from runners.engine.sandbox import Limits, Sandbox, get_sandbox  # noqa: E402
from runners.engine.toolchains import installed_toolchains  # noqa: E402
from runners.mutation.kinds import installed_mutant, kind_for  # noqa: E402
from runners.targets import get_target  # noqa: E402
from runners.targets.base import Toolchain  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--target", default="go", help="a target with mutants (go, crystal, rust-flume, …)"
    )
    parser.add_argument("--mutants", type=int, default=16)
    parser.add_argument("--programs", type=int, default=60)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--runtime-tests", action="store_true")
    parser.add_argument(
        "--no-select", action="store_true", help="programs without select (a base's bugs there)"
    )
    args = parser.parse_args()

    kind = kind_for(args.target)
    base = next(t for t in installed_toolchains(args.target) if t.origin != "mutant")
    everyone = kind.list_mutants(base)
    sample = random.Random(args.seed).sample(everyone, args.mutants)
    capabilities = get_target(args.target).capabilities
    if args.no_select:
        capabilities = Capabilities(select=False, select_send=False)
    programs = [
        generate_program(s, settings_for("F"), capabilities).program for s in range(args.programs)
    ]
    sandbox = get_sandbox("local")
    programs = _terminating_on(base, programs, sandbox)
    rows = []
    with tempfile.TemporaryDirectory(prefix="chanfuzz-mutants-") as tmp:
        # The sandbox user reads toolchain homes (a Crystal mutant's is in here).
        Path(tmp).chmod(0o755)
        os.environ["CHANFUZZ_TOOLCHAINS_DIR"] = str(Path(tmp) / "toolchains")

        print(f"{len(everyone)} mutants of {base.id}; sample of {len(sample)} (seed {args.seed})")
        for mutant in sample:
            kind.install(mutant, base)
            toolchain = installed_mutant(args.target, base, mutant.id)
            assert toolchain is not None, f"mutant {mutant.id} installed but not found"
            started = time.monotonic()
            verdict, by = _fuzz(toolchain, programs, Path(tmp) / "build" / mutant.id, sandbox)
            seconds = time.monotonic() - started
            tests = kind.runtime_tests(toolchain) if args.runtime_tests else None
            own = tests.status if tests else "-"
            own_by = f"{tests.by} {tests.seconds:.0f} s" if tests else ""
            rows.append((mutant, verdict, by, own, seconds))
            line = (
                f"{mutant.id:22} {mutant.operator:7} chanfuzz {verdict:12} {by:24} "
                f"{seconds:5.0f} s  own tests {own:12} {own_by:32} {mutant.describe()[:70]}"
            )
            print(line, flush=True)
    built = [r for r in rows if r[1] != "build failed"]
    killed = [r for r in built if r[1] == "killed"]
    share = 100 * len(killed) / max(1, len(built))
    print(
        f"\nbuilt {len(built)} of {len(rows)}; chanfuzz killed {len(killed)} of {len(built)}"
        f" ({share:.0f} %) with at most {len(programs)} programs each"
    )
    if args.runtime_tests:
        own = [r for r in built if r[3] == "killed"]
        ran = [r for r in built if r[3] != "unavailable"]
        print(f"{kind.runtime_tests_name}: killed {len(own)} of {len(built)}"
              f" ({len(built) - len(ran)} unavailable)")  # fmt: skip


# Programs per batch: a mutant is killed by its first crash or hang, and the
# rest of its programs need not run (one whose every program spins until the
# 10 s limit, re-run twice at 30 s, would take 35 minutes for 30 programs).
CHUNK = 10


def _fuzz(toolchain: Toolchain, programs: list[Program], workdir: Path,
          sandbox: Sandbox) -> tuple[str, str]:  # fmt: skip
    """(verdict, what killed it): the programs run in chunks until one crashes or hangs."""
    for offset in range(0, len(programs), CHUNK):
        try:
            report = execute_batch(
                programs[offset : offset + CHUNK], target_for(toolchain, repetitions=3),
                workdir=workdir / str(offset), sandbox=sandbox,
                limits=Limits(timeout_s=10, quiet_s=2),
            )  # fmt: skip
            outcomes = [e.outcome.value for e in report.executions]
        except CompileError:
            outcomes = []
        if all(o == "compile_error" for o in outcomes):
            return "build failed", ""  # the mutant's runtime itself: no chunk would build
        for index, outcome in enumerate(outcomes):
            if outcome in ("crash", "timeout"):
                signature = report.executions[index].classification.signature
                print(f"  {signature[:150]}")  # what it hung or crashed in
                return "killed", f"{outcome} (program {offset + index})"
    return "survived", ""


def _terminating_on(base: Toolchain, programs: list[Program], sandbox: Sandbox) -> list[Program]:
    """The programs that terminate on the base release: only they can tell a mutant's bug."""
    with tempfile.TemporaryDirectory(prefix="chanfuzz-control-") as tmp:
        report = execute_batch(
            programs, target_for(base, repetitions=3), workdir=Path(tmp) / "build",
            sandbox=sandbox, limits=Limits(timeout_s=10, quiet_s=2),
        )  # fmt: skip
    outcomes = [e.outcome.value for e in report.executions]
    kept = [p for p, o in zip(programs, outcomes, strict=True) if o == "terminated"]
    print(f"{len(kept)} of {len(programs)} programs terminate on {base.id}: those are used")
    return kept


if __name__ == "__main__":
    main()

"""Per-run overhead of each sandbox backend on a trivial static binary.

    python -m runners.engine.sandbox.bench [--runs 50] [--backend local --backend docker ...]

This module owns the overhead measurement only. It compiles ``int main(void)
{return 0;}`` statically (gcc) into a world-readable temporary directory, then
alternates bare runs (``subprocess.run`` with captured output, i.e. what any
runner pays anyway) with sandboxed runs of the same file, so that machine load
affects both alike, and prints the medians and their difference: the cost of
the sandbox itself per run.

Each run comes ``--gap-ms`` (default 50) after the one before, as a real program's run
would: some of a run's cost is the kernel's, and depends on that. Moving a process into
a cgroup from outside waited out an RCU grace period whenever the last move was more
than a few milliseconds before (11–12 ms a run on our machines), which runs back to back
(``--gap-ms 0``) never showed.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from runners.engine.sandbox import Bind, Limits, SandboxUnavailable, get_sandbox

TRIVIAL_C = "int main(void) { return 0; }\n"


def build_trivial(where: Path) -> Path:
    source = where / "trivial.c"
    source.write_text(TRIVIAL_C)
    binary = where / "trivial"
    subprocess.run(["gcc", "-O2", "-static", "-o", str(binary), str(source)], check=True)
    binary.chmod(0o755)
    return binary


def measure(backend: str, binary: Path, runs: int, gap_s: float = 0.05) -> dict[str, float]:
    """Median wall time (ms) of bare and sandboxed runs, and the overhead."""
    options = {"quiet": True} if backend == "none" else {}
    sandbox = get_sandbox(backend, **options)
    bind = Bind(str(binary.parent), "/bench")
    argv = ["/bench/trivial"] if backend != "none" else [str(binary)]
    binds = (bind,) if backend != "none" else ()
    limits = Limits(timeout_s=30)
    sandbox.run(argv, binds=binds, limits=limits)  # warm-up: caches, first-use costs
    bare: list[float] = []
    boxed: list[float] = []
    for _ in range(runs):
        time.sleep(gap_s)
        t = time.perf_counter()
        subprocess.run([str(binary)], capture_output=True, check=True)
        bare.append(time.perf_counter() - t)
        time.sleep(gap_s)
        t = time.perf_counter()
        result = sandbox.run(argv, binds=binds, limits=limits)
        boxed.append(time.perf_counter() - t)
        if result.exit_code != 0:
            raise RuntimeError(f"{backend}: trivial program failed: {result}")
    bare_ms = statistics.median(bare) * 1000
    boxed_ms = statistics.median(boxed) * 1000
    return {"bare_ms": bare_ms, "sandboxed_ms": boxed_ms, "overhead_ms": boxed_ms - bare_ms}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--backend", action="append", choices=["local", "docker", "none"])
    parser.add_argument(
        "--gap-ms", type=float, default=50.0, help="pause before each run (module docstring)"
    )
    args = parser.parse_args(argv)
    backends = args.backend or ["local", "docker"]
    where = Path(tempfile.mkdtemp(prefix="chanfuzz-sandbox-bench-"))
    try:
        where.chmod(0o755)
        binary = build_trivial(where)
        header = f"{'backend':8} {'bare ms':>9} {'sandboxed ms':>13} {'overhead ms':>12}"
        print(f"{header}  (median of {args.runs}, {args.gap_ms:g} ms between runs)")
        for backend in backends:
            try:
                row = measure(backend, binary, args.runs, args.gap_ms / 1000)
            except SandboxUnavailable as exc:
                print(f"{backend:8} unavailable: {exc.reason}")
                continue
            print(
                f"{backend:8} {row['bare_ms']:9.2f} {row['sandboxed_ms']:13.2f} "
                f"{row['overhead_ms']:12.2f}"
            )
        print(
            f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}, {os.cpu_count()} CPUs"
        )
    finally:
        shutil.rmtree(where, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Throughput of compile + run per program: one compile per program vs batches.

    python -m runners.bench [--programs 20] [--languages go,crystal,kotlin] [--reps 1]

For each language, N templated programs (each different source text, so no
cache hides a compile) are built and run two ways, and the wall time per
program is printed:

- naive:   N x (compile one program, run it)
- batched: compile one file holding all N behind a dispatcher main, then N runs
           (one process each, program index as the first argument)

Both use runners.build with the artifact cache off and the same workdir per
language, as a worker would (Crystal's compiler cache is keyed on the source
path, so a reused workdir gives warm compiles). Pin to one core with
``taskset -c 0 python -m runners.bench``. Figures, not assertions.

Program i spawns n = 2 + i % 3 processes, half sending on channel a, half
receiving on channel b, and main runs n selects over (receive a, send b) and
then joins them all; the whole body is repeated ``reps`` times with fresh
channels (SPEC §8a). Every select finds a partner, so each program terminates.
"""

from __future__ import annotations

import argparse
import secrets
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from runners.build import build, run
from runners.toolchains import find_toolchain


def _go_program(i: int, reps: int) -> str:
    n = 2 + i % 3
    spawns = "\n".join(
        "\t\twg.Add(1)\n\t\tgo func() { defer wg.Done(); a <- struct{}{} }()"
        if j % 2 == 0
        else "\t\twg.Add(1)\n\t\tgo func() { defer wg.Done(); <-b }()"
        for j in range(n)
    )
    return f"""func program{i}() {{
	for r := 0; r < {reps}; r++ {{
		a := make(chan struct{{}})
		b := make(chan struct{{}})
		var wg sync.WaitGroup
{spawns}
		for k := 0; k < {n}; k++ {{
			select {{
			case <-a:
			case b <- struct{{}}{{}}:
			}}
		}}
		wg.Wait()
	}}
	fmt.Println("program {i}")
}}
"""


def _kotlin_program(i: int, reps: int) -> str:
    n = 2 + i % 3
    spawns = "\n".join(
        "                launch { a.send(Unit) }"
        if j % 2 == 0
        else "                launch { b.receive() }"
        for j in range(n)
    )
    return f"""fun program{i}() = runBlocking(Dispatchers.Default) {{
    repeat({reps}) {{
        coroutineScope {{
            val a = Channel<Unit>()
            val b = Channel<Unit>()
{spawns}
            repeat({n}) {{
                select<Unit> {{
                    a.onReceive {{ }}
                    b.onSend(Unit) {{ }}
                }}
            }}
        }}
    }}
    println("program {i}")
}}
"""


def _crystal_program(i: int, reps: int) -> str:
    n = 2 + i % 3
    spawns = "\n".join(
        "    spawn do\n      a.send(nil)\n      done.send(nil)\n    end"
        if j % 2 == 0
        else "    spawn do\n      b.receive\n      done.send(nil)\n    end"
        for j in range(n)
    )
    return f"""def program{i}
  {reps}.times do
    a = Channel(Nil).new
    b = Channel(Nil).new
    done = Channel(Nil).new
{spawns}
    {n}.times do
      select
      when x = a.receive
      when b.send(nil)
      end
    end
    {n}.times {{ done.receive }}
  end
  puts "program {i}"
end
"""


def batch_source(language: str, indices: Sequence[int], reps: int = 1, salt: str = "") -> str:
    """One source file with programs ``indices`` and a dispatcher main (argv[1] = index)."""
    if language == "go":
        body = "\n".join(_go_program(i, reps) for i in indices)
        table = ", ".join(f"{i}: program{i}" for i in indices)
        return f"""package main

// {salt}
import (
	"fmt"
	"os"
	"strconv"
	"sync"
)

{body}
var programs = map[int]func(){{{table}}}

func main() {{
	i, _ := strconv.Atoi(os.Args[1])
	p, ok := programs[i]
	if !ok {{
		fmt.Fprintln(os.Stderr, "no such program")
		os.Exit(64)
	}}
	p()
}}
"""
    if language == "kotlin":
        body = "\n".join(_kotlin_program(i, reps) for i in indices)
        cases = "\n".join(f"        {i} -> program{i}()" for i in indices)
        return f"""// {salt}
import kotlin.system.exitProcess
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.channels.Channel
import kotlinx.coroutines.coroutineScope
import kotlinx.coroutines.launch
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.selects.select

{body}
fun main(args: Array<String>) {{
    when (args[0].toInt()) {{
{cases}
        else -> {{
            System.err.println("no such program")
            exitProcess(64)
        }}
    }}
}}
"""
    if language == "crystal":
        body = "\n".join(_crystal_program(i, reps) for i in indices)
        cases = "\n".join(f"when {i} then program{i}" for i in indices)
        return f"""# {salt}
{body}
case ARGV[0].to_i
{cases}
else
  STDERR.puts "no such program"
  exit 64
end
"""
    raise ValueError(f"no template for {language!r}")


def measure(language: str, count: int, reps: int, workdir: Path) -> dict[str, float]:
    toolchain = find_toolchain(language)
    salt = secrets.token_hex(8)  # new sources every time: no compiler cache hit
    naive_compile = naive_run = 0.0
    start = time.monotonic()
    for i in range(count):
        source = batch_source(language, [i], reps, salt=f"{salt} naive {i}")
        artifact = build(toolchain, source, workdir / language, use_cache=False)
        naive_compile += artifact.compile_s
        result = run(artifact, [i], timeout_s=60)
        naive_run += result.duration_s
        if not result.ok:
            raise RuntimeError(f"{language} program {i} failed: {result}")
    naive = time.monotonic() - start

    start = time.monotonic()
    source = batch_source(language, range(count), reps, salt=f"{salt} batch")
    artifact = build(toolchain, source, workdir / language, use_cache=False)
    batch_run = 0.0
    for i in range(count):
        result = run(artifact, [i], timeout_s=60)
        batch_run += result.duration_s
        if not result.ok:
            raise RuntimeError(f"{language} batched program {i} failed: {result}")
    batched = time.monotonic() - start
    return {
        "naive_per_program": naive / count,
        "naive_compile_per_program": naive_compile / count,
        "naive_run_per_program": naive_run / count,
        "batched_per_program": batched / count,
        "batched_compile": artifact.compile_s,
        "batched_run_per_program": batch_run / count,
    }


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--programs", type=int, default=20)
    parser.add_argument("--languages", default="go,crystal,kotlin")
    parser.add_argument("--reps", type=int, default=1, help="repetitions inside each program")
    args = parser.parse_args(argv)
    print(f"{args.programs} programs, {args.reps} repetition(s) each; seconds")
    print(
        f"{'language':10} {'naive/prog':>10} {'(compile':>9} {'run)':>7}"
        f" {'batched/prog':>13} {'(compile':>9} {'run/prog)':>10}"
    )
    with tempfile.TemporaryDirectory(prefix="chanfuzz-bench-") as tmp:
        for language in args.languages.split(","):
            m = measure(language, args.programs, args.reps, Path(tmp))
            print(
                f"{language:10} {m['naive_per_program']:10.3f}"
                f" {m['naive_compile_per_program']:9.3f} {m['naive_run_per_program']:7.3f}"
                f" {m['batched_per_program']:13.3f}"
                f" {m['batched_compile']:9.3f} {m['batched_run_per_program']:10.3f}"
            )


if __name__ == "__main__":
    main()

"""Shared by the renderer tests: golden files, variants, toolchains and running binaries."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from generator.lambda_chan import Program
from generator.render import GROUP_DONE, render, render_batch, supports
from tests.generator.render.programs import PROGRAMS

GOLDEN = Path(__file__).parent / "golden"
REPO = Path(__file__).resolve().parents[3]
UPDATE = os.environ.get("CHANFUZZ_UPDATE_GOLDEN") == "1"


@dataclass(frozen=True)
class Variant:
    """One language with one set of options: what a golden file is rendered with."""

    name: str
    lang: str
    ext: str
    options: dict = field(default_factory=dict)


VARIANTS = {
    v.name: v
    for v in (
        Variant("go", "go", "go"),
        Variant("go-values", "go", "go", {"values": True}),
        Variant("crystal", "crystal", "cr"),
        Variant("crystal-values", "crystal", "cr", {"values": True}),
        Variant("kotlin-modern", "kotlin", "kt", {"package_layout": "modern"}),
        Variant("kotlin-experimental", "kotlin", "kt", {"package_layout": "experimental"}),
        Variant("kotlin-values", "kotlin", "kt", {"package_layout": "modern", "values": True}),
        Variant(
            "kotlin-experimental-values",
            "kotlin",
            "kt",
            {"package_layout": "experimental", "values": True},
        ),
        Variant("flix-current", "flix", "flix", {"flix_version": "current"}),
        Variant("flix-0.5", "flix", "flix", {"flix_version": "0.5"}),
    )
}

GOLDEN_SEED = 7
GOLDEN_REPETITIONS = 100


# Selects with a default: one only the default lets go on (p1 sends on c after main's send
# on d), a poll then a wait, and a send nobody receives, which only the default ends.
DEFAULTS = (
    "Chan(c, 1) ; Spawn(Get(d) ; Put(c)) ; SelGet(c, Put(d)) (+) Default(Put(d) ; Get(c)) ; "
    "Spawn(Put(f)) ; SelGet(f, eps) (+) Default(Get(f)) ; SelPut(e, eps) (+) Default(eps)"
)


def renderable(variant: Variant) -> dict[str, Program]:
    return {n: p for n, p in PROGRAMS.items() if supports(p, variant.lang, **variant.options)}


def golden_cases(variant: Variant) -> list[tuple[str, str]]:
    """(file name, rendered text): each renderable program alone, then all as a batch."""
    progs = renderable(variant)
    cases = [
        (
            f"{name}.{variant.name}.{variant.ext}",
            render(p, variant.lang, seed=GOLDEN_SEED, **variant.options),
        )
        for name, p in progs.items()
    ]
    batch = render_batch(
        list(progs.values()),
        variant.lang,
        seed=GOLDEN_SEED,
        repetitions=GOLDEN_REPETITIONS,
        **variant.options,
    )
    cases.append((f"batch.{variant.name}.{variant.ext}", batch))
    return cases


def check_golden(filename: str, text: str) -> None:
    """Compare byte for byte with the golden file; CHANFUZZ_UPDATE_GOLDEN=1 rewrites it."""
    path = GOLDEN / filename
    if UPDATE:
        GOLDEN.mkdir(exist_ok=True)
        path.write_bytes(text.encode())
        return
    if not path.exists():
        pytest.fail(f"no golden file {path}; run with CHANFUZZ_UPDATE_GOLDEN=1 to create it")
    assert path.read_bytes() == text.encode(), (
        f"{filename} differs from its golden file; if the change is intended, "
        "rerun with CHANFUZZ_UPDATE_GOLDEN=1 and review the diff"
    )


# ---------------------------------------------------------------- toolchains


def go_binary() -> str | None:
    found = os.environ.get("CHANFUZZ_GO") or shutil.which("go")
    if found is None and Path("/usr/local/go/bin/go").exists():
        found = "/usr/local/go/bin/go"
    return found


def crystal_binary() -> str | None:
    return os.environ.get("CHANFUZZ_CRYSTAL") or shutil.which("crystal")


def kotlin_home() -> Path | None:
    """A toolchain directory as scripts/install_toolchains.sh lays it out: compiler/*.jar
    (the compiler) and lib/*.jar (stdlib and kotlinx-coroutines for compiling and running)."""
    env = os.environ.get("CHANFUZZ_KOTLIN_HOME")
    if env:
        return Path(env)
    homes = sorted((REPO / "var" / "toolchains").glob("kotlin-*"))
    homes = [h for h in homes if (h / "compiler").is_dir() and (h / "lib").is_dir()]
    return homes[-1] if homes else None


def need(tool: object, what: str) -> None:
    if tool is None:
        pytest.skip(f"{what} not found (see tests/generator/render/helpers.py for the env vars)")


@dataclass(frozen=True)
class Outcome:
    returncode: int | None  # None: killed at the timeout
    stdout: str
    stderr: str

    @property
    def timed_out(self) -> bool:
        return self.returncode is None


def run(
    cmd: list[str],
    *,
    timeout: float,
    env: dict | None = None,
    cwd: Path | None = None,
    dump: Callable[[int], Sequence[str]] | None = None,
) -> Outcome:
    """Run `cmd`; at the timeout kill it, first adding to its stderr what `dump` (a command
    for the process's pid, such as a stack dump) prints of it while it still hangs."""
    with subprocess.Popen(
        cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=cwd
    ) as process:
        try:
            stdout, stderr = process.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            try:
                stacks = _dump_text(dump, process.pid) if dump is not None else ""
            finally:  # a dump that fails must not leave the hung process to wait on
                process.kill()
            stdout, stderr = process.communicate()
            return Outcome(None, stdout, stderr + stacks)
    return Outcome(process.returncode, stdout, stderr)


def _dump_text(dump: Callable[[int], Sequence[str]], pid: int) -> str:
    try:
        took = subprocess.run(dump(pid), capture_output=True, text=True, timeout=60, check=False)
    except subprocess.TimeoutExpired:
        return "\n(the dump did not end within 60 s)"
    return f"\n{took.stdout}{took.stderr}"


def compile_ok(cmd: list[str], *, cwd: Path, env: dict | None = None, timeout: float = 600) -> None:
    out = run(cmd, timeout=timeout, env=env, cwd=cwd)
    assert out.returncode == 0, f"compile failed: {' '.join(cmd)}\n{out.stdout}\n{out.stderr}"


def check_group_runs(binary: Path, order: list[int], bad: str, *, timeout: float) -> None:
    """A dispatcher given several indices (GROUP_RUNS) runs each in turn and marks each end
    on stdout; a bad index (`bad`) stops the run where it stands, so the marks say who ran."""
    out = run([str(binary), *map(str, order)], timeout=timeout)
    assert out.returncode == 0, out
    assert out.stdout == "".join(f"{GROUP_DONE}{i}\n" for i in order)
    out = run([str(binary), str(order[0]), bad, str(order[1])], timeout=timeout)
    assert (out.returncode, out.stdout) == (2, f"{GROUP_DONE}{order[0]}\n")

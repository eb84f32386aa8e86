"""The Crystal target: fibers, `Channel(Nil)` and `select`, on Debian's crystal (1.6);
beyond the paper, buffered channels, `close` and ranging until closed (issue #15).

Toolchains: Debian's ``crystal`` (``/usr/bin/crystal``), else ``crystal`` on PATH;
``CHANFUZZ_CRYSTAL=/path/to/crystal`` replaces it. No other version can be had
here, so nothing is installable beyond Debian's package. Mutants of the
stdlib's channel (runners.mutation.crystal_mutants) are toolchains too: the
base compiler with ``CRYSTAL_PATH`` pointing at a stdlib holding the mutated
file (origin "mutant", id ``crystal-<version>-mutant-<mutant id>``).

Builds: ``main.cr``; ``crystal build --no-debug -Dpreview_mt`` (the multi-threaded
scheduler, SPEC §8a) with a compiler cache per toolchain, run from a directory
that cannot trip Crystal's cache-path bug. Runs: the binary; Crystal prints no
dump on a signal, so a hang is known by its timeout alone.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from collections.abc import Iterator, Sequence
from pathlib import Path

from generator.capabilities import Capabilities
from runners import config
from runners.targets.base import (
    BuildPlan,
    Candidate,
    TargetSpec,
    Toolchain,
    ToolchainUnavailable,
    clean_env,
    executable,
    mtime_ns,
    run_probe,
)
from runners.targets.reading import TOP_FRAMES, message, normalise_frame

DEBIAN_CRYSTAL = Path("/usr/bin/crystal")


def _crystal_version(crystal: Path) -> str:
    out = run_probe((str(crystal), "env", "CRYSTAL_VERSION"), mtime_ns(crystal)).strip()
    if not re.fullmatch(r"\d+(\.\d+)*\S*", out):
        raise ToolchainUnavailable(f"cannot tell the version of {crystal} (got {out!r})")
    return out


def _crystal_toolchain(crystal: Path, origin: str) -> Toolchain:
    crystal = executable(crystal, "crystal")
    version = _crystal_version(crystal)
    return Toolchain(
        language="crystal",
        version=version,
        id=f"crystal-{version}-{origin}",
        origin=origin,
        home=crystal.resolve().parent.parent,
        executable=crystal,
    )


def _crystal_candidates() -> Iterator[Candidate]:
    configured = config.binary_override("CHANFUZZ_CRYSTAL")
    if configured is not None:
        path = configured
        yield Candidate("crystal", "env", path, lambda: _crystal_toolchain(path, "env"))
        return
    yield Candidate(
        "crystal",
        "debian",
        DEBIAN_CRYSTAL,
        lambda: _crystal_toolchain(DEBIAN_CRYSTAL, "debian"),
        "apt-get install crystal",
    )
    on_path = shutil.which("crystal")
    if on_path and Path(on_path).resolve() != DEBIAN_CRYSTAL.resolve():
        path = Path(on_path)
        yield Candidate("crystal", "path", path, lambda: _crystal_toolchain(path, "path"))
    # Mutants last: asked for by id, never chosen as "the" Crystal. The registry
    # reads the directories runners.mutation.crystal_mutants writes (that module
    # imports the registry, not the other way round).
    for meta_path in sorted(mutants_dir().glob("*/*/mutant.json")):
        yield Candidate(
            "crystal", "mutant", meta_path.parent, lambda p=meta_path: _mutant_toolchain(p)
        )


def mutants_dir() -> Path:
    """Where Crystal mutant toolchains live (runners.mutation.crystal_mutants)."""
    return config.toolchains_dir() / "mutants" / "crystal"


def _mutant_toolchain(meta_path: Path) -> Toolchain:
    """The base compiler, reading the stdlib in the mutant's directory: its ``home``, the
    prefix it installs to, which the sandbox binds like any home (so others must be able
    to read it, as runners.mutation.crystal_mutants.install leaves it)."""
    try:
        meta = json.loads(meta_path.read_text())
    except (OSError, ValueError) as exc:
        raise ToolchainUnavailable(f"unreadable mutant {meta_path}: {exc}") from None
    crystal = Path(meta["crystal"])
    if not crystal.exists():
        raise ToolchainUnavailable(f"the base Crystal of mutant {meta['id']} is gone: {crystal}")
    return Toolchain(
        language="crystal",
        version=meta["version"],
        id=f"crystal-{meta['version']}-mutant-{meta['id']}",
        origin="mutant",
        home=meta_path.parent,
        executable=crystal,
        components=(("mutant", f"{meta['file']}:{meta['line']} {meta['operator']}"),),
    )


def mutant_stdlib(toolchain: Toolchain) -> Path | None:
    """The stdlib a mutant toolchain compiles against (None: the compiler's own)."""
    return toolchain.home / "src" if toolchain.origin == "mutant" else None


def stdlib_dir(crystal: Path) -> Path:
    """The stdlib `crystal` was built to use: the last entry of its default CRYSTAL_PATH."""
    done = subprocess.run(
        [str(crystal), "env", "CRYSTAL_PATH"], capture_output=True, text=True, timeout=60,
        env=clean_env(("CRYSTAL_",)), stdin=subprocess.DEVNULL, check=False,
    )  # fmt: skip
    entries = [Path(p) for p in done.stdout.strip().split(":") if p and p != "lib"]
    if done.returncode != 0 or not entries or not (entries[-1] / "prelude.cr").is_file():
        raise ToolchainUnavailable(f"cannot tell where the stdlib of {crystal} is: {done.stdout}")
    return entries[-1]


def crystal_env(toolchain: Toolchain) -> dict[str, str]:
    """The environment the compiler runs in: none of the caller's CRYSTAL_ settings, a
    compiler cache of the toolchain's own and, for a mutant, CRYSTAL_PATH to its stdlib."""
    crystal_cache = config.cache_dir() / "crystal" / toolchain.id
    crystal_cache.mkdir(parents=True, exist_ok=True)
    env = clean_env(("CRYSTAL_",))
    env["CRYSTAL_CACHE_DIR"] = str(crystal_cache)
    stdlib = mutant_stdlib(toolchain)
    if stdlib is not None:
        env["CRYSTAL_PATH"] = f"lib:{stdlib}"  # the default's shape: shards' lib/ first
    return env


def _crystal_plan(toolchain: Toolchain, workdir: Path, flags: Sequence[str]) -> BuildPlan:
    env = crystal_env(toolchain)
    crystal_cache = Path(env["CRYSTAL_CACHE_DIR"])
    product = workdir / "prog"
    argv = (
        str(toolchain.executable),
        "build",
        "--no-debug",
        "--no-color",
        *flags,
        "-o",
        str(product),
        str(workdir / SOURCE_FILE),
    )
    # Crystal 1.6 strips the working directory's path from object file paths
    # as text: when it is a prefix of CRYSTAL_CACHE_DIR without being its
    # ancestor (/x/cr vs /x/crcache) the linker looks in the wrong place
    # ("cannot find _main.o"). The cache's parent is always a true ancestor,
    # and with absolute paths everywhere the working directory matters for
    # nothing else.
    return BuildPlan(argv, env, crystal_cache.parent, product)


_CRYSTAL_UNHANDLED = re.compile(
    # "in spawn" (Crystal 1.6) or "in spawn(name: …)" for a named fiber.
    r"^Unhandled exception(?: in spawn(?:\([^)]*\))?)?: (.*?)(?: \((\w+(?:::\w+)*)\))?$",
    re.M,
)


# Frames of Crystal's raising itself (a build without debug info names them first):
# the same for every exception, so no part of where the bug is.
_CRYSTAL_RAISING = re.compile(r"^(?:Exception::CallStack\b|raise\b)")


_CRYSTAL_FRAME = re.compile(r"^\s+from \S+ in '([^']+)'", re.M)


_CRYSTAL_SEGV = re.compile(r"^Invalid memory access \(signal (\d+)\)", re.M)


def _crystal_crash(text: str) -> tuple[str, str] | None:
    m = _CRYSTAL_SEGV.search(text)
    if m:
        frames = [normalise_frame(f) for f in _CRYSTAL_FRAME.findall(text[m.end() :])]
        return m.group(0), f"signal {m.group(1)} | {' < '.join(frames[:TOP_FRAMES])}"
    m = _CRYSTAL_UNHANDLED.search(text)
    if not m:
        return None
    text_, cls = message(m.group(1)), m.group(2) or "Exception"
    frames = [
        normalise_frame(f)
        for f in _CRYSTAL_FRAME.findall(text[m.end() :])
        if not _CRYSTAL_RAISING.match(f)
    ]
    return f"{cls}: {text_}", f"{cls} | {text_} | {' < '.join(frames[:TOP_FRAMES])}"


SOURCE_FILE = "main.cr"
# The multi-threaded scheduler (SPEC §8a): races need parallel fibers.
BUILD_FLAGS = ("-Dpreview_mt",)
# The reproducer bundle's run script (chanfuzz_site/bundles.py wraps it).
BUNDLE_SCRIPT = f"""CRYSTAL=${{CRYSTAL:-crystal}}
# As chanfuzz builds and runs it: the multi-threaded runtime, under SCHED_BATCH
# (chanfuzz's runners/targets/crystal.py says why).
"$CRYSTAL" build --no-debug {" ".join(BUILD_FLAGS)} -o prog main.cr || exit 3
BATCH=$(chrt --batch 0 true 2>/dev/null && echo "chrt --batch 0")
timeout -k 5 "$TIMEOUT" $BATCH ./prog
"""

TARGET = TargetSpec(
    name="crystal",
    title="Crystal",
    extension="cr",
    lexer="crystal",
    position=30,
    renderer="crystal",
    capabilities=Capabilities(
        select=True, select_send=True, buffered=True, close=True, select_default=True
    ),
    concurrency="fibers",
    candidates=_crystal_candidates,
    not_installable="Crystal comes from Debian only: apt-get install crystal",
    no_bisection="one Crystal release is obtainable here (Debian's): nothing to bisect over",
    source_file=SOURCE_FILE,
    build_plan=_crystal_plan,
    build_flags=BUILD_FLAGS,
    # preview_mt's scheduler starts CRYSTAL_WORKERS threads (4 unless set).
    threads_env=lambda n, _options: {"CRYSTAL_WORKERS": str(n)},
    # A worker that sends a fiber to a sleeping one writes to its pipe while it holds
    # the sleeper's spin lock (`Crystal::Scheduler#send_fiber`, 1.6). When the workers
    # outnumber the free cores the wake-up preempts the writer, lock held, and the
    # woken worker spins on that lock (`Intrinsics.pause`, never yielding) until the
    # next tick: 96 % of a run's time on one core, a hundred times the programs' own.
    # Under SCHED_BATCH a wake-up preempts nothing and the tick still does, so the
    # workers still run in parallel and interleave; only that spin is gone.
    batch_scheduling=True,
    read_crash=_crystal_crash,
    dockerfile="docker/crystal.Dockerfile",
    bundle_script=BUNDLE_SCRIPT,
)

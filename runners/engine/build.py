"""Compile rendered programs with a toolchain, cache the results, run them with a timeout.

This module owns turning one source text into something runnable and running it:

- :func:`build` compiles one source file (a single program, or a batch of
  programs behind a dispatcher ``main`` that takes the program index as its
  first argument) and returns an :class:`Artifact`. Artifacts are cached under
  ``<cache>/artifacts/<toolchain id>/<key>/``, the key being a hash of the
  toolchain, its version, the source and the build's recipe (the target's plan:
  its command, environment and files), so building the same source again costs
  one directory lookup, and a change to how a target builds is never served an
  artifact built the old way.
- :func:`run` runs an artifact through the process supervisor
  (:mod:`runners.engine.supervisor`), which also runs every compile (timeout,
  process-group kill, bounded output, rlimits: ``COMPILE_LIMITS``); a ``wrap``
  function lets a sandbox prefix the argv.

How each language compiles (the source file's name, the compiler's argv and
environment, what the build keeps and how it starts) is its target's business:
``build_plan``, ``product`` and ``run_command`` of :mod:`runners.targets`.

``<cache>`` is ``$CHANFUZZ_CACHE_DIR``, by default ``<repo>/var/cache``.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from runners import config
from runners.engine import artifact_cache, resident
from runners.engine.sandbox import compile_jail
from runners.engine.supervisor import ProcessResult, RLimits, run_argv
from runners.targets import get_target
from runners.targets.base import BuildPlan, Toolchain

# The work directory a build plan is made for when it goes into an artifact key: where a
# batch compiles (one directory per worker) changes nothing in what it builds.
KEY_WORKDIR = Path("/chanfuzz-build")

COMPILE_OUTPUT_LIMIT = 16 * 1024  # bytes of compiler output kept in a CompileError
COMPILE_TIMEOUT_S = 600.0
# A compiler works on generated code: no core dumps (RLimits always), and no file
# larger than any product or cache entry of ours could be (a runaway write ends
# with SIGXFSZ instead of filling the disk). CPU and memory stay as inherited:
# the wall-clock timeout bounds a compile, and kotlinc needs its heap.
COMPILE_LIMITS = RLimits(file_bytes=1 << 30)


class CompileError(Exception):
    """The compiler rejected a source (or crashed, or timed out).

    ``output`` is the compiler's stdout and stderr, cut to COMPILE_OUTPUT_LIMIT.
    """

    def __init__(
        self, toolchain_id: str, exit_code: int | None, output: str, timed_out: bool = False
    ) -> None:
        self.toolchain_id = toolchain_id
        self.exit_code = exit_code
        self.output = output
        self.timed_out = timed_out
        what = "timed out" if timed_out else f"failed (exit {exit_code})"
        super().__init__(f"{toolchain_id}: compile {what}:\n{output}")


@dataclass(frozen=True)
class Artifact:
    """A compiled program (or batch of programs) and how to start it."""

    toolchain_id: str
    language: str
    key: str
    path: Path  # the binary (Go, Crystal) or the classes directory (Kotlin)
    command: tuple[str, ...]  # argv without the program's own arguments
    cached: bool  # True when build() found it in the cache
    compile_s: float  # time this build() spent compiling (0 for a cache hit)
    # Of compile_s, the time spent starting a compiler kept running, which serves the
    # builds after this one too (runners.engine.resident).
    compiler_start_s: float = 0.0

    def argv(self, *args: object) -> list[str]:
        """The argv to run it, e.g. ``artifact.argv(3)`` for program 3 of a batch."""
        return [*self.command, *(str(a) for a in args)]


# --- paths and keys ----------------------------------------------------------------


def cache_root() -> Path:
    """``$CHANFUZZ_CACHE_DIR``, by default ``<repo>/var/cache``."""
    return config.cache_dir()


def default_artifact_cache() -> Path:
    return cache_root() / "artifacts"


def scratch(prefix: str) -> tempfile.TemporaryDirectory[str]:
    """A directory for builds' work directories in ``config.scratch_dir()`` (in memory
    where it can be), removed when left."""
    root = config.scratch_dir()
    root.mkdir(parents=True, exist_ok=True)
    return tempfile.TemporaryDirectory(prefix=prefix, dir=root)


def build_recipe(toolchain: Toolchain, flags: Sequence[str] = ()) -> dict[str, object] | None:
    """How ``toolchain`` builds with ``flags``, as the artifact key takes it in: the
    target's plan made for a placeholder work directory (its argv, the environment it
    sets, its files and where its product is). None for a render-only target.

    Only the variables the plan sets count, not those it passes on from this process:
    a key must not change with the shell it is computed in.
    """
    target = get_target(toolchain.language)
    if target.build_plan is None:
        return None
    plan = target.build_plan(toolchain, KEY_WORKDIR, flags)
    return {
        "argv": list(plan.argv),
        "env": sorted([k, v] for k, v in plan.env.items() if os.environ.get(k) != v),
        "cwd": str(plan.cwd),
        "product": str(plan.product),
        "files": [list(f) for f in plan.files],
        "writes": [str(w) for w in plan.writes],
    }


def artifact_key(toolchain: Toolchain, source: str, flags: Sequence[str] = ()) -> str:
    """Cache key of building ``source`` with ``toolchain`` and ``flags``.

    It covers everything the output depends on: the build's recipe (how the target
    compiles, so changing a compiler flag or a manifest changes every key), the
    toolchain's identity, version and location, its component versions (the Kotlin
    compiler, the JVM) and the exact source text.
    """
    material = {
        "recipe": build_recipe(toolchain, flags),
        "toolchain": toolchain.id,
        "version": toolchain.version,
        "executable": str(toolchain.executable),
        "components": [list(c) for c in toolchain.components],
        "runtime_classpath": [p.name for p in toolchain.runtime_classpath],
        "flags": list(flags),
        "source_sha256": hashlib.sha256(source.encode()).hexdigest(),
    }
    return hashlib.sha256(json.dumps(material, sort_keys=True).encode()).hexdigest()


def run(
    artifact: Artifact,
    args: Sequence[object] = (),
    timeout_s: float = 30.0,
    *,
    env: dict[str, str] | None = None,
    wrap: Callable[[list[str]], list[str]] | None = None,
    dump_signal: int | None = None,
) -> ProcessResult:
    """Run ``artifact`` with ``args`` (e.g. the program index of a batch).

    ``env`` is added to this process's environment. ``wrap`` turns the argv
    into another one (a sandbox, ``taskset``, ...). ``dump_signal``: see run_argv.
    """
    argv = artifact.argv(*args)
    if wrap is not None:
        argv = wrap(argv)
    full_env = {**os.environ, **env} if env else None
    return run_argv(argv, timeout_s, env=full_env, dump_signal=dump_signal)


# --- compiling -----------------------------------------------------------------------


def _bounded(text: str, limit: int = COMPILE_OUTPUT_LIMIT) -> str:
    if len(text) <= limit:
        return text
    # Keep the start (the first error) and the end (the summary / exit reason).
    head, tail = text[: limit * 3 // 4], text[-limit // 4 :]
    return f"{head}\n[... {len(text) - len(head) - len(tail)} characters cut ...]\n{tail}"


def build(
    toolchain: Toolchain,
    source: str,
    workdir: Path,
    *,
    flags: Sequence[str] = (),
    cache_dir: Path | None = None,
    use_cache: bool = True,
    timeout_s: float = COMPILE_TIMEOUT_S,
) -> Artifact:
    """Compile ``source`` with ``toolchain``; raise CompileError if it does not compile.

    ``workdir`` is scratch space for the compile (created if missing; source,
    go.mod and outputs go there). ``flags`` are extra compiler flags (e.g.
    ``-Dpreview_mt`` for Crystal's multi-threaded runtime) and part of the cache
    key. With the cache (``cache_dir``, by default ``<cache>/artifacts``) the
    artifact is moved into the cache and a later build of the same source with
    the same toolchain returns it without compiling; with ``use_cache=False`` it
    stays in ``workdir``.

    One build at a time per workdir. Reusing a workdir (one per worker) is
    cheaper than a fresh one each time: Crystal keys its compiler cache on the
    source path, so a reused path compiles warm (~1.6 s instead of ~2.3 s here)
    and does not add ~5 MB of cache per compile.
    """
    target = get_target(toolchain.language)
    if target.build_plan is None:
        raise ValueError(f"no builder for {toolchain.language!r} (render-only)")
    key = artifact_key(toolchain, source, flags)
    entry: Path | None = None
    if use_cache:
        entry = (cache_dir or default_artifact_cache()) / toolchain.id / key
        product = entry / target.product
        if (entry / "meta.json").is_file() and product.exists():
            artifact_cache.touch(entry)
            return Artifact(
                toolchain.id,
                toolchain.language,
                key,
                product,
                target.run_command(toolchain, product),
                cached=True,
                compile_s=0.0,
            )

    workdir = workdir.resolve()
    workdir.mkdir(parents=True, exist_ok=True)
    source_path = workdir / target.source_file
    source_path.parent.mkdir(parents=True, exist_ok=True)  # Rust's src/main.rs
    source_path.write_text(source)
    plan = target.build_plan(toolchain, workdir, flags)
    for name, text in plan.files:
        (workdir / name).write_text(text)
    for directory in plan.writes:
        directory.mkdir(parents=True, exist_ok=True)
    if plan.product.is_dir():
        shutil.rmtree(plan.product)  # stale classes from an earlier compile in this workdir
    elif plan.product.exists():
        plan.product.unlink()
    result = None
    # A resident compiler writes only to the temporary directory (resident.servable), so
    # a plan that writes elsewhere too runs cold; so does any build no server can take.
    if _servable_plan(plan):
        result = resident.compile(
            plan.resident, workdir=workdir, env=plan.env, timeout_s=timeout_s, limits=COMPILE_LIMITS
        )
    if result is None:
        result = run_argv(
            compile_jail.jail(plan.argv, workdir=workdir, cwd=plan.cwd, writes=plan.writes),
            timeout_s,
            env=plan.env,
            cwd=plan.cwd,
            output_limit=4 * COMPILE_OUTPUT_LIMIT,
            limits=COMPILE_LIMITS,
        )
    output = _bounded((result.stdout + result.stderr).strip())
    if not result.ok or not plan.product.exists():
        raise CompileError(toolchain.id, result.exit_code, output, timed_out=result.timed_out)
    product = plan.product
    if not product.is_relative_to(workdir):
        # Built in a directory the toolchain shares (cargo's target directory):
        # the product joins the work directory under the target's product name,
        # so that an uncached artifact is where the caller's workdir is, and the
        # shared directory does not collect one binary per batch.
        kept = workdir / target.product
        if kept.is_dir():
            shutil.rmtree(kept)
        kept.unlink(missing_ok=True)
        shutil.move(str(product), str(kept))
        product = kept

    if entry is None:
        return Artifact(
            toolchain.id,
            toolchain.language,
            key,
            product,
            target.run_command(toolchain, product),
            cached=False,
            compile_s=result.duration_s,
            compiler_start_s=result.setup_s,
        )
    final = _publish(entry, toolchain, source_path, product, key, result.duration_s, flags)
    artifact_cache.maybe_prune(entry.parent.parent)
    return Artifact(
        toolchain.id,
        toolchain.language,
        key,
        final,
        target.run_command(toolchain, final),
        cached=False,
        compile_s=result.duration_s,
        compiler_start_s=result.setup_s,
    )


def compiles_kept_running(toolchain: Toolchain, workdir: Path, flags: Sequence[str] = ()) -> bool:
    """Whether `build` hands this toolchain's compiles in `workdir` to a compiler kept
    running (runners.engine.resident), whose fixed cost a compile is a round trip, not a
    compiler's start."""
    target = get_target(toolchain.language)
    if target.build_plan is None or not resident.serves(workdir, quiet=True):
        return False
    return _servable_plan(target.build_plan(toolchain, workdir.resolve(), flags))


def _servable_plan(plan: BuildPlan) -> bool:
    """Whether a server may take `plan`: it has one, and writes nowhere but its workdir."""
    return plan.resident is not None and not plan.writes


def _publish(
    entry: Path,
    toolchain: Toolchain,
    source_path: Path,
    product: Path,
    key: str,
    compile_s: float,
    flags: Sequence[str],
) -> Path:
    """Move a fresh product into the cache entry atomically; return its final path.

    The entry is assembled in a temporary sibling and renamed into place, so a
    reader sees either no entry or a complete one; when several builders race,
    the first rename wins and the others' copies are dropped.
    """
    entry.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{key[:16]}.", dir=entry.parent))
    try:
        shutil.copy2(source_path, staging / source_path.name)
        shutil.move(str(product), str(staging / product.name))
        meta = {
            "toolchain": toolchain.id,
            "language": toolchain.language,
            "version": toolchain.version,
            "components": dict(toolchain.components),
            "flags": list(flags),
            "compile_s": round(compile_s, 3),
            "built_at": time.time(),
            "bytes": artifact_cache.tree_bytes(staging),
        }
        (staging / "meta.json").write_text(json.dumps(meta, indent=2) + "\n")
        staging.chmod(0o755)
        try:
            staging.rename(entry)
        except OSError:
            if not (entry / "meta.json").is_file():
                raise  # not a lost race: a real problem
    finally:
        if staging.exists():
            shutil.rmtree(staging, ignore_errors=True)
    return entry / product.name

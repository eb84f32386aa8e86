"""Compile rendered programs with a toolchain, cache the results, run them with a timeout.

This module owns turning one source text into something runnable and running it:

- :func:`build` compiles one source file (a single program, or a batch of
  programs behind a dispatcher ``main`` that takes the program index as its
  first argument) and returns an :class:`Artifact`. Artifacts are cached under
  ``<cache>/artifacts/<toolchain id>/<key>/``, the key being a hash of the
  toolchain, its version, the flags and the source, so building the same source
  again costs one directory lookup.
- :func:`run` runs an artifact (or :func:`run_argv` any argv) in its own process
  group with a timeout, kills the whole group afterwards, and keeps a bounded
  amount of output. It takes a ``wrap`` function so a sandbox can prefix the argv.

Per language:

- Go: ``main.go`` + a minimal ``go.mod``; ``go build -trimpath -ldflags='-s -w'``
  with no network (GOPROXY=off, GOTOOLCHAIN=local) and a build cache per toolchain.
- Crystal: ``main.cr``; ``crystal build --no-debug`` with a compiler cache per
  toolchain, run from a directory that cannot trip Crystal's cache-path bug.
- Kotlin: ``Main.kt`` (so the class is ``MainKt``); the compiler's
  ``K2JVMCompiler`` on the toolchain's JVM, against kotlin-stdlib and
  kotlinx-coroutines; the artifact is a classes directory run with ``java -cp``.
  Compiles and runs use the toolchain's class-data-sharing archives when the
  install script made them (start-up is most of the time of both).

``<cache>`` is ``$CHANFUZZ_CACHE_DIR``, by default ``<repo>/var/cache``.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from runners.engine.supervisor import ProcessResult, run_argv
from runners.engine.toolchains import REPO_ROOT, Toolchain

# Bump when the build commands change: it is part of every cache key, so old
# artifacts built differently are not reused.
BUILDER_VERSION = "1"

COMPILE_OUTPUT_LIMIT = 16 * 1024  # bytes of compiler output kept in a CompileError
COMPILE_TIMEOUT_S = 600.0

SOURCE_FILES = {"go": "main.go", "crystal": "main.cr", "kotlin": "Main.kt"}
KOTLIN_MAIN_CLASS = "MainKt"  # what kotlinc names the class of top-level functions in Main.kt

# JVM flags for the Kotlin compiler: C1 only and the serial collector start and
# finish a short compile fastest; a deep stack because generated programs can
# nest selects and ifs deeply. Keep in step with scripts/install_toolchains.sh,
# which dumps the class-data archive with these flags. The cds logging is off
# because a stale archive is merely not used, which is no reason to print.
_KOTLINC_JVM_FLAGS = ("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xss16m")
_KOTLINC_MAIN = "org.jetbrains.kotlin.cli.jvm.K2JVMCompiler"


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

    def argv(self, *args: object) -> list[str]:
        """The argv to run it, e.g. ``artifact.argv(3)`` for program 3 of a batch."""
        return [*self.command, *(str(a) for a in args)]


# --- paths and keys ----------------------------------------------------------------


def cache_root() -> Path:
    """``$CHANFUZZ_CACHE_DIR``, by default ``<repo>/var/cache``."""
    configured = os.environ.get("CHANFUZZ_CACHE_DIR")
    return Path(configured) if configured else REPO_ROOT / "var" / "cache"


def default_artifact_cache() -> Path:
    return cache_root() / "artifacts"


def artifact_key(toolchain: Toolchain, source: str, flags: Sequence[str] = ()) -> str:
    """Cache key of building ``source`` with ``toolchain`` and ``flags``.

    It covers everything the output depends on: the builder itself, the
    toolchain's identity, version and location, its component versions (the
    Kotlin compiler, the JVM) and the exact source text.
    """
    material = {
        "builder": BUILDER_VERSION,
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


@dataclass(frozen=True)
class _Plan:
    """How to compile one source in ``workdir`` and what comes out."""

    argv: tuple[str, ...]
    env: dict[str, str]
    cwd: Path
    product: Path  # what build() keeps: a binary or a directory


def _clean_env(drop_prefixes: tuple[str, ...]) -> dict[str, str]:
    # Settings of the caller's shell (GOFLAGS, GOPATH, CRYSTAL_PATH, ...) must
    # not change what gets built.
    return {k: v for k, v in os.environ.items() if not k.startswith(drop_prefixes)}


def _go_language_version(version: str) -> str:
    """The go.mod language version of a Go release: "1.26.8" and "1.21rc2" give "1.26", "1.21"."""
    match = re.match(r"(\d+)\.(\d+)", version)
    if not match:
        raise ValueError(f"not a Go version: {version!r}")
    return f"{match[1]}.{match[2]}"


def _go_plan(toolchain: Toolchain, workdir: Path, flags: Sequence[str]) -> _Plan:
    # A minimal module: its go directive is the toolchain's own language
    # version, so each Go compiles with its native semantics (loop variables,
    # ...) and never asks for a newer toolchain; there are no requirements, so
    # nothing is ever downloaded.
    (workdir / "go.mod").write_text(
        f"module chanfuzzprog\n\ngo {_go_language_version(toolchain.version)}\n"
    )
    cache = cache_root()
    env = _clean_env(("GO", "CGO_"))
    goflags = []
    minor = int(_go_language_version(toolchain.version).split(".")[1])
    if minor >= 18:
        goflags.append("-buildvcs=false")  # workdirs may sit inside a git checkout
    env.update(
        GOROOT=str(toolchain.home),
        GOCACHE=str(cache / "go-build" / toolchain.id),
        GOPATH=str(cache / "gopath" / toolchain.id),
        GOENV="off",  # ignore `go env -w` settings of whoever runs this
        GOFLAGS=" ".join(goflags),
        GOTOOLCHAIN="local",  # never switch to (or download) another Go
        GOPROXY="off",  # programs import only the standard library: no network
        GOSUMDB="off",
        GOWORK="off",
        GO111MODULE="on",
        CGO_ENABLED="0",  # static binaries, no C compiler involved
    )
    product = workdir / "prog"
    argv = (
        str(toolchain.executable),
        "build",
        "-trimpath",
        "-ldflags=-s -w",
        *flags,
        "-o",
        str(product),
        ".",
    )
    return _Plan(argv, env, workdir, product)


def _crystal_plan(toolchain: Toolchain, workdir: Path, flags: Sequence[str]) -> _Plan:
    crystal_cache = cache_root() / "crystal" / toolchain.id
    crystal_cache.mkdir(parents=True, exist_ok=True)
    env = _clean_env(("CRYSTAL_",))
    env["CRYSTAL_CACHE_DIR"] = str(crystal_cache)
    product = workdir / "prog"
    argv = (
        str(toolchain.executable),
        "build",
        "--no-debug",
        "--no-color",
        *flags,
        "-o",
        str(product),
        str(workdir / SOURCE_FILES["crystal"]),
    )
    # Crystal 1.6 strips the working directory's path from object file paths
    # as text: when it is a prefix of CRYSTAL_CACHE_DIR without being its
    # ancestor (/x/cr vs /x/crcache) the linker looks in the wrong place
    # ("cannot find _main.o"). The cache's parent is always a true ancestor,
    # and with absolute paths everywhere the working directory matters for
    # nothing else.
    return _Plan(argv, env, crystal_cache.parent, product)


def _kotlin_plan(toolchain: Toolchain, workdir: Path, flags: Sequence[str]) -> _Plan:
    classes = workdir / "classes"
    jvm_flags = list(_KOTLINC_JVM_FLAGS)
    if toolchain.cds_archive is not None:
        jvm_flags += [
            f"-XX:SharedArchiveFile={toolchain.cds_archive}",
            "-Xlog:cds=off,cds+dynamic=off",
        ]
    argv = (
        str(toolchain.executable),
        *jvm_flags,
        "-cp",
        os.pathsep.join(map(str, toolchain.compiler_classpath)),
        _KOTLINC_MAIN,
        # -no-stdlib/-no-reflect: the embeddable compiler has no kotlin home to
        # find them in; the stdlib comes from the runtime classpath instead, so
        # the program is compiled against exactly what it runs with.
        "-no-stdlib",
        "-no-reflect",
        "-jvm-target",
        toolchain.component("jvm-target") or "17",
        "-classpath",
        os.pathsep.join(map(str, toolchain.runtime_classpath)),
        *flags,
        "-d",
        str(classes),
        str(workdir / SOURCE_FILES["kotlin"]),
    )
    env = _clean_env(("KOTLIN_", "_JAVA_OPTIONS", "JAVA_TOOL_OPTIONS"))
    return _Plan(argv, env, workdir, classes)


_PLANNERS: dict[str, Callable[[Toolchain, Path, Sequence[str]], _Plan]] = {
    "go": _go_plan,
    "crystal": _crystal_plan,
    "kotlin": _kotlin_plan,
}


# JVM flags for running programs. Sized from the host's RAM the JVM would let its
# heap grow far past the sandbox's data limit and then die with "insufficient
# memory": a false crash. A fixed 256 MiB heap keeps it well inside. (Another
# collector than the default would stop the runtime class-data archive, dumped
# with the default, from mapping fully: slower starts.)
_PROGRAM_JVM_FLAGS = ("-Xmx256m",)


def _command(toolchain: Toolchain, product: Path) -> tuple[str, ...]:
    if toolchain.language != "kotlin":
        return (str(product),)
    if toolchain.runtime_cds_archive is None:
        classpath = [product, *toolchain.runtime_classpath]
        return (
            str(toolchain.executable),
            *_PROGRAM_JVM_FLAGS,
            "-cp",
            _joined(classpath),
            KOTLIN_MAIN_CLASS,
        )
    # With the runtime archive, stdlib and coroutines classes come pre-parsed
    # (a JVM start takes ~0.1 s instead of ~0.25 s here). The archive maps only
    # for a classpath that starts with the one it was dumped with, so the
    # program's classes go last; no name clashes (the program's are MainKt*,
    # the training jar's TrainingKt*). Class loading is the only difference:
    # the same bytecode runs on the same JIT and the same scheduler.
    classpath = [*toolchain.runtime_classpath, *toolchain.runtime_cds_classpath, product]
    return (
        str(toolchain.executable),
        *_PROGRAM_JVM_FLAGS,
        f"-XX:SharedArchiveFile={toolchain.runtime_cds_archive}",
        "-Xlog:cds=off,cds+dynamic=off",  # a stale archive is simply not used: no noise
        "-cp",
        _joined(classpath),
        KOTLIN_MAIN_CLASS,
    )


def _joined(paths: Sequence[Path]) -> str:
    return os.pathsep.join(map(str, paths))


def _bounded(text: str, limit: int = COMPILE_OUTPUT_LIMIT) -> str:
    if len(text) <= limit:
        return text
    # Keep the start (the first error) and the end (the summary / exit reason).
    head, tail = text[: limit * 3 // 4], text[-limit // 4 :]
    return f"{head}\n[... {len(text) - len(head) - len(tail)} characters cut ...]\n{tail}"


def _product_name(toolchain: Toolchain) -> str:
    return "classes" if toolchain.language == "kotlin" else "prog"


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
    if toolchain.language not in _PLANNERS:
        raise ValueError(f"no builder for {toolchain.language!r}")
    key = artifact_key(toolchain, source, flags)
    entry: Path | None = None
    if use_cache:
        entry = (cache_dir or default_artifact_cache()) / toolchain.id / key
        product = entry / _product_name(toolchain)
        if (entry / "meta.json").is_file() and product.exists():
            return Artifact(
                toolchain.id,
                toolchain.language,
                key,
                product,
                _command(toolchain, product),
                cached=True,
                compile_s=0.0,
            )

    workdir = workdir.resolve()
    workdir.mkdir(parents=True, exist_ok=True)
    source_path = workdir / SOURCE_FILES[toolchain.language]
    source_path.write_text(source)
    plan = _PLANNERS[toolchain.language](toolchain, workdir, flags)
    if plan.product.is_dir():
        shutil.rmtree(plan.product)  # stale classes from an earlier compile in this workdir
    elif plan.product.exists():
        plan.product.unlink()
    result = run_argv(
        plan.argv, timeout_s, env=plan.env, cwd=plan.cwd, output_limit=4 * COMPILE_OUTPUT_LIMIT
    )
    output = _bounded((result.stdout + result.stderr).strip())
    if not result.ok or not plan.product.exists():
        raise CompileError(toolchain.id, result.exit_code, output, timed_out=result.timed_out)

    if entry is None:
        return Artifact(
            toolchain.id,
            toolchain.language,
            key,
            plan.product,
            _command(toolchain, plan.product),
            cached=False,
            compile_s=result.duration_s,
        )
    final = _publish(entry, toolchain, source_path, plan.product, key, result.duration_s, flags)
    return Artifact(
        toolchain.id,
        toolchain.language,
        key,
        final,
        _command(toolchain, final),
        cached=False,
        compile_s=result.duration_s,
    )


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

"""What a target is made of: toolchains, build plans, output readers, and the declaration.

This module owns the types every target module fills in and the generic engine
reads: :class:`Toolchain` (one installed compiler + runtime), the statuses that
say why one is missing, :class:`BuildPlan` (how to compile one source), and
:class:`TargetSpec`, the single declaration of a target language that the
registry (:mod:`runners.targets`) collects and everything else iterates over.
Standard library only, like the rest of the registry.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from generator import render
from generator.capabilities import Capabilities
from generator.lambda_chan import Program
from runners import config

REPO_ROOT = config.REPO_ROOT
INSTALL_HINT = "run scripts/install_toolchains.sh"
# A shared run's quiet period where the target declares none shorter (shared_quiet_s): a
# JVM's or Go's runtime wakes now and then while its program waits, well within it.
SHARED_QUIET_S = 0.25
# Programs cut by a shared run's quiet period that may wait aside at once, where the target
# declares no other number (hangs_aside): each holds up to three sandboxes (its run and
# re-runs) of a hung process, a JVM's hundreds of MiB.
HANGS_ASIDE = 4


class ToolchainUnavailable(LookupError):
    """A toolchain that was asked for is not installed; ``reason`` says why."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class Toolchain:
    """One installed compiler + runtime.

    ``id`` is unique among installed toolchains and safe as a file name; build
    caches are keyed on it. ``home`` is GOROOT for Go, the installation prefix
    for Crystal and the toolchain directory for Kotlin. ``executable`` is what
    gets run: ``go``, ``crystal``, or ``java`` for Kotlin (the compiler runs on it
    and so do the compiled programs).
    """

    language: str
    version: str
    id: str
    origin: str  # "machine", "debian", "path", "env" or "installed"
    home: Path
    executable: Path
    # Other versions that matter, e.g. (("kotlin", "2.4.21"), ("java", "17.0.15")).
    components: tuple[tuple[str, str], ...] = ()
    # The JVM targets (Kotlin, Clojure): the compiler's jars, and the generated program's
    # runtime jars.
    compiler_classpath: tuple[Path, ...] = ()
    runtime_classpath: tuple[Path, ...] = ()
    # The JVM targets: class-data-sharing archive of the compiler's JVM, if any.
    cds_archive: Path | None = None
    # The JVM targets: archive of a program run's classes (Kotlin's stdlib and coroutines),
    # and (Kotlin) the jars it was dumped with after runtime_classpath. It only maps when a
    # run's classpath starts with runtime_classpath + runtime_cds_classpath.
    runtime_cds_archive: Path | None = None
    runtime_cds_classpath: tuple[Path, ...] = ()
    # Kotlin: a newer Java the programs run on (not the compiler's), and the AOT cache of a
    # run's classes it maps, dumped with runtime_classpath + runtime_cds_classpath too.
    run_executable: Path | None = None
    runtime_aot_cache: Path | None = None
    # Options for generator.render.render(program, language, **render_options()):
    # for Kotlin the package layout and duplicate select clauses of its release.
    render: tuple[tuple[str, str], ...] = ()
    # Extra compiler arguments the toolchain needs (none so far; see runners/engine/build.py).
    compiler_args: tuple[str, ...] = ()

    def render_options(self) -> dict[str, str]:
        """What the renderer must be told to produce a program this toolchain accepts
        (its target's discovery fills ``render`` in, e.g. Kotlin's package layout)."""
        return dict(self.render)

    def component(self, name: str) -> str | None:
        """Version of a component (``"kotlin"``, ``"java"``, ``"jvm-target"``), if known."""
        return dict(self.components).get(name)

    def describe(self) -> str:
        return f"{self.summary()} at {self.home}"

    def summary(self) -> str:
        """describe() without where it is installed: what a public bug report names."""
        extra = "".join(f", {name} {version}" for name, version in self.components)
        return f"{self.language} {self.version} ({self.origin}{extra})"


@dataclass(frozen=True)
class ToolchainStatus:
    """A place a toolchain is expected or was found, and whether it is usable."""

    language: str
    origin: str
    location: str
    toolchain: Toolchain | None
    reason: str  # why it is unavailable; "" when installed
    hint: str = ""  # how to install it, when a plain command does

    @property
    def installed(self) -> bool:
        return self.toolchain is not None


def mtime_ns(path: Path) -> int:
    return path.stat().st_mtime_ns


@lru_cache(maxsize=64)
def run_probe(argv: tuple[str, ...], _mtime_ns: int) -> str:
    # _mtime_ns is part of the memo key only: an upgraded binary is probed again.
    done = subprocess.run(
        argv, capture_output=True, text=True, timeout=60, check=False, stdin=subprocess.DEVNULL
    )
    if done.returncode != 0:
        raise ToolchainUnavailable(
            f"{' '.join(argv)} failed (exit {done.returncode}): {done.stderr.strip()[:500]}"
        )
    return done.stdout


def executable(path: Path, what: str) -> Path:
    if not path.exists():
        raise ToolchainUnavailable(f"{what} not installed: {path} does not exist ({INSTALL_HINT})")
    if not os.access(path, os.X_OK):
        raise ToolchainUnavailable(f"{what}: {path} is not executable")
    return path


@dataclass(frozen=True)
class Candidate:
    """A place to look for a toolchain: enough to report it even when it is missing."""

    language: str
    origin: str
    location: Path
    locate: Callable[[], Toolchain]
    hint: str = ""  # how to install it when it is missing (e.g. an apt-get line)


def installed_candidates(
    target: str,
    directories: Sequence[Path],
    load: Callable[[Path], Toolchain],
    *,
    pattern: Path,
    what: str,
) -> Iterator[Candidate]:
    """A candidate for each installed release's directory, in the order given (newest
    first: find_toolchain prefers the first); with none installed, one at `pattern` whose
    loading says how to install `what`."""
    for directory in directories:
        yield Candidate(target, "installed", directory, lambda d=directory: load(d))
    if directories:
        return

    def missing() -> Toolchain:
        raise ToolchainUnavailable(
            f"no {what} release installed: run manage.py toolchains install "
            f"{target} VERSION (toolchains list {target} shows them)"
        )

    yield Candidate(
        target, "installed", pattern, missing, f"manage.py toolchains install {target} VERSION"
    )


def version_key(version: str) -> tuple[int, ...]:
    """Numeric sort key of a dotted release version ("0.19" < "0.19.1" < "1.3.10")."""
    return tuple(int(part) for part in re.findall(r"\d+", version.split("-", 1)[0]))


def failure_record(language: str, version: str) -> Path:
    """Where runners.engine.install records why installing ``language`` ``version`` failed."""
    return config.toolchains_dir() / ".failed" / f"{language}-{version}.json"


def failure_reason(language: str, version: str) -> str:
    path = failure_record(language, version)
    if not path.is_file():
        return ""
    try:
        return str(json.loads(path.read_text())["reason"])
    except (ValueError, KeyError):
        return f"an install failed (unreadable record {path})"


@dataclass(frozen=True)
class KnownToolchain:
    """A toolchain version chanfuzz knows of, and its state.

    ``state`` is "installed", "not installed" (``detail`` says how to install
    it) or "unavailable" (``detail`` says why it cannot be had).
    """

    language: str
    version: str
    state: str
    detail: str = ""
    origin: str = ""
    toolchain: Toolchain | None = None
    note: str = ""  # e.g. a compiler substitution

    def describe(self) -> str:
        text = f"{self.language} {self.version}: {self.state}"
        if self.detail:
            text += f": {self.detail}"
        return text


def known_from_status(status: ToolchainStatus) -> KnownToolchain:
    """A found or missing toolchain place as a line of ``toolchains list``."""
    toolchain = status.toolchain
    if toolchain is not None:
        return KnownToolchain(
            status.language,
            toolchain.version,
            "installed",
            toolchain.describe(),
            status.origin,
            toolchain,
        )
    if status.hint:
        return KnownToolchain(status.language, "?", "not installed", status.hint, status.origin)
    state = "unavailable" if "not installed" not in status.reason else "not installed"
    return KnownToolchain(status.language, "?", state, status.reason, status.origin)


# --- shared helpers of target modules ----------------------------------------------------


def clean_env(drop_prefixes: tuple[str, ...]) -> dict[str, str]:
    """This process's environment without variables that would change what gets built
    (GOFLAGS, GOPATH, CRYSTAL_PATH, ...)."""
    return {k: v for k, v in os.environ.items() if not k.startswith(drop_prefixes)}


Log = Callable[[str], None]


class InstallError(RuntimeError):
    """An install failed; the message says why (and is recorded for ``list``)."""


def stderr_log(message: str) -> None:
    print(f"[install] {message}", file=sys.stderr, flush=True)


def record_failure(language: str, version: str, reason: str) -> None:
    path = failure_record(language, version)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"reason": reason, "time": time.time()}) + "\n")


def clear_failure(language: str, version: str) -> None:
    failure_record(language, version).unlink(missing_ok=True)


def run_tool(
    argv: list[str], *, timeout: float, env: dict[str, str] | None = None, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    """Run an install-time tool (mvn, go mod download, ...) to completion, output captured."""
    return subprocess.run(
        argv,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
        stdin=subprocess.DEVNULL,
        env=env,
        cwd=cwd,
    )


def tail(text: str, limit: int = 1500) -> str:
    """The end of a tool's output, without the JVM's module warnings."""
    lines = [
        line
        for line in text.strip().splitlines()
        if not line.startswith(
            ("WARNING: A restricted", "WARNING: java.lang.System::", "WARNING: Use --enable")
        )
    ]
    text = "\n".join(lines)
    return text if len(text) <= limit else "…" + text[-limit:]


# --- building and reading ----------------------------------------------------------------


@dataclass(frozen=True)
class BuildPlan:
    """How to compile one source in a work directory, and what comes out."""

    argv: tuple[str, ...]
    env: dict[str, str]
    cwd: Path
    product: Path  # what the build keeps: a binary or a directory
    # Directories the compile writes besides its work directory and chanfuzz's cache
    # (cargo's target directory, kept in the toolchain's home): the compile jail makes
    # them writable. They are the toolchain's own, wherever $CHANFUZZ_TOOLCHAINS_DIR
    # points now (a release installed before it changed still builds).
    writes: tuple[Path, ...] = ()
    # Files the compile needs beside the source, as (path under the work directory, text):
    # a Go module's go.mod, a Cargo manifest and its lock file. The build writes them, and
    # they are part of what the artifact key hashes, as the argv and environment are.
    files: tuple[tuple[str, str], ...] = ()
    # The same compile handed to a compiler kept running between builds, where the
    # target has one (runners.engine.resident); None: only `argv`.
    resident: ResidentCompile | None = None


@dataclass(frozen=True)
class ResidentCompile:
    """A compile a JVM command-line compiler kept running can do (issue #18): the JVM it
    runs on (`java`, `jvm_flags`, `classpath`), the class whose `exec(PrintStream,
    String[])` compiles (`tool`), and this compile's arguments. The result must be what
    the plan's `argv` would give, output and exit code alike."""

    java: Path
    jvm_flags: tuple[str, ...]
    classpath: tuple[Path, ...]
    tool: str
    args: tuple[str, ...]


# (message a person reads, signature) of a crash found in a run's output, or None.
CrashReader = Callable[[str], "tuple[str, str] | None"]


def native_command(_toolchain: Toolchain, product: Path) -> tuple[str, ...]:
    """How a compiled binary starts: itself."""
    return (str(product),)


def no_binds(_toolchain: Toolchain) -> tuple[Path, ...]:
    return ()


def no_hang_shape(_dump: str) -> str:
    return ""


def whole_dump(dump: str) -> str:
    return dump


def no_crash(_text: str) -> tuple[str, str] | None:
    return None


@dataclass(frozen=True)
class RunSettings:
    """What a campaign or a fuzz run asks of a target besides the program: how many
    repetitions of the body, how many runtime threads (None: the target's default),
    whether the program checks the values its messages carry (the value oracle, where
    the target's renderer has it), and the PCT depth of schedule perturbation (None:
    none; a target whose renderer cannot yield refuses it)."""

    repetitions: int = 10
    threads: int | None = None
    values: bool = True
    pct_depth: int | None = None


# --- the declaration -----------------------------------------------------------------------


@dataclass(frozen=True)
class TargetSpec:
    """Everything chanfuzz knows about one target language, declared once.

    Identity and display: ``name`` (the ``--lang`` value, a toolchain's
    ``language``), ``title``, ``extension`` (raw source links ``/p/<id>.<ext>``),
    ``lexer`` (a Pygments lexer alias), ``position`` (order in lists).

    Generation and rendering: ``renderer`` (a module of generator.render),
    ``capabilities`` (what its programs may contain), ``concurrency`` (what a
    process is: goroutines, coroutines, fibers, threads, tasks).

    Toolchains: ``candidates()`` yields the places an installed toolchain may be;
    ``known(offline, statuses)`` lists, from what the candidates found, every
    version including those that could be installed (None: only what is found);
    ``install(version, force=, log=, compiler=)`` installs one (None:
    ``not_installable`` says why not; ``compiler_choice`` says what ``compiler``
    picks, where a version can be installed with more than one compiler).
    ``no_bisection`` says why findings cannot be bisected ("" when they can).

    Building and running (``build_plan`` None: render-only, nothing runs):
    ``source_file`` is what the source is saved as; ``build_plan(toolchain,
    workdir, flags)`` says how it compiles there without writing anything (the
    build writes the plan's files, and the plan made for a placeholder work
    directory is part of the artifact key); ``product`` names what a build
    keeps; ``run_command`` starts it; ``build_flags`` put the runtime on its
    parallel scheduler; ``max_batch`` is the most programs one compile takes;
    ``renderer_options`` are what the renderer is always told for this target,
    ``render_options(toolchain, settings)`` what a run on this toolchain adds
    (:meth:`run_options`; :meth:`source_options` for a program's pages);
    ``binds(toolchain)`` are host paths a run must see.

    Reading runs: ``run_env`` is added to a run's environment (a backtrace on a
    panic, say); ``dump_signal`` asks the runtime for its own dump on timeout;
    ``dump_command(pid)`` dumps from outside a runtime that prints nothing on a
    signal; ``read_crash(text)`` finds a crash in the output; ``hang_shape(dump)``
    describes what a hang's processes wait on; ``dump_excerpt(dump)`` is what a bug
    report shows of it. ``batch_scheduling`` runs the
    programs under SCHED_BATCH (:class:`Limits`), for a runtime whose spin locks
    otherwise turn a wake-up into a lost time slice (the target says why).

    Sandbox and bundles: ``dockerfile`` builds its image; ``bundle_script`` is the
    run script of a reproducer bundle (``$SRC`` is the source file).
    """

    name: str
    title: str
    extension: str
    # What a toolchain's version is the release of, where not the language itself (a
    # report's title says "kotlinx.coroutines 0.19", not "Kotlin 0.19").
    release_of: str = field(default="", kw_only=True)
    lexer: str
    position: int
    renderer: str
    capabilities: Capabilities
    concurrency: str
    candidates: Callable[[], Iterator[Candidate]]
    source_file: str
    dockerfile: str
    bundle_script: str
    # Shell lines a finding's standalone reproducer runs before the build: what the build
    # needs of the release seen, fetched from its public registry unless the user set it
    # (a kotlinx.coroutines jar from Maven Central). None: the build needs nothing more.
    reproducer_fetch: Callable[[Toolchain], Sequence[str]] | None = field(
        default=None, kw_only=True
    )
    known: Callable[[bool, list[ToolchainStatus]], list[KnownToolchain]] | None = None
    install: Callable[..., Path] | None = None
    not_installable: str = ""
    # Why findings cannot be bisected across releases ("" when they can): a target
    # with one obtainable version has nothing to bisect over.
    no_bisection: str = ""
    compiler_choice: str = ""  # what ``install(..., compiler=V)`` chooses; "" when nothing
    install_defaults: Callable[[Log], list[Path]] | None = None  # what setup installs
    build_plan: Callable[[Toolchain, Path, Sequence[str]], BuildPlan] | None = None
    product: str = "prog"
    # The most programs one compile takes (the batch sizers' `high`): 500, except where a
    # batch's source outgrows a limit of the compiler before (a batch that does not compile
    # splits in halves, which costs its compiles again).
    max_batch: int = 500
    run_command: Callable[[Toolchain, Path], tuple[str, ...]] = native_command
    build_flags: tuple[str, ...] = ()
    # Options this target always renders with (a Rust library's flavour), and those
    # a toolchain and a run's settings add (Kotlin's package layout, its threads).
    renderer_options: Mapping[str, object] = field(default_factory=dict)
    # Given no toolchain (a page, `generate`, with none installed): a run's defaults only.
    render_options: Callable[[Toolchain | None, RunSettings], dict[str, object]] = field(
        default=lambda toolchain, _settings: toolchain.render_options() if toolchain else {}
    )
    binds: Callable[[Toolchain], tuple[Path, ...]] = no_binds
    dump_signal: int | None = None
    # For runtimes that print nothing on a signal: given the hung program's pid,
    # the argv of a tool that dumps every thread from outside (eu-stack for Rust).
    dump_command: Callable[[int], Sequence[str]] | None = None
    run_env: Mapping[str, str] = field(default_factory=dict)  # e.g. RUST_BACKTRACE=1
    batch_scheduling: bool = False
    # The quiet period that cuts a shared run (runners.engine.shared_runs.shared_run_limits):
    # only where to split the batch, the program it stopped in is judged by a run of its
    # own. Shorter where nothing in the runtime wakes while every thread of the program
    # waits (no housekeeping threads: Rust), so that a batch holds for a hang less long.
    shared_quiet_s: float = SHARED_QUIET_S
    # How many programs such a cut set aside may wait at once beside their batch
    # (runners.engine.execute._run_built), which waits for one before it sets aside more.
    hangs_aside: int = HANGS_ASIDE
    # How many shared runs of one batch may be under way at once (each on a lane of
    # runners.engine.execute._run_built): while one has blocked in a hang, waiting out its
    # quiet period without a core, another runs. One where a run's process is large (a
    # JVM) or its runtime seldom blocks for long.
    shared_runs_at_once: int = 1
    # How a perturbed run gets n runtime threads (runners.engine.schedule): the
    # environment that sets them, given the run's render options ({} when this
    # rendering has no pool to size); None: the target has no thread count to vary.
    threads_env: Callable[[int, Mapping[str, object]], Mapping[str, str]] | None = None
    read_crash: CrashReader = no_crash
    read_infra_error: Callable[[str], str | None] = lambda _text: None
    hang_shape: Callable[[str], str] = no_hang_shape
    # What of a hang's dump a bug report shows (a JVM's: the program's threads, each
    # stack once); the whole of it where every thread is the program's.
    dump_excerpt: Callable[[str], str] = whole_dump
    # Runtime bugs of the releases chanfuzz installs by default that generated
    # programs are known to hit (upstream issues, what chanfuzz saw): a finding
    # matching one is that bug again, and conformance runs expect them.
    known_bugs: tuple[str, ...] = ()

    @property
    def runnable(self) -> bool:
        """Whether programs can be built and run (not render-only)."""
        return self.build_plan is not None

    @property
    def dockerfile_path(self) -> Path | None:
        return REPO_ROOT / self.dockerfile if self.dockerfile else None

    def run_options(self, toolchain: Toolchain, settings: RunSettings) -> dict[str, object]:
        """What programs are rendered with to run on ``toolchain`` with ``settings``."""
        oracle = {"values": True} if settings.values and self.value_oracle else {}
        return {
            **self.renderer_options,
            **self.render_options(toolchain, settings),
            **oracle,
            **self.pct_options(settings.pct_depth),
        }

    def pct_options(self, pct_depth: int | None) -> dict[str, object]:
        """The render options of schedule perturbation at `pct_depth` (none for None);
        ValueError for a depth out of range or a target whose programs cannot yield."""
        if pct_depth is None:
            return {}
        if not self.schedule_perturbation:
            raise ValueError(f"{self.title} programs cannot yield: no schedule perturbation")
        return {"pct_depth": render.check_pct_depth(pct_depth)}

    @property
    def schedule_perturbation(self) -> bool:
        """Whether this target's programs can yield at PCT change points (`pct_depth`)."""
        return render.has_schedule_perturbation(self.renderer)

    @property
    def value_oracle(self) -> bool:
        """Whether this target's programs can check the values their messages carry."""
        return render.has_value_oracle(self.renderer)

    @property
    def group_runs(self) -> bool:
        """Whether one run of a batch runs several of its programs in turn (one process
        start for many: what a JVM's or Racket's start-up makes worth it)."""
        return render.runs_in_groups(self.renderer)

    def source_options(self, toolchain: Toolchain | None) -> dict[str, object]:
        """What a program's page, its reproducer and `generate` render it with: as a
        campaign runs it on ``toolchain`` (a release's package layout, the runtime's
        default threads: Kotlin's pool of 8), without the checks a run adds (values,
        yields; callers add those they show). Without the defaults a Kotlin page showed
        the library's default dispatcher, not the program that ran and failed."""
        return {**self.renderer_options, **self.render_options(toolchain, RunSettings())}

    def render(
        self, program: Program, *, seed: int = 0, repetitions: int = 1, **options: object
    ) -> str:
        """A standalone source file of ``program`` for this target (its renderer)."""
        return render.render(program, self.renderer, seed=seed, repetitions=repetitions, **options)

    def render_batch(
        self,
        programs: Sequence[Program],
        *,
        seed: int = 0,
        repetitions: int = 1,
        **options: object,
    ) -> str:
        """One source file with every program and a dispatcher ``main``."""
        return render.render_batch(
            programs, self.renderer, seed=seed, repetitions=repetitions, **options
        )

    def check_options(self, **options: object) -> None:
        """ValueError naming the option unless this target's renderer takes ``options``."""
        render.check_options(self.renderer, **options)

    def unsupported_reason(self, program: Program, **options: object) -> str | None:
        """Why this target's renderer cannot express ``program``; None if it can."""
        return render.unsupported_reason(program, self.renderer, **options)

    def supports(self, program: Program, **options: object) -> bool:
        return self.unsupported_reason(program, **options) is None

"""What the Clojure targets share: core.async releases from Maven Central as toolchains.

The two targets (``clojure-go``: processes as ``go`` blocks, ``clojure-thread``:
as ``thread``s; :mod:`runners.targets.clojure_go`, :mod:`runners.targets.clojure_thread`)
render with :mod:`generator.render.clojure` and test the same library, so one
installed release serves both:

- Releases and pairing (:mod:`runners.targets.clojure_releases`): every version of
  ``org.clojure/core.async`` on Maven Central, each on the Clojure its POM names.
- Install (:mod:`runners.targets.clojure_install`, ``manage.py toolchains install
  clojure-go 1.6.681``): Maven, core.async AOT-compiled into ``aot.jar``, a training
  program of each flavour compiled and run, class-data archives for runs and compiles.
- Listing: installed releases (newest first) and every other release, with why it is
  not installed or cannot run a flavour.
- Builds: ``clojure.main`` AOT-compiles ``src/chanfuzz/main.clj`` into
  ``classes/`` (a compile error is a compile-error verdict, and a run starts
  from bytecode), with the compile's archive, or a compiler kept running does
  (:mod:`runners.engine.resident`, ``ClojureCompiler``); runs start ``java`` with a
  fixed heap and the run's archive.
- Reading runs: JVM exceptions and thread dumps (:mod:`runners.targets.jvm`),
  with the gensym numbers of Clojure's class names taken out.
- Beyond the paper: buffered channels, close and range on every release, except
  that releases before ``FIRST_PUT_STATUS`` return nil from every put, so a put
  on a closed channel cannot be noticed there: their toolchains render with
  ``put_result="nil"``, which refuses programs that close (the renderer says
  why), and ``toolchains list`` notes it on each such release.
"""

from __future__ import annotations

import json
import os
import re
import signal
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from generator.capabilities import Capabilities
from generator.render import THREADS_VARIABLE
from generator.render.clojure import NAMESPACE, SOURCE_PATH
from runners import config
from runners.targets import jvm
from runners.targets.base import (
    BuildPlan,
    Candidate,
    InstallError,
    KnownToolchain,
    Log,
    ResidentCompile,
    RunSettings,
    TargetSpec,
    Toolchain,
    ToolchainStatus,
    ToolchainUnavailable,
    clean_env,
    executable,
    failure_reason,
    installed_candidates,
    known_from_status,
    record_failure,
    stderr_log,
    version_key,
)
from runners.targets.clojure_install import (
    COMPILE_ARCHIVE,
    COMPILE_JVM_FLAGS,
    DIR_NAME,
    LAYOUT,
    PRODUCT,
    PROGRAM_JVM_FLAGS,
    classpath,
    compile_argv,
    install_core_async,
    install_defaults,
)
from runners.targets.clojure_releases import TARGETS, close_note, core_async_releases, put_result
from runners.targets.reading import TOP_FRAMES, normalise_frame, recursion_cycle

SOURCE_FILE = SOURCE_PATH

# The namespace's static initialiser defines every program's vars, and the JVM caps a
# method at 64 KB: 500 go-block programs of heuristic A outgrew it ("Method code too
# large!"), 250 did not.
MAX_BATCH = 150

# A compiler kept running (runners.engine.resident) runs ClojureCompiler
# (toolchains/jvm/), with COMPILE_JVM_FLAGS but the cap on the JIT (build_plan says why).
# Clojure's class cache holds every class it defined through a soft reference, which a
# JVM with a gigabyte of free heap keeps for about a quarter of an hour: a batch's 5,000
# classes stayed loaded (20 MB of class metadata a compile of 70 go-block programs, 12
# compiles in a row). Cleared at every collection, the metadata stays within 4–24 MB.
RESIDENT_TOOL = "ClojureCompiler"
RESIDENT_DROPS = ("-XX:TieredStopAtLevel=1",)
RESIDENT_JVM_FLAGS = ("-XX:SoftRefLRUPolicyMSPerMB=0",)


def _notes(*notes: str) -> str:
    return "; ".join(n for n in notes if n)


@dataclass(frozen=True)
class ClojureFlavour:
    """One Clojure target: its name and the renderer's flavour."""

    target: str
    flavour: str  # "go" or "thread"


# --- toolchains: discovery -----------------------------------------------------------------


def installed_toolchain(flavour: ClojureFlavour, directory: Path) -> Toolchain:
    """The toolchain installed in ``directory``, as ``flavour``'s target sees it."""
    manifest_path = directory / "toolchain.json"
    if not manifest_path.is_file():
        raise ToolchainUnavailable(f"{directory.name} is not installed completely")
    try:
        manifest = json.loads(manifest_path.read_text())
        version = manifest["core_async_version"]
        clojure = manifest["clojure_version"]
        failed = manifest.get("failed_flavours", {})
    except (ValueError, KeyError) as error:
        raise ToolchainUnavailable(f"{manifest_path} is unreadable ({error})") from None
    if manifest.get("layout") != LAYOUT:
        raise ToolchainUnavailable(
            f"{directory.name} has an old layout: manage.py toolchains install "
            f"{flavour.target} {version} --force"
        )
    if flavour.flavour in failed:
        raise ToolchainUnavailable(
            f"core.async {version} cannot run {flavour.target} programs: {failed[flavour.flavour]}"
        )
    java = executable(Path(manifest["java"]), "java (for clojure)")
    archive = directory / "runtime.jsa"
    compile_archive = directory / COMPILE_ARCHIVE
    components = [("clojure", clojure)]
    if manifest.get("java_version"):
        components.append(("java", manifest["java_version"]))
    return Toolchain(
        language=flavour.target,
        version=version,
        id=f"{flavour.target}-{clojure}-{version}",
        origin="installed",
        home=directory,
        executable=java,
        components=tuple(components),
        compiler_classpath=classpath(directory),
        cds_archive=compile_archive if compile_archive.is_file() else None,
        runtime_classpath=classpath(directory),
        runtime_cds_archive=archive if archive.is_file() else None,
        # Only what differs from the renderer's defaults: the other releases keep none.
        render=(("put_result", "nil"),) if put_result(version) == "nil" else (),
    )


def candidates(flavour: ClojureFlavour) -> Callable[[], Iterator[Candidate]]:
    def each() -> Iterator[Candidate]:
        base = config.toolchains_dir()
        found = sorted(
            (m.parent for m in base.glob("clojure-*-core.async-*/toolchain.json")),
            key=lambda d: version_key(DIR_NAME.fullmatch(d.name).group(2)),  # type: ignore[union-attr]
            reverse=True,  # newest first: find_toolchain prefers it
        )
        yield from installed_candidates(
            flavour.target,
            found,
            lambda d: installed_toolchain(flavour, d),
            pattern=base / "clojure-*-core.async-*",
            what="core.async",
        )

    return each


def _substitution(toolchain: Toolchain) -> str:
    """Why an installed release runs on another Clojure than its POM's ("" if it does not)."""
    try:
        manifest = json.loads((toolchain.home / "toolchain.json").read_text())
    except (OSError, ValueError):
        return ""
    return str(manifest.get("substitution") or "")


def known(flavour: ClojureFlavour) -> Callable[[bool, list[ToolchainStatus]], list[KnownToolchain]]:
    """Installed releases and every other release on Maven Central, with why not installed."""

    def listing(offline: bool, statuses: list[ToolchainStatus]) -> list[KnownToolchain]:
        installed = {
            s.toolchain.version: replace(
                known_from_status(s),
                note=_notes(_substitution(s.toolchain), close_note(s.toolchain.version)),
            )
            for s in statuses
            if s.toolchain
        }
        problems = [known_from_status(s) for s in statuses if not s.toolchain and not s.hint]
        # An install whose training failed for this flavour is a release it cannot run.
        unfit = {}
        for status in statuses:
            name = DIR_NAME.fullmatch(Path(status.location).name)
            if status.toolchain is None and name and "cannot run" in status.reason:
                unfit[name.group(2)] = status.reason
        problems = [p for p in problems if "cannot run" not in p.detail]
        try:
            releases = core_async_releases(offline=offline)
        except ToolchainUnavailable as error:
            unlisted = KnownToolchain(flavour.target, "*", "unavailable", error.reason, "maven")
            return [*installed.values(), *problems, unlisted]
        listed = []
        for version in releases:
            if version in installed:
                listed.append(installed.pop(version))
            elif version in unfit:
                listed.append(
                    KnownToolchain(flavour.target, version, "unavailable", unfit[version], "maven")
                )
            elif failed := failure_reason(flavour.target, version):
                listed.append(
                    KnownToolchain(flavour.target, version, "unavailable", failed, "maven")
                )
            else:
                hint = f"run manage.py toolchains install {flavour.target} {version}"
                listed.append(
                    KnownToolchain(
                        flavour.target,
                        version,
                        "not installed",
                        hint,
                        "maven",
                        note=close_note(version),
                    )
                )
        return [*listed, *installed.values(), *problems]

    return listing


def install(flavour: ClojureFlavour) -> Callable[..., Path]:
    def install_release(version: str, *, force: bool = False, log: Log = stderr_log) -> Path:
        try:
            releases = core_async_releases()
        except ToolchainUnavailable as error:
            raise InstallError(error.reason) from None
        if version not in releases:  # a typo, not a broken release: nothing recorded
            raise InstallError(
                f"{version} is not a release of org.clojure/core.async on Maven Central; "
                f"releases: {', '.join(releases)}"
            )
        try:
            return install_core_async(version, force=force, log=log)
        except InstallError as error:
            for target in TARGETS:
                record_failure(target, version, str(error))
            raise
        except (OSError, ToolchainUnavailable, ET.ParseError) as error:
            reason = getattr(error, "reason", str(error))
            for target in TARGETS:
                record_failure(target, version, reason)
            raise InstallError(reason) from None

    return install_release


# --- building and running ------------------------------------------------------------------


def build_plan(toolchain: Toolchain, workdir: Path, flags: Sequence[str]) -> BuildPlan:
    classes = workdir / PRODUCT
    cp = [*toolchain.compiler_classpath, workdir / "src", classes]
    argv = compile_argv(toolchain.executable, cp, str(classes))
    argv[1:1] = [*jvm.cds_flags(toolchain.cds_archive), *flags]
    env = clean_env(("CLOJURE_", "_JAVA_OPTIONS", "JAVA_TOOL_OPTIONS", "JDK_JAVA_OPTIONS"))
    # Kept running (runners.engine.resident), the compiler's JVM is worth its full JIT:
    # the `go` macro's analyser, compiled by C2 after a few batches, expands go blocks
    # faster than C1's code does (70 go-block programs a batch on one core, in memory:
    # 2.8–3.3 s from the fourth batch on against 4.0–4.5 s, the first three 9.5, 6.9 and
    # 5.7 s against 5.0, 4.0 and 4.4), which a cold compile never lives to see.
    resident = ResidentCompile(
        java=toolchain.executable,
        jvm_flags=(
            *jvm.cds_flags(toolchain.cds_archive),
            *(f for f in COMPILE_JVM_FLAGS if f not in RESIDENT_DROPS),
            *RESIDENT_JVM_FLAGS,
            *flags,
        ),
        classpath=toolchain.compiler_classpath,
        tool=RESIDENT_TOOL,
        args=(str(classes), str(workdir / "src"), SOURCE_PATH.removeprefix("src/"), NAMESPACE),
    )
    return BuildPlan(tuple(argv), env, workdir, classes, resident=resident)


def run_command(toolchain: Toolchain, product: Path) -> tuple[str, ...]:
    # The archive holds JDK classes and asm's; Clojure's own (class file version 49, before
    # Clojure 1.12) it cannot hold.
    cds = jvm.cds_flags(toolchain.runtime_cds_archive)
    cp = os.pathsep.join(map(str, [*toolchain.runtime_classpath, product]))
    return (str(toolchain.executable), *PROGRAM_JVM_FLAGS, *cds, "-cp", cp, NAMESPACE)


# --- reading runs ----------------------------------------------------------------------------


_EXCEPTION = re.compile(
    r"^(?:Exception in thread \"[^\"]*\" )?((?:[a-zA-Z_$][\w$]*\.)+[A-Z][\w$]*(?:Error|Exception))"
    r"(?::[^\n]*)?$",
    re.M,
)
_FRAME = re.compile(r"^\s+at (?:[\w.]+/)?([\w$.<>/-]+)\(", re.M)


def frame(name: str) -> str:
    """A frame without what differs between programs and compiles: program numbers and
    Clojure's gensyms (``fn__8537``, ``state_machine__5630__auto____8538``)."""
    name = normalise_frame(name)
    return re.sub(r"__\d+", "__N", name)


def read_crash(text: str) -> tuple[str, str] | None:
    """An exception nothing caught: (its line, its class and top frames)."""
    m = _EXCEPTION.search(text)
    if not m:
        return None
    exception = m.group(1)
    frames = [frame(f) for f in _FRAME.findall(text[m.end() :])]
    line = re.sub(r'^Exception in thread "[^"]*" ', "", text[m.start() : m.end()].strip())
    cycle = recursion_cycle(frames) if exception.endswith("StackOverflowError") else None
    if cycle:
        return line[:300], f"{exception} | recursion through {' · '.join(cycle)}"
    return line[:300], f"{exception} | {' < '.join(frames[:TOP_FRAMES])}"


def hang_shape(dump: str) -> str:
    """What the JVM's threads are parked in (jvm.hang_shape), from the SIGQUIT dump."""
    return jvm.hang_shape(dump)


def threads_env(threads: int, options: Mapping[str, object]) -> dict[str, str]:
    """A perturbed go-flavour program sets core.async's pool size from THREADS_VARIABLE
    (the renderer writes that only under pct_depth, for flavour go)."""
    if options.get("flavour", "go") != "go":
        return {}
    return {THREADS_VARIABLE: str(threads)}


def _render_options(toolchain: Toolchain | None, _settings: RunSettings) -> dict[str, object]:
    """The release's own (put_result of the oldest releases); nothing of a run's settings."""
    return dict(toolchain.render_options()) if toolchain is not None else {}


BUNDLE_SCRIPT = """# CLOJURE_CP: the classpath of the core.async release under test and its Clojure
# (e.g. `clojure -Spath -Sdeps '{:deps {org.clojure/core.async {:mvn/version "1.8.741"}}}'`).
: "${CLOJURE_CP:?set CLOJURE_CP to the classpath of Clojure and core.async}"
JAVA=${JAVA:-java}
mkdir -p src/chanfuzz classes && mv main.clj src/chanfuzz/main.clj
"$JAVA" -cp "$CLOJURE_CP:src:classes" clojure.main \\
  -e '(binding [*compile-path* "classes"] (compile (quote chanfuzz.main)))' || exit 3
# On timeout the JVM gets SIGQUIT first: it prints every thread's stack.
timeout -s QUIT -k 5 "$TIMEOUT" "$JAVA" -cp "$CLOJURE_CP:classes" chanfuzz.main
"""

# The Clojure targets, in the order their flavours are trained (go, thread).


def target_spec(
    flavour: ClojureFlavour,
    *,
    title: str,
    extension: str,
    position: int,
    concurrency: str,
    dockerfile: str,
) -> TargetSpec:
    """The TargetSpec of a Clojure target: everything but its flavour and names. One
    install serves both targets, so only clojure-go declares the defaults to install."""
    return TargetSpec(
        name=flavour.target,
        title=title,
        extension=extension,
        lexer="clojure",
        position=position,
        renderer="clojure",
        # Buffered channels, close and range: the renderer writes them (BEYOND_PAPER);
        # releases before FIRST_PUT_STATUS refuse programs that close.
        capabilities=Capabilities(select=True, select_send=True, buffered=True, close=True),
        concurrency=concurrency,
        candidates=candidates(flavour),
        known=known(flavour),
        install=install(flavour),
        install_defaults=install_defaults if flavour.flavour == "go" else None,
        source_file=SOURCE_FILE,
        build_plan=build_plan,
        product=PRODUCT,
        max_batch=MAX_BATCH,
        run_command=run_command,
        renderer_options={"flavour": flavour.flavour},
        render_options=_render_options,
        dump_signal=signal.SIGQUIT,
        threads_env=threads_env if flavour.flavour == "go" else None,
        read_crash=read_crash,
        read_infra_error=jvm.infra_error,
        hang_shape=hang_shape,
        dump_excerpt=jvm.dump_excerpt,
        dockerfile=dockerfile,
        bundle_script=BUNDLE_SCRIPT,
    )

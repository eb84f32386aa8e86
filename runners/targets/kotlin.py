"""The Kotlin target: kotlinx.coroutines' `Channel`, `launch` and `select`, on every release
from 0.19, each with the Kotlin compiler it was built with (from Maven Central).

Toolchains: every ``$CHANFUZZ_TOOLCHAINS_DIR/kotlin-<kotlin>-coroutines-<version>/``
that an install completed (it writes ``toolchain.json`` last), plus, to report
them as missing, the ones ``toolchains/kotlin/versions.txt`` asks for. The
*version* of a Kotlin toolchain is its kotlinx-coroutines version, the runtime
under test; the compiler is a component. Installing is
:mod:`runners.targets.kotlin_install`.

Builds: ``Main.kt`` (so the class is ``MainKt``), compiled by the compiler's
``K2JVMCompiler`` on the toolchain's JVM against kotlin-stdlib and
kotlinx-coroutines; the product is a classes directory run with ``java -cp``.
Compiles and runs use the toolchain's class-data-sharing archives when the
install made them (start-up is most of the time of both). Programs run on a
fixed pool of ``threads`` (default 8) so coroutines are preempted mid-select.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path

from generator.capabilities import Capabilities
from generator.render import THREADS_VARIABLE
from runners import config
from runners.targets import jvm, kotlin_install
from runners.targets.base import (
    INSTALL_HINT,
    BuildPlan,
    Candidate,
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
    known_from_status,
    stderr_log,
)
from runners.targets.kotlin_install import install_kotlin
from runners.targets.kotlin_releases import (
    DEFAULT_JVM_TARGET,
    KOTLINC_JVM_FLAGS,
    KOTLINC_MAIN,
    KotlinRelease,
    _paired_compiler,
    kotlin_pairing,
    kotlin_releases,
    kotlin_render_options,
    kotlin_specs,
)


def _jars(directory: Path) -> tuple[Path, ...]:
    # Byte order, as the install script's `LC_ALL=C sort`: the compiler's
    # class-data archive only maps when the classpath is exactly the dumped one.
    return tuple(sorted(directory.glob("*.jar"), key=lambda p: os.fsencode(p.name)))


def _kotlin_toolchain(directory: Path) -> Toolchain:
    manifest_path = directory / "toolchain.json"
    if not manifest_path.is_file():
        state = "incomplete" if directory.exists() else "not installed"
        match = re.fullmatch(r"kotlin-(.+)-coroutines-(.+)", directory.name)
        hint = INSTALL_HINT
        if match:
            hint = f"run manage.py toolchains install kotlin {match.group(2)}"
            if _paired_compiler(match.group(2)) != match.group(1):
                hint += f" --kotlin {match.group(1)}"
            if directory.name in {spec.dir_name for spec in kotlin_specs()}:
                hint += f" (a default: or {INSTALL_HINT})"
        failed = failure_reason("kotlin", match.group(2)) if match else ""
        if failed:
            raise ToolchainUnavailable(f"kotlin toolchain {directory.name} unavailable: {failed}")
        raise ToolchainUnavailable(f"kotlin toolchain {directory.name} {state}: {hint}")
    try:
        manifest = json.loads(manifest_path.read_text())
        kotlin_version = manifest["kotlin_version"]
        coroutines_version = manifest["coroutines_version"]
    except (ValueError, KeyError) as error:
        raise ToolchainUnavailable(
            f"{manifest_path} is unreadable ({error}): {INSTALL_HINT}"
        ) from None
    compiler_cp = _jars(directory / "compiler")
    runtime_cp = _jars(directory / "lib")
    if not any(p.name.startswith("kotlin-compiler") for p in compiler_cp):
        raise ToolchainUnavailable(f"{directory}/compiler has no Kotlin compiler: {INSTALL_HINT}")
    if not any(p.name.startswith("kotlinx-coroutines-core") for p in runtime_cp):
        raise ToolchainUnavailable(f"{directory}/lib has no kotlinx-coroutines jar: {INSTALL_HINT}")
    java = Path(manifest.get("java") or shutil.which("java") or "/usr/bin/java")
    executable(java, "java (for kotlin)")
    archive = _optional_file(directory, manifest.get("cds_archive"))
    run_archive = _optional_file(directory, manifest.get("runtime_cds_archive"))
    run_jar = _optional_file(directory, manifest.get("runtime_cds_jar"))
    if run_archive is None or run_jar is None:
        run_archive, run_jar = None, None
    run_executable, aot_cache = _run_java(directory, manifest, run_jar)
    components = [("kotlin", kotlin_version)]
    built_with = manifest.get("kotlin_built_with")
    if built_with and built_with != kotlin_version:
        components.append(("kotlin-built-with", built_with))
    if manifest.get("java_version"):
        components.append(("java", manifest["java_version"]))
    components.append(("jvm-target", str(manifest.get("jvm_target") or DEFAULT_JVM_TARGET)))
    if run_executable is not None:
        components.append(("run-java", str(manifest.get("run_java_version") or "")))
    render = kotlin_render_options(coroutines_version)
    for key in ("package_layout", "duplicate_clauses", "closed_receive"):
        if manifest.get(key):
            render[key] = manifest[key]
    return Toolchain(
        language="kotlin",
        version=coroutines_version,
        id=directory.name,
        origin="installed",
        home=directory,
        executable=java,
        components=tuple(components),
        compiler_classpath=compiler_cp,
        runtime_classpath=runtime_cp,
        cds_archive=archive,
        runtime_cds_archive=run_archive,
        runtime_cds_classpath=(run_jar,) if run_jar is not None else (),
        run_executable=run_executable,
        runtime_aot_cache=aot_cache,
        render=tuple(sorted(render.items())),
        compiler_args=tuple(manifest.get("compiler_args") or ()),
    )


def _run_java(
    directory: Path, manifest: Mapping[str, str], training_jar: Path | None
) -> tuple[Path | None, Path | None]:
    """The Java 25 a program runs on and its AOT cache, when the install made one and
    ``$CHANFUZZ_JAVA25_RUNS`` does not say no; (None, None) otherwise: the run is on the
    compiler's Java. The cache was dumped after the training jar, so it needs that too."""
    cache = _optional_file(directory, manifest.get("runtime_aot_cache"))
    java = Path(manifest.get("run_java") or "")
    if cache is None or training_jar is None or not java.is_file() or not config.java25_runs():
        return None, None
    return java, cache


def _optional_file(directory: Path, name: str | None) -> Path | None:
    """``directory/name`` if the manifest names it and it exists (archives are optional)."""
    if not name:
        return None
    path = directory / name
    return path if path.is_file() else None


def _kotlin_candidates() -> Iterator[Candidate]:
    base = config.toolchains_dir()
    names = [spec.dir_name for spec in kotlin_specs()]
    # Toolchains installed beyond versions.txt (older runs, other versions) count too.
    for manifest in sorted(base.glob("kotlin-*-coroutines-*/toolchain.json")):
        if manifest.parent.name not in names:
            names.append(manifest.parent.name)
    for name in names:
        directory = base / name
        yield Candidate("kotlin", "installed", directory, lambda d=directory: _kotlin_toolchain(d))


def _known_kotlin(_offline: bool, statuses: list[ToolchainStatus]) -> list[KnownToolchain]:
    installed: dict[str, list[Toolchain]] = {}
    problems: list[KnownToolchain] = []
    for status in statuses:
        if status.toolchain is not None:
            installed.setdefault(status.toolchain.version, []).append(status.toolchain)
        elif any(word in status.reason for word in ("incomplete", "unreadable", "has no")):
            problems.append(known_from_status(status))
    known = []
    releases = kotlin_releases()
    for release in releases:
        pairing = kotlin_pairing(release)
        for toolchain in installed.pop(release.version, []):
            known.append(
                KnownToolchain(
                    "kotlin",
                    release.version,
                    "installed",
                    toolchain.describe(),
                    "installed",
                    toolchain,
                    note=_kotlin_note(toolchain.component("kotlin") or "", release),
                )
            )
        if any(k.version == release.version for k in known):
            continue
        failed = failure_reason("kotlin", release.version)
        if failed:
            known.append(KnownToolchain("kotlin", release.version, "unavailable", failed, "maven"))
            continue
        known.append(
            KnownToolchain(
                "kotlin",
                release.version,
                "not installed",
                f"run manage.py toolchains install kotlin {release.version}",
                "maven",
                note=pairing.substitution or f"Kotlin {pairing.compiler}",
            )
        )
    for version, toolchains in installed.items():  # beyond the release table
        for toolchain in toolchains:
            known.append(
                KnownToolchain(
                    "kotlin", version, "installed", toolchain.describe(), "installed", toolchain
                )
            )
    return known + problems


def _kotlin_note(compiler: str, release: KotlinRelease) -> str:
    if compiler == release.built_with:
        return f"Kotlin {compiler}"
    paired = kotlin_pairing(release)
    if compiler == paired.compiler and paired.substitution:
        return paired.substitution
    return f"Kotlin {compiler} instead of {release.built_with}"


KOTLIN_MAIN_CLASS = "MainKt"  # what kotlinc names the class of top-level functions in Main.kt


def _kotlin_plan(toolchain: Toolchain, workdir: Path, flags: Sequence[str]) -> BuildPlan:
    classes = workdir / "classes"
    jvm_flags = [*KOTLINC_JVM_FLAGS, *jvm.cds_flags(toolchain.cds_archive)]
    args = (
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
        str(workdir / SOURCE_FILE),
    )
    argv = (
        str(toolchain.executable),
        *jvm_flags,
        "-cp",
        os.pathsep.join(map(str, toolchain.compiler_classpath)),
        KOTLINC_MAIN,
        *args,
    )
    env = clean_env(("KOTLIN_", "_JAVA_OPTIONS", "JAVA_TOOL_OPTIONS"))
    # Kept running, the compiler keeps its application environment between compiles
    # (the property the Kotlin compiler reads for that) instead of tearing it down.
    resident = ResidentCompile(
        java=toolchain.executable,
        jvm_flags=(*jvm_flags, "-Dkotlin.environment.keepalive=true"),
        classpath=toolchain.compiler_classpath,
        tool=KOTLINC_MAIN,
        args=args,
    )
    return BuildPlan(argv, env, workdir, classes, resident=resident)


# JVM flags for running programs. Sized from the host's RAM the JVM would let its
# heap grow far past the sandbox's data limit and then die with "insufficient
# memory": a false crash. A fixed 256 MiB heap keeps it well inside. (Another
# collector than the default would stop the runtime class-data archive, dumped
# with the default, from mapping fully: slower starts.)
_PROGRAM_JVM_FLAGS = ("-Xmx256m",)


def _command(toolchain: Toolchain, product: Path) -> tuple[str, ...]:
    library = [*toolchain.runtime_classpath, *toolchain.runtime_cds_classpath]
    if toolchain.run_executable is not None and toolchain.runtime_aot_cache is not None:
        # Java 25 with the AOT cache: the runtime's classes come loaded and linked, not only
        # parsed, and a run starts ~20 ms sooner than on Java 17 with runtime.jsa. The race
        # of kotlinx.coroutines#504 came no rarer a run on the same programs (README).
        # The program's classes go first: the class loader looks for MainKt in the
        # classpath's order, and each jar it looks in is opened and its directory read,
        # which in a fresh JVM cost about a fifth of a run's CPU (README, issue #18). The
        # cache maps with a directory before its jars (tests/runners/engine/test_build.py
        # checks that the library's classes still come from it).
        return (
            str(toolchain.run_executable),
            *_PROGRAM_JVM_FLAGS,
            *jvm.aot_cache_flags(toolchain.runtime_aot_cache),
            "-cp",
            _joined([product, *library]),
            KOTLIN_MAIN_CLASS,
        )
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
    return (
        str(toolchain.executable),
        *_PROGRAM_JVM_FLAGS,
        *jvm.cds_flags(toolchain.runtime_cds_archive),
        "-cp",
        _joined([*library, product]),
        KOTLIN_MAIN_CLASS,
    )


def _joined(paths: Sequence[Path]) -> str:
    return os.pathsep.join(map(str, paths))


# Kotlin programs run on a pool of this many threads unless told otherwise: more
# threads than this machine's 2 cores, so coroutines are preempted mid-select.
# With the library's default dispatcher (1–2 threads here) kotlinx.coroutines
# 0.22.5 never showed its select stack overflow; with 8 threads it did at once.
DEFAULT_KOTLIN_THREADS = 8


SOURCE_FILE = "Main.kt"


def _render_options(toolchain: Toolchain | None, settings: RunSettings) -> dict[str, object]:
    """The release's package layout and duplicate clauses (the renderer's own without a
    toolchain), and the dispatcher's pool: ``threads`` (default DEFAULT_KOTLIN_THREADS;
    0: the library's own dispatcher)."""
    options: dict[str, object] = (
        dict(toolchain.render_options() or kotlin_render_options(toolchain.version))
        if toolchain is not None
        else {}
    )
    options["threads"] = DEFAULT_KOTLIN_THREADS if settings.threads is None else settings.threads
    return options


def _threads_env(threads: int, options: Mapping[str, object]) -> dict[str, str]:
    """A perturbed program's own pool reads its size from THREADS_VARIABLE; one on the
    library's default dispatcher (threads 0) has no pool to size."""
    if not options.get("threads"):
        return {}
    return {THREADS_VARIABLE: str(threads)}


def _binds(toolchain: Toolchain) -> tuple[Path, ...]:
    """The runtime jars, the run's class-data archive or AOT cache, and the Java 25 a run
    may use live outside the artifact."""
    paths = [Path(p).parent for p in toolchain.runtime_classpath]
    if toolchain.runtime_cds_archive:
        paths.append(Path(toolchain.runtime_cds_archive).parent)
    if toolchain.run_executable and toolchain.runtime_aot_cache:
        paths += [toolchain.run_executable.parent.parent, toolchain.runtime_aot_cache.parent]
    return tuple(paths)


def _install(
    version: str,
    *,
    force: bool = False,
    log: Log = stderr_log,
    compiler: str | None = None,
) -> Path:
    return install_kotlin(version, compiler, force=force, log=log)


# The reproducer bundle's run script (chanfuzz_site/bundles.py wraps it).
BUNDLE_SCRIPT = """# KOTLINC/KOTLIN: the compiler and runner of the Kotlin release under test;
# COROUTINES_JAR: kotlinx-coroutines-core(-jvm) of the version under test.
KOTLINC=${KOTLINC:-kotlinc}
KOTLIN=${KOTLIN:-kotlin}
: "${COROUTINES_JAR:?set COROUTINES_JAR to the kotlinx-coroutines-core jar under test}"
"$KOTLINC" Main.kt -cp "$COROUTINES_JAR" -d classes || exit 3
# On timeout the JVM gets SIGQUIT first: it prints every thread's stack.
timeout -s QUIT -k 5 "$TIMEOUT" "$KOTLIN" -cp "classes:$COROUTINES_JAR" MainKt
"""

# Where a reproducer fetches a release's jar: the public Maven Central, whatever mirror
# this installation installs from (CHANFUZZ_MAVEN_CENTRAL).
PUBLIC_MAVEN_CENTRAL = "https://repo1.maven.org/maven2"


def reproducer_fetch(toolchain: Toolchain) -> list[str]:
    """COROUTINES_JAR, unless the user set it: the very jar this release installed, from
    Maven Central (kotlinx-coroutines-core, or -core-jvm from 1.3 on); and the compiler it
    was seen with, named (kotlinc comes from GitHub, which a script cannot pin here)."""
    jar = next(
        (p for p in toolchain.runtime_classpath if p.name.startswith("kotlinx-coroutines-core")),
        None,
    )
    compiler = toolchain.component("kotlin")
    lines = [f"# Seen with Kotlin {compiler}: set KOTLINC and KOTLIN to its kotlinc and kotlin."]
    if jar is None:
        return lines
    artifact = jar.name.removesuffix(f"-{toolchain.version}.jar")
    url = f"{PUBLIC_MAVEN_CENTRAL}/org/jetbrains/kotlinx/{artifact}/{toolchain.version}/{jar.name}"
    return [
        *lines,
        'if [ -z "${COROUTINES_JAR:-}" ]; then',
        f'  COROUTINES_JAR="$work/{jar.name}"',
        f'  curl -fsSL -o "$COROUTINES_JAR" "{url}" ||',
        f'    {{ echo "cannot fetch {url}: set COROUTINES_JAR" >&2; exit 3; }}',
        "fi",
    ]


TARGET = TargetSpec(
    name="kotlin",
    title="Kotlin",
    release_of="kotlinx.coroutines",
    extension="kt",
    lexer="kotlin",
    position=20,
    renderer="kotlin",
    # Buffered channels, close and range on every release (the renderer's BEYOND_PAPER;
    # kotlin_render_options picks the receive that tolerates a closed channel).
    capabilities=Capabilities(
        select=True, select_send=True, buffered=True, close=True, unbounded=True
    ),
    concurrency="coroutines",
    candidates=_kotlin_candidates,
    known=_known_kotlin,
    install=_install,
    install_defaults=kotlin_install.install_defaults,
    compiler_choice="the Kotlin compiler version (default: the one the release was built with)",
    source_file=SOURCE_FILE,
    build_plan=_kotlin_plan,
    product="classes",
    run_command=_command,
    render_options=_render_options,
    binds=_binds,
    dump_signal=signal.SIGQUIT,
    threads_env=_threads_env,
    read_crash=jvm.read_crash,
    read_infra_error=jvm.infra_error,
    hang_shape=jvm.hang_shape,
    dump_excerpt=jvm.dump_excerpt,
    dockerfile="docker/kotlin.Dockerfile",
    bundle_script=BUNDLE_SCRIPT,
    reproducer_fetch=reproducer_fetch,
)

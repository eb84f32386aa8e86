"""What the Clojure targets share: core.async releases from Maven Central as toolchains.

The two targets (``clojure-go``: processes as ``go`` blocks, ``clojure-thread``:
as ``thread``s; :mod:`runners.targets.clojure_go`, :mod:`runners.targets.clojure_thread`)
render with :mod:`generator.render.clojure` and test the same library, so one
installed release serves both:

- Releases: every version of ``org.clojure/core.async`` in Maven Central's
  ``maven-metadata.xml`` (asked at most once a day, cached beside the toolchains).
- Pairing: a release runs on the Clojure its POM names (the ``clojure.version``
  property, its own or its parent's, ``pom.contrib``); the oldest releases'
  POMs name none (their parent is Sonatype's generic ``oss-parent``) and get
  ``NO_POM_CLOJURE``, recorded as a substitution. A Clojure older than
  ``OLDEST_CLOJURE`` would be replaced by it, recorded too.
- Install (``manage.py toolchains install clojure-go 1.6.681``): Maven resolves
  Clojure and the release (``toolchains/clojure/pom.xml``) into
  ``$CHANFUZZ_TOOLCHAINS_DIR/clojure-<clojure>-core.async-<version>/lib``; then
  core.async and everything the ``go`` macro loads is AOT-compiled once into
  ``aot.jar`` (a program's compile would otherwise compile all of core.async
  again: 15 s instead of 3), a training program of each flavour is compiled
  and run (a smoke test: a release whose API lacks something the renderer
  writes fails here, with the compiler's words, and ``toolchains list`` shows
  it as unavailable for that flavour), and the training run dumps a
  class-data-sharing archive for program runs; a compile of a training program
  as a batch is compiled dumps another for compiles. ``toolchain.json`` is
  written last.
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
import shutil
import signal
import tempfile
import time
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from generator import lambda_chan as lc
from generator.capabilities import Capabilities
from generator.lambda_chan import Program
from generator.render import THREADS_VARIABLE, render_batch
from generator.render.clojure import NAMESPACE, NIL_PUTS, SOURCE_PATH
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
    clear_failure,
    executable,
    failure_reason,
    installed_candidates,
    known_from_status,
    record_failure,
    run_tool,
    stderr_log,
    tail,
    version_key,
)
from runners.targets.reading import TOP_FRAMES, normalise_frame, recursion_cycle

GROUP_PATH = "org/clojure"
ARTIFACT = "core.async"
METADATA_MAX_AGE_S = 24 * 3600
POM_DIR = config.REPO_ROOT / "toolchains" / "clojure"
# Bump when the layout of a toolchain directory changes: older ones install again.
LAYOUT = 2
MVN_TIMEOUT_S = 1800
# The Clojure of releases whose POM names none (0.1.x alphas and 0.2.x inherit
# Sonatype's oss-parent): the first that pom.contrib-era releases (0.3) name.
NO_POM_CLOJURE = "1.7.0"
# The oldest Clojure a release is installed with: the training programs of both flavours
# compile and run on 1.7.0 with JDK 17 (core.async 0.1.215 … 0.2.371 were installed so);
# older Clojure releases were not tried. No release's POM names an older one.
OLDEST_CLOJURE = "1.7.0"
# What the defaults are (install_defaults): the newest release, and the oldest, which
# installs (with Clojure 1.7.0) and runs the training programs of both flavours here.
DEFAULT_VERSIONS = ("1.9.865", "0.1.215.5-8022b8-alpha")
SOURCE_FILE = SOURCE_PATH
PRODUCT = "classes"
COMPILE_ARCHIVE = "compile.jsa"
# A fixed heap: sized from the host's RAM the JVM would grow past the sandbox's data
# limit and die with "insufficient memory", a false crash (as for Kotlin).
PROGRAM_JVM_FLAGS = ("-Xmx256m",)
# clojure.spec.skip-macros: the compiler checks every macro call against clojure.core.specs,
# and the `go` macro's state machines are nests of `let` and `case`; that check was a sixth
# of a batch's compile (100 go-block programs on one core, 19.0 s → 15.6 s). Generated code
# is well-formed, and a malformed form still fails the compile, only with the compiler's
# own message. A Clojure that does not know the property (1.7 and 1.8 have no spec) ignores it.
COMPILE_JVM_FLAGS = (
    "-Xmx1g",
    "-XX:TieredStopAtLevel=1",
    "-Xshare:auto",
    "-Dclojure.spec.skip-macros=true",
)

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

# The first release whose puts return true, or false on a closed channel (core.async
# commit cf8dc1b, "put returns status"); the ones before return nil (module docstring).
FIRST_PUT_STATUS = "0.1.278.0-76b25b-alpha"


def put_result(version: str) -> str:
    """What a completed put returns in core.async ``version`` (the renderer's put_result)."""
    return "nil" if version_key(version) < version_key(FIRST_PUT_STATUS) else "boolean"


def close_note(version: str) -> str:
    """What ``toolchains list`` says of a release that cannot run programs that close."""
    return f"no close: {NIL_PUTS}" if put_result(version) == "nil" else ""


def _notes(*notes: str) -> str:
    return "; ".join(n for n in notes if n)


@dataclass(frozen=True)
class ClojureFlavour:
    """One Clojure target: its name and the renderer's flavour."""

    target: str
    flavour: str  # "go" or "thread"


# --- Maven Central: releases and pairing ---------------------------------------------------


def parse_metadata(text: str) -> list[str]:
    """Every version a maven-metadata.xml lists, oldest first (Maven's order is kept:
    it is publication order, and alphas sort badly by number alone)."""
    root = ET.fromstring(text)
    return [v.text.strip() for v in root.iterfind("versioning/versions/version") if v.text]


def _cache_path() -> Path:
    return config.toolchains_dir() / ".cache" / "maven-core.async.json"


def core_async_releases(*, refresh: bool = False, offline: bool = False) -> list[str]:
    """Every core.async version on Maven Central (asked at most daily, cached)."""
    cache = _cache_path()
    if not refresh and cache.is_file():
        fresh = os.path.getmtime(cache) > time.time() - METADATA_MAX_AGE_S
        if offline or fresh:
            return list(json.loads(cache.read_text())["versions"])
    if offline:
        raise ToolchainUnavailable("offline, and no list of core.async's releases is cached")
    url = f"{config.maven_central()}/{GROUP_PATH}/{ARTIFACT}/maven-metadata.xml"
    try:
        versions = parse_metadata(jvm.maven_fetch(url).decode())
    except (OSError, ET.ParseError) as error:  # URLError and TimeoutError are OSErrors
        raise ToolchainUnavailable(f"Maven Central did not list core.async: {error}") from None
    cache.parent.mkdir(parents=True, exist_ok=True)
    cache.write_text(json.dumps({"versions": versions}) + "\n")
    return versions


_POM_NS = {"m": "http://maven.apache.org/POM/4.0.0"}


def pom_clojure_version(pom: str, parent_pom: Callable[[str, str, str], str]) -> str | None:
    """The ``clojure.version`` a release's POM sets, following its parents
    (``parent_pom(group, artifact, version)`` gives a parent's text); None when none does."""
    root = ET.fromstring(pom)
    prop = root.findtext("m:properties/m:clojure.version", "", _POM_NS).strip()
    if prop and "$" not in prop:
        return prop
    parent = root.find("m:parent", _POM_NS)
    if parent is None:
        return None
    group = parent.findtext("m:groupId", "", _POM_NS)
    if group != "org.clojure":  # Sonatype's oss-parent names no Clojure
        return None
    artifact = parent.findtext("m:artifactId", "", _POM_NS)
    version = parent.findtext("m:version", "", _POM_NS)
    return pom_clojure_version(parent_pom(group, artifact, version), parent_pom)


def _central_pom(group: str, artifact: str, version: str) -> str:
    path = group.replace(".", "/")
    url = f"{config.maven_central()}/{path}/{artifact}/{version}/{artifact}-{version}.pom"
    return jvm.maven_fetch(url).decode()


@dataclass(frozen=True)
class ClojurePairing:
    """The Clojure a core.async release is installed with, and why if not its POM's."""

    clojure: str
    pom_clojure: str | None  # what the release's POM names (None: nothing)
    substitution: str = ""


def clojure_pairing(version: str, pom_clojure: str | None) -> ClojurePairing:
    """Pair a release with its POM's Clojure, or the nearest that runs here."""
    if pom_clojure is None:
        return ClojurePairing(
            NO_POM_CLOJURE,
            None,
            f"Clojure {NO_POM_CLOJURE}: the POM of core.async {version} names no Clojure",
        )
    if version_key(pom_clojure) < version_key(OLDEST_CLOJURE):
        return ClojurePairing(
            OLDEST_CLOJURE,
            pom_clojure,
            f"Clojure {OLDEST_CLOJURE} instead of {pom_clojure}, which does not run here",
        )
    return ClojurePairing(pom_clojure, pom_clojure)


# --- toolchains: discovery -----------------------------------------------------------------


def _dir_name(clojure: str, version: str) -> str:
    return f"clojure-{clojure}-core.async-{version}"


_DIR = re.compile(r"clojure-(.+)-core\.async-(.+)")


def _jars(directory: Path) -> tuple[Path, ...]:
    # Byte order: the class-data archive maps only for exactly the dumped classpath.
    return tuple(sorted(directory.glob("*.jar"), key=lambda p: os.fsencode(p.name)))


def classpath(home: Path) -> tuple[Path, ...]:
    """A program's classpath in a toolchain (the program's classes go after it): the AOT
    classes first, so Clojure loads them instead of compiling core.async's sources."""
    return (home / "aot.jar", *_jars(home / "lib"), home / "training.jar")


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
            key=lambda d: version_key(_DIR.fullmatch(d.name).group(2)),  # type: ignore[union-attr]
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
            name = _DIR.fullmatch(Path(status.location).name)
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


# --- toolchains: install -------------------------------------------------------------------


# What the training programs run: a spawn, a send, a select with a put and a take
# case, an if, a receive bound to a name; rendered with the value oracle and yields,
# so every construct a generated program may use is compiled and run once.
def _training_program() -> Program:
    return lc.Program(
        ("a", "b"),
        lc.Then(
            lc.SpawnE(lc.Then(lc.Send("a"), lc.Let("x", lc.Recv("b"), lc.Unit()))),
            lc.SelectE(
                (
                    lc.Case("get", "a", "y", lc.Send("b")),
                    lc.Case("put", "b", None, lc.Recv("a")),
                )
            ),
        ),
    )


# The training programs' namespace: never the programs' own, which must be found in their
# classes directory, after the training jar on a run's classpath.
TRAINING_NAMESPACE = "chanfuzz.training"


def _training_batch(flavour: str) -> str:
    """The training program of ``flavour`` as a batch is rendered: a dispatcher file (run as
    program 0) of the programs' namespace."""
    return render_batch(
        [_training_program()],
        "clojure",
        seed=0,
        repetitions=200,
        flavour=flavour,
        values=True,
        pct_depth=3,
    )


def training_source(flavour: str) -> str:
    """The training program of ``flavour`` in the namespace TRAINING_NAMESPACE
    (src/chanfuzz/training.clj)."""
    return _training_batch(flavour).replace(NAMESPACE, TRAINING_NAMESPACE)


def _mvn(properties: dict[str, str], output: Path) -> None:
    mvn = shutil.which("mvn")
    if mvn is None:
        raise InstallError("Maven (mvn) is not installed: apt-get install maven")
    argv = [mvn, "-B", "-ntp", "-q", "-Dstyle.color=never", "-f", str(POM_DIR / "pom.xml")]
    argv += [f"-D{k}={v}" for k, v in properties.items()]
    argv += [
        "dependency:copy-dependencies",
        "-DincludeScope=runtime",
        f"-DoutputDirectory={output}",
    ]
    done = run_tool(argv, timeout=MVN_TIMEOUT_S)
    if done.returncode != 0:
        what = ", ".join(f"{k}={v}" for k, v in properties.items())
        raise InstallError(f"Maven could not resolve {what}: {tail(done.stdout + done.stderr)}")


def _java_version(java: Path) -> str:
    done = run_tool([str(java), "-XshowSettings:properties", "-version"], timeout=60)
    match = re.search(r"^\s*java\.version = (\S+)", done.stderr, re.M)
    return match.group(1) if match else ""


def _compile_argv(
    java: Path, cp: Sequence[Path | str], out: str, namespace: str = NAMESPACE
) -> list[str]:
    # The engine removes a stale product before the compile: the compile makes it again.
    script = (
        f'(do (.mkdirs (java.io.File. "{out}"))'
        f' (binding [*compile-path* "{out}"] (compile (quote {namespace}))) nil)'
    )
    return [
        str(java),
        *COMPILE_JVM_FLAGS,
        "-cp",
        os.pathsep.join(map(str, cp)),
        "clojure.main",
        "-e",
        script,
    ]


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


def install_core_async(version: str, *, force: bool = False, log: Log = stderr_log) -> Path:
    """Install core.async ``version`` with its paired Clojure (both Clojure targets use it)."""
    pairing = clojure_pairing(version, pom_clojure_version(_central_pom("org.clojure",
                              ARTIFACT, version), _central_pom))  # fmt: skip
    base = config.toolchains_dir()
    dest = base / _dir_name(pairing.clojure, version)
    manifest_path = dest / "toolchain.json"
    if not force and manifest_path.is_file():
        try:
            if json.loads(manifest_path.read_text()).get("layout") == LAYOUT:
                log(f"{dest.name} already installed")
                for target in TARGETS:
                    clear_failure(target, version)
                return dest
        except ValueError:
            pass
    java = jvm.find_java()
    started = time.monotonic()
    log(f"installing {dest.name} (core.async {version}, Clojure {pairing.clojure}) with Maven")
    base.mkdir(parents=True, exist_ok=True)
    shutil.rmtree(dest, ignore_errors=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{dest.name}.", dir=base))
    try:
        _mvn({"clojure.version": pairing.clojure, "core.async.version": version}, tmp / "lib")
        tmp.chmod(0o755)
        # The archive records the jars' absolute paths: move into place first.
        tmp.rename(dest)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    try:
        failed = _train(dest, java, log)
        manifest = {
            "layout": LAYOUT,
            "core_async_version": version,
            "clojure_version": pairing.clojure,
            "pom_clojure_version": pairing.pom_clojure,
            "substitution": pairing.substitution,
            "java": str(java),
            "java_version": _java_version(java),
            "failed_flavours": failed,
            "installed_at": time.time(),
        }
        tmp_manifest = dest / "toolchain.json.tmp"
        tmp_manifest.write_text(json.dumps(manifest, indent=2) + "\n")
        tmp_manifest.rename(manifest_path)
    except BaseException:
        shutil.rmtree(dest, ignore_errors=True)
        raise
    for target, flavour in zip(TARGETS, ("go", "thread"), strict=True):
        if flavour in failed:
            record_failure(target, version, failed[flavour])
        else:
            clear_failure(target, version)
    log(f"installed {dest.name} in {time.monotonic() - started:.0f} s")
    return dest


def _train(dest: Path, java: Path, log: Log) -> dict[str, str]:
    """AOT-compile core.async, compile and run a training program of each flavour, dump the
    run's class-data archive; {flavour: why} for the flavours this release cannot run."""
    libs = _jars(dest / "lib")
    failed: dict[str, str] = {}
    with tempfile.TemporaryDirectory() as work_name:
        work = Path(work_name)
        aot = work / "aot"
        aot.mkdir()
        # core.async itself, then what each flavour's compile loads (the go macro's
        # analyser is loaded when a go block is first expanded): all into aot/.
        done = run_tool(
            [*_compile_argv(java, [*libs, aot], str(aot))[:-1],
             f'(binding [*compile-path* "{aot}"] (compile (quote clojure.core.async)))'],
            timeout=1200,
        )  # fmt: skip
        if done.returncode != 0:
            raise InstallError(f"cannot AOT-compile core.async: {tail(done.stdout + done.stderr)}")
        trained = []
        for flavour in ("go", "thread"):
            src = work / flavour / "src"
            (src / "chanfuzz").mkdir(parents=True)
            (src / "chanfuzz" / "training.clj").write_text(training_source(flavour))
            classes = work / flavour / "classes"
            classes.mkdir()
            argv = _compile_argv(java, [*libs, aot, src, classes], str(classes), TRAINING_NAMESPACE)
            done = run_tool(argv, timeout=1200)
            if done.returncode != 0:
                failed[flavour] = f"the training program does not compile: {tail(done.stderr)}"
                continue
            # What the compile wrote besides the program is AOT output of libraries.
            for path in sorted(classes.iterdir()):
                if path.name != "chanfuzz":
                    shutil.copytree(path, aot / path.name, dirs_exist_ok=True)
            done = run_tool(
                [str(java), *PROGRAM_JVM_FLAGS, "-cp",
                 os.pathsep.join(map(str, [aot, *libs, classes])), TRAINING_NAMESPACE, "0"],
                timeout=600,
            )  # fmt: skip
            if done.returncode != 0:
                failed[flavour] = (
                    f"the training program fails (exit {done.returncode}): {tail(done.stderr)}"
                )
                continue
            trained.append(flavour)
            log(f"{dest.name}: {flavour} blocks compile and run")
        if not trained:
            raise InstallError("; ".join(f"{f}: {why}" for f, why in failed.items()))
        _jar(java, dest / "aot.jar", aot)
        # The training jar holds the training programs' classes, for the archive only.
        training = work / "training"
        training.mkdir()
        for flavour in trained:
            shutil.copytree(work / flavour / "classes", training, dirs_exist_ok=True)
        _jar(java, dest / "training.jar", training)
        done = run_tool(
            [str(java), *PROGRAM_JVM_FLAGS, f"-XX:ArchiveClassesAtExit={dest / 'runtime.jsa'}",
             "-Xlog:disable", "-Xlog:all=error:stderr", "-cp",
             os.pathsep.join(map(str, classpath(dest))), TRAINING_NAMESPACE, "0"],
            timeout=600,
        )  # fmt: skip
        if done.returncode != 0:
            (dest / "runtime.jsa").unlink(missing_ok=True)
            log(f"{dest.name}: no class-data archive ({tail(done.stderr, 300)})")
        _dump_compile_archive(dest, java, work / "archive", trained[0], log)
    return failed


def _dump_compile_archive(dest: Path, java: Path, work: Path, flavour: str, log: Log) -> None:
    """Compile a training program as a batch is compiled (its namespace, its classpath) and
    dump the JVM's classes into COMPILE_ARCHIVE: Clojure's compiler, core.async's AOT classes
    and the `go` macro's analyser (go blocks first: they load the most). A compile's start
    went from 1.6 s to 1.2 s on one core. A batch's directories differ from these, which the
    JVM accepts: it checks the jars before them."""
    src = work / "src"
    (work / SOURCE_PATH).parent.mkdir(parents=True)
    (work / SOURCE_PATH).write_text(_training_batch(flavour))
    classes = work / PRODUCT
    argv = _compile_argv(java, [*classpath(dest), src, classes], str(classes))
    argv[1:1] = [f"-XX:ArchiveClassesAtExit={dest / COMPILE_ARCHIVE}", "-Xlog:disable",
                 "-Xlog:all=error:stderr"]  # fmt: skip
    done = run_tool(argv, timeout=1200)
    if done.returncode != 0:
        (dest / COMPILE_ARCHIVE).unlink(missing_ok=True)
        log(f"{dest.name}: no class-data archive for compiles ({tail(done.stderr, 300)})")


def _jar(java: Path, jar: Path, directory: Path) -> None:
    tool = java.parent / "jar"
    if not tool.exists():
        raise InstallError(f"no jar tool next to {java} (install a JDK, not only a JRE)")
    done = run_tool([str(tool), "cf", str(jar), "-C", str(directory), "."], timeout=300)
    if done.returncode != 0:
        raise InstallError(f"jar failed: {tail(done.stderr)}")


def install_defaults(log: Log = stderr_log) -> list[Path]:
    """DEFAULT_VERSIONS: the newest release and the oldest that runs here (both targets)."""
    return [install_core_async(version, log=log) for version in DEFAULT_VERSIONS]


# --- building and running ------------------------------------------------------------------


def build_plan(toolchain: Toolchain, workdir: Path, flags: Sequence[str]) -> BuildPlan:
    classes = workdir / PRODUCT
    cp = [*toolchain.compiler_classpath, workdir / "src", classes]
    argv = _compile_argv(toolchain.executable, cp, str(classes))
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
TARGETS = ("clojure-go", "clojure-thread")


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

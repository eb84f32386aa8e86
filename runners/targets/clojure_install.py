"""Installing a core.async release: Maven, the AOT jar, training runs and class-data archives.

``install_core_async("1.6.681")`` (``manage.py toolchains install clojure-go 1.6.681``):
Maven resolves Clojure (paired by :mod:`runners.targets.clojure_releases`) and the release
(``toolchains/clojure/pom.xml``) into ``$CHANFUZZ_TOOLCHAINS_DIR/clojure-<clojure>-core.async-
<version>/lib``; then core.async and everything the ``go`` macro loads is AOT-compiled once
into ``aot.jar`` (a program's compile would otherwise compile all of core.async again: 15 s
instead of 3), a training program of each flavour is compiled and run (a smoke test: a release
whose API lacks something the renderer writes fails here, with the compiler's words, and
``toolchains list`` shows it as unavailable for that flavour), and the training run dumps a
class-data-sharing archive for program runs; a compile of a training program as a batch is
compiled dumps another for compiles. ``toolchain.json`` is written last. The directory's
layout (``classpath``) and the compile's command line (``compile_argv``) are here too: builds
(:mod:`runners.targets.clojure_core_async`) use the same.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from generator import lambda_chan as lc
from generator.lambda_chan import Program
from generator.render import render_batch
from generator.render.clojure import NAMESPACE, SOURCE_PATH
from runners import config
from runners.targets import jvm
from runners.targets.base import (
    InstallError,
    Log,
    clear_failure,
    record_failure,
    run_tool,
    stderr_log,
    tail,
)
from runners.targets.clojure_releases import (
    ARTIFACT,
    TARGETS,
    central_pom,
    clojure_pairing,
    pom_clojure_version,
)

POM_DIR = config.REPO_ROOT / "toolchains" / "clojure"
# Bump when the layout of a toolchain directory changes: older ones install again.
LAYOUT = 2
MVN_TIMEOUT_S = 1800
# What the defaults are (install_defaults): the newest release, and the oldest, which
# installs (with Clojure 1.7.0) and runs the training programs of both flavours here.
DEFAULT_VERSIONS = ("1.9.865", "0.1.215.5-8022b8-alpha")
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


def _dir_name(clojure: str, version: str) -> str:
    return f"clojure-{clojure}-core.async-{version}"


DIR_NAME = re.compile(r"clojure-(.+)-core\.async-(.+)")


def _jars(directory: Path) -> tuple[Path, ...]:
    # Byte order: the class-data archive maps only for exactly the dumped classpath.
    return tuple(sorted(directory.glob("*.jar"), key=lambda p: os.fsencode(p.name)))


def classpath(home: Path) -> tuple[Path, ...]:
    """A program's classpath in a toolchain (the program's classes go after it): the AOT
    classes first, so Clojure loads them instead of compiling core.async's sources."""
    return (home / "aot.jar", *_jars(home / "lib"), home / "training.jar")


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


def compile_argv(
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


def install_core_async(version: str, *, force: bool = False, log: Log = stderr_log) -> Path:
    """Install core.async ``version`` with its paired Clojure (both Clojure targets use it)."""
    pairing = clojure_pairing(version, pom_clojure_version(central_pom("org.clojure",
                              ARTIFACT, version), central_pom))  # fmt: skip
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
            [*compile_argv(java, [*libs, aot], str(aot))[:-1],
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
            argv = compile_argv(java, [*libs, aot, src, classes], str(classes), TRAINING_NAMESPACE)
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
    argv = compile_argv(java, [*classpath(dest), src, classes], str(classes))
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

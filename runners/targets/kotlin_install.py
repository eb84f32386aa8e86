"""Installing Kotlin toolchains: a kotlinx-coroutines release and its compiler, from Maven Central.

``install_kotlin("0.22.5")`` resolves, with Maven, the Kotlin compiler paired
with that release (:func:`runners.targets.kotlin.kotlin_pairing`) and the release
itself into ``kotlin-<kotlin>-coroutines-<version>/``: ``compiler/`` (the
compiler's jars), ``lib/`` (a program's runtime classpath: coroutines + the
compiler's kotlin-stdlib), class-data-sharing archives of the compiler
(``kotlinc.jsa``) and of a program run (``runtime.jsa`` with ``training.jar``),
the AOT cache of a program run on Java 25 (``runtime.aot``, see
:mod:`runners.targets.run_java`), and ``toolchain.json`` written last (its presence
means "installed"). A failed install leaves nothing half-made and records why
(``toolchains list`` shows it).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import tempfile
import time
import xml.etree.ElementTree as ET
from pathlib import Path

from generator.render.kotlin import closed_receive
from runners import config
from runners.targets import run_java
from runners.targets.base import (
    InstallError,
    Log,
    ToolchainUnavailable,
    clear_failure,
    record_failure,
    run_tool,
    stderr_log,
    tail,
    version_key,
)
from runners.targets.jvm import find_java, maven_fetch
from runners.targets.kotlin_releases import (
    KOTLIN_DIR,
    KOTLIN_LAYOUT,
    KOTLIN_RELEASES_FILE,
    KOTLINC_JVM_FLAGS,
    KOTLINC_MAIN,
    KotlinPairing,
    KotlinRelease,
    kotlin_pairing,
    kotlin_release,
    kotlin_releases,
    kotlin_render_options,
    kotlin_specs,
)

MVN_TIMEOUT_S = 1800


def _mvn(pom: Path, properties: dict[str, str], output: Path) -> None:
    mvn = shutil.which("mvn")
    if mvn is None:
        raise InstallError("Maven (mvn) is not installed: apt-get install maven")
    argv = [mvn, "-B", "-ntp", "-q", "-Dstyle.color=never", "-f", str(pom)]
    argv += [f"-D{k}={v}" for k, v in properties.items()]
    argv += [
        "dependency:copy-dependencies",
        "-DincludeScope=runtime",
        f"-DoutputDirectory={output}",
    ]
    done = run_tool(argv, timeout=MVN_TIMEOUT_S)
    if done.returncode != 0:
        what = ", ".join(f"{k}={v}" for k, v in properties.items())
        raise InstallError(
            f"Maven could not resolve {pom.parent.name} ({what}): {tail(done.stdout + done.stderr)}"
        )


def _java_version(java: Path) -> str:
    done = run_tool([str(java), "-XshowSettings:properties", "-version"], timeout=60)
    match = re.search(r"^\s*java\.version = (\S+)", done.stderr, re.M)
    return match.group(1) if match else ""


def _sorted_jars(directory: Path) -> list[Path]:
    # Byte order, as runners/engine/toolchains.py builds classpaths: a class-data
    # archive only maps for exactly the classpath it was dumped with.
    return sorted(directory.glob("*.jar"), key=lambda p: os.fsencode(p.name))


def install_kotlin(
    coroutines_version: str,
    kotlin_version: str | None = None,
    *,
    force: bool = False,
    log: Log = stderr_log,
) -> Path:
    """Install kotlinx-coroutines ``coroutines_version`` with its paired (or the given) compiler.

    Returns the toolchain directory. Already installed (same layout): returns at once.
    """
    release = kotlin_release(coroutines_version)
    if release is None:
        # Not in the checked-in table (a release newer than it): trust Maven Central.
        release = KotlinRelease(
            coroutines_version, _artifact_for(coroutines_version), kotlin_version or ""
        )
        if not release.built_with:
            raise InstallError(
                f"kotlinx-coroutines {coroutines_version} is not in {KOTLIN_RELEASES_FILE.name}: "
                "run `python -m runners.engine.install kotlin-releases` or pass --kotlin VERSION"
            )
    pairing = kotlin_pairing(release, kotlin_version)
    try:
        return _install_kotlin(release, pairing, force=force, log=log)
    except (InstallError, subprocess.TimeoutExpired, OSError, ToolchainUnavailable) as error:
        reason = str(error)
        record_failure("kotlin", coroutines_version, reason)
        raise InstallError(reason) from None


def _artifact_for(version: str) -> str:
    return (
        "kotlinx-coroutines-core-jvm"
        if version_key(version) >= version_key("1.3.9")
        else "kotlinx-coroutines-core"
    )


def _install_kotlin(
    release: KotlinRelease, pairing: KotlinPairing, *, force: bool, log: Log
) -> Path:
    base = config.toolchains_dir()
    name = f"kotlin-{pairing.compiler}-coroutines-{release.version}"
    dest = base / name
    manifest_path = dest / "toolchain.json"
    if not force and manifest_path.is_file():
        try:
            manifest = json.loads(manifest_path.read_text())
        except ValueError:
            manifest = {}
        if manifest.get("layout") == KOTLIN_LAYOUT:
            log(f"{name} already installed")
            if "runtime_aot_cache" not in manifest:
                _add_run_cache(dest, manifest, log)
            clear_failure("kotlin", release.version)
            return dest
    java = find_java(pairing.java_major)
    started = time.monotonic()
    log(
        f"installing {name} (kotlinx-coroutines {release.version}, "
        f"Kotlin {pairing.compiler}) with Maven"
    )
    base.mkdir(parents=True, exist_ok=True)
    shutil.rmtree(dest, ignore_errors=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{name}.", dir=base))
    try:
        _mvn(
            KOTLIN_DIR / "compiler" / "pom.xml",
            {"kotlin.version": pairing.compiler},
            tmp / "compiler",
        )
        _mvn(
            KOTLIN_DIR / "runtime" / "pom.xml",
            {
                "kotlin.version": pairing.compiler,
                "coroutines.version": release.version,
                "coroutines.artifact": release.artifact,
            },
            tmp / "lib",
        )
        tmp.chmod(0o755)
        # The archives record the jars' absolute paths: move into place first.
        tmp.rename(dest)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    try:
        catching = closed_receive(kotlin_render_options(release.version)) == "catching"
        _train_kotlin(dest, java, pairing, name, catching=catching)
        manifest = {
            "layout": KOTLIN_LAYOUT,
            "language": "kotlin",
            "kotlin_version": pairing.compiler,
            "kotlin_built_with": release.built_with,
            "kotlin_substitution": pairing.substitution,
            "coroutines_version": release.version,
            "coroutines_artifact": release.artifact,
            "java": str(java),
            "java_version": _java_version(java),
            "jvm_target": pairing.jvm_target,
            "package_layout": pairing.package_layout,
            "duplicate_clauses": pairing.duplicate_clauses,
            "cds_archive": "kotlinc.jsa",
            "runtime_cds_archive": "runtime.jsa",
            "runtime_cds_jar": "training.jar",
            **_dump_run_cache(dest, log),
        }
        _write_manifest(dest, manifest)
    except BaseException:
        shutil.rmtree(dest, ignore_errors=True)
        raise
    clear_failure("kotlin", release.version)
    log(f"installed {name} in {time.monotonic() - started:.0f} s")
    return dest


def _train_kotlin(
    dest: Path, java: Path, pairing: KotlinPairing, name: str, *, catching: bool = False
) -> None:
    """Compile and run the training program: a smoke test that also dumps the CDS archives.
    `catching`: the release's programs receive with receiveCatching, which the training
    program then also does (TrainingCatching.kt)."""
    compiler_cp = os.pathsep.join(map(str, _sorted_jars(dest / "compiler")))
    runtime_cp = os.pathsep.join(map(str, _sorted_jars(dest / "lib")))
    training = (
        KOTLIN_DIR
        / "training"
        / ("TrainingExperimental.kt" if pairing.package_layout == "experimental" else "Training.kt")
    )
    with tempfile.TemporaryDirectory() as work_name:
        work = Path(work_name)
        source = work / "Training.kt"  # the class is TrainingKt whichever file it came from
        shutil.copyfile(training, source)
        sources = [source]
        if catching:
            sources.append(work / "TrainingCatching.kt")
            shutil.copyfile(training.parent / "TrainingCatching.kt", sources[-1])
        done = run_tool(
            [
                str(java),
                *KOTLINC_JVM_FLAGS,
                f"-XX:ArchiveClassesAtExit={dest / 'kotlinc.jsa'}",
                "-cp",
                compiler_cp,
                KOTLINC_MAIN,
                "-no-stdlib",
                "-no-reflect",
                "-jvm-target",
                pairing.jvm_target,
                "-classpath",
                runtime_cp,
                "-d",
                str(work / "classes"),
                *map(str, sources),
            ],
            timeout=600,
        )
        if done.returncode != 0 or not (work / "classes" / "TrainingKt.class").is_file():
            raise InstallError(
                f"Kotlin {pairing.compiler}'s compiler does not run on Java "
                f"{_java_version(java) or java} ({name} cannot compile {training.name}): "
                f"{tail(done.stdout + done.stderr)}"
            )
        jar_tool = java.parent / "jar"
        if not jar_tool.exists():
            raise InstallError(f"no jar tool next to {java} (install a JDK, not only a JRE)")
        done = run_tool(
            [str(jar_tool), "cf", str(dest / "training.jar"), "-C", str(work / "classes"), "."],
            timeout=120,
        )
        if done.returncode != 0:
            raise InstallError(f"jar failed: {tail(done.stderr)}")
        done = run_tool(
            [
                str(java),
                f"-XX:ArchiveClassesAtExit={dest / 'runtime.jsa'}",
                "-Xlog:disable",
                "-Xlog:all=warning:stderr",
                "-cp",
                f"{runtime_cp}{os.pathsep}{dest / 'training.jar'}",
                "TrainingKt",
                "0",
            ],
            timeout=300,
        )
        if done.returncode != 0 or done.stdout.strip() != "ok":
            raise InstallError(
                f"{name}: the training program failed (exit {done.returncode}, "
                f"printed {done.stdout.strip()[:200]!r}): {tail(done.stderr)}"
            )


def _write_manifest(dest: Path, manifest: dict[str, object]) -> None:
    tmp_manifest = dest / "toolchain.json.tmp"
    tmp_manifest.write_text(json.dumps(manifest, indent=2) + "\n")
    tmp_manifest.rename(dest / "toolchain.json")


RUN_CACHE = "runtime.aot"


def _dump_run_cache(dest: Path, log: Log) -> dict[str, str]:
    """Dump the AOT cache a program's run maps on Java 25 (:mod:`runners.targets.run_java`)
    from the training program's run; return what the manifest records of it. Without a
    Java 25 (pip found no wheel, say) the toolchain is complete all the same: its programs
    run on the compiler's Java with ``runtime.jsa``, so this logs why and returns nothing.

    The cache holds no method profiles (``-AOTRecordTraining``): the JIT of a run works
    as on Java 17, from nothing, which is what the rate of kotlinx.coroutines#504's race
    was measured with (README), and with them replayed a run started no sooner here (a
    2.2.20 program: 57–70 ms against 53–65)."""
    try:
        java = run_java.install(log)
    except (InstallError, OSError, subprocess.TimeoutExpired) as error:
        log(f"{dest.name}: programs will run on Java 17, no Java 25: {error}")
        return {}
    cache = dest / RUN_CACHE
    runtime_cp = [*_sorted_jars(dest / "lib"), dest / "training.jar"]
    done = run_tool(
        [
            str(java),
            f"-XX:AOTCacheOutput={cache}",
            "-XX:+UnlockDiagnosticVMOptions",
            "-XX:-AOTRecordTraining",
            "-Xlog:disable",
            "-Xlog:all=warning:stderr",
            "-cp",
            os.pathsep.join(map(str, runtime_cp)),
            "TrainingKt",
            "0",
        ],
        timeout=300,
    )
    if done.returncode != 0 or not cache.is_file():
        cache.unlink(missing_ok=True)
        log(f"{dest.name}: programs will run on Java 17, the AOT cache failed: {tail(done.stderr)}")
        return {}
    return {
        "run_java": str(java),
        "run_java_version": run_java.JAVA_VERSION,
        "runtime_aot_cache": RUN_CACHE,
    }


def _add_run_cache(dest: Path, manifest: dict[str, object], log: Log) -> None:
    """Give a toolchain installed before runs moved to Java 25 its AOT cache."""
    entries = _dump_run_cache(dest, log)
    if entries:
        _write_manifest(dest, {**manifest, **entries})
        log(f"{dest.name}: programs run on Java {run_java.JAVA_VERSION} with {RUN_CACHE}")


_POM_NS = {"m": "http://maven.apache.org/POM/4.0.0"}


def _pom_kotlin_version(group_path: str, artifact: str, version: str) -> str:
    """The kotlin-stdlib version a release's POM depends on (following its parent)."""
    text = maven_fetch(
        f"{config.maven_central()}/{group_path}/{artifact}/{version}/{artifact}-{version}.pom"
    ).decode()
    root = ET.fromstring(text)
    for dep in root.iterfind(".//m:dependencies/m:dependency", _POM_NS):
        dep_artifact = dep.findtext("m:artifactId", "", _POM_NS)
        dep_version = dep.findtext("m:version", "", _POM_NS)
        if dep_artifact.startswith("kotlin-stdlib") and dep_version and "$" not in dep_version:
            return dep_version
    prop = root.findtext("m:properties/m:kotlin.version", "", _POM_NS)
    if prop and "$" not in prop:
        return prop
    parent = root.find("m:parent", _POM_NS)
    if parent is not None:
        return _pom_kotlin_version(
            parent.findtext("m:groupId", "", _POM_NS).replace(".", "/"),
            parent.findtext("m:artifactId", "", _POM_NS),
            parent.findtext("m:version", "", _POM_NS),
        )
    raise InstallError(f"{artifact} {version}: no kotlin-stdlib version in its POM")


def _metadata_versions(group_path: str, artifact: str) -> list[str]:
    url = f"{config.maven_central()}/{group_path}/{artifact}/maven-metadata.xml"
    text = maven_fetch(url).decode()
    return [v.text or "" for v in ET.fromstring(text).iterfind("versioning/versions/version")]


STABLE = re.compile(r"\d+\.\d+(\.\d+)?")


def central_kotlin_releases(log: Log = stderr_log) -> list[KotlinRelease]:
    """Every stable kotlinx-coroutines release from 0.19 on Maven Central, with its Kotlin."""
    group = "org/jetbrains/kotlinx"
    jvm = set(_metadata_versions(group, "kotlinx-coroutines-core-jvm"))
    versions = {
        v for v in _metadata_versions(group, "kotlinx-coroutines-core") if STABLE.fullmatch(v)
    }
    versions |= {v for v in jvm if STABLE.fullmatch(v)}
    releases = []
    for version in sorted(versions, key=version_key):
        if version_key(version) < version_key("0.19"):
            continue
        # Once the JVM artifact exists, kotlinx-coroutines-core is a multiplatform stub.
        artifact = "kotlinx-coroutines-core-jvm" if version in jvm else "kotlinx-coroutines-core"
        built_with = _pom_kotlin_version(group, artifact, version)
        log(f"{version} {artifact} {built_with}")
        releases.append(KotlinRelease(version, artifact, built_with))
    return releases


def write_kotlin_releases(releases: list[KotlinRelease], path: Path = KOTLIN_RELEASES_FILE) -> None:
    lines = [
        "# Every stable kotlinx-coroutines release on Maven Central from 0.19 on: the JVM",
        "# artifact and the Kotlin (kotlin-stdlib) version its POM depends on.",
        "# Generated by `python -m runners.engine.install kotlin-releases` (maven-metadata.xml of",
        "# kotlinx-coroutines-core and -core-jvm, then each release's POM); do not edit.",
        "# Which compiler each is installed with: runners.engine.toolchains.kotlin_pairing.",
        "# coroutines  artifact                     kotlin",
    ]
    lines += [f"{r.version:12} {r.artifact:28} {r.built_with}" for r in releases]
    path.write_text("\n".join(lines) + "\n")


def install_defaults(log: Log = stderr_log) -> list[Path]:
    """The Kotlin toolchains in toolchains/kotlin/versions.txt (scripts/install_toolchains.sh)."""
    return [
        install_kotlin(spec.coroutines_version, spec.kotlin_version, log=log)
        for spec in kotlin_specs()
    ]


def install_all_kotlin(
    versions: list[str] | None = None, log: Log = stderr_log
) -> dict[str, str]:
    """`versions` (by default every release of toolchains/kotlin/releases.txt); {version:
    why} for those that failed.

    Installed ones return at once, so a re-run only retries what is missing.
    """
    failed = {}
    for version in versions or [release.version for release in kotlin_releases()]:
        try:
            install_kotlin(version, log=log)
        except InstallError as error:
            failed[version] = str(error)
            log(f"kotlin {version}: install failed: {error}")
    return failed

"""Installing toolchains on demand into ``$CHANFUZZ_TOOLCHAINS_DIR``.

- Kotlin: ``install_kotlin("0.22.5")`` resolves, with Maven from Maven Central,
  the Kotlin compiler paired with that kotlinx-coroutines release
  (:func:`runners.engine.toolchains.kotlin_pairing`) and the release itself into
  ``kotlin-<kotlin>-coroutines-<version>/``: ``compiler/`` (the compiler's jars),
  ``lib/`` (a program's runtime classpath: coroutines + the compiler's
  kotlin-stdlib), class-data-sharing archives of the compiler (``kotlinc.jsa``)
  and of a program run (``runtime.jsa`` with ``training.jar``), and
  ``toolchain.json`` written last (its presence means "installed").
- Go: ``install_go("1.22.12")`` downloads ``golang.org/toolchain@v0.0.1-go1.22.12.linux-amd64``
  from the Go module proxy with ``go mod download`` and copies it to ``go-1.22.12/``.

A failed install leaves nothing half-made; it records why in
``.failed/<language>-<version>.json`` so that ``manage.py toolchains list``
shows the toolchain as unavailable with the reason (a later successful install
removes the record).

Standard library only (plus :mod:`runners.engine.toolchains`): ``scripts/install_toolchains.sh``
runs ``python3 -m runners.engine.install defaults`` from the repository root with any
Python 3.11, before or without the project's virtualenv.

Command line::

    python -m runners.engine.install kotlin 0.22.5 [--kotlin 1.2.71]
    python -m runners.engine.install go 1.22.12
    python -m runners.engine.install defaults          # what toolchains/kotlin/versions.txt lists
    python -m runners.engine.install kotlin-all # every release in toolchains/kotlin/releases.txt
    python -m runners.engine.install kotlin-releases   # regenerate toolchains/kotlin/releases.txt
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path

from runners.engine.toolchains import (
    FLIX_UNAVAILABLE,
    KOTLIN_DIR,
    KOTLIN_LAYOUT,
    KOTLIN_RELEASES_FILE,
    MACHINE_GO,
    KotlinPairing,
    KotlinRelease,
    ToolchainUnavailable,
    failure_record,
    find_java,
    go_proxy_versions,
    kotlin_pairing,
    kotlin_release,
    kotlin_releases,
    kotlin_specs,
    toolchains_dir,
    version_key,
)

# Keep in step with runners/engine/build.py (_KOTLINC_JVM_FLAGS): the compiler's
# class-data archive is dumped by a compile with the flags it is used with.
KOTLINC_JVM_FLAGS = ("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xss16m")
KOTLINC_MAIN = "org.jetbrains.kotlin.cli.jvm.K2JVMCompiler"
MAVEN_CENTRAL = os.environ.get("CHANFUZZ_MAVEN_CENTRAL", "https://repo.maven.apache.org/maven2")
MVN_TIMEOUT_S = 1800

Log = Callable[[str], None]


class InstallError(RuntimeError):
    """An install failed; the message says why (and is recorded for ``list``)."""


def _stderr_log(message: str) -> None:
    print(f"[install] {message}", file=sys.stderr, flush=True)


def _record_failure(language: str, version: str, reason: str) -> None:
    path = failure_record(language, version)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"reason": reason, "time": time.time()}) + "\n")


def _clear_failure(language: str, version: str) -> None:
    failure_record(language, version).unlink(missing_ok=True)


def _run(
    argv: list[str], *, timeout: float, env: dict[str, str] | None = None, cwd: Path | None = None
):
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


def _tail(text: str, limit: int = 1500) -> str:
    lines = [
        line
        for line in text.strip().splitlines()
        if not line.startswith(
            ("WARNING: A restricted", "WARNING: java.lang.System::", "WARNING: Use --enable")
        )
    ]
    text = "\n".join(lines)
    return text if len(text) <= limit else "…" + text[-limit:]


# --- Kotlin ------------------------------------------------------------------------


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
    done = _run(argv, timeout=MVN_TIMEOUT_S)
    if done.returncode != 0:
        what = ", ".join(f"{k}={v}" for k, v in properties.items())
        raise InstallError(
            f"Maven could not resolve {pom.parent.name} ({what}): "
            f"{_tail(done.stdout + done.stderr)}"
        )


def _java_version(java: Path) -> str:
    done = _run([str(java), "-XshowSettings:properties", "-version"], timeout=60)
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
    log: Log = _stderr_log,
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
        _record_failure("kotlin", coroutines_version, reason)
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
    base = toolchains_dir()
    name = f"kotlin-{pairing.compiler}-coroutines-{release.version}"
    dest = base / name
    manifest_path = dest / "toolchain.json"
    if not force and manifest_path.is_file():
        try:
            if json.loads(manifest_path.read_text()).get("layout") == KOTLIN_LAYOUT:
                log(f"{name} already installed")
                _clear_failure("kotlin", release.version)
                return dest
        except ValueError:
            pass
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
        _train_kotlin(dest, java, pairing, name)
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
        }
        tmp_manifest = dest / "toolchain.json.tmp"
        tmp_manifest.write_text(json.dumps(manifest, indent=2) + "\n")
        tmp_manifest.rename(manifest_path)
    except BaseException:
        shutil.rmtree(dest, ignore_errors=True)
        raise
    _clear_failure("kotlin", release.version)
    log(f"installed {name} in {time.monotonic() - started:.0f} s")
    return dest


def _train_kotlin(dest: Path, java: Path, pairing: KotlinPairing, name: str) -> None:
    """Compile and run the training program: a smoke test that also dumps the CDS archives."""
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
        done = _run(
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
                str(source),
            ],
            timeout=600,
        )
        if done.returncode != 0 or not (work / "classes" / "TrainingKt.class").is_file():
            raise InstallError(
                f"Kotlin {pairing.compiler}'s compiler does not run on Java "
                f"{_java_version(java) or java} ({name} cannot compile {training.name}): "
                f"{_tail(done.stdout + done.stderr)}"
            )
        jar_tool = java.parent / "jar"
        if not jar_tool.exists():
            raise InstallError(f"no jar tool next to {java} (install a JDK, not only a JRE)")
        done = _run(
            [str(jar_tool), "cf", str(dest / "training.jar"), "-C", str(work / "classes"), "."],
            timeout=120,
        )
        if done.returncode != 0:
            raise InstallError(f"jar failed: {_tail(done.stderr)}")
        done = _run(
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
                f"printed {done.stdout.strip()[:200]!r}): {_tail(done.stderr)}"
            )


# --- the release table (Maven Central) ------------------------------------------------


def _fetch(url: str, attempts: int = 4) -> bytes:
    for attempt in range(attempts):
        try:
            with urllib.request.urlopen(url, timeout=30) as response:
                return response.read()
        except OSError:
            if attempt == attempts - 1:
                raise
            time.sleep(1 + attempt)
    raise AssertionError("unreachable")


_POM_NS = {"m": "http://maven.apache.org/POM/4.0.0"}


def _pom_kotlin_version(group_path: str, artifact: str, version: str) -> str:
    """The kotlin-stdlib version a release's POM depends on (following its parent)."""
    text = _fetch(
        f"{MAVEN_CENTRAL}/{group_path}/{artifact}/{version}/{artifact}-{version}.pom"
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
    text = _fetch(f"{MAVEN_CENTRAL}/{group_path}/{artifact}/maven-metadata.xml").decode()
    return [v.text or "" for v in ET.fromstring(text).iterfind("versioning/versions/version")]


STABLE = re.compile(r"\d+\.\d+(\.\d+)?")


def central_kotlin_releases(log: Log = _stderr_log) -> list[KotlinRelease]:
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


# --- Go ---------------------------------------------------------------------------------


def _go_env(tmp: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GO")}
    env.update(
        GOTOOLCHAIN="local",
        GOPROXY=os.environ.get("CHANFUZZ_GOPROXY", "https://proxy.golang.org"),
        GOFLAGS="-mod=mod",
        GONOSUMDB="",
        GOMODCACHE=str(toolchains_dir() / ".cache" / "gomod"),
        GOPATH=str(tmp / "gopath"),
        GOCACHE=str(tmp / "gocache"),
    )
    return env


def _bootstrap_go() -> Path:
    if MACHINE_GO.exists():
        return MACHINE_GO
    found = shutil.which("go")
    if found is None:
        raise InstallError(
            "no go command to download toolchains with: install Go (apt-get install golang-go)"
        )
    return Path(found)


def install_go(version: str, *, force: bool = False, log: Log = _stderr_log) -> Path:
    """Install Go ``version`` (e.g. "1.22.12") from the Go module proxy into ``go-<version>/``."""
    try:
        return _install_go(version, force=force, log=log)
    except (InstallError, subprocess.TimeoutExpired, OSError, ToolchainUnavailable) as error:
        _record_failure("go", version, str(error))
        raise InstallError(str(error)) from None


def _install_go(version: str, *, force: bool, log: Log) -> Path:
    if not re.fullmatch(r"\d+\.\d+(\.\d+)?((rc|beta)\d+)?", version):
        raise InstallError(f"not a Go version: {version!r} (want e.g. 1.22.12)")
    dest = toolchains_dir() / f"go-{version}"
    if not force and (dest / "bin" / "go").exists() and (dest / "VERSION").is_file():
        log(f"go {version} already installed at {dest}")
        _clear_failure("go", version)
        return dest
    go = _bootstrap_go()
    module = f"golang.org/toolchain@v0.0.1-go{version}.linux-amd64"
    started = time.monotonic()
    log(f"downloading {module} from the Go module proxy")
    toolchains_dir().mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=toolchains_dir(), prefix=".go-") as tmp_name:
        tmp = Path(tmp_name)
        (tmp / "mod").mkdir()
        (tmp / "mod" / "go.mod").write_text("module chanfuzz/toolchainfetch\n")
        env = _go_env(tmp)
        done = _run(
            [str(go), "mod", "download", "-json", module], timeout=1800, env=env, cwd=tmp / "mod"
        )
        info: dict[str, str] = {}
        with contextlib.suppress(ValueError):
            info = json.loads(done.stdout) if done.stdout.strip() else {}
        if done.returncode != 0 or not info.get("Dir"):
            raise InstallError(
                f"go mod download {module} failed: "
                f"{info.get('Error') or _tail(done.stderr + done.stdout)}"
            )
        staging = tmp / "goroot"
        shutil.copytree(info["Dir"], staging, symlinks=True)
        # The module cache is read-only; the copy must be writable to be replaced later.
        for path in [staging, *staging.rglob("*")]:
            if not path.is_symlink():
                path.chmod(path.stat().st_mode | 0o200)
        for tool in [*(staging / "bin").glob("*"), *(staging / "pkg" / "tool").glob("*/*")]:
            tool.chmod(tool.stat().st_mode | 0o111)
        check = _run(
            [str(staging / "bin" / "go"), "version"],
            timeout=60,
            env={**env, "GOROOT": str(staging)},
        )
        if check.returncode != 0 or f"go{version}" not in check.stdout:
            raise InstallError(
                f"go {version} from the proxy does not run: {_tail(check.stdout + check.stderr)}"
            )
        shutil.rmtree(dest, ignore_errors=True)
        staging.rename(dest)
    # The module cache copy is not needed any more (tens of MB each).
    _clean_go_modcache(go, env)
    _clear_failure("go", version)
    log(f"installed go {version} at {dest} in {time.monotonic() - started:.0f} s")
    return dest


def _clean_go_modcache(go: Path, env: dict[str, str]) -> None:
    _run([str(go), "clean", "-modcache"], timeout=600, env=env)


# --- command line -----------------------------------------------------------------------


def install(
    language: str,
    version: str,
    *,
    kotlin: str | None = None,
    force: bool = False,
    log: Log = _stderr_log,
) -> Path | None:
    """Install ``language`` ``version``; None for toolchains that are not installed this way."""
    if language == "kotlin":
        return install_kotlin(version, kotlin, force=force, log=log)
    if language == "go":
        return install_go(version, force=force, log=log)
    raise InstallError(
        {
            "crystal": "Crystal comes from Debian only: apt-get install crystal",
            "flix": FLIX_UNAVAILABLE,
        }.get(language, f"unknown language {language!r}")
    )


def install_defaults(log: Log = _stderr_log) -> list[Path]:
    """The Kotlin toolchains in toolchains/kotlin/versions.txt (scripts/install_toolchains.sh)."""
    return [
        install_kotlin(spec.coroutines_version, spec.kotlin_version, log=log)
        for spec in kotlin_specs()
    ]


def install_all_kotlin(log: Log = _stderr_log) -> dict[str, str]:
    """Every release of toolchains/kotlin/releases.txt; {version: why} for those that failed.

    Installed ones return at once, so a re-run only retries what is missing.
    """
    failed = {}
    for release in kotlin_releases():
        try:
            install_kotlin(release.version, log=log)
        except InstallError as error:
            failed[release.version] = str(error)
            log(f"kotlin {release.version}: install failed: {error}")
    return failed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m runners.engine.install", description=__doc__.split("\n")[0]
    )
    sub = parser.add_subparsers(dest="command", required=True)
    one = sub.add_parser("kotlin", help="install a kotlinx-coroutines release")
    one.add_argument("version")
    one.add_argument("--kotlin", help="compiler version (default: the paired one)")
    one.add_argument("--force", action="store_true")
    go = sub.add_parser("go", help="install a Go release from the Go module proxy")
    go.add_argument("version")
    go.add_argument("--force", action="store_true")
    sub.add_parser("defaults", help="install what toolchains/kotlin/versions.txt lists")
    sub.add_parser("kotlin-all", help="install every release toolchains/kotlin/releases.txt lists")
    sub.add_parser(
        "kotlin-releases", help=f"regenerate {KOTLIN_RELEASES_FILE.name} from Maven Central"
    )
    sub.add_parser("go-versions", help="print the Go versions the module proxy serves")
    args = parser.parse_args(argv)
    try:
        if args.command == "kotlin":
            print(install_kotlin(args.version, args.kotlin, force=args.force))
        elif args.command == "go":
            print(install_go(args.version, force=args.force))
        elif args.command == "defaults":
            for path in install_defaults():
                print(path)
        elif args.command == "kotlin-all":
            failed = install_all_kotlin()
            if failed:
                print(f"install failed for {', '.join(failed)}", file=sys.stderr)
                return 1
        elif args.command == "kotlin-releases":
            write_kotlin_releases(central_kotlin_releases())
            print(KOTLIN_RELEASES_FILE)
        elif args.command == "go-versions":
            print(" ".join(go_proxy_versions(refresh=True)))
    except InstallError as error:
        print(f"install failed: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

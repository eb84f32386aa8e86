"""Registry of the toolchains chanfuzz compiles and runs generated programs with.

This module owns *where* each compiler/runtime lives and *which version* it is:

- Go: the machine's Go (``/usr/local/go/bin/go``, else ``go`` on PATH), Debian's
  ``golang-go`` (``/usr/lib/go/bin/go``) when installed too, and any Go unpacked
  under ``$CHANFUZZ_TOOLCHAINS_DIR/go-<version>/`` (later: toolchains from the
  Go module proxy). ``CHANFUZZ_GO=/path/to/go`` replaces all of these.
- Crystal: Debian's ``crystal`` (``/usr/bin/crystal``), else ``crystal`` on PATH.
  ``CHANFUZZ_CRYSTAL=/path/to/crystal`` replaces it.
- Kotlin: every ``$CHANFUZZ_TOOLCHAINS_DIR/kotlin-<kotlin>-coroutines-<version>/``
  that ``scripts/install_toolchains.sh`` completed (it writes ``toolchain.json``
  last), plus, to report them as missing, the ones ``toolchains/kotlin/versions.txt``
  asks for. The *version* of a Kotlin toolchain is its kotlinx-coroutines version,
  the runtime under test; the compiler version is a component.

``CHANFUZZ_TOOLCHAINS_DIR`` defaults to ``<repo>/var/toolchains``.

It does not compile or run anything (see :mod:`runners.engine.build`) and installs
nothing (see :mod:`runners.engine.install`, ``manage.py toolchains install LANG VERSION``);
:func:`known_toolchains` lists every version that could be installed too (every
kotlinx-coroutines release from 0.19 in ``toolchains/kotlin/releases.txt``, the
Go releases the Go module proxy serves), each with why it is not installed.
Everything here is discovered from the file system on each call, so installing
a toolchain needs no restart; the only cost is reading a few small files
(version probes that must run a binary are memoised per binary and modification
time), except that the Go module proxy's list is asked for at most once a day.

Run ``python -m runners.engine.toolchains`` to print what is installed.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
INSTALL_HINT = "run scripts/install_toolchains.sh"
# Languages with a builder (runners.engine.build); REGISTERED_LANGUAGES adds those that
# are only registered (listed, located) so far.
LANGUAGES = ("go", "crystal", "kotlin")
REGISTERED_LANGUAGES = (*LANGUAGES, "flix")

# What scripts/install_toolchains.sh installs for Kotlin, one line per toolchain.
KOTLIN_DIR = REPO_ROOT / "toolchains" / "kotlin"
KOTLIN_VERSIONS_FILE = KOTLIN_DIR / "versions.txt"
# Every kotlinx-coroutines release from 0.19 (generated from Maven Central).
KOTLIN_RELEASES_FILE = KOTLIN_DIR / "releases.txt"
# Layout of a Kotlin toolchain directory (toolchain.json "layout"): bump when it
# changes, older ones are then installed again.
KOTLIN_LAYOUT = 2
# Kotlin toolchains that do not say otherwise in toolchain.json compile for this.
DEFAULT_JVM_TARGET = "17"

MACHINE_GO = Path("/usr/local/go/bin/go")
DEBIAN_GO = Path("/usr/lib/go/bin/go")
DEBIAN_CRYSTAL = Path("/usr/bin/crystal")


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
    # Kotlin only: the compiler's jars, and the generated program's runtime jars.
    compiler_classpath: tuple[Path, ...] = ()
    runtime_classpath: tuple[Path, ...] = ()
    # Kotlin only: class-data-sharing archive of the compiler's JVM, if any.
    cds_archive: Path | None = None
    # Kotlin only: archive of a program run's classes (stdlib, coroutines), and
    # the jars it was dumped with after runtime_classpath. It only maps when a
    # run's classpath starts with runtime_classpath + runtime_cds_classpath.
    runtime_cds_archive: Path | None = None
    runtime_cds_classpath: tuple[Path, ...] = ()
    # Options for generator.render.render(program, language, **render_options()):
    # for Kotlin the package layout and duplicate select clauses of its release.
    render: tuple[tuple[str, str], ...] = ()
    # Extra compiler arguments the toolchain needs (none so far; see runners/engine/build.py).
    compiler_args: tuple[str, ...] = ()

    def render_options(self) -> dict[str, str]:
        """What the renderer must be told to produce a program this toolchain accepts."""
        if self.render:
            return dict(self.render)
        if self.language == "kotlin":
            return kotlin_render_options(self.version)
        return {}

    def component(self, name: str) -> str | None:
        """Version of a component (``"kotlin"``, ``"java"``, ``"jvm-target"``), if known."""
        return dict(self.components).get(name)

    def describe(self) -> str:
        extra = "".join(f", {name} {version}" for name, version in self.components)
        return f"{self.language} {self.version} ({self.origin}{extra}) at {self.home}"


@dataclass(frozen=True)
class ToolchainStatus:
    """A place a toolchain is expected or was found, and whether it is usable."""

    language: str
    origin: str
    location: str
    toolchain: Toolchain | None
    reason: str  # why it is unavailable; "" when installed

    @property
    def installed(self) -> bool:
        return self.toolchain is not None


# --- configuration ---------------------------------------------------------------


def toolchains_dir() -> Path:
    """Where installed toolchains live (``$CHANFUZZ_TOOLCHAINS_DIR``)."""
    configured = os.environ.get("CHANFUZZ_TOOLCHAINS_DIR")
    return Path(configured) if configured else REPO_ROOT / "var" / "toolchains"


@dataclass(frozen=True)
class KotlinSpec:
    """A Kotlin toolchain requested in toolchains/kotlin/versions.txt."""

    kotlin_version: str
    coroutines_version: str
    coroutines_artifact: str = "kotlinx-coroutines-core-jvm"

    @property
    def dir_name(self) -> str:
        return f"kotlin-{self.kotlin_version}-coroutines-{self.coroutines_version}"


def kotlin_specs(path: Path = KOTLIN_VERSIONS_FILE) -> list[KotlinSpec]:
    """The Kotlin toolchains the install script installs, in file order."""
    specs = []
    if not path.is_file():
        return specs
    for line in path.read_text().splitlines():
        fields = line.split("#", 1)[0].split()
        if not fields:
            continue
        if len(fields) < 2:
            raise ValueError(f"{path}: expected '<kotlin> <coroutines> [artifact]': {line!r}")
        specs.append(KotlinSpec(*fields[:3]))
    return specs


# --- version probes ----------------------------------------------------------------


def _mtime_ns(path: Path) -> int:
    return path.stat().st_mtime_ns


@lru_cache(maxsize=64)
def _run_probe(argv: tuple[str, ...], _mtime_ns: int) -> str:
    # _mtime_ns is part of the memo key only: an upgraded binary is probed again.
    done = subprocess.run(
        argv, capture_output=True, text=True, timeout=60, check=False, stdin=subprocess.DEVNULL
    )
    if done.returncode != 0:
        raise ToolchainUnavailable(
            f"{' '.join(argv)} failed (exit {done.returncode}): {done.stderr.strip()[:500]}"
        )
    return done.stdout


def _go_version(go: Path, goroot: Path) -> str:
    # Official and Debian distributions both ship $GOROOT/VERSION ("go1.26.8\n..."),
    # which is much cheaper than running the go command.
    version_file = goroot / "VERSION"
    text = version_file.read_text().split("\n", 1)[0].strip() if version_file.is_file() else ""
    if not text.startswith("go"):
        env = {k: v for k, v in os.environ.items() if not k.startswith("GO")}
        env["GOTOOLCHAIN"] = "local"  # never let the go command switch or download itself
        done = subprocess.run(
            [str(go), "env", "GOVERSION"],
            capture_output=True,
            text=True,
            timeout=60,
            env=env,
            check=False,
        )
        text = done.stdout.strip()
    match = re.fullmatch(r"go(\d+(?:\.\d+)*)(\S*)", text)
    if not match:
        raise ToolchainUnavailable(f"cannot tell the version of {go} (got {text!r})")
    return match.group(1) + match.group(2)


def _crystal_version(crystal: Path) -> str:
    out = _run_probe((str(crystal), "env", "CRYSTAL_VERSION"), _mtime_ns(crystal)).strip()
    if not re.fullmatch(r"\d+(\.\d+)*\S*", out):
        raise ToolchainUnavailable(f"cannot tell the version of {crystal} (got {out!r})")
    return out


# --- locating each kind of toolchain -----------------------------------------------


def _executable(path: Path, what: str) -> Path:
    if not path.exists():
        raise ToolchainUnavailable(f"{what} not installed: {path} does not exist ({INSTALL_HINT})")
    if not os.access(path, os.X_OK):
        raise ToolchainUnavailable(f"{what}: {path} is not executable")
    return path


def _go_toolchain(go: Path, origin: str) -> Toolchain:
    go = _executable(go, "go")
    # /usr/bin/go -> /usr/lib/go-1.19/bin/go: GOROOT is the real binary's grandparent.
    real = go.resolve()
    goroot = real.parent.parent
    version = _go_version(real, goroot)
    return Toolchain(
        language="go",
        version=version,
        id=f"go-{version}-{origin}",
        origin=origin,
        home=goroot,
        executable=real,
    )


def _crystal_toolchain(crystal: Path, origin: str) -> Toolchain:
    crystal = _executable(crystal, "crystal")
    version = _crystal_version(crystal)
    return Toolchain(
        language="crystal",
        version=version,
        id=f"crystal-{version}-{origin}",
        origin=origin,
        home=crystal.resolve().parent.parent,
        executable=crystal,
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
        failed = _failure_reason("kotlin", match.group(2)) if match else ""
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
    _executable(java, "java (for kotlin)")
    archive = _optional_file(directory, manifest.get("cds_archive"))
    run_archive = _optional_file(directory, manifest.get("runtime_cds_archive"))
    run_jar = _optional_file(directory, manifest.get("runtime_cds_jar"))
    if run_archive is None or run_jar is None:
        run_archive, run_jar = None, None
    components = [("kotlin", kotlin_version)]
    built_with = manifest.get("kotlin_built_with")
    if built_with and built_with != kotlin_version:
        components.append(("kotlin-built-with", built_with))
    if manifest.get("java_version"):
        components.append(("java", manifest["java_version"]))
    components.append(("jvm-target", str(manifest.get("jvm_target") or DEFAULT_JVM_TARGET)))
    render = kotlin_render_options(coroutines_version)
    for key in ("package_layout", "duplicate_clauses"):
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
        render=tuple(sorted(render.items())),
        compiler_args=tuple(manifest.get("compiler_args") or ()),
    )


def _optional_file(directory: Path, name: str | None) -> Path | None:
    """``directory/name`` if the manifest names it and it exists (archives are optional)."""
    if not name:
        return None
    path = directory / name
    return path if path.is_file() else None


@dataclass(frozen=True)
class _Candidate:
    """A place to look for a toolchain: enough to report it even when it is missing."""

    language: str
    origin: str
    location: Path
    locate: Callable[[], Toolchain]


def _go_candidates() -> Iterator[_Candidate]:
    configured = os.environ.get("CHANFUZZ_GO")
    if configured:
        # An explicit choice replaces discovery: silently using another Go would
        # attribute results to the wrong version.
        path = Path(configured)
        yield _Candidate("go", "env", path, lambda: _go_toolchain(path, "env"))
        return
    on_path = shutil.which("go")
    places = [(MACHINE_GO, "machine")]
    if on_path and Path(on_path).resolve() != DEBIAN_GO.resolve():
        places.append((Path(on_path), "path"))  # Debian's /usr/bin/go is reported as "debian"
    places.append((DEBIAN_GO, "debian"))
    seen: set[Path] = set()
    for path, origin in places:
        key = path.resolve()
        if key in seen:
            continue  # e.g. go on PATH is /usr/local/go/bin/go
        seen.add(key)
        yield _Candidate("go", origin, path, lambda p=path, o=origin: _go_toolchain(p, o))
    base = toolchains_dir()
    for goroot in sorted(base.glob("go-*")):
        go = goroot / "bin" / "go"
        if go.exists():
            yield _Candidate("go", "installed", go, lambda g=go: _go_toolchain(g, "installed"))


def _crystal_candidates() -> Iterator[_Candidate]:
    configured = os.environ.get("CHANFUZZ_CRYSTAL")
    if configured:
        path = Path(configured)
        yield _Candidate("crystal", "env", path, lambda: _crystal_toolchain(path, "env"))
        return
    yield _Candidate(
        "crystal", "debian", DEBIAN_CRYSTAL, lambda: _crystal_toolchain(DEBIAN_CRYSTAL, "debian")
    )
    on_path = shutil.which("crystal")
    if on_path and Path(on_path).resolve() != DEBIAN_CRYSTAL.resolve():
        path = Path(on_path)
        yield _Candidate("crystal", "path", path, lambda: _crystal_toolchain(path, "path"))


def _kotlin_candidates() -> Iterator[_Candidate]:
    base = toolchains_dir()
    names = [spec.dir_name for spec in kotlin_specs()]
    # Toolchains installed beyond versions.txt (older runs, other versions) count too.
    for manifest in sorted(base.glob("kotlin-*-coroutines-*/toolchain.json")):
        if manifest.parent.name not in names:
            names.append(manifest.parent.name)
    for name in names:
        directory = base / name
        yield _Candidate("kotlin", "installed", directory, lambda d=directory: _kotlin_toolchain(d))


_CANDIDATES: dict[str, Callable[[], Iterator[_Candidate]]] = {
    "go": _go_candidates,
    "crystal": _crystal_candidates,
    "kotlin": _kotlin_candidates,
}


# --- versions ------------------------------------------------------------------------


def version_key(version: str) -> tuple[int, ...]:
    """Numeric sort key of a dotted release version ("0.19" < "0.19.1" < "1.3.10")."""
    return tuple(int(part) for part in re.findall(r"\d+", version.split("-", 1)[0]))


# --- Kotlin: releases and the compiler each is installed with -------------------------


@dataclass(frozen=True)
class KotlinRelease:
    """A kotlinx-coroutines release: its JVM artifact and the Kotlin it was built with."""

    version: str
    artifact: str
    built_with: str


def kotlin_releases(path: Path = KOTLIN_RELEASES_FILE) -> list[KotlinRelease]:
    """Every stable kotlinx-coroutines release from 0.19 on Maven Central, oldest first.

    Read from the checked-in table toolchains/kotlin/releases.txt, which
    ``python -m runners.engine.install kotlin-releases`` regenerates from Maven Central
    (its maven-metadata.xml and one POM per release: ~70 requests, too many to
    make on every ``list``).
    """
    releases = []
    if not path.is_file():
        return releases
    for line in path.read_text().splitlines():
        fields = line.split("#", 1)[0].split()
        if not fields:
            continue
        if len(fields) != 3:
            raise ValueError(f"{path}: expected '<version> <artifact> <kotlin>': {line!r}")
        releases.append(KotlinRelease(*fields))
    return sorted(releases, key=lambda r: version_key(r.version))


def kotlin_release(version: str) -> KotlinRelease | None:
    return next((r for r in kotlin_releases() if r.version == version), None)


# The oldest Kotlin compiler that runs on JDK 17 (tested: 1.1.51, 1.2.0, 1.2.10
# and 1.2.21 fail as below; 1.2.41, 1.2.50, 1.2.51, 1.2.61, 1.2.70, 1.2.71,
# 1.3.x, 1.4.0, 1.5.0, 1.6.21, 1.8.20, 2.2.20, 2.4.21 run). Releases built with
# an older Kotlin are installed with this one instead (substitution recorded).
KOTLIN_OLDEST_ON_JDK17 = "1.2.41"
# (They do run with -jdk-home pointing at a JDK-8-style home whose jre/lib/rt.jar
# holds java.base's classes, which runners/engine/build.py does not pass.)
KOTLIN_TOO_OLD_FOR_JDK17 = (
    "ArrayIndexOutOfBoundsException in its ASM's ClassReader.readModule (JDK 17's module-info)"
)
# Compilers newer than that which still fail on JDK 17, and the one used instead
# (the next that runs). 1.4.30–1.4.32: IntelliJ's DynamicBundle reflects on
# ResourceBundle.setParent, which JDK 17 refuses (InaccessibleObjectException).
KOTLIN_BROKEN_ON_JDK17 = {"1.4.30": "1.5.0", "1.4.31": "1.5.0", "1.4.32": "1.5.0"}
KOTLIN_BROKEN_REASON = (
    "InaccessibleObjectException: java.base does not open java.util to IntelliJ's DynamicBundle"
)
# The Java all Kotlin toolchains run on: every compiler from 1.2.41 runs on JDK 17;
# on Temurin 25 even 1.3.0 fails (ExceptionInInitializerError in intellij's FileUtil).
KOTLIN_JAVA_MAJOR = 17


@dataclass(frozen=True)
class KotlinPairing:
    """How a kotlinx-coroutines release is installed: compiler, JVM and renderer options."""

    compiler: str
    jvm_target: str
    package_layout: str
    duplicate_clauses: str
    substitution: str  # why the compiler is not the one the release was built with; "" if it is
    java_major: int = KOTLIN_JAVA_MAJOR


def kotlin_render_options(coroutines_version: str) -> dict[str, str]:
    """Renderer options for a kotlinx-coroutines release (generator.render.kotlin).

    Before 1.0 the library lives in ``kotlinx.coroutines.experimental``; from
    1.7 a select rejects two clauses on the same channel, so those are merged.
    """
    key = version_key(coroutines_version)
    return {
        "package_layout": "experimental" if key < (1, 0) else "modern",
        "duplicate_clauses": "merge" if key >= (1, 7) else "keep",
    }


def _jvm_target(kotlin_version: str) -> str:
    # -jvm-target 17 exists from Kotlin 1.6; every compiler accepts 1.8.
    return "17" if version_key(kotlin_version) >= (1, 6) else "1.8"


def kotlin_pairing(release: KotlinRelease, compiler: str | None = None) -> KotlinPairing:
    """The compiler (and stdlib) ``release`` is installed with, unless ``compiler`` is given.

    The one it was built with (its POM's kotlin-stdlib), or, where that one does
    not run on JDK 17, the nearest that does.
    """
    substitution = ""
    if compiler is None:
        compiler = release.built_with
        if version_key(compiler) < version_key(KOTLIN_OLDEST_ON_JDK17):
            substitution = (
                f"Kotlin {KOTLIN_OLDEST_ON_JDK17} instead of {compiler}: Kotlin {compiler}'s "
                f"compiler does not run on JDK {KOTLIN_JAVA_MAJOR}: {KOTLIN_TOO_OLD_FOR_JDK17}"
            )
            compiler = KOTLIN_OLDEST_ON_JDK17
        elif compiler in KOTLIN_BROKEN_ON_JDK17:
            substitution = (
                f"Kotlin {KOTLIN_BROKEN_ON_JDK17[compiler]} instead of {compiler}: Kotlin "
                f"{compiler}'s compiler does not run on JDK {KOTLIN_JAVA_MAJOR}: "
                f"{KOTLIN_BROKEN_REASON}"
            )
            compiler = KOTLIN_BROKEN_ON_JDK17[compiler]
    elif compiler != release.built_with:
        substitution = f"Kotlin {compiler} instead of {release.built_with}: chosen by hand"
    options = kotlin_render_options(release.version)
    return KotlinPairing(
        compiler=compiler,
        jvm_target=_jvm_target(compiler),
        package_layout=options["package_layout"],
        duplicate_clauses=options["duplicate_clauses"],
        substitution=substitution,
    )


def _paired_compiler(coroutines_version: str) -> str | None:
    release = kotlin_release(coroutines_version)
    return kotlin_pairing(release).compiler if release else None


def failure_record(language: str, version: str) -> Path:
    """Where runners.engine.install records why installing ``language`` ``version`` failed."""
    return toolchains_dir() / ".failed" / f"{language}-{version}.json"


def _failure_reason(language: str, version: str) -> str:
    path = failure_record(language, version)
    if not path.is_file():
        return ""
    try:
        return str(json.loads(path.read_text())["reason"])
    except (ValueError, KeyError):
        return f"an install failed (unreadable record {path})"


def _java_home_major(java: Path) -> int | None:
    release = java.resolve().parent.parent / "release"
    if release.is_file():
        match = re.search(r'^JAVA_VERSION="(\d+)', release.read_text(), re.M)
        if match:
            return int(match.group(1))
    return None


def find_java(major: int = KOTLIN_JAVA_MAJOR) -> Path:
    """A ``java`` of that major version: $CHANFUZZ_JAVA, $JAVA_HOME, PATH, /usr/lib/jvm."""
    configured = os.environ.get("CHANFUZZ_JAVA")
    if configured:
        return _executable(Path(configured), "java ($CHANFUZZ_JAVA)")
    candidates = []
    if os.environ.get("JAVA_HOME"):
        candidates.append(Path(os.environ["JAVA_HOME"]) / "bin" / "java")
    if shutil.which("java"):
        candidates.append(Path(shutil.which("java") or ""))
    candidates += sorted(Path("/usr/lib/jvm").glob("*/bin/java"))
    for java in candidates:
        if java.exists() and _java_home_major(java) == major:
            return java.resolve()
    raise ToolchainUnavailable(
        f"no Java {major} (set CHANFUZZ_JAVA, or apt-get install openjdk-{major}-jdk-headless)"
    )


# --- Go: releases the Go module proxy serves -----------------------------------------

GO_PROXY_MODULE = "golang.org/toolchain"
# The proxy serves go1.21 and later as toolchains (GOTOOLCHAIN); older zips exist
# but predate that mechanism and are not offered.
GO_PROXY_OLDEST = "1.21"
GO_PROXY_CACHE_MAX_AGE_S = 24 * 3600


def _go_for_tools() -> Path | None:
    if MACHINE_GO.exists():
        return MACHINE_GO
    found = shutil.which("go")
    return Path(found) if found else None


def go_proxy_versions(*, refresh: bool = False, offline: bool = False) -> list[str]:
    """Stable Go releases (>= 1.21) the Go module proxy serves for linux-amd64, oldest first.

    Asks the proxy (``go list -m -versions golang.org/toolchain``) at most once
    a day; the answer is cached in ``$CHANFUZZ_TOOLCHAINS_DIR/.cache``. Raises
    ToolchainUnavailable when it cannot be had.
    """
    cache = toolchains_dir() / ".cache" / "go-proxy-versions.json"
    if not refresh and cache.is_file():
        try:
            cached = json.loads(cache.read_text())
            if offline or os.path.getmtime(cache) > time.time() - GO_PROXY_CACHE_MAX_AGE_S:
                return list(cached["versions"])
        except (ValueError, KeyError):
            pass
    if offline:
        raise ToolchainUnavailable("offline, and no list of the Go module proxy is cached")
    go = _go_for_tools()
    if go is None:
        raise ToolchainUnavailable("no go command to ask the Go module proxy with")
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        Path(tmp, "go.mod").write_text("module chanfuzz/toolchainlist\n")
        env = {k: v for k, v in os.environ.items() if not k.startswith("GO")}
        env.update(
            GOTOOLCHAIN="local",
            GOPROXY=os.environ.get("CHANFUZZ_GOPROXY", "https://proxy.golang.org"),
            GOFLAGS="-mod=mod",
            GOPATH=str(Path(tmp, "gopath")),
            GOCACHE=str(Path(tmp, "gocache")),
        )
        try:
            done = subprocess.run(
                [str(go), "list", "-m", "-versions", GO_PROXY_MODULE],
                capture_output=True,
                text=True,
                timeout=60,
                env=env,
                cwd=tmp,
                check=False,
            )
        except subprocess.TimeoutExpired:
            raise ToolchainUnavailable("the Go module proxy did not answer in 60 s") from None
    if done.returncode != 0:
        raise ToolchainUnavailable(f"cannot list {GO_PROXY_MODULE}: {done.stderr.strip()[:300]}")
    versions = parse_go_proxy_versions(done.stdout)
    cache.parent.mkdir(parents=True, exist_ok=True)
    cache.write_text(json.dumps({"versions": versions}) + "\n")
    return versions


def parse_go_proxy_versions(listing: str) -> list[str]:
    """Go versions in ``go list -m -versions golang.org/toolchain`` output.

    Only linux-amd64 builds of stable releases from GO_PROXY_OLDEST on.
    """
    versions = set()
    for word in listing.split():
        match = re.fullmatch(r"v0\.0\.1-go(\d+\.\d+(?:\.\d+)?)\.linux-amd64", word)
        if match and version_key(match.group(1)) >= version_key(GO_PROXY_OLDEST):
            versions.add(match.group(1))
    return sorted(versions, key=version_key)


# --- Flix: a jar the user supplies ------------------------------------------------------

FLIX_UNAVAILABLE = "Flix is on no registry reachable here; set CHANFUZZ_FLIX_JAR=/path/to/flix.jar"


def _flix_toolchain(jar: Path) -> Toolchain:
    if not jar.is_file():
        raise ToolchainUnavailable(f"CHANFUZZ_FLIX_JAR={jar} does not exist")
    java = Path(shutil.which("java") or "/usr/bin/java")
    _executable(java, "java (for flix)")
    match = re.search(r"(\d+\.\d+(?:\.\d+)?)", jar.name)
    version = match.group(1) if match else "unknown"
    return Toolchain(
        language="flix",
        version=version,
        id=f"flix-{version}-env",
        origin="env",
        home=jar.parent,
        executable=java,
        runtime_classpath=(jar,),
    )


def _flix_candidates() -> Iterator[_Candidate]:
    configured = os.environ.get("CHANFUZZ_FLIX_JAR")
    if configured:
        jar = Path(configured)
        yield _Candidate("flix", "env", jar, lambda: _flix_toolchain(jar))
        return

    def missing() -> Toolchain:
        raise ToolchainUnavailable(FLIX_UNAVAILABLE)

    yield _Candidate("flix", "env", Path("$CHANFUZZ_FLIX_JAR"), missing)


_CANDIDATES["flix"] = _flix_candidates


# --- everything known: installed, installable, unavailable ----------------------------


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


def _from_status(status: ToolchainStatus) -> KnownToolchain:
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
    version = "?"
    if status.language == "go" and status.origin == "debian":
        return KnownToolchain("go", version, "not installed", "apt-get install golang-go", "debian")
    if status.language == "crystal" and status.origin == "debian":
        return KnownToolchain(
            "crystal", version, "not installed", "apt-get install crystal", "debian"
        )
    if status.language == "flix":
        return KnownToolchain("flix", version, "unavailable", status.reason, status.origin)
    state = "unavailable" if "not installed" not in status.reason else "not installed"
    return KnownToolchain(status.language, version, state, status.reason, status.origin)


def _known_go(offline: bool) -> list[KnownToolchain]:
    known = [_from_status(s) for s in available_toolchains("go")]
    have = {k.version for k in known if k.state == "installed"}
    try:
        served = go_proxy_versions(offline=offline)
    except ToolchainUnavailable as error:
        known.append(
            KnownToolchain(
                "go",
                f">={GO_PROXY_OLDEST}",
                "unavailable",
                f"Go module proxy: {error.reason}",
                "proxy",
            )
        )
        return known
    for version in served:
        if version in have:
            continue
        failed = _failure_reason("go", version)
        if failed:
            known.append(KnownToolchain("go", version, "unavailable", failed, "proxy"))
        else:
            hint = f"run manage.py toolchains install go {version}"
            known.append(KnownToolchain("go", version, "not installed", hint, "proxy"))
    return known


def _known_kotlin() -> list[KnownToolchain]:
    installed: dict[str, list[Toolchain]] = {}
    problems: list[KnownToolchain] = []
    for status in available_toolchains("kotlin"):
        if status.toolchain is not None:
            installed.setdefault(status.toolchain.version, []).append(status.toolchain)
        elif any(word in status.reason for word in ("incomplete", "unreadable", "has no")):
            problems.append(_from_status(status))
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
        failed = _failure_reason("kotlin", release.version)
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


def known_toolchains(language: str | None = None, *, offline: bool = False) -> list[KnownToolchain]:
    """Every toolchain version chanfuzz knows of, installed or not, and why not.

    Go asks the Go module proxy (at most daily; ``offline`` uses the cache only).
    """
    languages = REGISTERED_LANGUAGES if language is None else (language,)
    known: list[KnownToolchain] = []
    for lang in languages:
        _check_language(lang)
        if lang == "go":
            known += _known_go(offline)
        elif lang == "kotlin":
            known += _known_kotlin()
        else:
            known += [_from_status(s) for s in available_toolchains(lang)]
    return known


# --- public API ------------------------------------------------------------------


def _check_language(language: str) -> None:
    if language not in _CANDIDATES:
        raise ValueError(f"unknown language {language!r}; known: {', '.join(REGISTERED_LANGUAGES)}")


def available_toolchains(language: str | None = None) -> list[ToolchainStatus]:
    """Every known toolchain place, in order of preference, installed or not (and why not)."""
    languages = LANGUAGES if language is None else (language,)
    statuses = []
    for lang in languages:
        _check_language(lang)
        for candidate in _CANDIDATES[lang]():
            toolchain: Toolchain | None = None
            reason = ""
            try:
                toolchain = candidate.locate()
            except ToolchainUnavailable as error:
                reason = error.reason
            statuses.append(
                ToolchainStatus(lang, candidate.origin, str(candidate.location), toolchain, reason)
            )
    return statuses


def installed_toolchains(language: str | None = None) -> list[Toolchain]:
    """The installed toolchains, in order of preference."""
    return [s.toolchain for s in available_toolchains(language) if s.toolchain is not None]


def _version_matches(wanted: str, toolchain: Toolchain) -> bool:
    # "1.19" selects 1.19.8; an id selects exactly that toolchain.
    return wanted in (toolchain.version, toolchain.id) or toolchain.version.startswith(wanted + ".")


def find_toolchain(language: str, version: str | None = None) -> Toolchain:
    """The preferred installed toolchain for ``language`` (of ``version``, if given).

    ``version`` is matched against the version (``"1.26.8"``, or a prefix such as
    ``"1.26"``) or the id (``"go-1.19.8-debian"``). Raises ToolchainUnavailable
    saying what was looked for and why nothing fit.
    """
    _check_language(language)
    statuses = available_toolchains(language)
    for status in statuses:
        if status.toolchain is not None and (
            version is None or _version_matches(version, status.toolchain)
        ):
            return status.toolchain
    wanted = f"{language} {version}" if version else language
    installed = [s.toolchain.id for s in statuses if s.toolchain is not None]
    problems = [s.reason for s in statuses if s.toolchain is None]
    if installed:
        reason = f"{wanted} not installed (installed: {', '.join(installed)})"
    elif problems:
        reason = "; ".join(problems)
    else:
        reason = f"{wanted} not installed: {INSTALL_HINT}"
    raise ToolchainUnavailable(reason)


def main() -> None:
    for status in available_toolchains():
        toolchain = status.toolchain
        if toolchain is not None:
            print(f"{status.language:8} yes  {toolchain.id:40} {toolchain.describe()}")
        else:
            print(f"{status.language:8} no   {status.location:40} {status.reason}")


if __name__ == "__main__":
    main()

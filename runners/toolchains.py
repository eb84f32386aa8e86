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

It does not compile or run anything (see :mod:`runners.build`) and installs
nothing (see ``scripts/install_toolchains.sh``). Everything here is discovered
from the file system on each call, so installing a toolchain needs no restart;
the only cost is reading a few small files (version probes that must run a
binary are memoised per binary and modification time).

Run ``python -m runners.toolchains`` to print what is installed.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
INSTALL_HINT = "run scripts/install_toolchains.sh"
LANGUAGES = ("go", "crystal", "kotlin")

# What scripts/install_toolchains.sh installs for Kotlin, one line per toolchain.
KOTLIN_VERSIONS_FILE = REPO_ROOT / "toolchains" / "kotlin" / "versions.txt"
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
        raise ToolchainUnavailable(f"kotlin toolchain {directory.name} {state}: {INSTALL_HINT}")
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
    if manifest.get("java_version"):
        components.append(("java", manifest["java_version"]))
    components.append(("jvm-target", str(manifest.get("jvm_target") or DEFAULT_JVM_TARGET)))
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


# --- public API ------------------------------------------------------------------


def _check_language(language: str) -> None:
    if language not in _CANDIDATES:
        raise ValueError(f"unknown language {language!r}; known: {', '.join(LANGUAGES)}")


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

"""kotlinx.coroutines releases and how each is installed: the release table, the compiler
each is paired with, and the renderer options each needs.

Every stable release from 0.19 is listed in ``toolchains/kotlin/releases.txt``
(regenerated from Maven Central by ``python -m runners.engine.install
kotlin-releases``); ``toolchains/kotlin/versions.txt`` names the ones the install
script installs by default. A release is installed with the Kotlin compiler it
was built with, unless that compiler does not run on the JDK here (then the
nearest that does, recorded as a substitution). Shared by the target's
declaration (:mod:`runners.targets.kotlin`) and its installer
(:mod:`runners.targets.kotlin_install`).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from runners.targets.base import REPO_ROOT, version_key
from runners.targets.jvm import JAVA_MAJOR as KOTLIN_JAVA_MAJOR

# What scripts/install_toolchains.sh installs for Kotlin, one line per toolchain.
KOTLIN_DIR = REPO_ROOT / "toolchains" / "kotlin"


KOTLIN_VERSIONS_FILE = KOTLIN_DIR / "versions.txt"


# Every kotlinx-coroutines release from 0.19 (generated from Maven Central).
KOTLIN_RELEASES_FILE = KOTLIN_DIR / "releases.txt"


# The releases CI installs and runs the regression fixture on (a few that differ).
KOTLIN_REPRESENTATIVE_FILE = KOTLIN_DIR / "representative.txt"


def representative_kotlin_releases(path: Path = KOTLIN_REPRESENTATIVE_FILE) -> list[str]:
    """The versions toolchains/kotlin/representative.txt names, oldest first."""
    versions = [line.split("#", 1)[0].strip() for line in path.read_text().splitlines()]
    return sorted((v for v in versions if v), key=version_key)


# Layout of a Kotlin toolchain directory (toolchain.json "layout"): bump when it
# changes, older ones are then installed again. 3: the training program loads what most
# generated programs load (toolchains/kotlin/training), so the archives hold it.
KOTLIN_LAYOUT = 3


# Kotlin toolchains that do not say otherwise in toolchain.json compile for this.
DEFAULT_JVM_TARGET = "17"


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
    A receive that may find its channel closed (beyond the paper) is written with
    ``receiveCatching``, which exists from 1.5; the modern releases before it
    get ``receiveOrNull`` (``closed_receive``: the experimental layout has no
    other, so the renderer's default there needs no key).
    """
    key = version_key(coroutines_version)
    options = {
        "package_layout": "experimental" if key < (1, 0) else "modern",
        "duplicate_clauses": "merge" if key >= (1, 7) else "keep",
    }
    if (1, 0) <= key < (1, 5):
        options["closed_receive"] = "or_null"
    return options


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


# JVM flags for the Kotlin compiler: C1 only and the serial collector start and
# finish a short compile fastest; a deep stack because generated programs can
# nest selects and ifs deeply. C1 alone gets a 48 MB code cache, and a compiler
# kept running fills it (2.2.20's needs about 50 MB): the JVM then flushed
# thousands of compiled methods at a time and compiled them again, and a batch of
# 100 programs took 7.9 s instead of 4 (one core); with room for them all, 3.1 s.
# The install dumps the class-data archive with these flags (kotlin_install.py).
# The cds logging is off because a stale archive is merely not used, which is no
# reason to print.
KOTLINC_JVM_FLAGS = (
    "-XX:TieredStopAtLevel=1",
    "-XX:+UseSerialGC",
    "-Xss16m",
    "-XX:ReservedCodeCacheSize=256m",
)


KOTLINC_MAIN = "org.jetbrains.kotlin.cli.jvm.K2JVMCompiler"

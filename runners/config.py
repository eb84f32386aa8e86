"""Every environment variable chanfuzz reads, with its default and meaning, in one place.

Each setting is a function read at call time, so a test or a command can change
the environment and see the effect without re-importing anything. ``VARIABLES``
lists them all; the README's Configuration table is checked against it by a test.
Django's own settings (chanfuzz_site/settings.py) read theirs through here too.
Standard library only: scripts/install_toolchains.sh runs the installer with any
Python 3.11, before the project's virtualenv exists.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}


class ConfigError(ValueError):
    """An environment variable holds a value chanfuzz cannot use."""


@dataclass(frozen=True)
class Variable:
    name: str
    default: str
    meaning: str


VARIABLES: tuple[Variable, ...] = (
    Variable(
        "DJANGO_SECRET_KEY",
        "a fixed development key",
        "required when `DJANGO_DEBUG` is false: the project refuses to start with the "
        "development key then",
    ),
    Variable(
        "DJANGO_DEBUG",
        "`true`",
        "`true`/`false` (also `1`/`0`, `yes`/`no`, `on`/`off`); any other value is an error",
    ),
    Variable(
        "DJANGO_ALLOWED_HOSTS",
        "`localhost,127.0.0.1,[::1]`",
        "comma-separated host names the site answers to",
    ),
    Variable(
        "DATABASE_URL",
        "`sqlite:///$CHANFUZZ_VAR_DIR/db.sqlite3`",
        "any URL `dj-database-url` understands; `postgres://user:password@host:5432/name` "
        "works (psycopg is a dependency)",
    ),
    Variable("REDIS_URL", "`redis://127.0.0.1:6379/0`", "the Redis for the job queue"),
    Variable("CHANFUZZ_VAR_DIR", "`<repo>/var`", "where run-time data goes"),
    Variable(
        "CHANFUZZ_SANDBOX", "`local`", "`local` (bubblewrap), `docker` or `none` (see Sandboxes)"
    ),
    Variable("CHANFUZZ_TOOLCHAINS_DIR", "`<repo>/var/toolchains`", "installed toolchains"),
    Variable("CHANFUZZ_CACHE_DIR", "`<repo>/var/cache`", "artifact cache and compiler caches"),
    Variable(
        "CHANFUZZ_ARTIFACT_CACHE_GB",
        "`10`",
        "cap of the artifact cache; least recently used entries go first "
        "(none used in the last hour)",
    ),
    Variable(
        "CHANFUZZ_LOAD_DOCUMENTED",
        "`1`",
        "`migrate` loads the programs README.md and docs/ link to (`0`: an empty database)",
    ),
    Variable(
        "CHANFUZZ_GO", "found on the machine", "use this `go` binary instead of the ones found"
    ),
    Variable(
        "CHANFUZZ_CRYSTAL",
        "found on the machine",
        "use this `crystal` binary instead of the one found",
    ),
    Variable(
        "CHANFUZZ_CARGO",
        "`cargo` on `PATH`, else rustup's or Debian's",
        "the cargo (and the rustc beside it) the Rust targets build with",
    ),
    Variable(
        "CHANFUZZ_JAVA",
        "a Java 17 found via `JAVA_HOME`, `PATH` or `/usr/lib/jvm`",
        "the `java` Kotlin toolchains are installed and run with",
    ),
    Variable(
        "CHANFUZZ_FLIX_JAR",
        "unset",
        "a Flix compiler jar of your own (none can be installed here)",
    ),
    Variable(
        "CHANFUZZ_GOPROXY",
        "`https://proxy.golang.org`",
        "the Go module proxy Go toolchains are listed and downloaded from",
    ),
    Variable(
        "CHANFUZZ_MAVEN_CENTRAL",
        "`https://repo.maven.apache.org/maven2`",
        "the Maven repository kotlinx-coroutines releases are listed from",
    ),
    Variable(
        "CHANFUZZ_DOCKER_HOST",
        "`DOCKER_HOST`, else `/var/run/docker.sock`, then podman's socket",
        "the engine of the docker sandbox",
    ),
    Variable(
        "CHANFUZZ_DOCKER_IMAGE_PREFIX",
        "`localhost/chanfuzz-`",
        "the docker sandbox runs target T in image `<prefix>T` (built from `docker/T.Dockerfile`)",
    ),
    Variable(
        "CHANFUZZ_DOCKER_IMAGE",
        "the Go image",
        "the image a docker sandbox runs in when no target chose one (debugging)",
    ),
    # Read by scripts/install_sandbox.sh (the docker backend's images).
    Variable(
        "CHANFUZZ_SANDBOX_IMAGES",
        "every target with a Dockerfile",
        "`scripts/install_sandbox.sh`: the targets to build runtime images for",
    ),
    Variable(
        "CHANFUZZ_SANDBOX_DOCKER",
        "`1`",
        "`scripts/install_sandbox.sh`: `0` skips podman and the images (bubblewrap only)",
    ),
    Variable(
        "CHANFUZZ_DOCKER_BASE",
        "a debootstrapped bookworm",
        "`scripts/install_sandbox.sh`: the base image for the Dockerfiles (skips debootstrap)",
    ),
    Variable(
        "CHANFUZZ_PODMAN_SOCKET",
        "`/run/podman/podman.sock`",
        "`scripts/install_sandbox.sh`: where podman serves the Docker API",
    ),
    Variable(
        "CHANFUZZ_DEBIAN_MIRROR",
        "`http://deb.debian.org/debian`",
        "`scripts/install_sandbox.sh`: the mirror debootstrap uses",
    ),
    # Set by chanfuzz for the programs it runs.
    Variable(
        "CHANFUZZ_PROGRAM",
        "set per run",
        "which program of a Flix 0.5 batch runs (its `main` takes no arguments)",
    ),
    # Read by the test suite only.
    Variable(
        "CHANFUZZ_THOROUGH",
        "unset",
        "tests: `1` makes the property tests run thousands of examples, as `CI=true` does",
    ),
    Variable(
        "CHANFUZZ_UPDATE_GOLDEN",
        "unset",
        "tests: `1` rewrites the renderers' golden files instead of comparing",
    ),
    Variable(
        "CHANFUZZ_KOTLIN_HOME",
        "the newest installed Kotlin toolchain",
        "tests: the Kotlin toolchain directory the Kotlin renderer tests compile with",
    ),
    Variable("CHANFUZZ_CHROMIUM", "`/usr/bin/chromium`", "tests: the browser Playwright drives"),
)


def text(name: str, default: str = "") -> str:
    """The variable's value, or ``default`` when it is unset or empty."""
    return os.environ.get(name) or default


def flag(name: str, default: bool) -> bool:
    """1/true/yes/on or 0/false/no/off (any case); unset or empty gives ``default``.

    Anything else is an error naming the variable: a typo in ``DJANGO_DEBUG`` must
    not turn debug on (or off) unnoticed.
    """
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    if raw.lower() in _TRUE:
        return True
    if raw.lower() in _FALSE:
        return False
    raise ConfigError(f"{name}={raw!r}: expected one of true/false, yes/no, on/off, 1/0")


def words(name: str, default: list[str]) -> list[str]:
    """A comma-separated list, items stripped and empty ones dropped; unset gives ``default``."""
    raw = os.environ.get(name, "").strip()
    if not raw:
        return list(default)
    return [part.strip() for part in raw.split(",") if part.strip()]


def path(name: str, default: Path) -> Path:
    configured = os.environ.get(name)
    return Path(configured) if configured else default


# --- the web app's settings (chanfuzz_site/settings.py) ---------------------------------

# The key a development checkout runs with. It is public (it is in the repo), so
# a deployment with debug off must never sign sessions or tokens with it.
DEV_SECRET_KEY = "chanfuzz-dev-insecure-key-do-not-use-in-production"


def django_debug() -> bool:
    return flag("DJANGO_DEBUG", True)


def django_secret_key() -> str:
    return text("DJANGO_SECRET_KEY", DEV_SECRET_KEY)


def django_allowed_hosts() -> list[str]:
    return words("DJANGO_ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]"])


def database_url() -> str:
    return text("DATABASE_URL", f"sqlite:///{var_dir().resolve() / 'db.sqlite3'}")


def redis_url() -> str:
    return text("REDIS_URL", "redis://127.0.0.1:6379/0")


# --- chanfuzz's own settings ------------------------------------------------------------


def var_dir() -> Path:
    return path("CHANFUZZ_VAR_DIR", REPO_ROOT / "var")


def toolchains_dir() -> Path:
    return path("CHANFUZZ_TOOLCHAINS_DIR", REPO_ROOT / "var" / "toolchains")


def cache_dir() -> Path:
    return path("CHANFUZZ_CACHE_DIR", REPO_ROOT / "var" / "cache")


def artifact_cache_max_bytes() -> int:
    """``CHANFUZZ_ARTIFACT_CACHE_GB`` (default 10) as bytes: the artifact cache's cap."""
    raw = text("CHANFUZZ_ARTIFACT_CACHE_GB", "10")
    try:
        gigabytes = float(raw)
    except ValueError:
        raise ConfigError(f"CHANFUZZ_ARTIFACT_CACHE_GB={raw!r}: expected a number") from None
    if not gigabytes > 0:
        raise ConfigError(f"CHANFUZZ_ARTIFACT_CACHE_GB={raw!r}: must be positive")
    return int(gigabytes * 1024**3)


def load_documented() -> bool:
    return flag("CHANFUZZ_LOAD_DOCUMENTED", True)


def sandbox_backend(default: str) -> str:
    return text("CHANFUZZ_SANDBOX", default)


def binary_override(name: str) -> Path | None:
    """``CHANFUZZ_GO`` / ``CHANFUZZ_CRYSTAL`` / ``CHANFUZZ_JAVA``: a binary chosen by hand."""
    value = text(name)
    return Path(value) if value else None


def flix_jar() -> Path | None:
    value = text("CHANFUZZ_FLIX_JAR")
    return Path(value) if value else None


def goproxy() -> str:
    return text("CHANFUZZ_GOPROXY", "https://proxy.golang.org")


def maven_central() -> str:
    return text("CHANFUZZ_MAVEN_CENTRAL", "https://repo.maven.apache.org/maven2")


def docker_hosts() -> list[str]:
    """Docker engine addresses chosen by hand, most specific first (may be empty)."""
    return [v for v in (text("CHANFUZZ_DOCKER_HOST"), text("DOCKER_HOST")) if v]


def docker_image_prefix(default: str) -> str:
    return text("CHANFUZZ_DOCKER_IMAGE_PREFIX", default)


def docker_image() -> str:
    return text("CHANFUZZ_DOCKER_IMAGE")


def thorough() -> bool:
    return text("CHANFUZZ_THOROUGH") == "1"

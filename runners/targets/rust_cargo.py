"""What the Rust targets share: a channel crate's releases as toolchains, built with cargo.

Each Rust target tests one channel library (crossbeam-channel, flume, flume on
tokio, chan, or the standard library's ``sync_channel``) and is declared in its
own module (``rust_crossbeam.py``, …) from a :class:`RustLibrary`. A *toolchain*
of such a target is one release of its crate, built with the machine's
rustc/cargo:

- ``manage.py toolchains install rust-flume 0.10.14`` resolves that exact
  release (a yanked one too, with ``cargo update --precise``), fetches it and
  every dependency from crates.io into a cargo home shared by all Rust
  toolchains (``$CHANFUZZ_TOOLCHAINS_DIR/.cargo-home``), and compiles the
  dependencies once into the toolchain's own target directory
  (``rust-<crate>-<version>/target``). ``toolchain.json`` is written last; a
  release that does not build with this rustc is recorded as unavailable with
  the compiler's words, and ``toolchains list`` says so.
- Builds are then offline and locked (``cargo build --release --offline
  --locked``): a batch's ``main.rs`` is the only thing compiled, its binary
  named after the work directory so that batches built one after another in
  the shared target directory never overwrite each other's product.
- The list of releases comes from crates.io's sparse index, asked at most
  once a day (cached beside the toolchains): ``rust_crates``, with the
  machine's cargo and rustc. What a target tests and the ``Cargo.toml`` of its
  programs are ``rust_library``'s; how a run is read, ``rust_reading``'s.

The standard library's channels need no crate: the ``rust-std`` toolchain is
the machine's rustc itself.

A crate's *mutants* (runners.mutation.rust_mutants) are toolchains too, of
origin "mutant": a release whose crate a cargo ``[patch]`` replaces with a
mutated copy, found after the releases (see "mutant toolchains" below).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import re
import shutil
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

from generator.capabilities import Capabilities
from generator.render import THREADS_VARIABLE
from runners import config
from runners.targets.base import (
    BuildPlan,
    Candidate,
    InstallError,
    KnownToolchain,
    Log,
    RunSettings,
    TargetSpec,
    Toolchain,
    ToolchainStatus,
    ToolchainUnavailable,
    clear_failure,
    failure_reason,
    installed_candidates,
    known_from_status,
    record_failure,
    run_tool,
    stderr_log,
    tail,
    version_key,
)
from runners.targets.rust_crates import (
    CrateRelease,
    cargo_env,
    cargo_home,
    crate_releases,
    find_cargo,
    rustc_version,
)
from runners.targets.rust_library import PACKAGE, SOURCE_FILE, RustLibrary, manifest_text
from runners.targets.rust_reading import hang_shape, read_crash, stack_dump

# Bump when the layout of a toolchain directory changes: older ones install again.
LAYOUT = 1
BUILD_TIMEOUT_S = 1800
# A panic prints its backtrace (symbol names stay in release builds): the frames sign it.
RUN_ENV = {"RUST_BACKTRACE": "1"}
# A shared run's quiet period (TargetSpec.shared_quiet_s): its quiet watch samples every
# 0.05 s then, so a batch holds 0.1-0.15 s for each hang instead of 0.25-0.5 s.
RUST_SHARED_QUIET_S = 0.1
# Programs a batch may have waiting aside at once (TargetSpec.hangs_aside): a hung Rust
# program holds ~3 MiB. On flume (a hang in a sixth of its programs, each waiting out its
# quiet period and re-runs) a batch of 225 waited 12.5 s of its 24 s for one of 4 to end;
# with 12, 0.8 s of 13 s (one core). With shared runs on lanes (below) a batch reaches its
# hangs faster: 300 programs, 50 of them hung, waited 5.6 s for one of 12 to end; with 32,
# none (at most 183 processes of 360 MiB in all, with 48).
RUST_HANGS_ASIDE = 32
# Shared runs of a batch under way at once (TargetSpec.shared_runs_at_once): on flume a
# sixth of the programs hang, so most shared runs stop in one after a few programs and wait
# 0.1-0.15 s for their quiet period to cut them, the core idle unless another run has it.
# The same 300 programs, one core: runs 10.7 s with one lane, 6.3-7.6 s with 3 or 4.
RUST_SHARED_RUNS_AT_ONCE = 4


# --- toolchains: discovery -------------------------------------------------------------------


def toolchain_dir(library: RustLibrary, version: str) -> Path:
    return config.toolchains_dir() / f"{library.target}-{version}"


def _installed(library: RustLibrary, directory: Path) -> Toolchain:
    manifest_path = directory / "toolchain.json"
    if not manifest_path.is_file():
        raise ToolchainUnavailable(f"{directory.name} is not installed completely")
    try:
        manifest = json.loads(manifest_path.read_text())
        version = manifest["version"]
        built_with = manifest["rustc"]
    except (ValueError, KeyError) as error:
        raise ToolchainUnavailable(f"{manifest_path} is unreadable ({error})") from None
    if manifest.get("layout") != LAYOUT:
        raise ToolchainUnavailable(
            f"{directory.name} has an old layout: manage.py toolchains install "
            f"{library.target} {version} --force"
        )
    cargo = find_cargo()
    rustc = rustc_version(cargo)
    if rustc != built_with:
        # Its dependencies were compiled by another rustc: they would all build again.
        raise ToolchainUnavailable(
            f"{directory.name} was installed with rustc {built_with}, this machine has "
            f"{rustc}: manage.py toolchains install {library.target} {version} --force"
        )
    return Toolchain(
        language=library.target,
        version=version,
        id=directory.name,
        origin="installed",
        home=directory,
        executable=cargo,
        components=(("crate", library.crate or "std"), ("rustc", rustc)),
    )


def _std_toolchain(library: RustLibrary) -> Toolchain:
    cargo = find_cargo()
    rustc = rustc_version(cargo)
    return Toolchain(
        language=library.target,
        version=rustc,
        id=f"{library.target}-{rustc}",
        origin="machine",
        home=config.cache_dir() / "cargo" / f"{library.target}-{rustc}",
        executable=cargo,
        components=(("rustc", rustc),),
    )


def candidates(library: RustLibrary) -> Callable[[], Iterator[Candidate]]:
    def each() -> Iterator[Candidate]:
        if library.crate is None:
            yield Candidate(
                library.target,
                "machine",
                Path("cargo"),
                lambda: _std_toolchain(library),
                "apt-get install cargo",
            )
            return
        base = config.toolchains_dir()
        # rust-flume-* also matches rust-flume-async-*: another target's releases.
        own = re.compile(re.escape(library.target) + r"-\d+\.\d+\.\d+")
        found = sorted(
            (m.parent for m in base.glob(f"{library.target}-*/toolchain.json")
             if own.fullmatch(m.parent.name)),
            key=lambda d: version_key(d.name.rsplit("-", 1)[-1]),
            reverse=True,  # newest first: find_toolchain prefers it
        )  # fmt: skip
        yield from installed_candidates(
            library.target,
            found,
            lambda d: _installed(library, d),
            pattern=base / f"{library.target}-*",
            what=library.crate,
        )
        # Mutants last: asked for by id, never chosen as "the newest release".
        yield from _mutant_candidates(library)

    return each


def known(library: RustLibrary) -> Callable[[bool, list[ToolchainStatus]], list[KnownToolchain]]:
    """Installed releases and every other release on crates.io, with why not installed."""

    def listing(offline: bool, statuses: list[ToolchainStatus]) -> list[KnownToolchain]:
        if library.crate is None:
            return [known_from_status(s) for s in statuses]
        # A mutant has its base's version: it is listed after the releases, not as one.
        mutants = [known_from_status(s) for s in statuses if s.origin == "mutant"]
        statuses = [s for s in statuses if s.origin != "mutant"]
        installed = {s.toolchain.version: known_from_status(s) for s in statuses if s.toolchain}
        # Broken installs; the place holder saying how to install one (it has a
        # hint) is what the release list below says release by release.
        problems = [known_from_status(s) for s in statuses if not s.toolchain and not s.hint]
        try:
            releases = crate_releases(library.crate, offline=offline)
        except ToolchainUnavailable as error:
            unlisted = KnownToolchain(library.target, "*", "unavailable", error.reason, "crates.io")
            return [*installed.values(), *problems, unlisted, *mutants]
        listed = []
        for release in releases:
            note = "yanked on crates.io" if release.yanked else ""
            if release.version in installed:
                entry = installed.pop(release.version)
            elif failed := failure_reason(library.target, release.version):
                entry = KnownToolchain(
                    library.target, release.version, "unavailable", failed, "crates.io"
                )
            else:
                hint = f"run manage.py toolchains install {library.target} {release.version}"
                entry = KnownToolchain(
                    library.target, release.version, "not installed", hint, "crates.io"
                )
            listed.append(dataclasses.replace(entry, note=note))
        return [*listed, *installed.values(), *problems, *mutants]

    return listing


# --- mutant toolchains ------------------------------------------------------------------------
#
# runners.mutation.rust_mutants writes them (it imports the registry, so the
# registry reads them itself). A mutant of release toolchain B is the directory
# <mutants_dir(crate)>/<B's id>/<mutant id>/ holding ``crate/`` (the crate's
# source with one change), a probe project (Cargo.toml with a [patch] to
# ``crate/``, Cargo.lock, src/main.rs) and ``mutant.json``, written last. The
# mutants of one base share the target directory beside them
# (<mutants_dir(crate)>/<B's id>/target): dependencies are compiled once for all.

MUTANT_CRATE_DIR = "crate"


def mutants_dir(crate: str) -> Path:
    """Where the mutant toolchains of ``crate`` live."""
    return config.toolchains_dir() / "mutants" / crate


def base_cargo_home(toolchain: Toolchain) -> Path:
    """The cargo home holding the crates a toolchain builds from, offline: a release's is
    beside it, a mutant's its base's, wherever the mutant is installed (the same directory
    as cargo_home() unless $CHANFUZZ_TOOLCHAINS_DIR changed since)."""
    if toolchain.origin == "mutant":
        return Path(_mutant_meta(toolchain.home)["cargo_home"])
    if toolchain.origin == "installed":
        return toolchain.home.parent / ".cargo-home"
    return cargo_home()


def _mutant_meta(directory: Path) -> dict:
    path = directory / "mutant.json"
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError) as error:
        raise ToolchainUnavailable(f"unreadable mutant {path}: {error}") from None


def _mutant_candidates(library: RustLibrary) -> Iterator[Candidate]:
    assert library.crate is not None
    # The base's directory name says which target a mutant belongs to
    # (rust-flume-0.12.0, not rust-flume-async-0.12.0).
    own = re.compile(re.escape(library.target) + r"-\d+\.\d+\.\d+")
    for meta in sorted(mutants_dir(library.crate).glob("*/*/mutant.json")):
        if own.fullmatch(meta.parent.parent.name):
            yield Candidate(
                library.target, "mutant", meta.parent,
                lambda d=meta.parent: mutant_toolchain(library, d),
            )  # fmt: skip


def mutant_toolchain(library: RustLibrary, directory: Path) -> Toolchain:
    """The mutant installed in ``directory``: its base release with the mutated crate patched in."""
    meta = _mutant_meta(directory)
    # One that does not compile is a toolchain all the same: its builds fail with the
    # compiler's words, as a Go mutant's do (mutant.json says so beforehand).
    base = _installed(library, Path(meta["base_home"]))
    return dataclasses.replace(
        base,
        id=f"{base.id}-mutant-{meta['id']}",
        origin="mutant",
        home=directory,
        components=(
            *base.components,
            ("mutant", f"{meta['file']}:{meta['line']} {meta['operator']}"),
        ),
    )


def mutant_manifest(library: RustLibrary, version: str, directory: Path, bin_name: str) -> str:
    """The Cargo.toml of a program built with the mutant in ``directory``."""
    path = json.dumps(str(directory / MUTANT_CRATE_DIR))  # a JSON string is a TOML string
    return (
        manifest_text(library, version, bin_name=bin_name)
        + f"[patch.crates-io]\n{library.crate} = {{ path = {path} }}\n"
    )


def build_mutant(library: RustLibrary, base: Toolchain, directory: Path) -> str | None:
    """Write the probe project of the mutant whose crate copy is in ``directory`` and compile
    it with its dependencies (offline, from ``base``'s crates): None when it builds, else the
    compiler's words."""
    (directory / "src").mkdir(exist_ok=True)
    (directory / SOURCE_FILE).write_text(_probe_source())
    (directory / "Cargo.toml").write_text(
        mutant_manifest(library, base.version, directory, PACKAGE)
    )
    # The base's lock file, which cargo then changes only where the patch replaces the crate.
    shutil.copyfile(base.home / "Cargo.lock", directory / "Cargo.lock")
    env = cargo_env(directory.parent / "target", base_cargo_home(base))
    argv = [str(base.executable), "build", "--release", "--offline", "--quiet"]
    done = run_tool(argv, timeout=BUILD_TIMEOUT_S, env=env, cwd=directory)
    return None if done.returncode == 0 else tail(done.stderr + done.stdout, 4000)


# --- toolchains: install -------------------------------------------------------------------


def _probe_source() -> str:
    # What the toolchain's dependencies are compiled for: any main will do, the
    # dependency graph and its features come from Cargo.toml.
    return "fn main() {}\n"


def install(library: RustLibrary) -> Callable[..., Path]:
    def install_release(version: str, *, force: bool = False, log: Log = stderr_log) -> Path:
        if library.crate is None:
            raise InstallError(
                "the standard library comes with rustc: nothing to install (apt-get install cargo)"
            )
        try:
            releases = {r.version: r for r in crate_releases(library.crate)}
        except ToolchainUnavailable as error:
            raise InstallError(error.reason) from None  # the index, not the release
        if version not in releases:  # a typo, not a broken release: nothing recorded
            raise InstallError(
                f"{version} is not a release of {library.crate} on crates.io; releases: "
                f"{', '.join(sorted(releases, key=version_key))}"
            )
        try:
            return _install(library, releases[version], force=force, log=log)
        except InstallError as error:
            record_failure(library.target, version, str(error))
            raise
        except (OSError, ToolchainUnavailable) as error:
            reason = getattr(error, "reason", str(error))
            record_failure(library.target, version, reason)
            raise InstallError(reason) from None

    return install_release


def _install(library: RustLibrary, release: CrateRelease, *, force: bool, log: Log) -> Path:
    assert library.crate is not None
    version = release.version
    dest = toolchain_dir(library, version)
    cargo = find_cargo()
    rustc = rustc_version(cargo)
    if not force and (dest / "toolchain.json").is_file():
        try:
            _installed(library, dest)
        except ToolchainUnavailable:
            pass
        else:
            log(f"{dest.name} already installed")
            clear_failure(library.target, version)
            return dest
    started = time.monotonic()
    config.toolchains_dir().mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{dest.name}-", dir=config.toolchains_dir()))
    try:
        (staging / "src").mkdir()
        (staging / SOURCE_FILE).write_text(_probe_source())
        (staging / "Cargo.toml").write_text(manifest_text(library, version))
        # Dependencies are compiled into the final directory's target/, so build
        # there: cargo keys its fingerprints on absolute paths of the sources,
        # not of the target directory, but the directory must not move after.
        env = cargo_env(dest / "target")
        log(f"resolving {library.crate} {version} and its dependencies on crates.io")
        _cargo(cargo, ["generate-lockfile"], staging, env, "resolve the dependencies")
        _cargo(
            cargo,
            ["update", "-p", library.crate, "--precise", version],
            staging,
            env,
            f"pin {library.crate} {version}",
        )
        _cargo(cargo, ["fetch", "--locked"], staging, env, "fetch the crates")
        if dest.exists():
            shutil.rmtree(dest)
        staging.rename(dest)
        staging = dest
        log(f"compiling {library.crate} {version} and its dependencies with rustc {rustc}")
        _cargo(
            cargo,
            ["build", "--release", "--offline", "--locked", "--quiet"],
            dest,
            env,
            f"build with rustc {rustc}",
        )
        manifest = {
            "layout": LAYOUT,
            "target": library.target,
            "crate": library.crate,
            "version": version,
            "yanked": release.yanked,
            "rustc": rustc,
            "cargo": str(cargo),
            "installed_at": time.time(),
        }
        (dest / "toolchain.json").write_text(json.dumps(manifest, indent=2) + "\n")
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    clear_failure(library.target, version)
    log(f"installed {dest.name} in {time.monotonic() - started:.0f} s")
    return dest


def _cargo(cargo: Path, args: list[str], cwd: Path, env: dict[str, str], what: str) -> None:
    done = run_tool([str(cargo), *args], timeout=BUILD_TIMEOUT_S, env=env, cwd=cwd)
    if done.returncode != 0:
        raise InstallError(f"cannot {what}: {tail(done.stderr + done.stdout)}")


def install_defaults(library: RustLibrary, log: Log = stderr_log) -> list[Path]:
    """The releases toolchains/rust/versions.txt names for this target (none without cargo:
    the machine then simply has no Rust toolchain, and ``toolchains list`` says why)."""
    try:
        find_cargo()
    except ToolchainUnavailable as missing:
        log(f"{library.target}: skipped, {missing.reason}")
        return []
    return [install(library)(version, log=log) for version in default_versions(library)]


VERSIONS_FILE = config.REPO_ROOT / "toolchains" / "rust" / "versions.txt"


def default_versions(library: RustLibrary, path: Path = VERSIONS_FILE) -> list[str]:
    versions = []
    if not path.is_file():
        return versions
    for line in path.read_text().splitlines():
        fields = line.split("#", 1)[0].split()
        if len(fields) == 2 and fields[0] == library.target:
            versions.append(fields[1])
    return versions


# --- building --------------------------------------------------------------------------------


def build_plan(library: RustLibrary) -> Callable[[Toolchain, Path, Sequence[str]], BuildPlan]:
    def plan(toolchain: Toolchain, workdir: Path, flags: Sequence[str]) -> BuildPlan:
        # Batches of one toolchain build one after another in its target
        # directory (cargo locks it); each names its binary after its work
        # directory, so one batch's product is never another's.
        bin_name = "prog_" + hashlib.sha256(str(workdir).encode()).hexdigest()[:12]
        version = toolchain.version
        if toolchain.origin == "mutant":
            manifest = mutant_manifest(library, version, toolchain.home, bin_name)
            target_dir = toolchain.home.parent / "target"
        else:
            manifest = manifest_text(library, version, bin_name=bin_name)
            target_dir = toolchain.home / "target"
        files = [("Cargo.toml", manifest)]
        locked: list[str] = []
        if library.crate is not None:  # std has no dependency to lock
            files.append(("Cargo.lock", (toolchain.home / "Cargo.lock").read_text()))
            locked = ["--locked"]
        argv = (
            str(toolchain.executable),
            "build",
            "--release",
            "--offline",
            *locked,
            "--quiet",
            *flags,
        )
        return BuildPlan(
            argv,
            cargo_env(target_dir, base_cargo_home(toolchain)),
            workdir,
            target_dir / "release" / bin_name,
            writes=(target_dir,),
            files=tuple(files),
        )

    return plan


def render_options(
    library: RustLibrary,
) -> Callable[[Toolchain | None, RunSettings], dict[str, object]]:
    """What a run adds to the flavour: tokio's worker count, where the library runs on it."""

    def options(_toolchain: Toolchain | None, settings: RunSettings) -> dict[str, object]:
        if library.threads_option and settings.threads:
            return {"threads": settings.threads}
        return {}

    return options


# --- reproducer bundles -----------------------------------------------------------------------


def bundle_script(library: RustLibrary) -> str:
    """The run script of a reproducer bundle: a cargo project pinning the release under test."""
    manifest = manifest_text(library, "$VERSION", exact=True, features_on="$FEATURES")
    pin = ""
    if library.crate is not None:
        versions = default_versions(library)
        default = f"${{VERSION:-{versions[0]}}}" if versions else "${VERSION:?set VERSION}"
        pin = f"# VERSION: the {library.crate} release under test.\nVERSION={default}\n"
    if library.since:
        # The program's features that VERSION has: sort -V puts the older release first.
        pin += "FEATURES=\n"
        for name, first in library.since:
            pin += (
                f'if [ "$(printf \'%s\\n\' {first} "$VERSION" | sort -V | head -n 1)" = {first} ]; '
                f'then FEATURES="$FEATURES${{FEATURES:+, }}\\"{name}\\""; fi\n'
            )
    return (
        "CARGO=${CARGO:-cargo}\n"
        + pin
        + "mkdir -p src && mv main.rs src/main.rs\n"
        + "cat > Cargo.toml <<EOF\n"
        + manifest
        + "EOF\n"
        + '"$CARGO" build --release --quiet || exit 3\n'
        + f'timeout -k 5 "$TIMEOUT" ./target/release/{PACKAGE}\n'
    )


# --- the declaration every Rust target shares ----------------------------------------------

# Each Rust target's library, by target name (filled in as the registry loads them).
LIBRARIES: dict[str, RustLibrary] = {}


def target_spec(
    library: RustLibrary,
    *,
    title: str,
    extension: str,
    position: int,
    capabilities: Capabilities,
    concurrency: str,
    known_bugs: tuple[str, ...] = (),
) -> TargetSpec:
    """The TargetSpec of a Rust target: everything but what tells the libraries apart."""
    LIBRARIES[library.target] = library
    is_std = library.crate is None
    return TargetSpec(
        name=library.target,
        title=title,
        extension=extension,
        lexer="rust",
        position=position,
        renderer="rust",
        capabilities=capabilities,
        concurrency=concurrency,
        candidates=candidates(library),
        known=known(library),
        install=None if is_std else install(library),
        install_defaults=None if is_std else (lambda log: install_defaults(library, log)),
        not_installable="the standard library comes with rustc: apt-get install cargo"
        if is_std
        else "",
        source_file=SOURCE_FILE,
        build_plan=build_plan(library),
        renderer_options={"flavour": library.flavour},
        render_options=render_options(library),
        read_crash=read_crash,
        run_env=RUN_ENV,
        # tokio's workers, where the library runs on it; threads are the processes elsewhere.
        threads_env=(lambda n, _options: {THREADS_VARIABLE: str(n)})
        if library.threads_option
        else None,
        dump_command=stack_dump,
        hang_shape=hang_shape,
        # No runtime thread of a Rust program wakes while all of its own wait (tokio's
        # workers park until a task or a timer is due).
        shared_quiet_s=RUST_SHARED_QUIET_S,
        hangs_aside=RUST_HANGS_ASIDE,
        shared_runs_at_once=RUST_SHARED_RUNS_AT_ONCE,
        dockerfile="docker/rust.Dockerfile",
        bundle_script=bundle_script(library),
        known_bugs=known_bugs,
    )

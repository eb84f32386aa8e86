"""The Go target: goroutines, `chan struct{}` and `select`, on the machine's Go or any release
the Go module proxy serves; beyond the paper, buffered channels, `close` and `range`
(issue #15).

Toolchains: the machine's Go (``/usr/local/go/bin/go``, else ``go`` on PATH),
Debian's ``golang-go`` (``/usr/lib/go/bin/go``) when installed too, and any Go
unpacked under ``$CHANFUZZ_TOOLCHAINS_DIR/go-<version>/`` by :func:`install_go`
(``golang.org/toolchain`` from the Go module proxy, 1.21 and later).
``CHANFUZZ_GO=/path/to/go`` replaces all of these.

Builds: ``main.go`` + a minimal ``go.mod``; ``go build -trimpath -ldflags='-s -w'
-gcflags='-N -l -dwarf=false'`` with no network (GOPROXY=off, GOTOOLCHAIN=local) and a build cache
per toolchain. The generated package alone is compiled without optimisation or
inlining (`-gcflags` without a package pattern applies to the packages named only):
the runtime and its channel code, what is fuzzed, are compiled as always.
Runs: the static binary; SIGQUIT makes the runtime print every goroutine.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

from generator.capabilities import Capabilities
from runners import config
from runners.targets.base import (
    BuildPlan,
    Candidate,
    InstallError,
    KnownToolchain,
    Log,
    TargetSpec,
    Toolchain,
    ToolchainStatus,
    ToolchainUnavailable,
    clean_env,
    clear_failure,
    executable,
    failure_reason,
    known_from_status,
    record_failure,
    run_tool,
    stderr_log,
    tail,
    version_key,
)
from runners.targets.reading import TOP_FRAMES, message, normalise_frame, shape

MACHINE_GO = Path("/usr/local/go/bin/go")


DEBIAN_GO = Path("/usr/lib/go/bin/go")


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


def _go_toolchain(go: Path, origin: str) -> Toolchain:
    go = executable(go, "go")
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


def _go_candidates() -> Iterator[Candidate]:
    configured = config.binary_override("CHANFUZZ_GO")
    if configured is not None:
        # An explicit choice replaces discovery: silently using another Go would
        # attribute results to the wrong version.
        path = configured
        yield Candidate("go", "env", path, lambda: _go_toolchain(path, "env"))
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
        hint = "apt-get install golang-go" if origin == "debian" else ""
        yield Candidate("go", origin, path, lambda p=path, o=origin: _go_toolchain(p, o), hint)
    base = config.toolchains_dir()
    for goroot in sorted(base.glob("go-*")):
        go = goroot / "bin" / "go"
        if go.exists():
            yield Candidate("go", "installed", go, lambda g=go: _go_toolchain(g, "installed"))
    # Mutants last: asked for by id, never chosen as "the newest Go".
    # runners.mutation.go_mutants writes these directories (it imports the registry,
    # so the registry reads them itself).
    for meta_path in sorted(mutants_dir().glob("*/*/mutant.json")):
        yield Candidate("go", "mutant", meta_path.parent, lambda p=meta_path: _mutant_toolchain(p))


def mutants_dir() -> Path:
    """Where Go mutant toolchains live (runners.mutation.go_mutants)."""
    return config.toolchains_dir() / "mutants" / "go"


# Mutant toolchains already read, by their mutant.json and its mtime: a study installs
# hundreds, and reading each one's JSON again made every Go lookup (every program page,
# every form) cost 9 ms with a hundred installed.
_MUTANTS_READ: dict[Path, tuple[int, Toolchain]] = {}


def _mutant_toolchain(meta_path: Path) -> Toolchain:
    """The base Go with the mutant's file put over its runtime by `go build -overlay`."""
    try:
        stamp = meta_path.stat().st_mtime_ns
    except OSError as exc:
        raise ToolchainUnavailable(f"unreadable mutant {meta_path}: {exc}") from None
    known = _MUTANTS_READ.get(meta_path)
    if known is not None and known[0] == stamp and known[1].executable.exists():
        return known[1]
    toolchain = _read_mutant_toolchain(meta_path)
    _MUTANTS_READ[meta_path] = (stamp, toolchain)
    return toolchain


def _read_mutant_toolchain(meta_path: Path) -> Toolchain:
    try:
        meta = json.loads(meta_path.read_text())
    except (OSError, ValueError) as exc:
        raise ToolchainUnavailable(f"unreadable mutant {meta_path}: {exc}") from None
    directory = meta_path.parent
    goroot = Path(meta["goroot"])
    go = goroot / "bin" / "go"
    if not go.exists():
        raise ToolchainUnavailable(f"the base Go of mutant {meta['id']} is gone: {goroot}")
    return Toolchain(
        language="go",
        version=meta["version"],
        id=f"go-{meta['version']}-mutant-{meta['id']}",
        origin="mutant",
        home=goroot,
        executable=go.resolve(),
        components=(("mutant", f"{meta['file']}:{meta['line']} {meta['operator']}"),),
        compiler_args=("-overlay", str(directory / "overlay.json")),
    )


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
    cache = config.toolchains_dir() / ".cache" / "go-proxy-versions.json"
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
            GOPROXY=config.goproxy(),
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


def _known_go(offline: bool, statuses: list[ToolchainStatus]) -> list[KnownToolchain]:
    known = [known_from_status(s) for s in statuses]
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
        failed = failure_reason("go", version)
        if failed:
            known.append(KnownToolchain("go", version, "unavailable", failed, "proxy"))
        else:
            hint = f"run manage.py toolchains install go {version}"
            known.append(KnownToolchain("go", version, "not installed", hint, "proxy"))
    return known


def _go_env(tmp: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GO")}
    env.update(
        GOTOOLCHAIN="local",
        GOPROXY=config.goproxy(),
        GOFLAGS="-mod=mod",
        GONOSUMDB="",
        GOMODCACHE=str(config.toolchains_dir() / ".cache" / "gomod"),
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


def install_go(version: str, *, force: bool = False, log: Log = stderr_log) -> Path:
    """Install Go ``version`` (e.g. "1.22.12") from the Go module proxy into ``go-<version>/``."""
    try:
        return _install_go(version, force=force, log=log)
    except (InstallError, subprocess.TimeoutExpired, OSError, ToolchainUnavailable) as error:
        record_failure("go", version, str(error))
        raise InstallError(str(error)) from None


def _install_go(version: str, *, force: bool, log: Log) -> Path:
    if not re.fullmatch(r"\d+\.\d+(\.\d+)?((rc|beta)\d+)?", version):
        raise InstallError(f"not a Go version: {version!r} (want e.g. 1.22.12)")
    dest = config.toolchains_dir() / f"go-{version}"
    if not force and (dest / "bin" / "go").exists() and (dest / "VERSION").is_file():
        log(f"go {version} already installed at {dest}")
        clear_failure("go", version)
        return dest
    go = _bootstrap_go()
    module = f"golang.org/toolchain@v0.0.1-go{version}.linux-amd64"
    started = time.monotonic()
    log(f"downloading {module} from the Go module proxy")
    config.toolchains_dir().mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=config.toolchains_dir(), prefix=".go-") as tmp_name:
        tmp = Path(tmp_name)
        (tmp / "mod").mkdir()
        (tmp / "mod" / "go.mod").write_text("module chanfuzz/toolchainfetch\n")
        env = _go_env(tmp)
        done = run_tool(
            [str(go), "mod", "download", "-json", module], timeout=1800, env=env, cwd=tmp / "mod"
        )
        info: dict[str, str] = {}
        with contextlib.suppress(ValueError):
            info = json.loads(done.stdout) if done.stdout.strip() else {}
        if done.returncode != 0 or not info.get("Dir"):
            raise InstallError(
                f"go mod download {module} failed: "
                f"{info.get('Error') or tail(done.stderr + done.stdout)}"
            )
        staging = tmp / "goroot"
        shutil.copytree(info["Dir"], staging, symlinks=True)
        # The module cache is read-only; the copy must be writable to be replaced later.
        for path in [staging, *staging.rglob("*")]:
            if not path.is_symlink():
                path.chmod(path.stat().st_mode | 0o200)
        for tool in [*(staging / "bin").glob("*"), *(staging / "pkg" / "tool").glob("*/*")]:
            tool.chmod(tool.stat().st_mode | 0o111)
        check = run_tool(
            [str(staging / "bin" / "go"), "version"],
            timeout=60,
            env={**env, "GOROOT": str(staging)},
        )
        if check.returncode != 0 or f"go{version}" not in check.stdout:
            raise InstallError(
                f"go {version} from the proxy does not run: {tail(check.stdout + check.stderr)}"
            )
        shutil.rmtree(dest, ignore_errors=True)
        staging.rename(dest)
    # The module cache copy is not needed any more (tens of MB each).
    _clean_go_modcache(go, env)
    clear_failure("go", version)
    log(f"installed go {version} at {dest} in {time.monotonic() - started:.0f} s")
    return dest


def _clean_go_modcache(go: Path, env: dict[str, str]) -> None:
    run_tool([str(go), "clean", "-modcache"], timeout=600, env=env)


def _go_language_version(version: str) -> str:
    """The go.mod language version of a Go release: "1.26.8" and "1.21rc2" give "1.26", "1.21"."""
    match = re.match(r"(\d+)\.(\d+)", version)
    if not match:
        raise ValueError(f"not a Go version: {version!r}")
    return f"{match[1]}.{match[2]}"


BUILD_GOGC = "800"


def _go_plan(toolchain: Toolchain, workdir: Path, flags: Sequence[str]) -> BuildPlan:
    # A minimal module: its go directive is the toolchain's own language
    # version, so each Go compiles with its native semantics (loop variables,
    # ...) and never asks for a newer toolchain; there are no requirements, so
    # nothing is ever downloaded.
    go_mod = f"module chanfuzzprog\n\ngo {_go_language_version(toolchain.version)}\n"
    # At the default GOGC=100 the compiler spends about a quarter of a batch's compile
    # collecting garbage (200 programs on one core: 2.7-3.3 s of CPU, 2.0-2.7 s at
    # GOGC=800, for a peak of 250 MB against 130). Only the build's: the programs and
    # the runtime's own tests keep Go's GC as it is.
    env = {**go_env(toolchain), "GOGC": BUILD_GOGC}
    product = workdir / "prog"
    argv = (
        str(toolchain.executable),
        "build",
        "-trimpath",
        "-ldflags=-s -w",
        # The generated code only (module docstring): a batch's compile is most of a Go
        # program's cost, and unoptimised it takes a third less time (200 programs:
        # 2.2-2.4 s against 1.5-1.9 s on one core here), as Rust's main.rs at opt-level 0.
        # No DWARF either: -ldflags=-w dropped it at the link, after the compiler had spent
        # 7 % of the compile writing it (500 programs, one core, 6 builds each way: median
        # 4.07 s against 3.79 s). Go's tracebacks and thread dumps read pclntab, not DWARF.
        "-gcflags=-N -l -dwarf=false",
        *toolchain.compiler_args,  # a mutant's -overlay
        *flags,
        "-o",
        str(product),
        ".",
    )
    return BuildPlan(argv, env, workdir, product, files=(("go.mod", go_mod),))


def go_env(toolchain: Toolchain) -> dict[str, str]:
    """The environment every go command of chanfuzz runs with: this toolchain only, its
    own caches, no network, no cgo (builds, and runners.mutation's runtime tests)."""
    cache = config.cache_dir()
    env = clean_env(("GO", "CGO_"))
    goflags = []
    minor = int(_go_language_version(toolchain.version).split(".")[1])
    if minor >= 18:
        goflags.append("-buildvcs=false")  # workdirs may sit inside a git checkout
    env.update(
        GOROOT=str(toolchain.home),
        GOCACHE=str(cache / "go-build" / toolchain.id),
        GOPATH=str(cache / "gopath" / toolchain.id),
        GOENV="off",  # ignore `go env -w` settings of whoever runs this
        GOFLAGS=" ".join(goflags),
        GOTOOLCHAIN="local",  # never switch to (or download) another Go
        GOPROXY="off",  # programs import only the standard library: no network
        GOSUMDB="off",
        GOWORK="off",
        GO111MODULE="on",
        CGO_ENABLED="0",  # static binaries, no C compiler involved
    )
    return env


_GO_DEADLOCK = "fatal error: all goroutines are asleep - deadlock!"


_GO_GOROUTINE = re.compile(r"^goroutine \d+(?: gp=\S+ m=\S+(?: mp=\S+)?)? \[([^\]]+)\]:", re.M)


_GO_FATAL = re.compile(r"^(panic|fatal error): (.*)$", re.M)


def _go_goroutine_blocks(text: str) -> list[tuple[str, list[str]]]:
    """(state, function names top first) for every goroutine in a Go traceback or dump."""
    blocks = []
    matches = list(_GO_GOROUTINE.finditer(text))
    for i, m in enumerate(matches):
        end = matches[i + 1].start() if i + 1 < len(matches) else len(text)
        frames = []
        for line in text[m.end() : end].splitlines():
            # Frames are `pkg.func(args)` lines; file:line follows on a tab-indented line.
            if line[:1].isspace() or not line.endswith(")") or line.startswith("created by"):
                continue
            frames.append(line.rpartition("(")[0])
        blocks.append((m.group(1).split(",")[0], frames))
    return blocks


def go_blocked_shape(text: str) -> str:
    """What the program's own goroutines wait on, e.g. "chan receive×2, select".

    The runtime's service goroutines (GC, finalizers, …) have no `main.` frame
    and are left out, so a dump and a deadlock report give the same shape.
    """
    states = [
        re.sub(r", \d+ minutes?", "", state)
        for state, frames in _go_goroutine_blocks(text)
        if any(f.startswith("main.") for f in frames)
    ]
    return shape(states)


def _go_crash(text: str) -> tuple[str, str] | None:
    if _GO_DEADLOCK in text:
        shape = go_blocked_shape(text)
        return "all goroutines are asleep - deadlock!", f"deadlock | {shape}"
    m = _GO_FATAL.search(text)
    if not m:
        return None
    kind, text_ = m.group(1), message(m.group(2))
    blocks = _go_goroutine_blocks(text[m.end() :])
    frames = [normalise_frame(f) for f in blocks[0][1]][:TOP_FRAMES] if blocks else []
    return f"{kind}: {text_}", f"{kind} | {text_} | {' < '.join(frames)}"


def hang_shape(dump: str) -> str:
    return go_blocked_shape(dump)


def _install(version: str, *, force: bool = False, log: Log = stderr_log) -> Path:
    return install_go(version, force=force, log=log)


# The reproducer bundle's run script (chanfuzz_site/bundles.py wraps it).
BUNDLE_SCRIPT = """GO=${GO:-go}
# A module of its own whose go directive is this toolchain's language version.
"$GO" mod init chanfuzzprog >/dev/null 2>&1
# As chanfuzz builds it: the program's own code unoptimised, the runtime as always.
CGO_ENABLED=0 "$GO" build -gcflags='-N -l' -o prog . || exit 3
# SIGQUIT on timeout makes the Go runtime print every goroutine's stack.
timeout -s QUIT -k 5 "$TIMEOUT" ./prog
"""

TARGET = TargetSpec(
    name="go",
    title="Go",
    extension="go",
    lexer="go",
    position=10,
    renderer="go",
    capabilities=Capabilities(
        select=True, select_send=True, buffered=True, close=True, select_default=True
    ),
    concurrency="goroutines",
    candidates=_go_candidates,
    known=_known_go,
    install=_install,
    source_file="main.go",
    build_plan=_go_plan,
    dump_signal=signal.SIGQUIT,
    # The runtime reads GOMAXPROCS at start (the renderer calls runtime.GOMAXPROCS only
    # when asked to, which no run does).
    threads_env=lambda n, _options: {"GOMAXPROCS": str(n)},
    read_crash=_go_crash,
    hang_shape=hang_shape,
    dockerfile="docker/go.Dockerfile",
    bundle_script=BUNDLE_SCRIPT,
)

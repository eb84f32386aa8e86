"""gocheck's Go front end: builds the helper in toolchains/gocheck and runs it on a file.

A file that imports packages outside the standard library has them resolved through the
Go module proxy (the helper's `go mod tidy`), their newest versions, and loaded from
source with it: the result names the modules (`modules`).

The helper (`gocheck-ssa`) is built once with the machine's Go, its module dependencies
(golang.org/x/tools) fetched from the Go module proxy, and kept under
`$CHANFUZZ_VAR_DIR/gocheck/<hash of its sources>/`, so an edit of the helper rebuilds it
and nothing else does. Running it on a file gives the SSA as JSON, or Go's own errors.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from generator.gocheck import pipes
from generator.gocheck.calls import MODELLED_PACKAGES, SLICES_MODELS
from runners import config

HELPER_DIR = config.REPO_ROOT / "toolchains" / "gocheck"
# Plain-Go models of testify's assertions that run the test's functions, added to the
# package of a test file that imports testify (calls.py calls them in testify's place).
_TESTIFY_SHIM = HELPER_DIR / "shims" / "testify.go.txt"
_TESTIFY_IMPORT = re.compile(rb'"github\.com/stretchr/testify/(assert|require)"')
# Plain-Go models of io.Pipe and net.Pipe (the net one builds on the io one), added to the
# package of a file that calls them: calls.py runs them in the library's place.
_PIPE_SHIMS = {"gocheck_pipes_io.go": HELPER_DIR / "shims" / "pipes_io.go.txt",
               "gocheck_pipes_net.go": HELPER_DIR / "shims" / "pipes_net.go.txt"}
_PIPE_CALL = re.compile(rb"\b(io|net)\.Pipe\(")
# slices' functions that call one of the program's on each item (their models run in the
# library's place when that function communicates: machine `_slices_model`).
_SLICES_SHIM = HELPER_DIR / "shims" / "slices_funcs.go.txt"
_SLICES_CALL = re.compile(rb"\bslices\.(%s)\b" % b"|".join(
    name.removeprefix("slices.").encode() for name in SLICES_MODELS))
# The io models also serve a file that hands a reader or writer of its own (a method Read
# or Write of a []byte) to io.ReadFull, io.Copy, fmt.Fprintf, bufio.NewScanner and the
# like (`pipes.HANDED`), whose Read or Write may communicate (calls.py's
# `_handed_model`).
_OWN_READ_WRITE = re.compile(rb"^func\s*\([^)]*\)\s*(Read|Write)\s*\(\s*\w+\s+\[\]byte\s*\)",
                             re.M)
# A call of one of them by its package's name (`io.ReadFull(`, `json.NewDecoder(`).
_HANDED_CALL = re.compile(rb"\b(%s)\(" % b"|".join(
    re.escape(name.rsplit("/", 1)[-1].encode()) for name in pipes.HANDED))
_SOURCES = ("go.mod", "go.sum", "main.go")


class FrontendError(Exception):
    """The helper could not be built or run (not the program's fault)."""


class BadInput(Exception):
    """The file is not a Go program that parses and type-checks; Go's message says why."""


def _go() -> str:
    """The machine's Go, found as scripts/install_toolchains.sh finds it."""
    for go in (os.environ.get("CHANFUZZ_GO"), "/usr/local/go/bin/go", shutil.which("go")):
        if go and Path(go).exists():
            return go
    raise FrontendError("gocheck needs Go: set CHANFUZZ_GO or put go on the PATH "
                        "(scripts/install_toolchains.sh installs one)")


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env.setdefault("GOFLAGS", "-mod=mod")
    # An older Go (Debian's) fetches the Go that go.mod names from the module proxy.
    env.setdefault("GOTOOLCHAIN", "auto")
    env["CGO_ENABLED"] = "0"
    return env


def helper_path() -> Path:
    """The built helper, building it first when its sources changed."""
    digest = hashlib.sha256()
    for name in _SOURCES:
        digest.update((HELPER_DIR / name).read_bytes())
    out_dir = config.var_dir() / "gocheck" / digest.hexdigest()[:16]
    binary = out_dir / "gocheck-ssa"
    if binary.exists():
        return binary
    out_dir.mkdir(parents=True, exist_ok=True)
    tmp = out_dir / f"gocheck-ssa.{os.getpid()}"
    proc = subprocess.run(
        [_go(), "build", "-o", str(tmp), "."],
        cwd=HELPER_DIR, env=_env(), capture_output=True, text=True, timeout=600,
    )
    if proc.returncode != 0:
        raise FrontendError(f"building the gocheck helper failed:\n{proc.stderr.strip()}")
    tmp.replace(binary)
    return binary


def ssa_of_file(path: Path, *, timeout: float = 120.0,
                modules: Sequence[str] | None = None) -> dict[str, Any]:
    """The SSA of one `package main` file, as decoded JSON. `modules`, when given, are the
    only module paths the file may import from outside the standard library (BadInput
    otherwise): the playground's list, so that a pasted file cannot make this machine
    fetch whatever it names.

    Kept by the hash of the helper and the source, under `$CHANFUZZ_VAR_DIR/gocheck/ssa/`:
    the front end costs a tenth of a second a file (a second or more when the file has an
    error: Go's messages come from a load of every import's source), and the playground and
    the tests check the same programs again and again.
    """
    helper = helper_path()
    source = Path(path).read_bytes()
    root = module_root(Path(path))
    siblings = package_files(Path(path), source, in_module=root is not None)
    shims = _shims(source)
    written = {**siblings, **shims}

    def fresh() -> dict[str, Any]:
        raw = _run_helper(helper, path, source, timeout, modules=modules, siblings=written,
                          module=root)
        raw["package_files"] = sorted(siblings)
        if root is not None:
            raw["module"] = str(root)
        _name_package_files(raw, written)
        return raw

    if root is not None:
        # The rest of the module is part of the answer, and hashing it all would cost
        # more than the front end: not cached.
        return fresh()
    # The allowed modules are part of the key: a source refused under one list must not
    # come out of the cache under it because it was checked under another.
    allowed = "*" if modules is None else ",".join(modules)
    modelled = ",".join(MODELLED_PACKAGES)
    digest = hashlib.sha256(f"{helper.parent.name}\0{allowed}\0{modelled}\0".encode() + source)
    for name, text in written.items():
        digest.update(f"\0{name}\0".encode() + text)
    cached = config.var_dir() / "gocheck" / "ssa" / f"{digest.hexdigest()[:32]}.json"
    try:
        return json.loads(cached.read_text())
    except (OSError, ValueError):
        pass
    raw = fresh()
    cached.parent.mkdir(parents=True, exist_ok=True)
    tmp = cached.with_suffix(f".{os.getpid()}.tmp")
    tmp.write_text(json.dumps(raw))
    tmp.replace(cached)
    _prune(cached.parent)
    return raw

MAX_CACHED = 2000


def _prune(directory: Path) -> None:
    """Keep the cache bounded: the playground checks whatever anyone pastes."""
    entries = list(directory.glob("*.json"))
    if len(entries) <= MAX_CACHED:
        return
    entries.sort(key=lambda p: p.stat().st_mtime)
    for old in entries[: len(entries) - MAX_CACHED // 2]:
        old.unlink(missing_ok=True)


# The package path of the checked file (Go's name for a package of files given by name).
PACKAGE = "command-line-arguments"
_PACKAGE = re.compile(rb"^package\s+([A-Za-z_][A-Za-z0-9_]*)", re.M)


def _package_of(source: bytes) -> str | None:
    match = _PACKAGE.search(source)
    return match.group(1).decode() if match else None


def package_files(path: Path, source: bytes, *, in_module: bool = False) -> dict[str, bytes]:
    """A test file's package's other files, by name: the files beside it that have its
    package clause, tests or not. An internal test file (`package pool` in pool/) calls the
    code it tests, and often helpers another test file of the package holds (`go test`
    compiles them together); checked alone, every such name would be undefined. Only the
    file's own tests are checked. Nothing for a file that is not a test, or whose
    directory holds no such files (GoBench's kernels, the corpus). A test of package
    main has its program's files only `in_module`: elsewhere (the corpus, GoBench) a
    directory of package main files holds many programs, each one file."""
    package = _package_of(source)
    if not path.name.endswith("_test.go") or package is None or \
            package == "main" and not in_module:
        return {}
    out: dict[str, bytes] = {}
    for other in sorted(path.parent.glob("*.go")):
        if other.name == path.name:
            continue
        text = other.read_bytes()
        if _package_of(text) == package:
            out[other.name] = text
    return out


def _shims(source: bytes) -> dict[str, bytes]:
    """The models a file's package gets beside its own files (`_TESTIFY_SHIM`,
    `_PIPE_SHIMS`, `_SLICES_SHIM`)."""
    package = _package_of(source)
    if package is None:
        return {}
    wanted: dict[str, Path] = {}
    if _TESTIFY_IMPORT.search(source):
        wanted["gocheck_testify.go"] = _TESTIFY_SHIM
    made = {m.group(1) for m in _PIPE_CALL.finditer(source)}  # b"io", b"net": pipes made
    if made or (_OWN_READ_WRITE.search(source) and _HANDED_CALL.search(source)):
        wanted["gocheck_pipes_io.go"] = _PIPE_SHIMS["gocheck_pipes_io.go"]
    if b"net" in made:
        wanted["gocheck_pipes_net.go"] = _PIPE_SHIMS["gocheck_pipes_net.go"]
    if _SLICES_CALL.search(source):
        wanted["gocheck_slices.go"] = _SLICES_SHIM
    return {name: path.read_bytes().replace(b"package PACKAGE", f"package {package}".encode())
            for name, path in wanted.items()}


def _name_package_files(raw: dict[str, Any], siblings: dict[str, bytes]) -> None:
    """Functions of the package's other files by those files' own names (`pool.go`), as
    a reader finds them, not by the package path and the name they were loaded under."""
    own = {f"{PACKAGE}/{_loaded_name(name)}": name for name in siblings}
    for fn in raw.get("functions", {}).values():
        if fn.get("file") in own:
            fn["file"] = own[fn["file"]]


def _loaded_name(name: str) -> str:
    """The name a package file has beside the checked file (which is main.go there, so
    that its package is not a test package): a test file would be left out of the
    package, so it loses its `_test` suffix (keeping a `_linux` one, a build constraint,
    last); a prefix keeps it apart from the package's own files."""
    if name == "main.go":
        return "main_.go"
    if name.endswith("_test.go"):
        return "gocheck_test_" + name.removesuffix("_test.go") + ".go"
    return name


def module_root(path: Path) -> Path | None:
    """The root of the Go module a file lies in: the nearest directory above it with a
    go.mod. None for a file outside any (the playground's, the corpus')."""
    for directory in Path(path).resolve().parents:
        if (directory / "go.mod").is_file():
            return directory
    return None


_RELATIVE_REPLACE = re.compile(r"(=>\s*)(\.{1,2}(?:/[^\s]*)?)")


def _mirror(root: Path, directory: Path, work: Path, *, external: str | None) -> Path:
    """A copy of module `root` under `work`, made of links to its entries, but for
    real directories from the root down to the file's `directory`; the directory in
    which the checked file goes (returned). There, the file's package is the files
    written beside it: the directory's own Go files are left out, unless the file is
    an external test (`package pool_test`: `external` is then "pool"), whose package
    goes in a directory of its own below, and imports the package the others make."""
    module = _RELATIVE_REPLACE.sub(
        lambda m: m.group(1) + str((root / m.group(2)).resolve()),
        (root / "go.mod").read_text())
    (work / "go.mod").write_text(module)
    if (root / "go.sum").is_file():
        shutil.copyfile(root / "go.sum", work / "go.sum")
    src, dst = root, work
    chain = directory.relative_to(root).parts
    for depth in range(len(chain) + 1):
        below = chain[depth] if depth < len(chain) else None
        for entry in sorted(src.iterdir()):
            if entry.name == below or depth == 0 and entry.name in ("go.mod", "go.sum") \
                    or below is None and external is None and entry.suffix == ".go":
                continue
            (dst / entry.name).symlink_to(entry)
        if below is not None:
            src, dst = src / below, dst / below
            dst.mkdir()
    if external is not None:
        # What the package's own test files give its external tests (export_test.go's
        # `var Exported = unexported`): `go test` builds the package with them.
        for entry in sorted(directory.glob("*_test.go")):
            text = entry.read_bytes()
            if _package_of(text) == external:
                (dst / _loaded_name(entry.name)).write_bytes(text)
        dst = dst / "gocheck_external_test"
        dst.mkdir()
    return dst


def _run_helper(
    helper: Path, path: Path, source: bytes, timeout: float, *, from_source: bool = False,
    modules: Sequence[str] | None = None, siblings: dict[str, bytes] | None = None,
    module: Path | None = None,
) -> dict[str, Any]:
    """The helper's JSON; ``from_source`` loads the imports from their source (the tests
    compare it with the quick load from export data). With `module` (its root), the file
    is checked inside a copy of the module it lies in (`_mirror`)."""
    with tempfile.TemporaryDirectory(prefix="gocheck-") as work:
        # Alone in a directory with no go.mod, the file is loaded as its own package.
        home = Path(work)
        if module is not None:
            package = _package_of(source) or ""
            external = package.removesuffix("_test") if package.endswith("_test") else None
            home = _mirror(module, Path(path).resolve().parent, home, external=external)
        target = home / "main.go"
        target.write_bytes(source)
        for name, text in (siblings or {}).items():
            (home / _loaded_name(name)).write_bytes(text)
        env = _env()
        env["GOFLAGS"] = ""
        env["GO111MODULE"] = "on"
        try:
            flags = ["-from-source"] if from_source else []
            if modules is not None:
                flags += ["-allow", ",".join(modules) or "std"]
            if siblings:
                flags.append("-package")
            if module is not None:
                flags.append("-module")
                env["GOFLAGS"] = "-mod=mod"  # a go.sum short of a line is no error here
            flags += ["-opaque", ",".join(MODELLED_PACKAGES)]
            proc = subprocess.run([str(helper), *flags, "-go", _go(), str(target)], cwd=home,
                                  env=env, capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired as e:
            raise FrontendError(f"the Go front end took more than {timeout:.0f} s") from e
    if proc.returncode == 2:
        # Go names the file by its path here, or by main.go relative to the directory.
        name = Path(path).name
        text = re.sub(r"(?m)^main\.go:", f"{name}:", proc.stderr.replace(str(target), name))
        raise BadInput(text.strip())
    if proc.returncode != 0:
        raise FrontendError(f"the Go front end failed:\n{proc.stderr.strip()}")
    return json.loads(proc.stdout)


def ssa_of_source(source: str, *, name: str = "main.go",
                  modules: Sequence[str] | None = None) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="gocheck-src-") as work:
        path = Path(work) / name
        path.write_text(source)
        return ssa_of_file(path, modules=modules)

"""Does Crystal's own channel spec kill a mutant? The yardstick for Crystal's mutants.

The spec (``spec/std/channel_spec.cr``, and ``spec/std/concurrent/select_spec.cr``
where the release has it) is not in Debian's binary package, only in
Crystal's source package. :func:`crystal_source` gets that with ``apt-get
source crystal`` into ``var/crystal-source/<version>/``, once: apt runs with a
configuration of its own there (a ``deb-src`` line for each of this Debian
release's sources the machine's apt uses, its lists and downloads under
``var/``), so the machine's apt setup is never changed. The unpacked tree must
be the toolchain's version, or the spec would judge the wrong stdlib.

The spec files are built into one binary (what ``crystal spec`` does) with the
mutant's stdlib (``CRYSTAL_PATH``) and the target's build flags
(``-Dpreview_mt``, as chanfuzz builds), then run. A mutant is *killed* when the
run fails, crashes or hangs (cut at :data:`SPEC_TIMEOUT_S`, apart from the
compile's own longer limit); *survived* when it passes; *build failed* when the
spec does not compile with the mutated stdlib (the spec uses typed channels,
so a mutant that compiles for chanfuzz's ``Channel(Nil)`` may not here).

*Unavailable* when the source cannot be had, ``by`` saying why. That is the
case on this project's machines as of this writing: the Debian mirror they
reach serves ``crystal_1.6.0+dfsg-3.dsc`` but answers 404 for its two
tarballs, and Crystal's repository is not reachable. A failure is remembered
for :data:`RETRY_AFTER_S`, so a sweep over a hundred mutants asks apt once.

A tree put in ``var/crystal-source/<version>/tree`` by hand is used as it is,
if it is that version (its ``src/VERSION``): Crystal's repository at the tag,
``git archive 1.6.0 | tar -x -C …/tree``, is the same stdlib as Debian's (the
mutation report of 2026-11-27 ran the spec from such a tree). The message of
an unavailable spec says where to put it.
"""

from __future__ import annotations

import getpass
import json
import re
import shutil
import tempfile
import time
from pathlib import Path

from runners import config
from runners.engine.supervisor import run_argv
from runners.mutation.base import RuntimeTests
from runners.targets import get_target
from runners.targets.base import Toolchain
from runners.targets.crystal import crystal_env

SPEC_FILES = ("spec/std/channel_spec.cr", "spec/std/concurrent/select_spec.cr")
SPEC_NAME = "crystal spec spec/std/channel_spec.cr spec/std/concurrent/select_spec.cr"
# Compiling the spec takes about 25 s on an idle machine, minutes on a loaded one; the
# unmutated spec then runs in under 2 s. A hang is cut at the run's limit, so a mutant
# that hangs the spec holds a worker for minutes, not for the compile's limit.
SPEC_BUILD_TIMEOUT_S = 900.0
SPEC_TIMEOUT_S = 120.0
APT_TIMEOUT_S = 600.0
RETRY_AFTER_S = 24 * 3600.0
SOURCE_PACKAGE = "crystal"
OS_RELEASE = Path("/etc/os-release")
APT_SOURCES = Path("/etc/apt/sources.list")
APT_SOURCE_PARTS = Path("/etc/apt/sources.list.d")


class SpecUnavailable(Exception):
    """Crystal's spec of the wanted version cannot be had; the message says why."""


def source_root(version: str) -> Path:
    return config.var_dir() / "crystal-source" / version


def crystal_source(version: str) -> Path:
    """Crystal's source tree of `version` (fetched once into var/); SpecUnavailable if none."""
    root = source_root(version)
    tree = root / "tree"
    if (tree / SPEC_FILES[0]).is_file():
        if (found := _tree_version(tree)) != version:
            raise SpecUnavailable(f"{tree} is Crystal {found}'s source, not {version}'s")
        return tree
    failure = root / "unavailable.json"
    if failure.is_file():
        known = json.loads(failure.read_text())
        if time.time() - known["time"] < RETRY_AFTER_S:
            raise SpecUnavailable(known["reason"])
    root.mkdir(parents=True, exist_ok=True)
    try:
        _fetch(version, root)
    except SpecUnavailable as exc:
        reason = f"{exc} (or unpack Crystal {version}'s source tree into {tree})"
        failure.write_text(json.dumps({"reason": reason, "time": time.time()}) + "\n")
        raise SpecUnavailable(reason) from None
    failure.unlink(missing_ok=True)
    return tree


def _codename() -> str:
    text = OS_RELEASE.read_text() if OS_RELEASE.is_file() else ""
    if m := re.search(r"^VERSION_CODENAME=\"?(\w+)", text, re.M):
        return m.group(1)
    raise SpecUnavailable(f"not a Debian release with a codename ({OS_RELEASE})")


def _deb822_lines(text: str, codename: str) -> list[str]:
    """`deb-src` lines for the `deb` stanzas of a .sources file of release `codename`."""
    found = []
    for stanza in re.split(r"\n\s*\n", text):
        fields = dict(
            (k.strip().lower(), v.strip())
            for k, _, v in (line.partition(":") for line in stanza.splitlines())
            if k and not k.startswith(("#", " ")) and v
        )
        suites = fields.get("suites", "").split()
        if "deb" not in fields.get("types", "").split() or not suites:
            continue
        signed = fields.get("signed-by", "")
        option = f"[signed-by={signed}] " if signed.startswith("/") else ""
        for uri in fields.get("uris", "").split():
            for suite in suites:
                if suite.startswith(codename):
                    found.append(f"deb-src {option}{uri} {suite} {fields.get('components', '')}")
    return found


def deb_src_lines(one_line: str, deb822: list[str], codename: str) -> list[str]:
    """`deb-src` lines for this Debian release's apt sources: `one_line` (sources.list
    format) and `deb822` (the texts of .sources files); other vendors' are left out."""
    found = []
    for line in one_line.splitlines():
        words = line.split()
        suites = [w for w in words[1:] if w.startswith(codename)]
        if words[:1] == ["deb"] and suites:
            found.append("deb-src" + line.strip()[3:])
    for text in deb822:
        found += _deb822_lines(text, codename)
    return found


def _machine_deb_src_lines() -> list[str]:
    one_line = [APT_SOURCES, *sorted(APT_SOURCE_PARTS.glob("*.list"))]
    text = "\n".join(p.read_text() for p in one_line if p.is_file())
    deb822 = [p.read_text() for p in sorted(APT_SOURCE_PARTS.glob("*.sources"))]
    lines = deb_src_lines(text, deb822, _codename())
    if not lines:
        raise SpecUnavailable("this machine's apt has no Debian source to ask for deb-src")
    return lines


def _apt(root: Path, *args: str, cwd: Path) -> str:
    """Run apt-get with the private configuration under `root`; its output, or
    SpecUnavailable naming the command and apt's last error."""
    if shutil.which("apt-get") is None:
        raise SpecUnavailable("no apt-get on this machine")
    options = {
        "Dir::Etc::SourceList": root / "sources.list",
        "Dir::Etc::SourceParts": root / "sources.list.d",  # empty: the list above only
        "Dir::State::Lists": root / "lists",
        "Dir::Cache": root / "cache",
        "APT::Sandbox::User": getpass.getuser(),  # no _apt user needed to write under var/
    }
    argv = ["apt-get", "-q", *(f"-o{k}={v}" for k, v in options.items()), *args]
    result = run_argv(argv, APT_TIMEOUT_S, cwd=cwd)
    output = result.stdout + result.stderr
    if not result.ok:
        errors = [line for line in output.splitlines() if line.startswith("E: ")]
        why = "; ".join(errors[:3]) or ("timed out" if result.timed_out else output[-300:])
        raise SpecUnavailable(f"apt-get {args[0]} {' '.join(args[1:])}: {why}")
    return output


def _tree_version(tree: Path) -> str:
    for candidate in (tree / "VERSION", tree / "src" / "VERSION"):
        if candidate.is_file():
            return candidate.read_text().strip()
    return "unknown"


def _fetch(version: str, root: Path) -> None:
    """Fetch and unpack Debian's source of Crystal into `root`/tree."""
    apt = root / "apt"
    for directory in ("sources.list.d", "lists/partial", "cache/archives/partial"):
        (apt / directory).mkdir(parents=True, exist_ok=True)
    (apt / "sources.list").write_text("\n".join(_machine_deb_src_lines()) + "\n")
    _apt(apt, "update", cwd=apt)
    download = root / "download"
    shutil.rmtree(download, ignore_errors=True)
    download.mkdir()
    _apt(apt, "source", SOURCE_PACKAGE, cwd=download)  # unpacks with dpkg-source
    trees = [d for d in download.iterdir() if d.is_dir()]
    if len(trees) != 1:
        raise SpecUnavailable(f"apt-get source {SOURCE_PACKAGE} unpacked {len(trees)} trees")
    if (found := _tree_version(trees[0])) != version:
        raise SpecUnavailable(f"Debian's source is Crystal {found}, not {version}")
    if not (trees[0] / SPEC_FILES[0]).is_file():
        raise SpecUnavailable(f"Debian's source of Crystal {version} has no {SPEC_FILES[0]}")
    shutil.rmtree(root / "tree", ignore_errors=True)
    trees[0].rename(root / "tree")


def run_spec(toolchain: Toolchain, tree: Path) -> RuntimeTests:
    """Build the channel spec files of `tree` with `toolchain` (a mutant: its stdlib), then
    run them within :data:`SPEC_TIMEOUT_S`."""
    started = time.monotonic()
    specs = [f for f in SPEC_FILES if (tree / f).is_file()]
    flags = get_target("crystal").build_flags
    env = crystal_env(toolchain)
    with tempfile.TemporaryDirectory(prefix="chanfuzz-crystal-spec-") as tmp:
        binary = Path(tmp) / "channel-spec"
        argv = [str(toolchain.executable), "build", "--no-color", *flags, *specs, "-o", str(binary)]
        built = run_argv(argv, SPEC_BUILD_TIMEOUT_S, env=env, cwd=tree)
        if not built.ok:
            output = (built.stdout + built.stderr)[-4000:]
            seconds = time.monotonic() - started
            if built.timed_out:  # the machine, not the mutant: no verdict
                why = f"crystal build of the spec took over {SPEC_BUILD_TIMEOUT_S:.0f} s"
                return RuntimeTests("unavailable", why, seconds, output)
            return RuntimeTests("build failed", "", seconds, output)
        result = run_argv([str(binary), "--no-color"], SPEC_TIMEOUT_S, env=env, cwd=tree)
    output = (result.stdout + result.stderr)[-4000:]
    seconds = time.monotonic() - started
    if result.ok:
        return RuntimeTests("survived", "", seconds, "")
    if result.timed_out:
        return RuntimeTests("killed", "crystal spec (timed out)", seconds, output)
    return RuntimeTests("killed", "crystal spec", seconds, output)


def crystal_runtime_tests(toolchain: Toolchain) -> RuntimeTests:
    """Crystal's own channel spec on `toolchain`, or "unavailable" saying why it cannot run."""
    started = time.monotonic()
    try:
        tree = crystal_source(toolchain.version)
    except SpecUnavailable as exc:
        why = f"Crystal {toolchain.version}'s spec cannot be had: {exc}"
        return RuntimeTests("unavailable", why, time.monotonic() - started, "")
    return run_spec(toolchain, tree)


__all__ = [
    "SPEC_FILES",
    "SPEC_NAME",
    "SpecUnavailable",
    "crystal_runtime_tests",
    "crystal_source",
    "deb_src_lines",
    "run_spec",
]

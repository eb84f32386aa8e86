"""The Racket target: Concurrent ML channels (`make-channel`, `thread`, `sync`) on Debian's racket.

Toolchains: Debian's ``racket`` package (``/usr/bin/racket``, 8.7 CS in bookworm), else
``racket`` on PATH. Debian ships one Racket release and nothing else here can install
another (no downloads from racket-lang.org), so ``toolchains list racket`` says so
after the places it looked (``not_installable``), nothing is installable beyond the
package, and findings cannot be bisected across releases.

Builds: ``main.rkt``, compiled by ``racket -l- raco make`` (the same executable that
runs it) into ``compiled/main_rkt.zo``; a module that does not expand or compile is a
compile error. The product is that ``compiled`` directory: ``racket DIR/main.rkt N``
loads ``DIR/compiled/main_rkt.zo`` even where the source is not visible (the sandbox
binds the product alone), and ``PLT_COMPILED_FILE_CHECK=exists`` makes it use the
compiled module whatever the dates say, never recompiling in memory. Debian's Racket
finds its own compiled collections through ``/etc/racket/config.rktd``
(``compiled-file-roots``), which a run must see: it is bound besides /usr.

Reading runs: the renderer makes every uncaught exception, in any thread, print
``chanfuzz: uncaught <kind> in <thread>`` and Racket's error display (message,
``context...:`` frames), then exit 70 (generator/render/racket.py); ``_read_crash``
turns that into a message and a signature (kind, first line of the message, top
frames with paths and program numbers taken out). Racket CS aborts with ``out of
memory`` when the sandbox's memory limit is reached: an infrastructure error.
Hangs: Racket prints no thread dump on any signal and has no tool that dumps a
running process's threads from outside, so a hang is known by its timeout alone
(no ``dump_signal``, no ``hang_shape``).
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator, Sequence
from pathlib import Path

from generator.capabilities import Capabilities
from generator.render.racket import CRASH_PREFIX
from runners.targets.base import (
    BuildPlan,
    Candidate,
    TargetSpec,
    Toolchain,
    ToolchainUnavailable,
    clean_env,
    executable,
    mtime_ns,
    run_probe,
)
from runners.targets.reading import TOP_FRAMES, message, normalise_frame

DEBIAN_RACKET = Path("/usr/bin/racket")
APT_HINT = "apt-get install racket"
ONLY_DEBIAN = (
    "no Racket release but Debian's package is obtainable here "
    f"(nothing is downloaded from racket-lang.org): {APT_HINT}"
)

# One probe: the version, the virtual machine (cs or bc) and where the installation's
# configuration is (Debian: /etc/racket, which says where the compiled collections are).
_PROBE = (
    '(printf "~a\\n~a\\n~a\\n" (version) (system-type (quote vm)) '
    "(find-system-path (quote config-dir)))"
)


def _probe(racket: Path) -> tuple[str, str, Path]:
    out = (
        run_probe((str(racket), "-l", "racket/base", "-e", _PROBE), mtime_ns(racket))
        .strip()
        .splitlines()
    )
    if len(out) != 3 or not re.fullmatch(r"\d+(\.\d+)*", out[0]):
        raise ToolchainUnavailable(f"cannot tell the version of {racket} (got {out!r})")
    return out[0], out[1], Path(out[2])


def _racket_toolchain(racket: Path, origin: str) -> Toolchain:
    racket = executable(racket, "racket")
    version, vm, _config = _probe(racket)
    return Toolchain(
        language="racket",
        version=version,
        id=f"racket-{version}-{origin}",
        origin=origin,
        home=racket.resolve().parent.parent,
        executable=racket,
        components=(("vm", vm),),
    )


def _racket_candidates() -> Iterator[Candidate]:
    yield Candidate(
        "racket",
        "debian",
        DEBIAN_RACKET,
        lambda: _racket_toolchain(DEBIAN_RACKET, "debian"),
        APT_HINT,
    )
    on_path = shutil.which("racket")
    if on_path and Path(on_path).resolve() != DEBIAN_RACKET.resolve():
        path = Path(on_path)
        yield Candidate("racket", "path", path, lambda: _racket_toolchain(path, "path"))


def _binds(toolchain: Toolchain) -> tuple[Path, ...]:
    """The installation's configuration directory when it is outside the toolchain's home
    (Debian's /etc/racket): without it Racket does not find its compiled collections."""
    _version, _vm, config_dir = _probe(toolchain.executable)
    if config_dir.is_dir() and not config_dir.resolve().is_relative_to(toolchain.home):
        return (config_dir.resolve(),)
    return ()


SOURCE_FILE = "main.rkt"
PRODUCT = "compiled"


def _racket_plan(toolchain: Toolchain, workdir: Path, flags: Sequence[str]) -> BuildPlan:
    # No PLT* variable of the caller (collection paths, a user home, compile limits)
    # may change what gets compiled.
    env = clean_env(("PLT",))
    argv = (str(toolchain.executable), "-l-", "raco", "make", *flags, SOURCE_FILE)
    return BuildPlan(argv, env, workdir, workdir / PRODUCT)


def _command(toolchain: Toolchain, product: Path) -> tuple[str, ...]:
    """`racket <dir>/main.rkt`, the compiled module beside it in <dir>/compiled; the
    engine adds the program number."""
    return (str(toolchain.executable), str(product.parent / SOURCE_FILE))


# --- reading runs -------------------------------------------------------------------------

_CRASH = re.compile(
    rf"^{re.escape(CRASH_PREFIX)}(\S+(?: \S+)*?) in (?:the main|a spawned) thread$", re.M
)
# Racket's own display of an error nothing caught (before our handler was installed,
# or in a program not rendered by chanfuzz): the message, then its context.
_CONTEXT = re.compile(r"^\s*context\.\.\.:\s*$", re.M)
_FRAME = re.compile(r"^   (\S.*)$")
# A path in a frame: only its file name counts (the build directory differs per batch),
# and in the generated module a line and column say where in one batch it was.
_PATH = re.compile(r"(?:/[^/\s\"():]+)+/([^/\s\"():]+)")
_MAIN_LOCATION = re.compile(r"\bmain\.rkt:\d+:\d+")


def _frame(text: str) -> str:
    text = _PATH.sub(r"\1", text.strip())
    text = _MAIN_LOCATION.sub("main.rkt", text)
    return normalise_frame(text)


def _frames(text: str) -> list[str]:
    """The frames of the first ``context...:`` section after the start of ``text``."""
    m = _CONTEXT.search(text)
    if not m:
        return []
    frames = []
    for line in text[m.end() :].lstrip("\n").splitlines():
        f = _FRAME.match(line)
        if not f or f.group(1).startswith("..."):
            break
        frames.append(_frame(f.group(1)))
    return frames


def _read_crash(text: str) -> tuple[str, str] | None:
    """An uncaught exception as our handler prints it (generator/render/racket.py):
    (kind: first line of the message, kind | first line | top frames)."""
    m = _CRASH.search(text)
    if not m:
        return None
    kind = m.group(1)
    rest = text[m.end() :].lstrip("\n")
    first = message(rest.splitlines()[0]) if rest.strip() else ""
    # Values in a message (`given: 3`) sit on its later lines; the first names the
    # operation and the complaint. Program numbers are taken out as from frames.
    first = normalise_frame(first)
    frames = _frames(rest)
    return f"{kind}: {first}", f"{kind} | {first} | {' < '.join(frames[:TOP_FRAMES])}"


_OUT_OF_MEMORY = re.compile(r"^out of memory\b", re.M)


def _infra_error(text: str) -> str | None:
    """Racket CS aborts with "out of memory" when the sandbox's memory limit is hit."""
    if _OUT_OF_MEMORY.search(text):
        return "Racket ran out of memory under the sandbox's limit"
    return None


# The reproducer bundle's run script (chanfuzz_site/bundles.py wraps it).
BUNDLE_SCRIPT = """RACKET=${RACKET:-racket}
"$RACKET" -l- raco make main.rkt || exit 3
# Racket prints no thread dump on a signal: a hang shows as the timeout alone.
timeout -k 5 "$TIMEOUT" "$RACKET" main.rkt
"""

TARGET = TargetSpec(
    name="racket",
    title="Racket",
    extension="rkt",
    lexer="racket",
    position=70,
    renderer="racket",
    capabilities=Capabilities(
        select=True, select_send=True, buffered=True, close=False, unbounded=True
    ),
    concurrency="threads",
    candidates=_racket_candidates,
    not_installable=ONLY_DEBIAN,
    no_bisection="one Racket release is obtainable here (Debian's): nothing to bisect over",
    source_file=SOURCE_FILE,
    build_plan=_racket_plan,
    product=PRODUCT,
    run_command=_command,
    binds=_binds,
    # Use the compiled module whatever its date says (module docstring).
    run_env={"PLT_COMPILED_FILE_CHECK": "exists"},
    read_crash=_read_crash,
    read_infra_error=_infra_error,
    dockerfile="docker/racket.Dockerfile",
    bundle_script=BUNDLE_SCRIPT,
)

"""The Flix target: render-only here. Flix's processes, channels and `select` (receive cases
only, in the paper's 0.5 syntax and in current Flix).

No registry reachable from here carries a Flix compiler, so programs are rendered
(and checked by golden files) but not built; ``CHANFUZZ_FLIX_JAR=/path/to/flix.jar``
registers a jar of your own, which is then listed as a toolchain. Flix's ``select``
cannot send, which its capabilities say, so the generator never gives it a send case.
"""

from __future__ import annotations

import re
import shutil
import signal
from collections.abc import Iterator
from pathlib import Path

from generator.capabilities import Capabilities
from runners import config
from runners.targets import jvm
from runners.targets.base import Candidate, TargetSpec, Toolchain, ToolchainUnavailable, executable

FLIX_UNAVAILABLE = "Flix is on no registry reachable here; set CHANFUZZ_FLIX_JAR=/path/to/flix.jar"


def _flix_toolchain(jar: Path) -> Toolchain:
    if not jar.is_file():
        raise ToolchainUnavailable(f"CHANFUZZ_FLIX_JAR={jar} does not exist")
    java = Path(shutil.which("java") or "/usr/bin/java")
    executable(java, "java (for flix)")
    match = re.search(r"(\d+\.\d+(?:\.\d+)?)", jar.name)
    version = match.group(1) if match else "unknown"
    return Toolchain(
        language="flix",
        version=version,
        id=f"flix-{version}-env",
        origin="env",
        home=jar.parent,
        executable=java,
        runtime_classpath=(jar,),
    )


def _flix_candidates() -> Iterator[Candidate]:
    jar = config.flix_jar()
    if jar is not None:
        yield Candidate("flix", "env", jar, lambda: _flix_toolchain(jar))
        return

    def missing() -> Toolchain:
        raise ToolchainUnavailable(FLIX_UNAVAILABLE)

    yield Candidate("flix", "env", Path("$CHANFUZZ_FLIX_JAR"), missing)


# The reproducer bundle's run script (chanfuzz_site/bundles.py wraps it).
BUNDLE_SCRIPT = """# FLIX_JAR: the flix.jar under test (Flix compiles and runs in one step).
: "${FLIX_JAR:?set FLIX_JAR to the flix.jar under test}"
timeout -s QUIT -k 5 "$TIMEOUT" java -Xss16m -jar "$FLIX_JAR" Main.flix
"""

TARGET = TargetSpec(
    name="flix",
    title="Flix",
    extension="flix",
    # Pygments has no Flix lexer; Scala's reads its syntax well enough.
    lexer="scala",
    position=40,
    renderer="flix",
    capabilities=Capabilities(select=True, select_send=False),
    concurrency="processes (JVM threads)",
    candidates=_flix_candidates,
    not_installable=FLIX_UNAVAILABLE,
    no_bisection=FLIX_UNAVAILABLE,
    source_file="Main.flix",
    dump_signal=signal.SIGQUIT,
    read_crash=jvm.read_crash,
    read_infra_error=jvm.infra_error,
    hang_shape=jvm.hang_shape,
    dump_excerpt=jvm.dump_excerpt,
    dockerfile="",  # nothing runs: no image
    bundle_script=BUNDLE_SCRIPT,
)

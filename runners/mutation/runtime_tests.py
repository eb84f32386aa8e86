"""Does the runtime's own test suite kill a mutant? The yardstick chanfuzz is measured against.

For Go: `go test -short -run 'Chan|Select' runtime` (the runtime's channel and
select tests), then every `// run` program of `$GOROOT/test/chan` (Go's own
channel test programs: they must exit 0, each within a time limit), all built
with the mutant's `-overlay`. A mutant is *killed* when a test fails, a
program fails or hangs, or the test binary crashes; *survived* when all pass;
*build failed* when the mutated runtime does not compile (such mutants are
dropped from scores and counted apart).
"""

from __future__ import annotations

import tempfile
import time

from runners.engine.supervisor import run_argv
from runners.mutation.base import RuntimeTests
from runners.targets.base import Toolchain
from runners.targets.go import go_env

GO_TEST_TIMEOUT_S = 1200.0
PROGRAM_TIMEOUT_S = 60.0


def _built(output: str) -> bool:
    return not any(
        mark in output for mark in ("[build failed]", "[setup failed]", "# runtime\n", "# runtime ")
    )


def go_runtime_tests(toolchain: Toolchain) -> RuntimeTests:
    """Run Go's own channel tests with `toolchain` (a mutant: its overlay applies)."""
    started = time.monotonic()
    env = go_env(toolchain)
    go = str(toolchain.executable)
    with tempfile.TemporaryDirectory(prefix="chanfuzz-rtests-") as tmp:
        argv = [go, "test", *toolchain.compiler_args, "-short", "-count=1",
                "-run", "Chan|Select", "runtime"]  # fmt: skip
        result = run_argv(argv, GO_TEST_TIMEOUT_S, env=env, cwd=tmp)
        output = result.stdout + result.stderr
        if not result.ok:
            status = "killed" if _built(output) or result.timed_out else "build failed"
            by = "go test runtime (timed out)" if result.timed_out else "go test runtime"
            return RuntimeTests(status, by, time.monotonic() - started, output[-4000:])
        programs = sorted(
            p
            for p in (toolchain.home / "test" / "chan").glob("*.go")
            if p.read_text(errors="replace").startswith("// run")
        )
        for program in programs:
            result = run_argv(
                [go, "run", *toolchain.compiler_args, str(program)],
                PROGRAM_TIMEOUT_S,
                env=env,
                cwd=tmp,
            )
            if not result.ok:
                output = result.stdout + result.stderr
                how = " (timed out)" if result.timed_out else ""
                return RuntimeTests(
                    "killed", f"test/chan/{program.name}{how}", time.monotonic() - started,
                    output[-4000:],
                )  # fmt: skip
    return RuntimeTests("survived", "", time.monotonic() - started, "")


__all__ = ["RuntimeTests", "go_runtime_tests"]

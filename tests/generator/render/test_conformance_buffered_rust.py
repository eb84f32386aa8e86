"""Conformance with buffered channels, Rust (issue #15): programs generated with the
`buffered` setting for each Rust target's capabilities (buffered channels, unbounded
ones, no close),
rendered, built with cargo on the newest installed release of the crate and run.

As tests/generator/render/test_conformance.py: the local sandbox, batches behind the
dispatcher, repetitions, each program its own run; with the value oracle off and on.
Every generated program is proved terminating, so each must exit 0. Where a library has
known bugs (flume, flume on tokio, chan: their targets' `known_bugs`), a failure is
accepted only on a program those bugs can explain (test_rust.KNOWN_BUG_PROGRAMS) and the
test then xfails naming them; any other failure is a renderer or runtime bug. The
selects of test_rust_buffered.SELECTS, which only get through if a case on a buffered
channel is ready at once, must exit 0 on every library, known bugs or not; so must
test_rust_buffered's program of selects with a default where the library has one
(crossbeam), whose generated programs have defaults too.

Kept small for CI (Rust builds are slow): 8 seeds per preset A–F on a library without
known bugs, 4 with, the hung runs of a buggy library cut short by the quiet limit.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from generator import effects
from generator.capabilities import Capabilities, InexpressibleSettings
from generator.lambda_chan import Program
from generator.pipeline import generate_program
from generator.render import supports
from generator.render._common import CloseS, RangeS, has_select_default, lower, walk
from generator.settings import PRESETS, settings_for
from runners.engine.execute import execute_batch
from runners.engine.run_alone import Triage
from runners.engine.run_target import target_for
from runners.engine.sandbox import Limits
from runners.engine.verdicts import Outcome
from tests.generator.render.test_conformance import _toolchain_and_sandbox
from tests.generator.render.test_rust import KNOWN_BUG_PROGRAMS, TARGET_OF
from tests.generator.render.test_rust_buffered import DEFAULTS_PROGRAM, SELECT_PROGRAMS

PER_PRESET = 8
PER_PRESET_KNOWN_BUGS = 4
BATCH = 60
REPETITIONS = 5


def _generated(capabilities: Capabilities, per_preset: int) -> list[tuple[str, Program]]:
    """(what it is, program) for seeds 0… of each preset the target can express."""
    out = []
    for h, preset in PRESETS.items():
        try:
            capabilities.restrict(preset)
        except InexpressibleSettings:  # heuristic E generates only with select: not std
            continue
        for seed in range(per_preset):
            g = generate_program(seed, settings_for(h, buffered=True), capabilities)
            out.append((f"{h} seed {seed}: {effects.to_text(g.effect)}", g.program))
    return out


@pytest.mark.slow
@pytest.mark.parametrize("values", [False, True], ids=["plain", "values"])
@pytest.mark.parametrize("flavour", list(TARGET_OF))
def test_buffered_programs_terminate_on_the_rust_libraries(
    flavour: str, values: bool, tmp_path: Path
) -> None:
    toolchain, sandbox = _toolchain_and_sandbox(TARGET_OF[flavour])
    target = target_for(toolchain, repetitions=REPETITIONS, values=values)
    options = dict(target.render_options)
    assert options.get("values", False) is values and options["flavour"] == flavour
    capabilities = target.spec.capabilities
    assert capabilities.buffered and not capabilities.close
    known = KNOWN_BUG_PROGRAMS.get(flavour)
    generated = _generated(capabilities, PER_PRESET_KNOWN_BUGS if known else PER_PRESET)
    lowered = [lower(p) for _, p in generated]
    assert not any(isinstance(s, CloseS | RangeS) for lw in lowered for s in walk(lw.body))
    buffered = sum(1 for lw in lowered if lw.capacities)
    assert buffered >= len(generated) // 3, f"only {buffered} of {len(generated)} buffered"
    # Unbounded channels, where the library has them (all five): its list-of-blocks code.
    unbounded = sum(1 for lw in lowered if effects.UNBOUNDED in dict(lw.capacities).values())
    assert (unbounded >= len(generated) // 5) is capabilities.unbounded, unbounded
    if capabilities.select_default:  # crossbeam: generated selects with a default run too
        defaults = sum(has_select_default(lw.body) for lw in lowered)
        assert defaults >= len(generated) // 2, f"only {defaults} of {len(generated)} with one"
    musts = {**SELECT_PROGRAMS, "defaults": DEFAULTS_PROGRAM}
    selects = [(f"{n} (must pass)", p) for n, p in musts.items()]
    programs = generated + [(n, p) for n, p in selects if supports(p, "rust", **options)]
    assert all(supports(p, "rust", **options) for _, p in programs)

    # A buggy library's hangs are expected: a short limit, cut shorter once every thread
    # is blocked, and no re-run.
    limits = Limits(timeout_s=8, quiet_s=3) if known else Limits(timeout_s=30)
    triage = Triage(retries=0 if known else 1)
    start = time.monotonic()
    executions = []
    for first in range(0, len(programs), BATCH):
        report = execute_batch(
            [p for _, p in programs[first : first + BATCH]],
            target,
            workdir=tmp_path / "build",
            sandbox=sandbox,
            limits=limits,
            triage=triage,
        )
        executions += report.executions
    took = time.monotonic() - start
    print(
        f"{toolchain.describe()}, values {values}: {len(generated)} generated programs, "
        f"{buffered} with a buffered channel, and {len(programs) - len(generated)} selects "
        f"on buffers, built and run in {took:.1f} s"
    )

    failures = []
    for i, ((name, _), execution) in enumerate(zip(programs, executions, strict=True)):
        if execution.outcome is Outcome.TERMINATED:
            continue
        # A compile error is the renderer's, whatever the library's bugs.
        compiled = execution.outcome is not Outcome.COMPILE_ERROR
        explained = compiled and i < len(generated) and bool(known and known(lowered[i]))
        last = execution.attempts[-1] if execution.attempts else None
        failures.append(
            (
                explained,
                f"{name}: {execution.classification.reason}\n"
                f"{execution.compile_output[:2000]}"
                f"{(last.stderr + last.stdout)[:1000] if last else ''}",
            )
        )
    unexplained = [text for explained, text in failures if not explained]
    assert not unexplained, "\n\n".join(unexplained)
    if failures:
        bugs = " ".join(target.spec.known_bugs)
        pytest.xfail(
            f"{len(failures)} of {len(generated)} programs hit the library's known bugs "
            f"({bugs}):\n\n" + "\n\n".join(text for _, text in failures)
        )

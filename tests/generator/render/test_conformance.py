"""Conformance: generated programs, rendered, compiled and run on the real toolchains.

Every generated program terminates by construction, so each must exit 0 on a
correct runtime. 102 programs per language (17 seeds of each preset A–F), in
batches of 51 behind a dispatcher, each run as its own sandboxed process with
repetitions and the multi-threaded scheduler where the runtime has one. A
failure is a renderer bug or a runtime bug: the assertion message carries the
seed, the verdict and the output to investigate it.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from generator import effects
from generator.capabilities import Capabilities, InexpressibleSettings
from generator.pipeline import generate_program
from generator.settings import PRESETS, GeneratorSettings
from runners.engine.execute import execute_batch
from runners.engine.run_alone import Triage
from runners.engine.run_target import target_for
from runners.engine.sandbox import Limits, Sandbox, SandboxUnavailable, get_sandbox
from runners.engine.toolchains import Toolchain, ToolchainUnavailable, find_toolchain
from runners.engine.verdicts import Outcome
from runners.targets import runnable_names

PER_PRESET = 17
PER_PRESET_KNOWN_BUGS = 3
BATCH = 51


def _expressible(settings: GeneratorSettings, capabilities: Capabilities) -> bool:
    try:
        capabilities.restrict(settings)
    except InexpressibleSettings:
        return False
    return True


def _require(what: str, error: Exception) -> None:
    if os.environ.get("CI") == "true":
        pytest.fail(f"{what}: {error} (CI installs it: scripts/install_toolchains.sh)")
    pytest.skip(f"{what}: {error}")


def _toolchain_and_sandbox(language: str) -> tuple[Toolchain, Sandbox]:
    """The newest installed toolchain of `language` and the local sandbox (CI has both)."""
    try:
        toolchain = find_toolchain(language)
    except ToolchainUnavailable as exc:
        _require(f"{language} toolchain", exc)
    try:
        sandbox = get_sandbox("local")
    except SandboxUnavailable as exc:
        _require("local sandbox", exc)
    return toolchain, sandbox


@pytest.mark.slow
@pytest.mark.parametrize("language", runnable_names())
def test_generated_programs_terminate_on_the_real_runtime(language: str, tmp_path: Path) -> None:
    toolchain, sandbox = _toolchain_and_sandbox(language)
    # Exactly what `manage.py fuzz` runs: render options, scheduler flags, Kotlin's pool.
    target = target_for(toolchain, repetitions=5)
    options = dict(target.render_options)
    capabilities = target.spec.capabilities
    # A runtime with known bugs that generated programs hit (its target says which)
    # runs a sample with a short limit and no re-runs: its hangs are expected, and
    # each would otherwise cost minutes (tests/generator/render/test_rust.py runs
    # the Rust libraries' programs in full, each failure explained by a known bug).
    known = target.spec.known_bugs
    per_preset = PER_PRESET_KNOWN_BUGS if known else PER_PRESET
    # A target without select cannot use heuristic E (G-Select alone).
    expressible = [s for s in PRESETS.values() if _expressible(s, capabilities)]
    generated = [
        generate_program(seed, settings, capabilities)
        for settings in expressible
        for seed in range(per_preset)
    ]
    assert all(target.spec.supports(g.program, **options) for g in generated)
    assert len(generated) >= 5 * per_preset
    # A known bug's hang shows in seconds: its threads park (the quiet check), where the
    # full limit would only be waited out.
    limits = Limits(timeout_s=8, quiet_s=3) if known else Limits(timeout_s=30)
    triage = Triage(retries=0 if known else 1)
    failures = []
    for start in range(0, len(generated), BATCH):
        chunk = generated[start : start + BATCH]
        report = execute_batch(
            [g.program for g in chunk],
            target,
            workdir=tmp_path / "build",
            sandbox=sandbox,
            limits=limits,
            triage=triage,
        )
        for g, execution in zip(chunk, report.executions, strict=True):
            if execution.outcome is not Outcome.TERMINATED:
                last = execution.attempts[-1] if execution.attempts else None
                failures.append(
                    f"seed {g.seed} ({effects.to_text(g.effect)}): "
                    f"{execution.classification.reason}\n"
                    f"{execution.compile_output[:2000]}"
                    f"{(last.stderr + last.stdout)[:2000] if last else ''}"
                )
    if failures and known:
        pytest.xfail(
            f"{len(failures)} of {len(generated)} programs hit the runtime's known bugs "
            f"({' '.join(known)}):\n\n" + "\n\n".join(failures)
        )
    assert not failures, "\n\n".join(failures)


PCT_PER_PRESET = 3


@pytest.mark.slow
@pytest.mark.parametrize("language", runnable_names())
def test_perturbed_programs_terminate_on_the_real_runtime(language: str, tmp_path: Path) -> None:
    """With yields at PCT change points (`--pct-depth`), generated programs still build and
    terminate: a yield gives up the thread, it never blocks."""
    toolchain, sandbox = _toolchain_and_sandbox(language)
    target = target_for(toolchain, repetitions=5, pct_depth=4)
    options = dict(target.render_options)
    assert options["pct_depth"] == 4
    capabilities = target.spec.capabilities
    generated = [
        generate_program(seed, settings, capabilities)
        for settings in PRESETS.values()
        if _expressible(settings, capabilities)
        for seed in range(PCT_PER_PRESET)
    ]
    known = target.spec.known_bugs
    report = execute_batch(
        [g.program for g in generated],
        target,
        workdir=tmp_path / "build",
        sandbox=sandbox,
        limits=Limits(timeout_s=8 if known else 30, quiet_s=3 if known else None),
        triage=Triage(retries=0 if known else 1),
    )
    # A compile error is the renderer's, whatever bugs the runtime has: never excused.
    unbuilt = [e for e in report.executions if e.outcome is Outcome.COMPILE_ERROR]
    assert not unbuilt, unbuilt[0].compile_output[:3000]
    failures = [
        f"seed {g.seed} ({effects.to_text(g.effect)}): {e.classification.reason}"
        for g, e in zip(generated, report.executions, strict=True)
        if e.outcome is not Outcome.TERMINATED
    ]
    if failures and known:
        pytest.xfail(f"known bugs ({' '.join(known)}):\n" + "\n".join(failures))
    assert not failures, "\n".join(failures)

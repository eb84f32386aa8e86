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
from generator.pipeline import generate_program
from generator.settings import PRESETS
from runners.engine.execute import Triage, execute_batch, target_for
from runners.engine.sandbox import Limits, SandboxUnavailable, get_sandbox
from runners.engine.toolchains import ToolchainUnavailable, find_toolchain
from runners.engine.verdicts import Outcome
from runners.targets import runnable_names

PER_PRESET = 17
BATCH = 51


def _require(what: str, error: Exception) -> None:
    if os.environ.get("CI") == "true":
        pytest.fail(f"{what}: {error} (CI installs it: scripts/install_toolchains.sh)")
    pytest.skip(f"{what}: {error}")


@pytest.mark.slow
@pytest.mark.parametrize("language", runnable_names())
def test_generated_programs_terminate_on_the_real_runtime(language: str, tmp_path: Path) -> None:
    try:
        toolchain = find_toolchain(language)
    except ToolchainUnavailable as exc:
        _require(f"{language} toolchain", exc)
    try:
        sandbox = get_sandbox("local")
    except SandboxUnavailable as exc:
        _require("local sandbox", exc)
    # Exactly what `manage.py fuzz` runs: render options, scheduler flags, Kotlin's pool.
    target = target_for(toolchain, repetitions=5)
    options = dict(target.render_options)
    capabilities = target.spec.capabilities
    generated = [
        generate_program(seed, settings, capabilities)
        for settings in PRESETS.values()
        for seed in range(PER_PRESET)
    ]
    assert all(target.spec.supports(g.program, **options) for g in generated)
    assert len(generated) >= 100
    failures = []
    for start in range(0, len(generated), BATCH):
        chunk = generated[start : start + BATCH]
        report = execute_batch(
            [g.program for g in chunk],
            target,
            workdir=tmp_path / "build",
            sandbox=sandbox,
            limits=Limits(timeout_s=30),
            triage=Triage(retries=1),
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
    assert not failures, "\n\n".join(failures)

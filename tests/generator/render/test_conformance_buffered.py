"""Conformance beyond the paper (issue #15): generated programs with buffered channels, close
and range, and selects with a default where the target can write one (generator.defaults),
rendered, compiled and run on the real toolchains.

The `buffered` setting widens each generated program (generator.buffering) and
the checker proves the result terminating, so each must exit 0 on a correct
runtime, with the value oracle on and off: under it a receive that finds its
channel closed must not be reported as a wrong value. 48 programs per language
and oracle setting (8 seeds of each preset A–F; 24 on the JVM and Racket, whose
runs start a VM), in batches of 51 behind a dispatcher, as
tests/generator/render/test_conformance.py runs the paper's.

Generated programs keep the paper's one receive per send, so their receives
almost never find a channel closed *and empty* (a proved program leaves no
message behind): the few fixed effects of CLOSED_EMPTY do, each synthesised
with several seeds and run in the same batches. A renderer that read the zero
value of a closed channel as a message fails there, not in the generated ones.

Parametrised over the runnable targets whose renderer declares something beyond
the paper (`generator.render.beyond_paper`), but Rust's, which have a file of their
own: a renderer that gains it is tested here with its target's capabilities, which
say what generation may use. Older releases of the JVM targets are sampled in
test_conformance_buffered_jvm.py. A
failure carries the seed, the effect, the verdict and the output.
"""

from __future__ import annotations

import time
from pathlib import Path
from random import Random

import pytest

from generator import effects
from generator.capabilities import Capabilities
from generator.effects import capacities
from generator.lambda_chan import Program
from generator.pipeline import Generated, generate_program
from generator.render import beyond_paper
from generator.render._common import CloseS, RangeS, has_select_default, lower, walk
from generator.settings import PRESETS, settings_for
from generator.synthesis import synthesize
from generator.termination import check_effect
from runners.engine.execute import execute_batch
from runners.engine.run_alone import Triage
from runners.engine.run_target import target_for
from runners.engine.sandbox import Limits
from runners.engine.verdicts import Outcome
from runners.targets import get_target, runnable_names
from tests.generator.render.test_conformance import _expressible, _toolchain_and_sandbox

# 8 seeds of each preset: every construct shows in many programs (asserted), and the
# paper's own conformance test (test_conformance.py) runs 17; CI's time is kept for both.
PER_PRESET = 8
# A run on the JVM or Racket starts a VM (0.5–1 s a program, and Clojure's compile is
# slow): half the sample, so that CI's cold run stays within its hour.
PER_PRESET_SLOW = 4
SLOW = frozenset({"kotlin", "clojure-go", "clojure-thread", "racket"})
PER_PRESET_KNOWN_BUGS = 3
BATCH = 51
# The target's capability for each construct the renderer declares (`beyond_paper`).
EXTENSION = {"buffered": "buffered", "close": "close", "default": "select_default"}

# Receives that find their channel closed and drained: plain, in a select, a range
# over a channel nobody sent on. Each is proved terminating (asserted below).
CLOSED_EMPTY = (
    "Chan(c) ; Spawn(Close(c)) ; Get(c) ; Get(c)",
    "Chan(c) ; Spawn(Close(c)) ; Range(c, eps)",
    "Chan(c, 1) ; Chan(d) ; Spawn(Put(c) ; Close(c)) ; Spawn(Put(d)) ; "
    "Get(c) ; Get(c) ; SelGet(c, Get(d)) (+) SelGet(d, Get(c))",
    "Chan(c) ; Chan(d, 1) ; Spawn(Close(c) ; Put(d) ; Close(d)) ; "
    "SelGet(c, Get(d)) (+) SelGet(d, Get(c))",
    "Chan(c, 2) ; Chan(d) ; Spawn(Put(c) ; Close(c)) ; Spawn(Put(d) ; Close(d)) ; "
    "Range(c, SelGet(d, eps) (+) SelGet(c, eps)) ; Get(d)",
    "Chan(c, 1) ; Spawn(Put(c) ; Close(c)) ; Get(c) ; Get(c)",
    "Chan(c, 3) ; Chan(d) ; Spawn(Put(c) ; Put(c) ; Close(c) ; Get(d)) ; "
    "Range(c, Spawn(eps)) ; Put(d)",
)
CLOSED_EMPTY_SEEDS = 3


def _beyond_paper_targets() -> list[str]:
    # The Rust targets have a stricter test of their own (test_conformance_buffered_rust.py:
    # a buggy crate's failures must be ones its known bugs explain, and selects on buffers
    # that must pass everywhere); running them here too would only cost CI minutes.
    return [
        n
        for n in runnable_names()
        if beyond_paper(get_target(n).renderer) and get_target(n).renderer != "rust"
    ]


def _claimed(capabilities: Capabilities) -> set[str]:
    return {name for name, field in EXTENSION.items() if getattr(capabilities, field)}


def _closed_empty(claimed: set[str]) -> list[tuple[str, Program]]:
    """CLOSED_EMPTY's programs the target can express, labelled for a failure message."""
    out = []
    for text in CLOSED_EMPTY:
        effect = effects.parse(text)
        assert check_effect(effect).terminating is True, text
        if "close" not in claimed or (
            "buffered" not in claimed and any(capacities(effect).values())
        ):
            continue
        for seed in range(CLOSED_EMPTY_SEEDS):
            out.append((f"{text} (synthesised with seed {seed})", synthesize(effect, Random(seed))))
    return out


def _constructs(generated: list[Generated]) -> dict[str, int]:
    """How many programs use each construct (the test is worth only what they reach)."""
    counts = dict.fromkeys(("buffered", "close", "range", "default"), 0)
    for g in generated:
        lowered = lower(g.program)
        body = list(walk(lowered.body))
        counts["buffered"] += bool(lowered.capacities)
        counts["close"] += bool(lowered.closed())
        counts["range"] += any(isinstance(s, RangeS) for s in body)
        counts["default"] += has_select_default(lowered.body)
    return counts


@pytest.mark.slow
@pytest.mark.parametrize("values", [False, True], ids=["plain", "values"])
@pytest.mark.parametrize("language", _beyond_paper_targets())
def test_buffered_programs_terminate_on_the_real_runtime(
    language: str, values: bool, tmp_path: Path
) -> None:
    toolchain, sandbox = _toolchain_and_sandbox(language)
    target = target_for(toolchain, repetitions=5, values=values)
    options = dict(target.render_options)
    assert options.get("values", False) is values
    capabilities = target.spec.capabilities
    # The target must claim what its renderer writes, and no more: generation reads
    # the capabilities, the renderer refuses what it does not declare.
    claimed = _claimed(capabilities)
    assert claimed, f"{language}'s renderer declares {set(beyond_paper(target.spec.renderer))}"
    assert claimed <= beyond_paper(target.spec.renderer)
    known = target.spec.known_bugs
    per_preset = (
        PER_PRESET_KNOWN_BUGS if known else PER_PRESET_SLOW if language in SLOW else PER_PRESET
    )
    generated = [
        generate_program(seed, settings_for(name, buffered=True), capabilities)
        for name, preset in PRESETS.items()
        if _expressible(preset, capabilities)
        for seed in range(per_preset)
    ]
    assert all(target.spec.supports(g.program, **options) for g in generated)
    counts = _constructs(generated)
    # Every construct the target claims shows up in a fair share of the programs (of
    # the full sample: a known-bugs runtime's few seeds may happen to miss one).
    if "buffered" in claimed and not known:
        assert counts["buffered"] >= len(generated) // 4, counts
    if "close" in claimed and not known:
        assert counts["close"] >= len(generated) // 4 and counts["range"] > 0, counts
    if "default" in claimed and not known:
        assert counts["default"] >= len(generated) // 4, counts
    if "close" not in claimed:
        assert not any(
            isinstance(s, CloseS) for g in generated for s in walk(lower(g.program).body)
        )

    cases = [(f"seed {g.seed} ({effects.to_text(g.effect)})", g.program) for g in generated]
    fixed = _closed_empty(claimed)
    cases += fixed

    limits = Limits(timeout_s=8 if known else 30)
    triage = Triage(retries=0 if known else 1)
    failures = []
    started = time.monotonic()
    for start in range(0, len(cases), BATCH):
        chunk = cases[start : start + BATCH]
        report = execute_batch(
            [program for _, program in chunk],
            target,
            workdir=tmp_path / "build",
            sandbox=sandbox,
            limits=limits,
            triage=triage,
        )
        for (label, _), execution in zip(chunk, report.executions, strict=True):
            # A compile error is the renderer's, whatever bugs the runtime has.
            if execution.outcome is Outcome.COMPILE_ERROR:
                pytest.fail(f"{label}: {execution.compile_output[:3000]}")
            if execution.outcome is not Outcome.TERMINATED:
                last = execution.attempts[-1] if execution.attempts else None
                failures.append(
                    f"{label}: {execution.classification.reason}\n"
                    f"{(last.stderr + last.stdout)[:2000] if last else ''}"
                )
    # The numbers, for `pytest -s` and the report of what was run.
    print(
        f"\n{language} values={values}: {len(generated)} generated programs, "
        f"{counts['buffered']} buffered, {counts['close']} with close, "
        f"{counts['range']} with range, {counts['default']} with a default; {len(fixed)} "
        f"fixed; {len(failures)} failed, "
        f"{time.monotonic() - started:.1f} s to build and run"
    )
    if failures and known:
        pytest.xfail(
            f"{len(failures)} of {len(cases)} programs hit the runtime's known bugs "
            f"({' '.join(known)}):\n\n" + "\n\n".join(failures)
        )
    assert not failures, "\n\n".join(failures)

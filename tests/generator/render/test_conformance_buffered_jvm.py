"""Conformance beyond the paper on older releases of the JVM targets (issue #15): generated
programs with buffered channels, close and range, rendered for a release whose rendering
differs from the newest's, compiled and run on the real toolchain.

The newest releases are test_conformance_buffered.py's, with every other target. Here a
sample of 18 generated programs (3 seeds of each preset A–F, with the `buffered` setting
and the target's capabilities) and the fixed CLOSED_EMPTY effects, with the value oracle
on, on: Kotlin 0.19 (the experimental package layout and receiveOrNull), 1.3.0
(receiveOrNull in the modern layout) and core.async 0.3.443 (the Clojure 1.7 era; the
releases before 0.1.278 cannot close). CI installs them (toolchains/kotlin/
representative.txt, scripts/test.sh). Every program is proved terminating and free of
sends on closed channels, so each must exit 0. A failure carries the seed, the effect,
the verdict and the output.

Kotlin 0.19 itself has two channel bugs that generated programs hit (docs/kotlin-report.md):
select's stack overflow (Kotlin/kotlinx.coroutines#504) and a lost wake-up that parks every
dispatcher thread. Runs on it that show either are the release's, not the rendering's: an
overflow is recognised by its signature, the lost wake-up by its parked threads and a re-run
of the same program that terminates (a deadlock in the rendering hangs every run).
Generated program F seed 2 hangs so on 0.19 in about one run of 300 repetitions in two.

1.3.0 has that lost wake-up too, with buffered channels: F seed 2 parks every dispatcher
thread in about one run of 10,000 repetitions on every release from 0.22.5 to 1.3.2 tried,
and on none of 1.3.3, 1.7.0 and 1.11.0; and a livelock (one dispatcher thread spinning in
receiveSuspend, the rest parked) bisected to the same releases (README, "What chanfuzz found
here"). CI once saw the lost wake-up with this test's 5 repetitions. Each release's own bugs
are listed (RELEASE_BUGS): 1.3.0 has no select overflow, so one there still fails.
"""

from __future__ import annotations

import time
from pathlib import Path
from random import Random

import pytest

from generator import effects
from generator.lambda_chan import Program
from generator.pipeline import generate_program
from generator.render._common import CloseS, RangeS, lower, walk
from generator.settings import PRESETS, settings_for
from generator.synthesis import synthesize
from generator.termination import check_effect
from runners.engine.execute import execute_batch
from runners.engine.run_alone import Triage
from runners.engine.run_records import ProgramRun
from runners.engine.run_target import RunTarget, target_for
from runners.engine.sandbox import Limits, Sandbox
from runners.engine.toolchains import ToolchainUnavailable, find_toolchain
from runners.engine.verdicts import Outcome
from runners.kotlin_study.report import is_parked_hang, is_select_overflow
from runners.targets.kotlin import DEFAULT_KOTLIN_THREADS
from tests.generator.render.test_conformance import (
    _expressible,
    _require,
    _toolchain_and_sandbox,
)
from tests.generator.render.test_conformance_buffered import CLOSED_EMPTY

OLD_PER_PRESET = 3
BATCH = 51
# Older releases worth a sample: each renders differently from the newest.
OLD_RELEASES = (("kotlin", "0.19"), ("kotlin", "1.3.0"), ("clojure-go", "0.3.443"))
OLD_RELEASES += (("clojure-thread", "0.3.443"),)

CLOSED_EMPTY_SEEDS = 2
# Releases with channel bugs of their own that generated programs hit, and which: a hang
# of theirs must not repeat in every re-run. 1.3.0 has no #504 overflow (docs/kotlin-report.md).
RELEASE_BUGS = {
    ("kotlin", "0.19"): ("overflow", "lost wake-up", "livelock"),
    ("kotlin", "1.3.0"): ("lost wake-up", "livelock"),
}
BUGGY_RERUNS = 3


def _closed_empty() -> list[tuple[str, Program]]:
    out = []
    for text in CLOSED_EMPTY:
        effect = effects.parse(text)
        assert check_effect(effect).terminating is True, text
        out += [
            (f"{text} [seed {s}]", synthesize(effect, Random(s))) for s in range(CLOSED_EMPTY_SEEDS)
        ]
    return out


def _generated(target: RunTarget, per_preset: int) -> list[tuple[str, Program]]:
    capabilities = target.spec.capabilities
    assert capabilities.buffered and capabilities.close
    out = []
    for name in PRESETS:
        settings = settings_for(name, buffered=True)
        if not _expressible(settings, capabilities):
            continue
        for seed in range(per_preset):
            g = generate_program(seed, settings, capabilities)
            out.append((f"{name} seed {seed} ({effects.to_text(g.effect)})", g.program))
    return out


def _uses(programs: list[Program]) -> dict[str, int]:
    """How many of `programs` use a buffered channel, an unbounded one, a close, a range."""
    counts = {"buffered": 0, "unbounded": 0, "close": 0, "range": 0}
    for program in programs:
        lowered = lower(program)
        body = list(walk(lowered.body))
        counts["buffered"] += bool(lowered.capacities)
        counts["unbounded"] += effects.UNBOUNDED in dict(lowered.capacities).values()
        counts["close"] += any(isinstance(s, CloseS) for s in body)
        counts["range"] += any(isinstance(s, RangeS) for s in body)
    return counts


def _the_releases_bug(execution: ProgramRun, bugs: tuple[str, ...]) -> bool:
    """Whether a run that failed on a buggy release shows one of its `bugs`: the select
    overflow; or, in a hang that some re-run of the same program does not repeat, the lost
    wake-up (every dispatcher thread parked) or the livelock (one spinning, the rest
    parked: README, "What chanfuzz found here")."""
    signature = execution.classification.signature
    if is_select_overflow(signature):
        return "overflow" in bugs
    if not any(not a.timed_out for a in execution.attempts[1:]):
        return False
    spinning = f"RUNNABLE, TIMED_WAITING parking, WAITING parking×{DEFAULT_KOTLIN_THREADS - 1}"
    return ("lost wake-up" in bugs and is_parked_hang(signature)) or (
        "livelock" in bugs and signature.endswith(f"| hang | {spinning}")
    )


def _run(
    target: RunTarget,
    sandbox: Sandbox,
    labelled: list[tuple[str, Program]],
    workdir: Path,
    *,
    bugs: tuple[str, ...] = (),
) -> list[str]:
    """Every program in batches; the failures, each with what to investigate it. On a
    release with `bugs` of its own, the runs that show them are printed, not failures."""
    programs = [p for _, p in labelled]
    options = dict(target.render_options)
    refused = [(label, target.spec.unsupported_reason(p, **options)) for label, p in labelled]
    assert all(reason is None for _, reason in refused), [r for r in refused if r[1]]
    started = time.monotonic()
    failures = []
    releases = []
    for start in range(0, len(programs), BATCH):
        chunk = labelled[start : start + BATCH]
        report = execute_batch(
            [p for _, p in chunk],
            target,
            workdir=workdir / f"batch{start}",
            sandbox=sandbox,
            limits=Limits(timeout_s=30),
            triage=Triage(retries=BUGGY_RERUNS if bugs else 1),
        )
        for (label, _), execution in zip(chunk, report.executions, strict=True):
            if execution.outcome is Outcome.TERMINATED:
                continue
            if bugs and _the_releases_bug(execution, bugs):
                releases.append(f"{label}: {execution.classification.reason}")
                continue
            last = execution.attempts[-1] if execution.attempts else None
            failures.append(
                f"{label}: {execution.classification.reason}\n"
                f"{execution.compile_output[:2000]}"
                f"{(last.stderr + last.stdout)[:2000] if last else ''}"
            )
    generated = [p for label, p in labelled if not label.endswith("]")]
    uses = ", ".join(f"{n} {k}" for k, n in _uses(generated).items())
    print(
        f"\n{target.toolchain.id} {options}: {len(programs)} programs, {len(generated)} "
        f"generated ({uses}) and {len(programs) - len(generated)} of CLOSED_EMPTY, "
        f"in {time.monotonic() - started:.0f} s, {len(failures)} failed"
    )
    for line in releases:
        print(f"  the release's own bug: {line}")
    return failures


@pytest.mark.slow
@pytest.mark.parametrize(("language", "version"), OLD_RELEASES)
def test_buffered_programs_terminate_on_an_older_release(
    language: str, version: str, tmp_path: Path
) -> None:
    try:
        toolchain = find_toolchain(language, version)
    except ToolchainUnavailable as exc:
        _require(f"{language} {version}", exc)
    _, sandbox = _toolchain_and_sandbox(language)
    target = target_for(toolchain, repetitions=5, values=True)
    labelled = _generated(target, OLD_PER_PRESET) + _closed_empty()
    bugs = RELEASE_BUGS.get((language, version), ())
    failures = _run(target, sandbox, labelled, tmp_path, bugs=bugs)
    assert not failures, "\n\n".join(failures)

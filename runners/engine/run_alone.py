"""One program's run of its own, sandboxed, and the triage of a timeout (SPEC §9).

The first attempt asks the runtime for its dump (SIGQUIT: Go's goroutines, the JVM's
threads; for a runtime that prints none, the tool its target declares attaches from
outside: eu-stack for Rust); then the program is re-run with a longer limit a few times,
the re-runs at once (each only says whether it hangs again). Every attempt is recorded; a
hang is confirmed when every re-run hangs too. How hard to look is a Triage.
"""

from __future__ import annotations

import time
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path
from signal import SIGXCPU

from generator.lambda_chan import Program
from runners import config
from runners.engine.build import Artifact
from runners.engine.run_records import Attempt, ProgramRun, Stages
from runners.engine.run_target import RunTarget
from runners.engine.sandbox import Bind, Limits, Sandbox, SandboxError
from runners.engine.sandbox.base import BlockedHook
from runners.engine.schedule import threads_for
from runners.engine.toolchains import Toolchain
from runners.engine.verdicts import Classification, Outcome, classify_run
from runners.targets import get_target
from runners.targets.base import TargetSpec

# Re-runs of a timeout: each holds a core for up to `factor` times the limit, all at once.
MAX_TRIAGE_RETRIES = 10
# Runs of a program that ends clean, a process each (Triage.runs).
MAX_RUNS = 20


@dataclass(frozen=True)
class Triage:
    """How hard to look at a program: up to `runs` runs, each a process of its own, while
    it ends clean (execute.execute_batch); a timeout's `retries` re-runs with the limit multiplied
    by `factor`.

    More than one run is for races a cold runtime meets now and then, which repetitions in
    one process do not replace (a JIT the first repetitions warmed no longer meets #504).
    They find more of the racy programs, each run costing a run but no compile: #504 on
    kotlinx.coroutines 0.19 overflowed in 8 of 80 programs of heuristic E run four times
    each, in 3 of them at their first run. They pay where a compile costs more than a run,
    or for given programs (a finding's, run on other releases); where the two cost about the
    same, as there, they break even."""

    retries: int = 2
    factor: float = 3.0
    runs: int = 1

    def __post_init__(self) -> None:
        runs = self.runs
        if isinstance(runs, bool) or not isinstance(runs, int) or not 1 <= runs <= MAX_RUNS:
            raise ValueError(f"runs must be from 1 to {MAX_RUNS}, not {runs!r}")
        retries = self.retries
        if (
            isinstance(retries, bool)
            or not isinstance(retries, int)
            or not (0 <= retries <= MAX_TRIAGE_RETRIES)
        ):
            raise ValueError(f"re-runs must be from 0 to {MAX_TRIAGE_RETRIES}, not {retries!r}")
        if not self.factor >= 1:  # NaN too: a re-run never gets less time than the run
            raise ValueError(f"a re-run's limit factor must be at least 1, not {self.factor!r}")


DEFAULT_TRIAGE = Triage()


def sandbox_binds(toolchain: Toolchain, artifact: Artifact) -> list[Bind]:
    """Host paths the program needs inside the sandbox (read-only); /usr is always there."""
    paths = {artifact.path, toolchain.home, *get_target(toolchain.language).binds(toolchain)}
    wanted = sorted(str(p.resolve()) for p in paths if p and not str(p).startswith("/usr/"))
    # Nested paths would bind twice; the outermost covers the rest.
    outer = [p for p in wanted if not any(p != q and p.startswith(q + "/") for q in wanted)]
    return [Bind(p) for p in outer if Path(p).exists()]


def target_limits(spec: TargetSpec, limits: Limits) -> Limits:
    """``limits`` with what the target asks of every run of its programs: its scheduling,
    unless ``$CHANFUZZ_BATCH_SCHEDULING`` says no."""
    if spec.batch_scheduling and not limits.batch_scheduling and config.batch_scheduling():
        return replace(limits, batch_scheduling=True)
    return limits


def run_one(
    target: RunTarget,
    artifact: Artifact,
    index: int,
    *,
    sandbox: Sandbox,
    limits: Limits,
    triage: Triage = DEFAULT_TRIAGE,
    program: Program | None = None,
    stages: Stages | None = None,
    suspected: bool = False,
    blocked: BlockedHook | None = None,
) -> ProgramRun:
    """Run program `index` of a built batch; triage it if it times out.

    With `program` (the one at `index`) and a target rendered with `pct_depth`, the run
    gets the thread count schedule perturbation draws for it (runners.engine.schedule),
    recorded on each attempt, where the target can set one. `stages`, when given, adds
    the runs' and the verdicts' time to it. A `suspected` program (a shared run stopped
    in it, blocked) is re-run with its first run, not after it: most such hang, and a
    hang's runs wait without a core; where the first run ends by itself, its re-runs
    are left to end on their own and count for nothing. `blocked` is told when the
    first run has been blocked for its `after_s` (Limits.blocked), under a quiet period."""
    language = target.language
    stages = stages if stages is not None else Stages()
    binds = sandbox_binds(target.toolchain, artifact)
    spec = target.spec
    limits = target_limits(spec, limits)
    options = dict(target.render_options)
    env = dict(spec.run_env)
    threads: int | None = None
    if program is not None and "pct_depth" in options and spec.threads_env is not None:
        threads = threads_for(program, int(options["pct_depth"]))
        chosen = spec.threads_env(threads, options)
        env.update(chosen)
        threads = threads if chosen else None
    run_env = env or None

    def attempt(lim: Limits, dump: bool) -> tuple[Attempt, Classification]:
        # Only the first attempt is dumped: the re-runs only tell whether it hangs again.
        started = time.perf_counter()
        result = sandbox.run(
            artifact.argv(index),
            binds=binds,
            env=run_env,
            limits=lim,
            dump_signal=spec.dump_signal if dump else None,
            dump_command=spec.dump_command if dump else None,
        )
        ran = time.perf_counter()
        verdict = classify_run(
            language,
            exit_code=result.exit_code,
            signal=result.signal,
            timed_out=result.out_of_time,
            stdout=result.stdout,
            stderr=result.stderr,
            dump=result.dump,
        )
        stages.add_run(ran - started, time.perf_counter() - ran)
        return (
            Attempt(
                lim.timeout_s,
                verdict.outcome,
                result.exit_code,
                result.signal,
                result.out_of_time,
                result.duration_s,
                result.stdout,
                result.stderr,
                result.dump,
                result.quiet,
                threads,
                cpu_s=result.cpu_s,
            ),
            verdict,
        )

    longer = replace(limits, timeout_s=limits.timeout_s * triage.factor)

    def rerun() -> list[Future[tuple[Attempt, Classification]]]:
        # The re-runs at once: each only tells whether the program hangs again, and a hang
        # waits out its quiet period or limit without a core. A pool only for a program
        # that is re-run: most runs end cleanly, and this is every program's path.
        pool = ThreadPoolExecutor(triage.retries, thread_name_prefix="chanfuzz-rerun")
        started = [pool.submit(attempt, longer, False) for _ in range(triage.retries)]
        pool.shutdown(wait=False)  # the threads end with their runs
        return started

    early = rerun() if suspected and triage.retries else []
    try:
        first, verdict = attempt(replace(limits, blocked=blocked) if blocked else limits, True)
    except SandboxError as exc:
        return ProgramRun(index, Classification(Outcome.INFRA_ERROR, str(exc), ""))
    attempts = [first]
    if verdict.outcome is not Outcome.TIMEOUT:
        return ProgramRun(index, verdict, tuple(attempts))  # early re-runs end on their own
    submitted = early or (rerun() if triage.retries else [])
    for future in submitted:
        try:
            retry, _ = future.result()
        except SandboxError as exc:
            return ProgramRun(index, Classification(Outcome.INFRA_ERROR, str(exc), ""))
        attempts.append(retry)
    if first.timed_out and not first.quiet:
        rerun_s = max((a.duration_s for a in attempts[1:]), default=0.0)
        # The re-runs went after the first run, or beside it where it was suspected.
        both_s = max(first.duration_s, rerun_s) if early else first.duration_s + rerun_s
        stages.out_of_time_s += both_s
    reruns = len(attempts) - 1
    # Without a re-run nothing confirmed the hang, nor showed it did not repeat.
    confirmed = all(a.timed_out for a in attempts[1:]) if reruns else None
    hung = sum(a.timed_out for a in attempts[1:])
    first_how = how_it_ran_out(first, limits)
    reason = (
        f"{first_how}; hung again in {hung} of {reruns} re-runs with {longer.timeout_s:g} s"
        if reruns
        else f"{first_how} (not re-run)"
    )
    return ProgramRun(
        index,
        replace(verdict, reason=reason),
        tuple(attempts),
        hang_confirmed=confirmed,
    )


def how_it_ran_out(first: Attempt, limits: Limits) -> str:
    """How a run that timed out under `limits` ran out of time, for its finding's title:
    blocked (the quiet period), spinning (its CPU-time limit, or the quiet watch saw it
    use CPU to the end: a livelock, or a program too slow), or just out of time."""
    if first.quiet:
        return (
            f"every process blocked for {limits.quiet_s:g} s (no CPU used) before the"
            f" {limits.timeout_s:g} s limit"
        )
    if first.signal == SIGXCPU:
        return f"spun through its CPU-time limit (SIGXCPU) before the {limits.timeout_s:g} s limit"
    if limits.quiet_s is not None and first.cpu_s is not None:
        return (
            f"no exit within {limits.timeout_s:g} s and never blocked for {limits.quiet_s:g} s"
            f" ({first.cpu_s:.1f} s of CPU used)"
        )
    return f"no exit within {limits.timeout_s:g} s"

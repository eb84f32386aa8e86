"""Execute generated programs on one target: render, batch-compile, run sandboxed, judge.

This module owns the path from λ_chan programs to verdicts:

1. Render all programs of a batch into one compilation unit with a dispatcher
   `main` (one compile serves many programs: compile time dominates otherwise).
2. Build it (artifact cache keyed on toolchain + source). If the batch does not
   compile, split it in halves until the culprits stand alone; each culprit
   gets a compile-error verdict, the rest still run.
3. Run each program as its own process in the sandbox, program index as the
   argument, and classify the run (runners.engine.verdicts). Where a process start
   costs more than most programs' runs (a JVM, Racket, a Go or Rust binary in the sandbox:
   `TargetSpec.group_runs`), programs share one run, each marking its end on stdout,
   and each marked one is judged from its share of the output. A batch's first shared
   run takes `CHANFUZZ_SHARED_RUN_SIZE` programs (or as many as the last batch's runs
   grew to, where the caller carries that: SharedRunSize); each run that every program
   of it ended cleanly doubles the next, up to GROWTH times that, while its time scaled
   up says the next fits in half the limit (next_group_size). A crash
   ends the process:
   the program that did not mark its end is judged from what the run printed after
   the last mark (its attempt says it shared the run). A run the time limit cut
   judges no more: the program it stopped in runs alone, with its own limit, dump
   and re-runs. Where its quiet period cut it (every process blocked: a hang that
   uses no core), that program waits on a thread of its own (at most the target's
   `hangs_aside` at once) while the rest of the batch shares runs again, so a runtime
   that hangs often (flume, chan: one program in four to thirty) costs the batch a
   shared run's quiet period a hang (the target's `shared_quiet_s`), not three or four
   of the run's own. Where the target allows (`shared_runs_at_once`: Rust), a batch
   has several shared runs under way at once, each on a lane of its own, so that the
   core a blocked run leaves while its quiet period passes goes to another; verdicts are
   recorded in the caller's thread all the same.
   Where its limit cut it (a spin, or a program too slow), the rest of the batch runs
   alone: whose the time was is not known, and a spin beside the batch would take its core.
   A program run alone (Kotlin's, a JVM each, or after such a cut) whose processes have
   all blocked for the target's shared quiet period, under a quiet period longer than
   that, goes on aside the same way, its run not cut, and the next program starts.
4. Triage a timeout (SPEC §9): the first attempt asks the runtime for its dump
   (SIGQUIT: Go's goroutines, the JVM's threads; for a runtime that prints none,
   the tool its target declares attaches from outside: eu-stack for Rust); then the program
   is re-run with a longer limit a few times, the re-runs at once (each only says whether it hangs
   again). Every attempt is recorded; a hang is confirmed when every re-run hangs too.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ALL_COMPLETED, FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field, replace
from pathlib import Path
from signal import SIGXCPU

from generator.lambda_chan import Program
from generator.render import GROUP_DONE
from runners import config
from runners.engine.build import Artifact, CompileError, build
from runners.engine.culprit import named_program
from runners.engine.sandbox import Bind, Limits, Sandbox, SandboxError
from runners.engine.sandbox.base import BlockedHook
from runners.engine.schedule import threads_for
from runners.engine.toolchains import Toolchain, find_toolchain
from runners.engine.verdicts import Classification, Outcome, classify_run
from runners.targets import get_target
from runners.targets.base import SHARED_QUIET_S, RunSettings, TargetSpec


@dataclass(frozen=True)
class RunTarget:
    """What programs run on: a toolchain plus how to render and build for it."""

    toolchain: Toolchain
    repetitions: int = 20
    render_options: tuple[tuple[str, object], ...] = ()
    build_flags: tuple[str, ...] = ()

    @property
    def language(self) -> str:
        return self.toolchain.language

    @property
    def spec(self) -> TargetSpec:
        """The target's declaration in the registry."""
        return get_target(self.toolchain.language)

    @property
    def label(self) -> str:
        return f"{self.toolchain.language} {self.toolchain.version}"


def make_target(
    language: str,
    version: str | None = None,
    *,
    repetitions: int = 10,
    threads: int | None = None,
    values: bool = True,
    pct_depth: int | None = None,
) -> RunTarget:
    """The target for a language and version (ToolchainUnavailable when not installed)."""
    toolchain = find_toolchain(language, version)
    return target_for(
        toolchain, repetitions=repetitions, threads=threads, values=values, pct_depth=pct_depth
    )


def target_for(
    toolchain: Toolchain,
    *,
    repetitions: int = 10,
    threads: int | None = None,
    values: bool = True,
    pct_depth: int | None = None,
) -> RunTarget:
    """How programs are rendered and built for `toolchain`, as its target declares:
    its render options (package layout, duplicate clauses, a dispatcher pool of
    `threads` where the runtime has one; None: the target's default; the value
    oracle unless `values` is false; yields at PCT change points with `pct_depth`),
    and the build flags of the parallel scheduler. ValueError when the renderer refuses
    an option's value (`threads` out of its range)."""
    spec = get_target(toolchain.language)
    settings = RunSettings(
        repetitions=repetitions, threads=threads, values=values, pct_depth=pct_depth
    )
    options = spec.run_options(toolchain, settings)
    spec.check_options(**options)  # a bad --threads is an error before any program is made
    return RunTarget(
        toolchain,
        repetitions=repetitions,
        render_options=tuple(sorted(options.items())),
        build_flags=spec.build_flags,
    )


@dataclass(frozen=True)
class Attempt:
    """One run of one program."""

    timeout_s: float
    outcome: Outcome
    exit_code: int | None
    signal: int | None
    timed_out: bool
    duration_s: float
    stdout: str
    stderr: str
    dump: str | None
    quiet: bool = False  # timed out early, every process blocked (Limits.quiet_s)
    threads: int | None = None  # the runtime threads it ran with, when a perturbed run chose
    # Programs that ran in the same process, one after another (1: alone). A shared run's
    # duration is its share: the run's time over the programs it ran.
    group: int = 1
    # CPU seconds it had used when the quiet watch last looked; None: not watched.
    cpu_s: float | None = None


@dataclass(frozen=True)
class ProgramRun:
    """The verdict on one program, with every attempt that led to it."""

    index: int
    classification: Classification
    attempts: tuple[Attempt, ...] = ()
    compile_output: str = ""
    hang_confirmed: bool | None = None  # None unless the first attempt timed out and re-ran
    # The runs this verdict took: the clean ones before it (Triage.runs) and its own.
    runs: int = 1

    @property
    def outcome(self) -> Outcome:
        return self.classification.outcome


@dataclass
class Stages:
    """Where a batch's time went, in seconds: rendering its source, compiling it (of which
    `compiler_start_s` started a compiler kept running for the batches after it too), the
    sandboxed runs (start-up and running together: bench/throughput.py tells them
    apart), and reading their verdicts; `runs` counts the runs, re-runs included."""

    render_s: float = 0.0
    compile_s: float = 0.0
    compiler_start_s: float = 0.0
    run_s: float = 0.0
    verdict_s: float = 0.0
    runs: int = 0
    # Of run_s, the batch's wait at its end for programs set aside (a quiet hang's own run
    # and re-runs): one hang's length a batch, however many programs it holds, so the batch
    # sizers count it with the compile's fixed cost, not per program.
    waited_s: float = 0.0
    # The same wait where the caller handed it to other work (on_waiting: fuzz's next
    # batch, a campaign's next chunk): no time of the batch's, not in run_s, but a fixed
    # cost to the sizers all the same (sizing_wait_s).
    handed_s: float = 0.0
    # Of run_s, runs their time limit cut, not a quiet period (a spin, a program too slow;
    # without a quiet watch any hang), with their re-runs' wall time (they go at once,
    # after the run or, for a program set aside, beside it), wherever in the batch they
    # ran: SPEC §9's full limit and longer re-runs, which no batching shortens
    # (bench/throughput.py shows this time apart).
    out_of_time_s: float = 0.0
    # A program's re-runs go at once (run_one): their threads add to the same stages.
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    def add_run(self, run_s: float, verdict_s: float) -> None:
        """Count one run that took `run_s` and whose verdict took `verdict_s`."""
        with self._lock:
            self.run_s += run_s
            self.verdict_s += verdict_s
            self.runs += 1

    @property
    def sizing_compile_s(self) -> float:
        """The compile time the batch's size answers for: rendering and compiling, less a
        compiler server's start, which serves the batches after it too (it made Clojure's
        first batch of 25 slower than the next of 50, a line of no per-program cost)."""
        return self.render_s + self.compile_s - self.compiler_start_s

    @property
    def sizing_run_s(self) -> float:
        """The runs' time the batch's size answers for: run_s, and a wait at the end handed
        to other work (its hung programs' runs, under way then)."""
        return self.run_s + self.handed_s

    @property
    def sizing_wait_s(self) -> float:
        """Of sizing_run_s, the wait at the batch's end for programs set aside, whether the
        batch waited it or handed it to other work. Handed, it costs no wall time, yet the
        batches it left small cost more: fuzz on flume (one core, 600 programs, the same
        seeds), its batches sized without handed waits, made batches of 40-120 programs and
        took 23.9-26.1 s, the core idle 11.4 of 24.9 s (within the batches' runs: each batch
        started as the one before went to wait); sized with them, batches of 25, 50, 50 and
        475, 16.8-18.5 s; fixed batches of 300, 15.6-17.5 s, the core idle 4.4 of 17.3 s.
        Why a small batch's runs leave the core idle more was not pinned down: spreading
        its programs over the target's lanes (shared_runs_at_once) did not help."""
        return self.waited_s + self.handed_s


@dataclass
class BatchReport:
    executions: list[ProgramRun] = field(default_factory=list)
    compile_s: float = 0.0
    compiles: int = 0
    stages: Stages = field(default_factory=Stages)


# Re-runs of a timeout: each holds a core for up to `factor` times the limit, all at once.
MAX_TRIAGE_RETRIES = 10
MAX_RUNS = 20
# Runs of a program's body in one process, wherever a user chooses them (the playground has
# a smaller bound). Go's loop counter is an int: a bound past it does not compile.
MAX_REPETITIONS = 100_000


@dataclass(frozen=True)
class Triage:
    """How hard to look at a program: up to `runs` runs, each a process of its own, while
    it ends clean (execute_batch); a timeout's `retries` re-runs with the limit multiplied
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


def _binds(toolchain: Toolchain, artifact: Artifact) -> list[Bind]:
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


def shared_run_limits(limits: Limits, quiet_s: float = SHARED_QUIET_S) -> Limits:
    """The limits of a shared run: a quiet period of at most `quiet_s` (the target's
    `shared_quiet_s`). A shared run blocked that long only says where to split the batch:
    the program it stopped in is judged by a run of its own, under `limits` (a program
    blocked for a moment and then ended is judged as ended there), while the batch goes
    on. A watch that only notes when a run went quiet (the false-hang bench) keeps its
    period."""
    if limits.quiet_s is None or limits.quiet_witness or limits.quiet_s <= quiet_s:
        return limits
    return replace(limits, quiet_s=quiet_s)


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
    binds = _binds(target.toolchain, artifact)
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


Progress = Callable[[ProgramRun], None]


def _shares_runs(target: RunTarget, size: int) -> bool:
    # A perturbed run gets a thread count of its own program's (run_one): not shareable.
    perturbed = "pct_depth" in dict(target.render_options) and target.spec.threads_env
    return target.spec.group_runs and not perturbed and size > 1


def _marked(stdout: str) -> tuple[dict[int, str], str]:
    """What each program of a shared run printed, by its position, for those that ran
    to their end (their GROUP_DONE mark), and what follows the last mark: the output of
    the program the run stopped in."""
    shares: dict[int, str] = {}
    text = ""
    for line in stdout.splitlines(keepends=True):
        index = line[len(GROUP_DONE) :].strip()
        if line.startswith(GROUP_DONE) and index.isdigit():
            shares[int(index)] = text
            text = ""
        else:
            text += line
    return shares, text


@dataclass(frozen=True)
class GroupRun:
    """What a shared run judged: the verdicts of its leading programs, by position; the
    program it stopped in without a verdict, which must run alone (None: none); whether
    the next group may share a run (False: its output could not be told apart); whether
    the run was cut by its time limit or quiet period (a hang, most likely), and by which;
    and how long it took."""

    runs: dict[int, ProgramRun]
    alone: int | None = None
    shareable: bool = True
    hung: bool = False
    duration_s: float = 0.0
    quiet: bool = False  # cut by its quiet period: every process blocked, no core used


# How far shared runs grow: up to this many times CHANFUZZ_SHARED_RUN_SIZE.
GROWTH = 8


@dataclass
class SharedRunSize:
    """How many programs the next shared run of a target takes, carried from one batch to
    the next (`fuzz`'s batches of one target; a campaign's chunks, through
    runners.campaigns.chunk_sizing.shared_runs_for): a batch then starts where the runs of
    the one before grew to, not again at CHANFUZZ_SHARED_RUN_SIZE. Without one, each batch
    starts at that size."""

    size: int = field(default_factory=config.shared_run_size)


# The share of the time limit a shared run may be expected to take. Programs' runs vary
# (a few take ten times the median), and a shared run cut by its limit costs the rest of
# its batch its sharing (_run_built), so the groups stay well inside it.
GROUP_TIME_SHARE = 0.5


def next_group_size(
    size: int, *, programs: int, duration_s: float, timeout_s: float, least: int, most: int
) -> int:
    """The size of the shared run after one of `programs` programs (`size` of them, or
    fewer at a batch's end) that all ended cleanly in `duration_s`.

    The run's time scaled to the programs counts its start again with every program, so
    it errs long: twice `size` (at most `most`) when that says twice `size` programs fit
    in GROUP_TIME_SHARE of `timeout_s`; half `size`, but never fewer than `least` (the
    configured size), when not even `size` do; else `size`. So a run never grows towards
    its limit on a guess, and never shrinks below where it started: where the start is
    most of a run (a JVM in a container on a loaded machine) a smaller run would take
    hardly less time and pay the start more often (sizes shrinking to 2 took `fuzz` on
    Clojure in the docker sandbox from 0.1 s a program to 1.5 s).

    Why grow: a run's start (a sandboxed process; a JVM with Clojure, ~1.3 s) is paid once
    a group, and with groups of 25 it was 6 % of a Go program's cost and two fifths of a
    Clojure-threads one's (bench/throughput.py). Why not start large: a group's time is only
    known once one has run, and a batch of slow programs must not meet its limit."""
    budget = GROUP_TIME_SHARE * timeout_s
    per_program = duration_s / programs
    if per_program * size > budget:
        return max(least, size // 2)
    if per_program * 2 * size <= budget:
        return min(2 * size, most)
    return size


def first_group_size(shared_runs: SharedRunSize | None, configured: int) -> int:
    """The size of a batch's first shared run: where the runs before grew to, within what
    runs may grow to from `configured` (CHANFUZZ_SHARED_RUN_SIZE). A size carried from a
    chunk that ran under another configured size starts within this one's bounds."""
    if shared_runs is None:
        return configured
    return min(max(shared_runs.size, configured), GROWTH * configured)


def run_group(
    target: RunTarget,
    artifact: Artifact,
    positions: Sequence[int],
    *,
    sandbox: Sandbox,
    limits: Limits,
    stages: Stages,
) -> GroupRun:
    """Programs `positions` of a built batch in one run, one after another (module
    docstring, step 3). Each that ran to its end is judged from its share of the output.
    A crash ends the process, so a run that exited early failed in the first program
    with no mark: its output is that program's, and judges it. A run cut by the time
    limit judges no more: whose the time was is not known, so that program runs alone
    (with its own limit, dump and re-runs). Nor does a run whose marks are all there
    but whose whole output is not a clean exit (a warning on stderr, say)."""
    started = time.perf_counter()
    try:
        result = sandbox.run(
            artifact.argv(*positions),
            binds=_binds(target.toolchain, artifact),
            env=dict(target.spec.run_env) or None,
            limits=target_limits(
                target.spec, shared_run_limits(limits, target.spec.shared_quiet_s)
            ),
        )
    except SandboxError:
        return GroupRun({}, shareable=False)
    ran = time.perf_counter()
    stages.run_s += ran - started
    stages.runs += 1
    if result.out_of_time and not result.quiet:
        stages.out_of_time_s += ran - started
    shares, tail = _marked(result.stdout)
    language = target.language
    n = len(positions)
    clean = None  # the verdict of a run whose every program ran to its end
    if len(shares) == n and result.exit_code == 0:
        clean = classify_run(
            language, exit_code=0, signal=None, timed_out=False,
            stdout="".join(shares.values()), stderr=result.stderr,
        )  # fmt: skip
        if clean.outcome is not Outcome.TERMINATED:
            return GroupRun({}, shareable=False)
    runs: dict[int, ProgramRun] = {}
    share_s = result.duration_s / n
    for position in positions:
        if position in shares:
            # Each judged on its own share, unless the whole run was read as clean already.
            verdict = clean or classify_run(
                language, exit_code=0, signal=None, timed_out=False,
                stdout=shares[position], stderr="",
            )  # fmt: skip
            attempt = Attempt(
                limits.timeout_s, verdict.outcome, 0, None, False, share_s,
                shares[position], "", None, group=n,
            )  # fmt: skip
            runs[position] = ProgramRun(position, verdict, (attempt,))
            continue
        # The first program with no mark: the one the run stopped in.
        verdict = None
        if not result.out_of_time and (result.exit_code != 0 or result.signal is not None):
            verdict = classify_run(
                language, exit_code=result.exit_code, signal=result.signal, timed_out=False,
                stdout=tail, stderr=result.stderr,
            )  # fmt: skip
        stages.verdict_s += time.perf_counter() - ran
        if verdict is None or verdict.outcome in (Outcome.TERMINATED, Outcome.INFRA_ERROR):
            return GroupRun(
                runs,
                alone=position,
                hung=result.out_of_time,
                quiet=result.out_of_time and result.quiet,
            )
        attempt = Attempt(
            limits.timeout_s, verdict.outcome, result.exit_code, result.signal, False,
            share_s, tail, result.stderr, None, group=n,
        )  # fmt: skip
        runs[position] = ProgramRun(position, verdict, (attempt,))
        return GroupRun(runs)
    stages.verdict_s += time.perf_counter() - ran
    return GroupRun(runs, duration_s=result.duration_s)


def _waited_for(aside: dict[int, Future[ProgramRun]], return_when: str) -> float:
    """Wait for programs set aside (the first of them or all, `return_when`); the seconds
    it took."""
    started = time.perf_counter()
    wait(aside.values(), return_when=return_when)
    return time.perf_counter() - started


@dataclass
class _Step:
    """What one lane of a built batch ran (_run_built): a shared run of `group`, or its one
    program alone, with the step's own stages."""

    group: list[int]
    stages: Stages
    shared: GroupRun | None = None
    alone: ProgramRun | None = None


def _run_built(
    target: RunTarget,
    artifact: Artifact,
    programs: Sequence[Program],
    *,
    sandbox: Sandbox,
    limits: Limits,
    triage: Triage,
    stages: Stages,
    record: Callable[[int, ProgramRun], None],
    after_run: Callable[[], None] | None = None,
    shared_runs: SharedRunSize | None = None,
    on_waiting: Callable[[], bool] | None = None,
) -> None:
    """Every program of a built batch (`programs`, in its order), its verdict passed to
    `record` with its position: in shared runs where the target has them, each where a
    shared run left it without one alone, with its triage. `on_waiting` is called when
    all that is left is to wait for programs set aside (below), and says whether the
    caller took that wait (started other work meanwhile): it is then no time of the
    batch's runs. `record` and `after_run` are called on the caller's thread."""
    # Programs the first shared run takes (CHANFUZZ_SHARED_RUN_SIZE, default 25): Racket
    # starts in ~0.15 s, a JVM with Clojure ~1.3 s, a sandboxed Go binary ~10 ms and a Rust
    # one ~20 ms, against a few ms (Go: ~1 ms) for most programs' runs. The runs that
    # follow grow from it (next_group_size).
    configured = config.shared_run_size()
    most = GROWTH * configured
    size = first_group_size(shared_runs, configured)
    shareable = _shares_runs(target, configured)
    pending = list(range(len(programs)))
    # The program a shared run's quiet period cut runs alone, re-runs and all, on a thread
    # of its own while the batch goes on: a blocked run waits without a core. Its
    # verdict is recorded from this thread, once it is in.
    aside: dict[int, Future[ProgramRun]] = {}
    aside_stages: dict[int, Stages] = {}

    # Programs that ended clean with runs left (Triage.runs): they run again next, before
    # the programs after them, so verdicts still come in about the batch's order.
    again: list[int] = []
    clean_runs = [0] * len(programs)

    def settle(position: int, run: ProgramRun, *, last: bool = False) -> None:
        runs = clean_runs[position] + 1
        if run.outcome is Outcome.TERMINATED and not last and runs < triage.runs:
            clean_runs[position] = runs
            again.append(position)
            return
        record(position, replace(run, runs=runs))

    def take_aside(position: int) -> None:
        run = aside.pop(position).result()
        stages.out_of_time_s += aside_stages.pop(position).out_of_time_s
        # A run the batch started on a lane is one of its runs, set aside or not; the
        # wait beside the batch is its time only where the batch waited for it (below).
        if (lane := lane_stages.pop(position, None)) is not None:
            stages.runs += lane.runs
            stages.verdict_s += lane.verdict_s
        # A run set aside is its program's last: one a shared run stopped in ran twice
        # already, and one set aside from its lane blocked, a hang most likely.
        settle(position, run, last=True)

    # A wait uses no core but holds sandboxes (the program's run, then its re-runs).
    at_once = target.spec.hangs_aside
    # Shared runs under way at once (TargetSpec.shared_runs_at_once), each on a lane: until
    # a quiet period cuts a run that has blocked, the others use the core it does not.
    lanes = target.spec.shared_runs_at_once if shareable else 1
    under_way: dict[Future[_Step], list[int]] = {}

    def run_alone(
        position: int,
        *,
        stages: Stages,
        suspected: bool = False,
        blocked: BlockedHook | None = None,
    ) -> ProgramRun:
        return run_one(
            target, artifact, position, sandbox=sandbox, limits=limits, triage=triage,
            program=programs[position], stages=stages, suspected=suspected, blocked=blocked,
        )  # fmt: skip

    def step(group: list[int], blocked: BlockedHook | None = None) -> _Step:
        own = Stages()
        if len(group) > 1:
            shared = run_group(target, artifact, group, sandbox=sandbox, limits=limits, stages=own)
            return _Step(group, own, shared=shared)
        return _Step(group, own, alone=run_alone(group[0], stages=own, blocked=blocked))

    # A program's run alone that has blocked (every process, for the target's shared
    # quiet period: a hang, most likely, waiting out its quiet period without a core)
    # goes on aside, on a thread of its own, as a program a shared run stopped in does,
    # and the next program starts on its lane. Not a run that spins: it never blocks.
    blocked_after = target.spec.shared_quiet_s
    watch_blocked = limits.quiet_s is not None and limits.quiet_s > blocked_after
    told: dict[Future[None], Future[_Step]] = {}  # a run alone's "it has blocked"
    lane_stages: dict[int, Stages] = {}  # of the runs set aside so, once ended

    def submit(group: list[int]) -> None:
        hook = None
        if len(group) == 1 and watch_blocked:
            went: Future[None] = Future()
            hook = BlockedHook(blocked_after, lambda: went.set_result(None))
        future = running.submit(step, group, hook)
        under_way[future] = group
        if hook is not None:
            told[went] = future

    def set_aside_blocked(future: Future[_Step]) -> None:
        if future not in under_way or future.done() or len(aside) >= at_once:
            return  # ended meanwhile, or no more waiting sandboxes than that
        (position,) = under_way.pop(future)
        own = aside_stages[position] = Stages()
        run: Future[ProgramRun] = Future()

        def on_end(step_future: Future[_Step]) -> None:
            try:
                ran = step_future.result()
            except BaseException as exc:  # noqa: BLE001 - handed to the batch's thread
                run.set_exception(exc)
                return
            own.out_of_time_s += ran.stages.out_of_time_s
            lane_stages[position] = ran.stages
            run.set_result(ran.alone)

        future.add_done_callback(on_end)
        aside[position] = run

    with (
        ThreadPoolExecutor(at_once, thread_name_prefix="chanfuzz-hung") as waiting,
        # Room for the runs alone set aside while they block, beside the lanes.
        ThreadPoolExecutor(lanes + at_once, thread_name_prefix="chanfuzz-lane") as running,
    ):
        # The batch's runs' time is the wall time any of them was under way (with lanes,
        # not each one's), counted from `clock`: a run's own time, measured on its lane
        # (Stages.out_of_time_s), starts after it was submitted, so the clock must not
        # start later than that, nor stop while runs go on as the loop records verdicts.
        clock = time.perf_counter()

        def count_runs_time() -> None:
            nonlocal clock
            now = time.perf_counter()
            stages.run_s += now - clock
            clock = now

        def skip_idle_time() -> None:
            nonlocal clock
            clock = time.perf_counter()

        try:
            while pending or under_way:
                if under_way:
                    count_runs_time()  # they went on while the loop recorded the last
                else:
                    skip_idle_time()
                while pending and len(under_way) < lanes:
                    group = pending[:size] if shareable else pending[:1]
                    pending = pending[len(group) :]
                    submit(group)
                done, _ = wait([*under_way, *told], return_when=FIRST_COMPLETED)
                count_runs_time()
                for went in [f for f in done if f in told]:
                    set_aside_blocked(told.pop(went))
                ended = [f for f in done if f in under_way]
                for went in [w for w, f in told.items() if f in ended]:
                    del told[went]
                for future in sorted(ended, key=lambda f: under_way[f][0]):
                    del under_way[future]
                    ran = future.result()
                    stages.verdict_s += ran.stages.verdict_s
                    stages.runs += ran.stages.runs
                    stages.out_of_time_s += ran.stages.out_of_time_s
                    if ran.alone is not None:
                        settle(ran.group[0], ran.alone)
                    else:
                        assert ran.shared is not None
                        left = _take_shared(ran.group, ran.shared, settle)
                        shared = ran.shared
                        # After a cut by the limit the rest of the batch runs alone; after
                        # one by the quiet period it shares again (module docstring, step 3).
                        shareable = (
                            shareable and shared.shareable and (shared.quiet or not shared.hung)
                        )
                        if not left and shared.duration_s > 0:
                            size = next_group_size(
                                size, programs=len(ran.group), duration_s=shared.duration_s,
                                timeout_s=limits.timeout_s, least=configured, most=most,
                            )  # fmt: skip
                            if shared_runs:
                                shared_runs.size = size
                        if left and shared.alone is not None and shared.quiet:
                            if len(aside) >= at_once:  # no more waiting sandboxes than that
                                if not under_way:
                                    skip_idle_time()
                                wait(aside.values(), return_when=FIRST_COMPLETED)
                                count_runs_time()
                            position = left.pop(0)
                            # Its own Stages: only what the batch waits for of it is its time,
                            # but a spin's time is counted wherever it came (take_aside).
                            aside_stages[position] = Stages()
                            aside[position] = waiting.submit(
                                run_alone, position, stages=aside_stages[position], suspected=True
                            )
                        elif left and shared.alone is not None:
                            # Alone next, on the next free lane, before the programs after it.
                            position = left.pop(0)
                            submit([position])
                        # The programs after the one it stopped in go first again.
                        pending = left + pending
                    pending = again + pending
                    again.clear()
                    for position in [p for p, f in aside.items() if f.done()]:
                        take_aside(position)
                    if after_run:
                        after_run()
            taken = bool(aside and on_waiting and on_waiting())
            # Unless the caller took it, what the batch still waits for is time of its runs;
            # taken or not, the batch sizers' fixed cost (Stages.sizing_wait_s).
            waited = _waited_for(aside, ALL_COMPLETED)
            if taken:
                stages.handed_s += waited
            else:
                stages.run_s += waited
                stages.waited_s += waited
            for position in sorted(aside):
                take_aside(position)
        finally:
            for future in (*aside.values(), *under_way):  # recording failed (a campaign stopped)
                future.cancel()


def _take_shared(
    group: list[int], shared: GroupRun, record: Callable[[int, ProgramRun], None]
) -> list[int]:
    """Record the verdicts a shared run of `group` gave, in order up to the first program it
    has none for; the programs from that one on, which are left to run."""
    for k, position in enumerate(group):
        if position not in shared.runs:
            return group[k:]
        record(position, shared.runs[position])
    return []


def execute_batch(
    programs: Sequence[Program],
    target: RunTarget,
    *,
    workdir: Path,
    sandbox: Sandbox,
    limits: Limits,
    render_seed: int = 0,
    triage: Triage = DEFAULT_TRIAGE,
    on_result: Progress | None = None,
    after_run: Callable[[], None] | None = None,
    use_cache: bool = True,
    shared_runs: SharedRunSize | None = None,
    on_waiting: Callable[[], bool] | None = None,
    report: BatchReport | None = None,
    groups: Sequence[int] | None = None,
) -> BatchReport:
    """Verdicts for `programs` (in order) on `target`.

    `on_result` gets each verdict as it is in; `after_run` is called once the verdicts of
    a run (a shared run's, or one program's with its re-runs) have all been given, before
    the next run starts. `on_waiting` is called when the batch has nothing left to do
    but wait for programs its shared runs' quiet periods cut, which run alone beside it
    (a batch split around a compile error may call it more than once); it returns
    whether the caller starts other work meanwhile (the wait is then not the batch's).
    `use_cache=False` compiles even when the artifact cache has the batch (benchmarks);
    the compiler's own caches (GOCACHE, …) are still used.
    `shared_runs` carries the size shared runs grew to from batch to batch.
    `report` is filled as the batch goes, when given: a caller whose callback ends the
    batch by raising keeps what it cost (fuzz's compile time when it stops at a finding).
    `groups` (sizes adding up to the batch's, in order) compiles the batch in those
    groups, each run before the next compiles (batching.leading_groups): the first
    verdicts come after a small group's compile, not the whole batch's, for one fixed
    compile cost more a group. By default the batch is one group.
    A program that ends clean runs again, up to `triage.runs` times (Triage); its verdict
    says how many runs it took (ProgramRun.runs).
    """
    sizes = list(groups) if groups else [len(programs)] if programs else []
    if sum(sizes) != len(programs) or min(sizes, default=1) < 1:
        raise ValueError(f"groups {sizes} do not cut a batch of {len(programs)} programs")
    report = BatchReport() if report is None else report
    results: dict[int, ProgramRun] = {}
    # Uncached artifacts stay in the workdir, which the sandbox's unprivileged
    # user must be able to reach.
    workdir.mkdir(parents=True, exist_ok=True)
    workdir.chmod(0o755)
    options = dict(target.render_options)

    def compile_group(indices: list[int], *, by_name: bool = True) -> None:
        """Build and run `indices`; a group that does not compile is split: around the
        program the compiler's message names (runners.engine.culprit), else in halves, and
        in halves only once a named program compiled alone (the name was wrong)."""
        started = time.perf_counter()
        source = target.spec.render_batch(
            [programs[i] for i in indices],
            seed=render_seed,
            repetitions=target.repetitions,
            **options,
        )
        rendered = time.perf_counter()
        report.stages.render_s += rendered - started
        try:
            artifact = build(
                target.toolchain, source, workdir, flags=target.build_flags, use_cache=use_cache
            )
        except CompileError as exc:
            report.stages.compile_s += time.perf_counter() - rendered
            report.compiles += 1
            if len(indices) == 1:
                i = indices[0]
                verdict = Classification(
                    Outcome.COMPILE_ERROR, f"{exc.toolchain_id}: compile failed", ""
                )
                results[i] = ProgramRun(i, verdict, compile_output=exc.output)
                if on_result:
                    on_result(results[i])
                return
            named = named_program(exc.output, source, target.spec.source_file)
            if by_name and named is not None and named < len(indices):
                # In the batch's order (verdicts come in seed order): those before it, it
                # alone, those after it.
                before, culprit, after = indices[:named], indices[named], indices[named + 1 :]
                if before:
                    compile_group(before, by_name=True)
                compile_group([culprit])
                right = results[culprit].classification.outcome is Outcome.COMPILE_ERROR
                if after:
                    compile_group(after, by_name=right)
                return
            half = len(indices) // 2
            compile_group(indices[:half], by_name=by_name)
            compile_group(indices[half:], by_name=by_name)
            return
        report.compiles += 1
        report.compile_s += artifact.compile_s
        report.stages.compiler_start_s += artifact.compiler_start_s
        # Wall time of the build step: the compiler's run, or the cache's answer.
        report.stages.compile_s += time.perf_counter() - rendered

        def record(position: int, execution: ProgramRun) -> None:
            i = indices[position]
            results[i] = replace(execution, index=i)
            if on_result:
                on_result(results[i])

        _run_built(
            target, artifact, [programs[i] for i in indices], sandbox=sandbox, limits=limits,
            triage=triage, stages=report.stages, record=record, after_run=after_run,
            shared_runs=shared_runs, on_waiting=on_waiting,
        )  # fmt: skip

    start = 0
    for size in sizes:
        compile_group(list(range(start, start + size)))
        start += size
    report.executions = [results[i] for i in range(len(programs))]
    return report

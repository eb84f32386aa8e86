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
4. Triage a timeout (SPEC §9): dump, then re-run with a longer limit.

This module decides what runs when (steps 1 to 3); a run of one program and its triage
are runners.engine.run_alone's, a shared run and its size runners.engine.shared_runs',
what runs leave (attempts, verdicts, stages) runners.engine.run_records'.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from concurrent.futures import ALL_COMPLETED, FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field, replace
from pathlib import Path

from generator.lambda_chan import Program
from runners import config
from runners.engine.build import Artifact, CompileError, build
from runners.engine.culprit import named_program
from runners.engine.run_alone import DEFAULT_TRIAGE, Triage, run_one
from runners.engine.run_records import ProgramRun, Progress, Stages
from runners.engine.run_target import RunTarget
from runners.engine.sandbox import Limits, Sandbox
from runners.engine.sandbox.base import BlockedHook
from runners.engine.shared_runs import (
    GROWTH,
    GroupRun,
    SharedRunSize,
    first_group_size,
    next_group_size,
    run_group,
    shares_runs,
)
from runners.engine.verdicts import Classification, Outcome


@dataclass
class BatchReport:
    executions: list[ProgramRun] = field(default_factory=list)
    compile_s: float = 0.0
    compiles: int = 0
    stages: Stages = field(default_factory=Stages)


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
    shareable = shares_runs(target, configured)
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

    def run_solo(
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
        return _Step(group, own, alone=run_solo(group[0], stages=own, blocked=blocked))

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
                                run_solo, position, stages=aside_stages[position], suspected=True
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

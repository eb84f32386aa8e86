"""Shared runs in batches (runners.engine.shared_runs.run_group, as execute_batch runs
them): on the targets whose process start dwarfs a program's run, programs share a run,
and whatever one of them does wrong is judged from a run of its own."""

from __future__ import annotations

import re
import signal
import threading
import time
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace

import pytest

from generator import lambda_chan as lc
from generator.pipeline import generate_program
from generator.settings import PRESETS
from runners.engine import execute
from runners.engine.execute import BatchReport, execute_batch
from runners.engine.fuzz import fuzz
from runners.engine.run_alone import Triage
from runners.engine.run_records import ProgramRun, Stages
from runners.engine.run_target import make_target
from runners.engine.sandbox import Limits, get_sandbox
from runners.engine.shared_runs import GroupRun
from runners.engine.verdicts import Outcome
from runners.targets.base import SHARED_QUIET_S
from tests.runners.conftest import require_toolchain

# main waits on c1 while the spawned process waits on c2: stuck forever.
STUCK = lc.Program(("c1", "c2"), lc.Then(lc.SpawnE(lc.Recv("c2")), lc.Recv("c1")))


def _programs(n: int, first_seed: int = 0) -> list[lc.Program]:
    return [generate_program(s, PRESETS["A"]).program for s in range(first_seed, first_seed + n)]


def _edited_batch(
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    lang: str,
    edit: Callable[[str], str],
    limits: Limits,
    **kwargs: object,
) -> BatchReport:
    """Six generated programs on `lang` in one batch, its source edited by `edit` before each
    build: a crash no generated program makes, put into one of them."""
    real_build = execute.build

    def edited_build(toolchain, source, workdir, **build_kwargs):  # noqa: ANN001, ANN202
        return real_build(toolchain, edit(source), workdir, **build_kwargs)

    monkeypatch.setattr(execute, "build", edited_build)
    return execute_batch(
        _programs(6),
        make_target(lang, repetitions=2),
        workdir=tmp_path,
        sandbox=get_sandbox("local"),
        limits=limits,
        **kwargs,
    )


@pytest.mark.slow
def test_racket_programs_share_runs_and_each_is_judged(tmp_path: Path) -> None:
    require_toolchain("racket")
    size = 25  # the default
    count = size + 5
    report = execute_batch(
        _programs(count),
        make_target("racket", repetitions=3, values=True),
        workdir=tmp_path,
        sandbox=get_sandbox("local"),
        limits=Limits(timeout_s=30),
    )
    assert [e.outcome for e in report.executions] == [Outcome.TERMINATED] * count
    assert [e.index for e in report.executions] == list(range(count))
    assert report.stages.runs == 2  # one process for 25 programs, one for the last 5
    groups = [e.attempts[0].group for e in report.executions]
    assert groups == [size] * size + [5] * 5


@pytest.mark.slow
def test_shared_runs_grow_within_a_batch_from_the_configured_size(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    require_toolchain("racket")
    monkeypatch.setenv("CHANFUZZ_SHARED_RUN_SIZE", "3")
    count = 3 + 6 + 12 + 4
    report = execute_batch(
        _programs(count),
        make_target("racket", repetitions=2),
        workdir=tmp_path,
        sandbox=get_sandbox("local"),
        limits=Limits(timeout_s=60),
    )
    assert [e.outcome for e in report.executions] == [Outcome.TERMINATED] * count
    assert [e.index for e in report.executions] == list(range(count))
    groups = [e.attempts[0].group for e in report.executions]
    assert groups == [3] * 3 + [6] * 6 + [12] * 12 + [4] * 4
    assert report.stages.runs == 4


@pytest.mark.slow
def test_fuzz_carries_the_size_shared_runs_grew_to_into_its_next_batch(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    require_toolchain("racket")
    monkeypatch.setenv("CHANFUZZ_SHARED_RUN_SIZE", "3")  # growing to 8 times 3 at most
    seen: list[ProgramRun] = []
    summary = fuzz(
        target=make_target("racket", repetitions=2),
        settings=PRESETS["A"],
        count=60,
        seed=0,
        sandbox=get_sandbox("local"),
        limits=Limits(timeout_s=60),
        batch_size=30,
        use_cache=False,
        on_result=lambda _generated, run: seen.append(run),
    )
    assert summary.count == 60 and not summary.errors
    groups = [run.attempts[0].group for run in seen]
    first = [3] * 3 + [6] * 6 + [12] * 12 + [9] * 9
    assert groups == first + [24] * 24 + [6] * 6  # the second batch starts at 24


@pytest.mark.slow
def test_a_shared_run_size_of_one_runs_each_program_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    require_toolchain("racket")
    monkeypatch.setenv("CHANFUZZ_SHARED_RUN_SIZE", "1")
    report = execute_batch(
        _programs(4),
        make_target("racket", repetitions=2),
        workdir=tmp_path,
        sandbox=get_sandbox("local"),
        limits=Limits(timeout_s=30),
    )
    assert [e.outcome for e in report.executions] == [Outcome.TERMINATED] * 4
    assert report.stages.runs == 4
    assert {e.attempts[0].group for e in report.executions} == {1}


@pytest.mark.slow
def test_a_crash_ends_the_shared_run_is_judged_from_its_output_and_the_rest_share_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    require_toolchain("racket")
    # Program 3 raises before its first run.
    raised = '(define (prog3) (error "injected"))\n(define (prog3-real)'
    report = _edited_batch(
        monkeypatch,
        tmp_path,
        "racket",
        lambda source: source.replace("(define (prog3)", raised, 1),
        Limits(timeout_s=30),
    )
    outcomes = [e.outcome for e in report.executions]
    assert outcomes == [Outcome.TERMINATED] * 3 + [Outcome.CRASH] + [Outcome.TERMINATED] * 2
    groups = [e.attempts[0].group for e in report.executions]
    assert groups == [6, 6, 6, 6, 2, 2]
    crash = report.executions[3]
    assert "injected" in crash.attempts[0].stderr and crash.attempts[0].exit_code == 70
    assert crash.classification.signature.startswith("racket | ")
    assert report.stages.runs == 2


@pytest.mark.slow
def test_a_rust_panic_in_a_thread_aborts_the_shared_run_and_is_signed_by_its_message(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Rust batches build with panic = "abort": a thread's panic ends the process at once
    (SIGABRT, no unwinding into a join or a blocked channel end), its message and place
    still printed and read as the crash's signature."""
    require_toolchain("rust-crossbeam")
    # A thread of program 3 panics before its first run.
    panics = '\\g<0>\n    std::thread::spawn(|| panic!("injected")).join().unwrap();'
    report = _edited_batch(
        monkeypatch,
        tmp_path,
        "rust-crossbeam",
        lambda source: re.sub(r"fn prog3_once\([^)]*\) \{", panics, source, count=1),
        Limits(timeout_s=30),
    )
    outcomes = [e.outcome for e in report.executions]
    assert outcomes == [Outcome.TERMINATED] * 3 + [Outcome.CRASH] + [Outcome.TERMINATED] * 2, [
        e.classification.reason for e in report.executions
    ]
    crash = report.executions[3]
    attempt = crash.attempts[0]
    assert attempt.signal == signal.SIGABRT and "Result::unwrap()" not in attempt.stderr
    assert crash.classification.signature == "rust-crossbeam | panic | injected | at the program"
    assert [e.attempts[0].group for e in report.executions] == [6, 6, 6, 6, 2, 2]


@pytest.mark.slow
def test_a_crystal_fiber_exception_in_a_shared_run_is_the_crash_of_its_own_program(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Crystal prints an exception that ends a spawned fiber and goes on, so the run's join
    waits for ever: the quiet period cuts the shared run, the program runs alone and is
    judged a crash from the exception, beside the programs after it, which share a run again."""
    require_toolchain("crystal")
    # A fiber of program 3 raises before its first run, and the program waits for it.
    raises = 'def prog3_once\n  never_ = Channel(Nil).new\n  spawn { raise "injected" }\n'
    report = _edited_batch(
        monkeypatch,
        tmp_path,
        "crystal",
        lambda source: source.replace("def prog3_once\n", raises + "  never_.receive\n", 1),
        Limits(timeout_s=5, quiet_s=0.5),
        triage=Triage(retries=0),
    )
    outcomes = [e.outcome for e in report.executions]
    assert outcomes == [Outcome.TERMINATED] * 3 + [Outcome.CRASH] + [Outcome.TERMINATED] * 2, [
        e.classification.reason for e in report.executions
    ]
    crash = report.executions[3]
    assert "injected" in crash.attempts[-1].stderr, crash.attempts[-1]
    assert crash.classification.signature.startswith("crystal | ")
    assert [e.attempts[0].group for e in report.executions] == [6, 6, 6, 1, 2, 2]


@pytest.mark.slow
def test_a_hang_in_a_shared_run_is_timed_alone_beside_the_rest_which_share_again(
    tmp_path: Path,
) -> None:
    require_toolchain("racket")
    programs = [*_programs(2), STUCK, *_programs(2, first_seed=2)]
    report = execute_batch(
        programs,
        make_target("racket", repetitions=2),
        workdir=tmp_path,
        sandbox=get_sandbox("local"),
        limits=Limits(timeout_s=3, quiet_s=0.5),
        triage=Triage(retries=1, factor=1.5),
    )
    outcomes = [e.outcome for e in report.executions]
    assert outcomes == [Outcome.TERMINATED] * 2 + [Outcome.TIMEOUT] + [Outcome.TERMINATED] * 2
    hang = report.executions[2]
    assert hang.attempts[0].group == 1 and len(hang.attempts) == 2  # alone, then re-run
    assert hang.hang_confirmed is True
    groups = [e.attempts[0].group for e in report.executions]
    # The shared run cut by the quiet period; the hung program alone on a thread of its
    # own, while the two after it share the batch's next run. Only the batch's own runs
    # count in its stages: the wait beside it took none of its time.
    assert groups == [5, 5, 1, 2, 2]
    assert report.stages.runs == 2


@pytest.mark.slow
def test_clojure_programs_share_one_jvm(tmp_path: Path) -> None:
    require_toolchain("clojure-thread")
    report = execute_batch(
        _programs(8),
        make_target("clojure-thread", repetitions=3, values=True),
        workdir=tmp_path,
        sandbox=get_sandbox("local"),
        limits=Limits(timeout_s=60),
    )
    assert [e.outcome for e in report.executions] == [Outcome.TERMINATED] * 8
    assert report.stages.runs == 1
    assert {e.attempts[0].group for e in report.executions} == {8}


@pytest.mark.slow
def test_go_programs_share_runs_and_a_deadlock_is_the_program_that_made_it(
    tmp_path: Path,
) -> None:
    # Go's runtime ends the process when nothing can move ("all goroutines are asleep"):
    # the program with no mark is judged from what the run printed after the last one.
    require_toolchain("go")
    programs = [*_programs(3), STUCK, *_programs(3, first_seed=3)]
    report = execute_batch(
        programs,
        make_target("go", repetitions=3, values=True),
        workdir=tmp_path,
        sandbox=get_sandbox("local"),
        limits=Limits(timeout_s=30),
    )
    outcomes = [e.outcome for e in report.executions]
    assert outcomes == [Outcome.TERMINATED] * 3 + [Outcome.CRASH] + [Outcome.TERMINATED] * 3
    deadlock = report.executions[3]
    assert "all goroutines are asleep - deadlock!" in deadlock.attempts[0].stderr
    assert deadlock.classification.signature.startswith("go | ")
    assert [e.attempts[0].group for e in report.executions] == [7, 7, 7, 7, 3, 3, 3]
    assert report.stages.runs == 2


@pytest.mark.slow
def test_rust_programs_share_runs_around_one_that_hangs(tmp_path: Path) -> None:
    # crossbeam's rendezvous recv with its sender alive waits for ever: no runtime
    # report ends it, the quiet-period watch does.
    require_toolchain("rust-crossbeam")
    programs = [*_programs(3), STUCK, *_programs(2, first_seed=3)]
    report = execute_batch(
        programs,
        make_target("rust-crossbeam", repetitions=3, values=True),
        workdir=tmp_path,
        sandbox=get_sandbox("local"),
        limits=Limits(timeout_s=20, quiet_s=0.5),
        triage=Triage(retries=1, factor=1.5),
    )
    outcomes = [e.outcome for e in report.executions]
    assert outcomes == [Outcome.TERMINATED] * 3 + [Outcome.TIMEOUT] + [Outcome.TERMINATED] * 2
    hang = report.executions[3]
    assert hang.hang_confirmed is True
    assert " | hang | " in hang.classification.signature
    assert [e.attempts[0].group for e in report.executions] == [6, 6, 6, 1, 2, 2]
    assert report.stages.runs == 2


@pytest.mark.slow
def test_a_program_its_cpu_limit_stops_spun_out_of_time_and_is_not_a_crash(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The CPU-time limit is set to catch only what the wall clock would catch later, but
    # on a loaded machine it can come first: a spinning program (a livelock) is then
    # killed by SIGXCPU, which is its time running out, not a crash of the runtime.
    require_toolchain("rust-crossbeam")
    real_build = execute.build

    def spin_program_1(toolchain, source, workdir, **kwargs):  # noqa: ANN001, ANN202
        source = source.replace(
            "fn prog1() {", "fn prog1() {\n    loop {}\n}\n\nfn prog1_real() {", 1
        )
        return real_build(toolchain, source, workdir, **kwargs)

    monkeypatch.setattr(execute, "build", spin_program_1)
    report = execute_batch(
        _programs(3),
        make_target("rust-crossbeam", repetitions=2),
        workdir=tmp_path,
        sandbox=get_sandbox("local"),
        limits=Limits(timeout_s=60, cpu_s=1),
        triage=Triage(retries=1, factor=1.5),
    )
    outcomes = [e.outcome for e in report.executions]
    assert outcomes == [Outcome.TERMINATED, Outcome.TIMEOUT, Outcome.TERMINATED]
    spin = report.executions[1]
    assert [a.signal for a in spin.attempts] == [signal.SIGXCPU, signal.SIGXCPU]
    assert spin.hang_confirmed is True
    assert "spun through its CPU-time limit" in spin.classification.reason
    # The shared run it stopped in was cut like a hang's: the rest ran alone.
    assert [e.attempts[0].group for e in report.executions] == [3, 1, 1]
    # That shared run, its own run and its re-run each spun through its second of CPU:
    # time apart from the rest of the runs' (Stages.out_of_time_s).
    assert 2.5 <= report.stages.out_of_time_s <= report.stages.run_s


def _holding_aside(at_once: int, lanes: int = 1) -> SimpleNamespace:
    """A target, as far as _run_built asks of it with runs replaced: how many programs
    may wait aside at once, and how many shared runs may be under way."""
    return SimpleNamespace(
        spec=SimpleNamespace(
            hangs_aside=at_once, shared_runs_at_once=lanes, shared_quiet_s=SHARED_QUIET_S
        )
    )


def test_programs_hung_in_shared_runs_wait_aside_a_few_at_a_time_and_are_recorded_here(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The engine's own scheduling, with runs that take no sandbox: each shared run stops
    in the next hung program, which then runs alone beside the batch. The batch goes on
    sharing runs, never has more than its target's `hangs_aside` programs waiting aside, and
    records every verdict once, from its own thread (a campaign writes them to its database
    there)."""
    monkeypatch.setattr(execute, "shares_runs", lambda _target, _size: True)
    hung = {1, 3, 5, 7, 9, 11}
    clean = execute.Classification(Outcome.TERMINATED, "exit 0", "")
    stuck = execute.Classification(Outcome.TIMEOUT, "blocked", "x | hang")
    unfinished: set[int] = set()
    most_waiting = 0
    groups: list[int] = []

    def run_group(_target, _artifact, positions, **_kwargs):  # noqa: ANN001, ANN202
        nonlocal most_waiting
        most_waiting = max(most_waiting, len(unfinished))
        groups.append(len(positions))
        stop = next((p for p in positions if p in hung), None)
        ran = positions if stop is None else positions[: positions.index(stop)]
        if stop is not None:
            unfinished.add(stop)
        runs = {p: ProgramRun(p, clean) for p in ran}
        return GroupRun(runs, alone=stop, hung=stop is not None, quiet=stop is not None)

    def run_one(_target, _artifact, position, **_kwargs):  # noqa: ANN001, ANN202
        time.sleep(0.2)  # a quiet period, much longer than a shared run here
        unfinished.discard(position)
        return ProgramRun(position, stuck)

    monkeypatch.setattr(execute, "run_group", run_group)
    monkeypatch.setattr(execute, "run_one", run_one)
    recorded: list[tuple[int, Outcome, int]] = []
    execute._run_built(
        _holding_aside(2), None, [STUCK] * 14, sandbox=None,
        limits=Limits(timeout_s=5, quiet_s=0.2), triage=Triage(retries=0), stages=Stages(),
        record=lambda position, run: recorded.append(
            (position, run.outcome, threading.get_ident())
        ),
    )  # fmt: skip
    assert sorted(p for p, _, _ in recorded) == list(range(14))
    assert {p for p, outcome, _ in recorded if outcome is Outcome.TIMEOUT} == hung
    assert {thread for _, _, thread in recorded} == {threading.get_ident()}
    assert 1 <= most_waiting <= 2
    assert all(size > 1 for size in groups), groups  # sharing again after every hang


@pytest.mark.parametrize(
    ("quiet_s", "order"),
    [(2.0, [0, 2, 3, 1]), (SHARED_QUIET_S, [0, 1, 2, 3]), (None, [0, 1, 2, 3])],
)
def test_a_run_alone_that_blocks_waits_aside_while_the_next_programs_run(
    monkeypatch: pytest.MonkeyPatch, quiet_s: float | None, order: list[int]
) -> None:
    """Runs alone (Kotlin's: a JVM each) are told when they have blocked for the target's
    shared quiet period; one that has goes on aside and the next program starts. Without
    a quiet period, or under one no longer than the shared one (the run is declared hung
    as soon as it would go aside), nothing watches for it, and each run holds its lane to
    its end."""
    monkeypatch.setattr(execute, "shares_runs", lambda _target, _size: False)
    clean = execute.Classification(Outcome.TERMINATED, "exit 0", "")
    stuck = execute.Classification(Outcome.TIMEOUT, "blocked", "x | hang")
    hooks: dict[int, object] = {}

    def run_one(_target, _artifact, position, *, blocked=None, **_kwargs):  # noqa: ANN001, ANN202
        hooks[position] = blocked
        if position != 1:
            return ProgramRun(position, clean)
        if blocked is not None:
            assert blocked.after_s == SHARED_QUIET_S
            blocked.call()
        time.sleep(0.3)  # its quiet period, without a core
        return ProgramRun(position, stuck)

    monkeypatch.setattr(execute, "run_one", run_one)
    recorded: list[int] = []
    execute._run_built(
        _holding_aside(2), None, [STUCK] * 4, sandbox=None,
        limits=Limits(timeout_s=5, quiet_s=quiet_s), triage=Triage(retries=0),
        stages=Stages(), record=lambda position, run: recorded.append(position),
    )  # fmt: skip
    assert recorded == order
    watched = quiet_s is not None and quiet_s > SHARED_QUIET_S
    assert [hook is not None for hook in hooks.values()] == [watched] * 4


def test_programs_that_do_not_share_runs_run_one_at_a_time_whatever_the_lanes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Lanes are for shared runs; Kotlin's runs alone (a JVM each) keep the core to one."""
    monkeypatch.setattr(execute, "shares_runs", lambda _target, _size: False)
    runs = _UnderWay()

    def run_one(_target, _artifact, position, **_kwargs):  # noqa: ANN001, ANN202
        with runs:
            time.sleep(0.05)
        return ProgramRun(position, execute.Classification(Outcome.TERMINATED, "exit 0", ""))

    monkeypatch.setattr(execute, "run_one", run_one)
    recorded: list[int] = []
    execute._run_built(
        _holding_aside(2, lanes=4), None, [STUCK] * 4, sandbox=None,
        limits=Limits(timeout_s=5), triage=Triage(retries=0), stages=Stages(),
        record=lambda position, _run: recorded.append(position),
    )  # fmt: skip
    assert recorded == [0, 1, 2, 3]
    assert runs.most == 1


class _UnderWay:
    """Counts the runs inside it at once; `most` is the most there were."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._now = 0
        self.most = 0

    def __enter__(self) -> None:
        with self._lock:
            self._now += 1
            self.most = max(self.most, self._now)

    def __exit__(self, *_exc: object) -> None:
        with self._lock:
            self._now -= 1


def _blocking_run_one(
    runs: _UnderWay, *, out_of_time_s: float = 0.0, fails: int | None = None
) -> Callable[..., ProgramRun]:
    """A run alone that blocks, is told so, and waits 0.2 s (program `fails`'s then raises):
    each counts as a run and 0.125 s of verdicts in its stages, and in `runs` while it
    goes on."""

    def run_one(_target, _artifact, position, *, stages, blocked=None, **_kwargs):  # noqa: ANN001, ANN202
        with runs:
            stages.runs += 1
            stages.verdict_s += 0.125
            stages.out_of_time_s += out_of_time_s
            blocked.call()
            time.sleep(0.2)
        if position == fails:
            raise RuntimeError(f"the sandbox of program {position} broke")
        return ProgramRun(position, execute.Classification(Outcome.TIMEOUT, "blocked", "x | hang"))

    return run_one


def test_no_more_blocked_runs_wait_aside_than_the_target_holds_and_each_counts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Runs set aside while they block hold sandboxes: one aside at a time here, beside the
    one on the lane. Each is still one of the batch's runs, its verdict's time and its
    out-of-time the batch's."""
    monkeypatch.setattr(execute, "shares_runs", lambda _target, _size: False)
    runs = _UnderWay()
    monkeypatch.setattr(execute, "run_one", _blocking_run_one(runs, out_of_time_s=0.5))
    stages = Stages()
    recorded: list[int] = []
    execute._run_built(
        _holding_aside(1), None, [STUCK] * 4, sandbox=None,
        limits=Limits(timeout_s=5, quiet_s=2.0), triage=Triage(retries=0), stages=stages,
        record=lambda position, _run: recorded.append(position),
    )  # fmt: skip
    assert sorted(recorded) == [0, 1, 2, 3]
    assert runs.most == 2
    assert (stages.runs, stages.verdict_s) == (4, pytest.approx(0.5))
    assert stages.out_of_time_s == pytest.approx(2.0)


def test_an_error_in_a_run_set_aside_while_it_blocks_reaches_the_batch(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(execute, "shares_runs", lambda _target, _size: False)
    monkeypatch.setattr(execute, "run_one", _blocking_run_one(_UnderWay(), fails=0))
    with pytest.raises(RuntimeError, match="the sandbox of program 0 broke"):
        execute._run_built(
            _holding_aside(2), None, [STUCK] * 2, sandbox=None,
            limits=Limits(timeout_s=5, quiet_s=2.0), triage=Triage(retries=0),
            stages=Stages(), record=lambda _position, _run: None,
        )  # fmt: skip


def test_shared_runs_of_a_batch_go_on_lanes_while_one_waits_for_its_quiet_period(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With three lanes, three shared runs are under way at once (each of the first three
    waits for the other two: an event, not a timing), the programs after the one a run
    stopped in run again, every program is recorded once, on the caller's
    thread, and the runs' time is the batch's wall time, not the sum of the lanes'."""
    monkeypatch.setattr(execute, "shares_runs", lambda _target, _size: True)
    monkeypatch.setattr(execute.config, "shared_run_size", lambda: 4)
    hung = {2, 9}
    clean = execute.Classification(Outcome.TERMINATED, "exit 0", "")
    stuck = execute.Classification(Outcome.TIMEOUT, "blocked", "x | hang")
    together = threading.Barrier(3, timeout=10)
    groups: list[list[int]] = []
    lock = threading.Lock()

    def run_group(_target, _artifact, positions, **_kwargs):  # noqa: ANN001, ANN202
        with lock:
            groups.append(list(positions))
            first = len(groups) <= 3
        if first:
            together.wait()  # BrokenBarrierError unless three runs are under way
        stop = next((p for p in positions if p in hung), None)
        ran = positions if stop is None else positions[: positions.index(stop)]
        runs = {p: ProgramRun(p, clean) for p in ran}
        return GroupRun(
            runs, alone=stop, hung=stop is not None, quiet=stop is not None,
            duration_s=0.0 if stop is not None else 0.01,
        )  # fmt: skip

    alone: list[int] = []

    def run_one(_target, _artifact, position, **_kwargs):  # noqa: ANN001, ANN202
        alone.append(position)
        return ProgramRun(position, stuck if position in hung else clean)

    monkeypatch.setattr(execute, "run_group", run_group)
    monkeypatch.setattr(execute, "run_one", run_one)
    recorded: list[tuple[int, Outcome, int]] = []
    stages = Stages()
    started = time.perf_counter()
    execute._run_built(
        _holding_aside(4, lanes=3), None, [STUCK] * 16, sandbox=None,
        limits=Limits(timeout_s=5, quiet_s=0.2), triage=Triage(retries=0), stages=stages,
        record=lambda position, run: recorded.append(
            (position, run.outcome, threading.get_ident())
        ),
    )  # fmt: skip
    wall = time.perf_counter() - started
    # (The lanes call run_group in whatever order their threads come.)
    assert sorted(groups[:3]) == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]]
    # The programs after the one each run stopped in run again: in a later shared run, or
    # alone where one is all that is left when a lane is free (the lanes' order decides).
    again = {p for g in groups[3:] for p in g} | set(alone)
    assert {3, 10, 11} <= again, (groups, alone)
    assert set(alone) - hung <= {3, 10, 11, 12, 13, 14, 15}, alone
    assert sorted(p for p, _, _ in recorded) == list(range(16))
    assert {p for p, outcome, _ in recorded if outcome is Outcome.TIMEOUT} == hung
    assert {thread for _, _, thread in recorded} == {threading.get_ident()}
    assert 0 < stages.run_s <= wall


def test_a_spin_of_a_program_set_aside_counts_in_its_batchs_time_out_of_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A program a shared run's quiet period cut runs aside with Stages of its own (its
    wait is not the batch's time); if it then spins through its limit, that time still
    reaches the batch's out_of_time_s, as a spin run alone's does."""
    monkeypatch.setattr(execute, "shares_runs", lambda _target, _size: True)
    clean = execute.Classification(Outcome.TERMINATED, "exit 0", "")
    spun = execute.Classification(Outcome.TIMEOUT, "never blocked", "x | spin")

    def run_group(_target, _artifact, positions, **_kwargs):  # noqa: ANN001, ANN202
        stop = 1 if 1 in positions else None  # program 1 blocks a moment in a shared run
        runs = {p: ProgramRun(p, clean) for p in positions if stop is None or p < stop}
        return GroupRun(runs, alone=stop, hung=stop is not None, quiet=stop is not None)

    def run_one(_target, _artifact, position, *, stages, suspected, **_kwargs):  # noqa: ANN001, ANN202
        assert suspected
        stages.out_of_time_s += 7.0  # then spins alone: its run and re-runs
        return ProgramRun(position, spun)

    monkeypatch.setattr(execute, "run_group", run_group)
    monkeypatch.setattr(execute, "run_one", run_one)
    stages = Stages()
    recorded: list[tuple[int, Outcome]] = []
    execute._run_built(
        _holding_aside(4), None, [STUCK] * 4, sandbox=None,
        limits=Limits(timeout_s=5, quiet_s=0.2), triage=Triage(retries=0), stages=stages,
        record=lambda position, run: recorded.append((position, run.outcome)),
    )  # fmt: skip
    assert sorted(recorded) == [(0, Outcome.TERMINATED), (1, Outcome.TIMEOUT)] + [
        (p, Outcome.TERMINATED) for p in (2, 3)
    ]
    assert stages.out_of_time_s == 7.0


def test_a_spin_alone_counts_within_the_batchs_runs_while_verdicts_are_recorded(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The batch's runs' time is the wall time any run was under way: a spin that a shared
    run's limit cut goes on alone on one lane while the loop records the other lane's
    verdicts (a campaign writes each to its database), and its out-of-time, measured on its
    lane, stays part of the runs' time (it was not when only the loop's waits counted)."""
    monkeypatch.setattr(execute, "shares_runs", lambda _target, _size: True)
    clean = execute.Classification(Outcome.TERMINATED, "exit 0", "")
    spun = execute.Classification(Outcome.TIMEOUT, "never blocked", "x | spin")

    def run_group(_target, _artifact, positions, **_kwargs):  # noqa: ANN001, ANN202
        runs = {p: ProgramRun(p, clean) for p in positions if p < 1}
        return GroupRun(runs, alone=1, hung=True, quiet=False)  # cut by the limit

    def run_one(_target, _artifact, position, *, stages, **_kwargs):  # noqa: ANN001, ANN202
        if position != 1:
            return ProgramRun(position, clean)
        started = time.perf_counter()
        time.sleep(0.3)
        stages.out_of_time_s += time.perf_counter() - started
        return ProgramRun(position, spun)

    monkeypatch.setattr(execute, "run_group", run_group)
    monkeypatch.setattr(execute, "run_one", run_one)
    stages = Stages()
    recorded: list[int] = []

    def record(position: int, _run: ProgramRun) -> None:
        time.sleep(0.05)
        recorded.append(position)

    execute._run_built(
        _holding_aside(4, lanes=2), None, [STUCK] * 5, sandbox=None,
        limits=Limits(timeout_s=5), triage=Triage(retries=0), stages=stages, record=record,
    )  # fmt: skip
    assert sorted(recorded) == list(range(5))
    assert 0.3 <= stages.out_of_time_s <= stages.run_s


@pytest.mark.parametrize("taken", [None, False, True])
def test_a_batchs_end_wait_for_hung_programs_is_its_fixed_wait_taken_or_not(
    monkeypatch: pytest.MonkeyPatch, taken: bool | None
) -> None:
    """The wait at a batch's end for the program set aside last is one hang's length
    whatever the batch's size: counted apart (Stages.waited_s, a fixed cost to the batch
    sizers), and where the caller took it (`on_waiting` said it started other work; None:
    no caller to ask) no time of the batch's runs, but still the sizers' fixed cost
    (Stages.handed_s, in sizing_wait_s)."""
    monkeypatch.setattr(execute, "shares_runs", lambda _target, _size: True)
    clean = execute.Classification(Outcome.TERMINATED, "exit 0", "")
    stuck = execute.Classification(Outcome.TIMEOUT, "blocked", "x | hang")

    def run_group(_target, _artifact, positions, **_kwargs):  # noqa: ANN001, ANN202
        last = positions[-1]  # the batch's last program hangs
        runs = {p: ProgramRun(p, clean) for p in positions if p != last}
        return GroupRun(runs, alone=last, hung=True, quiet=True)

    def run_one(_target, _artifact, position, **_kwargs):  # noqa: ANN001, ANN202
        time.sleep(0.2)
        return ProgramRun(position, stuck)

    monkeypatch.setattr(execute, "run_group", run_group)
    monkeypatch.setattr(execute, "run_one", run_one)
    stages = Stages()
    asked: list[bool] = []

    def on_waiting() -> bool:
        asked.append(True)
        return bool(taken)

    execute._run_built(
        _holding_aside(4), None, [STUCK] * 4, sandbox=None,
        limits=Limits(timeout_s=5, quiet_s=0.2), triage=Triage(retries=0), stages=stages,
        record=lambda _p, _r: None, on_waiting=None if taken is None else on_waiting,
    )  # fmt: skip
    assert asked == ([] if taken is None else [True])
    # The shared runs' own time (no sandbox here) is all the rest of run_s.
    if taken:
        assert stages.waited_s == 0.0 and stages.run_s < 0.2
        assert 0.0 < stages.handed_s == stages.sizing_wait_s
        assert stages.sizing_run_s == stages.run_s + stages.handed_s
    else:
        assert 0.0 < stages.waited_s <= stages.run_s < stages.waited_s + 0.2
        assert stages.handed_s == 0.0 and stages.sizing_wait_s == stages.waited_s
        assert stages.sizing_run_s == stages.run_s

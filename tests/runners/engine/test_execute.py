"""The executor on real toolchains: batches, compile-error isolation, verdicts, triage."""

from __future__ import annotations

import dataclasses
import tempfile
from pathlib import Path
from typing import Any

import pytest

from generator import lambda_chan as lc
from generator.pipeline import generate_program
from generator.settings import PRESETS
from runners.engine.execute import BatchReport, execute_batch
from runners.engine.run_alone import Triage
from runners.engine.run_target import RunTarget, make_target
from runners.engine.sandbox import Limits, get_sandbox
from runners.engine.verdicts import Outcome
from runners.targets.base import TargetSpec
from tests.missing import unavailable
from tests.runners.conftest import require_toolchain

pytestmark = pytest.mark.slow

# main waits on c1 while the spawned process waits on c2: stuck forever.
STUCK = lc.Program(("c1", "c2"), lc.Then(lc.SpawnE(lc.Recv("c2")), lc.Recv("c1")))


def _target(language: str, repetitions: int = 2) -> RunTarget:
    require_toolchain(language)
    return make_target(language, repetitions=repetitions)


def _uncached_batch(programs: list[lc.Program], target: RunTarget, **kwargs: Any) -> BatchReport:
    """execute_batch with a 10 s limit unless given, compiling however often the test has
    run here, in a workdir the sandbox's user can reach (pytest's tmp_path is under a
    private one)."""
    limits = kwargs.pop("limits", Limits(timeout_s=10))
    with tempfile.TemporaryDirectory(prefix="chanfuzz-test-") as workdir:
        return execute_batch(
            programs,
            target,
            workdir=Path(workdir),
            sandbox=get_sandbox("local"),
            limits=limits,
            use_cache=False,
            **kwargs,
        )


def test_batch_of_generated_go_programs_all_terminate() -> None:
    programs = [generate_program(s, PRESETS["F"]).program for s in range(30)]
    # A compile to time, however often the test has run here: no artifact cache. The
    # uncached binary stays in the workdir, which the sandbox's user must reach (pytest's
    # tmp_path is under a private directory).
    with tempfile.TemporaryDirectory(prefix="chanfuzz-test-") as workdir:
        report = execute_batch(
            programs,
            _target("go"),
            workdir=Path(workdir),
            sandbox=get_sandbox("local"),
            limits=Limits(timeout_s=20),
            use_cache=False,
        )
    assert report.compiles == 1
    assert [e.outcome for e in report.executions] == [Outcome.TERMINATED] * 30
    assert [e.index for e in report.executions] == list(range(30))
    # Where the time went (bench/throughput.py's split): one render, one build, 2 runs
    # (25 programs share the first, the default CHANFUZZ_SHARED_RUN_SIZE, 5 the second).
    stages = report.stages
    assert stages.runs == 2
    assert [e.attempts[0].group for e in report.executions] == [25] * 25 + [5] * 5
    assert 0 < stages.render_s < stages.compile_s
    assert stages.compile_s >= report.compile_s > 0
    runs = sum(a.duration_s for e in report.executions for a in e.attempts)
    assert stages.run_s >= runs > 0  # the sandbox's own start is in the wall time
    assert 0 < stages.verdict_s < stages.run_s


def test_stages_count_every_attempt_of_a_hang(tmp_path: Path) -> None:
    report = execute_batch(
        [STUCK],
        _target("crystal"),
        workdir=tmp_path,
        sandbox=get_sandbox("local"),
        limits=Limits(timeout_s=1, quiet_s=0.5),
        triage=Triage(retries=1, factor=1.5),
    )
    (execution,) = report.executions
    assert len(execution.attempts) == 2 == report.stages.runs
    assert report.stages.run_s >= sum(a.duration_s for a in execution.attempts)


@pytest.mark.parametrize(
    ("language", "signed"),
    [
        ("rust-crossbeam", "rust-crossbeam | hang | crossbeam_channel::"),
        ("kotlin", "kotlin | hang | "),
    ],
)
def test_a_hang_is_declared_and_signed_alike_in_a_container(
    tmp_path: Path, language: str, signed: str
) -> None:
    # Rust prints nothing on a signal: the sandbox runs eu-stack on the program from outside.
    # In a container that needs its processes as this machine sees them, as the quiet
    # period does; then production (docker) and our machines (local) agree. A Kotlin
    # program runs on the Java 25 bound in from this machine (not the image's JRE), and
    # dumps its threads on SIGQUIT there too.
    from runners.engine.sandbox import SandboxUnavailable

    target = _target(language)
    signatures = {}
    for backend in ("local", "docker"):
        try:
            sandbox = get_sandbox(backend, language=target.language)
        except SandboxUnavailable as exc:
            unavailable(f"the {backend} sandbox is unavailable here: {exc.reason}")
        report = execute_batch(
            [STUCK],
            target,
            workdir=tmp_path / backend,
            sandbox=sandbox,
            limits=Limits(timeout_s=60, quiet_s=1.0),
            triage=Triage(retries=0),
        )
        (execution,) = report.executions
        (attempt,) = execution.attempts
        assert execution.outcome is Outcome.TIMEOUT and attempt.quiet, backend
        assert attempt.duration_s < 30, backend
        if target.toolchain.run_executable is not None:
            assert "Full thread dump OpenJDK 64-Bit Server VM (25." in (attempt.dump or ""), backend
        signatures[backend] = execution.classification.signature
    assert signatures["docker"] == signatures["local"]
    assert signatures["local"].startswith(signed)


def test_go_deadlock_among_good_programs_is_a_crash_with_its_own_index(tmp_path: Path) -> None:
    good = [generate_program(s, PRESETS["A"]).program for s in range(4)]
    report = execute_batch(
        [*good[:2], STUCK, *good[2:]],
        _target("go"),
        workdir=tmp_path,
        sandbox=get_sandbox("local"),
        limits=Limits(timeout_s=20),
    )
    outcomes = [e.outcome for e in report.executions]
    assert outcomes == [Outcome.TERMINATED] * 2 + [Outcome.CRASH] + [Outcome.TERMINATED] * 2
    stuck = report.executions[2]
    assert stuck.classification.signature == "go | deadlock | chan receive×2"


def test_crystal_hang_is_a_timeout_confirmed_by_reruns(tmp_path: Path) -> None:
    report = execute_batch(
        [STUCK],
        _target("crystal"),
        workdir=tmp_path,
        sandbox=get_sandbox("local"),
        limits=Limits(timeout_s=2),
        triage=Triage(retries=2, factor=1.5),
    )
    (execution,) = report.executions
    assert execution.outcome is Outcome.TIMEOUT
    assert execution.hang_confirmed is True
    assert [a.timeout_s for a in execution.attempts] == [2, 3, 3]
    assert all(a.timed_out for a in execution.attempts)
    assert "hung again in 2 of 2 re-runs" in execution.classification.reason


class _Watched:
    """The local sandbox, noting whether each run asked for SCHED_BATCH."""

    def __init__(self) -> None:
        self.inner = get_sandbox("local")
        self.name, self.safe = self.inner.name, self.inner.safe
        self.batch: list[bool] = []

    def run(self, argv: list[str], **kwargs: object):  # noqa: ANN201 - the sandbox's result
        self.batch.append(kwargs["limits"].batch_scheduling)  # type: ignore[union-attr]
        return self.inner.run(argv, **kwargs)  # type: ignore[arg-type]


def test_every_crystal_run_shared_or_alone_is_under_sched_batch(tmp_path: Path) -> None:
    good = [generate_program(seed, PRESETS["A"]).program for seed in range(3)]
    box = _Watched()
    report = execute_batch(
        [*good, STUCK],
        _target("crystal"),
        workdir=tmp_path,
        sandbox=box,  # type: ignore[arg-type]
        limits=Limits(timeout_s=10, quiet_s=1),
        triage=Triage(retries=1, factor=1.0),
    )
    outcomes = [e.outcome for e in report.executions]
    assert outcomes == [Outcome.TERMINATED] * 3 + [Outcome.TIMEOUT]
    # A shared run of the good ones, the hang's run alone and its re-run (at least).
    assert len(box.batch) >= 3 and all(box.batch)


def test_crystal_fiber_that_raises_is_a_crash_not_a_hang(tmp_path: Path) -> None:
    # The fiber dies of the exception, main waits for it until the limit: the run
    # times out, but the verdict is the exception, and no re-run is spent on it.
    from runners.engine.build import build
    from runners.engine.run_alone import run_one

    target = _target("crystal")
    source = (
        "done = Channel(Nil).new\nc = Channel(Int32).new\nc.close\n"
        "spawn do\n  c.send(1)\n  done.send(nil)\nend\ndone.receive\n"
    )
    artifact = build(target.toolchain, source, tmp_path, flags=target.build_flags)
    execution = run_one(
        target,
        artifact,
        0,
        sandbox=get_sandbox("local"),
        limits=Limits(timeout_s=3),
        triage=Triage(retries=2),
    )
    assert execution.outcome is Outcome.CRASH
    assert execution.attempts[0].timed_out and len(execution.attempts) == 1
    # Without debug info the frames are bare names; Crystal's raising machinery
    # (Exception::CallStack…, raise<…>) is left out of the top three.
    assert execution.classification.signature == (
        "crystal | Channel::ClosedError | Channel is closed | "
        "Channel(Int32) < ~procProc(Nil) < Fiber#run:(IO::FileDescriptor | Nil)"
    )


def test_kotlin_hang_is_a_timeout_with_the_jvm_thread_dump(tmp_path: Path) -> None:
    report = execute_batch(
        [STUCK],
        _target("kotlin", repetitions=1),
        workdir=tmp_path,
        sandbox=get_sandbox("local"),
        limits=Limits(timeout_s=4),
        triage=Triage(retries=0),
    )
    (execution,) = report.executions
    assert execution.outcome is Outcome.TIMEOUT
    assert execution.hang_confirmed is None  # not re-run: neither confirmed nor not
    assert "Full thread dump" in (execution.attempts[0].dump or "")
    assert execution.classification.signature.startswith("kotlin | hang")


def test_a_kotlin_run_that_hangs_waits_aside_while_the_programs_after_it_run() -> None:
    """A JVM each: the hung one, blocked for the shared quiet period, waits out its quiet
    period aside, so the two after it have their verdicts first."""
    done: list[int] = []
    programs = [STUCK, *(generate_program(s, PRESETS["A"]).program for s in range(2))]
    report = _uncached_batch(
        programs, _target("kotlin", repetitions=1), triage=Triage(retries=0),
        limits=Limits(timeout_s=20, quiet_s=3), on_result=lambda run: done.append(run.index),
    )  # fmt: skip
    assert done == [1, 2, 0]
    hang = report.executions[0]
    assert hang.outcome is Outcome.TIMEOUT and hang.attempts[0].quiet
    assert "Full thread dump" in (hang.attempts[0].dump or "")
    assert [e.outcome for e in report.executions[1:]] == [Outcome.TERMINATED] * 2
    assert report.stages.runs == 3


def test_the_program_a_compile_error_names_is_tried_alone_first(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """One program of eight does not compile: the compiler names its line, so the batch
    compiles as the three before it, it alone, and the four after it (halving would take
    seven compiles), and the verdicts still come in the batch's order."""
    target = _target("go")
    programs = [generate_program(s, PRESETS["A"]).program for s in range(8)]
    bad = programs[4]
    render = TargetSpec.render_batch

    def with_a_broken_program(spec: TargetSpec, group: list, **kwargs: object) -> str:
        source = render(spec, group, **kwargs)
        if bad in group:
            at = group.index(bad)
            source = source.replace(f"func prog{at}() {{", f"func prog{at}() {{\n\tnoSuchFunc()")
        return source

    monkeypatch.setattr(TargetSpec, "render_batch", with_a_broken_program)
    order = []
    report = _uncached_batch(programs, target, on_result=lambda run: order.append(run.index))
    outcomes = [e.outcome for e in report.executions]
    assert outcomes == [Outcome.TERMINATED] * 4 + [Outcome.COMPILE_ERROR] + [Outcome.TERMINATED] * 3
    assert "noSuchFunc" in report.executions[4].compile_output
    assert report.compiles == 4 and order == list(range(8))


def test_a_batch_in_groups_runs_each_group_before_the_next_compiles(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Groups of 1, 2 and 3: the first verdict comes after one program's compile."""
    target = _target("go")
    programs = [generate_program(s, PRESETS["A"]).program for s in range(6)]
    events: list[str] = []
    render = TargetSpec.render_batch

    def counted(spec: TargetSpec, group: list, **kwargs: object) -> str:
        events.append(f"compile {len(group)}")
        return render(spec, group, **kwargs)

    monkeypatch.setattr(TargetSpec, "render_batch", counted)
    report = _uncached_batch(
        programs,
        target,
        on_result=lambda run: events.append(f"verdict {run.index}"),
        groups=[1, 2, 3],
    )
    assert events == [
        "compile 1", "verdict 0", "compile 2", "verdict 1", "verdict 2",
        "compile 3", "verdict 3", "verdict 4", "verdict 5",
    ]  # fmt: skip
    assert [e.outcome for e in report.executions] == [Outcome.TERMINATED] * 6
    assert report.compiles == 3 and report.stages.runs >= 3


def test_groups_that_do_not_cut_the_batch_are_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="do not cut a batch of 3"):
        execute_batch(
            [generate_program(s, PRESETS["A"]).program for s in range(3)],
            make_target("go"),
            workdir=tmp_path,
            sandbox=get_sandbox("local"),
            limits=Limits(timeout_s=10),
            groups=[1, 1],
        )


def test_program_that_does_not_compile_is_isolated_and_the_rest_still_run(tmp_path: Path) -> None:
    # A batch that cannot compile (here: a flag the compiler rejects) is split
    # down to single programs; each ends as a compile error with the output.
    target = dataclasses.replace(_target("go"), build_flags=("-definitely-not-a-flag",))
    programs = [generate_program(s, PRESETS["A"]).program for s in range(3)]
    report = execute_batch(
        programs,
        target,
        workdir=tmp_path,
        sandbox=get_sandbox("local"),
        limits=Limits(timeout_s=10),
    )
    assert [e.outcome for e in report.executions] == [Outcome.COMPILE_ERROR] * 3
    assert "definitely-not-a-flag" in report.executions[0].compile_output
    # halves were tried before giving up on single programs: 3 → 1 + 2 → 1 + 1
    assert report.compiles == 5



"""Verdicts and signatures, on output recorded from real runtimes (tests/runners/samples/).

The samples came from running real programs: a Go select deadlock, a Go
double close, a SIGQUIT dump of a hung Go program, a JVM stack overflow, and
a Crystal send on a closed channel; and (samples/ next to this file) SIGQUIT thread
dumps of hung JVMs, kotlinx.coroutines 0.19's lost wake-up on Java 17 and on Java 25 among them.
"""

from pathlib import Path

import pytest

from runners.engine.verdicts import (
    Classification,
    Outcome,
    classify_run,
    hang_signature,
    is_hang_signature,
    same_bug,
    same_bug_across_releases,
    wrong_value,
)
from runners.targets import jvm
from runners.targets.go import go_blocked_shape
from runners.targets.reading import normalise_frame

SAMPLES = Path(__file__).parents[1] / "samples"
DUMPS = Path(__file__).parent / "samples"


def sample(name: str) -> str:
    return (SAMPLES / name).read_text()


def test_clean_exit_is_terminated():
    verdict = classify_run("go", exit_code=0, signal=None, timed_out=False, stdout="", stderr="")
    assert verdict.outcome is Outcome.TERMINATED
    assert not verdict.is_finding
    assert verdict.signature == ""


def test_go_deadlock_report_is_a_crash_grouped_by_blocked_shape():
    verdict = classify_run(
        "go", exit_code=2, signal=None, timed_out=False, stdout="", stderr=sample("go_deadlock.txt")
    )
    assert verdict.outcome is Outcome.CRASH
    assert verdict.is_finding
    assert "all goroutines are asleep" in verdict.reason
    assert verdict.signature == "go | deadlock | chan receive×2"


def test_go_panic_signature_has_message_and_top_frames():
    verdict = classify_run(
        "go", exit_code=2, signal=None, timed_out=False, stdout="", stderr=sample("go_panic.txt")
    )
    assert verdict.outcome is Outcome.CRASH
    assert verdict.reason == "exit 2: panic: close of closed channel"
    assert verdict.signature == "go | panic | close of closed channel | main.f < main.main"


def test_go_hang_signature_comes_from_the_sigquit_dump_without_runtime_goroutines():
    dump = sample("go_sigquit_dump.txt")
    verdict = classify_run(
        "go", exit_code=None, signal=None, timed_out=True, stdout="", stderr="", dump=dump
    )
    assert verdict.outcome is Outcome.TIMEOUT
    assert verdict.signature == "go | hang | chan receive, sleep, sync.WaitGroup.Wait"
    assert "GC" not in go_blocked_shape(dump)


@pytest.mark.parametrize("language", ["kotlin", "flix"])
def test_jvm_hang_signature_comes_from_the_thread_dump(language):
    # A real SIGQUIT thread dump (OpenJDK 17): main and a worker in Object.wait, a worker
    # parked in SynchronousQueue.take; the JVM's own threads, runnable or waiting, left out.
    dump = (DUMPS / "jvm_sigquit_dump.txt").read_text()
    verdict = classify_run(
        language, exit_code=None, signal=None, timed_out=True, stdout="", stderr="", dump=dump
    )
    assert verdict.outcome is Outcome.TIMEOUT
    assert verdict.signature == f"{language} | hang | WAITING on object monitor×2, WAITING parking"
    assert verdict.signature != hang_signature(language, None)


def test_a_jvm_hang_signs_alike_on_java_17_and_25():
    # Real dumps of kotlinx.coroutines 0.19's lost wake-up (runBlocking's main thread and the
    # 8 pool threads parked), on Java 17 and on Java 25 with its AOT cache: the JVMs list
    # different threads of their own (17's "Sweeper thread", 25's "Training replay thread").
    signatures = {
        classify_run(
            "kotlin", exit_code=None, signal=None, timed_out=True, stdout="", stderr="",
            dump=(DUMPS / f"jvm{java}_kotlinx019_hang_dump.txt").read_text(),
        ).signature
        for java in (17, 25)
    }  # fmt: skip
    assert signatures == {"kotlin | hang | TIMED_WAITING parking, WAITING parking×8"}


def test_a_jvm_hang_shape_keeps_the_programs_threads_whatever_their_names():
    dump = (
        '"Reference Handler" #2 daemon prio=10\n   java.lang.Thread.State: RUNNABLE\n\n'
        '"C2 CompilerThread1" #9 daemon prio=9\n   java.lang.Thread.State: RUNNABLE\n\n'
        '"Training replay thread" #14 daemon\n   java.lang.Thread.State: RUNNABLE\n\n'
        '"Finalizer worker" #12 prio=5\n   java.lang.Thread.State: WAITING (parking)\n\n'
        '"VM Thread" os_prio=0 runnable\n\n'
        '"main" #1 prio=5\n   java.lang.Thread.State: WAITING (on object monitor)\n'
    )
    assert jvm.hang_shape(dump) == "WAITING on object monitor, WAITING parking"


def test_jvm_stack_overflow_signature_is_exception_and_top_three_frames():
    verdict = classify_run(
        "kotlin",
        exit_code=1,
        signal=None,
        timed_out=False,
        stdout="",
        stderr=sample("jvm_stackoverflow.txt"),
    )
    assert verdict.outcome is Outcome.CRASH
    assert (
        verdict.signature == "kotlin | java.lang.StackOverflowError | recursion through Rec.depth"
    )
    assert 'Exception in thread "main" java.lang.StackOverflowError' in verdict.reason


def test_crystal_unhandled_exception_signature():
    verdict = classify_run(
        "crystal",
        exit_code=1,
        signal=None,
        timed_out=False,
        stdout="",
        stderr=sample("crystal_unhandled.txt"),
    )
    assert verdict.outcome is Outcome.CRASH
    assert verdict.signature == (
        "crystal | Channel::ClosedError | Channel is closed | send < inner < __crystal_main"
    )


def test_a_hang_after_an_exception_in_a_fiber_is_that_exception():
    # A Crystal fiber that raises dies alone; main waits for it until the limit.
    verdict = classify_run(
        "crystal",
        exit_code=None,
        signal=None,
        timed_out=True,
        stdout="",
        stderr=sample("crystal_unhandled_in_spawn.txt"),
        dump=None,
    )
    assert verdict.outcome is Outcome.CRASH
    assert verdict.reason == (
        "no exit before the time limit, after: Channel::ClosedError: Channel is closed"
    )
    assert (
        verdict.signature == "crystal | Channel::ClosedError | Channel is closed | send < -> < run"
    )


def test_crystal_frames_of_raising_itself_are_not_top_frames():
    # A build without debug info names Exception::CallStack… and raise<…> first.
    verdict = classify_run(
        "crystal",
        exit_code=1,
        signal=None,
        timed_out=False,
        stdout="",
        stderr=sample("crystal_unhandled_in_spawn_nodebug.txt"),
    )
    assert verdict.signature == (
        "crystal | Channel::ClosedError | Channel is closed | "
        "Channel(Int32) < ~procProc(Nil) < Fiber#run:(IO::FileDescriptor | Nil)"
    )


def test_signal_is_reported_by_name():
    verdict = classify_run(
        "crystal", exit_code=None, signal=11, timed_out=False, stdout="", stderr=""
    )
    assert verdict.outcome is Outcome.CRASH
    assert verdict.reason == "killed by signal 11 (SIGSEGV)"
    assert verdict.signature == "crystal | killed by signal 11 (SIGSEGV)"


def test_exit_zero_with_an_exception_printed_is_still_a_crash():
    # kotlinx.coroutines may print an exception from a worker thread and still exit 0.
    verdict = classify_run(
        "kotlin",
        exit_code=0,
        signal=None,
        timed_out=False,
        stdout="",
        stderr=sample("jvm_stackoverflow.txt"),
    )
    assert verdict.outcome is Outcome.CRASH


def test_same_bug_in_different_programs_of_a_batch_has_one_signature():
    assert normalise_frame("main.prog17.func3") == normalise_frame("main.prog2.func1")
    assert normalise_frame("MainKt$prog4$1$2.invokeSuspend") == normalise_frame(
        "MainKt$prog9$1$7.invokeSuspend"
    )


def test_timeout_without_dump_groups_by_language():
    verdict = classify_run(
        "crystal", exit_code=None, signal=None, timed_out=True, stdout="", stderr="", dump=None
    )
    assert verdict.signature == "crystal | hang"


def test_jvm_out_of_native_memory_is_our_limit_not_a_runtime_crash():
    verdict = classify_run(
        "kotlin",
        exit_code=1,
        signal=None,
        timed_out=False,
        stdout="",
        stderr=sample("jvm_native_oom.txt"),
    )
    assert verdict.outcome is Outcome.INFRA_ERROR
    assert not verdict.is_finding
    assert "sandbox's limit" in verdict.reason


def test_select_stack_overflows_cut_at_different_frames_are_one_finding():
    # kotlinx.coroutines 0.22.5's select recursion (Kotlin/kotlinx.coroutines#504), seen
    # by generated programs 5 and 96 with the stack cut at different frames of the cycle,
    # and by program 73 through the mirror-image cycle (a receive clause resuming a send).
    verdicts = [
        classify_run(
            "kotlin",
            exit_code=1,
            signal=None,
            timed_out=False,
            stdout="",
            stderr=sample(f"jvm_select_stackoverflow_{seed}.txt"),
        )
        for seed in (5, 73, 96)
    ]
    assert {v.outcome for v in verdicts} == {Outcome.CRASH}
    send_side, receive_side, send_side_again = (v.signature for v in verdicts)
    assert send_side == send_side_again
    assert receive_side != send_side
    assert "AbstractChannel$ReceiveSelect.tryResumeReceive" in receive_side
    signature = send_side
    assert signature.startswith("kotlin | java.lang.StackOverflowError | recursion through ")
    assert "SelectBuilderImpl.trySelect" in signature


@pytest.mark.parametrize(
    ("signature", "hang"),
    [
        ("rust-flume | hang | flume::Hook::wait_send×2", True),
        ("go | hang", True),  # no dump, no shape
        ("rust-chan | crash | x", False),
        ("kotlin | java.lang.IllegalStateException | hang", False),
    ],
)
def test_hang_signatures_are_read_back_as_hangs(signature: str, hang: bool) -> None:
    assert is_hang_signature(signature) is hang
    if hang:
        language = signature.split(" | ")[0]
        assert hang_signature(language, None) == f"{language} | hang"


def test_a_smaller_hang_in_the_same_states_is_the_same_bug() -> None:
    wanted = "rust-chan | hang | chan::select::Select::select×2"
    assert same_bug(wanted, "rust-chan | hang | chan::select::Select::select")
    assert same_bug("go | hang | chan receive×3, select", "go | hang | chan receive, select×2")
    # Waiting somewhere else is another bug; so is any difference in a crash.
    assert not same_bug("go | hang | chan receive×2, select", "go | hang | chan receive")
    assert not same_bug("go | hang | chan receive", "go | hang | chan send")
    assert not same_bug("go | panic: x | main.a", "go | panic: x | main.b")
    assert not same_bug("go | hang", "rust-chan | hang")


def test_the_value_oracles_line_is_a_wrong_value_signed_by_its_kind():
    stderr = (
        "chanfuzz: wrong value: received twice (by a select): value 4 sent on c2\n"
        "goroutine 1 [running]:\n"
    )
    verdict = classify_run(
        "go", exit_code=65, signal=None, timed_out=False, stdout="", stderr=stderr
    )
    assert verdict.outcome is Outcome.WRONG_VALUE
    assert verdict.is_finding
    assert verdict.signature == "go | wrong value | received twice (by a select)"
    assert verdict.reason == "wrong value: received twice (by a select): value 4 sent on c2"
    # Another program's values and channels: the same finding.
    other = classify_run(
        "go", exit_code=65, signal=None, timed_out=False, stdout="",
        stderr="chanfuzz: wrong value: received twice (by a select): value 1 sent on c7\n",
    )  # fmt: skip
    assert other.signature == verdict.signature


@pytest.mark.parametrize(
    ("signal", "name"),
    [
        (4, "SIGILL"),
        (6, "SIGABRT"),
        (7, "SIGBUS"),
        (8, "SIGFPE"),
        (9, "SIGKILL"),
        (11, "SIGSEGV"),
        (15, "SIGTERM"),
        (24, "SIGXCPU"),
        (25, "SIGXFSZ"),
        (99, "signal"),
    ],
)
def test_every_known_signal_is_named_and_an_unknown_one_is_just_a_signal(signal, name):
    verdict = classify_run("go", exit_code=0, signal=signal, timed_out=False, stdout="", stderr="")
    assert verdict.outcome is Outcome.CRASH
    assert verdict.reason == f"killed by signal {signal} ({name})"
    assert verdict.signature == f"go | killed by signal {signal} ({name})"


def test_a_silent_non_zero_exit_is_a_crash_signed_by_its_exit_code():
    verdict = classify_run("go", exit_code=1, signal=None, timed_out=False, stdout="", stderr="")
    assert verdict == Classification(Outcome.CRASH, "exit 1", "go | exit 1")


def test_an_unknown_crash_gives_its_last_non_blank_line_cut_to_200_characters():
    verdict = classify_run(
        "go",
        exit_code=3,
        signal=None,
        timed_out=False,
        stdout="out line  \n \n",
        stderr="err first\n  last err line  \n\n",
    )
    # stdout comes after stderr: its last line is the last one.
    assert verdict == Classification(Outcome.CRASH, "exit 3: out line", "go | exit 3")
    long = classify_run(
        "go", exit_code=3, signal=None, timed_out=False, stdout="", stderr="x" * 300 + "\n"
    )
    assert long.reason == "exit 3: " + "x" * 200
    assert long.signature == "go | exit 3"


def test_exit_zero_is_terminated_whatever_else_was_printed():
    verdict = classify_run(
        "go", exit_code=0, signal=None, timed_out=False, stdout="hello\n", stderr="warning\n"
    )
    assert verdict == Classification(Outcome.TERMINATED, "exit 0", "")


def test_a_timeout_with_an_empty_dump_groups_by_language():
    verdict = classify_run(
        "go", exit_code=None, signal=None, timed_out=True, stdout="", stderr="", dump=""
    )
    assert verdict == Classification(Outcome.TIMEOUT, "no exit before the time limit", "go | hang")
    assert verdict.is_finding
    assert hang_signature("go", "") == "go | hang"


def test_a_timeout_that_printed_a_crash_is_that_crash():
    verdict = classify_run(
        "go", exit_code=None, signal=None, timed_out=True, stdout="", stderr=sample("go_panic.txt")
    )
    assert verdict == Classification(
        Outcome.CRASH,
        "no exit before the time limit, after: panic: close of closed channel",
        "go | panic | close of closed channel | main.f < main.main",
    )


def test_the_value_oracle_wins_over_a_timeout_and_a_crash():
    stderr = "chanfuzz: wrong value: lost:   value 3 on c1  \n" + sample("go_panic.txt")
    verdict = classify_run("go", exit_code=None, signal=9, timed_out=True, stdout="", stderr=stderr)
    assert verdict == Classification(
        Outcome.WRONG_VALUE, "wrong value: lost: value 3 on c1", "go | wrong value | lost"
    )


def test_the_value_oracles_line_is_found_on_stdout_and_only_at_a_line_start():
    assert wrong_value("go", "x\nchanfuzz: wrong value: lost: value 3 on c1\nmore") == (
        Classification(
            Outcome.WRONG_VALUE, "wrong value: lost: value 3 on c1", "go | wrong value | lost"
        )
    )
    assert wrong_value("go", "say chanfuzz: wrong value: lost: value 3") is None
    assert wrong_value("go", "chanfuzz: wrong value: no kind") is None
    verdict = classify_run(
        "go",
        exit_code=65,
        signal=None,
        timed_out=False,
        stdout="chanfuzz: wrong value: never received: value 2 on c4\n",
        stderr="",
    )
    assert verdict.signature == "go | wrong value | never received"


@pytest.mark.parametrize(
    ("outcome", "finding"),
    [
        (Outcome.TERMINATED, False),
        (Outcome.TIMEOUT, True),
        (Outcome.CRASH, True),
        (Outcome.WRONG_VALUE, True),
        (Outcome.COMPILE_ERROR, False),
        (Outcome.INFRA_ERROR, False),
    ],
)
def test_only_the_runtimes_faults_are_findings(outcome, finding):
    assert Classification(outcome, "", "").is_finding is finding


def test_outcomes_are_stored_under_their_names():
    assert [str(o) for o in Outcome] == [
        "terminated",
        "timeout",
        "crash",
        "wrong_value",
        "compile_error",
        "infra_error",
    ]


def test_a_hang_signature_is_recognised_by_its_second_field_only():
    assert is_hang_signature("go | hang | chan receive×2")
    assert not is_hang_signature("hang | go")
    assert not is_hang_signature("go")
    assert not is_hang_signature("go | hanging")


def test_counts_are_ignored_only_at_the_end_of_a_hang_state():
    assert same_bug("go | hang | a×2, b", "go | hang | a, b×5")
    assert same_bug("go | hang | a×12", "go | hang | a")
    # ×n inside a state's name is part of the name.
    assert not same_bug("go | hang | a×2b", "go | hang | ab")
    assert not same_bug("go | hang | a×, b", "go | hang | a, b")
    # A hang and a crash are never the same bug, even with the same text after the counts.
    assert not same_bug("go | hang | a×2", "go | crash | a×2")
    assert same_bug("go | crash | a×2", "go | crash | a×2")


def test_our_own_limit_gives_no_signature_and_the_reason_of_the_target():
    verdict = classify_run(
        "kotlin",
        exit_code=1,
        signal=None,
        timed_out=False,
        stdout="",
        stderr=sample("jvm_native_oom.txt"),
    )
    assert verdict == Classification(
        Outcome.INFRA_ERROR,
        "the JVM ran out of memory under the sandbox's limit: There is insufficient memory"
        " for the Java Runtime Environment to continue.",
        "",
    )


def test_counts_are_ignored_only_when_both_signatures_are_hangs():
    # "hang×3" in the second field is no hang: a crash's text is compared exactly.
    assert not same_bug("go | hang", "go | hang×3")
    assert not same_bug("go | hang×3", "go | hang")


# kotlinx.coroutines#504 as 0.19 signed it, entered by a receive and by a send (two
# findings), and as 1.0 signs it: the package lost `.experimental`.
_CYCLE = (
    "{p}.internal.AtomicOp.perform · {p}.internal.LockFreeLinkedListNode$AbstractAtomicDesc"
    "$PrepareOp.perform · {p}.internal.LockFreeLinkedListNode$AbstractAtomicDesc.prepare · "
    "{p}.internal.LockFreeLinkedListNode$AddLastDesc.takeAffectedNode · {p}.internal."
    "LockFreeLinkedListNode$RemoveFirstDesc.onPrepare · {p}.selects.SelectBuilderImpl"
    "$AtomicSelectOp.prepare · {p}.selects.SelectBuilderImpl.getState · "
    "{p}.selects.SelectBuilderImpl.trySelect"
)
_BY_RECEIVE = (
    "{p}.channels.AbstractChannel$ReceiveSelect.tryResumeReceive · "
    "{p}.channels.AbstractSendChannel$TryOfferDesc.validatePrepared · "
)
_BY_SEND = (
    "{p}.channels.AbstractChannel$TryPollDesc.validatePrepared · "
    "{p}.channels.AbstractSendChannel$SendSelect.tryResumeSend · "
)


def _overflow(package: str, entry: str) -> str:
    frames = (entry + _CYCLE).format(p=package)
    return f"kotlin | java.lang.StackOverflowError | recursion through {frames}"


def test_a_release_that_renamed_its_package_shows_the_same_crash() -> None:
    old = _overflow("kotlinx.coroutines.experimental", _BY_RECEIVE)
    new = _overflow("kotlinx.coroutines", _BY_RECEIVE)
    assert not same_bug(old, new)
    assert same_bug_across_releases(old, new)


def test_a_recursion_entered_by_another_method_is_the_same_overflow() -> None:
    by_receive = _overflow("kotlinx.coroutines.experimental", _BY_RECEIVE)
    by_send = _overflow("kotlinx.coroutines", _BY_SEND)
    assert same_bug_across_releases(by_receive, by_send)


def test_other_crashes_are_not_the_same_bug_on_another_release() -> None:
    overflow = _overflow("kotlinx.coroutines", _BY_RECEIVE)
    other_recursion = (
        "kotlin | java.lang.StackOverflowError | recursion through a.B.f · a.B.g · a.C.h"
    )
    assert not same_bug_across_releases(overflow, other_recursion)
    npe = "kotlin | java.lang.NullPointerException | a.x.B.f < a.x.B.g < Main.main"
    assert same_bug_across_releases(
        npe, "kotlin | java.lang.NullPointerException | a.B.f < B.g < Main.main"
    )
    assert not same_bug_across_releases(
        npe, "kotlin | java.lang.NullPointerException | a.B.g < a.B.f < Main.main"
    )
    assert not same_bug_across_releases(
        npe, "kotlin | java.lang.IllegalStateException | a.x.B.f < a.x.B.g < Main.main"
    )
    assert not same_bug_across_releases(npe, "kotlin | hang | WAITING parking×8")
    assert same_bug_across_releases(
        "kotlin | hang | WAITING parking×8", "kotlin | hang | WAITING parking×2"
    )

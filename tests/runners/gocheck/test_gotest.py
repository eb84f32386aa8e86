"""Test files in gocheck (generator/gocheck/gotest.py): each `func TestXxx(t *testing.T)`
is checked as `go test` runs it (alone, and with the tests it shares package variables
with, in order), with t.Fatal ending the test through runtime.Goexit,
cleanups, t.Context, and subtests (sequential and parallel) as tRunner orders them.
The Go behaviour each case asserts was seen with `go test` (Go 1.26)."""

from __future__ import annotations

import textwrap

import pytest

from generator.gocheck import ssa
from generator.gocheck.gotest import run_in_order
from runners.gocheck import frontend
from runners.gocheck.check import check_source, report_lines

pytestmark = pytest.mark.usefixtures("go_frontend")


def check(body: str):
    return check_source(textwrap.dedent(body).lstrip())


def load(body: str) -> ssa.Program:
    return ssa.load(frontend.ssa_of_source(textwrap.dedent(body).lstrip()))


def test_goroutine_left_blocked_when_the_test_returns_is_a_leak_named_by_its_test():
    c = check("""
        package leak

        import "testing"

        func TestLeak(t *testing.T) {
            ch := make(chan int)
            go func() { ch <- 1 }()
        }
        """)
    assert c.verdict == "partial-deadlock", report_lines(c)
    assert "TestLeak returns while 1 goroutine(s) stay blocked" in "\n".join(report_lines(c))


def test_fatal_runs_the_tests_deferred_calls_before_it_ends():
    c = check("""
        package fatal

        import "testing"

        func TestFatal(t *testing.T) {
            done := make(chan struct{})
            go func() { <-done }()
            defer close(done)
            t.Fatal("stop")
        }
        """)
    assert c.verdict == "ok", report_lines(c)


def test_fatal_skips_the_rest_of_the_test():
    c = check("""
        package fatal

        import "testing"

        func TestFatalThenSend(t *testing.T) {
            ch := make(chan int)
            t.Fatalf("stop %d", 1)
            ch <- 1
        }
        """)
    assert c.verdict == "ok", report_lines(c)


def test_fatal_in_a_helper_ends_the_test_goroutine_not_just_the_helper():
    c = check("""
        package fatal

        import "testing"

        func must(t testing.TB, ok bool) {
            t.Helper()
            if !ok {
                t.FailNow()
            }
        }

        func TestHelper(t *testing.T) {
            ch := make(chan int)
            must(t, false)
            <-ch
        }
        """)
    assert c.verdict == "ok", report_lines(c)


def test_goexit_in_a_goroutine_runs_its_deferred_calls_and_recover_does_not_stop_it():
    c = check("""
        package main

        import (
            "runtime"
            "sync"
        )

        func main() {
            var wg sync.WaitGroup
            ch := make(chan int)
            wg.Add(1)
            go func() {
                defer wg.Done()
                defer func() { recover() }()
                runtime.Goexit()
                ch <- 1
            }()
            wg.Wait()
        }
        """)
    assert c.verdict == "ok", report_lines(c)


def test_goexit_in_main_is_unsupported():
    c = check("""
        package main

        import "runtime"

        func main() {
            go func() {}()
            runtime.Goexit()
        }
        """)
    assert c.verdict == "unsupported", report_lines(c)


def test_failed_is_known_after_errorf():
    c = check("""
        package failed

        import "testing"

        func TestFailed(t *testing.T) {
            ch := make(chan int)
            t.Errorf("bad %d", 1)
            if !t.Failed() {
                <-ch
            }
        }
        """)
    assert c.verdict == "ok", report_lines(c)


def test_cleanups_run_after_the_test_last_registered_first():
    c = check("""
        package cleanup

        import "testing"

        func TestCleanup(t *testing.T) {
            first, second := make(chan int), make(chan int)
            go func() { <-first }()
            t.Cleanup(func() { close(first) })
            t.Cleanup(func() { second <- 1 })
            go func() { <-second }()
        }
        """)
    assert c.verdict == "ok", report_lines(c)


def test_a_cleanup_that_waits_for_what_the_test_never_sends_blocks_the_test():
    c = check("""
        package cleanup

        import "testing"

        func TestCleanupBlocks(t *testing.T) {
            ch := make(chan int)
            t.Cleanup(func() { <-ch })
        }
        """)
    assert c.verdict == "global-deadlock", report_lines(c)


CANCEL_CLEANUP = """
    package worker

    import (
        "context"
        "testing"
    )

    func worker(ctx context.Context, out chan<- int) {
        <-ctx.Done()
        out <- 1
    }

    func TestWorker(t *testing.T) {
        ctx, cancel := context.WithCancel(context.Background())
        CLEANUP
        out := make(chan int CAP)
        go worker(ctx, out)
    }
    """


@pytest.mark.parametrize(
    ("cleanup", "cap", "verdict"),
    [
        ("t.Cleanup(cancel)", ", 1", "ok"),  # cancelled once the test returns
        ("_ = cancel", ", 1", "partial-deadlock"),  # never cancelled
        ("t.Cleanup(cancel)", "", "partial-deadlock"),  # cancelled, then its send blocks
        ("defer t.Cleanup(cancel)", ", 1", "ok"),
    ],
)
def test_a_cleanup_may_be_a_context_cancel(cleanup, cap, verdict):
    # t.Cleanup(cancel) is how tests stop what they started; cancel is no function of the
    # program's but the checker's model of one. Seen with go test: the same verdicts.
    c = check(CANCEL_CLEANUP.replace("CLEANUP", cleanup).replace(" CAP", cap))
    assert c.verdict == verdict, report_lines(c)


@pytest.mark.parametrize(
    ("cleanups", "verdict"),
    [
        # Cleanups run last registered first: the wait for the release before the stop
        # that would release it blocks for ever; the other way round, the stop releases.
        ("t.Cleanup(stop)\n    t.Cleanup(func() { <-released })", "global-deadlock"),
        ("t.Cleanup(func() { <-released })\n    t.Cleanup(stop)", "ok"),
    ],
)
def test_a_cleanup_may_be_iter_pulls_stop(cleanups, verdict):
    c = check("""
        package pull

        import (
            "iter"
            "testing"
        )

        func lines(released chan int) iter.Seq[int] {
            return func(yield func(int) bool) {
                defer func() { released <- 1 }()
                for i := 0; i < 3; i++ {
                    if !yield(i) {
                        return
                    }
                }
            }
        }

        func TestFirst(t *testing.T) {
            released := make(chan int, 1)
            next, stop := iter.Pull(lines(released))
            CLEANUPS
            next()
        }
        """.replace("CLEANUPS", cleanups))
    assert c.verdict == verdict, report_lines(c)


def test_t_context_is_cancelled_when_the_test_ends():
    c = check("""
        package ctx

        import "testing"

        func TestContext(t *testing.T) {
            ctx := t.Context()
            go func() { <-ctx.Done() }()
        }
        """)
    assert c.verdict == "ok", report_lines(c)


def test_run_waits_for_its_subtest():
    c = check("""
        package sub

        import "testing"

        func TestRun(t *testing.T) {
            ch := make(chan int)
            t.Run("send", func(t *testing.T) { ch <- 1 })
            <-ch
        }
        """)
    assert c.verdict == "global-deadlock", report_lines(c)


def test_fatal_in_a_subtest_ends_only_the_subtest():
    c = check("""
        package sub

        import "testing"

        func TestSubFatal(t *testing.T) {
            ch := make(chan int, 1)
            t.Run("fails", func(t *testing.T) { t.Fatal("no") })
            ch <- 1
            <-ch
        }
        """)
    assert c.verdict == "ok", report_lines(c)


def test_parallel_subtest_waits_until_its_parent_returns():
    c = check("""
        package par

        import "testing"

        func TestParallel(t *testing.T) {
            ch := make(chan int)
            t.Run("sub", func(t *testing.T) {
                t.Parallel()
                ch <- 1
            })
            <-ch
        }
        """)
    assert c.verdict == "global-deadlock", report_lines(c)


def test_parent_waits_for_its_parallel_subtests_before_its_cleanups():
    c = check("""
        package par

        import "testing"

        func TestParallelThenCleanup(t *testing.T) {
            ch := make(chan int)
            t.Cleanup(func() { close(ch) })
            for i := 0; i < 2; i++ {
                t.Run("sub", func(t *testing.T) {
                    t.Parallel()
                    <-ch
                })
            }
        }
        """)
    assert c.verdict == "global-deadlock", report_lines(c)


def test_parallel_subtests_that_meet_deadlock_when_one_cpu_runs_one_at_a_time():
    # They run together once the parent returns, as many at once as go test -parallel lets:
    # by default the CPU count, so with one CPU the sender waits for a receiver that waits
    # for the sender's place (go test -parallel 1 hangs; with 2 CPUs it passes).
    c = check("""
        package par

        import "testing"

        func TestPingPong(t *testing.T) {
            ch := make(chan int)
            t.Run("ping", func(t *testing.T) { t.Parallel(); ch <- 1 })
            t.Run("pong", func(t *testing.T) { t.Parallel(); <-ch })
        }
        """)
    lines = report_lines(c)
    assert c.verdict == "global-deadlock", lines
    assert any("the run has 1 CPU: go test -parallel 1" in line for line in lines), lines
    assert any("blocked: send on the places of go test -parallel" in line for line in lines)
    assert "tests ran at most 1, 2 or 4 at once (go test -parallel's default, the run's " \
        "CPU count)" in lines


def test_parallel_subtests_that_need_no_other_end_on_one_cpu():
    # Each waits for a place in turn; the parent, not parallel, takes its place back after
    # them and only then runs its cleanup.
    c = check("""
        package par

        import "testing"

        func TestEach(t *testing.T) {
            results := make(chan int, 3)
            for i := 0; i < 3; i++ {
                t.Run("sub", func(t *testing.T) { t.Parallel(); results <- i })
            }
            t.Cleanup(func() {
                if <-results+<-results+<-results != 3 {
                    t.Error("lost one")
                }
            })
        }
        """)
    assert c.verdict == "ok", report_lines(c)


def test_a_top_level_tests_parallel_asks_no_cpu_count():
    c = check("""
        package par

        import "testing"

        func TestAlone(t *testing.T) {
            t.Parallel()
            ch := make(chan int, 1)
            ch <- 1
            <-ch
        }
        """)
    lines = report_lines(c)
    assert c.verdict == "ok", lines
    assert not any("the run has" in line for line in lines), lines


def test_every_test_of_a_file_is_checked_and_the_buggy_one_gives_the_verdict():
    c = check("""
        package two

        import "testing"

        func TestFine(t *testing.T) {
            ch := make(chan int, 1)
            ch <- 1
        }

        func TestStuck(t *testing.T) {
            var ch chan int
            <-ch
        }
        """)
    assert c.verdict == "global-deadlock", report_lines(c)
    text = "\n".join(report_lines(c))
    assert "TestFine: ok" in text and "TestStuck: global-deadlock" in text


def test_a_package_with_neither_main_nor_tests_is_bad_input():
    c = check("""
        package lib

        func Helper() {}
        """)
    assert c.verdict == "bad-input"
    assert "neither a package main program nor a test file" in c.error


def test_examples_are_checked_as_programs_of_the_package():
    # example_test.go files hold no TestXxx and were bad input; an example is a program
    # a reader runs (go test runs it too when it has an output comment).
    c = check("""
        package ex

        import (
            "fmt"
            "sync"
        )

        func ExampleWorkers() {
            var wg sync.WaitGroup
            results := make(chan int, 3)
            for i := 0; i < 3; i++ {
                wg.Add(1)
                go func() { defer wg.Done(); results <- i }()
            }
            wg.Wait()
            close(results)
            for r := range results {
                fmt.Println(r)
            }
        }

        func Example_leak() {
            ch := make(chan int)
            go func() { ch <- 1 }()
        }
        """)
    assert c.verdict == "partial-deadlock", report_lines(c)
    lines = report_lines(c)
    assert "ExampleWorkers: ok" in "\n".join(lines)
    assert "Example_leak returns while 1 goroutine(s) stay blocked" in "\n".join(lines)


_DISPATCHER = """
    package disp

    import (
        "os"
        "testing"
    )

    var reqs = make(chan chan int)

    func dispatcher() {
        n := 0
        for r := range reqs {
            n++
            r <- n
        }
    }

    func next() int { r := make(chan int); reqs <- r; return <-r }

    func TestMain(m *testing.M) {
        %s
    }

    func TestNext(t *testing.T) {
        if a, b := next(), next(); b != a+1 {
            t.Fatalf("%%d then %%d", a, b)
        }
    }
    """


def test_a_test_runs_inside_test_main_after_its_set_up():
    # go test ran it 6 of 6 times: TestNext asks TestMain's dispatcher. Checked alone,
    # without TestMain, TestNext was called a global deadlock.
    c = check(_DISPATCHER % "go dispatcher()\n        code := m.Run()\n        close(reqs)"
              "\n        os.Exit(code)")
    assert c.verdict == "ok", report_lines(c)


def test_a_dispatcher_test_main_starts_only_after_m_run_is_a_global_deadlock():
    c = check(_DISPATCHER % "code := m.Run()\n        go dispatcher()\n        os.Exit(code)")
    assert c.verdict == "global-deadlock", report_lines(c)
    text = "\n".join(report_lines(c))
    assert "TestMain: blocked: receive from m.Run's wait" in text
    assert "TestNext (run by m.Run at line 21): line 18: blocked: send" in text


def test_what_a_test_leaves_blocked_has_leaked_when_test_main_exits():
    c = check("""
        package leak

        import (
            "os"
            "testing"
        )

        func TestMain(m *testing.M) {
            os.Exit(m.Run())
        }

        func TestLeak(t *testing.T) {
            ch := make(chan int)
            go func() { ch <- 1 }()
        }
        """)
    assert c.verdict == "partial-deadlock", report_lines(c)
    assert "os.Exit: the test binary ends here" in "\n".join(report_lines(c))


SHARED_FIXTURE = """
    package index

    import (
        "sync"
        "testing"
    )

    var (
        once sync.Once
        reqs chan int
        quit chan struct{}
    )

    func worker() {
        once.Do(func() {
            reqs, quit = make(chan int), make(chan struct{})
            go func() {
                for {
                    select {
                    case <-reqs:
                    case <-quit:
                        return
                    }
                }
            }()
        })
    }

    func TestFirst(t *testing.T) {
        worker()
        reqs <- 1
        close(quit)
    }

    func TestSecond(t *testing.T) {
        worker()
        reqs <- 2
    }
    """


def test_tests_that_share_package_variables_are_checked_in_order_in_one_process():
    # go test runs the tests in order in one process: the worker sync.Once started is
    # stopped by TestFirst, so TestSecond's send blocks for ever (go test: "all
    # goroutines are asleep", 20 of 20 runs). Alone, TestSecond only leaks the worker.
    c = check(SHARED_FIXTURE)
    text = "\n".join(report_lines(c))
    assert c.verdict == "global-deadlock", text
    assert "TestFirst, TestSecond in order: global-deadlock" in text
    assert "TestSecond: partial-deadlock" in text  # as `go test -run TestSecond` runs it


def test_cleanups_of_two_tests_closing_one_package_channel_panic():
    c = check("""
        package server

        import "testing"

        var quit = make(chan struct{})

        func TestStart(t *testing.T) {
            t.Cleanup(func() { close(quit) })
        }

        func TestRestart(t *testing.T) {
            t.Cleanup(func() { close(quit) })
        }
        """)
    text = "\n".join(report_lines(c))
    assert c.verdict == "channel-safety", text
    assert "TestStart, TestRestart in order: close of closed channel" in text
    assert "TestRestart (run by go test): line 12: close of closed channel" in text


def test_test_main_runs_the_tests_in_order_in_its_m_run():
    c = check("""
        package server

        import (
            "os"
            "testing"
        )

        var quit = make(chan struct{})

        func TestMain(m *testing.M) {
            os.Exit(m.Run())
        }

        func TestStart(t *testing.T) { close(quit) }

        func TestRestart(t *testing.T) { close(quit) }
        """)
    text = "\n".join(report_lines(c))
    assert c.verdict == "channel-safety", text
    assert "TestStart, TestRestart in order" in text
    assert "TestRestart (run by m.Run): line 16: close of closed channel" in text


def test_tests_that_share_nothing_are_not_checked_again():
    c = check("""
        package apart

        import "testing"

        var calls = make(chan int, 1)

        func TestOne(t *testing.T) {
            ch := make(chan int, 1)
            ch <- 1
        }

        func TestTwo(t *testing.T) {
            calls <- 1
            <-calls
        }
        """)
    assert c.verdict == "ok", report_lines(c)
    assert " in order" not in "\n".join(report_lines(c))


def test_only_the_tests_that_share_a_package_variable_are_run_in_order():
    # TestA fills the buffer TestB drains into `seen`, which TestC reads; TestD shares
    # nothing, so its place in the order cannot matter; an example is no test.
    program = load("""
        package chain

        import "testing"

        var (
            buf  = make(chan int, 1)
            seen int
        )

        func TestA(t *testing.T) { buf <- 1 }
        func TestD(t *testing.T) {}
        func ExampleB() { buf <- 2 } // run by go test after the tests, if at all
        func TestB(t *testing.T) { seen = <-buf }
        func TestC(t *testing.T) { _ = seen }
        """)
    names = {t.rsplit(".", 1)[1]: t for t in program.tests}
    assert run_in_order(program) == (names["TestA"], names["TestB"], names["TestC"])


def test_tests_that_run_in_parallel_are_not_put_in_a_sequence():
    program = load("""
        package par

        import "testing"

        var quit = make(chan struct{})

        func TestA(t *testing.T) { t.Parallel(); close(quit) }
        func TestB(t *testing.T) { t.Parallel(); <-quit }
        """)
    assert run_in_order(program) == ()

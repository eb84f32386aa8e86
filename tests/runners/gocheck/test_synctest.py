"""Tests in a testing/synctest bubble (gotest.SYNCTEST_TEST): a fake clock that moves
only when every goroutine of the bubble is blocked, the timer or sleep due first going
first, and stops once the bubble's function has returned. The Go behaviour each case
asserts was seen with `go test` (Go 1.26)."""

from __future__ import annotations

import textwrap

import pytest

from runners.gocheck.check import check_source, report_lines

pytestmark = pytest.mark.usefixtures("go_frontend")


def check(body: str):
    return check_source(textwrap.dedent(body).lstrip())


TIMEOUT = """
    package pool

    import (
        "testing"
        WITH
        "time"
    )

    func TestTimeoutAfterWork(t *testing.T) {
        RUNfunc(t *testing.T) {
            results := make(chan int)
            go func() {
                time.Sleep(10 * time.Millisecond)
                results <- 1
            }()
            select {
            case <-results:
            case <-time.After(time.Second):
                t.Fatal("timed out")
            }
        })
    }
    """


@pytest.mark.parametrize("with_, run, want", [
    # In a bubble the result, due in 10 ms, comes before the timeout, due in a second:
    # the worker never waits for ever (go test passes, every time).
    ('"testing/synctest"', "synctest.Test(t, ", "ok"),
    # On the real clock a loaded machine may time out first, and the worker then leaks.
    ("", 't.Run("sub", ', "partial-deadlock"),
])
def test_a_timeout_in_a_bubble_fires_only_when_it_is_due(with_, run, want):
    c = check(TIMEOUT.replace("WITH", with_).replace("RUN", run))
    assert c.verdict == want, report_lines(c)


SLEEPS = """
    package order

    import (
        "sync"
        "testing"
        "testing/synctest"
        "time"
    )

    func TestSleepOrder(t *testing.T) {
        synctest.Test(t, func(t *testing.T) {
            ch := make(chan int, 1)
            var wg sync.WaitGroup
            wg.Go(func() {
                time.Sleep(2 * time.Second)
                close(ch)
            })
            time.Sleep(FIRST)
            ch <- 1 // a send on a closed channel unless the worker still sleeps
            WAIT
        })
    }
    """


@pytest.mark.parametrize("first, wait, want", [
    ("time.Second", "wg.Wait()", "ok"),
    ("3 * time.Second", "wg.Wait()", "channel-safety"),
    # The function returns while the worker sleeps: the bubble's clock stops there, and
    # Go panics, "blocked goroutines remain".
    ("time.Second", "synctest.Wait()", "partial-deadlock"),
])
def test_sleeps_in_a_bubble_end_in_the_order_they_are_due(first, wait, want):
    c = check(SLEEPS.replace("FIRST", first).replace("WAIT", wait))
    assert c.verdict == want, report_lines(c)


@pytest.mark.parametrize("n, want", [("4", "ok"), ("6", "global-deadlock")])
def test_a_ticker_in_a_bubble_ticks_as_often_as_the_clock_says(n, want):
    # Four ticks of a second come before a stop at five seconds, the fifth with it, a
    # sixth never: Go panics, "all goroutines in bubble are blocked". (The loop's states
    # repeat: each advance takes what passed off every deadline.)
    c = check("""
        package tick

        import (
            "testing"
            "testing/synctest"
            "time"
        )

        func TestTicks(t *testing.T) {
            synctest.Test(t, func(t *testing.T) {
                tick := time.NewTicker(time.Second)
                defer tick.Stop()
                stop := time.After(5 * time.Second)
                n := 0
                for {
                    select {
                    case <-tick.C:
                        n++
                    case <-stop:
                        if n < N {
                            <-make(chan int)
                        }
                        return
                    }
                }
            })
        }
        """.replace("N {", f"{n} {{"))
    assert c.verdict == want, report_lines(c)


def test_a_sleep_due_when_the_bubbles_function_returns_still_ends():
    # Both sleeps are due at the same moment: the worker wakes with the function, which
    # then returns (go test -count=5 passed; workerpool's pacer tests stop so). Taken
    # after the function's, the worker's was said to wait for ever on a stopped clock.
    c = check("""
        package synct

        import (
            "testing"
            "testing/synctest"
            "time"
        )

        func TestSameDeadline(t *testing.T) {
            synctest.Test(t, func(t *testing.T) {
                go func() {
                    time.Sleep(time.Millisecond)
                }()
                time.Sleep(time.Millisecond)
            })
        }
        """)
    assert c.verdict == "ok", report_lines(c)


STOPPED_TICKER = """
    package lease

    import (
        "testing"
        "testing/synctest"
        "time"
    )

    func TestTicksThenSleeps(t *testing.T) {
        synctest.Test(t, func(t *testing.T) {
            done := make(chan struct{})
            go func() {
                defer close(done)
                tk := time.NewTicker(10 * time.Second)
                defer tk.Stop()
                for i := 0; i < 3; i++ {
                    <-tk.C
                }
            }()
            time.Sleep(time.Minute)
            <-done
        })
    }
    """


def test_a_sleep_after_a_stopped_ticker_returns():
    # The stopped ticker was still counted as due 10 s on, before the sleep: nothing could
    # go first, a false global deadlock (`go test`: ok).
    c = check(STOPPED_TICKER)
    assert c.verdict == "ok", report_lines(c)


def test_parallel_subtests_each_in_a_bubble_are_unsupported_not_a_deadlock():
    # Each bubble has a clock of its own; the checker keeps one for the test, and the
    # first bubble's return stopped it for the other's sleep (`go test`: ok).
    body = STOPPED_TICKER.replace(
        "        synctest.Test(t, func(t *testing.T) {",
        "        for _, name := range []string{\"a\", \"b\"} {\n"
        "        t.Run(name, func(t *testing.T) {\n"
        "        t.Parallel()\n"
        "        synctest.Test(t, func(t *testing.T) {",
    ).replace("            <-done\n        })\n",
              "            <-done\n        })\n        })\n        }\n")
    c = check(body)
    assert c.verdict == "unsupported", report_lines(c)
    assert any("two synctest bubbles at once" in what for what, _ in c.result.unsupported)

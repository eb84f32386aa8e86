"""gocheck on iter.Pull and iter.Pull2: the sequence runs as a coroutine, one of it and its
caller at a time; a sequence parked in its yield when main returns is not a leak (Go's leak
profile does not count it), but what it holds back is checked."""

from __future__ import annotations

import textwrap

import pytest

from runners.gocheck.check import check_source, report_lines

pytestmark = pytest.mark.usefixtures("go_frontend")


def check(body: str):
    return check_source(textwrap.dedent(body).lstrip())


# The sequence releases its handle in a deferred call, which runs only once it returns.
RELEASE = """
    package main

    import (
        "fmt"
        "iter"
    )

    func lines(ls []string, released chan string) iter.Seq[string] {
        return func(yield func(string) bool) {
            defer func() { released <- "released" }()
            for _, l := range ls {
                if !yield(l) {
                    return
                }
            }
        }
    }

    func main() {
        released := make(chan string, 1)
        next, stop := iter.Pull(lines([]string{"a", "b", "c"}, released))
        _ = stop
        for i := 0; i < TAKE; i++ {
            l, ok := next()
            fmt.Println(l, ok)
        }
        STOP
        fmt.Println(<-released)
    }
    """


@pytest.mark.parametrize(
    ("take", "stop", "verdict"),
    [
        (2, "", "global-deadlock"),  # parked in yield for ever: nothing is released
        (2, "stop()", "ok"),  # stop makes yield return false: the sequence returns
        (4, "", "ok"),  # next past the end: the sequence returned by itself
        (4, "stop()", "ok"),  # stop after the end changes nothing
        (0, "stop()", "global-deadlock"),  # stop before any next: the sequence never ran
    ],
)
def test_a_pulled_sequence_runs_only_while_next_or_stop_waits_for_it(take, stop, verdict):
    c = check(RELEASE.replace("TAKE", str(take)).replace("STOP", stop))
    assert c.verdict == verdict, report_lines(c)


def test_next_hands_over_each_value_and_then_zero_values_and_false():
    c = check("""
        package main

        import "iter"

        func count(n int) iter.Seq2[int, string] {
            return func(yield func(int, string) bool) {
                for i := 1; i <= n; i++ {
                    if !yield(i, "x") {
                        return
                    }
                }
            }
        }

        func main() {
            next, stop := iter.Pull2(count(2))
            defer stop()
            sum := 0
            for {
                k, v, ok := next()
                if !ok {
                    if k != 0 || v != "" {
                        panic("not zero")
                    }
                    break
                }
                sum += k
            }
            ch := make(chan int, 3)
            for i := 0; i < sum; i++ {
                ch <- i
            }
            // sum is 3: a fourth send would block for ever
            if _, _, ok := next(); ok {
                ch <- 4
            }
        }
        """)
    assert c.verdict == "ok", report_lines(c)


def test_a_parked_sequence_is_no_leak_but_a_goroutine_it_left_blocked_is():
    source = """
        package main

        import (
            "fmt"
            "iter"
        )

        func pages(n int) iter.Seq[int] {
            return func(yield func(int) bool) {
                ch := make(chan int)
                QUIT
                go func() {
                    defer close(ch)
                    for p := 1; p <= n; p++ {
                        SEND
                    }
                }()
                for p := range ch {
                    if !yield(p) {
                        return
                    }
                }
            }
        }

        func main() {
            next, stop := iter.Pull(pages(4))
            STOP
            a, _ := next()
            b, _ := next()
            fmt.Println(a + b)
        }
        """
    leak = source.replace("QUIT", "").replace("SEND", "ch <- p")
    # Never stopped: the sequence waits in yield (not a leak), the prefetcher in its send.
    c = check(leak.replace("STOP", "_ = stop"))
    assert c.verdict == "partial-deadlock", report_lines(c)
    stuck = [s.goroutine for s in c.result.findings[0].stuck]
    assert len(stuck) == 1 and stuck[0].startswith("g2 (pages$1$1,"), report_lines(c)
    c = check(leak.replace("STOP", "defer stop()"))
    assert c.verdict == "partial-deadlock", report_lines(c)
    fixed = source.replace("QUIT", "quit := make(chan struct{}); defer close(quit)").replace(
        "SEND", "select { case ch <- p: case <-quit: return }")
    c = check(fixed.replace("STOP", "defer stop()"))
    assert c.verdict == "ok", report_lines(c)
    # Never stopped, the sequence never closes quit: its prefetcher is blocked for ever.
    # Go's leak profile does not count it (the parked sequence still reaches its channels),
    # but nothing will ever wake it.
    c = check(fixed.replace("STOP", "_ = stop"))
    assert c.verdict == "partial-deadlock", report_lines(c)


def test_a_sequence_the_checker_cannot_tell_is_unsupported():
    c = check("""
        package main

        import (
            "iter"
            "maps"
        )

        func main() {
            next, stop := iter.Pull(maps.Keys(map[string]int{"a": 1}))
            defer stop()
            next()
        }
        """)
    assert c.verdict == "unsupported", report_lines(c)
    assert "iter.Pull of a sequence the checker cannot tell" in "\n".join(report_lines(c))

"""gocheck where a goroutine gives way (`time.Sleep`, `runtime.Gosched`, outside a synctest
bubble): a step of its own, so another goroutine may run between what it did before and
what it does after. A check of a plain flag, a sleep, then the act is a window two
goroutines can both pass (each buggy program was run with Go first: it panics with "close
of closed channel" in every run)."""

from __future__ import annotations

import textwrap

import pytest

from runners.gocheck.check import check_source, report_lines

pytestmark = pytest.mark.usefixtures("go_frontend")

CONN = """
    package main

    import (
        "sync"
        "time"
    )

    type Conn struct {
        mu     sync.Mutex
        closed bool
        done   chan struct{}
    }

    func (c *Conn) Close() {
        LOCK
        if c.closed {
            return
        }
        time.Sleep(time.Millisecond) // flushing what is buffered
        c.closed = true
        close(c.done)
    }

    func main() {
        c := &Conn{done: make(chan struct{})}
        var wg sync.WaitGroup
        for i := 0; i < 2; i++ {
            wg.Add(1)
            go func() {
                defer wg.Done()
                c.Close()
            }()
        }
        wg.Wait()
        <-c.done
    }
    """


def check(source: str):
    return check_source(textwrap.dedent(source).lstrip())


def test_a_check_then_close_on_a_plain_flag_around_a_sleep_closes_twice():
    # The check and the act were one step: the second goroutine always saw the flag set.
    c = check(CONN.replace("LOCK", "// no lock"))
    assert c.verdict == "channel-safety", report_lines(c)
    text = "\n".join(report_lines(c))
    assert "close of closed" in text
    assert "time.Sleep: the other goroutines may run" in text


def test_the_same_check_under_a_mutex_is_ok():
    c = check(CONN.replace("LOCK", "c.mu.Lock()\n        defer c.mu.Unlock()"))
    assert c.verdict == "ok", report_lines(c)


def test_gosched_gives_way_too():
    c = check("""
        package main

        import "runtime"

        var started bool

        func start(ch chan int) {
            if !started {
                runtime.Gosched()
                started = true
                close(ch)
            }
        }

        func main() {
            ch := make(chan int)
            done := make(chan bool)
            go func() { start(ch); done <- true }()
            start(ch)
            <-done
        }
        """)
    assert c.verdict == "channel-safety", report_lines(c)
    assert "runtime.Gosched: the other goroutines may run" in "\n".join(report_lines(c))


def test_a_loop_polling_a_flag_with_a_sleep_ends_when_another_goroutine_sets_it():
    # Run as one step, the loop never ended (unsupported: "a loop that runs without
    # communicating for ever"); each sleep now lets the setter run.
    c = check("""
        package main

        import "time"

        var done bool

        func main() {
            go func() {
                time.Sleep(time.Millisecond)
                done = true
            }()
            for !done {
                time.Sleep(time.Millisecond)
            }
        }
        """)
    assert c.verdict == "ok", report_lines(c)


def test_a_loop_polling_a_flag_nobody_sets_leaves_the_setter_blocked():
    c = check("""
        package main

        import "time"

        var done bool

        func main() {
            ch := make(chan int)
            go func() {
                <-ch
                done = true
            }()
            for !done {
                time.Sleep(time.Millisecond)
            }
        }
        """)
    assert c.verdict == "partial-deadlock", report_lines(c)
    assert "blocked for ever while the rest loops" in "\n".join(report_lines(c))

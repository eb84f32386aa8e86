"""Partial-order reduction (generator/gocheck/por.py): fewer states, the same verdicts.

Each program is checked with the reduction and without it; the verdict must agree, and on
programs made of independent parts the reduced search must visit far fewer states."""

from __future__ import annotations

import textwrap

import pytest

from runners.gocheck.check import check_source, report_lines

pytestmark = pytest.mark.usefixtures("go_frontend")

PAIRS = """
    package main

    func pingpong(a, b chan int, done chan bool) {
        for i := 0; i < 3; i++ {
            a <- i
            <-b
        }
        done <- true
    }

    func echo(a, b chan int) {
        for i := 0; i < ECHOES; i++ {
            b <- <-a
        }
    }

    func main() {
        done := make(chan bool)
        for k := 0; k < 3; k++ {
            a, b := make(chan int), make(chan int)
            go pingpong(a, b, done)
            go echo(a, b)
        }
        for k := 0; k < 3; k++ {
            <-done
        }
    }
    """


def both(source: str):
    source = textwrap.dedent(source).lstrip()
    return check_source(source), check_source(source, reduce=False)


def test_independent_pairs_are_explored_in_far_fewer_states_with_the_same_verdict():
    reduced, full = both(PAIRS.replace("ECHOES", "3"))
    assert reduced.verdict == full.verdict == "ok", report_lines(reduced)
    assert reduced.result.states * 5 < full.result.states


def test_reduction_keeps_a_leak_behind_a_looping_server():
    # The server loops for ever on its ticker while the producer's second send waits for
    # ever: only the bottom-SCC check sees it, which needs the cycle proviso.
    reduced, full = both("""
        package main

        import "time"

        func main() {
            ch := make(chan int)
            quit := make(chan bool)
            go func() {
                ch <- 1
                ch <- 2
                quit <- true
            }()
            t := time.NewTicker(time.Millisecond)
            <-ch
            for {
                select {
                case <-t.C:
                case <-quit:
                    return
                }
            }
        }
        """)
    assert full.verdict == "partial-deadlock", report_lines(full)
    assert reduced.verdict == full.verdict, report_lines(reduced)


def test_reduction_keeps_a_deadlock_of_one_interleaving_among_independent_pairs():
    # One echo answers twice only: its pingpong waits for ever, then main does.
    reduced, full = both(PAIRS.replace("ECHOES", "2"))
    assert full.verdict == "global-deadlock", report_lines(full)
    assert reduced.verdict == full.verdict, report_lines(reduced)


def test_reduction_keeps_a_send_on_a_closed_channel_racing_independent_work():
    reduced, full = both("""
        package main

        func main() {
            ch := make(chan int, 1)
            other := make(chan int)
            go func() { other <- 1 }()
            go func() { ch <- 1 }()
            go func() { close(ch) }()
            <-other
        }
        """)
    assert full.verdict == "channel-safety", report_lines(full)
    assert reduced.verdict == full.verdict, report_lines(reduced)

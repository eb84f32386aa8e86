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


def test_a_state_reached_another_way_first_is_no_cycle_and_keeps_the_reduction():
    # Three searches of two replicas each, the first answer taken (Pike's "Go Concurrency
    # Patterns"): the orders of independent sends meet again in states the search found
    # another way first. The cycle proviso once expanded each of those states in full.
    reduced, full = both("""
        package main

        import "fmt"

        func first(replicas ...string) string {
            c := make(chan string, len(replicas))
            for _, r := range replicas {
                go func(r string) { c <- r }(r)
            }
            return <-c
        }

        func main() {
            c := make(chan string, 3)
            go func() { c <- first("web1", "web2") }()
            go func() { c <- first("image1", "image2") }()
            go func() { c <- first("video1", "video2") }()
            for i := 0; i < 3; i++ {
                fmt.Println(<-c)
            }
        }
        """)
    assert reduced.verdict == full.verdict == "ok", report_lines(reduced)
    assert reduced.result.states * 10 < full.result.states, (
        reduced.result.states, full.result.states)


def test_steps_that_call_functions_are_reduced_as_well():
    # A call in a step's local run once read the state's CPU count (asked for by
    # runtime.NumCPU only), which conflicted with every goroutine.
    source = PAIRS.replace("ECHOES", "3").replace("b <- <-a", "b <- same(<-a)") + """
    func same(v int) int { return v }
    """
    reduced, full = both(source)
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


GLOBAL_PAIRS = """
    package main

    var a1, b1, a2 = make(chan int), make(chan int), make(chan int)
    var b2, a3, b3 = make(chan int), make(chan int), make(chan int)
    var done = make(chan bool)

    func ping(a, b chan int) {
        for i := 0; i < 3; i++ {
            a <- i
            <-b
        }
        done <- true
    }

    func echo1() {
        for i := 0; i < ECHOES; i++ {
            b1 <- <-a1
        }
    }

    func echo2() {
        for i := 0; i < 3; i++ {
            b2 <- <-a2
        }
    }

    func echo3() {
        for i := 0; i < 3; i++ {
            b3 <- <-a3
        }
    }

    func main() {
        go ping(a1, b1)
        go echo1()
        go ping(a2, b2)
        go echo2()
        go ping(a3, b3)
        go echo3()
        for k := 0; k < 3; k++ {
            <-done
        }
    }
    """


def test_pairs_on_package_level_channels_are_reduced_as_local_ones_are():
    # Each echo's code names its own two channels only, so its steps conflict with its
    # own ping's alone; `done` is named by every ping and main.
    reduced, full = both(GLOBAL_PAIRS.replace("ECHOES", "3"))
    assert reduced.verdict == full.verdict == "ok", report_lines(reduced)
    assert reduced.result.states * 5 < full.result.states


def test_reduction_keeps_a_deadlock_among_pairs_on_package_level_channels():
    reduced, full = both(GLOBAL_PAIRS.replace("ECHOES", "2"))
    assert full.verdict == "global-deadlock", report_lines(full)
    assert reduced.verdict == full.verdict, report_lines(reduced)


@pytest.mark.parametrize("closer", [
    # A function kept in a package variable: the goroutine's code names only the variable.
    """
    var hook func()

    func setup() {
        hook = func() { close(ch) }
    }

    func closer(gate chan int, done chan bool) {
        <-gate
        hook()
        done <- true
    }
    """,
    # A method called through an interface: any method of that name may run.
    """
    type shutter interface{ Shut() }

    type chanShutter struct{}

    func (chanShutter) Shut() { close(ch) }

    func setup() {}

    func closer(gate chan int, done chan bool) {
        <-gate
        var s shutter = chanShutter{}
        s.Shut()
        done <- true
    }
    """,
])
def test_a_package_variable_touched_through_code_run_indirectly_still_conflicts(closer):
    # When the sender may go, the closer waits at its gate; only what it runs after
    # the gate, found through a package variable's function or an interface, closes `ch`.
    reduced, full = both("""
        package main

        var ch = make(chan int, 1)
        """ + closer + """
        func main() {
            setup()
            gate := make(chan int)
            done := make(chan bool)
            go func() { ch <- 1 }()
            go closer(gate, done)
            gate <- 1
            <-done
        }
        """)
    assert full.verdict == "channel-safety", report_lines(full)
    assert reduced.verdict == full.verdict, report_lines(reduced)

"""Symmetry reduction (`State.canon` in generator/gocheck/state.py): states that differ
only in which of alike goroutines is which are one state, with the same verdicts.

Each program is checked with the merging and without it; the verdicts must agree, and a
pool of alike workers must take far fewer states with it. Goroutines blocked for ever
while the rest loops are still found when alike goroutines trade places round a cycle."""

from __future__ import annotations

import textwrap

import pytest

from runners.gocheck.check import check_source, report_lines

pytestmark = pytest.mark.usefixtures("go_frontend")

POOL = """
    package main

    import "sync"

    func worker(jobs <-chan int, results chan<- int, wg *sync.WaitGroup) {
        defer wg.Done()
        for j := range jobs {
            results <- j * 2
        }
    }

    func main() {
        jobs := make(chan int, 10)
        results := make(chan int, RESULTS)
        var wg sync.WaitGroup
        for w := 0; w < 4; w++ {
            wg.Add(1)
            go worker(jobs, results, &wg)
        }
        for j := 1; j <= 4; j++ {
            jobs <- j
        }
        close(jobs)
        WAIT
    }
    """


def both(source: str):
    # The values the workers hold are kept (abstract=False): made unknown, they would
    # make the workers alike without symmetry's help.
    source = textwrap.dedent(source).lstrip()
    return (check_source(source, abstract=False),
            check_source(source, symmetry=False, abstract=False))


def test_alike_workers_merge_into_far_fewer_states_with_the_same_verdict():
    merged, apart = both(POOL.replace("RESULTS", "10").replace("WAIT", "wg.Wait()"))
    assert merged.verdict == apart.verdict == "ok", report_lines(merged)
    assert merged.result.states * 3 < apart.result.states


def test_a_leak_among_alike_workers_is_still_found():
    # Results has room for two: main returns while two workers wait to send.
    merged, apart = both(POOL.replace("RESULTS", "2").replace("WAIT", ""))
    assert apart.verdict == "partial-deadlock", report_lines(apart)
    assert merged.verdict == apart.verdict, report_lines(merged)


RING = """
    package main

    func worker(tok chan int) {
        for {
            t := <-tok
            tok <- t
        }
    }

    func main() {
        tok := make(chan int, 1)
        tok <- 1
        never := make(chan int)
        _ = never
        go worker(tok)
        LISTENER
        go worker(tok)
        for {
            t := <-tok
            tok <- t
        }
    }
    """


@pytest.mark.parametrize("listener, want", [
    ("", "ok"),
    ("go func() { <-never }()", "partial-deadlock"),
])
def test_alike_goroutines_that_take_turns_round_a_cycle_are_not_blocked_for_ever(
        listener, want):
    # Each worker waits while the other holds the token, and the states where one or the
    # other waits are one state: only a goroutine that never moves may be called blocked.
    merged, apart = both(RING.replace("LISTENER", listener))
    assert apart.verdict == want, report_lines(apart)
    assert merged.verdict == want, report_lines(merged)
    assert merged.result.states < apart.result.states


def test_a_cond_waiter_is_named_by_its_place_not_its_id():
    # Two alike waiters, one of them signalled: which one must not change the verdict.
    merged, apart = both("""
        package main

        import "sync"

        func main() {
            var mu sync.Mutex
            c := sync.NewCond(&mu)
            ready := 0
            var wg sync.WaitGroup
            for i := 0; i < 2; i++ {
                wg.Add(1)
                go func() {
                    defer wg.Done()
                    mu.Lock()
                    for ready == 0 {
                        c.Wait()
                    }
                    ready--
                    mu.Unlock()
                }()
            }
            for i := 0; i < 2; i++ {
                mu.Lock()
                ready++
                mu.Unlock()
                c.Signal()
            }
            wg.Wait()
        }
        """)
    assert apart.verdict == merged.verdict, report_lines(merged)

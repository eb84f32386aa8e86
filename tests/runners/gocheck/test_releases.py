"""Steps taken at once (Machine._release): an Unlock, RUnlock or WaitGroup.Done runs
inside the local run before it, with no state of its own, unless the program names a
TryLock or TryRLock, which could see the lock still held; so do a receive from a closed,
empty channel, a done Once.Do and a cancelled context's Err; and a close wakes the plain
receivers blocked on it within its own step (explore's `_plain_receivers`).

Each program is checked with the reduction and without it (`reduce=False` explores every
interleaving, each of those a step); verdicts must agree."""

from __future__ import annotations

import textwrap

import pytest

from runners.gocheck.check import check_source, report_lines

pytestmark = pytest.mark.usefixtures("go_frontend")

TAKEN_IN_TURN = """
    package main

    import "sync"

    TRY

    type counter struct {
        mu sync.Mutex
        n  int
    }

    func (c *counter) add(k int) {
        c.mu.Lock()
        defer c.mu.Unlock()
        c.n += k
    }

    func main() {
        var c counter
        var wg sync.WaitGroup
        for i := 0; i < 4; i++ {
            wg.Add(1)
            go func() {
                defer wg.Done()
                c.add(1)
                c.mu.Lock()
                c.n++
                c.mu.Unlock()
            }()
        }
        wg.Wait()
        if c.n != 8 {
            panic("lost an update")
        }
    }
    """


def source(text: str) -> str:
    return textwrap.dedent(text).lstrip()


def test_critical_sections_taken_in_turn_need_far_fewer_states():
    eager = check_source(source(TAKEN_IN_TURN.replace("TRY", "")))
    # The same program naming TryLock (never called) keeps every Unlock and Done a step.
    stepwise = check_source(source(TAKEN_IN_TURN.replace(
        "TRY", "var tryLock = (*sync.Mutex).TryLock")))
    assert eager.verdict == stepwise.verdict == "ok", report_lines(eager)
    assert eager.result.states * 2 < stepwise.result.states, (
        eager.result.states, stepwise.result.states)


def test_a_trylock_still_sees_the_lock_held_before_its_unlock():
    # The worker holds the lock only between its Lock and its Unlock, with nothing
    # visible between them: a TryLock fails only if it runs right there, and then main
    # waits for ever. Taking the Unlock at once would hide that state.
    text = source("""
        package main

        import "sync"

        func main() {
            var mu sync.Mutex
            never := make(chan int)
            n := 0
            go func() {
                mu.Lock()
                n++
                mu.Unlock()
            }()
            if !mu.TryLock() {
                <-never
            }
            mu.Unlock()
        }
        """)
    checked = check_source(text)
    assert checked.verdict == "global-deadlock", report_lines(checked)


def test_recursive_read_lock_against_a_writer_still_deadlocks():
    text = source("""
        package main

        import "sync"

        type store struct {
            mu   sync.RWMutex
            data map[string]int
        }

        func (s *store) get(k string) int {
            s.mu.RLock()
            defer s.mu.RUnlock()
            return s.data[k]
        }

        func (s *store) sum() int {
            s.mu.RLock()
            defer s.mu.RUnlock()
            return s.get("a") + s.get("b")
        }

        func main() {
            s := &store{data: map[string]int{"a": 1, "b": 2}}
            done := make(chan bool)
            go func() {
                s.mu.Lock()
                s.data["a"] = 3
                s.mu.Unlock()
                done <- true
            }()
            s.sum()
            <-done
        }
        """)
    reduced, full = check_source(text), check_source(text, reduce=False)
    assert reduced.verdict == full.verdict == "global-deadlock", report_lines(reduced)


def test_unlock_of_an_unlocked_mutex_is_still_reported():
    text = source("""
        package main

        import "sync"

        func main() {
            var mu sync.Mutex
            var wg sync.WaitGroup
            wg.Add(2)
            for i := 0; i < 2; i++ {
                go func() {
                    defer wg.Done()
                    mu.Lock()
                }()
            }
            mu.Unlock()
            wg.Wait()
        }
        """)
    reduced, full = check_source(text), check_source(text, reduce=False)
    assert reduced.verdict == full.verdict, report_lines(reduced)
    assert any("unlock" in line.lower() for line in report_lines(reduced)), \
        report_lines(reduced)


def test_waitgroup_go_done_is_taken_at_once_with_the_same_verdict():
    text = source("""
        package main

        import "sync"

        func main() {
            var mu sync.Mutex
            var wg sync.WaitGroup
            total := 0
            for i := 1; i <= 3; i++ {
                wg.Go(func() {
                    mu.Lock()
                    total += i
                    mu.Unlock()
                })
            }
            wg.Wait()
            if total != 6 {
                panic("wrong total")
            }
        }
        """)
    reduced, full = check_source(text), check_source(text, reduce=False)
    assert reduced.verdict == full.verdict == "ok", report_lines(reduced)
    assert reduced.result.states < full.result.states


# Four workers wait for `stop` (WAIT), closed before they start (EARLY) or after (LATE).
WORKERS = """
    package main

    import "sync"

    func main() {
        stop := make(chan struct{})
        var never chan struct{}
        _ = never
        var mu sync.Mutex
        stopped := 0
        var wg sync.WaitGroup
        EARLY
        for i := 1; i <= 4; i++ {
            wg.Add(1)
            go func(i int) {
                defer wg.Done()
                WAIT
                mu.Lock()
                stopped += i
                mu.Unlock()
            }(i)
        }
        LATE
        wg.Wait()
        if stopped != 10 {
            panic("a worker missed the stop")
        }
    }
    """


def workers(wait: str, *, early: bool) -> str:
    close = "close(stop)"
    return source(WORKERS.replace("WAIT", wait).replace("EARLY", close if early else "")
                  .replace("LATE", "" if early else close))


def test_a_receive_from_a_closed_channel_is_no_step_of_its_own():
    plain = check_source(workers("<-stop", early=True))
    # A select keeps its step (its other case, on a nil channel, is never ready).
    selecting = check_source(workers(
        "select {\n            case <-stop:\n            case <-never:\n            }",
        early=True))
    assert plain.verdict == selecting.verdict == "ok", report_lines(plain)
    assert plain.result.states < selecting.result.states, (
        plain.result.states, selecting.result.states)


def test_workers_blocked_on_a_channel_wake_within_the_step_that_closes_it():
    reduced = check_source(workers("<-stop", early=False))
    full = check_source(workers("<-stop", early=False), reduce=False)
    assert reduced.verdict == full.verdict == "ok", report_lines(reduced)
    assert reduced.result.states * 4 < full.result.states, (
        reduced.result.states, full.result.states)


def test_a_receive_from_a_closed_channel_still_meets_a_double_close():
    text = source("""
        package main

        func main() {
            done := make(chan bool)
            finished := make(chan bool)
            for i := 0; i < 2; i++ {
                go func() {
                    <-done
                    finished <- true
                }()
            }
            close(done)
            <-finished
            close(done)
            <-finished
        }
        """)
    reduced, full = check_source(text), check_source(text, reduce=False)
    assert reduced.verdict == full.verdict == "channel-safety", report_lines(reduced)


def test_a_done_once_and_a_cancelled_context_answer_as_before():
    text = source("""
        package main

        import (
            "context"
            "sync"
        )

        func main() {
            ctx, cancel := context.WithCancel(context.Background())
            var once sync.Once
            config := 0
            load := func() { config = 7 }
            results := make(chan int)
            for i := 0; i < 3; i++ {
                go func() {
                    once.Do(load)
                    if ctx.Err() != nil {
                        results <- 0
                        return
                    }
                    results <- config
                }()
            }
            got := <-results
            cancel()
            got += <-results + <-results
            if got%7 != 0 {
                panic("read the config before it was loaded")
            }
            if ctx.Err() == nil {
                panic("cancelled, yet no error")
            }
        }
        """)
    reduced, full = check_source(text), check_source(text, reduce=False)
    assert reduced.verdict == full.verdict == "ok", report_lines(reduced)
    assert reduced.result.states < full.result.states


def test_a_goroutine_spinning_on_a_closed_channel_is_not_blocked():
    # Each receive is taken at once, up to a cap: past it the receive is a step again, its
    # state repeats, and the spinner is seen to move for ever (not blocked, not unsupported).
    checked = check_source(source("""
        package main

        func main() {
            done := make(chan bool)
            close(done)
            go func() {
                for {
                    <-done
                }
            }()
            <-done
        }
        """))
    assert checked.verdict == "ok", report_lines(checked)


def test_a_woken_worker_still_leaks_where_it_blocks_next():
    text = source("""
        package main

        func main() {
            stop := make(chan struct{})
            ack := make(chan int)
            for i := 0; i < 3; i++ {
                go func(i int) {
                    v, ok := <-stop
                    _ = v
                    if !ok {
                        ack <- i
                    }
                }(i)
            }
            close(stop)
            <-ack
            <-ack
        }
        """)
    reduced, full = check_source(text), check_source(text, reduce=False)
    assert reduced.verdict == full.verdict == "partial-deadlock", report_lines(reduced)
    assert any("woken by the close" in line for line in report_lines(reduced)), \
        report_lines(reduced)

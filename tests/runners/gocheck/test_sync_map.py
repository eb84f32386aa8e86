"""sync.Map in gocheck (generator/gocheck/library.py): its methods are visible steps on a
map kept like a Go map; keys the checker cannot tell make lookups unknown (sound); Range
calls its function on the goroutine, in every order of a small map."""

from __future__ import annotations

import textwrap

import pytest

from runners.gocheck.check import check_source, report_lines

pytestmark = pytest.mark.usefixtures("go_frontend")


def check(body: str):
    return check_source(textwrap.dedent(body).lstrip())


def test_channel_handed_over_through_a_sync_map_under_a_known_key_is_ok():
    c = check("""
        package main

        import "sync"

        var registry sync.Map

        func main() {
            done := make(chan int)
            registry.Store("done", done)
            go func() {
                v, ok := registry.Load("done")
                if ok {
                    v.(chan int) <- 1
                }
            }()
            <-done
        }
        """)
    assert c.verdict == "ok", report_lines(c)


def test_load_of_a_key_never_stored_is_missing_and_its_branch_blocks():
    c = check("""
        package main

        import "sync"

        func main() {
            var m sync.Map
            m.Store("a", 1)
            m.Delete("a")
            if _, ok := m.Load("a"); !ok {
                block := make(chan int)
                <-block
            }
        }
        """)
    assert c.verdict == "global-deadlock", report_lines(c)


def test_load_or_store_keeps_the_first_value():
    c = check("""
        package main

        import "sync"

        func main() {
            var m sync.Map
            first := make(chan int, 1)
            m.LoadOrStore("ch", first)
            v, loaded := m.LoadOrStore("ch", make(chan int))
            if loaded {
                v.(chan int) <- 1
                <-first
            }
        }
        """)
    assert c.verdict == "ok", report_lines(c)


BROADCAST = """
    package main

    import "sync"

    func main() {
        var subs sync.Map
        var wg sync.WaitGroup
        for i := 0; i < 3; i++ {
            ch := make(chan string)
            subs.Store(i, ch)
            wg.Add(1)
            go func() {
                defer wg.Done()
                <-ch
            }()
        }
        subs.Range(func(k, v any) bool {
            v.(chan string) <- "hi"
            return KEEP_GOING
        })
        wg.Wait()
    }
    """


def test_range_calls_its_function_on_every_entry_until_it_returns_false():
    every = check(BROADCAST.replace("KEEP_GOING", "true"))
    assert every.verdict == "ok", report_lines(every)
    first = check(BROADCAST.replace("KEEP_GOING", "false"))
    assert first.verdict == "global-deadlock", report_lines(first)


def test_range_tries_every_order_of_a_small_map():
    # Only key 2's subscriber is missing: the bug shows when Range meets key 2 before the
    # others, an order that key order (0, 1, 2) never takes.
    c = check("""
        package main

        import "sync"

        func main() {
            var subs sync.Map
            for i := 0; i < 3; i++ {
                subs.Store(i, make(chan int, 1))
            }
            subs.Store(2, make(chan int))
            subs.Range(func(k, v any) bool {
                v.(chan int) <- 1
                return false
            })
        }
        """)
    assert c.verdict == "global-deadlock", report_lines(c)
    trace = [s.text for s in c.result.findings[0].trace]
    assert trace[-1].startswith("sync.Map.Range in the order 2, "), trace


def test_entries_deleted_during_range_are_not_visited():
    c = check("""
        package main

        import "sync"

        func main() {
            var m sync.Map
            block := make(chan int)
            m.Store("a", 1)
            m.Store("b", 2)
            m.Range(func(k, v any) bool {
                m.Delete("a")
                m.Delete("b")
                if v.(int) > 2 {
                    <-block
                }
                return true
            })
            n := 0
            m.Range(func(k, v any) bool { n++; return true })
            if n != 0 {
                <-block
            }
        }
        """)
    assert c.verdict == "ok", report_lines(c)


def test_range_over_a_map_of_keys_the_checker_cannot_tell_is_unsupported():
    c = check("""
        package main

        import (
            "os"
            "sync"
        )

        func main() {
            var m sync.Map
            m.Store(len(os.Args), 2)
            m.Range(func(k, v any) bool { return true })
        }
        """)
    assert c.verdict == "unsupported", report_lines(c)
    assert any("sync.Map.Range" in line for line in report_lines(c))


def test_compare_and_swap_hands_over_only_once():
    c = check("""
        package main

        import "sync"

        func main() {
            var m sync.Map
            m.Store("state", "idle")
            done := make(chan int, 1)
            var wg sync.WaitGroup
            for i := 0; i < 2; i++ {
                wg.Add(1)
                go func() {
                    defer wg.Done()
                    if m.CompareAndSwap("state", "idle", "busy") {
                        done <- 1 // one buffered slot: a second winner would block for ever
                    }
                }()
            }
            wg.Wait()
            <-done
        }
        """)
    assert c.verdict == "ok", report_lines(c)


def test_compare_and_delete_of_a_missing_key_fails():
    c = check("""
        package main

        import "sync"

        func main() {
            var m sync.Map
            ch := make(chan int)
            if m.CompareAndDelete("k", 1) {
                <-ch
            }
            m.Store("k", 1)
            if m.CompareAndDelete("k", 2) {
                <-ch
            }
            if !m.CompareAndDelete("k", 1) {
                <-ch
            }
        }
        """)
    assert c.verdict == "ok", report_lines(c)


def test_compare_and_swap_that_loses_leaves_a_waiter():
    c = check("""
        package main

        import "sync"

        func main() {
            var m sync.Map
            m.Store("state", "idle")
            started := make(chan int)
            for i := 0; i < 2; i++ {
                go func() {
                    if m.CompareAndSwap("state", "idle", "busy") {
                        return
                    }
                    started <- 1 // the loser waits for a receiver that never comes
                }()
            }
        }
        """)
    assert c.verdict == "partial-deadlock", report_lines(c)

"""sync.Map in gocheck (generator/gocheck/machine.py): its methods are visible steps on a
map kept like a Go map; keys the checker cannot tell make lookups unknown (sound), and
methods not modelled (Range) are unsupported."""

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


def test_sync_map_range_is_unsupported():
    c = check("""
        package main

        import "sync"

        func main() {
            var m sync.Map
            m.Store(1, 2)
            m.Range(func(k, v any) bool { return true })
        }
        """)
    assert c.verdict == "unsupported", report_lines(c)
    assert any("Range" in line for line in report_lines(c))


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

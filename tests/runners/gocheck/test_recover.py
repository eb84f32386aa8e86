"""`recover` in gocheck (generator/gocheck/machine.py): a call deferred by a frame that
calls `recover()` stops a panic in that goroutine, and the frame returns normally through
its recover block; a panic nothing recovers still ends the program (or is a violation)."""

from __future__ import annotations

import textwrap

import pytest

from runners.gocheck.check import check_source, report_lines

pytestmark = pytest.mark.usefixtures("go_frontend")


def check(body: str):
    return check_source(textwrap.dedent(body).lstrip())


def test_recovered_send_on_closed_channel_is_not_a_violation():
    c = check("""
        package main

        func trySend(ch chan int) {
            defer func() { recover() }()
            ch <- 1
        }

        func main() {
            ch := make(chan int, 1)
            close(ch)
            trySend(ch)
        }
        """)
    assert c.verdict == "ok", report_lines(c)


def test_recover_in_a_nested_call_of_the_deferred_function_does_not_stop_the_panic():
    c = check("""
        package main

        func helper() { recover() }

        func tryClose(ch chan int) {
            defer func() { helper() }()
            close(ch)
        }

        func main() {
            ch := make(chan int)
            close(ch)
            tryClose(ch)
        }
        """)
    assert c.verdict == "channel-safety", report_lines(c)


def test_panic_a_deferred_function_does_not_recover_is_still_a_violation():
    c = check("""
        package main

        var careful = false

        func tryClose(ch chan int) {
            defer func() {
                if careful {
                    recover()
                }
            }()
            close(ch)
        }

        func main() {
            ch := make(chan int)
            close(ch)
            tryClose(ch)
        }
        """)
    assert c.verdict == "channel-safety", report_lines(c)
    assert "close of closed channel" in report_lines(c)[0]


def test_run_goes_on_after_a_recovered_panic_and_finds_the_deadlock_after_it():
    c = check("""
        package main

        func safe() {
            defer func() { recover() }()
            panic("boom")
        }

        func main() {
            safe()
            ch := make(chan int)
            <-ch
        }
        """)
    assert c.verdict == "global-deadlock", report_lines(c)


def test_recovering_function_returns_the_named_result_its_deferred_call_set():
    c = check("""
        package main

        import "errors"

        func trySend(ch chan int) (err error) {
            defer func() {
                if recover() != nil {
                    err = errors.New("closed")
                }
            }()
            ch <- 1
            return nil
        }

        func main() {
            ch := make(chan int, 1)
            close(ch)
            if err := trySend(ch); err != nil {
                block := make(chan int)
                <-block
            }
        }
        """)
    assert c.verdict == "global-deadlock", report_lines(c)


def test_deferred_unlock_runs_while_a_panic_unwinds_to_the_recovering_caller():
    c = check("""
        package main

        import "sync"

        var mu sync.Mutex

        func closeLocked(ch chan int) {
            mu.Lock()
            defer mu.Unlock()
            close(ch)
        }

        func try(ch chan int) {
            defer func() { recover() }()
            closeLocked(ch)
        }

        func main() {
            ch := make(chan int)
            try(ch)
            try(ch)
            mu.Lock()
        }
        """)
    assert c.verdict == "ok", report_lines(c)


def test_once_whose_function_panicked_counts_as_done():
    # Go's Once.Do marks itself done even when its function panics: a later Do never runs
    # its own function, so the send to nobody below never happens.
    c = check("""
        package main

        import "sync"

        func main() {
            var once sync.Once
            done := make(chan int)
            func() {
                defer func() { recover() }()
                once.Do(func() { panic("boom") })
            }()
            go func() {
                once.Do(func() { done <- 1 })
                close(done)
            }()
            <-done
        }
        """)
    assert c.verdict == "ok", report_lines(c)


@pytest.mark.parametrize("second_call_fails, want", [(True, "global-deadlock"), (False, "ok")])
def test_oncefunc_panics_again_at_every_call_after_its_function_panicked(
        second_call_fails, want):
    test = "!call()" if second_call_fails else "call()"
    c = check(f"""
        package main

        import "sync"

        func main() {{
            ch := make(chan int)
            f := sync.OnceFunc(func() {{ panic("boom") }})
            call := func() (ok bool) {{
                defer func() {{
                    if recover() != nil {{
                        ok = false
                    }}
                }}()
                f()
                return true
            }}
            call()
            if {test} {{
                <-ch
            }}
        }}
        """)
    assert c.verdict == want, report_lines(c)


def test_oncefunc_repeating_a_close_of_a_closed_channel_is_a_violation_when_unrecovered():
    c = check("""
        package main

        import "sync"

        func main() {
            ch := make(chan int)
            close(ch)
            f := sync.OnceFunc(func() { close(ch) })
            func() {
                defer func() { recover() }()
                f()
            }()
            f()
        }
        """)
    assert c.verdict == "channel-safety", report_lines(c)


def test_once_inside_a_struct_whose_function_panicked_counts_as_done():
    c = check("""
        package main

        import "sync"

        type lazy struct {
            name string
            once sync.Once
        }

        func main() {
            l := &lazy{name: "x"}
            func() {
                defer func() { recover() }()
                l.once.Do(func() { panic("boom") })
            }()
            l.once.Do(func() {})
        }
        """)
    assert c.verdict == "ok", report_lines(c)


REPANIC = """
    package main

    import "sync/atomic"

    // A panic catcher as sourcegraph/conc's: a task's panic is kept, wrapped, and raised
    // again by the one who waits.
    type recovered struct{ value any }

    type catcher struct{ kept atomic.Pointer[recovered] }

    func (c *catcher) tryRecover() {
        if v := recover(); v != nil {
            r := recovered{value: v}
            c.kept.CompareAndSwap(nil, &r)
        }
    }

    func (c *catcher) try(f func()) {
        defer c.tryRecover()
        f()
    }

    func main() {
        var c catcher
        done := make(chan int)
        close(done)
        c.try(func() { close(done) })
        if r := c.kept.Load(); r != nil {
            RAISE
        }
    }
    """


@pytest.mark.parametrize("raise_, want", [("panic(r)", "channel-safety"), ("_ = r", "ok")])
def test_a_recovered_runtime_error_panicked_with_again_is_the_violation(raise_, want):
    # Kept and raised again (wrapped in a struct, through an atomic.Pointer), the close of
    # a closed channel ends the program as it would have; recovered and dropped, it is the
    # safe-close idiom and no violation.
    c = check(REPANIC.replace("RAISE", raise_))
    assert c.verdict == want, report_lines(c)
    if raise_ == "panic(r)":
        assert c.result.findings[0].trace[-1].text == \
            "panic with the close of closed channel recovered earlier"


@pytest.mark.parametrize("value, want", [("e", "channel-safety"), ('"boom"', "ok")])
def test_go_panic_ends_the_program_from_a_goroutine_nobody_recovers_in(value, want):
    # singleflight's DoChan raises a recovered panic so; main's `select {}` is then no
    # deadlock: the program ends (with the close of a closed channel it recovered first).
    c = check("""
        package main

        func main() {
            done := make(chan int)
            close(done)
            res := make(chan any, 1)
            func() {
                defer func() { res <- recover() }()
                close(done)
            }()
            if e := <-res; e != nil {
                go panic(VALUE)
            }
            select {}
        }
        """.replace("VALUE", value))
    assert c.verdict == want, report_lines(c)

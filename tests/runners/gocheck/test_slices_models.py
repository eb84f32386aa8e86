"""gocheck on slices.DeleteFunc, IndexFunc and ContainsFunc handed a function that
communicates: the front end adds plain-Go models of them to the package
(toolchains/gocheck/shims/slices_funcs.go.txt) and the checker runs those in the library's
place, calling the function on each item where it follows it; they were unsupported. Each
buggy program was run with Go first (a deadlock in every run)."""

from __future__ import annotations

import textwrap

import pytest

from runners.gocheck.check import check_source, report_lines

pytestmark = pytest.mark.usefixtures("go_frontend")


def check(source: str):
    return check_source(textwrap.dedent(source).lstrip())


PRUNE = """
    package main

    import "slices"

    func main() {
        subs := []chan int{make(chan int, 1), make(chan int), make(chan int, 1)}
        subs = slices.DeleteFunc(subs, func(ch chan int) bool {
            SEND
        })
        for _, ch := range subs {
            <-ch
        }
        println(len(subs))
    }
    """

# A subscriber that cannot take the message now is pruned: the rest hold one each.
NON_BLOCKING = """select {
            case ch <- 1:
                return false
            default:
                return true
            }"""


def test_delete_func_with_a_predicate_that_sends_without_blocking_is_ok():
    c = check(PRUNE.replace("SEND", NON_BLOCKING))
    assert c.verdict == "ok", report_lines(c)


def test_delete_func_with_a_predicate_that_blocks_on_a_full_subscriber_deadlocks():
    # The unbuffered subscriber has nobody to receive: the predicate's send waits for ever.
    c = check(PRUNE.replace("SEND", "ch <- 1\n            return false"))
    assert c.verdict == "global-deadlock", report_lines(c)


def test_index_func_whose_predicate_receives_stops_at_the_first_match():
    # Each worker answers once; IndexFunc asks until one says yes, so the workers after
    # it are left waiting to answer (a leak), as Go's leak profile shows.
    source = """
        package main

        import "slices"

        func main() {
            answers := []chan bool{make(chan bool), make(chan bool), make(chan bool)}
            for i, ch := range answers {
                go func() { ch <- i == WHICH }()
            }
            at := slices.IndexFunc(answers, func(ch chan bool) bool { return <-ch })
            println(at)
        }
        """
    last = check(source.replace("WHICH", "2"))
    assert last.verdict == "ok", report_lines(last)
    first = check(source.replace("WHICH", "0"))
    assert first.verdict == "partial-deadlock", report_lines(first)


def test_a_predicate_that_only_computes_runs_as_the_library_runs_it():
    c = check("""
        package main

        import "slices"

        func main() {
            xs := []int{1, 2, 3, 4}
            if slices.ContainsFunc(xs, func(x int) bool { return x > 3 }) {
                ch := make(chan int)
                go func() { ch <- 1 }()
                <-ch
            }
        }
        """)
    assert c.verdict == "ok", report_lines(c)
    assert c.result.states <= 4, report_lines(c)

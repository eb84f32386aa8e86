"""gocheck on goroutines still waiting when main returns: leaked, as Go's leak profile counts
them, unless a package variable still reaches what they wait on (an idle server ranging
over a package-level channel). Each program was run with Go's goroutine leak profile first
(tests/gocheck/confirm.py's way): the local server leaks in every run, the global one and
the select on a global channel in none."""

from __future__ import annotations

import textwrap

import pytest

from runners.gocheck.check import check_source, report_lines

pytestmark = pytest.mark.usefixtures("go_frontend")

SERVER = """
    package main

    DECLARE

    func serve(reqs chan int, done chan bool) {
        for r := range reqs {
            done <- r > 0
        }
    }

    func main() {
        MAKE
        done := make(chan bool)
        go serve(reqs, done)
        reqs <- 1
        <-done
    }
    """


def check(source: str):
    return check_source(textwrap.dedent(source).lstrip())


def test_an_idle_server_on_a_package_level_channel_is_no_leak():
    c = check(SERVER.replace("DECLARE", "var reqs = make(chan int)").replace("MAKE", ""))
    assert c.verdict == "ok", report_lines(c)


def test_the_same_server_on_a_channel_only_main_held_leaks():
    c = check(SERVER.replace("DECLARE", "").replace("MAKE", "reqs := make(chan int)"))
    assert c.verdict == "partial-deadlock", report_lines(c)


def test_a_select_waiting_on_a_global_channel_among_local_ones_is_no_leak():
    # The profile reaches the goroutine through any channel whose queue holds it: Go
    # counted none of 10 leak-check runs of this program.
    c = check("""
        package main

        var quit = make(chan bool)

        func main() {
            local := make(chan int)
            go func() {
                select {
                case <-quit:
                case local <- 1:
                }
            }()
        }
        """)
    assert c.verdict == "ok", report_lines(c)


def test_in_a_test_file_every_goroutine_left_counts():
    # goleak, which tests use, counts every goroutine still there at the test's end.
    c = check("""
        package server

        import "testing"

        var reqs = make(chan int)

        func TestServe(t *testing.T) {
            go func() {
                for range reqs {
                }
            }()
            reqs <- 1
        }
        """)
    assert c.verdict == "partial-deadlock", report_lines(c)


def test_a_real_leak_beside_an_idle_global_server_lists_only_the_leaked_goroutine():
    c = check("""
        package main

        var reqs = make(chan int)

        func serve() {
            for range reqs {
            }
        }

        func leak(ch chan int) {
            ch <- 1
        }

        func main() {
            go serve()
            reqs <- 1
            go leak(make(chan int))
        }
        """)
    assert c.verdict == "partial-deadlock", report_lines(c)
    finding = c.result.findings[0]
    assert "1 goroutine(s)" in finding.message, report_lines(c)
    assert len(finding.stuck) == 1, report_lines(c)
    assert "leak" in finding.stuck[0].goroutine, report_lines(c)

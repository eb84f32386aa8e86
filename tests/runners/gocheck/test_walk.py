"""Random walks beside gocheck's search (generator/gocheck/walk.py): they find deadlocks in
programs too large to explore, report them with a trace that replays, and never turn an
unfinished search into "ok"."""

from __future__ import annotations

import textwrap

import pytest

from generator.gocheck import explore
from runners.gocheck.check import check_source, report_lines

pytestmark = pytest.mark.usefixtures("go_frontend")

# Twenty goroutines that each take a lock twice, then two locks, half of them in each
# order: the deadlock is a dozen steps deep on many paths, but the interleavings up to that
# depth are far more than a budget of 2,500 states.
PROGRAM = textwrap.dedent("""
    package main

    import "sync"

    func main() {
        var a, b, c sync.Mutex
        var wg sync.WaitGroup
        for i := 0; i < 20; i++ {
            wg.Add(1)
            go func() {
                defer wg.Done()
                c.Lock()
                c.Unlock()
                c.Lock()
                c.Unlock()
                first, second := &a, &b
                if i%2 == 1 {
                    first, second = SECOND
                }
                first.Lock()
                second.Lock()
                second.Unlock()
                first.Unlock()
            }()
        }
        wg.Wait()
    }
    """).lstrip()
AB_BA = PROGRAM.replace("SECOND", "&b, &a")
SAME_ORDER = PROGRAM.replace("SECOND", "&a, &b")


def test_walks_find_a_deadlock_in_a_program_too_large_to_explore():
    c = check_source(AB_BA, max_states=2_500)
    assert c.verdict == "global-deadlock", report_lines(c)
    assert any("random walks" in n for n in c.result.notes)
    finding = c.result.findings[0]
    assert any("Lock" in s.text for s in finding.trace)
    assert all(s.text.startswith("blocked: Lock") or s.text == "blocked: WaitGroup.Wait"
               for s in finding.stuck), report_lines(c)


def test_without_walks_the_same_budget_leaves_it_undecided(monkeypatch):
    monkeypatch.setattr(explore, "WALK_SHARE", 0.0)
    c = check_source(AB_BA, max_states=2_500)
    assert c.verdict == "undecided", report_lines(c)


def test_walks_never_make_an_unfinished_search_ok():
    c = check_source(SAME_ORDER, max_states=2_500)
    assert c.verdict == "undecided", report_lines(c)
    assert any("random walks" in n for n in c.result.notes)


def test_a_program_the_search_finishes_gets_no_walks():
    c = check_source(textwrap.dedent("""
        package main

        func main() {
            ch := make(chan int)
            go func() { ch <- 1 }()
            <-ch
        }
        """).lstrip())
    assert c.verdict == "ok"
    assert not any("random walks" in n for n in c.result.notes)

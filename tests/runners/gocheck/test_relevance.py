"""Values no verdict depends on made unknown (generator/gocheck/relevance.py): fewer
states where they only get printed, the same verdicts where they decide something.

An unknown value only adds behaviours (a branch on it goes both ways), so a wrong
abstraction shows as a false alarm on a correct program, which is what these look for."""

from __future__ import annotations

import textwrap

import pytest

from runners.gocheck.check import check_source, report_lines

pytestmark = pytest.mark.usefixtures("go_frontend")


def both(source: str):
    source = textwrap.dedent(source).lstrip()
    return check_source(source), check_source(source, abstract=False)


POOL = """
    package main

    import (
        "fmt"
        "sync"
    )

    func worker(id int, jobs <-chan int, results chan<- int, wg *sync.WaitGroup) {
        defer wg.Done()
        for j := range jobs {
            fmt.Println("worker", id, "job", j)
            results <- j * 2
        }
    }

    func main() {
        jobs := make(chan int, 6)
        results := make(chan int, 6)
        var wg sync.WaitGroup
        for w := 1; w <= 3; w++ {
            wg.Add(1)
            go worker(w, jobs, results, &wg)
        }
        for j := 1; j <= 6; j++ {
            jobs <- j
        }
        close(jobs)
        wg.Wait()
        close(results)
        sum := 0
        for r := range results {
            sum += r
        }
        fmt.Println("sum", sum)
    }
    """


def test_values_only_printed_do_not_split_states():
    # The workers' ids and the sums in the results' buffer are only printed: unknown,
    # the workers are alike and the buffer's orders one.
    abstract, plain = both(POOL)
    assert abstract.verdict == plain.verdict == "ok", report_lines(abstract)
    assert abstract.result.states * 10 < plain.result.states


# Each program is correct only because a value that takes one path to a decision is what
# it is: made unknown, the checker would take both ways of the decision and see a deadlock.
@pytest.mark.parametrize("what, source, want", [
    ("a received value decides a branch", """
        package main

        func main() {
            ch := make(chan int, 2)
            ch <- 1
            ch <- 3
            sum := 0
            for i := 0; i < 2; i++ {
                sum += <-ch
            }
            if sum == 5 {
                select {}
            }
        }
        """, "ok"),
    ("a value received in a select decides how many to receive", """
        package main

        func main() {
            ch := make(chan int)
            done := make(chan bool)
            go func() { ch <- 2 }()
            n := 0
            select {
            case v := <-ch:
                n = v
            case <-done:
            }
            for i := 0; i < n-2; i++ {
                <-done
            }
        }
        """, "ok"),
    ("a value stored in a struct's field and loaded", """
        package main

        type job struct {
            name  string
            count int
        }

        func main() {
            j := &job{name: "a"}
            j.count = 2
            ch := make(chan int, 2)
            for i := 0; i < j.count; i++ {
                ch <- i
            }
        }
        """, "ok"),
    ("a parameter that counts the receives", """
        package main

        func drain(n int, ch chan int, done chan bool) {
            for i := 0; i < n; i++ {
                <-ch
            }
            done <- true
        }

        func main() {
            ch := make(chan int)
            done := make(chan bool)
            go drain(2, ch, done)
            ch <- 1
            ch <- 2
            <-done
        }
        """, "ok"),
    ("a function's result that counts the sends", """
        package main

        func count(xs []string) int { return len(xs) }

        func main() {
            ch := make(chan int, 2)
            for i := 0; i < count([]string{"a", "b"}); i++ {
                ch <- i
            }
        }
        """, "ok"),
    # (Called where it is made, a function or closure is a static callee to go/ssa.)
    ("a function value's result that counts the receives", """
        package main

        func three() int { return 3 }

        func receive(ch chan int, count func() int) {
            for i := 0; i < count(); i++ {
                <-ch
            }
        }

        func main() {
            ch := make(chan int)
            for i := 0; i < 3; i++ {
                go func() { ch <- 1 }()
            }
            receive(ch, three)
        }
        """, "ok"),
    ("a closure's result that counts the receives", """
        package main

        func main() {
            n := 2
            counts := []func() int{func() int { return n + 1 }}
            ch := make(chan int)
            for i := 0; i < 3; i++ {
                go func() { ch <- 1 }()
            }
            for i := 0; i < counts[0](); i++ {
                <-ch
            }
        }
        """, "ok"),
    ("a formatted string used as a map key", """
        package main

        import "fmt"

        func main() {
            seen := map[string]bool{}
            for i := 0; i < 2; i++ {
                seen[fmt.Sprintf("k%d", i)] = true
            }
            if len(seen) != 2 {
                select {}
            }
        }
        """, "ok"),
    ("a value whose String method communicates", """
        package main

        import "fmt"

        var gate = make(chan bool)

        type level int

        func (l level) String() string {
            if l > 1 {
                <-gate
            }
            return "level"
        }

        func main() {
            fmt.Println(level(1))
        }
        """, "ok"),
    ("a value sent through an interface channel and asserted", """
        package main

        func main() {
            ch := make(chan any, 1)
            ch <- 2
            n := (<-ch).(int)
            out := make(chan int, 2)
            for i := 0; i < n; i++ {
                out <- i
            }
        }
        """, "ok"),
    ("a global counter read after the goroutines", """
        package main

        import "sync"

        var total int

        func main() {
            var mu sync.Mutex
            var wg sync.WaitGroup
            for i := 0; i < 2; i++ {
                wg.Add(1)
                go func() {
                    defer wg.Done()
                    mu.Lock()
                    total++
                    mu.Unlock()
                }()
            }
            wg.Wait()
            if total == 3 {
                select {}
            }
        }
        """, "ok"),
])
def test_a_value_that_keeps_a_program_correct_is_kept(what, source, want):
    abstract, plain = both(source)
    assert plain.verdict == want, (what, report_lines(plain))
    assert abstract.verdict == want, (what, report_lines(abstract))


def test_a_long_computation_only_printed_is_not_interpreted():
    # fib(27) is some 300,000 calls: interpreted, past what a local run may take.
    abstract, plain = both("""
        package main

        import "fmt"

        func fib(n int) int {
            if n < 2 {
                return n
            }
            return fib(n-1) + fib(n-2)
        }

        func main() {
            done := make(chan bool)
            go func() { done <- true }()
            fmt.Println(fib(27))
            <-done
        }
        """)
    assert abstract.verdict == "ok", report_lines(abstract)
    assert plain.verdict == "unsupported", report_lines(plain)


@pytest.mark.parametrize("body", [
    # Its result decides a branch.
    "if square(3) == 9 {\n    select {}\n}",
    # It may end the program: not a function that only computes.
    "fmt.Println(exits(5))\nselect {}",
])
def test_a_call_that_matters_is_still_run(body):
    source = """
        package main

        import (
            "fmt"
            "os"
        )

        func square(n int) int { return n * n }

        func exits(n int) int {
            if n > 3 {
                os.Exit(0)
            }
            return n
        }

        func main() {
            fmt.Println(square(2))
            BODY
        }
        """.replace("BODY", textwrap.indent(body, " " * 12).lstrip())
    abstract, plain = both(source)
    assert abstract.verdict == plain.verdict, report_lines(abstract)
    assert abstract.verdict == ("global-deadlock" if "square(3)" in body else "ok")

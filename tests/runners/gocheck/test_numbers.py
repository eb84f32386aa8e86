"""gocheck on programs whose communication hangs on numbers: float64 arithmetic
(x/time/rate's tokens, suture's failure threshold), random counts, and two branches on one
integer the checker does not know (pond's Resize). Each program was run with Go first."""

from __future__ import annotations

import textwrap

import pytest

from runners.gocheck.check import check_source, report_lines

pytestmark = pytest.mark.usefixtures("go_frontend")


def check(body: str):
    return check_source(textwrap.dedent(body).lstrip())


FLOATS = """
    package main

    import (
        "math"
        "time"
    )

    func main() {
        ch := make(chan int)
        tokens := 3.0
        tokens -= 2
        limit := math.Inf(1)
        _ = limit
        if COND {
            <-ch
        }
        _ = time.Second
    }
    """


@pytest.mark.parametrize("cond, want", [
    ("tokens < 0", "ok"),
    ("tokens != 1", "ok"),
    ("limit != math.Inf(1)", "ok"),
    ("math.Min(tokens, 0.5) != 0.5", "ok"),
    ("(1500 * time.Millisecond).Seconds() != 1.5", "ok"),
    ("time.Duration(tokens*float64(time.Second)) != time.Second", "ok"),
    ("int(tokens*2.6) != 2", "ok"),
    ("tokens/0 < 1e308", "ok"),  # +Inf, as Go divides
    ("tokens == 1", "global-deadlock"),
])
def test_float_arithmetic_decides_a_branch_as_go_does(cond, want):
    # Floats were unknown: the branch Go never takes was taken too, a false deadlock.
    c = check(FLOATS.replace("COND", cond))
    assert c.verdict == want, report_lines(c)


UNCORRELATED = """
    package main

    import (
        "math"
        "sync"
    )

    func size() int { return int(math.Min(float64(math.MaxInt-10), VALUE)) }

    func main() {
        var wg sync.WaitGroup
        n := size()
        if n > 0 {
            wg.Add(n)
        }
        for i := 0; i < n; i++ { // the same test as n > 0 on the first round
            wg.Done()
        }
        wg.Wait()
    }
    """


@pytest.mark.parametrize("value", ["0", "float64(len(make([]int, 0)))"])
def test_two_branches_on_one_unknown_integer_agree(value):
    # pond's Resize: `n > 0` false and then `0 < n` true was a negative WaitGroup counter.
    c = check(UNCORRELATED.replace("VALUE", value))
    assert c.verdict == "ok", report_lines(c)


def test_a_branch_through_a_negation_narrows_too():
    c = check("""
        package main

        import "os"

        func main() {
            ch := make(chan int, 1)
            n := len(os.Args)
            if !(n >= 3) {
                return
            }
            if n > 2 {
                ch <- 1
            }
            <-ch
        }
        """)
    assert c.verdict == "ok", report_lines(c)


RANDOM = """
    package main

    import "math/rand"

    func main() {
        ch := make(chan int, 1)
        n := rand.Intn(3) + 1
        if n >= 1 && n <= 3 {
            ch <- n
        }
        WAIT
    }
    """


def test_a_random_count_lies_between_its_bounds():
    c = check(RANDOM.replace("WAIT", "<-ch"))
    assert c.verdict == "ok", report_lines(c)


def test_a_deadlock_on_one_random_value_is_still_found():
    c = check(RANDOM.replace("WAIT", "<-ch\nif n == 3 {\n<-ch\n}"))
    assert c.verdict == "global-deadlock", report_lines(c)
    c = check(RANDOM.replace("WAIT", "<-ch\nif n == 4 {\n<-ch\n}"))
    assert c.verdict == "ok", report_lines(c)


def test_a_float_loop_counter_past_the_limit_is_undecided_not_cut_short():
    c = check("""
        package main

        func main() {
            ch := make(chan int)
            x := 0.0
            for x < 1e7 {
                x += 1
            }
            if x < 1e7 {
                <-ch // never: Go leaves the loop at 1e7 only
            }
        }
        """)
    assert c.verdict == "undecided", report_lines(c)


def test_a_parameter_compared_once_is_known_to_the_next_test():
    c = check("""
        package main

        import "os"

        func serve(n int, done chan bool) {
            if n <= 0 {
                return
            }
            if n < 1 {
                <-done // never: n > 0 here
            }
            done <- true
        }

        func main() {
            done := make(chan bool)
            n := len(os.Args) - 1
            go serve(n, done)
            if n > 0 {
                <-done
            }
        }
        """)
    assert c.verdict == "ok", report_lines(c)


def test_an_unknown_duration_never_exceeds_the_largest_one():
    # x/time/rate's reserveN: `waitDuration <= InfDuration` (math.MaxInt64) always holds;
    # taken as unknown, every Wait could fail and each fetcher quit: a false deadlock.
    c = check("""
        package main

        import (
            "math"
            "os"
            "time"
        )

        const InfDuration = time.Duration(math.MaxInt64)

        func main() {
            ch := make(chan int)
            wait := time.Duration(len(os.Args)) * time.Second
            var n uint = uint(len(os.Args))
            if wait > InfDuration || n < 0 {
                <-ch
            }
        }
        """)
    assert c.verdict == "ok", report_lines(c)


FAKE_CLOCK = """
    package main

    import (
        "sync"
        "time"
    )

    type clock struct {
        mu     sync.Mutex
        cur    time.Time
        timers []timer
    }

    type timer struct {
        when time.Time
        ch   chan time.Time
    }

    func (c *clock) after(d time.Duration) <-chan time.Time {
        c.mu.Lock()
        defer c.mu.Unlock()
        ch := make(chan time.Time, 1)
        c.timers = append(c.timers, timer{c.cur.Add(d), ch})
        return ch
    }

    // advance moves to the first timer and fires what is due: x/time/rate's test clock.
    func (c *clock) advance() {
        c.mu.Lock()
        defer c.mu.Unlock()
        when := c.timers[0].when
        c.cur = c.cur.Add(when.Sub(c.cur))
        kept := c.timers[:0]
        for _, t := range c.timers {
            if t.when.After(c.cur) {
                kept = append(kept, t)
            } else {
                t.ch <- c.cur
            }
        }
        c.timers = kept
    }

    func main() {
        c := &clock{cur: time.Now()}
        ch := c.after(LATER)
        c.advance()
        <-ch
    }
    """


@pytest.mark.parametrize("later, want", [
    ("100 * time.Millisecond", "ok"),
    ("0", "ok"),
])
def test_a_fake_clock_fires_the_timer_it_advanced_to(later, want):
    # Times were unknown: `when.After(cur)` right after cur = when went both ways, and the
    # test waited for a timer that never fired (x/time/rate's TestWaitSimple).
    c = check(FAKE_CLOCK.replace("LATER", later))
    assert c.verdict == want, report_lines(c)


def test_an_elapsed_time_is_never_negative_and_a_zero_time_is_zero():
    c = check("""
        package main

        import "time"

        type limiter struct{ last time.Time }

        func main() {
            ch := make(chan int)
            var l limiter
            if !l.last.IsZero() || time.Since(time.Now()) < 0 {
                <-ch
            }
            start := time.Now()
            l.last = time.Now()
            if l.last.Before(start) || l.last.Sub(start) < 0 {
                <-ch
            }
        }
        """)
    assert c.verdict == "ok", report_lines(c)


def test_a_fake_clock_ticking_for_ever_repeats_its_states():
    # Only differences between times are kept: a clock advanced a second each round is
    # the same state each round, so the search ends.
    c = check("""
        package main

        import "time"

        func main() {
            stop := make(chan bool)
            ticks := make(chan time.Time)
            go func() {
                cur := time.Now()
                for {
                    select {
                    case ticks <- cur:
                        cur = cur.Add(time.Second)
                    case <-stop:
                        return
                    }
                }
            }()
            first := <-ticks
            if next := <-ticks; next.Sub(first) != time.Second {
                <-stop // never
            }
            close(stop)
        }
        """)
    assert c.verdict == "ok", report_lines(c)


def test_a_random_number_handed_to_a_goroutine_agrees_with_its_copy():
    c = check("""
        package main

        import "math/rand"

        func worker(n int, out chan int) {
            if n == 2 {
                out <- n
            }
        }

        func main() {
            out := make(chan int)
            n := rand.Intn(3)
            go worker(n, out)
            if n == 2 {
                <-out
            }
        }
        """)
    assert c.verdict == "ok", report_lines(c)


def test_what_a_branch_learns_of_a_count_less_one_holds_for_the_count():
    c = check("""
        package main

        import "os"

        func main() {
            ch := make(chan bool)
            n := len(os.Args)
            rest := n - 1
            if rest <= 0 {
                return
            }
            if n < 2 {
                <-ch // never: rest > 0 made n at least 2
            }
        }
        """)
    assert c.verdict == "ok", report_lines(c)


def test_a_fake_clock_reaches_a_timer_set_an_unknown_duration_ahead():
    # x/time/rate's test clock sets its timer at cur.Add(delay), delay worked out from
    # tokens the checker may not know; advancing by when.Sub(cur) reaches it all the same.
    c = check(FAKE_CLOCK.replace("LATER", "time.Duration(len(os.Args)) * time.Second")
              .replace('"sync"', '"os"\n        "sync"'))
    assert c.verdict == "ok", report_lines(c)


def test_a_duration_scaled_at_run_time_stays_exact():
    # backoff's tests scale a table of numbers to milliseconds; an unknown product made
    # every later comparison a branch, and each way's knowledge a state of its own.
    c = check("""
        package main

        import "time"

        func main() {
            ch := make(chan int)
            ds := []time.Duration{500, 1000}
            for i, d := range ds {
                ds[i] = d * time.Millisecond
            }
            if ds[1] != time.Second || ds[0]*2/time.Millisecond != 1000 {
                <-ch
            }
        }
        """)
    assert c.verdict == "ok", report_lines(c)


def test_a_random_size_converted_to_a_named_type_keeps_its_range():
    # eapache's resizable channel: Resize(BufferCap(rand.Intn(50) + 1)); the conversion
    # lost the range, so a size of 0 or less seemed possible and the buffer closed early.
    c = check("""
        package main

        import "math/rand"

        type BufferCap int

        func main() {
            ch := make(chan int)
            size := BufferCap(rand.Intn(50) + 1)
            if int8(size) <= 0 || int(size) > 50 {
                <-ch
            }
        }
        """)
    assert c.verdict == "ok", report_lines(c)


def test_two_lens_of_one_unknown_slice_are_one_number():
    # A list read from the environment: its length is unknown, but one. Each `len` was an
    # unknown of its own, so a range over the list and a later `for range len(list)`
    # disagreed (a helper's probe h3_env_collect_n: a false global deadlock).
    c = check("""
        package main

        import (
            "os"
            "strings"
        )

        func main() {
            names := strings.Split(os.Getenv("NAMES"), ",")
            if len(names) > 2 {
                if len(names) < 1 {
                    <-make(chan int) // never: a slice's length does not change
                }
            }
        }
        """)
    assert c.verdict == "ok", report_lines(c)


def test_lens_of_a_channel_are_taken_each_time():
    # A channel's (or a map's) length changes between two `len`s of one register.
    c = check("""
        package main

        func main() {
            ch := make(chan int, 2)
            before := len(ch)
            ch <- 1
            if len(ch) == before {
                <-make(chan int)
            }
        }
        """)
    assert c.verdict == "ok", report_lines(c)


ORDERED_LOCKS = """
    package main

    import (
        "math/rand"
        "sync"
    )

    var mu [4]sync.Mutex

    func transfer(from, to int) {
        if from == to {
            return
        }
        lo, hi := from, to
        if SWAP {
            lo, hi = hi, lo
        }
        mu[lo].Lock()
        mu[hi].Lock()
        mu[hi].Unlock()
        mu[lo].Unlock()
    }

    func main() {
        var wg sync.WaitGroup
        for w := 0; w < 2; w++ {
            wg.Add(1)
            go func() {
                defer wg.Done()
                transfer(rand.Intn(4), rand.Intn(4))
            }()
        }
        wg.Wait()
    }
    """


@pytest.mark.parametrize("swap, want", [
    ("lo > hi", "ok"),  # the lower index first: no two goroutines wait on each other
    ("false && lo > hi", "global-deadlock"),  # in the order drawn: an inversion
])
def test_locks_taken_in_the_order_of_two_random_indices_are_in_order(swap, want):
    # Rosetta Code's atomic updates. The ranges of `lo` and `hi` (0..3 each) keep no
    # trace of `lo <= hi`: each index was picked alone, `mu[2]` then `mu[0]`, and the
    # correct program was a false deadlock until the two branches' comparisons were kept
    # as facts (`State.facts`). Run with Go: ok in 80 of 80 runs, and the inversion is
    # one interleaving no run of 40 met.
    c = check(ORDERED_LOCKS.replace("SWAP", swap))
    assert c.verdict == want, report_lines(c)

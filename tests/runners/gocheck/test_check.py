"""gocheck from Go source to verdict: one small program per construct and verdict, each
checked for its verdict and for the trace lines that justify it (the real Go front end)."""

from __future__ import annotations

import textwrap

import pytest

from generator.gocheck.instructions import MAP_ENDS_UP_TO, key_orders
from runners.gocheck.check import Checked, check_source, effect_of, report_lines

pytestmark = pytest.mark.usefixtures("go_frontend")


def check(body: str, **kw) -> Checked:
    return check_source(textwrap.dedent(body).lstrip(), **kw)


def steps(c: Checked) -> list[tuple[int, str]]:
    assert c.result is not None
    return [(s.line, s.text) for f in c.result.findings for s in (*f.trace, *f.stuck)]


def test_unbuffered_send_without_receiver_is_a_global_deadlock():
    c = check("""
        package main

        func main() {
            ch := make(chan int)
            ch <- 1
        }
        """)
    assert c.verdict == "global-deadlock"
    assert (5, "blocked: send on ch (made at line 4)") in steps(c)
    assert report_lines(c)[-1] == "verdict: global-deadlock"


def test_goroutine_left_sending_after_main_returns_is_a_partial_deadlock():
    c = check("""
        package main

        func main() {
            ch := make(chan int)
            for i := 0; i < 2; i++ {
                go func() { ch <- i }()
            }
            <-ch
        }
        """)
    assert c.verdict == "partial-deadlock"
    (finding,) = c.result.findings
    assert [s.line for s in finding.stuck] == [6]
    assert "main returns" in finding.message


def test_constant_loop_matching_sends_and_receives_is_ok():
    c = check("""
        package main

        import "sync"

        func main() {
            ch := make(chan int)
            var wg sync.WaitGroup
            for i := 0; i < 3; i++ {
                wg.Add(1)
                go func(n int) {
                    defer wg.Done()
                    ch <- n
                }(i)
            }
            for i := 0; i < 3; i++ {
                <-ch
            }
            wg.Wait()
        }
        """)
    assert c.verdict == "ok", report_lines(c)
    assert c.result.complete


def test_one_receive_too_many_deadlocks_and_the_bound_is_exact():
    c = check("""
        package main

        func main() {
            ch := make(chan int)
            for i := 0; i < 3; i++ {
                go func() { ch <- 1 }()
            }
            for i := 0; i < 4; i++ {
                <-ch
            }
        }
        """)
    assert c.verdict == "global-deadlock"
    assert sum(1 for _, t in steps(c) if t.startswith("receive from ch")) == 3


def test_double_close_is_a_channel_safety_violation():
    c = check("""
        package main

        func main() {
            ch := make(chan int)
            go func() { close(ch) }()
            <-ch
            close(ch)
        }
        """)
    assert c.verdict == "channel-safety"
    assert c.result.findings[0].message == "close of closed channel"
    assert (7, "close of closed ch (made at line 4)") in steps(c)


def test_send_on_closed_channel_in_some_interleaving_is_found():
    c = check("""
        package main

        func main() {
            ch := make(chan int, 1)
            done := make(chan bool)
            go func() {
                ch <- 1
                done <- true
            }()
            close(ch)
            <-done
        }
        """)
    assert c.verdict == "channel-safety"
    assert c.result.findings[0].message == "send on closed channel"


def test_close_of_nil_channel_is_a_channel_safety_violation():
    c = check("""
        package main

        func main() {
            var ch chan int
            close(ch)
        }
        """)
    assert c.verdict == "channel-safety"
    assert c.result.findings[0].message == "close of nil channel"


def test_range_over_a_closed_channel_ends():
    c = check("""
        package main

        func produce(n int, out chan<- int) {
            for i := 0; i < n; i++ {
                out <- i
            }
            close(out)
        }

        func main() {
            ch := make(chan int, 2)
            go produce(5, ch)
            sum := 0
            for v := range ch {
                sum += v
            }
            if sum != 10 {
                panic("lost a value")
            }
        }
        """)
    assert c.verdict == "ok", report_lines(c)


def test_range_over_a_channel_nobody_closes_deadlocks():
    c = check("""
        package main

        func main() {
            ch := make(chan int)
            go func() {
                for i := 0; i < 2; i++ {
                    ch <- i
                }
            }()
            for range ch {
            }
        }
        """)
    assert c.verdict == "global-deadlock"


def test_select_default_never_blocks_and_timeouts_fire():
    c = check("""
        package main

        import "time"

        func main() {
            ch := make(chan int)
            select {
            case <-ch:
            default:
            }
            select {
            case <-ch:
            case <-time.After(time.Second):
            }
        }
        """)
    assert c.verdict == "ok", report_lines(c)


def test_mutex_locked_twice_by_one_goroutine_deadlocks():
    c = check("""
        package main

        import "sync"

        type counter struct {
            mu sync.Mutex
            n  int
        }

        func (c *counter) inc() {
            c.mu.Lock()
            c.n++
            c.mu.Unlock()
        }

        func main() {
            c := &counter{}
            c.mu.Lock()
            c.inc()
        }
        """)
    assert c.verdict == "global-deadlock"
    assert (11, "blocked: Lock") in steps(c)


def test_waitgroup_wait_with_a_missing_done_deadlocks():
    c = check("""
        package main

        import "sync"

        func main() {
            var wg sync.WaitGroup
            wg.Add(2)
            go wg.Done()
            wg.Wait()
        }
        """)
    assert c.verdict == "global-deadlock"


def test_context_cancel_releases_a_waiting_goroutine():
    c = check("""
        package main

        import "context"

        func main() {
            ctx, cancel := context.WithCancel(context.Background())
            done := make(chan struct{})
            go func() {
                <-ctx.Done()
                close(done)
            }()
            cancel()
            <-done
        }
        """)
    assert c.verdict == "ok", report_lines(c)


CTX_ERR = """
    package main

    import (
        "context"
        "time"
    )

    func main() {
        ctx, cancel := context.WithCancel(context.Background())
        leak := make(chan int)
        done := make(chan bool)
        go func() {
            CANCEL
            done <- true
        }()
        if ctx.Err() != nil {
            go func() { leak <- 1 }() // leaks: nobody receives
        }
        if _, ok := ctx.Deadline(); ok {
            go func() { leak <- 2 }() // never: no deadline was set
        }
        <-done
        _ = time.Second
    }
    """


@pytest.mark.parametrize("cancel, want", [("", "ok"), ("cancel()", "partial-deadlock")])
def test_ctx_err_is_nil_until_a_cancel_and_deadline_is_known(cancel, want):
    # Err is a step of its own: nil before the cancel, an error after it, in every order
    # of the two; with no cancel anywhere it is never an error. A WithCancel context has
    # no deadline.
    c = check(CTX_ERR.replace("CANCEL", cancel or "_ = cancel"))
    assert c.verdict == want, report_lines(c)
    if cancel:
        texts = [s.text for s in c.result.findings[0].trace]
        assert "ctx.Err() is an error" in texts


def test_forgotten_cancel_leaves_the_watcher_blocked():
    c = check("""
        package main

        import "context"

        func watch(ctx context.Context, out chan<- int) {
            <-ctx.Done()
            out <- 1
        }

        func main() {
            ctx, cancel := context.WithCancel(context.Background())
            _ = cancel
            out := make(chan int, 1)
            go watch(ctx, out)
        }
        """)
    assert c.verdict == "partial-deadlock"


def test_channels_passed_through_struct_fields_and_channels():
    c = check("""
        package main

        type request struct {
            reply chan int
        }

        func server(reqs chan request) {
            for r := range reqs {
                r.reply <- 42
            }
        }

        func main() {
            reqs := make(chan request)
            go server(reqs)
            r := request{reply: make(chan int)}
            reqs <- r
            <-r.reply
            close(reqs)
        }
        """)
    assert c.verdict == "ok", report_lines(c)


def test_a_for_select_loop_leaving_a_producer_blocked_is_a_partial_deadlock():
    # The consumer selects on ch1 twice: the producer of ch2 is blocked for ever while
    # main loops (Godel's Fig. 1 with its bug), found in a cycle of the state graph.
    c = check("""
        package main

        func prod(ch chan int) {
            for i := 0; i < 2; i++ {
                ch <- i
            }
        }

        func main() {
            ch1, ch2 := make(chan int), make(chan int)
            go prod(ch1)
            go prod(ch2)
            for {
                select {
                case <-ch1:
                case <-ch1:
                }
            }
        }
        """)
    assert c.verdict in ("global-deadlock", "partial-deadlock")
    assert any(line == 5 and "send on ch" in t for line, t in steps(c))


def test_channels_in_a_map_under_known_keys_are_followed():
    c = check("""
        package main

        func main() {
            m := map[string]chan int{}
            m["a"] = make(chan int)
            m["b"] = make(chan int, 1)
            m["b"] <- 1
            for _, ch := range m {
                close(ch)
            }
            close(m["a"])
        }
        """)
    assert c.verdict == "channel-safety"
    # Both channels are closed by the loop (line 9), then "a" again at line 11.
    trace = c.result.findings[0].trace
    assert [s.line for s in trace if s.text.startswith("close")] == [9, 9, 11]
    assert trace[-1].text == "close of closed channel (made at line 5)"


FIRST_WORKER = """
    package main

    import "maps"

    func main() {
        workers := map[int]chan int{}
        for i := 1; i <= N; i++ {
            workers[i] = make(chan int, 1)
        }
        workers[2] = make(chan int) // nobody receives: a send to it blocks for ever
        for _, ch := range workers {
            ch <- 1
            break
        }
        _ = maps.Values[map[int]chan int]
    }
    """


@pytest.mark.parametrize("loop, line", [("for _, ch := range workers", 11),
                                        ("for ch := range maps.Values(workers)", 0),
                                        ("for _, ch := range maps.All(workers)", 0)])
def test_a_range_over_a_small_map_tries_every_order(loop, line):
    # Go's order is random: the range meets key 2 first in some runs only. (Go's SSA gives
    # the call of an iterator with the loop body no line.)
    c = check(FIRST_WORKER.replace("N", "3").replace("for _, ch := range workers", loop))
    assert c.verdict == "global-deadlock", report_lines(c)
    assert (line, "range over a map in the order 2, 1, 3") in steps(c)


def test_a_range_over_a_larger_map_tries_each_key_first_and_last():
    # 5! orders of every such range would swamp the search (MAP_ORDERS_UP_TO); the 9
    # with each key first or last find the one that meets key 2 first, and the report
    # says not every order was tried.
    c = check(FIRST_WORKER.replace("N", "5"))
    assert c.verdict == "global-deadlock", report_lines(c)
    assert any(line == 11 and text.startswith("range over a map in the order 2, ")
               for line, text in steps(c))
    assert "a range over a map of 5 entries was tried in 9 of its orders (each key " \
        "first or last, the others by key), not in all" in report_lines(c)


def test_a_range_over_a_map_beyond_the_ends_limit_takes_key_order_only():
    c = check(FIRST_WORKER.replace("N", str(MAP_ENDS_UP_TO + 1)))
    assert c.verdict == "ok", report_lines(c)
    assert f"a range over a map of {MAP_ENDS_UP_TO + 1} entries was tried in one order " \
        "of its keys, not in all" in report_lines(c)


def test_key_orders_of_a_larger_map_put_each_key_first_and_last():
    orders = key_orders((1, 2, 3, 4, 5))
    assert len(orders) == 9 == len(set(orders))
    assert orders[0] == (1, 2, 3, 4, 5)  # key order first
    assert all(any(o[0] == k for o in orders) and any(o[-1] == k for o in orders)
               for k in range(1, 6))
    assert len(key_orders((1, 2, 3, 4))) == 24  # every order, up to MAP_ORDERS_UP_TO


def test_a_map_entry_deleted_before_the_range_reaches_it_is_not_visited():
    c = check("""
        package main

        func main() {
            m := map[string]chan int{"a": make(chan int), "b": make(chan int)}
            for k := range m {
                delete(m, "a")
                delete(m, "b")
                if k == "x" {
                    return
                }
            }
            for _, ch := range m {
                ch <- 1
            }
        }
        """)
    assert c.verdict == "ok", report_lines(c)


def test_channels_in_a_map_under_unknown_keys_are_unsupported_with_their_line():
    c = check("""
        package main

        import "os"

        func main() {
            m := map[string]chan int{}
            m[os.Args[0]] = make(chan int)
            close(m["x"])
        }
        """)
    assert c.verdict == "unsupported"
    assert c.result.unsupported[0][1] == 7


# A sender of SENT values and a receiver of RECEIVED, each counting its rounds.
COUNTED = """
    package main

    func main() {
        ch := make(chan int)
        go func() {
            for i := 0; i < SENT; i++ {
                ch <- i
            }
        }()
        for i := 0; i < RECEIVED; i++ {
            <-ch
        }
    }
    """


def counted(sent: int, received: int) -> str:
    return COUNTED.replace("SENT", str(sent)).replace("RECEIVED", str(received))


def test_a_loop_past_the_unroll_limit_is_undecided_not_a_false_deadlock():
    c = check(counted(100000, 100000), time_limit=1.0)
    # Past 1,024 rounds either loop may end first on the checker's paths, and then the
    # other blocks; no run does, so nothing is reported, and there is no "ok" either (the
    # walks that look for it on real runs find none).
    assert c.verdict == "undecided"
    assert not c.result.findings
    assert any("not reported" in n for n in c.result.notes)


def test_a_counter_past_the_unroll_limit_that_nothing_waits_on_is_ok():
    # Both branches on a counter past 1,024 are followed, more runs than the program has:
    # with no deadlock on any of them, none is on the program's.
    c = check("""
        package main

        func main() {
            done := make(chan int)
            go func() {
                n := 0
                for i := 0; i < 5000; i++ {
                    n += 2
                }
                done <- 1
            }()
            <-done
        }
        """)
    assert c.verdict == "ok", "\n".join(report_lines(c))
    assert any("loops past 1024 rounds" in n for n in c.result.notes)


def test_a_producer_of_100000_values_ranged_over_until_closed_is_ok():
    c = check("""
        package main

        func main() {
            jobs := make(chan int)
            done := make(chan bool)
            go func() {
                n := 0
                for j := range jobs {
                    n += j
                }
                done <- true
            }()
            for i := 0; i < 100000; i++ {
                jobs <- i
            }
            close(jobs)
            <-done
        }
        """)
    assert c.verdict == "ok", "\n".join(report_lines(c))


def test_a_deadlock_behind_3000_rounds_is_found_on_a_real_run_its_rounds_folded():
    # The search sets the deadlock aside (past 1,024 rounds, either loop could end
    # first); walks that count exactly reach the one the program has, after 3,000 rounds.
    c = check(counted(3000, 3001))
    assert c.verdict == "global-deadlock", "\n".join(report_lines(c))
    trace = c.result.findings[0].trace
    assert len(trace) == 3
    assert trace[-1].text == "… the 2 steps above, 2,999 more times (rounds of a loop)"


def test_a_violation_off_the_long_loops_paths_is_still_reported():
    # Whatever follows the loop's end lies on approximate paths (a deadlock there would
    # not be reported); main's double close does not wait for it.
    c = check("""
        package main

        func main() {
            done := make(chan int, 1)
            go func() {
                for i := 0; i < 5000; i++ {
                }
                done <- 1
            }()
            ch := make(chan int)
            close(ch)
            close(ch)
        }
        """)
    assert c.verdict == "channel-safety", "\n".join(report_lines(c))


def test_the_state_budget_makes_it_undecided():
    c = check("""
        package main

        func main() {
            ch := make(chan int)
            for i := 0; i < 6; i++ {
                go func() { ch <- 1 }()
            }
            for i := 0; i < 6; i++ {
                <-ch
            }
        }
        """, max_states=5)
    assert c.verdict == "undecided"
    assert not c.result.complete


def test_a_program_that_does_not_type_check_is_bad_input_with_gos_error():
    c = check("""
        package main

        func main() {
            x := 1
        }
        """)
    assert c.verdict == "bad-input"
    assert "declared and not used: x" in c.error
    assert c.exit_code == 2


def test_the_effect_of_a_fragment_program_agrees_with_the_effect_checker():
    from generator.effects import parse
    from generator.termination import check_effect

    c = check("""
        package main

        func worker(a, b chan int) {
            select {
            case v := <-a:
                b <- v
            case b <- 1:
            }
        }

        func main() {
            a := make(chan int)
            b := make(chan int)
            go worker(a, b)
            go worker(a, b)
            a <- 1
            <-b
        }
        """)
    text, why = effect_of(c)
    assert why == ""
    assert text.count("Spawn(") == 2 and "Put(" in text and "Get(" in text
    assert c.verdict == "partial-deadlock"
    assert not check_effect(parse(text)).terminating


def test_a_buffered_channel_has_no_effect_and_says_why():
    c = check("""
        package main

        func main() {
            ch := make(chan int, 1)
            ch <- 1
            <-ch
        }
        """)
    assert c.verdict == "ok"
    text, why = effect_of(c)
    assert text is None and "buffered" in why


def test_spinning_on_an_atomic_flag_lets_the_setter_run():
    source = """
        package main

        import "sync/atomic"

        type svc struct {
            stopped atomic.Bool
        }

        func main() {
            s := &svc{}
            ch := make(chan int)
            go func() {
                for !s.stopped.Load() {
                }
                ch <- 1
            }()
            s.stopped.Store(true)
            <-ch
        }
        """
    assert check(source).verdict == "ok"
    # Without the Store the goroutine spins for ever and main waits for ever.
    never = check(source.replace("s.stopped.Store(true)", "_ = s"))
    assert never.verdict == "partial-deadlock"
    assert [s.goroutine for s in never.result.findings[0].stuck] == ["main"]


def test_a_server_loop_with_a_timeout_each_round_reaches_a_fixed_point():
    # Each round's time.After leaves a timer behind when another case wins; timers nobody
    # can reach must not make the rounds' states differ.
    c = check("""
        package main

        import "time"

        func main() {
            req := make(chan int)
            stop := make(chan struct{})
            go func() {
                for {
                    select {
                    case <-req:
                    case <-time.After(time.Second):
                    case <-stop:
                        return
                    }
                }
            }()
            for i := 0; i < 5; i++ {
                req <- i
            }
            close(stop)
        }
        """)
    assert c.verdict == "ok"
    assert c.result.states < 100


def test_a_recursive_once_do_deadlocks_and_a_concurrent_one_waits_for_the_function():
    recursive = check("""
        package main

        import "sync"

        var once sync.Once
        var conf map[string]int

        func get() map[string]int {
            once.Do(load)
            return conf
        }

        func load() {
            conf = map[string]int{"a": 1}
            _ = get()
        }

        func main() {
            _ = get()
        }
        """)
    assert recursive.verdict == "global-deadlock"
    concurrent = check("""
        package main

        import "sync"

        type lazy struct {
            once sync.Once
            ch   chan int
        }

        func (l *lazy) events() chan int {
            l.once.Do(func() {
                l.ch = make(chan int, 2)
            })
            return l.ch
        }

        func main() {
            l := &lazy{}
            done := make(chan bool)
            go func() {
                l.events() <- 1
                done <- true
            }()
            l.events() <- 2
            <-done
        }
        """)
    assert concurrent.verdict == "ok", report_lines(concurrent)


def test_a_recursive_rlock_deadlocks_against_a_waiting_writer():
    c = check("""
        package main

        import "sync"

        type store struct {
            mu sync.RWMutex
            n  int
        }

        func (s *store) get() int {
            s.mu.RLock()
            defer s.mu.RUnlock()
            return s.n
        }

        func (s *store) sum() int {
            s.mu.RLock()
            defer s.mu.RUnlock()
            return s.get() + s.get()
        }

        func main() {
            s := &store{}
            done := make(chan bool)
            go func() {
                s.mu.Lock()
                s.n++
                s.mu.Unlock()
                done <- true
            }()
            s.sum()
            <-done
        }
        """)
    assert c.verdict == "global-deadlock"
    assert any("Lock waits for 1 reader(s)" in t for _, t in steps(c))


def test_rlocker_lock_is_a_read_lock_that_deadlocks_behind_a_waiting_writer():
    c = check("""
        package main

        import "sync"

        func main() {
            var mu sync.RWMutex
            r := mu.RLocker()
            done := make(chan bool)
            r.Lock()
            go func() {
                mu.Lock()
                mu.Unlock()
                done <- true
            }()
            r.Lock()
            r.Unlock()
            r.Unlock()
            <-done
        }
        """)
    assert c.verdict == "global-deadlock", report_lines(c)
    assert any("Lock waits for 1 reader(s)" in t for _, t in steps(c))


@pytest.mark.parametrize("broadcast, want", [(True, "ok"), (False, "partial-deadlock")])
def test_cond_on_an_rlocker_waits_as_a_reader_and_wakes_on_broadcast(broadcast, want):
    c = check(f"""
        package main

        import "sync"

        func main() {{
            var mu sync.RWMutex
            c := sync.NewCond(mu.RLocker())
            ready := false
            var wg sync.WaitGroup
            for range 2 {{
                wg.Add(1)
                go func() {{
                    defer wg.Done()
                    c.L.Lock()
                    for !ready {{
                        c.Wait()
                    }}
                    c.L.Unlock()
                }}()
            }}
            mu.Lock()
            ready = true
            mu.Unlock()
            {"c.Broadcast()" if broadcast else "c.Signal()"}
            {"wg.Wait()" if broadcast else ""}
        }}
        """)
    assert c.verdict == want, report_lines(c)


def test_a_nil_slice_grown_by_append_is_followed():
    c = check("""
        package main

        func main() {
            var chans []chan int
            for i := 0; i < 3; i++ {
                chans = append(chans, make(chan int, 1))
            }
            for _, c := range chans {
                c <- 1
            }
            if len(chans) != 3 {
                <-make(chan int)
            }
        }
        """)
    assert c.verdict == "ok", report_lines(c)


def test_a_notification_sent_before_the_receiver_arrives_is_lost():
    # select-default on an unbuffered channel: the receiver may not have reached its
    # receive yet, so the send can take default, and the receiver then waits for ever.
    c = check("""
        package main

        func main() {
            notify := make(chan struct{})
            done := make(chan bool)
            go func() {
                <-notify
                done <- true
            }()
            select {
            case notify <- struct{}{}:
            default:
            }
            <-done
        }
        """)
    assert c.verdict == "global-deadlock"
    assert any(t == "select default" for _, t in steps(c))


def test_a_parameter_no_longer_read_does_not_tell_states_apart():
    # Each worker reads its id once; after that, workers that differ only in their ids are
    # in the same state (782 states, against 1,060 with every parameter kept).
    c = check("""
        package main

        import "sync"

        func main() {
            sem := make(chan struct{}, 2)
            var mu sync.Mutex
            var wg sync.WaitGroup
            total := 0
            for i := 0; i < 4; i++ {
                wg.Add(1)
                go func(id int) {
                    defer wg.Done()
                    sem <- struct{}{}
                    mu.Lock()
                    total += id
                    mu.Unlock()
                    <-sem
                }(i)
            }
            wg.Wait()
        }
        """)
    assert c.verdict == "ok"
    assert c.result.states <= 800


@pytest.mark.parametrize("bad", ["x > 5", "x < 5"])
def test_a_parameter_read_by_a_phi_after_a_step_stays_in_the_state(bad: str):
    # `n` is read only by the loop header's phi, after `<-step`: the states at `<-step`
    # for n = 0 and n = 10 must stay apart, whichever of them the search meets first.
    c = check(f"""
        package main

        import "os"

        func worker(n int, step chan bool, done chan bool) {{
            x := n
            <-step
            for i := 0; i < 2; i++ {{
                x += i
            }}
            if {bad} {{
                close(done)
            }}
            close(done)
        }}

        func main() {{
            step := make(chan bool)
            done := make(chan bool)
            n := 0
            if len(os.Args) > 5 {{
                n = 10
            }}
            go worker(n, step, done)
            step <- true
            <-done
        }}
        """)
    assert c.verdict == "channel-safety"


@pytest.mark.parametrize("err", ["ctx.Err()", "context.Cause(ctx)"])
@pytest.mark.parametrize(
    ("cancel", "verdict"), [("cancel()", "ok"), ("go cancel()", "global-deadlock")]
)
def test_ctx_err_is_an_error_once_the_context_is_cancelled(cancel: str, verdict: str,
                                                           err: str):
    # After a cancel that has happened, Err is not nil; while the cancel may still come
    # (another goroutine's), Err goes both ways.
    c = check(f"""
        package main

        import "context"

        func main() {{
            ctx, cancel := context.WithCancel(context.Background())
            {cancel}
            block := make(chan int)
            if {err} == nil {{
                <-block
            }}
        }}
        """)
    assert c.verdict == verdict


def test_context_cause_is_nil_while_nobody_can_cancel():
    # context.Cause was unknown while the context was open, so a future that keeps a
    # result only while its context is not cancelled could lose one: a false deadlock
    # in pond's CompositeFuture tests.
    c = check("""
        package main

        import "context"

        func main() {
            ctx, cancel := context.WithCancelCause(context.Background())
            defer cancel(nil)
            kept := 0
            for i := 0; i < 3; i++ {
                if context.Cause(ctx) == nil {
                    kept++
                }
            }
            if kept < 3 {
                <-ctx.Done()
            }
        }
        """)
    assert c.verdict == "ok", report_lines(c)


@pytest.mark.parametrize(
    ("make", "verdict"),
    [
        ("sync.OnceValue(func() chan int { return make(chan int, 1) })", "ok"),
        ("func() chan int { return make(chan int, 1) }", "global-deadlock"),
    ],
)
def test_sync_once_value_returns_its_functions_result_to_every_call(make: str, verdict: str):
    # Through sync.OnceValue both calls get the same channel; a plain function makes two.
    c = check(f"""
        package main

        import "sync"

        var _ sync.Mutex // the import is used either way

        func main() {{
            get := {make}
            done := make(chan bool)
            go func() {{
                get() <- 1
                done <- true
            }}()
            <-get()
            <-done
        }}
        """)
    assert c.verdict == verdict


def test_compare_and_swap_on_an_atomic_bool_never_stored_finds_it_false():
    # Only the first closer wins: the zero Bool is false, so exactly one swap succeeds.
    c = check("""
        package main

        import "sync/atomic"

        type notifier struct {
            closed atomic.Bool
            done   chan struct{}
        }

        func (n *notifier) stop() {
            if n.closed.CompareAndSwap(false, true) {
                close(n.done)
            }
        }

        func main() {
            n := &notifier{done: make(chan struct{})}
            go n.stop()
            go n.stop()
            <-n.done
        }
        """)
    assert c.verdict == "ok", report_lines(c)


@pytest.mark.parametrize("cancelled, want", [(True, "ok"), (False, "global-deadlock")])
def test_context_cause_is_nil_until_the_context_is_done(cancelled, want):
    first = 'cancel(errors.New("stop"))' if cancelled else "_ = errors.New"
    c = check(f"""
        package main

        import (
            "context"
            "errors"
        )

        func main() {{
            ctx, cancel := context.WithCancelCause(context.Background())
            {first}
            if context.Cause(ctx) == nil {{
                block := make(chan int)
                <-block
            }}
            cancel(nil)
        }}
        """)
    assert c.verdict == want, report_lines(c)


def test_go_cancel_and_go_close_run_as_goroutines_of_their_own():
    ok = check("""
        package main

        import "context"

        func main() {
            ch := make(chan int)
            go close(ch)
            <-ch
            ctx, cancel := context.WithCancel(context.Background())
            go cancel()
            <-ctx.Done()
        }
        """)
    assert ok.verdict == "ok", report_lines(ok)
    twice = check("""
        package main

        func main() {
            d := make(chan int)
            go close(d)
            go close(d)
            <-d
        }
        """)
    assert twice.verdict == "channel-safety", report_lines(twice)


ITERATORS = """
    package main

    import (
        "maps"
        "slices"
        "sync"
    )

    func main() {
        chans := map[string]chan int{"a": make(chan int), "b": make(chan int)}
        var wg sync.WaitGroup
        for _, name := range slices.Sorted(maps.Keys(chans)) {
            wg.Add(1)
            go func() {
                defer wg.Done()
                <-chans[name]
            }()
        }
        for ch := range maps.Values(chans) {
            close(ch)
        }
        wg.Wait()
        list := []chan int{make(chan int, 1), make(chan int, 1)}
        for i, ch := range slices.Backward(list) {
            ch <- i
        }
        for _, ch := range slices.All(list) {
            <-ch
        }
        for ch := range slices.Values(list) {
            ch <- 1
            break
        }
        <-list[0]
        LAST
    }
    """


@pytest.mark.parametrize("last, want", [("", "ok"), ("<-list[1]", "global-deadlock")])
def test_ranges_over_the_standard_librarys_iterators_yield_each_item_until_a_break(
        last, want):
    c = check(ITERATORS.replace("LAST", last))
    assert c.verdict == want, report_lines(c)


STRINGER = """
    package main

    import (
        "fmt"
        "sync"
    )

    type T struct {
        mu *sync.Mutex
    }

    func (t T) String() string {
        t.mu.Lock()
        defer t.mu.Unlock()
        return "t"
    }

    type E struct{ ch chan int }

    func (e *E) Error() string {
        e.ch <- 1
        return "e"
    }

    func main() {
        t := T{mu: &sync.Mutex{}}
        fmt.Printf("%v %s\\n", t, &t)
        var err error = &E{ch: make(chan int, 1)}
        fmt.Println("x", err)
        <-err.(*E).ch
        HOLD
        _ = fmt.Sprint(&t)
    }
    """


@pytest.mark.parametrize("hold, want", [("", "ok"), ("t.mu.Lock()", "global-deadlock")])
def test_fmt_runs_the_string_and_error_methods_of_what_it_prints(hold, want):
    # GoBench's cockroach#6181: a String method takes the read lock its caller holds.
    c = check(STRINGER.replace("HOLD", hold))
    assert c.verdict == want, report_lines(c)


def test_a_leak_is_found_while_an_unseen_timer_could_still_fire():
    # GoBench's moby#33781, reduced: main returns through the ready stop case and leaves
    # its time.After armed; that timer's firing changes nothing anyone sees, so the state
    # is as stuck as one with no step: a leak, not a global deadlock (main has returned).
    c = check("""
        package main

        import "time"

        func main() {
            results := make(chan bool)
            stop := make(chan bool, 1)
            go func() {
                results <- true
            }()
            stop <- true
            select {
            case <-stop:
            case <-results:
            case <-time.After(time.Second):
            }
        }
        """)
    assert c.verdict == "partial-deadlock", report_lines(c)
    assert c.result.findings[0].message.startswith("main returns"), report_lines(c)


READER_HANDED_OVER = """
    package main

    import "io"

    type reader struct{ c chan bool }

    func (r *reader) Read(p []byte) (int, error) {
        <-r.c
        return 0, nil
    }

    func main() {
        var rd io.Reader = &reader{c: make(chan bool)}
        go func() {
            CALL
        }()
    }
    """


def test_a_library_handed_a_value_whose_method_communicates_is_followed_into_it():
    # GoBench's grpc#1275, reduced: io.ReadFull calls a Read that blocks on a channel
    # nobody sends on, so the goroutine leaks; its model calls the Read in sight.
    c = check(READER_HANDED_OVER.replace("CALL", "io.ReadFull(rd, make([]byte, 1))"))
    assert c.verdict == "partial-deadlock", report_lines(c)
    assert "line 8: blocked: receive from .c" in "\n".join(report_lines(c))


def test_a_library_without_a_model_handed_a_value_whose_method_communicates_is_unsupported():
    # The reader io.TeeReader makes would call the program's Read out of sight.
    c = check(READER_HANDED_OVER.replace("CALL", "io.TeeReader(rd, nil)"))
    assert c.verdict == "unsupported", report_lines(c)
    assert "io.TeeReader is handed a *reader whose method Read communicates" in \
        report_lines(c)[0]


def test_a_library_handed_a_value_whose_methods_only_compute_runs_as_before():
    c = check("""
        package main

        import "sort"

        type byLen []string

        func (b byLen) Len() int           { return len(b) }
        func (b byLen) Less(i, j int) bool { return len(b[i]) < len(b[j]) }
        func (b byLen) Swap(i, j int)      { b[i], b[j] = b[j], b[i] }

        func main() {
            done := make(chan bool)
            go func() {
                sort.Sort(byLen{"ccc", "a", "bb"})
                done <- true
            }()
            <-done
        }
        """)
    assert c.verdict == "ok", report_lines(c)


# Go strings are plain Python strings in the checker's values, and a slice's items or a
# struct's fields a plain tuple: a first item "chan" or "map" must not read as a tag.


def test_strings_that_read_like_internal_tags_are_data():
    c = check("""
        package main

        func main() {
            words := []string{"chan", "select"}
            ch := make(chan string)
            go func() { ch <- words[0] }()
            <-ch
        }
        """)
    assert c.verdict == "ok", report_lines(c)


def test_a_change_to_a_slice_whose_first_item_reads_like_a_tag_is_seen():
    c = check("""
        package main

        func main() {
            words := []string{"map", "a"}
            tick, stop := make(chan int), make(chan int)
            go func() {
                for {
                    tick <- 0
                }
            }()
            for {
                <-tick
                if words[1] == "b" {
                    go func() { stop <- 1 }()
                    return
                }
                words[1] = "b"
            }
        }
        """)
    assert c.verdict == "partial-deadlock", report_lines(c)


def test_a_map_keyed_by_a_string_that_reads_like_a_tag_holds_its_channel():
    c = check("""
        package main

        func main() {
            chans := map[string]chan int{"chan": make(chan int, 1), "?": make(chan int)}
            chans["chan"] <- 1
            go func() { chans["?"] <- <-chans["chan"] }()
            <-chans["?"]
        }
        """)
    assert c.verdict == "ok", report_lines(c)


def test_map_keys_made_by_sprintf_and_itoa_are_known():
    c = check("""
        package main

        import (
            "fmt"
            "strconv"
        )

        func main() {
            m := map[string]int{}
            for i := 0; i < 3; i++ {
                m[fmt.Sprintf("web-%d", i)] = i
                m["db-"+strconv.Itoa(i)] = i
            }
            ch := make(chan int)
            if len(m) != 6 {
                <-ch
            }
        }
        """)
    assert c.verdict == "ok", report_lines(c)


def test_a_goroutine_whose_next_step_is_unsupported_is_not_blocked_for_ever():
    # main returns with a ticker left running (the states loop) while the worker's next
    # step is a sort the checker cannot follow: that path ends there, unknown, and is no
    # proof that the worker waits for ever (benbjohnson/clock's tests were said to leak).
    c = check("""
        package main

        import (
            "sort"
            "time"
        )

        func main() {
            done := make(chan bool, 1)
            ch := make(chan int, 10)
            go func() {
                done <- true
                xs := []int{2, 1}
                sort.Slice(xs, func(i, j int) bool { ch <- 1; return xs[i] < xs[j] })
            }()
            tick := time.NewTicker(time.Second)
            select {
            case <-done:
            case <-tick.C:
            }
        }
        """)
    assert c.verdict == "unsupported", report_lines(c)
    assert not c.result.findings


def test_a_lock_of_a_mutex_the_checker_cannot_follow_is_unsupported_not_a_deadlock():
    # concurrent-map picks a shard's mutex by a hash of the key: the checker cannot tell
    # which, and the goroutine was left with no step, "blocked" on the Lock; that global
    # deadlock outranked the unsupported and was reported in 22 single-goroutine tests.
    c = check("""
        package main

        import (
            "os"
            "sync"
        )

        func main() {
            mus := make([]sync.Mutex, 4)
            i := os.Getpid() % 4
            mus[i].Lock()
            mus[i].Unlock()
        }
        """)
    assert c.verdict == "unsupported", report_lines(c)
    assert not c.result.findings


def test_a_method_of_a_generic_types_instance_is_called_through_an_interface():
    # ttlcache's options: Option[K, V] is an interface whose apply is a method of
    # optionFunc[K, V]. An instance of a generic type is no package's member, so its
    # methods were missing from the tables and the call was unsupported.
    c = check("""
        package main

        type options[V any] struct{ done chan V }

        type Option[V any] interface{ apply(o *options[V]) }

        type optionFunc[V any] func(o *options[V])

        func (f optionFunc[V]) apply(o *options[V]) { f(o) }

        func withDone[V any](ch chan V) Option[V] {
            return optionFunc[V](func(o *options[V]) { o.done = ch })
        }

        func main() {
            ch := make(chan int, 1)
            var o options[int]
            for _, opt := range []Option[int]{withDone(ch)} {
                opt.apply(&o)
            }
            o.done <- 1
            <-ch
        }
        """)
    assert c.verdict == "ok", report_lines(c)


SHARDS = """
    package main

    import "sync"

    func fnv32(key string) uint32 {
        hash := uint32(2166136261)
        const prime32 = uint32(16777619)
        for i := 0; i < len(key); i++ {
            hash *= prime32
            hash ^= uint32(key[i])
        }
        return hash
    }

    type shard struct {
        sync.Mutex
        items map[string]int
    }

    func main() {
        shards := make([]*shard, 32)
        for i := range shards {
            shards[i] = &shard{items: map[string]int{}}
        }
        get := func(k string) *shard { return shards[fnv32(k)%32] }
        a, b := get("alpha"), get(OTHER)
        a.Lock()
        b.Lock()
        b.Unlock()
        a.Unlock()
    }
    """


@pytest.mark.parametrize("other, want", [
    ('"beta"', "ok"),  # shard 23, alpha's is 27 (go run)
    ('"k21"', "global-deadlock"),  # shard 27 too: Go's "all goroutines are asleep"
])
def test_a_shard_picked_by_a_hash_of_a_known_key_is_that_shard(other, want):
    # concurrent-map and bigcache pick a shard's mutex by a hash of the key: with the
    # hash's arithmetic unknown, every Lock was of a mutex the checker could not follow.
    c = check(SHARDS.replace("OTHER", other))
    assert c.verdict == want, report_lines(c)


UNKNOWN_KEYS = """
    package main

    import "os"

    type worker struct{ done chan bool }

    func main() {
        m := map[int]*worker{}
        w := &worker{done: make(chan bool)}
        m[len(os.Args)%7] = w // a key the checker cannot tell
        for _, x := range m {
            go func() { x.done <- true }()
        }
        RECEIVE
    }
    """


@pytest.mark.parametrize("receive, want", [("<-w.done", "ok"),
                                           ("", "partial-deadlock")])
def test_a_value_stored_under_a_key_the_checker_cannot_tell_is_ranged_over(receive, want):
    # GoBench's cockroach#3710 keys replicas by their addresses: the values were dropped,
    # the range gave unknown replicas, and the lock the bug is about could not be followed.
    c = check(UNKNOWN_KEYS.replace("RECEIVE", receive))
    assert c.verdict == want, report_lines(c)


def test_two_goroutines_asking_the_cpu_count_get_the_one_the_run_has():
    # The second stopped to choose the count before the first chose it: the checker
    # crashed on its stale choice (conc's iter tests).
    c = check("""
        package main

        import (
            "runtime"
            "sync"
        )

        func main() {
            var wg sync.WaitGroup
            wg.Add(2)
            for i := 0; i < 2; i++ {
                go func() {
                    defer wg.Done()
                    _ = runtime.GOMAXPROCS(0)
                }()
            }
            wg.Wait()
        }
        """)
    assert c.verdict == "ok", report_lines(c)


def test_a_loop_whose_way_out_is_unsupported_blames_no_goroutine():
    # The loop is left in Go, into a step the checker cannot follow; cut there, the loop
    # looked like a bottom cycle with the other goroutine blocked for ever (ttlcache's and
    # cron's tests, their loops on time values the checker does not know).
    c = check("""
        package main

        import (
            "sort"
            "sync"
            "time"
        )

        type byLock struct {
            mu *sync.Mutex
            xs []int
        }

        func (b byLock) Len() int      { return len(b.xs) }
        func (b byLock) Swap(i, j int) { b.xs[i], b.xs[j] = b.xs[j], b.xs[i] }
        func (b byLock) Less(i, j int) bool {
            b.mu.Lock()
            defer b.mu.Unlock()
            return b.xs[i] < b.xs[j]
        }

        func main() {
            ch := make(chan int)
            go func() { <-ch }()
            for time.Now().Unix() < 0 {
            }
            sort.Sort(byLock{&sync.Mutex{}, []int{2, 1}})
            ch <- 1
        }
        """)
    assert c.verdict == "unsupported", report_lines(c)
    assert not c.result.findings


def test_a_function_type_is_asserted_whatever_its_results_are_named():
    # Go's type identity ignores parameter and result names; the checker compared the
    # types' text, so pond's `func() (output any, err error)` tasks never ran.
    c = check("""
        package main

        import "sync"

        func mk(wg *sync.WaitGroup) func() (n int, err error) {
            return func() (int, error) { wg.Done(); return 0, nil }
        }

        func main() {
            var wg sync.WaitGroup
            wg.Add(1)
            var task any = mk(&wg)
            if f, ok := task.(func() (int, error)); ok {
                f()
            }
            wg.Wait()
        }
        """)
    assert c.verdict == "ok", report_lines(c)

"""gocheck on standard-library calls real programs make around their goroutines: signals
(os/signal), sync.Pool, sorts and searches by a function of the program's, a library's error
variables and unsafe's views of memory."""

from __future__ import annotations

import textwrap

import pytest

from runners.gocheck.check import check_source, report_lines

pytestmark = pytest.mark.usefixtures("go_frontend")


def check(body: str):
    return check_source(textwrap.dedent(body).lstrip())


SERVER = """
    package main

    import (
        "os"
        "os/signal"
        "syscall"
    )

    func main() {
        done := make(chan struct{})
        jobs := make(chan int)
        go func() {
            defer close(done)
            for range jobs {
            }
        }()
        sigs := make(chan os.Signal, 1)
        signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM)
        <-sigs
        CLOSE
        <-done
    }
    """


def test_a_program_waiting_for_a_signal_is_not_deadlocked_but_what_follows_is_checked():
    # Go's deadlock detector never fires while a program waits for a signal: a signal may
    # come at any moment. After it, main waits for a worker nobody stops.
    c = check(SERVER.replace("CLOSE", "close(jobs)"))
    assert c.verdict == "ok", report_lines(c)
    c = check(SERVER.replace("CLOSE", ""))
    assert c.verdict == "global-deadlock", report_lines(c)
    assert any(s.text.startswith("receive from sigs") for s in c.result.findings[0].trace)


NOTIFY_CONTEXT = """
    package main

    import (
        "context"
        "os"
        "os/signal"
    )

    func main() {
        ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
        defer stop()
        ticks := make(chan int)
        go func() {
            for i := 0; ; i++ {
                select {
                case ticks <- i:
                case <-QUIT:
                    return
                }
            }
        }()
        select {
        case <-ticks:
        case <-ctx.Done():
        }
    }
    """


@pytest.mark.parametrize("quit, want", [("ctx.Done()", "ok"),
                                        ("make(chan int)", "partial-deadlock")])
def test_signal_notify_context_is_done_once_a_signal_comes(quit, want):
    # Main returns after a tick or a signal; a ticker that watches the context is let go
    # (by a signal or by stop), one that does not is left sending for ever.
    c = check(NOTIFY_CONTEXT.replace("QUIT", quit))
    assert c.verdict == want, report_lines(c)


def test_sync_pool_get_calls_new_and_put_keeps_nothing():
    c = check("""
        package main

        import "sync"

        var slots = sync.Pool{New: func() any { return make(chan int, 1) }}

        func main() {
            a := slots.Get().(chan int)
            a <- 1
            slots.Put(a)
            b := slots.Get().(chan int) // a new channel: Go may have dropped a
            b <- 2
            <-b
            var empty sync.Pool
            if empty.Get() != nil {
                <-b
            }
        }
        """)
    assert c.verdict == "ok", report_lines(c)


SORT = """
    package main

    import "sort"

    func main() {
        results := make(chan int, 3)
        for i := 0; i < 3; i++ {
            go func() { results <- 3 - i }()
        }
        var all []int
        for i := 0; i < 3; i++ {
            all = append(all, <-results)
        }
        sort.Slice(all, func(i, j int) bool { LESS })
        if len(all) != 3 {
            <-results
        }
    }
    """


def test_sort_slice_by_a_comparison_that_only_compares_is_followed():
    c = check(SORT.replace("LESS", "return all[i] < all[j]"))
    assert c.verdict == "ok", report_lines(c)


def test_sort_slice_by_a_comparison_that_communicates_is_unsupported():
    c = check(SORT.replace("LESS", "results <- 1; return all[i] < all[j]"))
    assert c.verdict == "unsupported", report_lines(c)
    assert any("sort.Slice with a comparison that communicates" in line
               for line in report_lines(c))


def test_library_objects_that_hold_only_the_librarys_own_functions_are_harmless():
    # A *bufio.Scanner's type holds a function (its split function), but the scanner
    # bufio made holds none of the program's: its Scan cannot touch the program's
    # channels. Lines of input (unknown, any number) go to a consumer.
    c = check("""
        package main

        import (
            "bufio"
            "os"
        )

        func main() {
            lines := make(chan string)
            go func() {
                defer close(lines)
                sc := bufio.NewScanner(os.Stdin)
                for sc.Scan() {
                    lines <- sc.Text()
                }
            }()
            n := 0
            for range lines {
                n++
            }
        }
        """)
    assert c.verdict == "ok", report_lines(c)


@pytest.mark.parametrize("call, why", [
    # A predicate that communicates: the library would run it unseen.
    ("strings.FieldsFunc(\"a,b\", func(r rune) bool { seps <- r; return r == ',' })",
     "strings.FieldsFunc with a function that does more than compute"),
    # A library the checker has no model of, calling the program's function.
    ("slices.EqualFunc([]int{1}, []int{1}, func(a, b int) bool { return a == b })",
     "is handed a channel, function or sync object"),
])
def test_a_library_handed_a_function_of_the_programs_is_unsupported(call, why):
    c = check(f"""
        package main

        import (
            "slices"
            "strings"
        )

        func main() {{
            seps := make(chan rune, 1)
            _, _ = slices.Index[[]int], strings.Index
            {call}
            seps <- ','
        }}
        """)
    assert c.verdict == "unsupported", report_lines(c)
    assert any(why in line for line in report_lines(c)), report_lines(c)


POOL_OF_CPUS = """
    package main

    import (
        "runtime"
        "sync"
    )

    func main() {
        jobs := make(chan int)
        done := make(chan int, ROOM)
        var wg sync.WaitGroup
        for w := 0; w < runtime.NumCPU(); w++ {
            wg.Add(1)
            go func() {
                defer wg.Done()
                for j := range jobs {
                    _ = j * j
                }
                done <- 1 // nobody reads: room for ROOM
            }()
        }
        for i := 0; i < 5; i++ {
            jobs <- i
        }
        close(jobs)
        if runtime.GOMAXPROCS(0) > 0 {
            wg.Wait()
        }
    }
    """


def test_a_pool_of_num_cpu_workers_has_at_least_one():
    # Unknown, NumCPU() could be 0: no worker, and the jobs were said to leak.
    c = check(POOL_OF_CPUS.replace("ROOM", "4"))
    assert c.verdict == "ok", report_lines(c)
    assert "runtime.NumCPU() and GOMAXPROCS(0) were taken as 1, 2 or 4" in report_lines(c)


def test_a_bug_shown_by_more_cpus_than_room_is_found():
    c = check(POOL_OF_CPUS.replace("ROOM", "2"))
    assert c.verdict == "global-deadlock", report_lines(c)
    assert c.result.findings[0].trace[0].text == "the run has 4 CPUs"


@pytest.mark.parametrize("body, what", [
    # An os.Pipe's Write waits for a Read once its buffer is full (io.Pipe and net.Pipe
    # are modelled: test_pipes.py).
    ('pr, pw, _ := os.Pipe()\nfmt.Fprint(pw, "hello")\npr.Close()',
     "os.Pipe (not modelled: its reads and writes block)"),
    # reflect's Recv blocks on the program's channel, handed over as `any`.
    ("ch := make(chan int)\nreflect.ValueOf(ch).Recv()",
     "reflect.ValueOf is handed a channel, function or sync object"),
    # A MultiWriter calls the writer's Write, which sends (fmt.Fprintf's and bufio's
    # calls of it are followed: test_pipes.py).
    ('w := &sender{c: make(chan string)}\nio.MultiWriter(w).Write(nil)',
     "io.MultiWriter is handed a *sender whose method Write communicates"),
])
def test_library_code_that_may_block_on_the_programs_behalf_is_unsupported_not_ok(body, what):
    source = """
        package main

        import (
            "fmt"
            "io"
            "os"
            "reflect"
        )

        type sender struct{ c chan string }

        func (s *sender) Write(p []byte) (int, error) {
            s.c <- string(p)
            return len(p), nil
        }

        func main() {
            BODY
            _, _, _, _ = fmt.Sprint, io.EOF, os.Exit, reflect.ValueOf
        }
        """
    c = check(source.replace("BODY", body.replace("\n", "\n            ")))
    assert c.verdict == "unsupported", report_lines(c)
    assert any(what in line for line in report_lines(c)), report_lines(c)


def test_a_pointer_to_a_field_reaches_no_sibling_channel():
    # The library gets &s.buf only: the channel beside it is out of its reach.
    c = check("""
        package main

        import "bytes"

        type server struct {
            buf  bytes.Buffer
            done chan bool
        }

        func main() {
            s := &server{done: make(chan bool, 1)}
            s.buf.WriteString("hello")
            s.done <- true
            <-s.done
        }
        """)
    assert c.verdict == "ok", report_lines(c)


def test_sort_slice_of_a_slice_of_unknown_length_leaves_it_as_it_is():
    c = check("""
        package main

        import (
            "os"
            "sort"
        )

        func main() {
            keys := make([]string, len(os.Args))
            copy(keys, os.Args)
            sort.Slice(keys, func(i, j int) bool { return keys[i] < keys[j] })
        }
        """)
    assert c.verdict == "ok", report_lines(c)


@pytest.mark.parametrize("less, want", [
    ("cap(chans[i]) < cap(chans[j])", "ok"),  # the order is known: followed
    ("false", "unsupported"),  # all equal: pdqsort's order is its own
])
def test_sort_slice_of_channels_is_followed_only_in_a_known_order(less, want):
    c = check(f"""
        package main

        import "sort"

        func main() {{
            chans := []chan int{{make(chan int, 1), make(chan int, 2)}}
            sort.Slice(chans, func(i, j int) bool {{ return {less} }})
            chans[0] <- 1
        }}
        """)
    assert c.verdict == want, report_lines(c)
    assert (want == "unsupported") == any(
        "sort.Slice of channels, functions or sync objects" in line for line in report_lines(c))


INDEX = """
    package main

    import (
        "bufio"
        "strings"
    )

    const index = `# pages
    about.md
    blog.md

    # more
    contact.md
    EXTRA`

    func main() {
        pages := make(chan string, 3)
        sc := bufio.NewScanner(strings.NewReader(index))
        for sc.Scan() {
            line := strings.TrimSpace(sc.Text())
            if line == "" || strings.HasPrefix(line, "#") {
                continue
            }
            pages <- line // nobody receives: room for three
        }
    }
    """


@pytest.mark.parametrize("extra, want", [("", "ok"), ("faq.md", "global-deadlock")])
def test_a_scanner_over_a_literal_reads_its_lines(extra, want):
    # Unknown, the lines could be any number: four pages would be said to block even for
    # the literal of three.
    c = check(INDEX.replace("EXTRA", extra))
    assert c.verdict == want, report_lines(c)


CANCEL_ONCE = """
    package main

    import (
        "context"
        "io"
        "sync"
    )

    type canceller struct {
        mu   sync.Mutex
        err  error
        done chan struct{}
    }

    func (c *canceller) cancel(err error) {
        c.mu.Lock()
        defer c.mu.Unlock()
        if c.err != nil {
            return
        }
        c.err = ERR
        close(c.done)
    }

    func main() {
        c := &canceller{done: make(chan struct{})}
        go c.cancel(context.Canceled)
        c.cancel(io.EOF)
        <-c.done
    }
    """


def test_a_librarys_error_variables_are_not_nil():
    # io.EOF and context.Canceled are set by their packages' initialisation, which the
    # checker does not run. Taken as unknown, `c.err != nil` went both ways after a
    # cancel stored one, and the second cancel closed the closed channel (a false
    # channel-safety seen in benbjohnson/clock's own tests).
    c = check(CANCEL_ONCE.replace("ERR", "err"))
    assert c.verdict == "ok", report_lines(c)
    # A nil error stored is nil: the second cancel really does close the channel again.
    c = check(CANCEL_ONCE.replace("ERR", "nil"))
    assert c.verdict == "channel-safety", report_lines(c)


UNSAFE_VIEW = """
    package main

    import (
        "fmt"
        "unsafe"
    )

    func main() {
        s := "hello"
        b := unsafe.Slice(unsafe.StringData(s), len(s))
        ch := make(chan byte, 1)
        ch <- *unsafe.SliceData(b)
        fmt.Println(<-ch, unsafe.String(unsafe.SliceData(b), 2))
        VIEW
    }
    """


def test_unsafe_views_of_plain_data_are_followed_and_of_channels_unsupported():
    # groupcache's ByteView and zero-copy string conversions: byte-level views whose
    # target is unknown, harmless while it holds no channel, function or sync object.
    c = check(UNSAFE_VIEW.replace("VIEW", ""))
    assert c.verdict == "ok", report_lines(c)
    c = check(UNSAFE_VIEW.replace("VIEW", "fmt.Println(unsafe.SliceData([]chan int{ch2}))")
              .replace("ch := make", "ch2 := make(chan int)\n    ch := make"))
    assert c.verdict == "unsupported", report_lines(c)
    assert "unsafe.SliceData over channels" in c.result.unsupported[0][0]


PREDICATES = """
    package main

    import (
        "slices"
        "sort"
        "strings"
    )

    type job struct{ id int }

    func main() {
        jobs := []job{{1}, {2}, {3}}
        ch := make(chan job, 1)
        if slices.ContainsFunc(jobs, func(j job) bool { return j.id == 2 }) {
            ch <- jobs[1]
        }
        i := slices.IndexFunc(jobs, func(j job) bool { return j.id == 3 })
        k := sort.Search(len(jobs), func(i int) bool { return jobs[i].id >= 2 })
        f := strings.TrimFunc("  ab ", func(r rune) bool { return r == ' ' })
        <-ch
        if i != I || k != 1 || f != "ab" {
            <-ch
        }
    }
    """


@pytest.mark.parametrize("index, want", [("2", "ok"), ("1", "global-deadlock")])
def test_a_library_handed_a_predicate_that_only_computes_gives_its_real_answer(index, want):
    # slices.ContainsFunc and the like were unsupported; an unknown answer instead would
    # send main down the branch that never sends (a false deadlock). The predicate runs
    # as the library runs it: IndexFunc finds the third job, so `i != 1` blocks (as Go
    # does, checked with go run).
    c = check(PREDICATES.replace("I ||", f"{index} ||"))
    assert c.verdict == want, report_lines(c)


def test_a_predicate_that_writes_what_it_did_not_allocate_runs_in_the_model():
    # It does more than compute, so the library's loop runs as plain Go the checker follows
    # (toolchains/gocheck/shims/slices_funcs.go.txt): it is called once an item, n is 2,
    # and the second send finds the buffer full (Go: a deadlock in every run).
    c = check("""
        package main

        import "slices"

        func main() {
            n := 0
            xs := []int{1, 2}
            _ = slices.IndexFunc(xs, func(x int) bool { n++; return false })
            ch := make(chan int, 1)
            for i := 0; i < n; i++ {
                ch <- i
            }
        }
        """)
    assert c.verdict == "global-deadlock", report_lines(c)


def test_a_strings_function_handed_a_predicate_that_writes_is_unsupported():
    c = check("""
        package main

        import "strings"

        func main() {
            n := 0
            _ = strings.IndexFunc("ab", func(r rune) bool { n++; return false })
            ch := make(chan int, 1)
            ch <- n
            <-ch
        }
        """)
    assert c.verdict == "unsupported", report_lines(c)
    assert "does more than compute" in c.result.unsupported[0][0]


@pytest.mark.parametrize("split", [
    'strings.Fields("* * * * * ?")',
    'strings.Split("*,*,*,*,*,?", ",")',
    'strings.FieldsFunc("*;*;*;*;*;?", func(r rune) bool { return r == \';\' })',
])
def test_a_spec_split_into_fields_has_as_many_as_go_finds(split):
    # robfig/cron's parser counts a spec's fields: unknown, the count went both ways and
    # its error path, where no job is scheduled, left the test waiting for a tick.
    c = check(f"""
        package main

        import "strings"

        func main() {{
            tick := make(chan bool, 1)
            if fields := {split}; len(fields) == 6 && fields[5] == "?" {{
                tick <- true
            }}
            <-tick
        }}
        """)
    assert c.verdict == "ok", report_lines(c)


@pytest.mark.parametrize("parsed", [
    'k, _, _ := strings.Cut("a=1", "="); ok := k == "a"',
    'n, err := strconv.Atoi("42"); ok := err == nil && n == 42',
    '_, err := strconv.Atoi("4x"); ok := err != nil',
    'v, found := strings.CutPrefix("v1", "v"); ok := found && v == "1"',
    'ok := strings.Join([]string{"a", "b"}, ",") == "a,b"',
    'd, err := time.ParseDuration("1m30s"); ok := err == nil && d == 90*time.Second',
])
def test_text_parsed_from_a_constant_takes_one_branch(parsed):
    # Unknown, these results went both ways: a test's t.Fatalf on a key strings.Cut
    # never gets wrong skipped a worker's wg.Done, a deadlock the test does not have.
    c = check(f"""
        package main

        import (
            "strconv"
            "strings"
            "time"
        )

        var _, _, _ = strconv.Itoa, strings.Count, time.Sleep

        func main() {{
            never := make(chan bool)
            {parsed}
            if !ok {{
                <-never
            }}
        }}
        """)
    assert c.verdict == "ok", report_lines(c)


@pytest.mark.parametrize("reverse, want", [(True, "ok"), (False, "global-deadlock")])
def test_slices_reverse_reorders_a_slice_of_functions(reverse, want):
    # Shutdown hooks run last registered first: unsupported before (a library handed
    # functions); the order decides, as Go shows (the second hook fills the buffer the
    # first one drains).
    c = check(f"""
        package main

        import "slices"

        func main() {{
            c := make(chan int, 1)
            hooks := []func(){{func() {{ <-c }}, func() {{ c <- 1 }}}}
            if {str(reverse).lower()} {{
                slices.Reverse(hooks)
            }}
            for _, h := range hooks {{
                h()
            }}
        }}
        """)
    assert c.verdict == want, report_lines(c)


SORTED_WORKERS = """
    package main

    import (
        "cmp"
        "slices"
        "sort"
    )

    type worker struct {
        load  int
        queue chan int
    }

    func main() {
        ws := []*worker{{2, make(chan int)}, {0, make(chan int, 1)}, {1, make(chan int)}}
        SORT
        ws[0].queue <- 1 // only the least loaded has room
        _, _, _ = cmp.Compare[int], sort.Slice, slices.Reverse[[]int]
    }
    """


@pytest.mark.parametrize("sort, want", [
    ("slices.SortFunc(ws, func(a, b *worker) int { return cmp.Compare(a.load, b.load) })",
     "ok"),
    ("slices.SortFunc(ws, func(a, b *worker) int { return b.load - a.load })",
     "global-deadlock"),
    ("sort.Slice(ws, func(i, j int) bool { return ws[i].load < ws[j].load })", "ok"),
    ("slices.SortStableFunc(ws, func(a, b *worker) int { return 0 })", "global-deadlock"),
])
def test_a_sort_by_a_known_comparison_puts_the_items_in_go_s_order(sort, want):
    # The items were made unknown by any sort: a least-loaded pick after one was
    # unsupported. A comparison the checker computes gives the order Go's sort gives
    # (no two different items equal, or a stable sort).
    c = check(SORTED_WORKERS.replace("SORT", sort))
    assert c.verdict == want, report_lines(c)


def test_a_sort_with_ties_between_different_items_stays_unknown():
    # pdqsort may leave equal items in an order of its own.
    c = check(SORTED_WORKERS.replace(
        "SORT", "slices.SortFunc(ws, func(a, b *worker) int { return 0 })"))
    assert c.verdict == "unsupported", report_lines(c)


HASHERS = """
    package main

    import "hash/fnv"

    type Hasher interface{ Sum64(string) uint64 }

    type own struct{ seen chan string }

    func (o own) Sum64(key string) uint64 {
        BODY
        return uint64(len(key))
    }

    func main() {
        var h Hasher = own{seen: make(chan string, 1)}
        lib := fnv.New64a()
        lib.Write([]byte("k"))
        done := make(chan uint64, 1)
        done <- lib.Sum64() + h.Sum64("k")
        <-done
    }
    """


@pytest.mark.parametrize("body, want", [("", "ok"), ("o.seen <- key", "unsupported")])
def test_a_method_of_a_library_value_may_share_its_name_with_one_that_computes(body, want):
    # bigcache's fnv64a.Sum64 only computes: hash/fnv's Sum64, called on a value the
    # checker does not know, could be it and change nothing. One that communicates
    # could be run unseen.
    c = check(HASHERS.replace("BODY", body))
    assert c.verdict == want, report_lines(c)


SENTINELS = """
    package main

    import (
        "errors"
        "time"
    )

    var ErrStopped = errors.New("stopped")
    var ErrFull = errors.New("full")

    func submit() error { return ErrStopped }

    func main() {
        ch := make(chan int)
        err := submit()
        if COND {
            <-ch
        }
    }
    """


@pytest.mark.parametrize("cond, want", [
    ("err == ErrFull", "ok"),  # another sentinel: never equal
    ("err != ErrStopped", "ok"),  # the same one: always equal
    ("errors.Is(err, ErrFull)", "ok"),
    ("!errors.Is(err, ErrStopped)", "ok"),
    ("errors.Is(nil, ErrStopped)", "ok"),
    ("time.Duration(1).Nanoseconds() <= 0", "ok"),
    ("time.Duration(2500000).Milliseconds() != 2", "ok"),
    ("err == ErrStopped", "global-deadlock"),
])
def test_sentinel_errors_and_durations_are_what_go_says(cond, want):
    # pond compares with ErrQueueFull, suture asks errors.Is, clockwork a Duration's
    # Nanoseconds: each was unknown, so the branch that never runs was taken too.
    c = check(SENTINELS.replace("COND", cond).replace(
        "err := submit()", "err := submit()\n        _, _ = err, time.Second"))
    assert c.verdict == want, report_lines(c)


WRAPS = """
    package main

    import (
        "context"
        "errors"
        "fmt"
        "io"
    )

    var ErrStop = errors.New("stop")
    var ErrFull = errors.New("full")

    func main() {
        ch := make(chan int)
        ctx, cancel := context.WithCancel(context.Background())
        cancel()
        <-ctx.Done()
        err := fmt.Errorf("worker %d: %w", 3, ErrStop)
        twice := fmt.Errorf("again: %w", err)
        _, _ = twice, io.EOF
        if COND {
            <-ch
        }
    }
    """


@pytest.mark.parametrize("cond, want", [
    ("!errors.Is(err, ErrStop)", "ok"),
    ("!errors.Is(twice, ErrStop)", "ok"),
    ("errors.Is(err, ErrFull)", "ok"),
    ("!errors.Is(twice, err)", "ok"),
    ("errors.Is(ctx.Err(), ErrStop) || errors.Is(io.EOF, ErrStop)", "ok"),
    ('errors.Is(fmt.Errorf("plain %d", 1), ErrStop)', "ok"),
    ("errors.Is(err, io.EOF)", "global-deadlock"),  # whether io.EOF is ErrStop: unknown
])
def test_errors_is_follows_what_fmt_errorf_wraps(cond, want):
    # suture restarts a service unless errors.Is(err, ErrDoNotRestart): a library's error
    # or a wrap of another sentinel went both ways there, and the test waited for a
    # restart that never came.
    c = check(WRAPS.replace("COND", cond))
    assert c.verdict == want, report_lines(c)


WRITES = """
    package main

    import (
        "errors"
        "fmt"
        "io"
        "strings"
    )

    type codeErr struct{ code int }

    func (e *codeErr) Error() string { return "code" }

    type config struct{ Workers int }

    func main() {
        ch := make(chan int)
        var n int
        var cfg config
        var ce *codeErr
        buf := make([]byte, 1)
        parts := []string{"a"}
        _ = strings.Join(parts, ",")
        CALL
        _, _, _, _, _ = n, cfg, ce, buf, io.EOF
        _ = errors.New
        _ = fmt.Sprint
        if COND {
            ch <- 1 // nobody receives: a deadlock exactly when COND holds
        }
    }
    """


@pytest.mark.parametrize("call, cond, want", [
    ('fmt.Sscan("3", &n)', "n != 0", "global-deadlock"),
    ('fmt.Sscanf("w=4", "w=%d", &cfg.Workers)', "cfg.Workers > 0", "global-deadlock"),
    ('_, e := io.ReadFull(strings.NewReader(""), buf); _ = errors.As(e, &ce)', "ce != nil",
     "global-deadlock"),  # an error of the library's: what As found in it is unknown
    ('_, _ = io.ReadFull(strings.NewReader("x"), buf)', "buf[0] != 0", "global-deadlock"),
    ('fmt.Println(&n, &cfg)', "n != 0 || cfg.Workers != 0", "ok"),  # printing only reads
    ('_ = strings.Join(parts, "")', 'parts[0] != "a"', "ok"),  # so does Join
])
def test_what_a_library_call_writes_through_a_pointer_is_unknown(call, cond, want):
    # With `n` kept at 0 after fmt.Sscan wrote 3 into it, a loop of n sends never ran and
    # the checker reported a receiver blocked for ever that the program never leaves.
    c = check(WRITES.replace("CALL", call).replace("COND", cond))
    assert c.verdict == want, report_lines(c)


FILLS = """
    package main

    import (
        "encoding/json"
        "maps"
        "net/http"
        "slices"
    )

    type box struct {
        M map[string]int
        S []int
    }

    func main() {
        ch := make(chan int)
        seen := map[string]int{}
        nums := []int{0}
        b := box{M: seen, S: nums}
        h := http.Header{}
        alias := h
        CALL
        _, _, _, _, _ = b, alias, maps.Clone[map[string]int], slices.Clone[[]int], json.Valid
        if COND {
            ch <- 1 // nobody receives: a deadlock exactly when COND holds
        }
    }
    """


@pytest.mark.parametrize("call, cond, want", [
    # json.Unmarshal adds to the map it finds in a field, and appends into the slice's
    # array while its capacity lasts: both alias the program's own.
    ('_ = json.Unmarshal([]byte(`{"M": {"a": 1}}`), &b)', "len(seen) != 0",
     "global-deadlock"),
    ('_ = json.Unmarshal([]byte(`{"S": [5]}`), &b)', "nums[0] != 0", "global-deadlock"),
    ('h.Set("k", "v")', "len(alias) != 0", "global-deadlock"),  # a map as the receiver
    ('_ = json.Unmarshal([]byte(`{}`), &b)', 'seen["a"] == 0 && len(seen) == 0',
     "global-deadlock"),  # a vague map: what it holds may be as it was
    ("_ = maps.Clone(seen)", "len(seen) != 0", "ok"),  # reading it only
    ("_ = slices.Clone(nums)", "nums[0] != 0", "ok"),
    ('_, _ = json.Marshal(&b)', "len(seen) != 0 || nums[0] != 0", "ok"),
])
def test_what_a_library_call_writes_into_a_map_or_slice_it_reaches_is_unknown(call, cond,
                                                                               want):
    # A map the program still holds, filled by json.Unmarshal through a struct's field,
    # stayed empty for the checker: a branch on what it holds went one way only, and the
    # deadlock the program does have on the other went unreported.
    c = check(FILLS.replace("CALL", call).replace("COND", cond))
    assert c.verdict == want, report_lines(c)


TARGETS = """
    package main

    import (
        "errors"
        "fmt"
        "strconv"
    )

    type codeErr struct{ code int }

    func (e *codeErr) Error() string { return "code" }

    type otherErr struct{}

    func (otherErr) Error() string { return "other" }

    type wrapper struct{ err error }

    func (w wrapper) Error() string { return "wrapper" }
    func (w wrapper) Unwrap() error { return w.err }

    func main() {
        ch := make(chan int)
        var ce *codeErr
        var oe otherErr
        err := fmt.Errorf("step %d: %w", 1, &codeErr{2})
        twice := fmt.Errorf("again: %w", err)
        _, parse := strconv.Atoi("x")
        _, _, _, _, _ = twice, parse, otherErr{}, oe, ce
        if COND {
            ch <- 1 // nobody receives: a deadlock exactly when COND holds
        }
    }
    """


@pytest.mark.parametrize("cond, want", [
    ("!errors.As(err, &ce) || ce.code != 2", "ok"),
    ("!errors.As(twice, &ce) || ce.code != 2", "ok"),
    ("errors.As(otherErr{}, &ce)", "ok"),
    ("errors.As(twice, &oe)", "ok"),
    ("errors.As(fmt.Errorf(\"x: %w\", otherErr{}), &oe)", "global-deadlock"),  # a value type
    ('errors.As(errors.New("x"), &ce) || errors.As(nil, &ce)', "ok"),
    ("errors.As(err, &ce) && ce.code == 2", "global-deadlock"),
    ("errors.As(parse, &ce)", "global-deadlock"),  # a library's error: unknown
    ("errors.As(wrapper{err}, &ce)", "global-deadlock"),  # its own Unwrap: unknown
])
def test_errors_as_finds_the_program_s_error_in_the_chain(cond, want):
    # A retry loop asks errors.As whether the error is its own retryable one: answered
    # both ways, a retry that cannot happen looked like one that waits for ever.
    c = check(TARGETS.replace("COND", cond))
    assert c.verdict == want, report_lines(c)


COPIES = """
    package main

    import (
        "maps"
        "os"
    )

    func main() {
        src := map[string]int{"a": 1, "b": 2}
        dst := map[string]int{"b": 5}
        COPY
        ch := make(chan int)
        go func() {
            for range 2 {
                <-ch
            }
        }()
        for _, v := range dst {
            ch <- v
        }
        _ = os.Args
    }
    """


@pytest.mark.parametrize("copy, want", [
    ("maps.Copy(dst, src)", "ok"),  # a and b: two sends for two receives
    ('src["c"] = 3; maps.Copy(dst, src)', "global-deadlock"),  # a third send nobody takes
    ("maps.Copy(dst, map[string]int{}); _ = src", "partial-deadlock"),  # b alone
    # Into a nil map: Go panics before any goroutine starts.
    ("var none map[string]int; maps.Copy(none, src)", "ok"),
])
def test_maps_copy_stores_each_entry_of_the_source(copy, want):
    # maps.Copy did nothing in the checker: ranging over the copy sent once where the
    # program sends twice, and the receiver waiting for the second looked blocked for ever.
    c = check(COPIES.replace("COPY", copy))
    assert c.verdict == want, report_lines(c)


CONTEXT_ERRORS = """
    package main

    import (
        "context"
        "errors"
        "time"
    )

    func main() {
        ch := make(chan int)
        timed, stop := context.WithTimeout(context.Background(), time.Millisecond)
        defer stop()
        child, cancelChild := context.WithCancel(timed)
        defer cancelChild()
        own, cancel := context.WithCancel(context.Background())
        cancel()
        <-timed.Done()
        <-child.Done()
        _, _ = errors.Is, own
        if COND {
            <-ch
        }
    }
    """


@pytest.mark.parametrize("cond, want", [
    ("!errors.Is(timed.Err(), context.DeadlineExceeded)", "ok"),
    ("timed.Err() == context.Canceled", "ok"),
    ("!errors.Is(child.Err(), context.DeadlineExceeded)", "ok"),  # its parent's deadline
    ("own.Err() != context.Canceled", "ok"),
    ("errors.Is(own.Err(), context.DeadlineExceeded)", "ok"),
    ("errors.Is(own.Err(), context.Canceled)", "global-deadlock"),
])
def test_a_done_context_s_err_says_what_ended_it(cond, want):
    # A test that checks `errors.Is(err, context.DeadlineExceeded)` after its timeout and
    # only closes what its workers wait on when it does: Err was some error, the check
    # went both ways, and its t.Fatalf way left a worker blocked, a false leak. A parent's
    # deadline that ends the child as well gives it the same error (Go 1.26, run).
    c = check(CONTEXT_ERRORS.replace("COND", cond))
    assert c.verdict == want, report_lines(c)

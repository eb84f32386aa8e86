"""gocheck on programs whose goroutine and item counts come from the input: a list parsed
from an environment variable, sized channels and WaitGroup counts taken from its length,
and a channel picked from a slice by a hash of a key. A length the checker cannot tell is
taken as at most `instructions.len_bound` (more than every count the program states), and a
number an instruction needs exactly is chosen among its few values. Each buggy program
was run with Go first (ITEMS="a b c d e" blocks it; fewer items do not where said)."""

from __future__ import annotations

import textwrap

import pytest

from runners.gocheck.check import check_source, report_lines

pytestmark = pytest.mark.usefixtures("go_frontend")


def check(body: str):
    return check_source(textwrap.dedent(body).lstrip())


def bounded_note(c) -> str:
    return next((n for n in c.result.notes if "cannot tell (of a list" in n), "")


def test_a_goroutine_per_input_item_joined_by_a_waitgroup_is_ok():
    # The commonest fan-out of all: every length of the list was a deeper unrolling of
    # the loop, so the search never ended (undecided).
    c = check("""
        package main

        import (
            "os"
            "strings"
            "sync"
        )

        func main() {
            items := strings.Fields(os.Getenv("ITEMS"))
            var wg sync.WaitGroup
            var mu sync.Mutex
            total := 0
            for _, it := range items {
                wg.Add(1)
                go func() {
                    defer wg.Done()
                    mu.Lock()
                    total += len(it)
                    mu.Unlock()
                }()
            }
            wg.Wait()
            println(total)
        }
        """)
    assert c.verdict == "ok", report_lines(c)
    assert "at most 3" in bounded_note(c)


@pytest.mark.parametrize("size, want", [(4, "global-deadlock"), (9, "global-deadlock")])
def test_a_buffer_overflowed_by_the_input_is_found_past_its_size(size, want):
    # Up to 4 items fit a buffer of 4; the fifth blocks main. The bound follows the
    # program's counts (5 here), so that the overflow is within it; with a buffer of 9
    # the counts pass LEN_BOUND_UP_TO and lengths stay unbounded, as before the bound.
    c = check(f"""
        package main

        import (
            "os"
            "strings"
        )

        func main() {{
            items := strings.Fields(os.Getenv("ITEMS"))
            out := make(chan string, {size})
            for _, it := range items {{
                out <- it
            }}
            close(out)
            for x := range out {{
                println(x)
            }}
        }}
        """)
    assert c.verdict == want, report_lines(c)
    assert ("at most 5" in bounded_note(c)) if size == 4 else not bounded_note(c)


@pytest.mark.parametrize("extra, want", [("", "ok"), (" + 1", "global-deadlock")])
def test_waitgroup_add_of_the_lists_length_counts_its_goroutines(extra, want):
    # WaitGroup.Add with a count the checker could not tell was unsupported; each length
    # up to the bound is a way the run goes now, and the loop over the list agrees with it.
    c = check(f"""
        package main

        import (
            "os"
            "strings"
            "sync"
        )

        func main() {{
            addrs := strings.Fields(os.Getenv("ADDRS"))
            var wg sync.WaitGroup
            wg.Add(len(addrs){extra})
            for range addrs {{
                go wg.Done()
            }}
            wg.Wait()
        }}
        """)
    assert c.verdict == want, report_lines(c)
    assert bounded_note(c)


@pytest.mark.parametrize("size, want", [("len(items)", "ok"),
                                        ("len(items)-1", "global-deadlock")])
def test_a_channel_sized_by_the_input_holds_one_send_per_item(size, want):
    # make(chan T, len(list)) was unsupported (a buffer size not a known constant). One
    # less than the list's length blocks the last send (strings.Split gives one item or
    # more; a size of -1 would panic).
    c = check(f"""
        package main

        import (
            "os"
            "strings"
        )

        func main() {{
            items := strings.Split(os.Getenv("ITEMS"), ",")
            results := make(chan string, {size})
            for _, it := range items {{
                results <- it
            }}
            close(results)
            for range results {{
            }}
        }}
        """)
    assert c.verdict == want, report_lines(c)


@pytest.mark.parametrize("cap, want", [(1, "ok"), (0, "global-deadlock")])
def test_a_key_hashed_to_a_shard_channel_picks_each_shard(cap, want):
    # shards[len(key)%2]: an index into a slice of channels the checker could not tell
    # (a load it could not follow); each of its two values is a way the run goes.
    c = check(f"""
        package main

        import "os"

        func main() {{
            shards := []chan string{{make(chan string, {cap}), make(chan string, 1)}}
            key := os.Getenv("KEY")
            shards[len(key)%2] <- key
        }}
        """)
    assert c.verdict == want, report_lines(c)


def test_an_index_the_checker_cannot_bound_stays_unsupported():
    # A pid's remainder is 0 to 3 in Go, but the checker knows no bound of a pid: it
    # does not guess which channel.
    c = check("""
        package main

        import "os"

        func main() {
            shards := []chan int{make(chan int, 1), make(chan int, 1)}
            shards[os.Getpid()%2] <- 1
        }
        """)
    assert c.verdict == "unsupported", report_lines(c)


def test_a_program_with_known_lengths_has_no_bound_note():
    c = check("""
        package main

        func main() {
            items := []string{"a", "b"}
            done := make(chan bool)
            for range items {
                go func() { done <- true }()
            }
            for range items {
                <-done
            }
        }
        """)
    assert c.verdict == "ok", report_lines(c)
    assert not bounded_note(c)


@pytest.mark.parametrize("cap, want", [(1, "ok"), (0, "global-deadlock")])
def test_a_hash_of_the_key_picks_a_shard_among_all(cap, want):
    # An unsigned hash the checker cannot tell is still never negative: its remainder by
    # 2 is 0 or 1, an index it can branch on (it was unknown, a load it could not follow).
    c = check(f"""
        package main

        import (
            "hash/fnv"
            "os"
        )

        func main() {{
            shards := []chan string{{make(chan string, {cap}), make(chan string, 1)}}
            key := os.Getenv("KEY")
            h := fnv.New32a()
            h.Write([]byte(key))
            shards[int(h.Sum32()%2)] <- key
        }}
        """)
    assert c.verdict == want, report_lines(c)


@pytest.mark.parametrize("closer, want", [
    ("go func() { wg.Wait(); close(out) }()", "ok"),
    ("wg.Wait(); close(out)", "global-deadlock"),  # the senders wait for main's receive
])
def test_a_goroutine_per_line_of_standard_input(closer, want):
    # A Scanner over os.Stdin finds a line the checker cannot read, or none, up to the
    # bound: it was a loop unrolled for ever (undecided).
    c = check(f"""
        package main

        import (
            "bufio"
            "fmt"
            "os"
            "sync"
        )

        func main() {{
            sc := bufio.NewScanner(os.Stdin)
            var wg sync.WaitGroup
            out := make(chan int)
            for sc.Scan() {{
                line := sc.Text()
                wg.Add(1)
                go func() {{
                    defer wg.Done()
                    out <- len(line)
                }}()
            }}
            {closer}
            total := 0
            for n := range out {{
                total += n
            }}
            fmt.Println(total)
        }}
        """)
    assert c.verdict == want, report_lines(c)
    assert bounded_note(c)


@pytest.mark.parametrize("drain, want", [("for range n { <-results }", "ok"),
                                         ("<-results", "partial-deadlock")])
def test_a_worker_count_parsed_from_the_environment_is_small(drain, want):
    # strconv.Atoi of text the checker cannot read was any number: a loop of n goroutines
    # never ended, and make(chan int, n) was unsupported.
    c = check(f"""
        package main

        import (
            "os"
            "strconv"
        )

        func main() {{
            n, err := strconv.Atoi(os.Getenv("WORKERS"))
            if err != nil || n < 1 {{
                n = 2
            }}
            results := make(chan int)
            for i := range n {{
                go func() {{ results <- i }}()
            }}
            {drain}
        }}
        """)
    assert c.verdict == want, report_lines(c)
    assert bounded_note(c)


def test_a_slice_made_as_long_as_the_input_list_is_as_long():
    # make([]T, len(items)) was a slice of unknown length: a range over it sent a count
    # unrelated to the list's, past the channel sized by the list (a false deadlock).
    c = check("""
        package main

        import (
            "os"
            "strings"
            "sync"
        )

        func main() {
            items := strings.Fields(os.Getenv("ITEMS"))
            results := make([]string, len(items))
            var wg sync.WaitGroup
            for i, it := range items {
                wg.Add(1)
                go func() {
                    defer wg.Done()
                    results[i] = strings.ToUpper(it)
                }()
            }
            wg.Wait()
            out := make(chan string, len(items))
            for _, r := range results {
                out <- r
            }
            close(out)
            for range out {
            }
        }
        """)
    assert c.verdict == "ok", report_lines(c)


@pytest.mark.parametrize("count, want", [("len(os.Args) - 1", "ok"),
                                         ("len(os.Args)", "global-deadlock")])
def test_the_arguments_after_the_command_are_one_fewer(count, want):
    # os.Args[1:] of a list the checker could not tell was a list of its own: its range
    # and os.Args' length were unrelated counts.
    c = check(f"""
        package main

        import (
            "fmt"
            "os"
            "sync"
        )

        func main() {{
            var wg sync.WaitGroup
            wg.Add({count})
            for _, a := range os.Args[1:] {{
                go func() {{
                    defer wg.Done()
                    fmt.Println(a)
                }}()
            }}
            wg.Wait()
        }}
        """)
    assert c.verdict == want, report_lines(c)


def test_an_input_list_appended_to_is_one_longer():
    c = check("""
        package main

        import (
            "os"
            "strings"
        )

        func main() {
            hosts := append(strings.Fields(os.Getenv("HOSTS")), "localhost")
            done := make(chan bool, len(hosts))
            for range hosts {
                done <- true
            }
            if len(done) != len(hosts) || len(hosts) < 1 {
                <-make(chan int) // never: one send per host, the list one longer
            }
        }
        """)
    assert c.verdict == "ok", report_lines(c)


@pytest.mark.parametrize("spawn, want", [
    ("for k := range seen", "ok"),
    # A goroutine per argument, duplicates too, but len(seen) receives: with a duplicate
    # one sender is left when main returns.
    ("for _, k := range os.Args[1:]", "partial-deadlock"),
])
def test_a_set_of_the_inputs_has_as_many_keys_as_a_range_visits(spawn, want):
    # The keys of a set built from the arguments may repeat: a range over it and its len
    # were unrelated counts (a false leak), and duplicates were never tried (a bug missed).
    c = check(f"""
        package main

        import "os"

        func main() {{
            seen := map[string]bool{{}}
            for _, a := range os.Args[1:] {{
                seen[a] = true
            }}
            out := make(chan string)
            {spawn} {{
                go func() {{ out <- k }}()
            }}
            for i := 0; i < len(seen); i++ {{
                <-out
            }}
        }}
        """)
    assert c.verdict == want, report_lines(c)


def test_split_by_a_separator_gives_one_item_at_least():
    # strings.Split("", ",") is [""]: main's one receive always has a sender (with the
    # bound off: a buffer of 16 is a count past it).
    c = check("""
        package main

        import (
            "os"
            "strings"
        )

        func main() {
            ch := make(chan string, 16)
            parts := strings.Split(os.Getenv("SOURCES"), ",")
            if len(parts) > 16 {
                return
            }
            for _, p := range parts {
                go func() { ch <- p }()
            }
            println(<-ch)
        }
        """)
    assert c.verdict == "ok", report_lines(c)


@pytest.mark.parametrize("cap, want", [(2, "ok"), (1, "global-deadlock")])
def test_a_key_hashed_to_a_shard_struct_reaches_its_channel(cap, want):
    # The shards are pointers to structs holding a channel: an index the checker could
    # not tell gave an unknown pointer, and its channel could not be followed. Two keys
    # fit a shard of 2; two keys hashed to one shard of 1 block main.
    c = check(f"""
        package main

        import (
            "hash/fnv"
            "os"
        )

        type shard struct{{ in chan string }}

        func main() {{
            shards := []*shard{{{{in: make(chan string, {cap})}}, {{in: make(chan string, {cap})}}}}
            if len(os.Args) > 3 {{
                return
            }}
            for _, key := range os.Args[1:] {{
                h := fnv.New32a()
                h.Write([]byte(key))
                shards[h.Sum32()%2].in <- key
            }}
        }}
        """)
    assert c.verdict == want, report_lines(c)


@pytest.mark.parametrize("batches, want", [("(len(items) + size - 1) / size", "ok"),
                                           ("len(items) / size", "global-deadlock")])
def test_batches_of_an_input_list_are_counted_as_go_counts_them(batches, want):
    # A quotient and a min of the list's length were unknown (a buffer size not a known
    # constant); the length is chosen there, so they are numbers again. Rounding down
    # leaves the last, short batch no room (with 1, 3 or 5 items).
    c = check(f"""
        package main

        import (
            "os"
            "strings"
            "sync"
        )

        func main() {{
            items := strings.Fields(os.Getenv("ITEMS"))
            const size = 2
            out := make(chan int, {batches})
            var wg sync.WaitGroup
            for i := 0; i < len(items); i += size {{
                end := min(i+size, len(items))
                wg.Add(1)
                go func() {{
                    defer wg.Done()
                    out <- len(items[i:end])
                }}()
            }}
            wg.Wait()
            close(out)
            for range out {{
            }}
        }}
        """)
    assert c.verdict == want, report_lines(c)

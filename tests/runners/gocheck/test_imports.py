"""gocheck on files that import packages outside the standard library (fetched through the
Go module proxy and interpreted from source with the file) and the standard library's
plain data structures (container/list, ring, heap: interpreted from source, so what they
hold is known)."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from runners.gocheck.check import check_file, check_source, report_lines

pytestmark = pytest.mark.usefixtures("go_frontend")


def check(body: str):
    return check_source(textwrap.dedent(body).lstrip())


ERRGROUP = """
    package main

    import (
        "context"
        "fmt"

        "golang.org/x/sync/errgroup"
    )

    func main() {
        g, ctx := errgroup.WithContext(context.Background())
        results := make(chan int, ROOM)
        for i := 0; i < 3; i++ {
            g.Go(func() error {
                select {
                case results <- i:
                case <-ctx.Done():
                    return ctx.Err()
                }
                return nil
            })
        }
        fmt.Println(<-results) // the first result only
        if err := g.Wait(); err != nil {
            fmt.Println(err)
        }
    }
    """


def test_an_errgroup_whose_tasks_block_after_the_first_result_deadlocks_in_wait():
    # Nothing cancels ctx until a task fails or Wait returns: two tasks stay blocked on
    # their send and Wait waits for them.
    c = check(ERRGROUP.replace("ROOM", "0"))
    assert c.verdict == "global-deadlock", report_lines(c)
    stuck = {s.text: s for s in c.result.findings[0].stuck}
    # Main waits inside errgroup's Wait: the step names errgroup's file, not a line of ours.
    wait = stuck["blocked: WaitGroup.Wait"]
    assert wait.file == "golang.org/x/sync/errgroup/errgroup.go" and wait.line > 0
    assert f"    main: {wait.file}:{wait.line}: blocked: WaitGroup.Wait" in report_lines(c)
    assert c.program.modules and c.program.modules[0].startswith("golang.org/x/sync v")
    assert any(line.startswith("checked with the modules: golang.org/x/sync v")
               for line in report_lines(c))


def test_an_errgroup_whose_tasks_have_room_for_their_results_is_ok():
    c = check(ERRGROUP.replace("ROOM", "3"))
    assert c.verdict == "ok", report_lines(c)


SEMAPHORE = """
    package main

    import (
        "context"
        "sync"

        "golang.org/x/sync/semaphore"
    )

    func main() {
        sem := semaphore.NewWeighted(2)
        var wg sync.WaitGroup
        for i := 0; i < 3; i++ {
            wg.Add(1)
            go func() {
                defer wg.Done()
                if err := sem.Acquire(context.Background(), 1); err != nil {
                    return
                }
                RELEASE
            }()
        }
        wg.Wait()
    }
    """


@pytest.mark.parametrize("release, want", [("sem.Release(1)", "ok"),
                                           ("if i == 0 { sem.Release(1) }", "global-deadlock")])
def test_a_weighted_semaphore_blocks_its_third_taker_until_a_release(release, want):
    # semaphore.Weighted queues its waiters in a container/list: interpreted, the list's
    # elements are known, so a released waiter is woken (no false deadlock) and one never
    # released is not.
    c = check(SEMAPHORE.replace("RELEASE", release))
    assert c.verdict == want, report_lines(c)


def test_channels_queued_in_a_container_list_are_followed():
    c = check("""
        package main

        import "container/list"

        func main() {
            q := list.New()
            for i := 0; i < 3; i++ {
                q.PushBack(make(chan int, 1))
            }
            for e := q.Front(); e != nil; e = e.Next() {
                e.Value.(chan int) <- 1
            }
            last := q.Remove(q.Back()).(chan int)
            <-last
            <-last
        }
        """)
    assert c.verdict == "global-deadlock", report_lines(c)
    assert c.program.modules == ()


def test_an_import_no_module_provides_is_bad_input():
    c = check("""
        package main

        import "chanfuzz.invalid/nothing/here"

        func main() { here.Run() }
        """)
    assert c.verdict == "bad-input"
    assert "chanfuzz.invalid/nothing/here" in c.error


GOLEAK = """
    package worker

    import (
        "testing"

        "go.uber.org/goleak"
    )

    func start(jobs <-chan int, out chan<- int) {
        for j := range jobs {
            out <- j * 2
        }
    }

    func TestWorker(t *testing.T) {
        defer goleak.VerifyNone(t)
        jobs := make(chan int)
        out := make(chan int)
        go start(jobs, out)
        CLOSE
        jobs <- 1
        if <-out != 2 {
            t.Fatal("doubled wrong")
        }
    }
    """


@pytest.mark.parametrize("close, want", [("", "partial-deadlock"),
                                         ("defer close(jobs)", "ok")])
def test_goleak_in_a_test_is_what_the_checker_does_itself(close, want):
    # goleak reads runtime.Stack, which the checker cannot follow; its calls do nothing,
    # and the leak it looks for is the checker's partial deadlock.
    c = check(GOLEAK.replace("CLOSE", close))
    assert c.verdict == want, report_lines(c)
    # Only the modules of the packages loaded: not the rest of goleak's module graph.
    assert len(c.program.modules) == 1
    assert c.program.modules[0].startswith("go.uber.org/goleak v")


def test_an_internal_test_file_is_checked_with_its_packages_other_files(tmp_path):
    # pool_test.go calls the package's unexported code: alone, every name is undefined.
    (tmp_path / "pool.go").write_text(textwrap.dedent("""
        package pool

        type pool struct{ jobs chan func() }

        func newPool(workers int) *pool {
            p := &pool{jobs: make(chan func())}
            for i := 0; i < workers; i++ {
                go func() {
                    for job := range p.jobs {
                        job()
                    }
                }()
            }
            return p
        }

        func (p *pool) stop() { STOP }
        """).lstrip().replace("STOP", "close(p.jobs)"))
    (tmp_path / "other.go").write_text("package other\n")  # another package: left out
    test = tmp_path / "pool_test.go"
    test.write_text(textwrap.dedent("""
        package pool

        import "testing"

        func TestPool(t *testing.T) {
            p := newPool(2)
            done := make(chan bool)
            p.jobs <- func() { done <- true }
            <-done
            p.stop()
        }
        """).lstrip())
    c = check_file(test)
    assert c.verdict == "ok", report_lines(c)
    assert c.program.package_files == ("pool.go",)
    assert "checked with its package's other files: pool.go" in report_lines(c)
    (tmp_path / "pool.go").write_text((tmp_path / "pool.go").read_text().replace(
        "close(p.jobs)", ""))
    leaky = check_file(test)  # the package file changed: not the cached answer
    assert leaky.verdict == "partial-deadlock", report_lines(leaky)
    # A step in the package's other file names that file as it is called.
    assert any(s.where.startswith("pool.go:") for f in leaky.result.findings
               for s in (*f.trace, *f.stuck)), report_lines(leaky)


def test_helpers_of_another_test_file_of_the_package_are_loaded_but_not_its_tests(
        tmp_path):
    # eapache/channels' infinite_channel_test.go calls testChannel, which
    # channels_test.go holds: `go test` compiles a package's test files together.
    (tmp_path / "queue.go").write_text("package queue\n\nfunc newQueue() chan int "
                                       "{ return make(chan int, 1) }\n")
    (tmp_path / "helpers_test.go").write_text(textwrap.dedent("""
        package queue

        import "testing"

        func roundTrip(t *testing.T, ch chan int) {
            ch <- 1
            <-ch
        }

        func TestHelpersOwn(t *testing.T) {
            <-make(chan int) // a deadlock, but not a test of the file checked
        }
        """).lstrip())
    (tmp_path / "helpers_windows_test.go").write_text(
        "package queue\n\nfunc roundTrip() {} // not built on Linux: no redeclaration\n")
    test = tmp_path / "queue_test.go"
    test.write_text(textwrap.dedent("""
        package queue

        import "testing"

        func TestQueue(t *testing.T) {
            roundTrip(t, newQueue())
        }
        """).lstrip())
    c = check_file(test)
    assert c.verdict == "ok", report_lines(c)
    assert [t.rsplit(".", 1)[-1] for t in c.program.tests] == ["TestQueue"]
    assert c.program.package_files == ("helpers_test.go", "helpers_windows_test.go",
                                       "queue.go")


TESTIFY = """
    package worker

    import (
        "testing"

        "github.com/stretchr/testify/assert"
        "github.com/stretchr/testify/require"
    )

    func TestResults(t *testing.T) {
        results := make(chan int, ROOM)
        for i := 0; i < 3; i++ {
            go func() { results <- i * i }()
        }
        sum := 0
        for i := 0; i < 2; i++ { // one result is never read
            sum += <-results
        }
        require.NotZero(t, sum+1)
        a := assert.New(t)
        a.GreaterOrEqual(sum, 0)
        assert.Len(t, []int{sum}, 1, "one sum")
        CHECK
    }
    """


@pytest.mark.parametrize("room, want", [("1", "ok"), ("0", "partial-deadlock")])
def test_testify_assertions_do_nothing_the_leak_is_the_checkers(room, want):
    c = check(TESTIFY.replace("ROOM", room).replace("CHECK", ""))
    assert c.verdict == want, report_lines(c)


def test_a_testify_assertion_that_runs_a_function_of_the_programs_is_unsupported():
    # One testify runs unseen, with no model of what it does with the function.
    c = check(TESTIFY.replace("ROOM", "1").replace(
        "CHECK", "assert.Condition(t, func() bool { return <-results > 0 })"))
    assert c.verdict == "unsupported", report_lines(c)
    assert any("assert.Condition runs a function of the program's" in line
               for line in report_lines(c))


TESTIFY_RUNS = """
    package worker

    import (
        "testing"
        "time"

        "github.com/stretchr/testify/assert"
        "github.com/stretchr/testify/require"
    )

    func TestRuns(t *testing.T) {
        ch := make(chan int)
        close(ch)
        assert.Panics(t, func() { close(ch) })   // recovered by testify: no violation
        require.NotPanics(t, func() { _ = len(ch) })
        sig := make(chan struct{})
        SIGNAL
        require.Eventually(t, func() bool { <-sig; return true }, time.Second,
            10*time.Millisecond)
    }
    """


@pytest.mark.parametrize("signal, want", [
    ("close(sig)", "ok"),
    # testify runs the condition in a goroutine each tick; one that waits for ever is
    # left behind when the deadline fails the test.
    ("", "partial-deadlock"),
])
def test_testify_eventually_and_panics_run_as_testify_runs_them(signal, want):
    # They were unsupported (they run the test's functions); plain-Go models of them
    # (toolchains/gocheck/shims/testify.go.txt) join the checked package.
    c = check(TESTIFY_RUNS.replace("SIGNAL", signal))
    assert c.verdict == want, report_lines(c)
    assert "gocheck_testify.go" not in c.program.package_files


def _module(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(textwrap.dedent(text).lstrip())


SERVICE = {
    # A module no proxy has, whose packages import an internal one of its own.
    "go.mod": "module example.com/svc\n\ngo 1.22\n",
    "internal/queue/queue.go": """
        package queue

        func New(n int) chan int { return make(chan int, n) }
        """,
    "worker/worker.go": """
        package worker

        import "example.com/svc/internal/queue"

        type Worker struct{ jobs chan int }

        func Start() *Worker {
            w := &Worker{jobs: queue.New(1)}
            go func() {
                for range w.jobs {
                }
            }()
            return w
        }

        func (w *Worker) Stop() { STOP }
        """,
}


@pytest.mark.parametrize("stop, want", [("close(w.jobs)", "ok"), ("", "partial-deadlock")])
def test_a_file_in_a_module_is_checked_with_the_modules_own_packages(tmp_path, stop, want):
    # An internal test may import the module's internal packages, and an external one
    # the package it tests: neither is on the proxy (nor should a published copy stand
    # in for the checkout). Both were bad input. A test of a command calls its main.go.
    files = dict(SERVICE, **{"worker/worker.go": SERVICE["worker/worker.go"].replace(
        "STOP", stop)})
    files["worker/worker_test.go"] = """
        package worker

        import (
            "testing"

            "example.com/svc/internal/queue"
        )

        func TestInternal(t *testing.T) {
            w := Start()
            w.jobs <- len(queue.New(0))
            w.Stop()
        }
        """
    files["worker/api_test.go"] = """
        package worker_test

        import (
            "testing"

            "example.com/svc/worker"
        )

        func TestExternal(t *testing.T) {
            w := worker.Start()
            worker.JobsOf(w) <- 1
            w.Stop()
        }
        """
    # What the package's own tests give its external ones: built with the package.
    files["worker/export_test.go"] = """
        package worker

        func JobsOf(w *Worker) chan int { return w.jobs }
        """
    files["cmd/run/main.go"] = """
        package main

        import "example.com/svc/worker"

        func main() { run() }

        func run() { worker.Start().Stop() }
        """
    files["cmd/run/main_test.go"] = """
        package main

        import "testing"

        func TestRun(t *testing.T) { run() } // run is main.go's
        """
    _module(tmp_path, files)
    before = sorted(tmp_path.rglob("*"))
    for test in ("worker/worker_test.go", "worker/api_test.go", "cmd/run/main.go",
                 "cmd/run/main_test.go"):
        c = check_file(tmp_path / test)
        assert c.verdict == want, report_lines(c)
        assert c.program.module == str(tmp_path.resolve())
        assert f"checked inside its module, {tmp_path.resolve()}" in report_lines(c)
    assert sorted(tmp_path.rglob("*")) == before, "the checkout is left as it was"


def test_a_step_in_a_generic_function_of_a_package_file_names_that_file(tmp_path):
    # An instance of a generic function has no package of its own in Go's SSA: its
    # steps were given as the test file's lines.
    (tmp_path / "box.go").write_text(textwrap.dedent("""
        package box

        type Box[V any] struct{ ch chan V }

        func New[V any]() *Box[V] { return &Box[V]{ch: make(chan V)} }

        func (b *Box[V]) Get() V { return <-b.ch }
        """).lstrip())
    test = tmp_path / "box_test.go"
    test.write_text(textwrap.dedent("""
        package box

        import "testing"

        func TestGet(t *testing.T) {
            New[int]().Get()
        }
        """).lstrip())
    c = check_file(test)
    assert c.verdict == "global-deadlock", report_lines(c)
    assert [s.where for s in c.result.findings[0].stuck] == ["box.go:7: "]

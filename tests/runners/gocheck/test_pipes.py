"""gocheck on io.Pipe and net.Pipe: their plain-Go models (toolchains/gocheck/shims) run
in the library's place, so a write that waits for a read, or a read that waits for a
close, is seen; what the models do not cover is unsupported, never taken as harmless."""

from __future__ import annotations

import textwrap

import pytest

from runners.gocheck.check import check_source, report_lines

pytestmark = pytest.mark.usefixtures("go_frontend")


def check(body: str):
    return check_source(textwrap.dedent(body).lstrip())


# ReadAll returns at the writer's Close; without it, it waits for ever (Go: "all
# goroutines are asleep").
READ_ALL = """
    package main

    import (
        "fmt"
        "io"
    )

    func main() {
        r, w := io.Pipe()
        go func() {
            fmt.Fprint(w, "hello")
            CLOSE
        }()
        b, err := io.ReadAll(r)
        if err != nil {
            panic(err)
        }
        fmt.Println(string(b))
    }
    """


@pytest.mark.parametrize("close, verdict", [("w.Close()", "ok"),
                                            ("// no Close", "global-deadlock")])
def test_read_all_waits_for_the_writers_close(close, verdict):
    c = check(READ_ALL.replace("CLOSE", close))
    assert c.verdict == verdict, report_lines(c)


# A write returns once reads have taken all of it: a 5-byte header and the body are
# read apart, and a reader that stops after the header leaves the writer blocked.
CHUNKS = """
    package main

    import (
        "fmt"
        "io"
    )

    func main() {
        r, w := io.Pipe()
        sent := make(chan int)
        go func() {
            n, _ := w.Write([]byte("hello world"))
            sent <- n
        }()
        head := make([]byte, 5)
        if _, err := io.ReadFull(r, head); err != nil {
            panic(err)
        }
        body := make([]byte, 6)
        READ
        if n := <-sent; n != 11 {
            panic(n)
        }
        fmt.Println(string(head), string(body))
    }
    """


@pytest.mark.parametrize("read, verdict", [("io.ReadFull(r, body)", "ok"),
                                           ("// the body is not read", "global-deadlock")])
def test_a_write_returns_once_reads_took_all_of_it(read, verdict):
    c = check(CHUNKS.replace("READ", read))
    assert c.verdict == verdict, report_lines(c)


# A line server over net.Pipe: each end reads what the other writes, and a reply
# nobody reads blocks the server while main waits for it.
SERVER = """
    package main

    import (
        "bufio"
        "fmt"
        "net"
    )

    func serve(conn net.Conn, done chan<- int) {
        defer conn.Close()
        sc := bufio.NewScanner(conn)
        n := 0
        for sc.Scan() {
            if sc.Text() == "quit" {
                break
            }
            fmt.Fprintf(conn, "ok %s\\n", sc.Text())
            n++
        }
        done <- n
    }

    func main() {
        client, server := net.Pipe()
        done := make(chan int)
        go serve(server, done)
        r := bufio.NewReader(client)
        for _, cmd := range []string{"get", "put"} {
            fmt.Fprintln(client, cmd)
            READ
        }
        fmt.Fprintln(client, "quit")
        if n := <-done; n != 2 {
            panic(n)
        }
        client.Close()
    }
    """


@pytest.mark.parametrize("read, verdict", [
    ("if _, err := r.ReadString('\\n'); err != nil {\n                panic(err)\n            }",
     "ok"),
    ("_ = r // the reply is not read", "global-deadlock"),
])
def test_net_pipe_ends_read_what_the_other_writes(read, verdict):
    c = check(SERVER.replace("READ", read))
    assert c.verdict == verdict, report_lines(c)


def test_a_goroutine_copying_from_a_pipe_nobody_closes_leaks():
    c = check("""
        package main

        import (
            "bytes"
            "io"
        )

        func main() {
            r, w := io.Pipe()
            var buf bytes.Buffer
            go func() {
                io.Copy(&buf, r)
            }()
            w.Write([]byte("x"))
        }
        """)
    assert c.verdict == "partial-deadlock", report_lines(c)


def test_closing_the_reader_fails_the_writes_still_to_come():
    c = check("""
        package main

        import (
            "bufio"
            "fmt"
            "io"
        )

        func main() {
            r, w := io.Pipe()
            done := make(chan error, 1)
            go func() {
                var err error
                for _, l := range []string{"one", "end", "two"} {
                    if _, err = fmt.Fprintln(w, l); err != nil {
                        break
                    }
                }
                w.Close()
                done <- err
            }()
            sc := bufio.NewScanner(r)
            for sc.Scan() && sc.Text() != "end" {
            }
            r.Close()
            if <-done == nil {
                panic("the write after end succeeded")
            }
        }
        """)
    assert c.verdict == "ok", report_lines(c)


@pytest.mark.parametrize("body, what", [
    # A read that times out would be taken for one blocked for ever.
    ("a, b := net.Pipe()\na.SetReadDeadline(time.Now())\n_ = b",
     "net.Pipe's deadlines (not modelled)"),
    # The reader it makes would read the pipe out of the checker's sight.
    ("r, w := io.Pipe()\ngo w.Close()\nvar b bytes.Buffer\nio.ReadAll(io.TeeReader(r, &b))",
     "io.TeeReader handed a pipe (not modelled)"),
])
def test_what_the_pipe_models_do_not_cover_is_unsupported(body, what):
    source = """
        package main

        import (
            "bytes"
            "io"
            "net"
            "time"
        )

        func main() {
            BODY
            _, _, _, _ = bytes.Equal, io.EOF, net.Pipe, time.Now
        }
        """
    c = check(source.replace("BODY", body.replace("\n", "\n            ")))
    assert c.verdict == "unsupported", report_lines(c)
    assert any(what in line for line in report_lines(c)), report_lines(c)


def test_bytes_copied_from_a_string_are_known_as_the_pipe_models_need():
    # Each check fails into a deadlock where the checker loses the bytes.
    c = check("""
        package main

        func block() { ch := make(chan int); <-ch }

        func main() {
            b := make([]byte, 16)
            n := copy(b, []byte("a\\nb\\n"))
            s := string(b[:n])
            if s != "a\\nb\\n" || s[:1] != "a" || s[2:] != "b\\n" {
                block()
            }
            if string([]rune{97}) != "a" { // runes are not bytes: unknown, both ways
                return
            }
        }
        """)
    assert c.verdict == "ok", report_lines(c)


# Values streamed as JSON through a pipe: Encode makes one write a value and Decode takes
# one; what follows the values is read to EOF, which never comes without the Close.
JSON = """
    package main

    import (
        "encoding/json"
        "fmt"
        "io"
    )

    type msg struct{ N int }

    func main() {
        r, w := io.Pipe()
        go func() {
            enc := json.NewEncoder(w)
            for i := 0; i < 3; i++ {
                enc.Encode(msg{i})
            }
            CLOSE
        }()
        dec := json.NewDecoder(r)
        for i := 0; i < 3; i++ {
            var m msg
            if err := dec.Decode(&m); err != nil {
                panic(err)
            }
        }
        rest, _ := io.ReadAll(r)
        fmt.Println(len(rest))
    }
    """


@pytest.mark.parametrize("close, verdict", [("w.Close()", "ok"),
                                            ("// no Close", "global-deadlock")])
def test_json_values_through_a_pipe(close, verdict):
    c = check(JSON.replace("CLOSE", close))
    assert c.verdict == verdict, report_lines(c)


# Text written through a bufio.Writer reaches the pipe only at Flush: without it, the
# line main waits for never comes.
BUFFERED = """
    package main

    import (
        "bufio"
        "fmt"
        "io"
    )

    func main() {
        r, w := io.Pipe()
        go func() {
            bw := bufio.NewWriter(w)
            fmt.Fprintf(bw, "ready\\n")
            FLUSH
        }()
        line, err := bufio.NewReader(r).ReadString('\\n')
        if err != nil || line != "ready\\n" {
            panic(err)
        }
    }
    """


@pytest.mark.parametrize("flush, verdict", [("bw.Flush()", "ok"),
                                            ("// no Flush", "global-deadlock")])
def test_a_bufio_writer_reaches_the_pipe_at_flush(flush, verdict):
    c = check(BUFFERED.replace("FLUSH", flush))
    assert c.verdict == verdict, report_lines(c)


# A reader of the program's own whose Read receives the stream's next chunk, handed to
# io.ReadFull: the model's loop calls that Read where the checker sees it block.
OWN_READER = """
    package main

    import (
        "fmt"
        "io"
        "strings"
    )

    var _ = strings.ToUpper

    type chunkReader struct {
        in   chan []byte
        rest []byte
    }

    func (r *chunkReader) Read(p []byte) (int, error) {
        if len(r.rest) == 0 {
            m, ok := <-r.in
            if !ok {
                return 0, io.EOF
            }
            r.rest = m
        }
        n := copy(p, r.rest)
        r.rest = r.rest[n:]
        return n, nil
    }

    func main() {
        r := &chunkReader{in: make(chan []byte)}
        go func() {
            r.in <- []byte("hdr")
            CLOSE
        }()
        buf := make([]byte, 5)
        n, err := READ
        fmt.Println(n, err, len(buf))
    }
    """


@pytest.mark.parametrize("read, close, verdict", [
    ("io.ReadFull(r, buf)", "close(r.in)", "ok"),  # ErrUnexpectedEOF after 3 bytes
    ("io.ReadFull(r, buf)", "// no close", "global-deadlock"),  # waits for 2 more bytes
    ("io.ReadFull(r, buf[:3])", "// no close", "ok"),  # the chunk is all it asks for
    ("io.Copy(new(strings.Builder), r)", "close(r.in)", "ok"),
    ("io.Copy(new(strings.Builder), r)", "// no close", "global-deadlock"),
    ("io.CopyBuffer(new(strings.Builder), r, buf)", "close(r.in)", "ok"),
    ("io.ReadAtLeast(r, buf, 3)", "// no close", "ok"),
    ("io.ReadAtLeast(r, buf, 4)", "// no close", "global-deadlock"),
    ("io.CopyN(new(strings.Builder), r, 3)", "// no close", "ok"),
    ("io.CopyN(new(strings.Builder), r, 4)", "// no close", "global-deadlock"),
])
def test_library_code_handed_a_reader_of_the_programs_runs_its_read(read, close, verdict):
    c = check(OWN_READER.replace("CLOSE", close).replace("READ", read))
    assert c.verdict == verdict, report_lines(c)


@pytest.mark.parametrize("reads, verdict", [(1, "partial-deadlock"), (2, "ok")])
def test_fprintf_and_write_string_call_a_writer_of_the_programs(reads, verdict):
    # Each write sends on an unbuffered channel: a reader that takes one line of two
    # leaves the logger blocked in its second Write.
    c = check(f"""
        package main

        import (
            "fmt"
            "io"
        )

        type chanWriter struct{{ lines chan string }}

        func (w chanWriter) Write(p []byte) (int, error) {{
            w.lines <- string(p)
            return len(p), nil
        }}

        func main() {{
            w := chanWriter{{lines: make(chan string)}}
            go func() {{
                fmt.Fprintf(w, "start %d\\n", 1)
                io.WriteString(w, "stop\\n")
            }}()
            for range {reads} {{
                fmt.Print(<-w.lines)
            }}
        }}
        """)
    assert c.verdict == verdict, report_lines(c)


@pytest.mark.parametrize("close, verdict", [("close(r.in)", "ok"),
                                            ("// no close", "global-deadlock")])
def test_a_scanner_over_a_reader_of_the_programs_reads_through_its_read(close, verdict):
    # The chunk has no newline: Scan reads again, and waits for ever without the close.
    source = OWN_READER.replace("CLOSE", close).replace(
        "n, err := READ", "s := bufio.NewScanner(r)\n        n, err := s.Scan(), s.Err()"
    ).replace('"fmt"', '"bufio"\n        "fmt"')
    c = check(source)
    assert c.verdict == verdict, report_lines(c)


def test_a_scanner_method_the_models_lack_is_unsupported_over_a_programs_reader():
    source = OWN_READER.replace("CLOSE", "close(r.in)").replace(
        "n, err := READ", "s := bufio.NewScanner(r)\n        s.Split(bufio.ScanWords)\n"
        "        n, err := s.Scan(), s.Err()"
    ).replace('"fmt"', '"bufio"\n        "fmt"')
    c = check(source)
    assert c.verdict == "unsupported", report_lines(c)
    assert any("(*bufio.Scanner).Split over a pipe or a reader or writer of the program's"
               in line for line in report_lines(c)), report_lines(c)

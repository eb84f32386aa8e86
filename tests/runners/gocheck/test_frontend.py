"""The Go front end's quick load (imports from the go command's export data) gives what the
load of every import's source gives: the same SSA for a good file, the same messages for a
bad one; and a file's package gets the plain-Go models it needs (`frontend._shims`)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from runners.gocheck import frontend
from tests.gocheck.corpus import load_corpus

pytestmark = pytest.mark.usefixtures("go_frontend")

# Programs that import sync, context, time and sort, embed a Mutex, take bound methods of
# the standard library's types and call its generic functions: where the two loads could
# differ if the imports' bodies counted.
CORPUS_SAMPLE = ("godel_dinephil3", "own_waitgroup_ok", "own_send_after_close")
LIBRARY = """package main

import (
\t"context"
\t"slices"
\t"sync"
\t"time"
)

type guarded struct {
\tsync.Mutex
\tn int
}

func main() {
\tvar wg sync.WaitGroup
\tdone := wg.Done
\tvar l sync.Locker = &guarded{}
\tl.Lock()
\tl.Unlock()
\ts := []int{3, 1, 2}
\tslices.Sort(s)
\tctx, cancel := context.WithTimeout(context.Background(), time.Second)
\tdefer cancel()
\tch := make(chan int)
\twg.Add(1)
\tgo func() { defer done(); ch <- slices.Index(s, 2) }()
\t<-ch
\twg.Wait()
\t<-ctx.Done()
}
"""
BAD = {
    "syntax": "package main\n\nfunc main() { x := }\n",
    "types": 'package main\n\nfunc main() { var x int = "s"; _ = x }\n',
    "import": 'package main\n\nimport "nosuch/pkg"\n\nfunc main() { pkg.X() }\n',
}


def _both(text: str) -> tuple[object, object]:
    """The front end's answer on ``text`` both ways: its JSON, or the BadInput it raised."""

    def one(from_source: bool) -> object:
        try:
            return frontend._run_helper(frontend.helper_path(), Path("main.go"), text.encode(),
                                        120.0, from_source=from_source)  # fmt: skip
        except frontend.BadInput as bad:
            return bad

    return one(False), one(True)


@pytest.mark.slow
def test_the_quick_load_gives_the_same_ssa_as_loading_every_imports_source():
    programs = {p.name: p.path.read_text() for p in load_corpus() if p.name in CORPUS_SAMPLE}
    assert len(programs) == len(CORPUS_SAMPLE)
    programs["library"] = LIBRARY
    for name, text in programs.items():
        quick, sources = _both(text)
        assert isinstance(quick, dict) and isinstance(sources, dict), (name, quick, sources)
        # Only the file's path may differ: each run has a temporary directory of its own.
        assert quick.pop("file").endswith("/main.go") and sources.pop("file").endswith("/main.go")
        assert quick == sources, name
    assert '"static": "slices.Sort[[]int, int]"' in json.dumps(quick)


@pytest.mark.slow
@pytest.mark.parametrize("kind", sorted(BAD))
def test_a_file_with_an_error_gets_the_messages_of_the_source_load(kind: str):
    quick, sources = _both(BAD[kind])
    assert isinstance(quick, frontend.BadInput) and isinstance(sources, frontend.BadInput)
    assert str(quick) == str(sources)
    assert "main.go:" in str(quick) and "# command-line-arguments" not in str(quick)


@pytest.mark.parametrize(
    "source, wanted",
    [
        # A reader of its own handed to io.ReadFull: the io models come along.
        (
            b"package main\nfunc (r *rd) Read(p []byte) (int, error) { return 0, nil }\n"
            b"func main() { io.ReadFull(&rd{}, nil) }\n",
            ["gocheck_pipes_io.go"],
        ),
        (
            b"package logs\nfunc (w sink) Write(b []byte) (int, error) { return len(b), nil }\n"
            b'func f() { fmt.Fprintf(sink{}, "x") }\n',
            ["gocheck_pipes_io.go"],
        ),
        # Neither a Read or Write of its own, nor a function that would call one: none.
        (b"package main\nfunc main() { io.ReadFull(os.Stdin, nil) }\n", []),
        (b"package main\nfunc (r *rd) Read(p []byte) (int, error) { return 0, nil }\n", []),
        (b"package main\nfunc main() { io.Copy(os.Stdout, os.Stdin) }\n", []),
    ],
)
def test_the_io_models_come_with_a_reader_or_writer_of_the_files_own(source, wanted):
    assert sorted(frontend._shims(source)) == wanted

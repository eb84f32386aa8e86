"""The Go front end's quick load (imports from the go command's export data) gives what the
load of every import's source gives: the same SSA for a good file, the same messages for a
bad one."""

from __future__ import annotations

import subprocess
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


def _both(path: Path) -> tuple[subprocess.CompletedProcess[str], subprocess.CompletedProcess[str]]:
    def run(*flags: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([str(frontend.helper_path()), *flags, path.name], cwd=path.parent,
                              env={**frontend._env(), "GOFLAGS": "", "GO111MODULE": "on"},
                              capture_output=True, text=True, timeout=120)  # fmt: skip

    return run(), run("-from-source")


def _alone(tmp_path: Path, name: str, text: str) -> Path:
    """The file alone in a directory, as the front end runs it."""
    path = tmp_path / name / "main.go"
    path.parent.mkdir()
    path.write_text(text)
    return path


@pytest.mark.slow
def test_the_quick_load_gives_the_same_ssa_as_loading_every_imports_source(tmp_path: Path):
    programs = {p.name: p.path.read_text() for p in load_corpus() if p.name in CORPUS_SAMPLE}
    assert len(programs) == len(CORPUS_SAMPLE)
    programs["library"] = LIBRARY
    for name, text in programs.items():
        quick, sources = _both(_alone(tmp_path, name, text))
        assert quick.returncode == sources.returncode == 0, (name, quick.stderr, sources.stderr)
        assert quick.stdout == sources.stdout, name
    assert '"static":"slices.Sort[[]int, int]"' in quick.stdout


@pytest.mark.slow
@pytest.mark.parametrize("kind", sorted(BAD))
def test_a_file_with_an_error_gets_the_messages_of_the_source_load(tmp_path: Path, kind: str):
    quick, sources = _both(_alone(tmp_path, kind, BAD[kind]))
    assert quick.returncode == sources.returncode == 2
    assert quick.stderr == sources.stderr
    assert "main.go:" in quick.stderr and "# command-line-arguments" not in quick.stderr

"""gocheck on the programs that import modules outside the standard library
(tests/gocheck/corpus_modules: errgroup, semaphore, singleflight, goleak, x/time/rate,
conc), fetched through the Go module proxy: every program gets its known verdict, except
the misses listed here with their reason, which must still miss (strict xfail)."""

from __future__ import annotations

import pytest

from runners.gocheck.check import check_file, report_lines
from tests.gocheck.corpus import MODULES_DIR, load_corpus

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("go_frontend")]

KNOWN_MISSES = {
    "probe_md02_chunkupload_fixed": "undecided: errgroup with SetLimit and TryGo, six "
    "chunks and a progress collector",
    "probe_md04_configcache_fixed": "undecided: singleflight's DoChan raced by a timer "
    "whose every firing order is explored",
    "probe_md06_crawler_fixed": "undecided: x/time/rate's Limiter computes with times the "
    "checker cannot know, and each comparison goes both ways",
    "probe_sc06_erasure_quorum_fixed": "undecided: erasure writers under errgroup until a "
    "quorum or a cancel",
}
TIME_LIMIT_S = 90.0
MISS_TIME_LIMIT_S = 3.0


def _params():
    for prog in load_corpus(MODULES_DIR):
        marks = ()
        if prog.name in KNOWN_MISSES:
            marks = (pytest.mark.xfail(strict=True, reason=KNOWN_MISSES[prog.name]),)
        yield pytest.param(prog, id=prog.name, marks=marks)


@pytest.mark.parametrize("prog", list(_params()))
def test_module_program_gets_its_known_verdict(prog):
    limit = MISS_TIME_LIMIT_S if prog.name in KNOWN_MISSES else TIME_LIMIT_S
    checked = check_file(prog.path, time_limit=limit)
    assert checked.verdict == prog.want, "\n".join(report_lines(checked))
    assert checked.program.modules  # what made them worth a directory of their own

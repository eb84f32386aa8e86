"""The playground's "Check Go code" tab (/playground/go/) through Django's test client.

A deadlocking program shows its verdict and its trace in the effect checker's lanes,
an ok program is ok, a program Go refuses shows Go's error, an oversize source is
refused before anything runs, a shared program's permalink shows it and checks it
again, and "Open as effect" leads into the effect editor for a program in the λ_chan
fragment (and says why not for one with a buffered channel). The checks are real: Go's
front end (the gocheck helper, built once per session by `gocheck_helper`) and the
model checker, in the child process the web runs them in; each takes well under a
second once the helper is built.
"""

from __future__ import annotations

import html
import os
import re
from pathlib import Path

import pytest
from django.test import Client

from chanfuzz_site import gocheck_bounded
from chanfuzz_site import gocheck_playground as gp
from generator.gocheck.explore import Finding, Step
from runners.gocheck import frontend

pytestmark = pytest.mark.django_db

PAGE = "/playground/go/"
CHECK = "/playground/go/check/"
SHARE = "/playground/go/share/"
HTMX = {"HTTP_HX_REQUEST": "true"}

OK_PROGRAM = """\
package main

func main() {
	c := make(chan int)
	go func() { c <- 1 }()
	<-c
}
"""

BUFFERED = """\
package main

func main() {
	c := make(chan int, 1)
	c <- 1
	<-c
}
"""

NOT_GO = """\
package main

func main() {
	x := 1
}
"""

UNSUPPORTED = """\
package main

import "sync"

func main() {
	var once sync.Once
	c := make(chan int)
	go once.Do(func() { c <- 1 })
	<-c
}
"""


@pytest.fixture(scope="session")
def gocheck_helper() -> Path:
    """The Go front end's helper, built once (about 15 s the first time on a machine)."""
    try:
        return frontend.helper_path()
    except frontend.FrontendError as missing:
        if os.environ.get("CI") == "true":
            pytest.fail(f"the gocheck helper does not build: {missing}")
        pytest.skip(f"the gocheck helper does not build: {missing}")


@pytest.fixture(autouse=True)
def share_dir(settings, tmp_path: Path) -> Path:  # noqa: ANN001 - pytest-django's settings
    settings.GOCHECK_SHARE_DIR = str(tmp_path / "shared")
    return tmp_path / "shared"


def text_of(response) -> str:  # noqa: ANN001 - an HttpResponse
    return response.content.decode()


def check(client: Client, source: str, **extra: str):  # noqa: ANN201 - an HttpResponse
    return client.post(CHECK, {"source": source}, **{**HTMX, **extra})


def verdict_in(page: str) -> str:
    match = re.search(r'id="go-verdict">([^<]+)<', page)
    assert match, "no verdict on the page"
    return match.group(1)


def lanes_in(page: str, n: int) -> tuple[list[str], list[list[str]]]:
    """The heads and rows (step, cells…) of the n-th finding's lanes table."""
    table = re.search(rf'<table class="pg-trace" id="trace-{n}">(.*?)</table>', page, re.S)
    assert table, f"no lanes table for finding {n}"
    heads = [
        html.unescape(h)
        for h in re.findall(r"<thead>.*?</thead>", table.group(1), re.S)
        for h in re.findall(r"<th>([^<]*)</th>", h)
    ]
    rows = [
        [html.unescape(c) for c in re.findall(r"<t[hd][^>]*>([^<]*)</t[hd]>", row)]
        for row in re.findall(r"<tr class=\"[^\"]*\">(.*?)</tr>", table.group(1), re.S)
    ]
    return heads, rows


# ---------------------------------------------------------------- the page


def test_the_tab_shows_the_sample_and_its_limits_without_checking(client: Client) -> None:
    response = client.get(PAGE)
    assert response.status_code == 200
    page = text_of(response)
    assert "<title>Check Go code · Playground · chanfuzz</title>" in page
    assert 'id="mode-go" aria-current="page"' in page and 'href="/"' in page
    textarea = re.search(r'<textarea id="go-source"[^>]*>(.*?)</textarea>', page, re.S)
    assert textarea and html.unescape(textarea.group(1)) == gp.SAMPLE_PROGRAM
    assert 'maxlength="20000"' in page and "at most 100000 states and 5 s" in page
    assert 'id="go-verdict"' not in page  # nothing is checked until asked
    scripts = re.findall(r"<script[^>]*\ssrc=\"([^\"]+)\"", page)
    assert all(src.startswith("/static/") for src in scripts), scripts
    assert 'href="/playground/go/" id="mode-go"' in text_of(client.get("/"))


# ---------------------------------------------------------------- verdicts


def test_a_deadlocking_program_shows_global_deadlock_and_its_trace_in_lanes(
    client: Client, gocheck_helper: Path
) -> None:
    response = check(client, gp.SAMPLE_PROGRAM)
    assert response.status_code == 200
    page = text_of(response)
    assert verdict_in(page) == "global deadlock"
    assert 'class="badge bad verdict-global-deadlock"' in page
    heads, rows = lanes_in(page, 1)
    assert heads == [
        "step",
        "main",
        "g1 (main$1, spawned at line 8)",
        "g2 (main$2, spawned at line 12)",
    ]
    # A send and the receive it met share a row, as a Put and its Get do in the effect lanes.
    assert rows[0] == [
        "1",
        "line 16: send on ping (made at line 6)",
        "line 9: receive from ping (made at line 6)",
        "",
    ]
    assert rows[1] == [
        "2",
        "",
        "line 10: send on pong (made at line 7)",
        "line 13: receive from pong (made at line 7)",
    ]
    assert rows[-1] == [
        "stuck",
        "line 17: blocked: receive from pong (made at line 7)",
        "not blocked",
        "line 14: blocked: send on ping (made at line 6)",
    ]
    assert '<tr class="stuck">' in page and page.count('class="lane blocked"') >= 2
    # The goroutines blocked at the end, listed under the lanes; the leak as a second finding.
    assert "Blocked at the end:" in page
    assert 'id="go-finding-2"' in page and "partial-deadlock" in page
    assert re.search(r'id="go-states">\d+ states? in [\d.]+ s<', page)
    assert html.unescape(page).count("verdict: global-deadlock") == 1  # the text report


def test_an_ok_program_is_ok_with_no_findings(client: Client, gocheck_helper: Path) -> None:
    page = text_of(check(client, OK_PROGRAM))
    assert verdict_in(page) == "ok"
    assert 'class="badge ok verdict-ok"' in page
    assert "go-finding" not in page and "pg-trace" not in page
    assert "verdict: ok" in page


def test_a_program_go_refuses_shows_gos_error(client: Client, gocheck_helper: Path) -> None:
    response = check(client, NOT_GO)
    assert response.status_code == 200
    page = text_of(response)
    assert verdict_in(page) == "bad input"
    assert 'class="badge input verdict-bad-input"' in page
    error = re.search(r'<pre class="go-error" id="go-error">(.*?)</pre>', page, re.S)
    assert error and "declared and not used: x" in error.group(1)
    assert "main.go:4:2" in error.group(1)  # Go's position, in the pasted file
    assert 'id="go-no-effect">No effect to open: the program did not load.' in page


ERRGROUP = """package main

import (
	"context"

	"golang.org/x/sync/errgroup"
	IMPORT
)

func main() {
	g, _ := errgroup.WithContext(context.Background())
	done := make(chan int)
	g.Go(func() error { done <- 1; return nil })
	g.Wait()
	<-done
}
"""


def test_imports_from_the_allowed_modules_only_are_fetched_and_checked(
    client: Client,
    settings,  # noqa: ANN001
    gocheck_helper: Path,
) -> None:
    # golang.org/x/sync (GOCHECK_MODULES' default) is checked with the program: Wait
    # waits for the task, which waits for main's receive after Wait.
    page = text_of(check(client, ERRGROUP.replace("IMPORT", "")))
    assert verdict_in(page) == "global deadlock"
    # Another module would be fetched on a stranger's say: refused, with the reason.
    page = text_of(check(client, ERRGROUP.replace("IMPORT", '_ "github.com/pkg/errors"')))
    assert verdict_in(page) == "bad input"
    assert ('import &quot;github.com/pkg/errors&quot;: here only the standard library and '
            "golang.org/x/sync may be imported") in page
    settings.GOCHECK_MODULES = ()
    page = text_of(check(client, ERRGROUP.replace("IMPORT", "")))
    assert verdict_in(page) == "bad input"
    assert "here only the standard library may be imported" in page


def test_an_unsupported_construct_is_shown_with_its_line(
    client: Client, gocheck_helper: Path
) -> None:
    page = text_of(check(client, UNSUPPORTED))
    assert verdict_in(page) == "unsupported"
    listed = re.search(r'<div id="go-unsupported">(.*?)</div>', page, re.S)
    assert listed
    assert '<span class="go-line">line 8</span>: a goroutine running (*sync.Once).Do' in (
        html.unescape(listed.group(1))
    )


def test_the_state_budget_makes_a_check_undecided(
    client: Client,
    settings,  # noqa: ANN001
    gocheck_helper: Path,
) -> None:
    settings.GOCHECK_MAX_STATES = 1
    # A correct program: in a buggy one, the random walks beside the search may find the
    # bug however small the budget of states.
    page = text_of(check(client, OK_PROGRAM))
    assert verdict_in(page) == "undecided"
    assert "the budget was spent" in page


def test_a_check_past_its_time_is_killed_and_undecided(
    monkeypatch: pytest.MonkeyPatch, gocheck_helper: Path
) -> None:
    monkeypatch.setattr(gocheck_bounded, "GRACE_S", 0.0)
    outcome = gocheck_bounded.bounded_gocheck(
        gp.SAMPLE_PROGRAM, max_states=10, time_limit_s=0.0, frontend_s=0.01
    )
    assert outcome.verdict == "undecided" and outcome.result is None
    assert outcome.stopped.startswith("it was stopped after")


def test_a_checker_that_cannot_run_is_a_503_with_the_reason(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    def unavailable(source: str) -> gp.GoCheckView:
        raise gp.GoCheckUnavailable("gocheck needs Go on the PATH")

    monkeypatch.setattr(gp, "check", unavailable)
    response = check(client, OK_PROGRAM)
    assert response.status_code == 503
    assert "could not check this program: gocheck needs Go on the PATH" in text_of(response)


# ---------------------------------------------------------------- refused input


def test_an_oversize_source_is_refused_before_it_is_checked(
    client: Client,
    monkeypatch: pytest.MonkeyPatch,
    settings,  # noqa: ANN001
) -> None:
    monkeypatch.setattr(gp, "check", lambda source: pytest.fail("an oversize source was checked"))
    big = OK_PROGRAM + "//" + "x" * 20_000 + "\n"
    response = check(client, big)
    assert response.status_code == 400
    assert response["HX-Retarget"] == "#go-feedback"
    assert f"the program is {len(big):,} characters long; the playground checks at most 20,000" in (
        text_of(response)
    )
    assert client.post(SHARE, {"source": big}, **HTMX).status_code == 400
    empty = check(client, "  \n")
    assert empty.status_code == 400 and "the program is empty" in text_of(empty)
    settings.GOCHECK_MAX_SOURCE_CHARS = 50
    assert "checks at most 50" in text_of(check(client, OK_PROGRAM))
    # Without htmx the whole page comes back, with the message and the (clipped) source.
    page = client.post(CHECK, {"source": OK_PROGRAM})
    assert page.status_code == 400 and 'id="go-source"' in text_of(page)


def test_without_htmx_a_check_answers_with_the_whole_page(
    client: Client, gocheck_helper: Path
) -> None:
    page = text_of(client.post(CHECK, {"source": OK_PROGRAM}))
    assert "<title>Check Go code" in page and verdict_in(page) == "ok"
    assert (
        html.unescape(
            re.search(r'<textarea id="go-source"[^>]*>(.*?)</textarea>', page, re.S).group(1)
        )
        == OK_PROGRAM
    )


# ---------------------------------------------------------------- permalinks


def test_a_shared_program_round_trips_through_its_permalink(
    client: Client, share_dir: Path, gocheck_helper: Path
) -> None:
    response = client.post(SHARE, {"source": gp.SAMPLE_PROGRAM}, **HTMX)
    assert response.status_code == 200
    sid = gp.source_id(gp.SAMPLE_PROGRAM)
    url = f"http://testserver/playground/go/{sid}/"
    assert f'<a id="go-share-url" href="{url}">' in text_of(response)
    assert (share_dir / f"{sid}.go").read_text() == gp.SAMPLE_PROGRAM
    # Content-hashed: the same program (whatever its line ends) is the same link.
    crlf = gp.SAMPLE_PROGRAM.replace("\n", "\r\n")
    assert f'href="{url}"' in text_of(client.post(SHARE, {"source": crlf}, **HTMX))
    assert len(list(share_dir.iterdir())) == 1
    opened = client.get(f"/playground/go/{sid}/")
    assert opened.status_code == 200
    page = text_of(opened)
    textarea = re.search(r'<textarea id="go-source"[^>]*>(.*?)</textarea>', page, re.S)
    assert textarea and html.unescape(textarea.group(1)) == gp.SAMPLE_PROGRAM
    assert verdict_in(page) == "global deadlock"  # checked again
    assert f'id="go-program-id">{sid}<' in page and f'href="{url}"' in page
    assert client.get("/playground/go/aaaaaaaaaaaa/").status_code == 404
    assert client.get("/playground/go/..%2Fdb/").status_code == 404


# ---------------------------------------------------------------- open as effect


def test_open_as_effect_leads_into_the_effect_editor(client: Client, gocheck_helper: Path) -> None:
    page = text_of(check(client, gp.SAMPLE_PROGRAM))
    link = re.search(
        r'<a class="button" id="go-open-effect" href="([^"]+)">Open as effect</a>', page
    )
    assert link, "no Open as effect link"
    url = html.unescape(link.group(1))
    assert url.startswith("/?seed=14&effect=Spawn")
    effect = "Spawn(Get(c1) ; Put(c2)) ; Spawn(Get(c2) ; Put(c1)) ; Put(c1) ; Get(c2)"
    assert f'id="go-effect-text">{effect}</pre>' in page
    editor = text_of(client.get(url))
    assert 'id="verdict">can deadlock<' in editor  # the effect checker agrees
    box = re.search(r'<textarea id="effect"[^>]*>(.*?)</textarea>', editor, re.S)
    assert box and "Spawn(Get(c1) ; Put(c2))" in html.unescape(box.group(1))


def test_a_buffered_channel_has_no_effect_and_says_why(
    client: Client, gocheck_helper: Path
) -> None:
    page = text_of(check(client, BUFFERED))
    assert verdict_in(page) == "ok"
    assert "go-open-effect" not in page
    assert (
        'id="go-no-effect">No effect to open: a buffered channel (λ_chan channels are unbuffered).'
    ) in page


def test_an_effect_too_big_for_the_editor_is_not_linked() -> None:
    url, why = gp.effect_link("Put(c1) ; " * 500 + "Get(c1)", "")
    assert url == "" and why.startswith("the effect does not fit the effect editor: the effect is")
    assert gp.effect_link(None, "a buffered channel") == ("", "a buffered channel")


# ---------------------------------------------------------------- lanes


def test_lanes_pair_a_rendezvous_but_not_buffered_steps() -> None:
    finding = Finding(
        "global-deadlock",
        "every goroutine is blocked",
        (
            Step("main", 5, "send on c (made at line 4)"),
            Step("g1 (f, spawned at line 6)", 9, "receive from c (made at line 4)"),
            Step("main", 7, "send on b (made at line 3) (buffered)"),
            Step("g1 (f, spawned at line 6)", 10, "receive from b (made at line 3) (buffered)"),
            Step("g1 (f, spawned at line 6)", 11, "close d (made at line 2)"),
        ),
        (Step("main", 8, "blocked: receive from d (made at line 2)"),),
    )
    trace = gp.lanes(finding)
    assert trace.processes == ("main", "g1 (f, spawned at line 6)")
    assert [r.step for r in trace.rows] == ["1", "2", "3", "4", "stuck"]
    assert [(c.text, c.kind) for c in trace.rows[0].cells] == [
        ("line 5: send on c (made at line 4)", "put"),
        ("line 9: receive from c (made at line 4)", "get"),
    ]
    assert [c.kind for c in trace.rows[3].cells] == ["idle", "spawn"]
    assert [(c.text, c.kind) for c in trace.rows[4].cells] == [
        ("line 8: blocked: receive from d (made at line 2)", "blocked"),
        ("not blocked", "idle"),
    ]
    assert trace.text.splitlines()[0] == "global-deadlock: every goroutine is blocked"

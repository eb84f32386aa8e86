"""The playground (`/` and its fragments) through Django's test client.

Every endpoint with good and bad input: status codes (4xx with a message,
never a 500), the canonical state URL and restoring from it, determinism (the
same state gives the same program and sources byte for byte), the effect box
(syntax errors with a caret, limits, deadlock traces) and runs through RQ.
"""

from __future__ import annotations

import html
import re
from urllib.parse import parse_qsl, urlencode

import pytest
from django.test import Client, override_settings

from chanfuzz_site import playground as pg
from chanfuzz_site import playground_state as ps
from generator import effects
from generator.pipeline import generate_program
from generator.render import render
from generator.settings import PRESETS, settings_for
from generator.termination import check_effect
from runners.campaigns.models import Program, Reproduction
from runners.campaigns.programs import build_from_effect, build_generated, render_seed_for
from tests.runners.conftest import require_toolchain

pytestmark = pytest.mark.django_db

PROGRAM = "/playground/program/"
DEADLOCK = "Spawn(Get(c1)) ; SelGet(c2, Put(c1)) (+) SelPut(c2, eps)"
PAPER_EFFECTS = [
    "Spawn(Put(c1)) ; Spawn(Put(c3)) ; Spawn(Put(c2)) ; SelGet(c2, Get(c1) ; Get(c3)) (+) "
    "SelGet(c2, Get(c1) ; (SelGet(c3, eps) (+) SelGet(c3, eps))) (+) "
    "SelGet(c1, Get(c2) ; (SelGet(c3, eps) (+) SelGet(c3, eps)))",
    "Spawn(SelGet(c3, Put(c4)) (+) SelGet(c3, Put(c4))) ; Spawn(Get(c2) ; Put(c3)) ; "
    "Spawn(Get(c1) ; Put(c2)) ; Put(c1) ; Get(c4)",
    "Get(c1) ; Put(c2) + Put(c2) ; Get(c1)",
]


def body(response) -> str:  # noqa: ANN001 - an HttpResponse
    return response.content.decode()


def program_id_in(text: str) -> str:
    match = re.search(r'<code id="program-id">([a-z2-7]{12})</code>', text)
    assert match, "no program id on the page"
    return match.group(1)


def go_source_in(text: str) -> str:
    """The Go source as shown (highlighting stripped), to compare byte for byte."""
    match = re.search(r'<div id="code-go">(.*?)</div>\n', text, re.S)
    assert match
    return html.unescape(re.sub(r"<[^>]+>", "", match.group(1)))


# ---------------------------------------------------------------- the page


def test_page_shows_a_generated_program_and_documents_limits(client: Client) -> None:
    response = client.get("/")
    assert response.status_code == 200
    text = body(response)
    assert "<title>Playground · chanfuzz</title>" in text
    assert 'href="/"' in text  # the nav's first entry
    expected = build_generated(ps.DEFAULT_SEED, PRESETS["A"])
    assert program_id_in(text) == expected.id
    assert 'id="verdict">terminates<' in text
    for lang in ("go", "kotlin", "crystal"):
        assert f'id="code-{lang}"' in text
    assert 'class="hl"' in text  # Pygments
    assert "at most 4000 characters" in text and "100000 states" in text
    # Every script is ours, served from /static/ (a random token may spell "cdn").
    scripts = re.findall(r"<script[^>]*\ssrc=\"([^\"]+)\"", text)
    assert any(src.endswith("/htmx-2.0.11.min.js") for src in scripts), scripts
    assert all(src.startswith("/static/") for src in scripts), scripts


def test_the_first_code_tab_is_highlighted_and_the_others_fetch_theirs(client: Client) -> None:
    """Highlighting every target's source was most of a generate's time: only the first
    tab (Go) comes highlighted; every other shows its plain text and fetches the
    highlighted code from playground/code/<target>/ when first shown (htmx)."""
    text = body(client.get("/playground/program/", {"seed": "5", "preset": "B"}))
    assert text.count('<div class="hl">') == 3  # the effect, the λ_chan program and Go
    lazy = re.findall(
        r'<div id="code-([\w-]+)" hx-get="([^"]+)" hx-trigger="intersect once" '
        r'hx-swap="innerHTML"><pre>(.*?)</pre></div>',
        text,
        re.S,
    )
    assert {"kotlin", "crystal", "rust-crossbeam"} <= {lang for lang, _, _ in lazy}
    assert "go" not in {lang for lang, _, _ in lazy}
    for lang, url, plain in lazy:
        url = html.unescape(url)
        assert url.startswith(f"/playground/code/{lang}/?seed=5&preset=B"), url
        fetched = client.get(url)
        assert fetched.status_code == 200, lang
        markup = body(fetched)
        assert markup.startswith('<div class="hl">'), lang
        # The same source, highlighted: the tab's text does not change when it arrives.
        assert html.unescape(re.sub(r"<[^>]+>", "", markup)).strip() == (
            html.unescape(plain).strip()
        ), lang
    assert client.get("/playground/code/cobol/?seed=5").status_code == 404
    bad = client.get("/playground/code/kotlin/?seed=x")
    assert bad.status_code == 400 and "seed" in body(bad)


def test_restoring_a_state_gives_the_same_program_byte_for_byte(client: Client) -> None:
    url = "/?seed=42&preset=F&g_select=3&max_depth=4&reps=3"
    first, second = client.get(url), client.get(url)
    assert first.status_code == second.status_code == 200
    settings = settings_for("F", g_select=3, max_depth=4)
    built = build_generated(42, settings)
    assert program_id_in(body(first)) == built.id
    target = ps.find_target(ps.default_target())
    expected = render(
        built.program,
        "go",
        seed=render_seed_for(built.id),
        repetitions=3,
        **target.render_options(),
    )
    assert go_source_in(body(first)) == expected == go_source_in(body(second))
    # The controls show the restored state.
    assert 'id="g_select" name="g_select" min="0" max="1000" value="3"' in body(first)
    assert 'name="reps" min="1" max="100" value="3"' in body(first)
    assert re.search(r'<option value="F" selected>', body(first))


def test_a_pct_depth_puts_yields_in_the_sources_and_stays_in_the_link(client: Client) -> None:
    url = "/?seed=42&preset=F&pct=3"
    text = body(client.get(url))
    built = build_generated(42, PRESETS["F"])
    target = ps.find_target(ps.default_target())
    expected = render(
        built.program,
        "go",
        seed=render_seed_for(built.id),
        repetitions=10,
        pct_depth=3,
        **target.render_options(),
    )
    assert go_source_in(text) == expected and "runtime.Gosched()" in expected
    assert 'name="pct" min="1" max="64" value="3"' in text
    assert ps.parse_state({"seed": "42", "preset": "F", "pct": "3"}).query() == (
        "seed=42&preset=F&pct=3"
    )
    assert 'name="pct" min="1" max="64" value=""' in body(client.get("/?seed=42"))


def test_effect_state_restores_into_the_editor(client: Client) -> None:
    response = client.get("/?" + urlencode({"seed": 3, "effect": DEADLOCK}))
    assert response.status_code == 200
    text = body(response)
    assert program_id_in(text) == build_from_effect(DEADLOCK, 3).id
    assert 'value="effect"' in text  # mode
    editor = re.search(r'<textarea id="effect"[^>]*>(.*?)</textarea>', text, re.S)
    assert editor and effects.parse(html.unescape(editor.group(1))) == effects.parse(DEADLOCK)
    assert 'id="verdict">can deadlock<' in text


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("seed=abc", "the seed must be a whole number"),
        ("seed=-1", "the seed must be from 0"),
        ("seed=1_000", "whole number"),
        (f"seed={2**60}", "the seed must be from 0 to 9007199254740991"),
        ("seed=" + "9" * 5000, "whole number"),
        ("g_seq=-1", "weight of G-Seq must be from 0 to 1000"),
        ("g_select=1001", "weight of G-Select must be from 0 to 1000"),
        ("g_select=lots", "weight of G-Select must be a whole number"),
        (
            "preset=E&g_select=0",
            "at least one generation rule",
        ),
        ("max_depth=99", "nesting depth must be from 1 to 8"),
        ("max_channels=100000", "channels must be from 1 to 40"),
        ("rewrite_steps=31", "rewrite steps"),
        ("preset=Z", "unknown preset"),
        ("target=cobol-1.0", "unknown target"),
        ("reps=0", "repetitions must be from 1 to 100"),
        ("reps=1000000", "repetitions must be from 1 to 100"),
        ("pct=0", "the PCT depth must be from 1 to 64"),
        ("pct=65", "the PCT depth must be from 1 to 64"),
        ("pct=two", "the PCT depth must be a whole number"),
        ("mode=weird", "mode must be"),
        ("mode=effect&effect=", "the effect is empty"),
        ("effect=Get(c1", "syntax error at line 1, column 7"),
        ("effect=" + "Spawn(" * 70 + "eps" + ")" * 70, "nests parentheses 70 deep"),
        ("effect=" + "Get(c1) ; " * 500 + "eps", "at most 4,000"),
    ],
)
def test_bad_input_is_a_400_with_a_message(client: Client, query: str, message: str) -> None:
    for url in (f"/?{query}", f"{PROGRAM}?{query}"):
        response = client.get(url)
        assert response.status_code == 400, url
        assert message in html.unescape(body(response)), (url, body(response)[:2000])


# ---------------------------------------------------------------- the program fragment


def test_fragment_pushes_the_canonical_url_which_restores_the_state(client: Client) -> None:
    settings = {rule: PRESETS["B"].weight(rule) for rule in PRESETS["B"].weights()}
    params = {"mode": "generate", "preset": "B", "seed": "99", "effect": "ignored here", **settings}
    params["g_pipeline"] = "4"
    params["max_n"] = "5"
    response = client.get(PROGRAM, params)
    assert response.status_code == 200
    pushed = response["HX-Push-Url"]
    # Only what differs from the preset, in a fixed order; no target when it is the default.
    assert pushed == "/?seed=99&preset=B&g_pipeline=4&max_n=5"
    fragment_id = program_id_in(body(response))
    restored = client.get(pushed)
    assert program_id_in(body(restored)) == fragment_id
    assert fragment_id == build_generated(99, settings_for("B", g_pipeline=4, max_n=5)).id
    # Out-of-band updates: the mode, cleared feedback, the editor gets the new effect.
    text = body(response)
    assert 'id="mode" name="mode" value="generate" hx-swap-oob="true"' in text
    assert '<textarea id="effect"' in text and 'id="controls-feedback"' in text


def test_same_state_same_fragment(client: Client) -> None:
    params = {"mode": "generate", "seed": "5", "preset": "F"}
    first = body(client.get(PROGRAM, params))
    second = body(client.get(PROGRAM, params))
    strip = re.compile(r'<span class="pg-muted">[0-9.]+ ms</span>|[0-9.]+ ms\)')
    assert strip.sub("", first) == strip.sub("", second)


def test_changing_the_preset_resets_the_weights(client: Client) -> None:
    params = {"mode": "generate", "preset": "E", "seed": "1", "g_seq": "7", "reset": "1"}
    response = client.get(PROGRAM, params)
    assert response.status_code == 200
    assert response["HX-Push-Url"] == "/?seed=1&preset=E"
    text = body(response)
    assert '<div id="weights-inputs" class="pg-grid" hx-swap-oob="true">' in text
    assert 'id="g_seq" name="g_seq" min="0" max="1000" value="0"' in text
    # Without reset, the sent weight overrides the preset.
    params.pop("reset")
    response = client.get(PROGRAM, params)
    assert response["HX-Push-Url"] == "/?seed=1&preset=E&g_seq=7"
    assert "weights-inputs" not in body(response)


def test_fragment_errors_are_retargeted_to_the_right_box(client: Client) -> None:
    response = client.get(PROGRAM, {"mode": "effect", "effect": "Spawn(Put(c1) ;; Get(c1))"})
    assert response.status_code == 400
    assert response["HX-Retarget"] == "#effect-feedback"
    assert response["HX-Reswap"] == "innerHTML"
    text = html.unescape(body(response))
    assert "syntax error at line 1, column 16: expected" in text
    assert "Spawn(Put(c1) ;; Get(c1))\n               ^" in text
    response = client.get(PROGRAM, {"mode": "generate", "g_seq": "x"})
    assert response.status_code == 400 and response["HX-Retarget"] == "#controls-feedback"
    assert "HX-Push-Url" not in response


def test_effect_mode_shows_a_deadlock_trace(client: Client) -> None:
    response = client.get(PROGRAM, {"mode": "effect", "effect": DEADLOCK, "seed": "4"})
    assert response.status_code == 200
    text = html.unescape(body(response))
    assert 'id="verdict">can deadlock<' in text
    assert "<thead><tr><th>step</th><th>main</th><th>p1</th></tr></thead>" in text
    assert text.count('class="lane blocked"') == 2
    assert "stuck at SelGet(c2, …) (+) SelPut(c2, …)" in text
    assert "stuck at Get(c1)" in text
    assert response["HX-Push-Url"] == "/?" + urlencode({"seed": 4, "effect": DEADLOCK})
    # Multi-line unicode input means the same effect: same canonical URL, same program.
    unicode = "Spawn(Get(c1)) ;\n  SelGet(c2, Put(c1)) ⊕ SelPut(c2, ε)"
    again = client.get(PROGRAM, {"mode": "effect", "effect": unicode, "seed": "4"})
    assert again["HX-Push-Url"] == response["HX-Push-Url"]
    assert program_id_in(body(again)) == program_id_in(body(response))


def test_effect_mode_terminating_and_undecided(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    response = client.get(PROGRAM, {"mode": "effect", "effect": PAPER_EFFECTS[1]})
    assert 'id="verdict">terminates<' in body(response)
    assert "pg-trace" not in body(response)
    # A check that needs more states than the limit is undecided, not an error.
    monkeypatch.setattr(ps, "CHECK_MAX_STATES", 1)
    response = client.get(PROGRAM, {"mode": "effect", "effect": PAPER_EFFECTS[0]})
    assert response.status_code == 200
    assert 'id="verdict">undecided (state limit)<' in body(response)


def test_wrong_methods_are_405(client: Client) -> None:
    assert client.post("/").status_code == 405
    assert client.post(PROGRAM).status_code == 405
    assert client.get("/playground/share/").status_code == 405
    assert client.get("/playground/run/").status_code == 405


# ---------------------------------------------------------------- share and run


def test_share_stores_the_program_and_gives_both_links(client: Client) -> None:
    response = client.post("/playground/share/", {"seed": "8", "preset": "C"})
    assert response.status_code == 200
    built = build_generated(8, PRESETS["C"])
    stored = Program.objects.get(pk=built.id)
    assert stored.seed == 8 and stored.settings == PRESETS["C"].as_dict()
    text = html.unescape(body(response))
    assert f"http://testserver/p/{built.id}" in text
    assert "http://testserver/?seed=8&amp;preset=C" in body(response)
    # Sharing twice is the same row; an effect shares as an effect program.
    client.post("/playground/share/", {"seed": "8", "preset": "C"})
    assert Program.objects.filter(pk=built.id).count() == 1
    client.post("/playground/share/", {"seed": "2", "effect": DEADLOCK})
    assert Program.objects.get(pk=build_from_effect(DEADLOCK, 2).id).source == "effect"


def test_share_and_run_refuse_bad_state(client: Client) -> None:
    for url in ("/playground/share/", "/playground/run/"):
        response = client.post(url, {"effect": "Put(", "seed": "1"})
        assert response.status_code == 400
        assert "syntax error" in body(response)
        response = client.post(url, {"target": "nowhere-0.0.1"})
        assert response.status_code == 400 and "unknown target" in body(response)
    assert Program.objects.count() == 0 and Reproduction.objects.count() == 0


def test_run_queues_one_run_and_polls_while_it_is_queued(
    client: Client, django_capture_on_commit_callbacks: object
) -> None:
    go = require_toolchain("go")
    # The enqueue waits for a commit that never comes (a test transaction): Redis stays out.
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        response = client.post("/playground/run/", {"seed": "3", "target": go.id, "reps": "2"})
    assert response.status_code == 200 and len(callbacks) == 1
    repro = Reproduction.objects.get()
    assert (repro.times, repro.repetitions, repro.toolchain_id) == (1, 2, go.id)
    assert repro.pct_depth is None
    assert repro.program_id == build_generated(3, PRESETS["A"]).id
    assert repro.rq_job_id.startswith(f"repro-{repro.pk}-")
    status_url = f"/playground/run/{repro.pk}/"
    assert f'hx-get="{status_url}"' in body(response) and 'hx-trigger="every 1s"' in body(response)
    polling = client.get(status_url)
    assert polling.status_code == 200 and 'hx-trigger="every 1s"' in body(polling)


def test_a_run_takes_the_pct_depth(
    client: Client, django_capture_on_commit_callbacks: object
) -> None:
    go = require_toolchain("go")
    with django_capture_on_commit_callbacks(execute=False):
        response = client.post("/playground/run/", {"seed": "3", "target": go.id, "pct": "4"})
    assert response.status_code == 200
    assert Reproduction.objects.get().pct_depth == 4


@pytest.mark.slow
def test_a_finished_run_shows_its_verdict_and_stops_polling(client: Client) -> None:
    go = require_toolchain("go")
    from runners.campaigns.jobs import run_reproduction

    with override_settings(RQ_QUEUES={"default": {"URL": "redis://127.0.0.1:1/0"}}):
        client.post("/playground/run/", {"seed": "3", "target": go.id, "reps": "2"})
    repro = Reproduction.objects.get()
    run_reproduction(repro.pk)  # what the worker does with the job
    done = client.get(f"/playground/run/{repro.pk}/")
    text = body(done)
    assert done.status_code == 200
    assert "hx-trigger" not in text and "hx-get" not in text
    assert '<span class="badge outcome-terminated">terminated</span>' in text
    assert "ran " in text


@pytest.mark.django_db(transaction=True)
def test_run_without_redis_is_a_503_with_a_message(client: Client) -> None:
    go = require_toolchain("go")
    with override_settings(RQ_QUEUES={"default": {"URL": "redis://127.0.0.1:1/0"}}):
        response = client.post("/playground/run/", {"seed": "3", "target": go.id})
    assert response.status_code == 503
    assert "the run queue is not reachable" in body(response)


def test_unknown_run_is_404(client: Client) -> None:
    assert client.get("/playground/run/999999/").status_code == 404


# ---------------------------------------------------------------- services


@pytest.mark.parametrize("seed", range(60))
def test_pretty_effect_parses_back_to_the_same_effect(seed: int) -> None:
    for preset in ("A", "F"):
        effect = generate_program(seed, PRESETS[preset]).effect
        pretty = pg.pretty_effect(effect)
        assert effects.parse(pretty) == effect
        assert "(+)" not in pretty and "eps" not in pretty  # ⊕ and ε


def test_pretty_effect_breaks_long_effects_over_lines() -> None:
    for text in PAPER_EFFECTS:
        effect = effects.parse(text)
        pretty = pg.pretty_effect(effect, width=40)
        assert effects.parse(pretty) == effect
        assert all(len(line) <= 60 for line in pretty.splitlines())
    assert pg.pretty_effect(effects.parse("Get(c1) ; Put(c2)")) == "Get(c1) ; Put(c2)"


def test_trace_table_lays_out_lanes_and_the_stuck_row() -> None:
    verdict = check_effect(effects.parse(DEADLOCK))
    assert verdict.terminating is False
    trace = pg.trace_table(verdict.counterexample)
    assert trace.processes == ("main", "p1")
    assert [row.step for row in trace.rows] == ["1", "stuck"]
    spawn_row = trace.rows[0]
    assert [c.kind for c in spawn_row.cells] == ["spawn", "start"]
    assert [c.kind for c in trace.rows[-1].cells] == ["blocked", "blocked"]
    synced = pg.trace_table(
        check_effect(effects.parse("Spawn(Put(c1) ; Get(c2)) ; Get(c1) ; Get(c2)")).counterexample
    )
    kinds = [[c.kind for c in row.cells] for row in synced.rows]
    assert ["get", "put"] in kinds


def test_state_query_is_canonical_and_parses_back() -> None:
    state = ps.parse_state({"seed": "10", "preset": "f", "g_seq": "1", "max_cases": "5"})
    assert state.query() == "seed=10&preset=F&max_cases=5"
    assert ps.parse_state(dict(parse_qsl(state.query()))) == state
    effect_state = ps.parse_state({"effect": "Get(c1)  ;\nPut(c1)", "seed": "0"})
    assert effect_state.query() == "seed=0&effect=Get%28c1%29+%3B+Put%28c1%29"
    assert ps.parse_state(dict(parse_qsl(effect_state.query()))) == effect_state


def test_a_race_too_wide_is_undecided_by_time_in_a_child_process(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    import sys
    import time

    from chanfuzz_site import playground_state
    from tests.site.test_site_verify import _race

    # The site's budget is 5 s; 1 s shows the same and keeps the quick loop quick.
    monkeypatch.setattr(playground_state, "CHECK_TIME_LIMIT_S", 1.0)
    limit = sys.getrecursionlimit()
    started = time.monotonic()
    response = client.get("/playground/program/", {"effect": _race(10), "seed": "1"})
    # The checker's budget, not its factorial run time; the request thread's
    # interpreter state untouched (the checker raised the limit in the child).
    assert time.monotonic() - started < 8
    assert response.status_code == 200
    assert "undecided (time limit)" in body(response)
    assert sys.getrecursionlimit() == limit


def test_a_long_deadlock_trace_is_cut_with_a_count() -> None:
    from chanfuzz_site.playground import trace_table
    from chanfuzz_site.playground_state import MAX_TRACE_STEPS
    from generator.effects import parse
    from generator.termination import check_effect

    n = MAX_TRACE_STEPS + 10
    chain = " ; ".join(["Spawn(" + " ; ".join(["Put(c)"] * n) + ")"] + ["Get(c)"] * n + ["Get(d)"])
    cx = check_effect(parse(chain)).counterexample
    table = trace_table(cx)
    more = len(cx.events) - MAX_TRACE_STEPS  # the spawn, then n synchronisations
    assert more == 11
    assert [r.step for r in table.rows[-3:]] == ["…", f"{more} more steps", "stuck"]
    assert f"  … {more} more steps" in table.text


# The largest sizes the playground allows, buffered: proving the widened program took
# 7-13 s a request on one core, in the request's thread, and again for each code tab.
SLOW = (
    "max_depth=8&max_channels=40&max_processes=40&max_n=8&max_selects=6&max_cases=8"
    "&rewrite_steps=30&preset=C&seed=3&buffered=1"
)


@pytest.mark.parametrize("path", ["/", "/playground/program/", "/playground/code/go/"])
def test_a_program_too_slow_to_generate_is_refused_within_the_limit(
    client: Client, monkeypatch: pytest.MonkeyPatch, path: str
) -> None:
    monkeypatch.setattr(ps, "GENERATE_TIME_LIMIT_S", 0.2)
    pg._generated.cache_clear()
    response = client.get(f"{path}?{SLOW}")
    assert response.status_code == 400
    text = html.unescape(response.content.decode())
    assert "generating this program took more than 0.2 s (the playground's limit)" in text
    assert "make the sizes smaller" in text


def test_a_refused_program_is_refused_again_without_generating_it_again(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(ps, "GENERATE_TIME_LIMIT_S", 0.2)
    pg._generated.cache_clear()
    assert client.get(f"/playground/program/?{SLOW}").status_code == 400
    generated = []
    monkeypatch.setattr(pg, "bounded_generate", lambda *a, **k: generated.append(a))
    assert client.get(f"/playground/program/?{SLOW}").status_code == 400
    assert generated == []


def test_a_program_generated_aside_is_the_one_campaigns_generate() -> None:
    pg._generated.cache_clear()
    settings = settings_for("F", buffered=True)
    state = ps.State(seed=41, settings=settings, target=ps.default_target())
    assert pg.build(state) == build_generated(41, settings)


def test_a_link_to_a_toolchain_not_installed_here_takes_its_languages(client: Client) -> None:
    # Links carry the toolchain of their day; after an upgrade they were a 400 that lost
    # the seed and the preset too.
    go = ps.find_target(ps.default_target())
    response = client.get("/", {"seed": "5", "preset": "B", "target": "go-0.0.1-gone"})
    assert response.status_code == 200
    assert response.context["state"].target == go.id
    assert (response.context["state"].seed, response.context["state"].preset) == (5, "B")


def test_a_link_to_no_known_language_is_refused_but_keeps_its_other_parameters(
    client: Client,
) -> None:
    response = client.get("/", {"seed": "5", "preset": "B", "target": "cobol-1"})
    assert response.status_code == 400
    assert "unknown target 'cobol-1'" in html.unescape(response.content.decode())
    state = response.context["state"]
    assert (state.seed, state.preset, state.target) == (5, "B", ps.default_target())


def test_one_bad_value_in_a_link_keeps_the_rest(client: Client) -> None:
    response = client.get("/", {"seed": "77", "preset": "C", "reps": "101", "buffered": "1"})
    assert response.status_code == 400
    state = response.context["state"]
    assert (state.seed, state.preset, state.settings.buffered) == (77, "C", True)
    assert state.reps == ps.DEFAULT_REPETITIONS

"""The playground beyond the paper (issue #15): the buffered checkbox and its links, the
new effect forms in the editor (syntax errors, a double close pointed at), the lanes of
buffered/close steps, and Close/Range in the highlighted views.
"""

from __future__ import annotations

import html
import re
from urllib.parse import parse_qsl, urlencode

import pytest
from django.test import Client

from chanfuzz_site import playground as pg
from chanfuzz_site import playground_state as ps
from generator import effects
from generator.settings import PRESETS, settings_for
from generator.termination import check_effect
from runners.campaigns.programs import build_generated
from tests.site.test_site_playground import PROGRAM, body, program_id_in

pytestmark = pytest.mark.django_db

# Seed 14 of preset A widened: capacities, a close and a range (checked below).
SEED = 14
DOUBLE_CLOSE = "Chan(c) ; Close(c) ; Close(c)"
# Every step beyond the rendezvous, then a send on the closed channel.
ALL_STEPS = "Chan(c, 1) ; Spawn(Put(c) ; Close(c)) ; Get(c) ; Get(c) ; Put(c)"


def _checkbox(text: str) -> str:
    match = re.search(r'<input type="checkbox" id="buffered"[^>]*>', text)
    assert match, "no buffered checkbox"
    return match.group(0)


def _effect_pane(text: str) -> str:
    match = re.search(r'<div id="effect-src">(.*?)</div>\n', text, re.S)
    assert match
    return match.group(1)


# ---------------------------------------------------------------- the checkbox and links


def test_ticking_buffered_generates_beyond_the_paper_and_the_link_carries_it(
    client: Client,
) -> None:
    params = {"mode": "generate", "seed": str(SEED), "preset": "A", "buffered": "on"}
    response = client.get(PROGRAM, params)
    assert response.status_code == 200
    assert response["HX-Push-Url"] == f"/?seed={SEED}&preset=A&buffered=1"
    expected = build_generated(SEED, settings_for("A", buffered=True))
    assert program_id_in(body(response)) == expected.id
    text = effects.to_text(expected.effect)
    assert re.search(r"Chan\(c\d+, \d\)", text) and "Close(" in text and "Range(" in text
    assert ", buffered, seed 14" in body(response)
    # The pushed link restores the same program, the box ticked.
    restored = client.get(response["HX-Push-Url"])
    assert program_id_in(body(restored)) == expected.id
    assert "checked" in _checkbox(body(restored))


def test_links_from_before_the_setting_keep_their_program_and_leave_it_off(
    client: Client,
) -> None:
    text = body(client.get(f"/?seed={SEED}&preset=A"))
    assert program_id_in(text) == build_generated(SEED, PRESETS["A"]).id
    assert "checked" not in _checkbox(text)
    state = ps.parse_state({"seed": str(SEED), "preset": "A"})
    assert state.settings.buffered is False
    assert state.query() == f"seed={SEED}&preset=A"
    ticked = ps.parse_state({"seed": str(SEED), "buffered": "1", "g_seq": "3"})
    assert ticked.query() == f"seed={SEED}&preset=A&g_seq=3&buffered=1"
    assert ps.parse_state(dict(parse_qsl(ticked.query()))) == ticked


def test_a_link_with_a_bad_buffered_value_is_a_400(client: Client) -> None:
    response = client.get("/?seed=1&buffered=maybe")
    assert response.status_code == 400
    assert "buffered channels must be 1 or 0" in html.unescape(body(response))


def test_buffered_is_ignored_for_a_program_from_an_effect() -> None:
    # The effect says its own channels: the link is the effect's, as before.
    state = ps.parse_state({"effect": "Get(c1)", "buffered": "1", "seed": "0"})
    assert state.query() == "seed=0&effect=Get%28c1%29"


# ---------------------------------------------------------------- the effect editor


@pytest.mark.parametrize(
    ("effect", "message", "pointer"),
    [
        (
            "Chan(c,)",
            "column 8: expected the capacity of c (a whole number from 0 to 64, or unbounded), "
            "found ')'",
            "Chan(c,)\n       ^",
        ),
        (
            "Close(c)",
            "column 1: expected Close(c) on a channel declared by Chan(c) or Chan(c, k)",
            "Close(c)\n^",
        ),
        (
            "Chan(c,1) ; Chan(c,2)",
            "column 18: expected capacity 1 for c, as declared at position 6, found capacity 2",
            "Chan(c,1) ; Chan(c,2)\n                 ^",
        ),
    ],
)
def test_syntax_errors_of_the_new_forms_show_under_the_editor_with_a_caret(
    client: Client, effect: str, message: str, pointer: str
) -> None:
    response = client.get(PROGRAM, {"mode": "effect", "effect": effect})
    assert response.status_code == 400
    assert response["HX-Retarget"] == "#effect-feedback"
    text = html.unescape(body(response))
    assert f"syntax error at line 1, {message}" in text
    assert f'<pre class="pg-pointer">{pointer}</pre>' in text


def test_a_double_close_is_rejected_with_its_trace_and_a_caret_under_the_second_close(
    client: Client,
) -> None:
    typed = "Chan(c) ;\n  Close(c) ;\n  Close(c)"
    response = client.get(PROGRAM, {"mode": "effect", "effect": typed})
    assert response.status_code == 200
    text = html.unescape(body(response))
    assert 'id="verdict">rejected<' in text
    assert "Rejected:</strong> main closes c, which is already closed" in text
    # Under the editor (out of band), in the text as typed: line 3, the second Close.
    feedback = re.search(
        r'<div id="effect-feedback"[^>]*hx-swap-oob="true">(.*?)</div>\n', text, re.S
    )
    assert feedback and "Rejected at line 3, column 3" in feedback.group(1)
    assert '<pre class="pg-pointer">  Close(c)\n  ^</pre>' in feedback.group(1)
    # The trace: main's close, then the problem as the last line, nobody stuck.
    assert '<td class="lane close">Close(c)</td>' in text
    assert re.search(
        r'<tr class="problem"><th>then</th><td class="lane problem" colspan="1">'
        r"main closes c, which is already closed</td></tr>",
        text,
    )
    assert "stuck" not in re.search(r'<table class="pg-trace".*?</table>', text, re.S).group(0)


def test_a_double_close_link_points_into_the_effect_the_editor_shows(client: Client) -> None:
    response = client.get("/?" + urlencode({"seed": 0, "effect": DOUBLE_CLOSE}))
    assert response.status_code == 200
    text = html.unescape(body(response))
    feedback = re.search(r'<div id="effect-feedback"[^>]*>(.*?)</div>\n', text, re.S)
    assert feedback and "Rejected at line 1, column 22" in feedback.group(1)
    assert f"{DOUBLE_CLOSE}\n{' ' * 21}^" in feedback.group(1)


def test_other_problems_are_rejections_without_a_caret(client: Client) -> None:
    response = client.get(PROGRAM, {"mode": "effect", "effect": "Chan(c, 1) ; Put(c)"})
    text = html.unescape(body(response))
    assert 'id="verdict">rejected<' in text
    assert "1 message(s) left in c's buffer, never received" in text
    assert "effect-rejection" not in text
    assert '<td class="lane put">Put(c) into its buffer</td>' in text


# ---------------------------------------------------------------- lanes


def test_buffered_and_close_steps_sit_in_their_process_lane_and_the_problem_ends_it() -> None:
    verdict = check_effect(effects.parse(ALL_STEPS))
    cx = verdict.counterexample
    assert verdict.terminating is False and cx is not None
    trace = pg.trace_table(cx)
    assert trace.processes == ("main", "p1")
    lanes: dict[str, list[tuple[str, str]]] = {"main": [], "p1": []}
    for row in trace.rows:
        for process, cell in zip(trace.processes, row.cells, strict=True):
            if cell.kind not in ("", "idle"):
                lanes[process].append((cell.kind, cell.text))
    assert ("put", "Put(c) into its buffer") in lanes["p1"]
    assert ("close", "Close(c)") in lanes["p1"]
    assert ("get", "Get(c) from its buffer") in lanes["main"]
    assert ("closed", "Get(c): closed, empty") in lanes["main"]
    last = trace.rows[-1]
    assert (last.step, last.note) == ("then", "main sends on c, which is closed")
    assert "stuck" not in [row.step for row in trace.rows]
    assert trace.text.endswith("then: main sends on c, which is closed")


def test_a_deadlock_beyond_the_paper_still_ends_with_who_is_stuck() -> None:
    cx = check_effect(effects.parse("Chan(c) ; Range(c, eps)")).counterexample
    trace = pg.trace_table(cx)
    assert trace.rows[-1].step == "stuck"
    assert trace.rows[-1].cells[0].text == "stuck at Range(c, …) — needs a partner on c"


# ---------------------------------------------------------------- the program views


def test_close_range_and_capacities_are_highlighted_in_the_effect_and_lambda_views(
    client: Client,
) -> None:
    text = body(client.get(f"/?seed={SEED}&preset=A&buffered=1"))
    pane = _effect_pane(text)
    assert '<span class="nb">Close</span>' in pane
    assert '<span class="k">Range</span>' in pane
    assert re.search(r'<span class="nb">Chan</span><span class="p">\(</span><span class="n[v]?">'
                     r'c\d+</span><span class="p">,</span><span class="w"> </span>'
                     r'<span class="m">\d</span>', pane)  # fmt: skip
    lam = re.search(r'<div id="lambda-src">(.*?)</div>\n', text, re.S).group(1)
    assert '<span class="k">chan</span><span class="p">[</span>' in lam
    assert '<span class="k">close</span>' in lam
    assert '<span class="k">for</span>' in lam and '<span class="k">do</span>' in lam


@pytest.mark.parametrize(
    "text",
    [
        ALL_STEPS,
        "Chan(c, 2) ; Chan(d) ; Spawn(Put(c) ; Put(c) ; Close(c)) ; "
        "Range(c, Spawn(Put(d)) ; SelGet(d, Range(c, eps)) (+) SelGet(d, eps)) ; Close(d)",
        "Chan(c1, 3) ; Spawn(Spawn(Put(c1) ; Close(c1)) ; (Range(c1, eps) + Range(c1, Get(c2))))",
    ],
)
def test_pretty_effects_with_ranges_parse_back_to_the_same_effect(text: str) -> None:
    effect = effects.parse(text)
    for width in (16, 24, 64):
        assert effects.parse(pg.pretty_effect(effect, width=width)) == effect


def test_a_long_range_breaks_its_body_over_lines() -> None:
    effect = effects.parse(
        "Chan(c, 2) ; Spawn(Put(c) ; Close(c)) ; "
        "Range(c, Spawn(Put(d)) ; Get(d) ; Spawn(Put(e)) ; Get(e))"
    )
    pretty = pg.pretty_effect(effect, width=40)
    assert "Range(c,\n  Spawn(Put(d)) ;\n  Get(d) ;\n  Spawn(Put(e)) ;\n  Get(e)\n)" in pretty
    assert effects.parse(pretty) == effect


WITH_DEFAULTS = (
    "Chan(c, 1) ; Spawn(Get(d) ; Put(c)) ; SelGet(c, Put(d) ; Spawn(Put(e) ; Get(e))) "
    "(+) Default(Put(d) ; Get(c)) ; SelGet(z, eps) (+) Default(eps)"
)


def test_pretty_effects_with_defaults_parse_back_to_the_same_effect() -> None:
    effect = effects.parse(WITH_DEFAULTS)
    for width in (16, 24, 64):
        pretty = pg.pretty_effect(effect, width=width)
        assert "Default(" in pretty and effects.parse(pretty) == effect


def test_a_default_taken_shows_in_its_processs_lane(client: Client) -> None:
    # The partner may not have reached c yet: main may take the default and leave p1 stuck.
    verdict = check_effect(effects.parse("Spawn(Put(c)) ; SelGet(c, eps) (+) Default(eps)"))
    trace = pg.trace_table(verdict.counterexample)
    assert trace.processes == ("main", "p1")
    cells = [c for row in trace.rows for c in row.cells]
    assert any(c.text == "takes the select's default" for c in cells)
    page = body(client.get("/", {"effect": "Spawn(Put(c)) ; SelGet(c, eps) (+) Default(eps)"}))
    assert "takes the select&#x27;s default" in page or "takes the select's default" in page


def test_an_unbounded_channel_is_written_where_the_target_has_one(client: Client) -> None:
    """Kotlin, Racket and the Rust targets write it; Go, Crystal and Clojure say they
    cannot."""
    effect = {"mode": "effect", "effect": "Chan(c, unbounded) ; Spawn(Put(c)) ; Get(c)"}

    def plain(response) -> str:
        return html.unescape(re.sub(r"<[^>]+>", "", body(response)))

    page = client.get(PROGRAM, effect)
    assert "let c = chan[unbounded] c in" in plain(page)
    made = {
        "rust-crossbeam": "let (c_tx, c_rx) = crossbeam_channel::unbounded::<",
        "rust-std": "let (c_tx, c_rx) = chan_u_();",
        "kotlin": "Channel.UNLIMITED)",
        "racket": "(define c (make-async-channel #f))",
    }
    for lang, line in made.items():
        assert line in plain(client.get(f"/playground/code/{lang}/", effect)), lang
    shown = re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", body(page))))
    for title in ("Go", "Crystal", "Clojure (core.async go)", "Clojure (core.async thread)"):
        assert f"{title} cannot express this program." in shown

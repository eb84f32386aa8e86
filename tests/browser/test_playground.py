"""The playground in a real chromium against the whole stack (runserver + Redis + rqworker).

Generate, change the seed, type a deadlocking effect and read its trace, run a
program on Go through the RQ worker, share and reopen. Screenshots land in
var/test-artifacts/screenshots/playground-*.png.
"""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from tests.browser.conftest import Stack, screenshot

DEADLOCK = "Spawn(Get(c1)) ; SelGet(c2, Put(c1)) (+) SelPut(c2, eps)"


def test_generate_change_seed_and_read_the_code(stack: Stack, page: Page) -> None:
    page.goto(stack.url + "/")
    expect(page.locator("#verdict")).to_have_text("terminates")
    expect(page.locator("#code-go")).to_contain_text("package main")
    first_id = page.locator("#program-id").inner_text()
    screenshot(page, "playground-initial")

    page.fill("#seed", "12345")
    page.locator("#seed").dispatch_event("change")
    expect(page.locator("#program-id")).not_to_have_text(first_id)
    expect(page).to_have_url(re.compile(r"/\?seed=12345&preset=A"))
    # The effect editor shows the new program's effect (unicode, pretty-printed).
    assert page.locator("#effect").input_value().strip() != ""

    second_id = page.locator("#program-id").inner_text()
    page.click("#new-seed")
    expect(page.locator("#program-id")).not_to_have_text(second_id)

    page.select_option("#preset", "E")
    expect(page.locator("#g_seq")).to_have_value("0")
    expect(page).to_have_url(re.compile(r"preset=E"))

    page.click("label[for=tab-kotlin]")
    expect(page.locator("#code-kotlin")).to_be_visible()
    expect(page.locator("#code-kotlin")).to_contain_text("fun main")
    # Shown, the tab fetches its highlighted code (it came as plain text).
    expect(page.locator("#code-kotlin .hl")).to_be_visible()
    screenshot(page, "playground-kotlin-tab")


def test_effect_box_errors_and_deadlock_trace(stack: Stack, page: Page) -> None:
    page.goto(stack.url + "/")
    page.fill("#effect", "Spawn(Put(c1) ; Get(c1")
    page.click("#check-effect")
    error = page.locator("#effect-feedback .pg-error")
    expect(error).to_contain_text("syntax error at line 1, column 23")
    expect(page.locator("#effect-feedback .pg-pointer")).to_contain_text("^")
    screenshot(page, "playground-syntax-error")

    page.fill("#effect", DEADLOCK)
    page.click("#check-effect")
    expect(page.locator("#verdict")).to_have_text("can deadlock")
    expect(page.locator("#effect-feedback")).to_be_empty()
    trace = page.locator("#trace")
    expect(trace.locator("thead th")).to_have_text(["step", "main", "p1"])
    expect(trace.locator("tr.stuck td.blocked")).to_have_count(2)
    expect(page).to_have_url(re.compile(r"effect=Spawn"))
    screenshot(page, "playground-deadlock-trace")


def test_run_on_go_then_share_and_reopen(stack: Stack, page: Page) -> None:
    page.goto(stack.url + "/?seed=7&preset=A&target=go-1.26.8-machine&reps=2")
    expect(page.locator("#run")).to_contain_text("Run on go-")
    program_id = page.locator("#program-id").inner_text()
    go_source = page.locator("#code-go").inner_text()
    page.click("#run")
    result = page.locator("#run-result.done")
    expect(result).to_be_visible(timeout=120_000)
    expect(result.locator(".badge")).to_have_text("terminated")
    screenshot(page, "playground-run-go")

    page.click("#share")
    state_link = page.locator("#share-state-url")
    expect(state_link).to_contain_text("seed=7")
    expect(page.locator("#share-program-url")).to_contain_text(f"/p/{program_id}")
    screenshot(page, "playground-share")

    url = state_link.inner_text()
    other = page.context.new_page()
    other.goto(url)
    expect(other.locator("#program-id")).to_have_text(program_id)
    assert other.locator("#code-go").inner_text() == go_source
    expect(other.locator("#seed")).to_have_value("7")
    expect(other.locator("#reps")).to_have_value("2")

    # An effect state restores into the editor, and gives the same program again.
    other.goto(stack.url + "/?seed=3&effect=" + DEADLOCK.replace(" ", "%20").replace("+", "%2B"))
    expect(other.locator("#verdict")).to_have_text("can deadlock")
    assert "SelGet(c2" in other.locator("#effect").input_value()
    other.close()


def test_back_restores_the_controls_of_the_state_it_goes_back_to(stack: Stack, page: Page) -> None:
    # htmx's snapshot kept the inputs' first values: Back showed seed 77's program and URL
    # under the seed box of the page's first load, and the next Generate used that seed.
    page.goto(stack.url + "/?seed=14&preset=A")
    for seed in ("77", "78"):
        page.fill("#seed", seed)
        page.locator("#seed").dispatch_event("change")
        expect(page).to_have_url(re.compile(rf"/\?seed={seed}&"))
    seventy_eight = page.locator("#program-id").inner_text()
    page.go_back()
    expect(page).to_have_url(re.compile(r"/\?seed=77&"))
    expect(page.locator("#seed")).to_have_value("77")
    expect(page.locator("#program-id")).not_to_have_text(seventy_eight)

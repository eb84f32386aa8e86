"""The playground beyond the paper (issue #15) in a real chromium: the buffered checkbox
generates programs with capacities, closes and ranges and the link keeps it; a double
close typed in the editor is rejected with its trace and a caret under the second Close.
Screenshots land in var/test-artifacts/screenshots/playground-buffered-*.png.
"""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from tests.browser.conftest import Stack, screenshot


def test_ticking_buffered_generates_a_buffered_program(stack: Stack, page: Page) -> None:
    page.goto(stack.url + "/?seed=14&preset=A")
    expect(page.locator("#verdict")).to_have_text("terminates")
    box = page.locator("#buffered")
    expect(box).not_to_be_checked()
    paper_id = page.locator("#program-id").inner_text()
    expect(page.locator("#effect-src")).not_to_contain_text("Close(")

    box.check()
    expect(page).to_have_url(re.compile(r"/\?seed=14&preset=A&buffered=1$"))
    expect(page.locator("#program-id")).not_to_have_text(paper_id)
    effect = page.locator("#effect-src")
    expect(effect).to_contain_text(re.compile(r"Chan\(c\d+, [1-9]\)"))
    expect(effect).to_contain_text("Close(")
    expect(effect.locator(".nb", has_text="Close").first).to_be_visible()  # highlighted
    expect(page.locator("#lambda-src")).to_contain_text("close ")
    expect(page.locator("#verdict")).to_have_text("terminates")
    screenshot(page, "playground-buffered-generated")

    # The link restores it, box ticked; unticking goes back to the paper's program.
    buffered_id = page.locator("#program-id").inner_text()
    page.reload()
    expect(page.locator("#program-id")).to_have_text(buffered_id)
    expect(page.locator("#buffered")).to_be_checked()
    page.locator("#buffered").uncheck()
    expect(page.locator("#program-id")).to_have_text(paper_id)
    expect(page).to_have_url(re.compile(r"/\?seed=14&preset=A$"))


def test_a_double_close_is_rejected_under_the_editor(stack: Stack, page: Page) -> None:
    page.goto(stack.url + "/")
    page.fill("#effect", "Chan(c) ; Close(c) ; Close(c)")
    page.click("#check-effect")
    expect(page.locator("#verdict")).to_have_text("rejected")
    feedback = page.locator("#effect-feedback .pg-error")
    expect(feedback).to_contain_text("Rejected at line 1, column 22")
    expect(feedback).to_contain_text("main closes c, which is already closed")
    expect(page.locator("#effect-feedback .pg-pointer")).to_have_text(
        "Chan(c) ; Close(c) ; Close(c)\n" + " " * 21 + "^"
    )
    trace = page.locator("#trace")
    expect(trace.locator("td.close")).to_have_text(["Close(c)"])
    expect(trace.locator("tr.problem td")).to_have_text("main closes c, which is already closed")
    screenshot(page, "playground-buffered-double-close")

    # A syntax error of the new forms shows with its position in the same place.
    page.fill("#effect", "Chan(c,)")
    page.click("#check-effect")
    expect(page.locator("#effect-feedback .pg-error")).to_contain_text(
        "syntax error at line 1, column 8: expected the capacity of c"
    )

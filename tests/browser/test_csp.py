"""The Content-Security-Policy in a real browser: the pages' scripts, htmx and styles all
work under it, and chromium reports no violation (a blocked inline script or style)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import ConsoleMessage, Page, expect

from tests.browser.conftest import Stack

pytestmark = pytest.mark.security


def _violations(page: Page) -> list[str]:
    found: list[str] = []

    def note(message: ConsoleMessage) -> None:
        if "Content Security Policy" in message.text or "Content-Security-Policy" in message.text:
            found.append(message.text)

    page.on("console", note)
    return found


def test_pages_work_under_the_policy_without_violations(stack: Stack, page: Page) -> None:
    violations = _violations(page)
    response = page.goto(stack.url + "/")
    policy = response.headers["content-security-policy"]
    assert "script-src 'self'" in policy and "style-src 'self'" in policy
    assert "'unsafe-inline'" not in policy
    # The playground's own script (a new seed) and htmx (the program it asks for) run.
    first_id = page.locator("#program-id").inner_text()
    page.click("#new-seed")
    expect(page.locator("#program-id")).not_to_have_text(first_id)
    expect(page.locator("#verdict")).to_have_text(re.compile(r"\S"))
    # Ctrl+Enter in the effect box: a script event now, not an htmx filter (an eval).
    page.fill("#effect", "Spawn(Get(c1)) ; Get(c1)")
    page.press("#effect", "Control+Enter")
    expect(page.locator("#verdict")).to_have_class(re.compile(r"\bbad\b"))
    # The campaign list's filter submits itself (static/chanfuzz.js, not an inline handler).
    page.goto(stack.url + "/campaigns/")
    page.select_option("select[name=status]", "done")
    expect(page).to_have_url(re.compile(r"/campaigns/\?status=done$"))
    page.goto(stack.url + "/about/")
    assert violations == [], "\n".join(violations)

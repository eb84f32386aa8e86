"""The harness itself: the stack serves the about page to a real chromium."""

from __future__ import annotations

from tests.browser.conftest import Stack, screenshot


def test_about_page_renders_in_chromium(stack: Stack, page) -> None:  # noqa: ANN001
    page.goto(stack.url + "/about/")
    assert "chanfuzz" in page.title().lower() or "chanfuzz" in page.content().lower()
    assert screenshot(page, "about").stat().st_size > 1000

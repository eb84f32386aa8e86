"""The harness itself: the stack serves the about page to a real chromium."""

from __future__ import annotations

from runners.targets import all_targets
from tests.browser.conftest import Stack, screenshot


def test_about_page_renders_in_chromium(stack: Stack, page) -> None:  # noqa: ANN001
    response = page.goto(stack.url + "/about/")
    # The about page itself, not any page of the site (a 404 says "chanfuzz" too).
    assert response is not None and response.status == 200, response
    assert page.title() == "chanfuzz"
    heading = page.get_by_role("heading", level=1)
    assert heading.inner_text() == "Fuzzing channel runtimes with programs that cannot hang"
    assert page.get_by_role("heading", name="How runs are contained here").is_visible()
    # Filled in by the view: the sandbox in use, and every target of the registry.
    assert page.locator("ul.sandbox li").count() > 0
    languages = page.locator("main p").nth(1).inner_text()
    assert all(target.title in languages for target in all_targets()), languages
    assert screenshot(page, "about").stat().st_size > 1000

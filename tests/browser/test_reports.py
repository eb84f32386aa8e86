"""The Kotlin report page in a real chromium: its tables render and link into the app."""

from __future__ import annotations

from tests.browser.conftest import Stack, screenshot


def test_kotlin_report_page_shows_table_2_and_the_releases(stack: Stack, page) -> None:  # noqa: ANN001
    page.goto(stack.url + "/campaigns/")
    page.get_by_role("link", name="the Kotlin report").click()
    page.wait_for_url("**/reports/kotlin/")
    assert page.get_by_role("heading", name="Table 2, Kotlin column").is_visible()
    table2 = page.locator("table").first
    assert table2.locator("tbody tr").count() == 6  # heuristics A–F
    assert page.get_by_role("cell", name="1.11.0", exact=True).is_visible()
    screenshot(page, "kotlin-report")

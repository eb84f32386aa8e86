"""Browser tests: the whole site as in production, driven by Playwright in Debian's chromium.

One stack per test session, all real and all child processes (tests/live_stack.py): a
redis-server, a file SQLite database, `manage.py runserver` and one `manage.py rqworker`,
with the production settings on plain HTTP.
Tests drive it through `page` (pytest-playwright) and find it at `stack.url`.
Screenshots go to `var/test-artifacts/screenshots/` (`screenshot(page, name)`).

Chromium comes from Debian (`scripts/install_browser.sh`), never from
Playwright's own download, which cannot reach its host here.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from playwright.sync_api import Page

from tests.live_stack import LiveSite, live_site
from tests.site.site_helpers import REPO

pytestmark = pytest.mark.slow

CHROMIUM = os.environ.get("CHANFUZZ_CHROMIUM", "/usr/bin/chromium")
ARTIFACTS = REPO / "var" / "test-artifacts" / "screenshots"


USERNAME, PASSWORD = "ada", "a-browser-test-password-1"


@dataclass
class Stack(LiveSite):
    _user_made: bool = False

    def sign_in(self, page: Page, path: str) -> None:
        """Sign in as an ordinary user (made once) through the login form, as a person
        would, and land on `path`."""
        if not self._user_made:
            self.make_user(USERNAME, PASSWORD)
            self._user_made = True
        page.goto(f"{self.url}/accounts/login/?next={path}")
        page.fill("input[name=username]", USERNAME)
        page.fill("input[name=password]", PASSWORD)
        page.click("form.account-form button[type=submit]")
        page.wait_for_url(self.url + path)


@pytest.fixture(scope="session")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    if not Path(CHROMIUM).exists():
        message = f"no chromium at {CHROMIUM}: run scripts/install_browser.sh"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    with live_site(tmp_path_factory.mktemp("stack")) as site:
        yield Stack(site.url, site.env, site.redis_url)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict) -> dict:
    """Debian's chromium, headless, with nothing that reaches for the network."""
    return {
        **browser_type_launch_args,
        "executable_path": CHROMIUM,
        "headless": True,
        "args": [
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
        ],
    }


def screenshot(page, name: str) -> Path:  # noqa: ANN001 - a playwright Page
    """Save a full-page screenshot as a test artifact; returns its path."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "tests/browser" in str(item.fspath):
            item.add_marker(pytest.mark.slow)

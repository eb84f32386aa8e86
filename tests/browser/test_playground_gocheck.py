"""The playground's "Check Go code" tab in a real chromium against the whole stack.

Paste a deadlocking Go program, press Check, read the verdict and the lanes; open a
λ_chan-fragment program as an effect in the effect editor; share a program and reopen
its permalink. Screenshots land in var/test-artifacts/screenshots/gocheck-*.png.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from runners.gocheck import frontend
from tests.browser.conftest import Stack, screenshot

# A worker ranging over a channel nobody closes: main waits for `done` for ever.
FORGOT_CLOSE = """\
package main

func worker(jobs chan int, done chan bool) {
	for j := range jobs {
		println("job", j)
	}
	done <- true
}

func main() {
	jobs := make(chan int)
	done := make(chan bool)
	go worker(jobs, done)
	for i := 0; i < 2; i++ {
		jobs <- i
	}
	<-done
}
"""

# The goroutine sends its result before `done`; main waits for `done` first.
WRONG_ORDER = """\
package main

func main() {
	done := make(chan bool)
	results := make(chan int)
	go func() {
		results <- 42
		done <- true
	}()
	<-done
	println(<-results)
}
"""


@pytest.fixture(scope="module")
def go_stack(stack: Stack) -> Stack:
    """The stack with the gocheck helper in its var dir already (a first build there would
    take ~15 s of the first check's budget)."""
    try:
        built = frontend.helper_path()
    except frontend.FrontendError as missing:
        pytest.skip(f"the gocheck helper does not build: {missing}")
    relative = built.relative_to(built.parents[2])  # gocheck/<hash>/gocheck-ssa
    target = Path(stack.env["CHANFUZZ_VAR_DIR"]) / relative
    if not target.exists():
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(built, target)
    return stack


def test_paste_check_and_read_the_lanes(go_stack: Stack, page: Page) -> None:
    errors: list[str] = []  # script errors and Content-Security-Policy violations
    page.on("console", lambda m: errors.append(f"{m.text} ({m.location.get('url')})")
            if m.type == "error" and not m.location.get("url", "").endswith("/favicon.ico")
            else None)  # fmt: skip
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(go_stack.url + "/playground/go/")
    expect(page.locator("#mode-go")).to_have_attribute("aria-current", "page")
    expect(page.locator("#go-source")).to_contain_text("package main")
    page.fill("#go-source", FORGOT_CLOSE)
    page.click("#go-check")
    verdict = page.locator("#go-verdict")
    expect(verdict).to_have_text("global deadlock", timeout=60_000)
    expect(verdict).to_have_class(re.compile(r"\bbad\b"))
    lanes = page.locator("#trace-1")
    expect(lanes.locator("thead th")).to_have_text(
        ["step", "main", "g1 (worker, spawned at line 13)"]
    )
    expect(lanes.locator("tbody tr").first.locator("td.put")).to_have_text(
        "line 15: send on jobs (made at line 11)"
    )
    expect(lanes.locator("tbody tr").first.locator("td.get")).to_have_text(
        "line 4: receive from jobs (made at line 11)"
    )
    expect(lanes.locator("tr.stuck td.blocked")).to_have_count(2)
    expect(page.locator("#go-no-effect")).to_contain_text("No effect to open:")
    screenshot(page, "gocheck-lanes")

    # Go's own error for a program that does not type-check, in the same place.
    page.fill("#go-source", "package main\n\nfunc main() {\n\tx := 1\n}\n")
    page.keyboard.press("Control+Enter")
    expect(verdict).to_have_text("bad input", timeout=60_000)
    expect(page.locator("#go-error")).to_contain_text("declared and not used: x")
    screenshot(page, "gocheck-bad-input")
    assert errors == []


def test_open_as_effect_then_share_and_reopen(go_stack: Stack, page: Page) -> None:
    page.goto(go_stack.url + "/playground/go/")
    page.fill("#go-source", WRONG_ORDER)
    page.click("#go-check")
    expect(page.locator("#go-verdict")).to_have_text("global deadlock", timeout=60_000)
    expect(page.locator("#trace-1 tr.stuck td.blocked")).to_have_count(2)

    page.click("#go-share")
    link = page.locator("#go-share-url")
    expect(link).to_contain_text("/playground/go/")
    url = link.inner_text()
    other = page.context.new_page()
    other.goto(url)
    expect(other.locator("#go-verdict")).to_have_text("global deadlock", timeout=60_000)
    assert other.locator("#go-source").input_value() == WRONG_ORDER
    screenshot(other, "gocheck-permalink")
    other.close()

    page.click("#go-open-effect")
    expect(page.locator("#verdict")).to_have_text("can deadlock")
    assert "Spawn(Put(c" in page.locator("#effect").input_value()
    expect(page.locator("#mode-effects")).to_have_attribute("aria-current", "page")
    screenshot(page, "gocheck-open-as-effect")

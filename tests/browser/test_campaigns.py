"""The campaign UI in a real browser against the real stack (redis, runserver, one rqworker):
start a campaign through the form and watch it reach 100 %, then follow a finding of a
deadlocking Crystal program to its permalink, reproduce it, and download its bundle."""

from __future__ import annotations

import io
import re
import time
import zipfile

from playwright.sync_api import Page, expect

from tests.browser.conftest import Stack, screenshot
from tests.runners.conftest import require_toolchain

DONE_TIMEOUT_MS = 240_000


def test_campaign_from_the_form_runs_to_100_percent(stack: Stack, page: Page) -> None:
    go = require_toolchain("go")
    # Anonymous: the form is for accounts, so it asks for a sign-in first.
    page.goto(stack.url + "/campaigns/new")
    expect(page).to_have_url(re.compile(r"/accounts/login/\?next=/campaigns/new$"))
    stack.sign_in(page, "/campaigns/new")
    expect(page.locator("#quotas")).to_contain_text("20000 programs per campaign")
    screenshot(page, "campaign_form")
    page.fill("input[name=name]", "browser go")
    page.fill("input[name=count]", "20")
    page.fill("input[name=timeout_s]", "10")
    page.fill("input[name=repetitions]", "2")
    page.fill("input[name=chunk_size]", "10")
    page.check(f"input[name=targets][value='{go.id}']")
    page.select_option("select[name=heuristic]", "F")
    page.click("form.campaign-form button[type=submit]")
    expect(page).to_have_url(re.compile(r"/campaigns/\d+/$"))
    expect(page.locator("h1")).to_contain_text("browser go")

    # The progress partial polls itself until the worker has run all 20 programs.
    expect(page.locator("#live")).to_have_attribute("data-status", "done", timeout=DONE_TIMEOUT_MS)
    expect(page.locator("#done")).to_have_text("20")
    expect(page.locator("#percent")).to_have_text("100.0")
    expect(page.locator("progress.bar")).to_have_attribute("value", "100.0")
    # The executions table reloads itself while the campaign runs: all 20 are in.
    expect(page.locator("#executions-table tbody tr")).to_have_count(20)
    screenshot(page, "campaign_detail_done")

    # Polling has stopped: no more requests for the partial once the campaign is done.
    polls: list[str] = []
    page.on("request", lambda r: polls.append(r.url) if r.url.endswith("/live") else None)
    page.wait_for_timeout(4500)
    assert polls == []

    detail = page.url
    page.goto(stack.url + "/campaigns/")
    expect(page.locator("table.list")).to_contain_text("browser go")
    expect(page.locator("table.list")).to_contain_text("20 / 20")
    screenshot(page, "campaign_list")

    # Its owner deletes it, once the browser's confirmation is answered yes (a script of
    # the site's own, under the CSP); answered no, nothing happens.
    page.goto(detail)
    questions: list[str] = []

    def answer(dialog, yes: bool) -> None:  # noqa: ANN001 - Playwright's Dialog
        questions.append(dialog.message)
        dialog.accept() if yes else dialog.dismiss()

    page.once("dialog", lambda dialog: answer(dialog, False))
    page.get_by_role("button", name="Delete").click()
    expect(page).to_have_url(detail)
    page.once("dialog", lambda dialog: answer(dialog, True))
    page.get_by_role("button", name="Delete").click()
    expect(page).to_have_url(stack.url + "/campaigns/")
    expect(page.locator("ul.messages")).to_contain_text("deleted")
    assert len(questions) == 2 and questions[0].startswith("Delete campaign #"), questions
    expect(page.locator(f"a[href='{detail.removeprefix(stack.url)}']")).to_have_count(0)


def test_finding_to_permalink_to_bundle(stack: Stack, page: Page) -> None:
    require_toolchain("crystal")
    # Crystal has no deadlock detector: a program whose processes wait on each other hangs.
    created = stack.manage(
        "campaign", "create", "--target", "crystal", "--effect", "Spawn(Get(c2)) ; Get(c1)",
        "--timeout", "2", "--retries", "0", "--repetitions", "1", "--name", "deadlock",
    )  # fmt: skip
    assert created.returncode == 0, created.stderr
    campaign_id = re.search(r"campaign (\d+) created", created.stdout)[1]
    page.goto(f"{stack.url}/campaigns/{campaign_id}/")
    expect(page.locator("#live")).to_have_attribute("data-status", "done", timeout=DONE_TIMEOUT_MS)
    expect(page.locator(".findings-table")).to_contain_text("timeout")
    expect(page.locator("figure.plot svg")).to_be_visible()
    screenshot(page, "campaign_with_finding")

    page.goto(stack.url + "/findings/")
    expect(page.locator("table.list")).to_contain_text("crystal")
    screenshot(page, "finding_list")
    page.locator("table.list tbody tr a").first.click()
    expect(page.locator("h1")).to_contain_text("timeout")
    expect(page.locator("h1")).to_contain_text("crystal")
    screenshot(page, "finding_detail")

    page.click("a.example")
    expect(page).to_have_url(re.compile(r"/p/[a-z2-7]{12}$"))
    program_id = page.url.rsplit("/", 1)[1]
    expect(page.locator("pre.effect")).to_have_text("Spawn(Get(c2)) ; Get(c1)")
    expect(page.locator("#source-go .highlight")).to_be_visible()
    page.click("label[for=tab-crystal]")
    expect(page.locator("#source-crystal .highlight")).to_be_visible()
    expect(page.locator("#source-go")).to_be_hidden()
    screenshot(page, "program_page")

    # Reproduce twice on Crystal: the row polls until the worker is done; both runs hang.
    expect(page.get_by_text("Sign in to reproduce it")).to_be_visible()
    stack.sign_in(page, f"/p/{program_id}")
    page.select_option("select[name=target]", require_toolchain("crystal").id)
    page.fill("input[name=times]", "2")
    page.fill("input[name=timeout_s]", "2")
    page.fill("input[name=repetitions]", "1")
    page.click("#reproduce-form button")
    row = page.locator(".reproduction").first
    expect(row).to_have_attribute("data-status", "done", timeout=DONE_TIMEOUT_MS)
    expect(row).to_contain_text("2 hung, 0 wrong values of 2 runs")
    screenshot(page, "program_reproduced")

    with page.expect_download() as info:
        page.click("#bundle")
    download = info.value
    assert download.suggested_filename == f"chanfuzz-{program_id}.zip"
    data = open(download.path(), "rb").read()  # noqa: SIM115 - a temp file playwright owns
    names = zipfile.ZipFile(io.BytesIO(data)).namelist()
    root = f"chanfuzz-{program_id}/"
    for name in ("README.md", "crystal/main.cr", "run-crystal.sh", "go/main.go",
                 "docker/crystal.Dockerfile", "effect.txt", "lambda_chan.txt"):  # fmt: skip
        assert root + name in names
    readme = zipfile.ZipFile(io.BytesIO(data)).read(root + "README.md").decode()
    assert "timeout" in readme and "Reproduction ×2" in readme

    # The raw source is the same bytes every time.
    first = page.request.get(f"{stack.url}/p/{program_id}.cr").body()
    time.sleep(0.1)
    assert page.request.get(f"{stack.url}/p/{program_id}.cr").body() == first
    assert b"Channel(Nil).new" in first


def test_reduce_a_finding_from_its_page(stack: Stack, page: Page) -> None:
    chan = require_toolchain("rust-chan", "0.1.23")
    # chan 0.1.23 hangs on every run of this program (the Rust study's rust-chan-24).
    created = stack.manage(
        "campaign", "create", "--target", f"rust-chan:{chan.id}", "--effect",
        "Spawn(SelGet(c1, eps) (+) SelGet(c1, eps)) ; SelPut(c1, eps)", "--timeout", "1",
        "--retries", "0", "--repetitions", "2", "--name", "chan hang",
    )  # fmt: skip
    assert created.returncode == 0, created.stderr
    campaign_id = re.search(r"campaign (\d+) created", created.stdout)[1]
    page.goto(f"{stack.url}/campaigns/{campaign_id}/")
    expect(page.locator("#live")).to_have_attribute("data-status", "done", timeout=DONE_TIMEOUT_MS)
    page.locator(".findings-table a[href^='/findings/']").first.click()
    expect(page.locator("h1")).to_contain_text("rust-chan")
    stack.sign_in(page, page.url.removeprefix(stack.url))

    page.fill("input[name=max_candidates]", "2")
    page.click(".reduce-form button")
    reduction = page.locator(".reduction").first
    expect(reduction).to_have_attribute("data-status", "done", timeout=DONE_TIMEOUT_MS)
    expect(reduction.locator("pre.reduced-effect")).to_have_text(
        "Spawn(SelGet(c1, eps)) ; SelPut(c1, eps)"
    )
    expect(reduction).to_contain_text("failed 16 of 16 runs")
    screenshot(page, "finding_reduced")

    # The reproducer and the report now show the reduced program.
    page.reload()
    expect(page.locator("a.reproducer")).to_be_visible()
    href = page.locator("a.reproducer").get_attribute("href")
    script = page.request.get(stack.url + href).text()
    assert script.startswith("#!/bin/sh") and "VERSION=${VERSION:-0.1.23}" in script

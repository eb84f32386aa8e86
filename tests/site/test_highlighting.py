"""chanfuzz_site/highlighting.py: a program page's sources are highlighted once and then read
from the `highlight` cache by their content; a cache that fails is passed over."""

from __future__ import annotations

import subprocess
import sys

import pytest
from django.core.cache import caches
from django.core.cache.backends.locmem import LocMemCache
from django.test import Client, override_settings
from django.urls import reverse
from pygments import highlight
from pygments.lexers import get_lexer_by_name

from chanfuzz_site import highlighting
from runners.campaigns.programs import build_from_effect, store_program
from tests.site.site_helpers import REPO, clean_env

GO = "package main\n\nfunc main() {\n\tc := make(chan int)\n\t<-c\n}\n"
CRYSTAL = 'puts "hi"\n'
LOCAL = {"highlight": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}


class BrokenCache(LocMemCache):
    """A cache on a full disk: every read and write raises."""

    def get_many(self, keys, version=None):  # noqa: ANN001, ANN201, ARG002
        raise OSError(28, "No space left on device")

    def set_many(self, data, timeout=None, version=None):  # noqa: ANN001, ANN201, ARG002
        raise OSError(28, "No space left on device")


@pytest.fixture(autouse=True)
def _fresh_cache():
    with override_settings(CACHES=LOCAL):
        caches["highlight"].clear()
        yield
        caches["highlight"].clear()


def _plain(text: str, lexer: str) -> str:
    return highlight(text, get_lexer_by_name(lexer), highlighting.FORMATTER)


def test_sources_are_highlighted_in_order_and_kept_by_content() -> None:
    first = highlighting.highlight_sources([(GO, "go"), (CRYSTAL, "crystal")])
    assert first == [_plain(GO, "go"), _plain(CRYSTAL, "crystal")]
    assert 'class="highlighttable"' in first[0] and "chan" in first[0]
    # Read back from the cache, not highlighted again: a changed entry shows.
    key = highlighting._key(GO, "go")
    assert caches["highlight"].get(key) == first[0]
    caches["highlight"].set(key, "<from the cache>")
    assert highlighting.highlight_sources([(GO, "go"), (CRYSTAL, "crystal")]) == [
        "<from the cache>",
        first[1],
    ]


def test_the_key_is_the_text_and_the_lexer() -> None:
    keys = {
        highlighting._key(GO, "go"),
        highlighting._key(GO + " ", "go"),
        highlighting._key(GO, "crystal"),
    }
    assert len(keys) == 3
    assert highlighting._key(GO, "go") == highlighting._key(str(GO), "go")


def test_a_cache_that_fails_is_passed_over(caplog: pytest.LogCaptureFixture) -> None:
    broken = {"highlight": {"BACKEND": f"{__name__}.BrokenCache"}}
    with override_settings(CACHES=broken):
        assert highlighting.highlight_sources([(GO, "go")]) == [_plain(GO, "go")]
    assert "highlight cache unavailable: [Errno 28] No space left on device" in caplog.text


@pytest.mark.django_db
def test_a_program_page_and_its_tabs_fill_the_cache_and_read_it(client: Client) -> None:
    program = store_program(build_from_effect("Spawn(Put(c1)) ; Get(c1)"))
    page = reverse("program", args=[program.id])
    tab = reverse("program_code", args=[program.id, "cr"])
    first = client.get(page).content.decode() + client.get(tab).content.decode()
    cached = caches["highlight"]._cache  # LocMemCache's own dict: what the views stored
    assert len(cached) == 2  # the page's first tab (Go), and the Crystal tab
    for key in list(cached):
        caches["highlight"].set(key.split(":", 2)[2], "<p>CACHED-MARK</p>")
    again = client.get(page).content.decode() + client.get(tab).content.decode()
    assert "CACHED-MARK" not in first
    assert again.count("CACHED-MARK") == 2


def test_the_cache_leaves_the_sandboxes_folders_readable(tmp_path) -> None:  # noqa: ANN001
    """Django creates a file cache's folders private (umask 077): in a fresh var dir the
    highlight cache must make only its own, never var/cache, where the sandbox's user
    reads the built programs."""
    var = tmp_path / "var"
    code = (
        "import django; django.setup();"
        "from chanfuzz_site.highlighting import highlight_sources;"
        "highlight_sources([('package main', 'go')])"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=60,
        env=clean_env(DJANGO_SETTINGS_MODULE="chanfuzz_site.settings", CHANFUZZ_VAR_DIR=str(var)),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    made = sorted(p.name for p in var.iterdir())
    assert "highlight-cache" in made and "cache" not in made, made
    assert var.stat().st_mode & 0o777 == 0o755
    assert len(list((var / "highlight-cache").iterdir())) == 1

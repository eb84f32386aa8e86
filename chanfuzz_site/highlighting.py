"""Sources as highlighted HTML for the program pages, cached by their content.

Highlighting every target's source was most of a permalink page's time (about 150 of its
170 ms with 1,000,000 executions stored, docs/deploy.md), and a program's sources are the
same on every visit. The markup depends only on the text, the lexer, the formatter and
Pygments' version, so it is cached under a hash of those, in the `highlight` cache (files
under the var dir, one copy for a host's web workers: settings.CACHES). A cache that fails
(a full or read-only disk) is passed over: the page is highlighted as before, never an
error.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Sequence

import pygments
from django.core.cache import caches
from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import get_lexer_by_name

log = logging.getLogger(__name__)

FORMATTER = HtmlFormatter(cssclass="highlight", linenos="table")


def _key(text: str, lexer: str) -> str:
    digest = hashlib.sha256(f"{pygments.__version__}\0{lexer}\0{text}".encode()).hexdigest()
    return f"table:{digest}"


def highlight_sources(sources: Sequence[tuple[str, str]]) -> list[str]:
    """Pygments HTML (line-numbered tables) of each `(text, lexer name)`, in order; the
    cache is read once for all of them and written once for those it lacked."""
    keys = [_key(text, lexer) for text, lexer in sources]
    cache = caches["highlight"]
    try:
        found = cache.get_many(keys)
    except Exception as exc:  # noqa: BLE001 - any cache failure: highlight without it
        log.warning("highlight cache unavailable: %s", exc)
        cache, found = None, {}
    made: dict[str, str] = {}
    out = []
    for key, (text, lexer) in zip(keys, sources, strict=True):
        html = found.get(key)
        if html is None:
            html = made[key] = highlight(text, get_lexer_by_name(lexer), FORMATTER)
        out.append(html)
    if made and cache is not None:
        try:
            cache.set_many(made)
        except Exception as exc:  # noqa: BLE001
            log.warning("highlight cache unavailable: %s", exc)
    return out

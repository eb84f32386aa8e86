"""Reports in the web app: docs/<name>-report.md as a page, with links into its campaigns.

The Markdown is written by the command that regenerates it (`manage.py kotlin_report`,
`rust_report`, `clojure_racket_report`, `mutation_report`); this page only renders what
is on disk, so the page and the file in docs/ never differ. The bug-report projects a release
study links to are served beside it, as text, and so is the JSON of each report's figures.
"""

from __future__ import annotations

import re
from pathlib import Path

import markdown
from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.safestring import mark_safe

from runners.campaigns.models import Campaign, Finding
from runners.release_study.families import FAMILIES

REPORTS = {
    "kotlin": "kotlin-report.md",
    "rust": "rust-report.md",
    "clojure-racket": "clojure-racket-report.md",
    "mutation": "mutation-report.md",
}


def report(request: HttpRequest, name: str) -> HttpResponse:
    filename = REPORTS.get(name)
    path = settings.BASE_DIR / "docs" / filename if filename else None
    if path is None or not path.exists():
        command = f"{name.replace('-', '_')}_report"
        raise Http404(f"no report {name!r}: `manage.py {command}` writes it")
    # The file is ours (written by the report command, reviewed in git), not user input.
    html = markdown.markdown(path.read_text(), extensions=["tables", "fenced_code"])
    html, gone = unlink_missing(html)
    context = {"name": name, "body": mark_safe(html), "gone": gone}
    return render(request, "reports/page.html", context)


# A report's links into the study's own campaigns and findings (its programs are loaded
# with every database: runners.campaigns.documented).
_ROW_LINK = re.compile(r'<a href="/(campaigns|findings)/(\d+)/[^"]*">(.*?)</a>', re.S)


def unlink_missing(html: str) -> tuple[str, int]:
    """`html` with its links to campaigns and findings this database lacks (the study ran
    on another machine: on a fresh database every one was a 404) turned to plain text,
    and how many there were."""
    wanted: dict[str, set[int]] = {"campaigns": set(), "findings": set()}
    for kind, pk, _text in _ROW_LINK.findall(html):
        wanted[kind].add(int(pk))
    here = {
        "campaigns": set(Campaign.objects.filter(pk__in=wanted["campaigns"]).values_list(
            "pk", flat=True)),
        "findings": set(Finding.objects.filter(pk__in=wanted["findings"]).values_list(
            "pk", flat=True)),
    }  # fmt: skip
    gone = 0

    def keep_or_unlink(match: re.Match[str]) -> str:
        nonlocal gone
        kind, pk, text = match.groups()
        if int(pk) in here[kind]:
            return match.group(0)
        gone += 1
        return f'<span class="gone" title="not in this database">{text}</span>'

    return _ROW_LINK.sub(keep_or_unlink, html), gone


# Files a report links to beside it (a release study's bug-report projects), served as text.
REPORT_FILES = {f.name: f.bugs_folder for f in FAMILIES.values()}


def report_file(request: HttpRequest, name: str, path: str) -> HttpResponse:
    data = _data_file(name)
    if data is not None and path == data.name:
        # The figures the report was written from, which its first lines link to.
        return HttpResponse(data.read_bytes(), content_type="application/json")
    folder = REPORT_FILES.get(name)
    if folder is None or not path.startswith(folder + "/"):
        raise Http404("no such file")
    root = (settings.BASE_DIR / "docs" / folder).resolve()
    wanted = (settings.BASE_DIR / "docs" / path).resolve()
    # resolve() folds "..", so a path outside the folder is refused, not followed.
    if not wanted.is_relative_to(root) or not wanted.is_file():
        raise Http404("no such file")
    return HttpResponse(wanted.read_text(), content_type="text/plain; charset=utf-8")


def _data_file(name: str) -> Path | None:
    """docs/<name>-report.json, beside the report's Markdown, if there is one."""
    filename = REPORTS.get(name)
    if filename is None:
        return None
    path = settings.BASE_DIR / "docs" / filename.removesuffix(".md")
    path = path.with_suffix(".json")
    return path if path.is_file() else None

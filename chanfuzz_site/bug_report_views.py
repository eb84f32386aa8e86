"""A finding's standalone reproducer and upstream bug report, as text to download or paste.

The content is runners.campaigns.bug_reports'; these views add the absolute
links (the program's permalink, the reproducer's URL) the text carries.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.http import Http404, HttpRequest, HttpResponse
from django.urls import reverse
from django.views.decorators.http import require_safe

from runners.campaigns import bug_reports, selectors
from runners.campaigns.models import Finding


@dataclass(frozen=True)
class BugReport:
    markdown: str  # "" when it cannot be made
    problem: str  # why not, for the page
    program_id: str


def bug_report(request: HttpRequest, finding: Finding) -> BugReport:
    ev = bug_reports.evidence(finding)
    if ev is None:
        return BugReport("", "this finding has no program", "")
    try:
        markdown = bug_reports.report_markdown(
            finding,
            ev,
            permalink=request.build_absolute_uri(reverse("program", args=[ev.program.id])),
            script_url=request.build_absolute_uri(reverse("finding_reproducer", args=[finding.pk])),
        )
    except ValueError as exc:  # the target cannot express it, or the generator changed
        return BugReport("", str(exc), ev.program.id)
    return BugReport(markdown, "", ev.program.id)


def _finding_or_404(pk: int) -> Finding:
    try:
        return selectors.get_finding(pk)
    except Finding.DoesNotExist:
        raise Http404(f"no finding {pk}") from None


def _text(text: str, filename: str) -> HttpResponse:
    response = HttpResponse(text, content_type="text/plain; charset=utf-8")
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response


@require_safe
def finding_report(request: HttpRequest, pk: int) -> HttpResponse:
    """`/findings/<pk>/report.md`: the bug report to paste upstream."""
    report = bug_report(request, _finding_or_404(pk))
    if not report.markdown:
        raise Http404(report.problem)
    return _text(report.markdown, f"chanfuzz-finding-{pk}.md")


@require_safe
def finding_reproducer(request: HttpRequest, pk: int) -> HttpResponse:
    """`/findings/<pk>/reproduce.sh`: build once, run until a run fails; no chanfuzz needed."""
    finding = _finding_or_404(pk)
    ev = bug_reports.evidence(finding)
    if ev is None:
        raise Http404("this finding has no program")
    permalink = request.build_absolute_uri(reverse("program", args=[ev.program.id]))
    try:
        script = bug_reports.reproducer_script(finding, ev, permalink=permalink)
    except ValueError as exc:
        raise Http404(str(exc)) from None
    return _text(script, bug_reports.reproducer_name(finding))

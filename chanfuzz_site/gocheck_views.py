"""Views of the playground's "Check Go code" tab. Thin: the work is in `gocheck_playground`.

Check and Share are POSTs limited like the playground's other POSTs (the "runs" group);
the tab itself is a GET like the playground page. A permalink checks its program again,
so it is limited as a check. Under htmx a POST answers with a fragment (a refused source:
400 with the message, retargeted into the feedback box under the editor); without htmx
it answers with the whole page, so the form works without JavaScript too.
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_POST, require_safe

from chanfuzz_site import gocheck_playground as gp
from chanfuzz_site.ratelimits import limit_anonymous


def _page(request: HttpRequest, source: str, *, view: gp.GoCheckView | None = None,
          error: str = "", unavailable: str = "", share_url: str = "",
          status: int = 200) -> HttpResponse:  # fmt: skip
    context = {
        "source": source,
        "view": view,
        "error": error,
        "unavailable": unavailable,
        "share_url": share_url,
        "limits": gp.limits(),
    }
    return render(request, "playground/go_page.html", context, status=status)


def _is_htmx(request: HttpRequest) -> bool:
    return request.headers.get("HX-Request") == "true"


def _checked(request: HttpRequest, source: str, *, share_url: str = "") -> HttpResponse:
    """Check `source` and answer with the output fragment (htmx) or the whole page."""
    try:
        view = gp.check(source)
    except gp.GoCheckUnavailable as err:
        message = f"The Go checker could not check this program: {err}"
        if _is_htmx(request):
            return render(request, "playground/_go_unavailable.html", {"message": message},
                          status=503)  # fmt: skip
        return _page(request, source, unavailable=message, status=503)
    if _is_htmx(request):
        return render(request, "playground/_go_output.html", {"view": view, "oob": True})
    return _page(request, source, view=view, share_url=share_url)


def _refused(request: HttpRequest, raw: str, message: str) -> HttpResponse:
    if _is_htmx(request):
        response = render(request, "playground/_go_feedback.html", {"error": message}, status=400)
        response["HX-Retarget"] = "#go-feedback"
        response["HX-Reswap"] = "innerHTML"
        return response
    limit = int(gp.limits()["source_chars"])
    return _page(request, raw[:limit], error=message, status=400)


@require_safe
@limit_anonymous("checks", "RATELIMIT_PLAYGROUND")
def go_page(request: HttpRequest) -> HttpResponse:
    """The tab with the sample program; nothing is checked until the user asks."""
    return _page(request, gp.SAMPLE_PROGRAM)


@require_POST
@limit_anonymous("runs", "RATELIMIT_RUNS")
def go_check(request: HttpRequest) -> HttpResponse:
    raw = request.POST.get("source", "")
    try:
        source = gp.clean_source(raw)
    except gp.GoCheckError as err:
        return _refused(request, raw, err.message)
    return _checked(request, source)


@require_POST
@limit_anonymous("runs", "RATELIMIT_RUNS")
def go_share(request: HttpRequest) -> HttpResponse:
    """Store the source (once, content-hashed) and show its permalink."""
    raw = request.POST.get("source", "")
    try:
        source = gp.clean_source(raw)
    except gp.GoCheckError as err:
        return _refused(request, raw, err.message)
    sid = gp.store_source(source)
    url = request.build_absolute_uri(gp.permalink_path(sid))
    if _is_htmx(request):
        return render(request, "playground/_go_share.html", {"share_url": url, "sid": sid})
    return _page(request, source, share_url=url)


@require_safe
@limit_anonymous("runs", "RATELIMIT_RUNS")
def go_permalink(request: HttpRequest, sid: str) -> HttpResponse:
    """A shared program: shown in the editor and checked again."""
    source = gp.load_source(sid)
    if source is None:
        raise Http404("no shared Go program with that id")
    return _checked(request, source, share_url=request.build_absolute_uri())

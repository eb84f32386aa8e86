"""Web pages. Views stay thin: the work lives in generator/ and runners/."""

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from runners.campaigns import health
from runners.engine.sandbox import describe


def about(request: HttpRequest) -> HttpResponse:
    """What chanfuzz is, how to drive it from the command line, and how runs are contained
    on this site."""
    return render(request, "about.html", {"sandbox": describe()})


@require_safe
@never_cache
def healthz(request: HttpRequest) -> HttpResponse:
    """The database, Redis and RQ's live workers as JSON: 200 when all answer, else 503
    (runners.campaigns.health); staff also see each worker. Exempt from the HTTPS redirect,
    for a load balancer's checks."""
    result = health.check()
    body = result.as_dict(workers=request.user.is_staff)
    return JsonResponse(body, status=200 if result.ok else 503)


@require_safe
def favicon(request: HttpRequest) -> HttpResponse:
    """`/favicon.ico`, which browsers ask for whatever the page's `<link rel="icon">` says:
    the SVG icon (a 404 in every page's console and the server's log before)."""
    return redirect(static("favicon.svg"), permanent=True)

"""Per-IP rate limits on what anonymous visitors may do (the playground's actions).

django-ratelimit does the counting, in Redis (settings.CACHES["ratelimit"]), so
every web process shares one count. Signed-in users are not limited here: their
work is bounded by quotas (runners.campaigns.quotas). A Redis that does not
answer lets the request through and logs it: the checks have budgets of their
own, and a run needs that Redis to be queued at all.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from functools import wraps

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django_ratelimit.core import get_usage
from redis.exceptions import RedisError

log = logging.getLogger(__name__)

View = Callable[..., HttpResponse]

# What each group of limited requests is, in the refusal's words.
WHAT = {
    "checks": "generated programs and checks",
    "runs": "runs, shares and checks of Go code",
    "sign-ups": "sign-ups",
}


def client_ip(request: HttpRequest) -> str:
    """The client's address behind a TLS proxy: the last X-Forwarded-For entry (the one
    the proxy added), else the peer address."""
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
    hops = [hop.strip() for hop in forwarded.split(",") if hop.strip()]
    return hops[-1] if hops else request.META["REMOTE_ADDR"]


def over_limit(request: HttpRequest, *, group: str, rate: str) -> dict[str, int] | None:
    """Count this request against the IP's `rate` in `group`; the usage when it is over
    the limit, None when it may go on (or Redis could not count it)."""
    if request.user.is_authenticated:
        return None
    try:
        usage = get_usage(request, group=group, key="ip", rate=rate, method=get_usage.ALL,
                          increment=True)  # fmt: skip
    except RedisError as exc:
        log.warning("rate limit %s not counted, Redis unavailable: %s", group, exc)
        return None
    if usage is None or not usage["should_limit"]:
        return None
    return usage


def limit_anonymous(group: str, setting: str) -> Callable[[View], View]:
    """Answer 429 to an anonymous client over `settings.<setting>` requests in `group`."""

    def decorate(view: View) -> View:
        @wraps(view)
        def wrapped(request: HttpRequest, *args: object, **kwargs: object) -> HttpResponse:
            rate = getattr(settings, setting)
            usage = over_limit(request, group=group, rate=rate)
            if usage is not None:
                wait = max(usage["time_left"], 1)
                context = {"rate": rate, "what": WHAT.get(group, group), "wait": wait}
                # htmx swaps a fragment where the answer would have gone; a page loaded
                # by the browser gets the site's page around the same words.
                fragment = request.headers.get("HX-Request") == "true"
                template = "_too_many.html" if fragment else "too_many.html"
                response = render(request, template, context, status=429)
                response["Retry-After"] = str(wait)
                return response
            return view(request, *args, **kwargs)

        return wrapped

    return decorate

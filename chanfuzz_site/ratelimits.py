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
from django.utils.html import format_html
from django_ratelimit.core import get_usage
from redis.exceptions import RedisError

log = logging.getLogger(__name__)

View = Callable[..., HttpResponse]


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
                # A fragment: htmx swaps it where the answer would have gone.
                response = HttpResponse(
                    format_html(
                        '<p class="error" role="alert">Too many requests from your address: at '
                        "most {} for the playground's {}. Try again in {} s, or sign in.</p>",
                        rate, group, wait,
                    ),
                    status=429,
                )  # fmt: skip
                response["Retry-After"] = str(wait)
                return response
            return view(request, *args, **kwargs)

        return wrapped

    return decorate

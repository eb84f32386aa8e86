"""A log line for every request the site answers: method, path, status, time taken and
who asked (runners/logs.py writes it as JSON in production)."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils.functional import empty

from runners.logs import fields

log = logging.getLogger("chanfuzz.request")


class RequestLogMiddleware:
    """Times the rest of the middleware and the view; static files, answered by whitenoise
    before this, are not logged."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        start = time.perf_counter()
        response = self.get_response(request)
        # The user only if the view looked them up: a log line must not cost a query.
        user = getattr(request, "user", None)
        if getattr(user, "_wrapped", None) is empty:
            user = None
        log.info(
            "%s %s %d",
            request.method,
            request.path,
            response.status_code,
            extra=fields(
                "request",
                method=request.method,
                path=request.path,
                status=response.status_code,
                duration_ms=round(1000 * (time.perf_counter() - start), 1),
                user=user.pk if user is not None and user.is_authenticated else None,
                htmx=request.headers.get("HX-Request") == "true",
            ),
        )
        return response

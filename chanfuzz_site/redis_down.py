"""A page that needs the queue's Redis, asked while that Redis does not answer: a 503 that
says so, instead of a server error.

The site's own views catch what they expect (a campaign not queued, a run refused); this
is for the rest, django-rq's dashboard first of all, whose views read Redis on every page
and let its ConnectionError through as a 500 and a traceback in the log."""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

log = logging.getLogger(__name__)

# Seconds a client may wait before asking again: about what a restarted Redis takes.
RETRY_AFTER_S = 30


class RedisDownMiddleware:
    """Answers 503 with the reason when a view fails because Redis does not answer."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, RedisConnectionError | RedisTimeoutError):
            return None
        # The log keeps the error (it may name the host); the page says what to do.
        log.warning("%s %s: Redis does not answer: %s", request.method, request.path, exception)
        response = render(request, "redis_down.html", status=503)
        response["Retry-After"] = str(RETRY_AFTER_S)
        return response

"""Each request looks the toolchains up on disk once, however often its view asks
(runners.engine.toolchains.snapshot): a program page asked a dozen times."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

from runners.engine.toolchains import snapshot


class ToolchainSnapshotMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        with snapshot():
            return self.get_response(request)

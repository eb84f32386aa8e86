"""Web pages. Views stay thin: the work lives in generator/ and runners/."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from runners.engine.sandbox import describe


def about(request: HttpRequest) -> HttpResponse:
    """What chanfuzz is, how to drive it from the command line, and how runs are contained
    on this site."""
    return render(request, "about.html", {"sandbox": describe()})

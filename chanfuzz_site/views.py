"""Web pages. Views stay thin: the work lives in generator/ and runners/."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


def about(request: HttpRequest) -> HttpResponse:
    """What chanfuzz is and how to drive it from the command line."""
    return render(request, "about.html")

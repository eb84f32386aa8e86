"""Views of the playground (`/` and its htmx fragments). Thin: the work is in `playground`.

Every fragment answers a bad request with 400 and a message; under htmx the
message is retargeted (HX-Retarget) into the feedback box next to the input at
fault, so what the user typed stays where it is. A good answer pushes the
state's canonical URL (HX-Push-Url): the address bar is always a share link.
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_POST, require_safe

from chanfuzz_site import playground as pg
from chanfuzz_site import playground_state as ps
from chanfuzz_site.playground_forms import PlaygroundForm
from chanfuzz_site.ratelimits import limit_anonymous
from runners.campaigns.models import Reproduction


def _page_url(state: ps.State) -> str:
    return f"{reverse('playground')}?{state.query()}"


def _bad_request(request: HttpRequest, form: PlaygroundForm) -> HttpResponse:
    response = render(request, "playground/_feedback.html", {"form": form}, status=400)
    box = "#effect-feedback" if form.field == "effect" else "#controls-feedback"
    response["HX-Retarget"] = box
    response["HX-Reswap"] = "innerHTML"
    return response


@require_safe
@limit_anonymous("checks", "RATELIMIT_PLAYGROUND")
def playground(request: HttpRequest) -> HttpResponse:
    """The page; its query string (if any) is a state to restore."""
    form = PlaygroundForm(request.GET)
    if form.is_valid():
        state, view, status = form.state, pg.program_view(form.state), 200
    else:
        # Show the page anyway, with the message and what the link's other parameters
        # make, so the user can fix the one at fault.
        state, view, status = ps.salvage_state(request.GET), None, 400
    effect_text = (
        view.effect_pretty if view else request.GET.get("effect", "")[: ps.MAX_EFFECT_CHARS]
    )
    context = {
        "form": form,
        "state": state,
        "view": view,
        "effect_text": effect_text,
        "controls": pg.controls(state),
        "limits": ps.LIMITS,
    }
    return render(request, "playground/page.html", context, status=status)


@require_safe
@limit_anonymous("checks", "RATELIMIT_PLAYGROUND")
def program_fragment(request: HttpRequest) -> HttpResponse:
    """The program of the sent state (generated or from an effect): the #output fragment."""
    reset = request.GET.get("reset") == "1"
    form = PlaygroundForm(request.GET, reset_weights=reset)
    if not form.is_valid():
        return _bad_request(request, form)
    # The editor keeps what the user typed: a double close is pointed at in that text.
    view = pg.program_view(form.state, request.GET.get("effect"))
    context = {
        "view": view,
        "state": form.state,
        "controls": pg.controls(form.state),
        "oob": True,
        "oob_weights": reset,
        "limits": ps.LIMITS,
    }
    response = render(request, "playground/_output.html", context)
    response["HX-Push-Url"] = _page_url(form.state)
    return response


@require_safe
@limit_anonymous("checks", "RATELIMIT_PLAYGROUND")
def code(request: HttpRequest, language: str) -> HttpResponse:
    """One code tab of the sent state's program, highlighted: fetched when the tab is
    first shown."""
    form = PlaygroundForm(request.GET)
    if not form.is_valid():
        return _bad_request(request, form)
    try:
        src = pg.source(form.state, language)
    except (LookupError, ValueError):
        raise Http404(f"no target {language!r}") from None
    return render(request, "playground/_code.html", {"src": src})


@require_POST
@limit_anonymous("runs", "RATELIMIT_RUNS")
def share(request: HttpRequest) -> HttpResponse:
    """Store the program and show its links: the playground state and `/p/<id>`."""
    form = PlaygroundForm(request.POST)
    if not form.is_valid():
        return _bad_request(request, form)
    program = pg.share(form.state)
    context = {
        "program": program,
        "state_url": request.build_absolute_uri(_page_url(form.state)),
        "program_url": request.build_absolute_uri(pg.program_path(program.id)),
    }
    return render(request, "playground/_share.html", context)


@require_POST
@limit_anonymous("runs", "RATELIMIT_RUNS")
def run(request: HttpRequest) -> HttpResponse:
    """Queue one run of the program on the state's target; answers with the polling fragment."""
    form = PlaygroundForm(request.POST)
    if not form.is_valid():
        return _bad_request(request, form)
    try:
        repro = pg.start_run(form.state)
    except ps.PlaygroundError as err:
        return render(request, "playground/_run_error.html", {"message": err.message}, status=400)
    except pg.RunUnavailable as err:
        return render(request, "playground/_run_error.html", {"message": str(err)}, status=503)
    return render(request, "playground/_run.html", {"run": pg.run_view(repro.pk)})


@require_safe
def run_status(request: HttpRequest, reproduction_id: int) -> HttpResponse:
    """A run's progress; once it is done the fragment no longer polls."""
    try:
        run_state = pg.run_view(reproduction_id)
    except Reproduction.DoesNotExist:
        raise Http404("no such run") from None
    return render(request, "playground/_run.html", {"run": run_state})

"""Pages of reductions: the Reduce button of a finding, its polled progress, and cancel.

The work is in runners.campaigns.reductions (service and job); these views read
the form, call it, and show the saved state.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST, require_safe

from chanfuzz_site.accounts import may_manage, require_manager
from chanfuzz_site.campaign_forms import ReduceForm
from chanfuzz_site.htmx import STOP_POLLING
from runners.campaigns import reductions, selectors
from runners.campaigns.models import Finding, Reduction
from runners.engine.rates import RateTest


def _reduction_or_404(pk: int) -> Reduction:
    try:
        return selectors.get_reduction(pk)
    except Reduction.DoesNotExist:
        raise Http404(f"no reduction {pk}") from None


def reduction_context(reduction: Reduction, user: object = None) -> dict[str, object]:
    """What the reduction partial shows: the saved state, read for a person (and a Cancel
    button if `user` may manage it)."""
    state = reduction.state or {}
    tried = state.get("tried", [])
    figures = reductions.summary(reduction)
    baseline, final = figures["baseline"], figures["final"]
    return {
        "x": reduction,
        "state": state,
        "tried": figures["candidates"],
        "kept": figures["kept"],
        "last": tried[-1] if tried else None,
        "baseline": baseline,
        "baseline_pct": round(100 * baseline[0] / baseline[1]) if baseline[1] else None,
        "final": final,
        "final_pct": round(100 * final[0] / final[1]) if final[1] else None,
        "polling": reduction.is_active,
        "may_cancel": reduction.is_active and may_manage(user, reduction),
        # The rule the reducer applied (runners.engine.reduce.Reducer.rate_test).
        "rule": (
            RateTest(
                threshold=reduction.keep_ratio * baseline[0] / baseline[1], alpha=reduction.alpha
            ).describe()
            if baseline[0]
            else ""
        ),
    }


def reduce_form(finding: Finding, data: object = None) -> ReduceForm:
    """The finding's Reduce form: with a toolchain to choose where no campaign ran its
    program (it once refused every finding of a fresh database: "give the version")."""
    language = finding.language if reductions.needs_toolchain(finding) else None
    return ReduceForm(data, language=language)


@login_required
@require_POST
def finding_reduce(request: HttpRequest, pk: int) -> HttpResponse:
    try:
        finding = selectors.get_finding(pk)
    except Finding.DoesNotExist:
        raise Http404(f"no finding {pk}") from None
    form = reduce_form(finding, request.POST)
    error = ""
    if form.is_valid():
        try:
            reductions.start_reduction(finding=finding, **form.service_kwargs(),
                                       owner=request.user)  # fmt: skip
        except ValueError as exc:
            error = str(exc)
        except reductions.ReductionNotQueued as exc:  # tell, don't 500
            error = f"the queue is unavailable ({exc.__cause__}); start Redis and retry"
        else:
            return redirect(reverse("finding_detail", args=[pk]) + "#reduction")
    else:
        # Each error under the label the form shows ("Candidates at most"), not its name.
        error = "; ".join(
            f"{form.fields[k].label if k in form.fields else k}: {' '.join(v)}"
            for k, v in form.errors.items()
        )
    return render(
        request,
        "findings/_reduce_error.html",
        {"finding": finding, "error": error},
        status=503 if "queue is unavailable" in error else 400,
    )


@require_safe
def reduction_status(request: HttpRequest, pk: int) -> HttpResponse:
    """The polled view of one reduction; 286 once it has ended."""
    reduction = _reduction_or_404(pk)
    response = render(
        request, "findings/_reduction.html", {"r": reduction_context(reduction, request.user)}
    )
    if not reduction.is_active and request.headers.get("HX-Request"):
        response.status_code = STOP_POLLING
    return response


@login_required
@require_POST
def reduction_cancel(request: HttpRequest, pk: int) -> HttpResponse:
    reduction = _reduction_or_404(pk)
    require_manager(request.user, reduction)
    reduction = reductions.cancel_reduction(reduction=reduction)
    return redirect(reverse("finding_detail", args=[reduction.finding_id]) + "#reduction")

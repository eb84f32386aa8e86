"""Pages of campaigns, findings and programs (the permalink `/p/<id>`).

Views stay thin: reads come from runners.campaigns.selectors, writes go through
runners.campaigns.services, forms live in campaign_forms, bundles in bundles.
The few helpers here only shape data for templates (a Table 2 matrix, the
points of an SVG plot, Pygments HTML).

Live parts poll with htmx: the progress of a campaign and the state of a
reproduction are partials that carry `hx-trigger="every 2s"` only while
there is something to wait for, and answer 286 (htmx: stop polling) once
finished, so a finished page makes no more requests.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from pathlib import PurePosixPath

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Page, Paginator
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseBadRequest,
)
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from chanfuzz_site import bundles
from chanfuzz_site.accounts import may_manage, require_manager
from chanfuzz_site.bug_report_views import bug_report
from chanfuzz_site.campaign_forms import CampaignForm, ReproduceForm, preset_table
from chanfuzz_site.highlighting import highlight_sources
from chanfuzz_site.htmx import STOP_POLLING
from chanfuzz_site.reduction_views import reduce_form, reduction_context
from generator.settings import RULE_TITLES, RULES
from runners.campaigns import health, quotas, selectors, services
from runners.campaigns.models import (
    FINDING_OUTCOMES,
    OUTCOME_CHOICES,
    Campaign,
    Finding,
    Program,
    Reproduction,
)
from runners.campaigns.quotas import QuotaExceeded
from runners.campaigns.services import MAX_CAMPAIGN_REPETITIONS, QueueUnavailable
from runners.targets import all_targets, get_target, names

PER_PAGE = 50
OUTCOMES = [value for value, _ in OUTCOME_CHOICES]


def _page(request: HttpRequest, queryset, per_page: int = PER_PAGE) -> Page:  # noqa: ANN001
    """One page of `queryset`; a bad or too large ?page= gives the nearest page, not an error."""
    return Paginator(queryset, per_page).get_page(request.GET.get("page"))


def _id_page(
    request: HttpRequest, queryset, *, count: int | None = None, per_page: int = PER_PAGE
) -> Page:  # noqa: ANN001
    """A page of `queryset` whose offset is taken over ids only, then the page's rows fetched.

    Skipping to page 1000 then walks an index (covering: ids are in every index)
    instead of reading 50,000 rows; `count`, when the caller knows it, spares the
    COUNT(*).
    """
    paginator = Paginator(queryset.values_list("pk", flat=True), per_page)
    if count is not None:
        paginator.__dict__["count"] = count  # Paginator.count is a cached_property
    page = paginator.get_page(request.GET.get("page"))
    ids = list(page.object_list)
    rows = queryset.in_bulk(ids)
    page.object_list = [rows[pk] for pk in ids if pk in rows]
    return page


def _index_page(
    request: HttpRequest, queryset, *, count: int, per_page: int = PER_PAGE
) -> Page:  # noqa: ANN001
    """A page of one target's executions, all of them, whose indices are exactly 0 … count−1
    (selectors.indices_are_dense): page n is the rows with indices [(n−1)·per_page,
    n·per_page), fetched by the (target, index) index with no OFFSET to walk."""
    paginator = Paginator(queryset, per_page)
    paginator.__dict__["count"] = count  # Paginator.count is a cached_property
    page = paginator.get_page(request.GET.get("page"))
    first = (page.number - 1) * per_page
    page.object_list = list(queryset.filter(index__gte=first, index__lt=first + per_page))
    return page


def _campaign_or_404(pk: int) -> Campaign:
    try:
        return selectors.get_campaign(pk)
    except Campaign.DoesNotExist:
        raise Http404(f"no campaign {pk}") from None


def _program_or_404(pid: str) -> Program:
    try:
        return selectors.get_program(pid)
    except Program.DoesNotExist:
        raise Http404(f"no program {pid}") from None


# ---------------------------------------------------------------- campaigns


@require_safe
def campaign_list(request: HttpRequest) -> HttpResponse:
    status = request.GET.get("status") or None
    if status and status not in Campaign.Status.values:
        return _bad_request(f"unknown status {status!r}")
    page = _page(request, selectors.list_campaigns(status=status), 25)
    counts = selectors.campaigns_outcome_counts([c.pk for c in page])
    rows = []
    for c in page:
        outcomes = counts[c.pk]
        targets = [t.toolchain_id for t in c.targets.all()]
        total = c.program_count * len(targets)
        done = sum(outcomes.values())
        rows.append(
            {
                "campaign": c,
                # A sweep over every release has dozens: the ends and how many.
                "targets": targets if len(targets) <= 3 else [targets[0], "…", targets[-1]],
                "more_targets": len(targets) if len(targets) > 3 else 0,
                "done": done,
                "total": total,
                "percent": round(100 * done / total) if total else 100,
                "crashes": outcomes.get("crash", 0),
                "timeouts": outcomes.get("timeout", 0),
            }
        )
    return render(
        request,
        "campaigns/list.html",
        {
            "page": page,
            "rows": rows,
            "status": status,
            "statuses": Campaign.Status.values,
            # Jobs waiting per queue and RQ's live workers (one short Redis round trip).
            "queues": health.queue_figures(),
        },
    )


def _add_error(form: forms.Form, exc: ValueError) -> None:
    """A service's refusal on the form: on the field a quota names, else above the form."""
    field = exc.field if isinstance(exc, QuotaExceeded) else None
    form.add_error(field if field in form.fields else None, str(exc))


def _quota_context(request: HttpRequest) -> dict[str, object]:
    """The quotas binding the signed-in user (None for staff) and their run-seconds used."""
    limits = quotas.quotas_for(request.user)
    used = quotas.run_seconds_used(request.user) if limits else 0.0
    return {"quotas": limits, "run_seconds_used": round(used)}


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def campaign_new(request: HttpRequest) -> HttpResponse:
    form = CampaignForm(request.POST or None)
    if request.method == "POST":
        if form.is_valid():
            try:
                campaign = services.create_campaign(**form.service_kwargs(), owner=request.user)
            except QueueUnavailable as exc:
                messages.warning(request, str(exc))
                return redirect("campaign_detail", pk=exc.campaign.pk)
            except ValueError as exc:
                _add_error(form, exc)
            else:
                return redirect("campaign_detail", pk=campaign.pk)
        status = 400
    else:
        status = 200
    context = {
        "form": form,
        "presets": preset_table(),
        "rule_titles": [RULE_TITLES[r] for r in RULES],
        **_quota_context(request),
    }
    return render(request, "campaigns/new.html", context, status=status)


@dataclass
class FindingRow:
    finding: Finding
    in_campaign: int
    programs: list[int]  # distinct programs revealing it, per target (progress order)
    first: datetime | None
    last: datetime | None


def _live_context(campaign: Campaign) -> dict[str, object]:
    """Progress, findings per target (Table 2) and the findings-over-time plot of a campaign."""
    hits = selectors.campaign_finding_hits(campaign)
    # The hits name every finding of the campaign: no second query to count them.
    progress = selectors.campaign_progress(
        campaign, findings=len({h["finding_id"] for h in hits})
    )
    targets = [t.target for t in progress.targets]
    per_cell: dict[tuple[int, int], int] = {}
    first: dict[int, datetime] = {}
    last: dict[int, datetime] = {}
    for h in hits:
        fid = h["finding_id"]
        per_cell[(fid, h["target_id"])] = h["programs"]
        first[fid] = min(first.get(fid, h["first"]), h["first"])
        last[fid] = max(last.get(fid, h["last"]), h["last"])
    in_campaign: dict[int, int] = {}
    for h in hits:
        in_campaign[h["finding_id"]] = in_campaign.get(h["finding_id"], 0) + h["executions"]
    # The findings of the hits, not selectors.campaign_findings: that one counts the
    # campaign's executions again by a join, which the hits already did.
    findings = selectors.list_findings().filter(pk__in=list(in_campaign))
    rows = sorted(
        (
            FindingRow(
                finding=f,
                in_campaign=in_campaign[f.pk],
                programs=[per_cell.get((f.pk, t.pk), 0) for t in targets],
                first=first.get(f.pk),
                last=last.get(f.pk),
            )
            for f in findings
        ),
        key=lambda r: (-r.in_campaign, r.finding.pk),
    )
    totals = [sum(r.programs[i] for r in rows) for i in range(len(targets))]
    return {
        "campaign": campaign,
        "progress": progress,
        "percent": round(100 * progress.fraction, 1),
        "outcomes": OUTCOMES,
        "outcome_labels": [label for _, label in OUTCOME_CHOICES],
        "target_rows": [
            {"tp": t, "counts": [(t.counts.get(o, 0), o in FINDING_OUTCOMES) for o in OUTCOMES]}
            for t in progress.targets
        ],
        "targets": targets,
        "finding_rows": rows,
        "finding_totals": totals,
        "plot": findings_plot(campaign, sorted(first.values())),
    }


def _manage_context(request: HttpRequest, campaign: Campaign) -> dict[str, object]:
    return {"may_manage": may_manage(request.user, campaign)}


def findings_plot(campaign: Campaign, firsts: list[datetime]) -> dict[str, object] | None:
    """A step line of distinct findings over minutes since the start, as SVG coordinates."""
    start = campaign.started_at or campaign.created_at
    end = campaign.finished_at or timezone.now()
    span = max((end - start).total_seconds(), 1.0)
    if not firsts:
        return None
    width, height, pad = 560, 160, 30
    top = len(firsts)

    def x(t: datetime) -> float:
        return round(pad + (width - 2 * pad) * max((t - start).total_seconds(), 0) / span, 1)

    def y(n: int) -> float:
        return round(height - pad - (height - 2 * pad) * n / top, 1)

    points = [(x(start), y(0))]
    for n, t in enumerate(firsts, start=1):
        points += [(x(t), y(n - 1)), (x(t), y(n))]
    points.append((x(end), y(top)))
    return {
        "width": width,
        "height": height,
        "pad": pad,
        "points": " ".join(f"{a},{b}" for a, b in points),
        "dots": [(x(t), y(n)) for n, t in enumerate(firsts, start=1)],
        "top": top,
        "top_y": y(top),
        "minutes": round(span / 60, 1),
        "x_end": width - pad,
        "y_base": height - pad,
    }


@require_safe
def campaign_detail(request: HttpRequest, pk: int) -> HttpResponse:
    campaign = _campaign_or_404(pk)
    outcome = request.GET.get("outcome") or None
    if outcome and outcome not in OUTCOMES:
        return _bad_request(f"unknown outcome {outcome!r}")
    targets = list(campaign.targets.all())
    # One target at a time: its executions are walked in the (target, index) index,
    # which an interleaving of all targets could not use (100k rows to sort).
    target = targets[0] if targets else None
    if request.GET.get("target"):
        target = next((t for t in targets if str(t.pk) == request.GET["target"]), None)
        if target is None:
            return _bad_request("unknown target")
    context = {**_live_context(campaign), **_manage_context(request, campaign)}
    # The progress counted the executions per target and verdict already: no COUNT(*).
    progress = next((t for t in context["progress"].targets if t.target == target), None)
    count = None
    if progress is not None:
        count = progress.counts.get(outcome, 0) if outcome else progress.done
    executions = selectors.campaign_executions(campaign, outcome=outcome, target=target)
    if outcome is None and target is not None and selectors.indices_are_dense(target, count):
        page = _index_page(request, executions, count=count)
    else:
        page = _id_page(request, executions, count=count)
    context.update(
        {
            "page": page,
            "outcome": outcome,
            "target": target,
            "settings_rows": [(RULE_TITLES.get(k, k), v) for k, v in campaign.settings.items()],
        }
    )
    return render(request, "campaigns/detail.html", context)


@require_safe
def campaign_live(request: HttpRequest, pk: int) -> HttpResponse:
    """The polled part of a campaign page; 286 once the campaign stopped changing."""
    campaign = _campaign_or_404(pk)
    context = {**_live_context(campaign), **_manage_context(request, campaign)}
    response = render(request, "campaigns/_live.html", context)
    if not campaign.is_active and request.headers.get("HX-Request"):
        response.status_code = STOP_POLLING
        # The executions table polls more slowly: let it load the final rows now.
        response["HX-Trigger"] = "campaign-finished"
    return response


_ACTIONS = {
    "cancel": services.cancel_campaign,
    "pause": services.pause_campaign,
    "resume": services.resume_campaign,
}


def _delete(request: HttpRequest, campaign: Campaign) -> HttpResponse:
    try:
        services.delete_campaign(campaign=campaign)
    except ValueError as exc:  # still running: say why, keep the page
        messages.warning(request, str(exc))
        return redirect("campaign_detail", pk=campaign.pk)
    messages.success(request, f"Campaign #{campaign.pk} ({campaign.name}) deleted.")
    return redirect("campaign_list")


@login_required
@require_POST
def campaign_action(request: HttpRequest, pk: int, action: str) -> HttpResponse:
    campaign = _campaign_or_404(pk)
    if action not in _ACTIONS and action != "delete":
        raise Http404(f"no action {action}")
    require_manager(request.user, campaign)
    if action == "delete":
        return _delete(request, campaign)
    try:
        _ACTIONS[action](campaign=campaign)
    except QueueUnavailable as exc:
        messages.warning(request, str(exc))
    except Exception as exc:  # noqa: BLE001 - Redis down while resuming: say so, keep the page
        from redis.exceptions import RedisError

        if not isinstance(exc, RedisError):
            raise
        messages.warning(request, f"the queue is unavailable ({exc}); try again later")
    return redirect("campaign_detail", pk=campaign.pk)


# ---------------------------------------------------------------- findings


@require_safe
def finding_list(request: HttpRequest) -> HttpResponse:
    outcome = request.GET.get("outcome") or None
    language = request.GET.get("language") or None
    if outcome and outcome not in OUTCOMES:
        return _bad_request(f"unknown outcome {outcome!r}")
    if language and language not in names():
        return _bad_request(f"unknown language {language!r}")
    page = _page(request, selectors.list_findings(outcome=outcome, language=language))
    return render(
        request,
        "findings/list.html",
        {
            "page": page,
            "outcome": outcome,
            "language": language,
            "outcomes": ["crash", "timeout"],
            "languages": names(),
        },
    )


@require_safe
def finding_detail(request: HttpRequest, pk: int) -> HttpResponse:
    try:
        finding = selectors.get_finding(pk)
    except Finding.DoesNotExist:
        raise Http404(f"no finding {pk}") from None
    return render(
        request,
        "findings/detail.html",
        {
            "finding": finding,
            "no_bisection": get_target(finding.language).no_bisection,
            "page": _page(request, selectors.finding_executions(finding), 25),
            "campaigns": list(selectors.finding_campaigns(finding)[:100]),
            "hits": selectors.finding_hits_by_target(finding),
            "reductions": [
                reduction_context(r, request.user)
                for r in selectors.finding_reductions(finding)[:10]
            ],
            # Only a signed-in user is offered the form.
            "reduce_form": reduce_form(finding) if request.user.is_authenticated else None,
            "report": bug_report(request, finding),
        },
    )


# ---------------------------------------------------------------- programs


@dataclass
class SourceView:
    language: str
    extension: str
    file_name: str
    html: str  # Pygments markup; "" when not expressible, or when it is loaded on demand
    problem: str
    lazy: bool = False  # its tab fetches the markup when first shown (program_code)


def _sources(program: Program) -> list[SourceView]:
    """Every language's tab: the first that renders comes highlighted; every other is
    only checked, and fetches its highlighted code from `program_code` when first shown
    (htmx, `intersect once`; without JavaScript it keeps its raw link). Rendering and
    highlighting a dozen sources was most of the page's time (some 100 ms)."""
    out = []
    first = True
    for language in names():
        target = get_target(language)
        view = SourceView(language, target.extension, target.source_file, "", "")
        if first:
            try:
                text = selectors.program_source(program, language, values=True)
            except ValueError as exc:
                view.problem = str(exc)
            else:
                (view.html,) = highlight_sources([(text, target.lexer)])
                first = False
        else:
            view.problem = selectors.program_source_problem(program, language, values=True)
            view.lazy = not view.problem
        out.append(view)
    return out


def _program_page(
    request: HttpRequest, program: Program, form: ReproduceForm | None, status: int = 200
) -> HttpResponse:
    repetitions, versions = bundles.observed_settings(program)
    original = selectors.original_runs(program)
    reduced_by = selectors.reduction_of(program) if original is None else None
    if form is None:
        # The form starts with the settings the program last showed a finding with, so
        # that a reproduction is a fair test of it (10 repetitions cannot show a bug
        # found with 1,000).
        initial: dict[str, object] = {"target": next(iter(versions.values()))} if versions else {}
        if original is not None:
            initial.update(
                target=original.toolchain_id,
                repetitions=original.repetitions,
                timeout_s=original.timeout_s,
                pct_depth=original.pct_depth,
            )
        elif reduced_by is not None:  # what the reduction ran it with
            initial.update(
                target=reduced_by.toolchain_id,
                repetitions=reduced_by.repetitions,
                timeout_s=reduced_by.timeout_s,
                pct_depth=reduced_by.pct_depth,
            )
        form = ReproduceForm(initial=initial)
    reproductions = list(selectors.program_reproductions(program)[:20])
    for r in reproductions:
        r.verdict = selectors.reproduction_verdict(r, original)
    context = {
        "program": program,
        "sources": _sources(program),
        "page": _page(request, selectors.program_executions(program), 20),
        "findings": list(selectors.program_findings(program)),
        "reproductions": reproductions,
        "original": original,
        "reduced_by": reduced_by,
        "reduced_state": (reduced_by.state or {}) if reduced_by is not None else {},
        "form": form,
        "bundle_repetitions": repetitions,
        "permalink": request.build_absolute_uri(reverse("program", args=[program.id])),
        **(_quota_context(request) if request.user.is_authenticated else {}),
    }
    return render(request, "programs/detail.html", context, status=status)


@require_safe
def program_detail(request: HttpRequest, pid: str) -> HttpResponse:
    program = _program_or_404(pid)
    if pid != program.id:
        return redirect("program", pid=program.id, permanent=True)
    return _program_page(request, program, None)


def _bad_request(message: str) -> HttpResponse:
    """A 400 whose message may quote the request: plain text, which no browser renders as
    markup (an `outcome` of `<meta http-equiv=refresh …>` once redirected the page)."""
    return HttpResponseBadRequest(message, content_type="text/plain; charset=utf-8")


def _repetitions(request: HttpRequest, default: int) -> int | None:
    text = request.GET.get("repetitions", "").strip()
    if not text:  # absent or empty (a form sent blank): the default, as the playground does
        return default
    if not (text.isascii() and text.isdigit()) or not 1 <= int(text) <= MAX_CAMPAIGN_REPETITIONS:
        return None
    return int(text)


@require_safe
def program_raw(request: HttpRequest, pid: str, ext: str) -> HttpResponse:
    """`/p/<id>.<extension of a target>`: the source as text/plain, the same bytes every time."""
    program = _program_or_404(pid)
    language = next(t.name for t in all_targets() if t.extension == ext)
    repetitions = _repetitions(request, 1)
    if repetitions is None:
        return _bad_request(f"repetitions must be from 1 to {MAX_CAMPAIGN_REPETITIONS}")
    try:
        text = selectors.program_source(program, language, repetitions=repetitions)
    except ValueError as exc:
        raise Http404(str(exc)) from None
    response = HttpResponse(text, content_type="text/plain; charset=utf-8")
    name = PurePosixPath(get_target(language).source_file).name  # Rust's is src/main.rs
    response["Content-Disposition"] = f'inline; filename="{name}"'
    return response


@require_safe
def program_code(request: HttpRequest, pid: str, ext: str) -> HttpResponse:
    """`/p/<id>/code.<extension>`: one tab of the program page, its source highlighted
    (rendered as the page renders it: one repetition, the value oracle on)."""
    program = _program_or_404(pid)
    target = next(t for t in all_targets() if t.extension == ext)
    try:
        text = selectors.program_source(program, target.name, values=True)
    except ValueError as exc:
        raise Http404(str(exc)) from None
    (html,) = highlight_sources([(text, target.lexer)])
    view = SourceView(target.name, target.extension, target.source_file, html, "")
    return render(request, "programs/_code.html", {"program": program, "s": view})


@require_safe
def program_bundle(request: HttpRequest, pid: str) -> HttpResponse:
    """`/p/<id>.zip`: the reproducer bundle (chanfuzz_site.bundles)."""
    program = _program_or_404(pid)
    observed, versions = bundles.observed_settings(program)
    repetitions = _repetitions(request, observed)
    if repetitions is None:
        return _bad_request(f"repetitions must be from 1 to {MAX_CAMPAIGN_REPETITIONS}")
    data = bundles.build_bundle(
        program,
        permalink=request.build_absolute_uri(reverse("program", args=[program.id])),
        repetitions=repetitions,
        versions=versions,
    )
    response = HttpResponse(data, content_type="application/zip")
    response["Content-Disposition"] = f'attachment; filename="chanfuzz-{program.id}.zip"'
    return response


@login_required
@require_POST
def program_reproduce(request: HttpRequest, pid: str) -> HttpResponse:
    program = _program_or_404(pid)
    form = ReproduceForm(request.POST)
    if form.is_valid():
        try:
            services.reproduce(program=program, **form.service_kwargs(), owner=request.user)
        except ValueError as exc:
            _add_error(form, exc)
        except Exception as exc:  # noqa: BLE001 - Redis refused the job: tell, don't 500
            from redis.exceptions import RedisError

            if not isinstance(exc, RedisError):
                raise
            form.add_error(None, f"the queue is unavailable ({exc}); start Redis and retry")
        else:
            return redirect(reverse("program", args=[program.id]) + "#reproductions")
    status = 503 if any("queue is unavailable" in e for e in form.non_field_errors()) else 400
    return _program_page(request, program, form, status=status)


@require_safe
def reproduction_status(request: HttpRequest, pk: int) -> HttpResponse:
    """The polled row of one reproduction; 286 once it is done or failed."""
    try:
        reproduction = selectors.get_reproduction(pk)
    except Reproduction.DoesNotExist:
        raise Http404(f"no reproduction {pk}") from None
    # Polled every 2 s while it runs: the original's runs are read once it is done.
    reproduction.verdict = (
        selectors.reproduction_verdict(reproduction, selectors.original_runs(reproduction.program))
        if reproduction.status == Reproduction.Status.DONE
        else ""
    )
    response = render(request, "programs/_reproduction.html", {"r": reproduction})
    finished = reproduction.status in (Reproduction.Status.DONE, Reproduction.Status.FAILED)
    if finished and request.headers.get("HX-Request"):
        response.status_code = STOP_POLLING
    return response

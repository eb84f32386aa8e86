"""The Reduce button of a finding, the polled progress of a reduction, and cancel."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from runners.campaigns.models import Finding, Reduction
from runners.campaigns.programs import build_from_effect, store_program
from tests.runners.conftest import require_toolchain
from tests.site.test_site_campaign_pages import seed_campaign

pytestmark = pytest.mark.django_db

BUDGET = {"max_candidates": 50, "max_minutes": 10, "jobs": 2}


@pytest.fixture
def client(user_client: Client) -> Client:
    """This module's pages are used by a signed-in user, as starting work needs an account
    (what anonymous visitors get is tests/site/test_site_accounts.py's)."""
    return user_client



def test_a_finding_page_offers_to_reduce_its_example(client: Client) -> None:
    seeded = seed_campaign()
    body = client.get(reverse("finding_detail", args=[seeded.hang.pk])).content.decode()
    assert reverse("finding_reduce", args=[seeded.hang.pk]) in body
    assert 'name="max_candidates"' in body and "Not reduced yet" in body


def test_reduce_queues_a_reduction_with_the_findings_own_settings(client: Client) -> None:
    seeded = seed_campaign()
    url = reverse("finding_reduce", args=[seeded.hang.pk])
    response = client.post(url, BUDGET)
    assert response.status_code == 302
    assert response["Location"] == reverse("finding_detail", args=[seeded.hang.pk]) + "#reduction"
    reduction = Reduction.objects.get()
    assert (reduction.program_id, reduction.signature) == (
        seeded.hang.example_id,
        seeded.hang.signature,
    )
    # The campaign's toolchain, repetitions and timeout, not the defaults of a form.
    assert (reduction.toolchain_id, reduction.repetitions, reduction.timeout_s) == (
        seeded.target.toolchain_id,
        3,
        seeded.campaign.timeout_s,
    )
    assert (reduction.max_candidates, reduction.max_seconds, reduction.status) == (
        50,
        600,
        "queued",
    )
    assert reduction.rq_job_id.startswith(f"reduce-{reduction.pk}-")
    page = client.get(reverse("finding_detail", args=[seeded.hang.pk])).content.decode()
    assert f'id="reduction-{reduction.pk}"' in page
    assert reverse("reduction_status", args=[reduction.pk]) in page
    assert client.get(url).status_code == 405


def test_a_reduction_declares_hangs_after_the_campaigns_quiet_period(client: Client) -> None:
    # Without it every hung run of a hang's reduction waited out the whole limit (30 s).
    seeded = seed_campaign()
    seeded.campaign.hang_quiet_s = 1.5
    seeded.campaign.save(update_fields=["hang_quiet_s"])
    client.post(reverse("finding_reduce", args=[seeded.hang.pk]), BUDGET)
    assert Reduction.objects.get().hang_quiet_s == 1.5


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"max_candidates": 0}, "Candidates at most: Ensure this value is greater than or equal"),
        ({"jobs": 99}, "less than or equal to 16"),
        ({"max_minutes": "soon"}, "Enter a number"),
    ],
)
def test_reduce_refuses_bad_budgets(client: Client, data: dict, message: str) -> None:
    seeded = seed_campaign()
    response = client.post(reverse("finding_reduce", args=[seeded.hang.pk]), {**BUDGET, **data})
    assert response.status_code == 400
    assert message in response.content.decode()
    assert not Reduction.objects.exists()


def test_a_finding_no_campaign_ran_asks_for_the_toolchain_to_reduce_on(client: Client) -> None:
    # Every finding of a fresh database is one (loaded with the documentation): Reduce
    # refused each with "give the version to run", which the form had no field for.
    go = require_toolchain("go")
    now = timezone.now()
    finding = Finding.objects.create(
        signature="go | hang", outcome="timeout", language="go", title="no exit",
        first_seen=now, last_seen=now,
        example=store_program(build_from_effect("Spawn(Put(c1)) ; Get(c1)")),
    )  # fmt: skip
    page = client.get(reverse("finding_detail", args=[finding.pk])).content.decode()
    assert 'name="toolchain"' in page and f'value="{go.id}"' in page
    url = reverse("finding_reduce", args=[finding.pk])
    missing = client.post(url, BUDGET)
    assert missing.status_code == 400
    assert "Toolchain: This field is required" in missing.content.decode()
    assert client.post(url, {**BUDGET, "toolchain": go.id}).status_code == 302
    assert Reduction.objects.get().toolchain_id == go.id


def test_a_finding_a_campaign_ran_takes_its_toolchain_without_asking(client: Client) -> None:
    seeded = seed_campaign()
    page = client.get(reverse("finding_detail", args=[seeded.hang.pk])).content.decode()
    assert 'name="toolchain"' not in page


def test_reduce_of_an_unknown_finding_is_404(client: Client) -> None:
    assert client.post(reverse("finding_reduce", args=[999999]), BUDGET).status_code == 404
    assert client.get(reverse("reduction_status", args=[999999])).status_code == 404


def test_the_progress_stops_polling_when_the_reduction_ends(client: Client) -> None:
    seeded = seed_campaign()
    client.post(reverse("finding_reduce", args=[seeded.hang.pk]), BUDGET)
    reduction = Reduction.objects.get()
    url = reverse("reduction_status", args=[reduction.pk])
    queued = client.get(url, headers={"HX-Request": "true"})
    assert queued.status_code == 200 and 'hx-trigger="every 2s"' in queued.content.decode()
    step = {"description": "drop channel c2", "effect": "Spawn(Put(c1)) ; Get(c1)", "size": 4,
            "runs": 8, "failures": 8, "decision": "keeps"}  # fmt: skip
    state = {
        "original": "Spawn(Put(c1)) ; Spawn(Put(c2)) ; Get(c1) ; Get(c2)", "original_size": 8,
        "baseline_runs": 16, "baseline_failures": 12, "current": step["effect"],
        "current_size": 4, "tried": [step], "elapsed_s": 30.0, "done": True,
        "final_runs": 16, "final_failures": 11, "stop_reason": "no single edit keeps the failure",
    }  # fmt: skip
    Reduction.objects.filter(pk=reduction.pk).update(
        status="done", state=state, finished_at=timezone.now()
    )
    done = client.get(url, headers={"HX-Request": "true"})
    assert done.status_code == 286
    body = done.content.decode()
    assert "hx-trigger" not in body
    assert "failed 12 of 16 runs (75 %)" in body and "failed 11 of 16 runs (69 %)" in body
    assert "Spawn(Put(c1)) ; Get(c1)" in body and "drop channel c2" in body
    # The rule it applied: half the original's rate, at 95 %.
    assert "fails in at least 38 % of runs, with confidence 95 %" in body


def test_cancel_stops_a_reduction(client: Client) -> None:
    seeded = seed_campaign()
    client.post(reverse("finding_reduce", args=[seeded.hang.pk]), BUDGET)
    reduction = Reduction.objects.get()
    response = client.post(reverse("reduction_cancel", args=[reduction.pk]))
    assert response.status_code == 302
    reduction.refresh_from_db()
    assert reduction.status == "cancelled"
    body = client.get(reverse("finding_detail", args=[seeded.hang.pk])).content.decode()
    assert "cancelled" in body


def test_a_reduced_programs_page_says_what_it_was_reduced_from_and_how(client: Client) -> None:
    # A reduced program never runs in a campaign: its page once said "never executed",
    # offered 10 repetitions on another toolchain, and its bundle repeated it once.
    from chanfuzz_site import bundles

    seeded = seed_campaign()
    smaller = store_program(build_from_effect("Spawn(Get(c2)) ; Get(c1)", 0))
    Reduction.objects.create(
        finding=seeded.hang, program=seeded.hang.example, reduced=smaller, language="go",
        toolchain_id=seeded.target.toolchain_id, signature=seeded.hang.signature,
        timeout_s=7, repetitions=40, status="done", finished_at=timezone.now(),
        state={"final_failures": 9, "final_runs": 16},
    )  # fmt: skip
    page = client.get(reverse("program", args=[smaller.id])).content.decode()
    assert f'Reduced from program <a href="/p/{seeded.hang.example_id}">' in page
    assert f'finding <a href="/findings/{seeded.hang.pk}/">#{seeded.hang.pk}</a>' in page
    assert "it failed 9 of 16 runs there" in page
    assert 'name="repetitions" value="40"' in page
    assert bundles.observed_settings(smaller) == (40, {"go": seeded.target.toolchain_id})

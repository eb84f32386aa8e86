"""Campaign and finding pages through Django's test client: the form, list, detail with its
polled progress partial, cancel/pause/resume, findings list and page, bad input and unknown ids.

No Redis here: campaigns are created with the queueing left to on_commit, which a
test transaction never reaches, and executions are written as a worker would.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from generator.settings import PRESETS, RULE_TITLES, SIZE_LIMITS, GeneratorSettings
from runners.campaigns import services
from runners.campaigns.models import (
    Campaign,
    CampaignTarget,
    Chunk,
    Execution,
    Finding,
    Program,
)
from runners.campaigns.programs import build_generated, store_program
from tests.runners.conftest import require_toolchain

pytestmark = pytest.mark.django_db


@pytest.fixture
def client(user_client: Client) -> Client:
    """This module's pages are used by a signed-in user, as starting work needs an account
    (what anonymous visitors get is tests/site/test_site_accounts.py's)."""
    return user_client


@dataclass
class Seeded:
    campaign: Campaign
    target: CampaignTarget
    programs: list[Program]
    crash: Finding
    hang: Finding


def seed_campaign(*, count: int = 6, status: str = Campaign.Status.RUNNING) -> Seeded:
    """A Go campaign whose executions are in: programs 1 and 2 crash alike, 4 hangs, rest pass."""
    require_toolchain("go")
    campaign = services.create_campaign(
        name="pages", targets=[("go", None)], count=count, repetitions=3, enqueue=False
    )
    now = timezone.now()
    Campaign.objects.filter(pk=campaign.pk).update(
        status=status, started_at=now - timedelta(minutes=2)
    )
    campaign.refresh_from_db()
    target = campaign.targets.get()
    settings = GeneratorSettings(**campaign.settings)
    programs = [store_program(build_generated(campaign.seed + i, settings)) for i in range(count)]
    crash = Finding.objects.create(
        signature=f"go|crash|panic: send on closed|{campaign.pk}", outcome="crash", language="go",
        title="panic: send on closed channel", first_seen=now, last_seen=now,
        execution_count=2, program_count=2, example=programs[1],
    )  # fmt: skip
    hang = Finding.objects.create(
        signature=f"go|timeout|chanrecv|{campaign.pk}", outcome="timeout", language="go",
        title="no end within 10 s", first_seen=now, last_seen=now,
        execution_count=1, program_count=1, example=programs[4], confirmed_hangs=1,
    )  # fmt: skip
    for i, program in enumerate(programs):
        finding = crash if i in (1, 2) else hang if i == 4 else None
        Execution.objects.create(
            target=target, campaign=campaign, program=program, index=i,
            outcome=finding.outcome if finding else "terminated",
            reason=finding.title if finding else "exit 0",
            signature=finding.signature if finding else "",
            exit_code=2 if finding is crash else 0 if finding is None else None,
            duration_s=0.05 * (i + 1),
            stdout="STDOUT-MARK" if i == 1 else "",
            dump="goroutine 1 [chan receive]:" if i == 4 else "",
            finding=finding,
        )  # fmt: skip
    return Seeded(campaign, target, programs, crash, hang)


# ---------------------------------------------------------------- list


def test_campaign_list_empty_and_filled(client: Client) -> None:
    empty = client.get(reverse("campaign_list"))
    assert empty.status_code == 200
    assert "No campaigns" in empty.content.decode()
    seeded = seed_campaign()
    body = client.get(reverse("campaign_list")).content.decode()
    assert reverse("campaign_detail", args=[seeded.campaign.pk]) in body
    assert "pages" in body and seeded.target.toolchain_id in body
    assert "6 / 6" in body  # every execution is in
    assert 'class="num bad">2<' in body and 'class="num bad">1<' in body  # crashes, timeouts
    done = client.get(reverse("campaign_list"), {"status": "done"}).content.decode()
    assert "No campaigns with status done" in done
    assert client.get(reverse("campaign_list"), {"status": "bogus"}).status_code == 400


def test_campaign_list_shortens_a_sweep_over_many_releases(client: Client) -> None:
    for version in ("0.19", "0.22.5", "1.0.1", "1.11.0"):
        require_toolchain("kotlin", version)
    sweep = services.create_campaign(
        name="sweep",
        targets=[("kotlin", v) for v in ("0.19", "0.22.5", "1.0.1", "1.11.0")],
        count=2,
        enqueue=False,
    )
    ids = [t.toolchain_id for t in sweep.targets.order_by("id")]
    body = client.get(reverse("campaign_list")).content.decode()
    assert f"<code>{ids[0]}</code>  …  <code>{ids[-1]}</code> (4 targets)" in body
    assert ids[1] not in body and "0 / 8" in body


def test_campaign_list_queries_do_not_grow_with_rows(
    client: Client, django_assert_max_num_queries
) -> None:  # noqa: ANN001
    for _ in range(3):
        seed_campaign()
    with django_assert_max_num_queries(6):
        assert client.get(reverse("campaign_list")).status_code == 200


# ---------------------------------------------------------------- form


def _form_data(go: str, **overrides: object) -> dict[str, object]:
    data: dict[str, object] = {
        "name": "from the form", "heuristic": "B", "targets": [go], "count": 7,
        "timeout_s": 2.5, "repetitions": 4, "seed": 11, "chunk_size": 3, "triage_retries": 1,
        "runs": 2,
    }  # fmt: skip
    data.update({f"s_{k}": getattr(PRESETS["A"], k) for k in SIZE_LIMITS})
    data.update(overrides)
    return data


def test_campaign_form_lists_rules_targets_and_sizes(client: Client) -> None:
    go = require_toolchain("go")
    response = client.get(reverse("campaign_new"))
    assert response.status_code == 200
    body = response.content.decode()
    for title in RULE_TITLES.values():
        assert title in body
    assert go.id in body
    assert 'name="s_max_depth"' in body and 'name="w_g_select"' in body
    assert 'value="F"' in body and 'value="custom"' in body


def test_campaign_form_answers_with_a_trailing_slash_too(client: Client) -> None:
    response = client.get("/campaigns/new/")
    assert response.status_code == 200
    assert 'name="w_g_select"' in response.content.decode()


def test_campaign_form_creates_a_preset_campaign(client: Client) -> None:
    go = require_toolchain("go").id
    response = client.post(reverse("campaign_new"), _form_data(go, s_max_depth=4))
    campaign = Campaign.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("campaign_detail", args=[campaign.pk])
    assert (campaign.name, campaign.heuristic, campaign.program_count) == ("from the form", "B", 7)
    assert (campaign.timeout_s, campaign.repetitions, campaign.seed) == (2.5, 4, 11)
    assert (campaign.chunk_size, campaign.triage_retries, campaign.runs) == (3, 1, 2)
    assert campaign.settings["max_depth"] == 4
    assert campaign.settings["r_select"] == 0  # B: no reordering
    assert [t.toolchain_id for t in campaign.targets.all()] == [go]
    assert campaign.targets.get().chunks.count() == 3  # 7 programs, 3 per chunk
    assert campaign.pct_depth is None  # the field left empty: no yields


def test_campaign_form_without_runs_runs_each_program_once(client: Client) -> None:
    go = require_toolchain("go").id
    data = _form_data(go)
    del data["runs"]  # a form of before the field, or the field left empty
    assert client.post(reverse("campaign_new"), data).status_code == 302
    assert Campaign.objects.get().runs == 1


def test_campaign_form_sets_schedule_perturbation_and_the_page_shows_it(client: Client) -> None:
    go = require_toolchain("go").id
    assert 'name="pct_depth"' in client.get(reverse("campaign_new")).content.decode()
    response = client.post(reverse("campaign_new"), _form_data(go, pct_depth=3))
    campaign = Campaign.objects.get()
    assert response.status_code == 302 and campaign.pct_depth == 3
    page = client.get(reverse("campaign_detail", args=[campaign.pk])).content.decode()
    assert "PCT depth 3 ·" in page


def test_campaign_form_custom_weights_and_several_targets(client: Client) -> None:
    # Two targets of two languages, both installed by CI (a missing one fails there).
    targets = [require_toolchain("go").id, require_toolchain("crystal").id]
    weights = {f"w_{r}": 0 for r in GeneratorSettings().weights()}
    weights.update(w_g_final=2, w_g_select=5)
    response = client.post(
        reverse("campaign_new"),
        _form_data(targets[0], heuristic="custom", targets=targets, **weights),
    )
    assert response.status_code == 302
    campaign = Campaign.objects.get()
    assert campaign.heuristic == "custom"
    assert campaign.settings["g_select"] == 5 and campaign.settings["g_seq"] == 0
    assert sorted(t.toolchain_id for t in campaign.targets.all()) == sorted(targets)


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"targets": []}, "This field is required"),
        ({"targets": ["go-0.0.0-nowhere"]}, "Select a valid choice"),
        ({"count": 0}, "greater than or equal to 1"),
        ({"count": "many"}, "Enter a whole number"),
        ({"timeout_s": 0}, "greater than or equal to 0.1"),
        ({"s_max_depth": 99}, "less than or equal to 8"),
        ({"heuristic": "Z"}, "Select a valid choice"),
        ({"heuristic": "custom"}, "custom weights need a value"),
        ({"seed": 2**63}, "less than or equal to"),
        ({"pct_depth": 0}, "greater than or equal to 1"),
        ({"pct_depth": 65}, "less than or equal to 64"),
        # On its field, not "hang_quiet_s must be from 0.1 to 2.5" above the form.
        ({"hang_quiet_s": 50}, "at most the timeout (2.5 s)"),
    ],
)
def test_campaign_form_refuses_bad_input_inline(
    client: Client, overrides: dict[str, object], message: str
) -> None:
    go = require_toolchain("go").id
    response = client.post(reverse("campaign_new"), _form_data(go, **overrides))
    assert response.status_code == 400
    assert message in response.content.decode()
    assert Campaign.objects.count() == 0


def test_campaign_form_shows_settings_errors_of_the_generator(client: Client) -> None:
    go = require_toolchain("go").id
    no_generation = {f"w_{r}": 0 for r in GeneratorSettings().weights()}
    response = client.post(
        reverse("campaign_new"), _form_data(go, heuristic="custom", **no_generation)
    )
    assert response.status_code == 400
    assert "at least one generation rule" in response.content.decode()
    assert Campaign.objects.count() == 0


# ---------------------------------------------------------------- detail and live progress


def test_campaign_detail_shows_progress_verdicts_table_and_plot(client: Client) -> None:
    seeded = seed_campaign()
    url = reverse("campaign_detail", args=[seeded.campaign.pk])
    response = client.get(url)
    assert response.status_code == 200
    body = response.content.decode()
    assert '<progress class="bar" max="100" value="100.0">' in body
    assert "programs/min" in body and "2 findings" in body
    # Verdicts per target: 3 terminated, 1 timeout, 2 crashes.
    assert '<td class="num">6 / 6</td>' in body
    assert '<td class="num">3</td><td class="num bad">1</td><td class="num bad">2</td>' in body
    # Table 2: programs revealing each finding per target, then the total.
    assert reverse("finding_detail", args=[seeded.crash.pk]) in body
    assert reverse("program", args=[seeded.programs[1].id]) in body
    assert "<svg" in body and "<polyline" in body
    # Polling while the campaign runs.
    assert 'hx-trigger="every 2s"' in body
    assert reverse("campaign_live", args=[seeded.campaign.pk]) in body
    # Executions, filtered by verdict.
    crashes = client.get(url, {"outcome": "crash"}).content.decode()
    assert crashes.count('<span class="outcome outcome-crash">crash</span> <a') == 2
    assert client.get(url, {"outcome": "nonsense"}).status_code == 400
    assert client.get(url, {"target": "999999"}).status_code == 400
    assert client.get(url, {"target": seeded.target.pk}).status_code == 200


def test_live_partial_polls_while_running_and_stops_when_done(client: Client) -> None:
    seeded = seed_campaign()
    live = reverse("campaign_live", args=[seeded.campaign.pk])
    running = client.get(live, headers={"HX-Request": "true"})
    assert running.status_code == 200
    assert 'hx-trigger="every 2s"' in running.content.decode()
    Campaign.objects.filter(pk=seeded.campaign.pk).update(
        status=Campaign.Status.DONE, finished_at=timezone.now()
    )
    done = client.get(live, headers={"HX-Request": "true"})
    assert done.status_code == 286  # htmx stops polling
    # ...and tells the slower-polling executions table to load its final rows.
    assert done["HX-Trigger"] == "campaign-finished"
    body = done.content.decode()
    assert "hx-trigger" not in body and 'data-status="done"' in body
    # Without htmx (a plain reload of the fragment) it is an ordinary 200.
    assert client.get(live).status_code == 200


def test_detail_queries_do_not_grow_with_executions(
    client: Client, django_assert_max_num_queries
) -> None:  # noqa: ANN001
    seeded = seed_campaign(count=12)
    with django_assert_max_num_queries(14):
        assert client.get(reverse("campaign_detail", args=[seeded.campaign.pk])).status_code == 200
    # 8, and 2 for the signed-in user's session and row.
    with django_assert_max_num_queries(10):
        assert client.get(reverse("campaign_live", args=[seeded.campaign.pk])).status_code == 200


def test_unknown_campaign_is_404(client: Client) -> None:
    assert client.get(reverse("campaign_detail", args=[424242])).status_code == 404
    assert client.get(reverse("campaign_live", args=[424242])).status_code == 404
    assert client.post(reverse("campaign_action", args=[424242, "cancel"])).status_code == 404


def test_cancel_pause_resume(client: Client, user) -> None:  # noqa: ANN001
    seeded = seed_campaign()
    pk = seeded.campaign.pk
    Campaign.objects.filter(pk=pk).update(owner=user)  # the owner may stop it
    assert client.get(reverse("campaign_action", args=[pk, "cancel"])).status_code == 405
    assert client.post(reverse("campaign_action", args=[pk, "explode"])).status_code == 404
    response = client.post(reverse("campaign_action", args=[pk, "pause"]))
    assert response.status_code == 302
    assert Campaign.objects.get(pk=pk).status == "paused"
    page = client.get(reverse("campaign_detail", args=[pk])).content.decode()
    assert "/resume" in page and "hx-trigger" not in page
    client.post(reverse("campaign_action", args=[pk, "resume"]))
    assert Campaign.objects.get(pk=pk).status == "running"  # it has executions already
    client.post(reverse("campaign_action", args=[pk, "cancel"]))
    assert Campaign.objects.get(pk=pk).status == "cancelled"
    page = client.get(reverse("campaign_detail", args=[pk])).content.decode()
    assert "/resume" in page and "/cancel" not in page


def test_the_owner_deletes_a_stopped_campaign_and_its_programs_and_findings_stay(
    client: Client,
    user,  # noqa: ANN001
) -> None:
    seeded = seed_campaign()
    pk = seeded.campaign.pk
    Campaign.objects.filter(pk=pk).update(owner=user)
    delete = reverse("campaign_action", args=[pk, "delete"])
    # Running: refused with the reason, nothing deleted, and no Delete button offered.
    assert (
        'data-confirm="Delete campaign'
        not in client.get(reverse("campaign_detail", args=[pk])).content.decode()
    )
    refused = client.post(delete, follow=True)
    assert refused.redirect_chain == [(reverse("campaign_detail", args=[pk]), 302)]
    assert f"campaign {pk} is running: pause or cancel it, then delete it" in (
        refused.content.decode()
    )
    assert Campaign.objects.filter(pk=pk).exists()
    # Paused, but a chunk still finishing its program: refused too.
    client.post(reverse("campaign_action", args=[pk, "pause"]))
    chunk = Chunk.objects.filter(target__campaign_id=pk).first()
    Chunk.objects.filter(pk=chunk.pk).update(state=Chunk.State.RUNNING)
    busy = client.post(delete, follow=True).content.decode()
    assert "is still finishing its current program" in busy
    assert 'data-confirm="Delete campaign' in busy  # stopped: the button is there
    Chunk.objects.filter(pk=chunk.pk).update(state=Chunk.State.QUEUED)
    done = client.post(delete, follow=True)
    assert done.redirect_chain == [(reverse("campaign_list"), 302)]
    assert f"Campaign #{pk} (pages) deleted." in done.content.decode()
    assert not Campaign.objects.filter(pk=pk).exists()
    assert not Execution.objects.filter(campaign_id=pk).exists()
    assert not Chunk.objects.filter(target__campaign_id=pk).exists()
    # Permalinks and findings outlive the campaign.
    assert Program.objects.filter(pk__in=[p.pk for p in seeded.programs]).count() == 6
    assert client.get(reverse("program", args=[seeded.programs[1].pk])).status_code == 200
    assert Finding.objects.filter(pk__in=[seeded.crash.pk, seeded.hang.pk]).count() == 2


def test_only_the_owner_or_staff_delete_a_campaign(
    client: Client,
    django_user_model,  # noqa: ANN001
) -> None:
    seeded = seed_campaign(status=Campaign.Status.CANCELLED)
    pk = seeded.campaign.pk
    owner = django_user_model.objects.create_user(username="grace", password="not-a-real-2")
    Campaign.objects.filter(pk=pk).update(owner=owner)
    delete = reverse("campaign_action", args=[pk, "delete"])
    assert client.post(delete).status_code == 403  # signed in, but not the owner
    client.logout()
    anonymous = client.post(delete)
    assert anonymous.status_code == 302 and anonymous["Location"].startswith("/accounts/login/")
    assert Campaign.objects.filter(pk=pk).exists()
    staff = django_user_model.objects.create_user(
        username="root", password="not-a-real-3", is_staff=True
    )
    client.force_login(staff)
    assert client.post(delete)["Location"] == reverse("campaign_list")
    assert not Campaign.objects.filter(pk=pk).exists()


# ---------------------------------------------------------------- findings


def test_findings_list_and_filters(client: Client) -> None:
    assert "No findings yet" in client.get(reverse("finding_list")).content.decode()
    seeded = seed_campaign()
    body = client.get(reverse("finding_list")).content.decode()
    assert "panic: send on closed channel" in body and "no end within 10 s" in body
    assert reverse("program", args=[seeded.programs[1].id]) in body
    crashes = client.get(reverse("finding_list"), {"outcome": "crash"}).content.decode()
    assert "panic: send on closed channel" in crashes and "no end within" not in crashes
    assert (
        "No findings match"
        in client.get(reverse("finding_list"), {"language": "kotlin"}).content.decode()
    )
    assert client.get(reverse("finding_list"), {"outcome": "boom"}).status_code == 400
    assert client.get(reverse("finding_list"), {"language": "cobol"}).status_code == 400


def test_finding_page(client: Client, django_assert_max_num_queries) -> None:  # noqa: ANN001
    seeded = seed_campaign()
    url = reverse("finding_detail", args=[seeded.crash.pk])
    # A fixed number whatever the counts: the page, its reductions, and the bug
    # report's evidence (a reduction, a dump, the original runs); 2 for the signed-in
    # user's session and row.
    with django_assert_max_num_queries(14):
        response = client.get(url)
    assert response.status_code == 200
    body = response.content.decode()
    assert seeded.crash.signature in body
    assert "panic: send on closed channel" in body
    assert reverse("program", args=[seeded.programs[1].id]) in body  # the example
    assert reverse("program_bundle", args=[seeded.programs[1].id]) in body
    assert reverse("campaign_detail", args=[seeded.campaign.pk]) in body
    # Executions: programs 1 and 2, both linked.
    assert reverse("program", args=[seeded.programs[2].id]) in body
    # Programs revealing it per heuristic and target.
    assert f"<td>A</td><td><code>{seeded.target.toolchain_id}</code></td>" in body
    assert client.get(reverse("finding_detail", args=[999999])).status_code == 404


def test_detail_executions_are_paginated_per_target(client: Client) -> None:
    seeded = seed_campaign(count=60)
    url = reverse("campaign_detail", args=[seeded.campaign.pk])
    first = client.get(url).content.decode()
    assert "page 1 of 2" in first
    assert reverse("program", args=[seeded.programs[49].id]) in first
    assert reverse("program", args=[seeded.programs[50].id]) not in first
    second = client.get(url, {"page": 2}).content.decode()
    assert "page 2 of 2" in second
    assert reverse("program", args=[seeded.programs[59].id]) in second
    assert reverse("program", args=[seeded.programs[0].id]) not in second
    # Past the end: the last page, not an error; nonsense: the first.
    assert "page 2 of 2" in client.get(url, {"page": 999}).content.decode()
    assert "page 1 of 2" in client.get(url, {"page": "x"}).content.decode()
    # A verdict filter pages over that verdict's count.
    crashes = client.get(url, {"outcome": "crash", "page": 1}).content.decode()
    assert "page 1 of" not in crashes  # two crashes: one page, no pager


def test_detail_pages_over_indices_with_gaps_too(client: Client) -> None:
    """A running campaign's chunks finish out of order: indices 0–29 and 40–69 are in, so
    page n cannot be indices [50(n−1), 50n): the page walks the rows in index order."""
    require_toolchain("go")
    campaign = services.create_campaign(targets=[("go", None)], count=70, enqueue=False)
    target = campaign.targets.get()
    stored = [store_program(build_generated(i, PRESETS["A"])) for i in range(70)]
    indices = [*range(30), *range(40, 70)]
    for i in indices:
        Execution.objects.create(
            target=target, campaign=campaign, program=stored[i], index=i, outcome="terminated"
        )
    url = reverse("campaign_detail", args=[campaign.pk])
    shown = []
    for page in (1, 2):
        body = client.get(url, {"page": page}).content.decode()
        assert f"page {page} of 2" in body
        shown.append([i for i in range(70) if reverse("program", args=[stored[i].id]) in body])
    # Distinct generated programs can share an id; none of these 70 do.
    assert len({p.id for p in stored}) == 70
    assert shown == [indices[:50], indices[50:]]


def test_detail_shows_one_target_at_a_time(client: Client) -> None:
    go, crystal = require_toolchain("go"), require_toolchain("crystal")
    campaign = services.create_campaign(
        targets=[("go", go.id), ("crystal", crystal.id)], count=2, enqueue=False
    )
    first, second = campaign.targets.all()
    program = store_program(build_generated(0, PRESETS["A"]))
    Execution.objects.create(
        target=second, campaign=campaign, program=program, index=0, outcome="terminated"
    )
    url = reverse("campaign_detail", args=[campaign.pk])
    assert f"No executions on {first.toolchain_id} yet" in client.get(url).content.decode()
    chosen = client.get(url, {"target": second.pk}).content.decode()
    assert reverse("program", args=[program.id]) in chosen
    assert f'<option value="{second.pk}" selected>' in chosen


# ---------------------------------------------------------------- beyond the paper


def test_campaign_form_buffered_checkbox_stores_the_setting_and_the_page_says_so(
    client: Client,
) -> None:
    from generator.capabilities import Capabilities
    from generator.settings import settings_for
    from runners.campaigns.programs import campaign_program

    go = require_toolchain("go").id
    form = client.get(reverse("campaign_new")).content.decode()
    assert 'name="buffered"' in form
    assert "buffered channels, close and range (beyond the paper)" in form
    response = client.post(reverse("campaign_new"), _form_data(go, buffered="on"))
    assert response.status_code == 302
    campaign = Campaign.objects.get()
    assert campaign.settings["buffered"] is True
    capabilities = Capabilities.from_dict(campaign.capabilities)
    expected = build_generated(11, settings_for("B", buffered=True), capabilities)
    assert campaign_program(campaign, 0).id == expected.id
    page = client.get(reverse("campaign_detail", args=[campaign.pk])).content.decode()
    # Go can write a select with a default: its buffered programs have some.
    assert capabilities.select_default
    assert "buffered channels, close and range, selects with a default ·" in page
    lacking = not (capabilities.buffered and capabilities.close)
    assert ('id="buffered-note"' in page) == lacking


def test_campaign_form_leaves_buffered_off_by_default(client: Client) -> None:
    go = require_toolchain("go").id
    client.post(reverse("campaign_new"), _form_data(go))
    campaign = Campaign.objects.get()
    assert "buffered" not in campaign.settings
    page = client.get(reverse("campaign_detail", args=[campaign.pk])).content.decode()
    assert "buffered channels, close and range" not in page

"""The pages' queries on the big table stay index scans on PostgreSQL (issue #20, item 2).

100,000 executions over five campaigns are inserted with one `INSERT … SELECT
generate_series` (a few seconds), the tables are VACUUM ANALYZEd, and then the pages that
read executions are requested: the campaign list, a campaign (first page and a deep page,
filtered by verdict and findings only), a finding, a program and the findings list. Every
query they send that reads `runners_execution` is EXPLAINed, and none may be a sequential
scan of it (nor a walk of its whole primary key with a filter). On SQLite (the main run)
the tests are skipped: scripts/test.sh runs them in its PostgreSQL run
(`-m "not slow or postgres"`); by hand:

    eval "$(scripts/start_postgres.sh)"; .venv/bin/python -m pytest -s \
        tests/runners/campaigns/test_postgres_indexes.py

`-s` prints each query's plan.
"""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from runners.campaigns import programs
from runners.campaigns.models import Campaign, CampaignTarget, Finding, OutcomeCount

# Out of a transaction, so that VACUUM can set the visibility map as autovacuum would on a
# live database (index-only scans depend on it); the tables are emptied afterwards.
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres]

CAMPAIGNS = 5
PER_CAMPAIGN = 20_000  # 100,000 executions in all
FILLER_PROGRAMS = 2_000
FINDINGS = 10
LIST_PAGE = 50  # more than the list shows on a page (25)


@pytest.fixture
def big_database() -> dict[str, object]:
    if connection.vendor != "postgresql":
        pytest.skip("EXPLAIN checks need PostgreSQL (DATABASE_URL; scripts/start_postgres.sh)")
    real = [
        programs.store_program(programs.build_from_effect(text))
        for text in ("Get(c1)", "Put(c1)", "Spawn(Put(c1)) ; Get(c1)")
    ]
    now = timezone.now()
    findings = [
        Finding.objects.create(
            signature=f"big|crash|{i}",
            outcome="crash",
            language="go",
            title=f"big finding {i}",
            first_seen=now,
            last_seen=now,
            example=real[i % len(real)],
        )
        for i in range(FINDINGS)
    ]
    campaigns = []
    for c in range(CAMPAIGNS):
        campaign = Campaign.objects.create(
            name=f"big {c}",
            heuristic="A",
            settings={},
            seed=c,
            program_count=PER_CAMPAIGN,
            timeout_s=5.0,
            repetitions=1,
            chunk_size=1000,
            generator_version="test",
            status=Campaign.Status.DONE,
        )
        CampaignTarget.objects.create(campaign=campaign, language="go", toolchain_id="go-test")
        campaigns.append(campaign)
    # Newer campaigns that ran little fill the list's first page (25 a page), as on a site
    # with a history. A page listing the big ones reads their stored counts, not their
    # executions (`test_a_list_page_counts_no_execution`).
    Campaign.objects.bulk_create(
        Campaign(
            name=f"small {c}",
            heuristic="A",
            settings={},
            seed=c,
            program_count=10,
            timeout_s=5.0,
            repetitions=1,
            chunk_size=10,
            generator_version="test",
            status=Campaign.Status.DONE,
        )
        for c in range(LIST_PAGE)
    )
    with connection.cursor() as cursor:
        cursor.execute(
            """
            INSERT INTO runners_program (id, effect_text, effect_size, lambda_text, source,
                seed, settings, capabilities, generator_version, render_seed, created_at)
            SELECT 'f' || translate(lpad(i::text, 11, '0'), '0123456789', 'abcdefghij'),
                'Get(c1)', 7, '', 'effect', i, NULL, '{}', 'test', i, now()
            FROM generate_series(1, %s) AS i
            """,
            [FILLER_PROGRAMS],
        )
        # Program ids are base32 (a-z, 2-7): the filler's digits become letters.
        # 1 execution in 50 is a finding, on one of the real programs; the rest terminated
        # on filler programs. Timestamps spread over a day.
        cursor.execute(
            """
            INSERT INTO runners_execution (index, outcome, reason, signature, exit_code,
                duration_s, stdout, stderr, dump, attempts, compile_output, created_at,
                campaign_id, target_id, finding_id, program_id)
            SELECT i, CASE WHEN i %% 50 = 0 THEN 'crash' ELSE 'terminated' END, '', '', 0,
                0.1, '', '', '', '[]', '', now() - (i || ' seconds')::interval,
                c.id, t.id,
                CASE WHEN i %% 50 = 0 THEN (%s::bigint[])[1 + (i / 50) %% %s] END,
                CASE WHEN i %% 50 = 0 THEN (%s::text[])[1 + (i / 50) %% %s]
                     ELSE 'f' || translate(lpad((1 + i %% %s)::text, 11, '0'),
                         '0123456789', 'abcdefghij') END
            FROM runners_campaign c
            JOIN runners_campaigntarget t ON t.campaign_id = c.id
            CROSS JOIN generate_series(0, %s - 1) AS i
            WHERE c.id = ANY(%s)
            """,
            [
                [f.pk for f in findings],
                FINDINGS,
                [p.id for p in real],
                len(real),
                FILLER_PROGRAMS,
                PER_CAMPAIGN,
                [c.pk for c in campaigns],
            ],
        )
        # SQL inserts skip Execution.save, which keeps the counts per verdict.
        OutcomeCount.recount(list(CampaignTarget.objects.values_list("pk", flat=True)))
        cursor.execute("VACUUM ANALYZE")
        cursor.execute("SELECT count(*) FROM runners_execution")
        assert cursor.fetchone()[0] == CAMPAIGNS * PER_CAMPAIGN
    return {
        "campaign": campaigns[2].pk,
        "campaigns": [c.pk for c in campaigns],
        "finding": findings[0].pk,
        "program": real[0].id,
    }


def _plans(queries: list[dict[str, str]]) -> list[tuple[str, str]]:
    """(sql, EXPLAIN text) of every captured query that reads runners_execution."""
    out = []
    with connection.cursor() as cursor:
        for query in queries:
            sql = query["sql"]
            if "runners_execution" not in sql or not sql.lstrip().upper().startswith("SELECT"):
                continue
            cursor.execute("EXPLAIN " + sql)
            out.append((sql, "\n".join(row[0] for row in cursor.fetchall())))
    return out


def test_the_pages_read_executions_through_indexes(client, big_database) -> None:  # noqa: ANN001
    campaign, finding, program = (
        big_database["campaign"],
        big_database["finding"],
        big_database["program"],
    )
    pages = [
        "/campaigns/",
        f"/campaigns/{campaign}/",
        f"/campaigns/{campaign}/?page=350",
        f"/campaigns/{campaign}/?outcome=crash",
        f"/campaigns/{campaign}/?findings=1",
        f"/findings/{finding}/",
        "/findings/",
        f"/p/{program}",
    ]
    seq_scans = []
    checked = 0
    for page in pages:
        with CaptureQueriesContext(connection) as captured:
            response = client.get(page)
        assert response.status_code == 200, page
        for sql, plan in _plans(captured.captured_queries):
            checked += 1
            print(f"\n--- {page}\n{sql[:300]}\n{plan}")
            if re.search(r"Seq Scan on runners_execution\b", plan) or re.search(
                # A walk of the whole primary key, filtering as it goes, is a seq scan too.
                r"Index Scan (Backward )?using runners_execution_pkey on runners_execution .*\n"
                r"\s*Filter:",
                plan,
            ):
                seq_scans.append(f"{page}: {sql[:200]}…\n{plan}")
    assert checked >= len(pages), "the pages read no executions: the test checks nothing"
    assert not seq_scans, "sequential scans of runners_execution:\n\n" + "\n\n".join(seq_scans)


def test_a_list_page_counts_no_execution(big_database) -> None:  # noqa: ANN001
    """The list's per-verdict counts of campaigns that hold the whole table come from the
    counts kept per target (OutcomeCount), not from the executions: the query reads none
    of them, and its time does not grow with them. Printed with its plan."""
    from runners.campaigns.selectors import campaigns_outcome_counts

    ids = big_database["campaigns"]
    with CaptureQueriesContext(connection) as captured:
        counts = campaigns_outcome_counts(ids)
    assert sum(sum(c.values()) for c in counts.values()) == CAMPAIGNS * PER_CAMPAIGN
    assert counts[ids[0]] == {"crash": PER_CAMPAIGN // 50, "terminated": PER_CAMPAIGN * 49 // 50}
    (query,) = captured.captured_queries
    assert "runners_execution" not in query["sql"]
    with connection.cursor() as cursor:
        cursor.execute("EXPLAIN ANALYZE " + query["sql"])
        plan = "\n".join(row[0] for row in cursor.fetchall())
    print(f"\n{plan}")

"""Page latency with a big campaign: p50/p95 of the campaign, finding and program pages.

    python bench/pages.py [--executions 100000] [--programs 3000] [--findings 40] [--requests 50]

Builds a throw-away file SQLite database (migrated, then bulk-inserted: a done
campaign on two targets with `--executions` executions over `--programs` real
generated programs, ~2 % of them crashes or hangs spread over `--findings`
findings, timestamps spread over a day), then requests every page with
Django's test Client, `--requests` times each after a warm-up, and prints
p50/p95 in ms. Paginated pages are requested at random pages, deep ones
included. Target: p95 < 200 ms. DEBUG is off, as in production.
"""

from __future__ import annotations

import argparse
import os
import random
import secrets
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))


def configure(directory: Path) -> None:
    """Point Django at a fresh SQLite file in `directory` and set it up."""
    os.environ["DJANGO_SETTINGS_MODULE"] = "chanfuzz_site.settings"
    os.environ["DATABASE_URL"] = f"sqlite:///{directory / 'bench.sqlite3'}"
    os.environ["CHANFUZZ_VAR_DIR"] = str(directory / "var")
    os.environ["DJANGO_DEBUG"] = "false"
    os.environ["DJANGO_SECRET_KEY"] = secrets.token_urlsafe(50)
    os.environ["DJANGO_ALLOWED_HOSTS"] = "testserver"
    os.environ["DJANGO_HTTPS"] = "false"  # plain HTTP, or every page is a redirect
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def populate(executions: int, program_count: int, finding_count: int) -> dict[str, object]:
    """The campaign, its programs, executions and findings; returns ids to request."""
    from django.db import connection, transaction
    from django.utils import timezone

    from generator.settings import PRESETS
    from runners.campaigns import services
    from runners.campaigns.models import Campaign, Execution, Finding, Program
    from runners.campaigns.programs import build_generated, render_seed_for

    rng = random.Random(7)
    started = time.perf_counter()
    # Two targets, so per-target aggregation and Table 2 have two columns to fill.
    targets = [("go", None), ("crystal", None)]
    per_target = executions // len(targets)
    campaign = services.create_campaign(
        name="bench", targets=targets, count=per_target, chunk_size=1000, enqueue=False
    )
    start = timezone.now() - timezone.timedelta(days=1)
    Campaign.objects.filter(pk=campaign.pk).update(
        status=Campaign.Status.DONE, started_at=start, finished_at=timezone.now()
    )
    campaign.refresh_from_db()
    built = {}
    seed = 0
    while len(built) < program_count:  # distinct programs (a few seeds give the same one)
        b = build_generated(seed, PRESETS["A"])
        built.setdefault(b.id, b)
        seed += 1
    from generator import effects as effects_mod

    rows = []
    for b in built.values():
        text = effects_mod.to_text(b.effect)
        rows.append(
            Program(
                id=b.id,
                effect_text=text,
                effect_size=len(text),
                lambda_text=b.lambda_text,
                source=b.source,
                seed=b.seed,
                settings=b.settings,
                generator_version=b.version,
                render_seed=render_seed_for(b.id),
            )  # fmt: skip
        )
    # The campaign's creation may have stored some of them already (its first chunk).
    Program.objects.bulk_create(rows, ignore_conflicts=True)
    programs = [p.id for p in rows]
    print(f"{len(programs)} programs generated in {time.perf_counter() - started:.1f} s")

    now = timezone.now()
    findings = Finding.objects.bulk_create(
        Finding(
            signature=f"bench|{'crash' if i % 3 else 'timeout'}|signature {i}",
            outcome="crash" if i % 3 else "timeout",
            language=targets[i % 2][0],
            title=f"bench finding {i}: panic in select" if i % 3 else f"bench hang {i}",
            first_seen=start,
            last_seen=now,
            example_id=programs[i],
        )
        for i in range(finding_count)
    )
    target_rows = list(campaign.targets.all())
    batch: list[Execution] = []
    with transaction.atomic():
        for t_i, target in enumerate(target_rows):
            for index in range(per_target):
                program = programs[(index * 7 + t_i) % len(programs)]
                finding = None
                if rng.random() < 0.02:
                    # Skewed: a few findings get most hits, as in a real campaign.
                    finding = findings[min(int(rng.expovariate(0.15)), len(findings) - 1)]
                batch.append(
                    Execution(
                        target=target,
                        campaign=campaign,
                        program_id=program,
                        index=index,
                        outcome=finding.outcome if finding else "terminated",
                        reason=finding.title if finding else "exit 0",
                        signature=finding.signature if finding else "",
                        exit_code=2 if finding is not None and finding.outcome == "crash" else 0,
                        duration_s=rng.uniform(0.01, 0.5),
                        stderr="goroutine 1 [select]:\n" * 20 if finding else "",
                        finding=finding,
                    )  # fmt: skip
                )
                if len(batch) >= 5000:
                    Execution.objects.bulk_create(batch)
                    batch.clear()
        Execution.objects.bulk_create(batch)
        # Spread the executions over the day the campaign ran (bulk_create stamps "now").
        span = 86_000 / per_target
        with connection.cursor() as cursor:
            cursor.execute(
                "UPDATE runners_execution SET created_at = "
                "strftime('%%Y-%%m-%%d %%H:%%M:%%f', %s, '+' || (\"index\" * %s) || ' seconds')",
                [start.strftime("%Y-%m-%d %H:%M:%S"), span],
            )
        for f in findings:
            hits = Execution.objects.filter(finding=f)
            Finding.objects.filter(pk=f.pk).update(
                execution_count=hits.count(),
                program_count=hits.values("program_id").distinct().count(),
            )
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    print(
        f"{Execution.objects.count()} executions, {len(findings)} findings "
        f"in {time.perf_counter() - started:.1f} s"
    )
    top = Finding.objects.order_by("-execution_count").first()
    return {"campaign": campaign.pk, "finding": top.pk, "program": top.example_id}


def existing() -> dict[str, object]:
    """The ids to request in a database kept from an earlier run (--keep)."""
    from runners.campaigns.models import Campaign, Finding

    top = Finding.objects.order_by("-execution_count").first()
    campaign = Campaign.objects.get(name="bench")
    return {"campaign": campaign.pk, "finding": top.pk, "program": top.example_id}


def measure(client, label: str, urls: list[str], requests: int) -> tuple[float, float]:  # noqa: ANN001
    for url in urls[:3]:  # warm-up: connections, template loading, SQLite page cache
        client.get(url)
    times = []
    for i in range(requests):
        url = urls[i % len(urls)]
        t0 = time.perf_counter()
        response = client.get(url)
        times.append((time.perf_counter() - t0) * 1000)
        assert response.status_code == 200, (url, response.status_code)
    times.sort()
    p50 = statistics.median(times)
    p95 = times[min(len(times) - 1, round(0.95 * len(times)) - 1)]
    print(f"{label:34} p50 {p50:7.1f} ms   p95 {p95:7.1f} ms   ({len(times)} requests)")
    return p50, p95


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--executions", type=int, default=100_000)
    parser.add_argument("--programs", type=int, default=3000)
    parser.add_argument("--findings", type=int, default=40)
    parser.add_argument("--requests", type=int, default=50)
    parser.add_argument(
        "--keep", type=Path, help="build the database in this directory and reuse it next time"
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="chanfuzz-bench-pages-") as tmp:
        directory = args.keep or Path(tmp)
        directory.mkdir(parents=True, exist_ok=True)
        fresh = not (directory / "bench.sqlite3").exists()
        configure(directory)
        ids = populate(args.executions, args.programs, args.findings) if fresh else existing()
        from django.test import Client

        client = Client()
        c, f, p = ids["campaign"], ids["finding"], ids["program"]
        rng = random.Random(1)
        exec_pages = [rng.randint(1, args.executions // 50) for _ in range(args.requests)]
        finding_pages = [rng.randint(1, 20) for _ in range(args.requests)]
        pages = {
            "campaign list": ["/campaigns/"],
            "campaign detail (page 1)": [f"/campaigns/{c}/"],
            "campaign detail (random page)": [f"/campaigns/{c}/?page={n}" for n in exec_pages],
            "campaign detail (crashes)": [f"/campaigns/{c}/?outcome=crash"],
            "campaign progress partial": [f"/campaigns/{c}/live"],
            "findings list": ["/findings/"],
            "finding detail (top finding)": [f"/findings/{f}/?page={n}" for n in finding_pages],
            "program page (its example)": [f"/p/{p}"],
            "program raw .go": [f"/p/{p}.go"],
            "program bundle .zip": [f"/p/{p}.zip"],
        }
        worst = 0.0
        for label, urls in pages.items():
            _, p95 = measure(client, label, urls, args.requests)
            worst = max(worst, p95)
        print(f"worst p95 {worst:.1f} ms (target < 200 ms): {'ok' if worst < 200 else 'SLOW'}")


if __name__ == "__main__":
    main()

"""Load test: 50 users against gunicorn + PostgreSQL holding 1,000,000 executions (issue #20).

    .venv/bin/pip install -e '.[bench]'     # locust
    .venv/bin/python bench/load.py [--executions 1000000] [--users 50] [--run-time 60]
                                   [--max-requests 20000] [--gunicorn-workers 5]

1. A PostgreSQL database `chanfuzz_load` in scripts/start_postgres.sh's server, migrated and
   filled once (kept for the next run; `--refill` starts it over): 10 campaigns of
   `--executions`/10 executions each over 2,000 real generated programs, 2 % of them crashes
   or hangs spread over 40 findings, timestamps over a day; then VACUUM ANALYZE (as
   autovacuum would have done on a live site).
2. gunicorn on a free loopback port (debug off, production settings), with the playground's
   per-IP rate limit raised: 50 users share one address here.
3. locust, headless (bench/locustfile.py): the campaign list, a campaign's page (first, a
   random deep page, a verdict filter), a finding, a permalink, the playground's generate
   and verify, each user waiting 0.5–1.5 s between requests; bounded by `--run-time`
   seconds and `--max-requests` requests.
4. p50 / p95 / p99 and errors per page, and in all. Aim: p95 < 200 ms, no errors.

Not a timed test: the figures depend on the machine (load generator and server share it
here). Results are printed, and kept under var/bench/load/ (locust's CSV files).
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import secrets
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from runners.engine.redis_server import free_port  # noqa: E402

TARGET_P95_MS = 200.0
DB_NAME = "chanfuzz_load"


def start_database() -> str:
    result = subprocess.run(
        ["bash", "scripts/start_postgres.sh"],
        cwd=REPO,
        env={**os.environ, "CHANFUZZ_PG_DB": DB_NAME},
        capture_output=True,
        text=True,
        check=True,
    )
    return result.stdout.strip().removeprefix("export DATABASE_URL=")


def environment(database_url: str, var_dir: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "CHANFUZZ_"))}
    env.update(
        DATABASE_URL=database_url,
        CHANFUZZ_VAR_DIR=str(var_dir),
        CHANFUZZ_LOAD_DOCUMENTED="0",
        DJANGO_SECRET_KEY=secrets.token_urlsafe(50),
        DJANGO_ALLOWED_HOSTS="127.0.0.1,localhost",
        DJANGO_HTTPS="false",
        CHANFUZZ_RATELIMIT_PLAYGROUND="1000000/m",
        DJANGO_SETTINGS_MODULE="chanfuzz_site.settings",
        # No Redis needed: the pages read the database; rate limits fail open without it.
        REDIS_URL=f"redis://127.0.0.1:{free_port()}/0",
    )
    return env


FILL = r"""
import json, sys, time
import django
django.setup()
from django.core.management import call_command
from django.db import connection
from django.utils import timezone
from generator.settings import PRESETS
from runners.campaigns import programs
from runners.campaigns.models import Campaign, CampaignTarget, Finding, OutcomeCount, Program

executions, refill = int(sys.argv[1]), sys.argv[2] == "1"
call_command("migrate", verbosity=0)
if refill:
    with connection.cursor() as c:
        c.execute("TRUNCATE runners_execution, runners_chunk, runners_campaigntarget, "
                  "runners_campaign, runners_finding, runners_program CASCADE")
if not Campaign.objects.filter(name__startswith="load ").exists():
    t0 = time.perf_counter()
    built, seed = {}, 0
    while len(built) < 2000:
        b = programs.build_generated(seed, PRESETS["A"])
        built.setdefault(b.id, b)
        seed += 1
    stored = [programs.store_program(b) for b in built.values()]
    now = timezone.now()
    findings = [Finding.objects.create(
        signature=f"load|{'crash' if i % 3 else 'timeout'}|{i}",
        outcome="crash" if i % 3 else "timeout", language="go",
        title=f"load finding {i}", first_seen=now, last_seen=now, example=stored[i])
        for i in range(40)]
    per = executions // 10
    for n in range(10):
        campaign = Campaign.objects.create(
            name=f"load {n}", heuristic="A", settings={}, seed=n * per, program_count=per,
            timeout_s=10.0, repetitions=10, chunk_size=1000, generator_version="load",
            status=Campaign.Status.DONE, started_at=now, finished_at=now)
        target = CampaignTarget.objects.create(campaign=campaign, language="go",
                                               toolchain_id="go-load")
        with connection.cursor() as c:
            c.execute('''
              INSERT INTO runners_execution (index, outcome, reason, signature, exit_code,
                duration_s, stdout, stderr, dump, attempts, compile_output, created_at,
                campaign_id, target_id, finding_id, program_id)
              SELECT i, CASE WHEN i %% 50 = 0 THEN f.outcome ELSE 'terminated' END,
                CASE WHEN i %% 50 = 0 THEN f.title ELSE 'exit 0' END,
                CASE WHEN i %% 50 = 0 THEN f.signature ELSE '' END, 0, 0.1, '',
                CASE WHEN i %% 50 = 0 THEN repeat('goroutine 1 [select]:' || chr(10), 20)
                     ELSE '' END, '', '[]', '',
                now() - make_interval(secs => (%s - i) * 86400.0 / %s),
                %s, %s, CASE WHEN i %% 50 = 0 THEN f.id END, (%s::text[])[1 + i %% 2000]
              FROM generate_series(0, %s - 1) AS i
              JOIN runners_finding f ON f.id = (%s::bigint[])[1 + (i / 50 * 7) %% 40]
            ''', [per, per, campaign.pk, target.pk, [p.id for p in stored], per,
                  [f.pk for f in findings]])
        OutcomeCount.recount([target.pk])  # SQL inserts skip Execution.save's counting
    for f in findings:
        rows = f.executions.all()
        Finding.objects.filter(pk=f.pk).update(
            execution_count=rows.count(),
            program_count=rows.values("program_id").distinct().count())
    print(f"filled in {time.perf_counter() - t0:.0f} s", file=sys.stderr)
with connection.cursor() as c:
    c.execute("VACUUM ANALYZE")
    c.execute("SELECT count(*) FROM runners_execution")
    total = c.fetchone()[0]
print(json.dumps({
    "executions": total,
    "campaigns": list(
        Campaign.objects.filter(name__startswith="load ").values_list("pk", flat=True)),
    "findings": list(
        Finding.objects.filter(signature__startswith="load|").values_list("pk", flat=True)),
    "programs": list(Program.objects.order_by("id").values_list("pk", flat=True)[:200]),
}))
"""


def fill(env: dict[str, str], executions: int, refill: bool) -> dict:
    started = time.perf_counter()
    out = subprocess.run(
        [sys.executable, "-c", FILL, str(executions), "1" if refill else "0"],
        cwd=REPO, env=env, capture_output=True, text=True,
    )  # fmt: skip
    if out.returncode != 0:
        raise SystemExit(out.stderr[-4000:])
    sys.stderr.write(out.stderr)
    ids = json.loads(out.stdout.strip().splitlines()[-1])
    print(f"database: {ids['executions']:,} executions, {len(ids['campaigns'])} campaigns, "
          f"{len(ids['findings'])} findings ({time.perf_counter() - started:.0f} s)")  # fmt: skip
    return ids


def serve(env: dict[str, str], port: int, workers: int, log: Path) -> subprocess.Popen[bytes]:
    # The site logs every request (runners/logs.py): to a file, since a pipe nobody reads
    # would fill and stall the workers.
    log.parent.mkdir(parents=True, exist_ok=True)
    with log.open("wb") as out:
        server = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "chanfuzz_site.wsgi:application",
             "--bind", f"127.0.0.1:{port}", "--workers", str(workers), "--timeout", "120"],
            cwd=REPO, env=env, stdout=subprocess.DEVNULL, stderr=out,
        )  # fmt: skip
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/about/", timeout=2).read()
            return server
        except OSError:
            if server.poll() is not None:
                raise SystemExit(log.read_text(errors="replace")[-3000:]) from None
            time.sleep(0.3)
    raise SystemExit("gunicorn did not answer")


def run_locust(args: argparse.Namespace, port: int, ids: dict, out_dir: Path) -> Path:
    out_dir.mkdir(parents=True, exist_ok=True)
    prefix = out_dir / "load"
    env = {**os.environ, "BENCH_LOAD_IDS": json.dumps(ids),
           "BENCH_LOAD_MAX_REQUESTS": str(args.max_requests)}  # fmt: skip
    subprocess.run(
        [sys.executable, "-m", "locust", "-f", str(REPO / "bench" / "locustfile.py"),
         "--headless", "--users", str(args.users), "--spawn-rate", str(args.spawn_rate),
         "--run-time", f"{args.run_time}s", "--host", f"http://127.0.0.1:{port}",
         "--csv", str(prefix), "--only-summary", "--loglevel", "WARNING",
         "--exit-code-on-error", "0"],
        cwd=REPO, env=env, check=True,
    )  # fmt: skip
    return Path(f"{prefix}_stats.csv")


def report(stats: Path) -> bool:
    rows = list(csv.DictReader(stats.open()))
    print(f"\n{'page':24} {'requests':>9} {'errors':>7} {'p50 ms':>7} {'p95 ms':>7} "
          f"{'p99 ms':>7} {'max ms':>7}")  # fmt: skip
    ok = True
    for row in rows:
        name = row["Name"] if row["Type"] else "all"
        p95 = float(row["95%"] or 0)
        errors = int(row["Failure Count"])
        longest = float(row["Max Response Time"])
        print(f"{name:24} {int(row['Request Count']):9,} {errors:7} {row['50%']:>7} "
              f"{row['95%']:>7} {row['99%']:>7} {longest:7.0f}")  # fmt: skip
        if name == "all":
            ok = p95 < TARGET_P95_MS and errors == 0
    print(f"\naim: p95 < {TARGET_P95_MS:.0f} ms and no errors: {'met' if ok else 'NOT met'}")
    return ok


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--executions", type=int, default=1_000_000)
    parser.add_argument("--users", type=int, default=50)
    parser.add_argument("--spawn-rate", type=float, default=10)
    parser.add_argument("--run-time", type=int, default=60, help="seconds")
    parser.add_argument("--max-requests", type=int, default=20_000)
    parser.add_argument("--gunicorn-workers", type=int, default=5)
    parser.add_argument("--refill", action="store_true", help="empty and fill the database again")
    args = parser.parse_args()

    out_dir = REPO / "var" / "bench" / "load"
    env = environment(start_database(), out_dir / "var")
    ids = fill(env, args.executions, args.refill)
    port = free_port()
    server = serve(env, port, args.gunicorn_workers, out_dir / "gunicorn.log")
    try:
        print(
            f"gunicorn ({args.gunicorn_workers} workers) on 127.0.0.1:{port}; "
            f"{args.users} users for {args.run_time} s or {args.max_requests:,} requests"
        )
        stats = run_locust(args, port, ids, out_dir)
    finally:
        server.terminate()
        server.wait(timeout=30)
    report(stats)


if __name__ == "__main__":
    main()

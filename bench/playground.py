"""Benchmark: how fast the playground answers a generation request, end to end over HTTP.

Starts `manage.py runserver` against a throwaway SQLite database (or measures
a server given with --url) and times GET /playground/program/ — generate,
check, render every target of the registry, highlight — for N different seeds at the default
size (preset A). Prints p50/p95/max in milliseconds; the target is p95 < 150 ms.

    .venv/bin/python bench/playground.py [--requests 300] [--url http://127.0.0.1:8000]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from urllib.parse import urlencode

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from runners.engine.redis_server import free_port  # noqa: E402

TARGET_P95_MS = 150.0


def wait_for(url: str, process: subprocess.Popen, log: Path, timeout_s: float = 60) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"server exited early: {log.read_text(errors='replace')}")
        try:
            with urllib.request.urlopen(url, timeout=2):
                return
        except OSError:
            time.sleep(0.2)
    raise SystemExit(f"{url} did not answer within {timeout_s} s")


def measure(base: str, requests: int, first_seed: int) -> list[float]:
    # Warm up: imports, Pygments lexers, the toolchain list.
    for seed in range(3):
        urllib.request.urlopen(f"{base}/playground/program/?seed={seed}").read()
    times = []
    for i in range(requests):
        query = urlencode({"mode": "generate", "preset": "A", "seed": first_seed + i})
        start = time.perf_counter()
        with urllib.request.urlopen(f"{base}/playground/program/?{query}") as response:
            response.read()
            assert response.status == 200
        times.append((time.perf_counter() - start) * 1000)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", help="a running server; default: start one")
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1000, help="first seed (then +1 per request)")
    args = parser.parse_args()
    server = None
    tmp = tempfile.TemporaryDirectory(prefix="chanfuzz-bench-")
    try:
        if args.url:
            base = args.url.rstrip("/")
        else:
            port = free_port()
            env = {
                k: v
                for k, v in os.environ.items()
                if not k.startswith(("DJANGO_", "CHANFUZZ_")) and k != "DATABASE_URL"
            }
            env.update(
                DATABASE_URL=f"sqlite:///{tmp.name}/db.sqlite3",
                CHANFUZZ_VAR_DIR=f"{tmp.name}/var",
                CHANFUZZ_TOOLCHAINS_DIR=str(REPO / "var" / "toolchains"),
            )
            manage = [sys.executable, "manage.py"]
            subprocess.run(
                [*manage, "migrate", "--noinput"],
                cwd=REPO,
                env=env,
                check=True,
                capture_output=True,
            )
            # A file, not a pipe: the server logs each request, and an unread pipe
            # fills and stalls it.
            server_log = Path(tmp.name) / "runserver.log"
            with server_log.open("w") as log_file:
                server = subprocess.Popen(
                    [*manage, "runserver", "--noreload", f"127.0.0.1:{port}"],
                    cwd=REPO,
                    env=env,
                    stdout=log_file,
                    stderr=subprocess.STDOUT,
                )
            base = f"http://127.0.0.1:{port}"
            wait_for(base + "/", server, server_log)
        times = measure(base, args.requests, args.seed)
    finally:
        if server is not None:
            server.terminate()
            server.wait(timeout=20)
        tmp.cleanup()
    times.sort()
    p50 = statistics.median(times)
    p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
    verdict = "OK" if p95 < TARGET_P95_MS else "SLOW"
    print(
        f"{len(times)} generation requests at default size (preset A, seeds {args.seed}…): "
        f"p50 {p50:.1f} ms, p95 {p95:.1f} ms, max {times[-1]:.1f} ms "
        f"[{verdict}: target p95 < {TARGET_P95_MS:.0f} ms]"
    )


if __name__ == "__main__":
    main()

"""`manage.py worker_services`: Redis (if needed), RQ workers and the web server, together.

What scripts/run.sh runs after setup, on the embedded defaults: when REDIS_URL
does not answer it starts a private redis-server on 127.0.0.1 (6379 if free,
else another free port; data in <var>/redis/), then `--workers` RQ workers,
then `runserver`, and (with `--demo`) creates a small campaign so there is
something to watch. Children get REDIS_URL of the Redis in use. On exit
(Ctrl-C, SIGTERM, or a child dying) it stops every process it started, and
only those.
"""

from __future__ import annotations

import signal
import subprocess
import time
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from chanfuzz_site.database import require_migrated
from runners.campaigns.local_workers import (
    LocalServices,
    local_workers,
    manage_command,
    stop_children,
)
from runners.engine.redis_server import RedisUnavailable


class Command(BaseCommand):
    help = "Start Redis (unless REDIS_URL answers), RQ workers and the dev server; stop on exit."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--workers", type=int, default=1)
        parser.add_argument("--addr", default="127.0.0.1:8000", help="runserver address")
        parser.add_argument("--no-web", action="store_true", help="workers only")
        parser.add_argument(
            "--demo", type=int, default=0, metavar="N",
            help="create a campaign of N Go programs once everything runs",
        )  # fmt: skip

    def handle(self, *args: Any, **options: Any) -> None:
        if not 0 <= options["workers"] <= 64:
            raise CommandError("--workers must be from 0 to 64", returncode=2)
        require_migrated()

        def stop(signum: int, _frame: object) -> None:
            raise KeyboardInterrupt

        signal.signal(signal.SIGTERM, stop)
        # Started in the background by a script (scripts/start_services.sh), this process
        # inherits SIGINT ignored, while the RQ workers it starts handle it: a Ctrl-C to the
        # group then stopped a worker at once, and until the script's SIGTERM came, the
        # loop below took that for a worker dying (CI s184: exit 1 after Ctrl-C).
        signal.signal(signal.SIGINT, stop)
        try:
            with local_workers(options["workers"]) as services:
                self._run(services, options)
        except RedisUnavailable as exc:
            raise CommandError(
                f"{settings.REDIS_URL} does not answer and {exc}", returncode=2
            ) from exc
        except KeyboardInterrupt:
            self.stdout.write("stopping")

    def _run(self, services: LocalServices, options: dict[str, Any]) -> None:
        if services.redis is None:
            self.stdout.write(f"redis      {services.url} (already running)")
        else:
            pid = services.redis.process.pid
            self.stdout.write(f"redis      {services.url} (started, pid {pid})")
        self.stdout.write(f"workers    {options['workers']} × rqworker default")
        children = list(services.workers)
        try:
            if not options["no_web"]:
                children.append(
                    subprocess.Popen(
                        manage_command("runserver", "--noreload", options["addr"]),
                        env=services.env,
                    )
                )
                self.stdout.write(f"web        http://{options['addr']}/  (queues: /django-rq/)")
            if options["demo"]:
                subprocess.run(
                    manage_command(
                        "campaign", "create", "--target", "go", "--count", str(options["demo"]),
                        "--name", "demo", "--timeout", "10",
                    ),
                    env=services.env, check=False,
                )  # fmt: skip
            self.stdout.write("running; Ctrl-C stops everything")
            # The workers requeue chunks whose worker died (runners.campaigns.worker).
            while all(child.poll() is None for child in children):
                time.sleep(0.5)
            dead = next(c for c in children if c.poll() is not None)
            raise CommandError(
                f"{' '.join(map(str, dead.args[1:3]))} exited with {dead.returncode}"
            )
        finally:
            # The workers are stopped by local_workers; the web server here.
            stop_children(children[len(services.workers) :], wait_s=20)

"""The RQ worker class chanfuzz's workers run (``settings.RQ["WORKER_CLASS"]``).

rq's own worker, plus one duty: giving the chunks of dead workers back to the
queue (``runners.campaigns.chunks.requeue_stale_chunks``). Without it a chunk whose
worker was killed stays "running" until someone runs ``campaign requeue``;
with it every ``manage.py rqworker`` does that itself, between jobs and while
idle, so a deployment of plain workers loses nothing.

rq runs its registry clean-up from the same hook (``run_maintenance_tasks``);
here it runs every ``CHANFUZZ_SWEEP_EVERY_S`` (30 s) instead of every 10 minutes, and an idle
worker wakes from its blocking dequeue that often to do it. A Redis lock lets
one worker of many sweep per period.
"""

from __future__ import annotations

from typing import Any

from django.db import connections
from rq import Worker

from runners import config
from runners.logs import fields

SWEEP_LOCK_KEY = "chanfuzz:requeue-stale-chunks"


class ChanfuzzWorker(Worker):
    """rq's forking worker that also requeues stale chunks every ``maintenance_interval``."""

    def __init__(self, *args: Any, maintenance_interval: int | None = None, **kwargs: Any):
        if maintenance_interval is None:
            maintenance_interval = config.sweep_every_s()
        super().__init__(*args, maintenance_interval=maintenance_interval, **kwargs)

    @property
    def dequeue_timeout(self) -> int:
        # rq blocks ~7 minutes on an empty queue; wake in time for the next sweep.
        return max(1, min(super().dequeue_timeout, int(self.maintenance_interval)))

    def run_maintenance_tasks(self) -> None:
        super().run_maintenance_tasks()
        self.requeue_stale_chunks()

    def requeue_stale_chunks(self) -> list[Any]:
        """Requeue (or give up) the chunks no worker runs; [] when another worker
        swept within the period or the database could not be reached."""
        from runners.campaigns.chunks import requeue_stale_chunks

        lock_s = max(1, int(self.maintenance_interval) - 1)
        if not self.connection.set(SWEEP_LOCK_KEY, self.name, nx=True, ex=lock_s):
            return []
        try:
            chunks = requeue_stale_chunks()
        except Exception:
            # A database that is down now may be back at the next sweep; the
            # worker itself must keep running the jobs it can.
            self.log.exception(
                "Worker %s: requeueing stale chunks failed", self.name,
                extra=fields("requeue_failed", worker=self.name),
            )  # fmt: skip
            return []
        finally:
            # The next job runs in a forked child, which must not share this
            # process's database connection.
            connections.close_all()
        if chunks:
            self.log.info(
                "Worker %s: requeued %d stale chunk(s)", self.name, len(chunks),
                extra=fields(
                    "chunks_requeued", worker=self.name,
                    chunks=[c.pk for c in chunks], states=[c.state for c in chunks],
                ),
            )  # fmt: skip
        return chunks

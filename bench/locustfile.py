"""The users of bench/load.py (locust): they browse campaigns, findings and permalinks (and
another code tab of a program now and then) and use the playground's generate and verify.
bench/load.py passes the ids to request in BENCH_LOAD_IDS (JSON) and the request cap in
BENCH_LOAD_MAX_REQUESTS."""

from __future__ import annotations

import json
import os
import random
from itertools import count

from locust import HttpUser, between, events, task

IDS = json.loads(os.environ.get("BENCH_LOAD_IDS", "{}"))
MAX_REQUESTS = int(os.environ.get("BENCH_LOAD_MAX_REQUESTS", "0"))
EFFECTS = [
    "Spawn(Put(c1)) ; Get(c1)",
    "Spawn(Get(c1) ; Put(c2)) ; Put(c1) ; Get(c2)",
    "Spawn(SelPut(c1, eps) (+) SelPut(c1, eps)) ; SelGet(c1, eps) (+) SelGet(c1, eps)",
]
_sent = count(1)


@events.request.add_listener
def _cap(**_: object) -> None:
    """Stop every user once MAX_REQUESTS requests were made (the run is bounded twice:
    by locust's --run-time and by this count)."""
    if MAX_REQUESTS and next(_sent) >= MAX_REQUESTS:
        from locust.runners import Runner

        runner: Runner | None = getattr(_cap, "runner", None)
        if runner is not None:
            runner.quit()


@events.init.add_listener
def _keep_runner(environment, **_: object) -> None:  # noqa: ANN001
    _cap.runner = environment.runner  # type: ignore[attr-defined]


class Visitor(HttpUser):
    wait_time = between(0.5, 1.5)

    @task(3)
    def campaign_list(self) -> None:
        self.client.get("/campaigns/", name="campaign list")

    @task(3)
    def campaign_page(self) -> None:
        campaign = random.choice(IDS["campaigns"])
        page = random.choice(["", "?page=2", f"?page={random.randint(1, 2000)}",
                              "?outcome=crash"])  # fmt: skip
        self.client.get(f"/campaigns/{campaign}/{page}", name="campaign page")

    @task(2)
    def finding(self) -> None:
        self.client.get(f"/findings/{random.choice(IDS['findings'])}/", name="finding")

    @task(2)
    def permalink(self) -> None:
        self.client.get(f"/p/{random.choice(IDS['programs'])}", name="permalink")

    @task(1)
    def code_tab(self) -> None:
        # A program page highlights its first tab; another tab's code comes when it is
        # first shown (a visitor reading the Kotlin version, say).
        program = random.choice(IDS["programs"])
        self.client.get(f"/p/{program}/code.{random.choice(['kt', 'cr', 'flume.rs'])}",
                        name="code tab")  # fmt: skip

    @task(2)
    def generate(self) -> None:
        seed = random.randint(0, 10**9)
        self.client.get(f"/playground/program/?mode=generate&preset=A&seed={seed}",
                        name="playground generate")  # fmt: skip

    @task(1)
    def verify(self) -> None:
        self.client.get("/playground/program/", params={"mode": "effect",
                        "effect": random.choice(EFFECTS)}, name="playground verify")  # fmt: skip

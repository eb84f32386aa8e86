"""`manage.py campaign create|list|show|cancel|pause|resume|delete|requeue`: campaigns from the
terminal.

A thin CLI over runners.campaigns.services (writes) and runners.campaigns.selectors (reads);
`requeue` runs runners.campaigns.chunks.requeue_stale_chunks.
`create` enqueues the chunks; workers (`manage.py rqworker default`) run them.
`show ID --json` prints progress and findings as JSON (scripts, tests).
`create --buffered` generates beyond the paper (buffered channels, close and range)
as far as every target can write them, and says what they cannot.
Exit 2 on bad arguments or an unknown campaign.
"""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from chanfuzz_site.beyond_paper import missing_note
from chanfuzz_site.database import require_migrated
from generator.settings import PRESETS
from runners.campaigns import chunk_sizing, chunks, selectors, services
from runners.campaigns.models import Campaign
from runners.campaigns.programs import effect_terminates
from runners.engine.sandbox import BACKENDS


def _target(text: str) -> tuple[str, str | None]:
    language, _, version = text.partition(":")
    return language, version or None


def _overrides(pairs: list[str]) -> dict[str, int]:
    out = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not value.strip().lstrip("-").isdigit():
            raise CommandError(f"{pair!r}: expected NAME=INTEGER", returncode=2)
        out[name.strip()] = int(value)
    return out


def progress_json(campaign: Campaign) -> dict[str, Any]:
    progress = selectors.campaign_progress(campaign)
    return {
        "id": campaign.pk,
        "name": campaign.name,
        "status": campaign.status,
        "heuristic": campaign.heuristic,
        "done": progress.done,
        "total": progress.total,
        "per_minute": round(progress.per_minute, 1),
        "targets": [
            {
                "toolchain": t.target.toolchain_id,
                "done": t.done,
                "total": t.total,
                "outcomes": t.counts,
                "chunks": t.chunks,
            }
            for t in progress.targets
        ],
        "findings": [
            {
                "id": f.pk,
                "outcome": f.outcome,
                "signature": f.signature,
                "title": f.title,
                "in_campaign": f.in_campaign,
                "programs": f.program_count,
                "example": f.example_id,
            }
            for f in selectors.campaign_findings(campaign)
        ],
    }


class Command(BaseCommand):
    help = "Create, list, show, cancel, pause, resume, delete campaigns; requeue stale chunks."

    def add_arguments(self, parser: CommandParser) -> None:
        sub = parser.add_subparsers(dest="action", required=True)
        create = sub.add_parser("create", help="create a campaign and enqueue its chunks")
        create.add_argument(
            "--target", action="append", required=True, type=_target,
            help="LANG or LANG:VERSION (repeat for several targets)",
        )  # fmt: skip
        create.add_argument("--count", type=int, help="number of generated programs")
        create.add_argument(
            "--effect", action="append", default=[],
            help="run this effect instead of generated programs (repeatable)",
        )  # fmt: skip
        create.add_argument("--name", default="")
        create.add_argument("--heuristic", type=str.upper, choices=sorted(PRESETS), default="A")
        create.add_argument("--weight", action="append", default=[], help="RULE=WEIGHT")
        create.add_argument("--size", action="append", default=[], help="NAME=VALUE")
        create.add_argument("--timeout", type=float, default=10.0, help="seconds per run")
        create.add_argument("--repetitions", type=int, default=10)
        create.add_argument("--seed", type=int, default=0)
        create.add_argument(
            "--chunk-size", type=int, default=chunk_sizing.AUTO,
            help="programs per chunk job (default 0: sized from what earlier chunks cost)",
        )  # fmt: skip
        create.add_argument("--retries", type=int, default=2, help="re-runs of a timeout")
        create.add_argument(
            "--runs", type=int, default=1,
            help="runs of each program, a process each, while it ends clean (default 1)",
        )  # fmt: skip
        create.add_argument(
            "--hang-quiet", type=float, metavar="SECONDS",
            help="a run blocked (no CPU, no thread running) this long is hung then",
        )  # fmt: skip
        create.add_argument(
            "--no-values", action="store_true",
            help="programs do not check the values their messages carry (the value oracle)",
        )  # fmt: skip
        create.add_argument(
            "--pct-depth", type=int, metavar="D",
            help="schedule perturbation: programs yield before D-1 communication steps",
        )  # fmt: skip
        create.add_argument(
            "--buffered", action="store_true",
            help="beyond the paper: buffered channels, close and range where every target "
            "has them (generated programs only)",
        )  # fmt: skip
        create.add_argument("--sandbox", default="", choices=BACKENDS,
                            help="default: $CHANFUZZ_SANDBOX, else local")  # fmt: skip
        sub.add_parser("list", help="list campaigns")
        for action in ("show", "cancel", "pause", "resume", "delete"):
            p = sub.add_parser(action)
            p.add_argument("id", type=int)
            if action == "show":
                p.add_argument("--json", action="store_true")
        requeue = sub.add_parser("requeue", help="enqueue again chunks no worker is running")
        requeue.add_argument(
            "--older-than", type=float, default=None,
            help="seconds since the last heartbeat (default: six heartbeats, "
            f"{chunks.STALE_AFTER_BEATS} × $CHANFUZZ_HEARTBEAT_S)",
        )  # fmt: skip

    def handle(self, *args: Any, **options: Any) -> None:
        require_migrated()
        action = options["action"]
        try:
            if action == "create":
                return self._create(options)
            if action == "list":
                return self._list()
            if action == "requeue":
                return self._requeue(options["older_than"])
            campaign = selectors.get_campaign(options["id"])
        except Campaign.DoesNotExist:
            raise CommandError(f"no campaign {options.get('id')}", returncode=2) from None
        except ValueError as exc:
            raise CommandError(str(exc), returncode=2) from exc
        except services.QueueUnavailable as exc:
            raise CommandError(str(exc), returncode=1) from exc
        if action == "show":
            data = progress_json(campaign)
            if options["json"]:
                self.stdout.write(json.dumps(data, indent=2))
            else:
                self._show(data)
            return None
        if action == "delete":
            try:
                services.delete_campaign(campaign=campaign)
            except ValueError as exc:
                raise CommandError(str(exc), returncode=2) from exc
            self.stdout.write(f"campaign {campaign.pk}: deleted (its programs and findings stay)")
            return None
        change = {
            "cancel": services.cancel_campaign,
            "pause": services.pause_campaign,
            "resume": services.resume_campaign,
        }[action]
        before = campaign.status
        try:
            campaign = change(campaign=campaign)
        except services.QueueUnavailable as exc:
            raise CommandError(str(exc), returncode=1) from exc
        if action != "resume" and before in (Campaign.Status.DONE, Campaign.Status.CANCELLED):
            # An ended campaign stays as it ended: say so, not "done" as if it had obeyed.
            self.stdout.write(f"campaign {campaign.pk} is already {before}: nothing to {action}")
            return None
        self.stdout.write(f"campaign {campaign.pk}: {campaign.status}")
        return None

    def _requeue(self, older_than_s: float | None) -> None:
        from redis.exceptions import RedisError

        if older_than_s is not None and not older_than_s >= 0:
            raise CommandError("--older-than must be 0 seconds or more", returncode=2)
        try:
            requeued = chunks.requeue_stale_chunks(older_than_s=older_than_s)
        except RedisError as exc:
            raise CommandError(
                f"the queue is unavailable ({exc}): start Redis and requeue again", returncode=1
            ) from exc
        self.stdout.write(f"requeued {len(requeued)} chunk(s)")

    def _create(self, options: dict[str, Any]) -> None:
        common = {
            "name": options["name"],
            "targets": options["target"],
            "timeout_s": options["timeout"],
            "repetitions": options["repetitions"],
            "seed": options["seed"],
            "chunk_size": options["chunk_size"],
            "triage_retries": options["retries"],
            "runs": options["runs"],
            "hang_quiet_s": options["hang_quiet"],
            "value_oracle": not options["no_values"],
            "pct_depth": options["pct_depth"],
            "sandbox": options["sandbox"],
        }
        if options["effect"]:
            if options["buffered"]:
                # A given effect says its own capacities and closes: nothing to widen.
                raise CommandError(
                    "--buffered applies to generated programs; an --effect declares its own "
                    "channels (Chan(c, k), Close(c), Range(c, …))",
                    returncode=2,
                )
            campaign = services.campaign_from_programs(effects=options["effect"], **common)
            for i, text in enumerate(options["effect"], 1):
                proved = effect_terminates(text)
                if proved is not True:
                    why = "can deadlock" if proved is False else "was not proved terminating"
                    self.stderr.write(
                        f"note: effect {i} {why} (chanfuzz's checker): its hangs may be "
                        "its own, not the runtime's (`verify` shows how)"
                    )
        else:
            if options["count"] is None:
                raise CommandError("--count (or --effect) is required", returncode=2)
            if not 1 <= options["count"] <= services.MAX_COUNT:
                raise CommandError(f"--count must be from 1 to {services.MAX_COUNT}", returncode=2)
            campaign = services.create_campaign(
                heuristic=options["heuristic"],
                weights=_overrides(options["weight"]) or None,
                sizes=_overrides(options["size"]) or None,
                count=options["count"],
                buffered=options["buffered"],
                **common,
            )
        self.stdout.write(f"campaign {campaign.pk} created: {campaign.name}")
        if options["buffered"]:
            languages = [t.language for t in campaign.targets.order_by("pk")]
            note = missing_note(campaign.generation_capabilities(), languages)
            if note:
                self.stdout.write(note)

    def _list(self) -> None:
        for campaign in selectors.list_campaigns()[:100]:
            ids = [t.toolchain_id for t in campaign.targets.all()]
            targets = ", ".join(ids) if len(ids) <= 3 else f"{ids[0]} … {ids[-1]} ({len(ids)})"
            self.stdout.write(
                f"{campaign.pk:5}  {campaign.status:9}  {campaign.program_count:7}  "
                f"{campaign.heuristic:6}  {targets}  {campaign.name}"
            )

    def _show(self, data: dict[str, Any]) -> None:
        self.stdout.write(
            f"campaign {data['id']} {data['name']!r}: {data['status']}, "
            f"{data['done']}/{data['total']} executions, {data['per_minute']}/min"
        )
        for t in data["targets"]:
            outcomes = ", ".join(f"{k} {v}" for k, v in sorted(t["outcomes"].items()))
            self.stdout.write(f"  {t['toolchain']}: {t['done']}/{t['total']}  {outcomes}")
        for f in data["findings"]:
            self.stdout.write(
                f"  finding {f['id']} ({f['outcome']}, {f['in_campaign']} here): {f['signature']}"
                f"  example /p/{f['example']}"
            )

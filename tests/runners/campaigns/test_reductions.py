"""Reductions of findings: the service's checks, and a real reduction through the CLI
and a real RQ worker (a redis-server, a file database, chan 0.1.23's real hang)."""

from __future__ import annotations

import json

import pytest
from django.utils import timezone

from runners.campaigns import reductions
from runners.campaigns.models import Finding, Reduction
from runners.campaigns.programs import build_from_effect, store_program
from tests.runners.campaigns.test_jobs import Site, _create, site  # noqa: F401 - the fixture
from tests.runners.conftest import require_toolchain

CHAN_HANG = "Spawn(SelGet(c1, eps) (+) SelGet(c1, eps)) ; SelPut(c1, eps)"
REDUCED = "Spawn(SelGet(c1, eps)) ; SelPut(c1, eps)"


def _finding(example=None) -> Finding:  # noqa: ANN001
    now = timezone.now()
    return Finding.objects.create(
        signature="go | hang", outcome="timeout", language="go", title="no exit",
        first_seen=now, last_seen=now, example=example,
    )  # fmt: skip


@pytest.mark.django_db
def test_a_finding_without_a_program_cannot_be_reduced() -> None:
    with pytest.raises(ValueError, match="no example program"):
        reductions.start_reduction(finding=_finding(), enqueue=False)


@pytest.mark.django_db
def test_a_program_no_campaign_ran_needs_a_toolchain_named() -> None:
    program = store_program(build_from_effect("Spawn(Put(c1)) ; Get(c1)"))
    with pytest.raises(ValueError, match="name the toolchain to run it on"):
        reductions.start_reduction(finding=_finding(program), enqueue=False)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("field", "value"), [("jobs", 0), ("max_candidates", 0), ("keep_ratio", 2.0), ("alpha", 0.9)]
)
def test_bad_settings_are_refused_with_their_name(field: str, value: float) -> None:
    go = require_toolchain("go")
    program = store_program(build_from_effect("Spawn(Put(c1)) ; Get(c1)"))
    with pytest.raises(ValueError, match=field):
        reductions.start_reduction(
            finding=_finding(program), version=go.id, enqueue=False, **{field: value}
        )
    assert not Reduction.objects.exists()


@pytest.mark.django_db
def test_cancelling_a_queued_reduction_keeps_it_as_cancelled() -> None:
    go = require_toolchain("go")
    program = store_program(build_from_effect("Spawn(Put(c1)) ; Get(c1)"))
    reduction = reductions.start_reduction(finding=_finding(program), version=go.id, enqueue=False)
    assert reduction.status == "queued" and reduction.toolchain_id == go.id
    cancelled = reductions.cancel_reduction(reduction=reduction)
    assert cancelled.status == "cancelled" and cancelled.finished_at is not None
    # A job that starts after the cancel does nothing.
    assert reductions.run_reduction(reduction.pk)["skipped"] == "already cancelled"


@pytest.mark.slow
def test_a_campaigns_hang_is_reduced_by_a_worker_and_by_the_command(site: Site) -> None:  # noqa: F811
    chan = require_toolchain("rust-chan", "0.1.23")
    cid = _create(
        site, "--target", f"rust-chan:{chan.id}", "--effect", CHAN_HANG, "--timeout", "1",
        "--retries", "1", "--repetitions", "2", "--seed", "77",
    )  # fmt: skip
    worker = site.worker()
    out, _ = worker.communicate(timeout=600)
    assert worker.returncode == 0, out
    [finding] = site.show(cid)["findings"]

    queued = site.manage("reduce", str(finding["id"]), "--queue", "--max-candidates", "3",
                         "--baseline-runs", "4")  # fmt: skip
    assert queued.returncode == 0, queued.stderr
    assert "queued as RQ job reduce-" in queued.stdout
    worker = site.worker()
    out, _ = worker.communicate(timeout=600)
    assert worker.returncode == 0, out
    [(status, state, reduced, timeout, repetitions)] = site.query(
        "SELECT status, state, reduced_id, timeout_s, repetitions FROM runners_reduction"
    )
    state = json.loads(state)
    # It ran with the campaign's own settings, and kept the hang at its rate.
    assert (status, timeout, repetitions) == ("done", 1.0, 2)
    assert state["current"] == REDUCED and state["current_size"] < state["original_size"]
    assert state["final_failures"] == state["final_runs"] == state["baseline_runs"] == 4
    # The reduced program has a permalink of its own, built from the effect and the seed.
    assert reduced == build_from_effect(REDUCED, 77).id

    inline = site.manage("reduce", str(finding["id"]), "--max-candidates", "2",
                         "--baseline-runs", "4")  # fmt: skip
    assert inline.returncode == 0, inline.stderr
    lines = inline.stdout.strip().splitlines()
    assert lines[-1] == REDUCED
    assert "original: 10 nodes, failed 4 of 4 runs" in inline.stdout
    assert "candidate budget spent" in lines[-2] or "no single edit" in lines[-2]


@pytest.mark.slow
def test_the_command_refuses_bad_arguments(site: Site) -> None:  # noqa: F811
    assert site.manage("reduce").returncode == 2
    missing = site.manage("reduce", "999")
    assert missing.returncode == 2 and "no finding 999" in missing.stderr
    assert site.manage("reduce", "--resume", "5").returncode == 2


@pytest.mark.django_db
def test_an_example_no_campaign_ran_gives_way_to_one_that_was() -> None:
    # A finding loaded with the documentation has an example with no runs here; a
    # campaign then hit the same signature with another program.
    go = require_toolchain("go")
    loaded = store_program(build_from_effect("Spawn(Put(c1)) ; Get(c1)"))
    finding = _finding(loaded)
    from runners.campaigns import services
    from runners.campaigns.models import Execution

    campaign = services.campaign_from_programs(
        effects=["Spawn(Get(c1)) ; Put(c1)"], targets=[("go", go.id)], timeout_s=4,
        repetitions=7, enqueue=False,
    )  # fmt: skip
    ran = store_program(build_from_effect("Spawn(Get(c1)) ; Put(c1)", 0))
    assert ran != loaded
    Execution.objects.create(
        target=campaign.targets.get(), campaign=campaign, program=ran, index=0,
        outcome="timeout", signature=finding.signature, finding=finding,
        attempts=[{"outcome": "timeout"}],
    )  # fmt: skip
    reduction = reductions.start_reduction(finding=finding, enqueue=False)
    assert (reduction.program, reduction.repetitions, reduction.timeout_s) == (ran, 7, 4.0)


@pytest.mark.django_db(transaction=True)
def test_a_reduction_redis_refused_is_kept_failed_for_resume_and_the_command_says_how() -> None:
    from django.core.management import call_command
    from django.core.management.base import CommandError
    from django.test import override_settings

    from runners.engine.redis_server import free_port

    go = require_toolchain("go")
    finding = _finding(store_program(build_from_effect("Spawn(Put(c1)) ; Get(c1)")))
    nowhere = {"default": {"URL": f"redis://127.0.0.1:{free_port()}/0"}}
    with override_settings(RQ_QUEUES=nowhere):
        with pytest.raises(reductions.ReductionNotQueued) as refused:
            reductions.start_reduction(finding=finding, version=go.id)
        reduction = refused.value.reduction
        assert str(refused.value).startswith(
            f"reduction {reduction.pk} was not queued: the queue is unavailable ("
        )
        reduction.refresh_from_db()
        assert reduction.status == "failed"
        with pytest.raises(reductions.ReductionNotQueued):
            reductions.resume_reduction(reduction=reduction)
        reduction.refresh_from_db()
        assert reduction.status == "failed"
        # Once a traceback; now the row to resume and how.
        with pytest.raises(CommandError) as said:
            call_command("reduce", str(finding.pk), "--toolchain", go.id, "--queue")
    assert said.value.returncode == 1
    assert str(said.value).endswith(f"run `manage.py reduce --resume {reduction.pk + 1} --queue`")
    resumed = reductions.resume_reduction(reduction=reduction, enqueue=False)
    assert resumed.status == "queued" and resumed.last_error == ""


@pytest.mark.django_db
def test_a_queue_that_refuses_leaves_the_row_failed_not_queued(
    django_capture_on_commit_callbacks,  # noqa: ANN001
) -> None:
    from django.test import override_settings
    from redis.exceptions import ConnectionError as RedisConnectionError

    from runners.campaigns import services
    from runners.campaigns.models import Reproduction
    from runners.engine.redis_server import free_port

    go = require_toolchain("go")
    program = store_program(build_from_effect("Spawn(Put(c1)) ; Get(c1)"))
    nowhere = {"default": {"URL": f"redis://127.0.0.1:{free_port()}/0"}}
    with override_settings(RQ_QUEUES=nowhere):
        refused = pytest.raises(RedisConnectionError)
        with refused, django_capture_on_commit_callbacks(execute=True):
            services.reproduce(program=program, language="go", version=go.id, times=2)
        refused = pytest.raises(RedisConnectionError)
        with refused, django_capture_on_commit_callbacks(execute=True):
            reductions.start_reduction(finding=_finding(program), version=go.id)
    for row in (Reproduction.objects.get(), Reduction.objects.get()):
        assert row.status == "failed" and row.finished_at is not None
        assert row.last_error.startswith("the queue is unavailable (ConnectionError")


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--max-minutes", "-1"], "--max-minutes must be from 1/60 to 10080"),
        (["--jobs", "99"], "--jobs must be from 1 to 16, not 99"),
        (["--keep-ratio", "2"], "--keep-ratio must be from 0.01 to 1, not 2.0"),
    ],
)
def test_the_command_names_its_options_in_its_refusals(args: list[str], message: str) -> None:
    # Once "max_seconds must be from 1 to 604800, not -60.0": the service's names.
    from django.core.management import call_command
    from django.core.management.base import CommandError

    go = require_toolchain("go")
    finding = _finding(store_program(build_from_effect("Spawn(Put(c1)) ; Get(c1)")))
    with pytest.raises(CommandError) as refused:
        call_command("reduce", str(finding.pk), "--toolchain", go.id, *args)
    assert refused.value.returncode == 2
    assert str(refused.value) == message
    assert not Reduction.objects.exists()


@pytest.mark.django_db
def test_ctrl_c_in_reduce_keeps_the_reduction_and_says_how_to_go_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from django.core.management import call_command
    from django.core.management.base import CommandError

    from runners.engine.reduce import Reducer

    go = require_toolchain("go")
    finding = _finding(store_program(build_from_effect("Spawn(Put(c1)) ; Get(c1)")))

    def interrupted(*_args: object, **_kwargs: object) -> None:
        raise KeyboardInterrupt  # what Python makes of SIGINT, mid-reduction

    monkeypatch.setattr(Reducer, "run", interrupted)
    with pytest.raises(CommandError) as said:
        call_command("reduce", str(finding.pk), "--toolchain", go.id)
    reduction = Reduction.objects.get()
    assert said.value.returncode == 130
    assert str(said.value) == (
        f"interrupted: reduction {reduction.pk} is kept; go on with"
        f" `manage.py reduce --resume {reduction.pk}`"
    )
    assert reduction.status == "failed" and reduction.last_error.startswith("KeyboardInterrupt")

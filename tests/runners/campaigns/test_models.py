"""Programs, executions and findings in the database: ids, idempotence, deduplication.

Verdicts here are real `runners.engine.execute.Execution` values built by hand (the
shape execute_batch gives); no toolchain runs.
"""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction

from generator.settings import settings_for
from runners.campaigns import programs, services
from runners.campaigns.models import (
    Campaign,
    CampaignTarget,
    Execution,
    Finding,
    Program,
    Reproduction,
)
from runners.engine.run_records import Attempt, ProgramRun
from runners.engine.verdicts import Classification, Outcome

pytestmark = pytest.mark.django_db


def _campaign() -> tuple[Campaign, CampaignTarget]:
    campaign = Campaign.objects.create(
        name="t", heuristic="A", settings=settings_for("A").as_dict(), seed=0,
        program_count=10, timeout_s=1, repetitions=1, chunk_size=5, generator_version="1",
    )  # fmt: skip
    target = CampaignTarget.objects.create(campaign=campaign, language="go", toolchain_id="go-x")
    return campaign, target


def _result(outcome: Outcome, signature: str = "", *, stderr: str = "") -> ProgramRun:
    attempt = Attempt(1.0, outcome, 2, None, outcome is Outcome.TIMEOUT, 0.5, "", stderr, None)
    return ProgramRun(0, Classification(outcome, "why", signature), (attempt,))


def test_program_id_is_derived_from_the_lambda_text_and_stable() -> None:
    a = programs.build_generated(7, settings_for("A"))
    b = programs.build_generated(7, settings_for("A"))
    c = programs.build_generated(8, settings_for("A"))
    assert a.id == b.id == programs.program_id(a.lambda_text)
    assert len(a.id) == 12 and a.id.isalnum() and a.id == a.id.lower()
    assert a.id != c.id or a.lambda_text == c.lambda_text
    # Same λ_chan text from another origin: same id.
    assert programs.program_id(a.lambda_text) == a.id


@pytest.mark.django_db
def test_store_program_is_get_or_create_and_rebuilds() -> None:
    built = programs.build_generated(3, settings_for("B"))
    first = programs.store_program(built)
    second = programs.store_program(programs.build_generated(3, settings_for("B")))
    assert first.pk == second.pk and Program.objects.count() == 1
    assert first.render_seed == programs.render_seed_for(first.id)
    assert first.effect_size == len(first.effect_text)
    assert programs.program_object(first) == built.program
    from_effect = programs.store_program(programs.build_from_effect("Spawn(Put(c1)) ; Get(c1)"))
    assert from_effect.source == Program.Source.EFFECT
    assert programs.program_object(from_effect) is not None


@pytest.mark.django_db
def test_store_programs_keeps_the_order_and_reuses_stored_rows() -> None:
    built = [programs.build_generated(seed, settings_for("A")) for seed in (1, 2, 1, 3)]
    before = programs.store_program(built[1])
    rows = programs.store_programs(built)
    assert [r.pk for r in rows] == [b.id for b in built]
    assert rows[1].created_at == before.created_at  # not made again
    assert Program.objects.count() == 3
    assert rows[3].render_seed == programs.render_seed_for(rows[3].pk)
    assert programs.program_object(rows[3]) == built[3].program
    assert programs.store_programs([]) == []


def test_a_program_whose_seed_builds_something_else_is_refused() -> None:
    row = programs.store_program(programs.build_generated(3, settings_for("A")))
    row.seed = 4  # as if the generator had changed what seed 3 gives
    with pytest.raises(ValueError, match="builds a different program"):
        programs.program_object(row)


def test_one_execution_per_target_and_index() -> None:
    _, target = _campaign()
    program = programs.store_program(programs.build_generated(1, settings_for("A")))
    kwargs = {"program": program, "index": 4, "language": "go", "target": target}
    assert services.record_execution(result=_result(Outcome.TERMINATED), **kwargs) is not None
    assert services.record_execution(result=_result(Outcome.TERMINATED), **kwargs) is None
    assert Execution.objects.filter(target=target, index=4).count() == 1
    with pytest.raises(IntegrityError), transaction.atomic():
        Execution.objects.create(target=target, index=4, program=program, outcome="terminated")
    # Reproduction runs have no target: their indices may repeat across reproductions.
    repro = Reproduction.objects.create(
        program=program, language="go", toolchain_id="go-x", times=2, timeout_s=1, repetitions=1
    )
    for _ in range(2):
        services.record_execution(
            program=program, index=0, result=_result(Outcome.CRASH, "go | x"),
            language="go", reproduction=repro,
        )  # fmt: skip
    assert Execution.objects.filter(reproduction=repro).count() == 2


def test_findings_are_deduplicated_by_signature_with_the_shortest_example() -> None:
    _, target = _campaign()
    long = programs.store_program(
        programs.build_from_effect("Spawn(Put(c1)) ; Spawn(Get(c2)) ; Get(c1) ; Get(c3)")
    )
    short = programs.store_program(programs.build_from_effect("Get(c1)"))
    other = programs.store_program(programs.build_from_effect("Get(c2) ; Get(c1)"))
    sig = "crystal | hang"
    for index, program in enumerate([long, short, long]):
        services.record_execution(
            program=program, index=index, result=_result(Outcome.TIMEOUT, sig),
            language="crystal", target=target,
        )  # fmt: skip
    flood = _result(Outcome.CRASH, "crystal | other", stderr="x" * 10**6)
    services.record_execution(
        program=other, index=3, result=flood, language="crystal", target=target
    )
    services.record_execution(
        program=other, index=4, result=_result(Outcome.TERMINATED), language="crystal",
        target=target,
    )  # fmt: skip
    assert Finding.objects.count() == 2
    hang = Finding.objects.get(signature=sig)
    assert (hang.execution_count, hang.program_count) == (3, 2)
    assert hang.example_id == short.id
    assert hang.outcome == "timeout" and hang.language == "crystal"
    assert Execution.objects.filter(finding=hang).count() == 3
    assert Execution.objects.get(index=4).finding is None
    crash = Execution.objects.get(index=3)
    assert len(crash.stderr) < 20_000  # bounded, and says how much was dropped
    assert "more characters dropped" in crash.stderr
    assert crash.attempts[0]["outcome"] == "crash" and len(crash.attempts[0]["stderr"]) < 5_000


def test_reproduction_rate() -> None:
    program = programs.store_program(programs.build_from_effect("Get(c1)"))
    repro = Reproduction(program=program, times=4, timeout_s=1, repetitions=1)
    assert repro.rate is None
    repro.completed, repro.crashed, repro.hung = 4, 1, 2
    assert repro.rate == 0.75

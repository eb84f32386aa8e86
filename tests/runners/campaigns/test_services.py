"""runners.campaigns.services, write by write: what each service stores, refuses, queues
and logs (docs/testing.md, "runners/campaigns/services.py").

No toolchain and no Redis: `find_toolchain` answers with made-up toolchains, and what
would be queued or taken off the queue is recorded instead (`enqueue_or_fail`,
`cancel_jobs`); chunk jobs are given their ids but their on-commit enqueues never run.
The real toolchains and a real Redis are in test_campaigns.py.
"""

from __future__ import annotations

import logging
import re
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import IntegrityError
from django.test import override_settings
from django.utils import timezone
from redis.exceptions import RedisError

from generator import effects as effects_mod
from generator.capabilities import FULL
from generator.pipeline import GENERATOR_VERSION
from generator.settings import PRESETS, settings_for
from runners.campaigns import chunks as chunks_module
from runners.campaigns import programs, quotas, services
from runners.campaigns.models import (
    MAX_ATTEMPT_CHARS,
    MAX_DUMP_CHARS,
    MAX_STREAM_CHARS,
    Campaign,
    CampaignTarget,
    Chunk,
    Execution,
    Finding,
    OutcomeCount,
    Program,
    Reproduction,
)
from runners.campaigns.queueing import COMPILE_ALLOWANCE_S, RUN_REPRODUCTION
from runners.engine.bisect import Bisection, VersionResult
from runners.engine.run_records import Attempt, ProgramRun
from runners.engine.verdicts import Classification, Outcome
from runners.targets import runnable_names, shared_capabilities
from runners.targets.base import Toolchain, ToolchainUnavailable
from tests.runners.conftest import fake_toolchain

pytestmark = pytest.mark.django_db


@pytest.fixture
def toolchains(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str | None]]:
    """Every language has version 1.0 installed (the newest), and any version asked for."""
    asked: list[tuple[str, str | None]] = []

    def find(language: str, version: str | None = None) -> Toolchain:
        asked.append((language, version))
        return fake_toolchain(language, version or "1.0", home=Path(f"/opt/{language}"))

    monkeypatch.setattr(services, "find_toolchain", find)
    return asked


@pytest.fixture
def cancelled_jobs(monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    calls: list[list[str]] = []
    monkeypatch.setattr(services, "cancel_jobs", lambda ids: calls.append(list(ids)))
    return calls


def _events(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.name == services.log.name]


def _fields(record: logging.LogRecord, *names: str) -> dict[str, object]:
    return {name: getattr(record, name) for name in names}


def _program(effect: str = "Get(c1)") -> Program:
    return programs.store_program(programs.build_from_effect(effect))


# ---------------------------------------------------------------- small helpers


def test_bounded_text_keeps_what_fits_and_says_how_much_it_dropped() -> None:
    assert services._bounded(None, 3) == ""
    assert services._bounded("", 3) == ""
    assert services._bounded("abc", 3) == "abc"
    assert services._bounded("abcdefg", 3) == "abc\n… [4 more characters dropped]"


def test_check_range_refuses_a_bool_even_inside_the_range() -> None:
    with pytest.raises(ValueError) as refused:
        services.check_range("times", True, 0, 10)
    assert str(refused.value) == "times must be from 0 to 10, not True"


def test_resolve_toolchain_names_what_is_missing(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(ValueError) as unknown:
        services.resolve_toolchain("cobol", None)
    assert str(unknown.value) == (
        f"unknown language 'cobol': choose one of {', '.join(runnable_names())}"
    )

    def missing(language: str, version: str | None = None) -> Toolchain:
        raise ToolchainUnavailable("none installed")

    monkeypatch.setattr(services, "find_toolchain", missing)
    with pytest.raises(ValueError) as newest:
        services.resolve_toolchain("go", None)
    assert str(newest.value) == "target go (newest): none installed"
    with pytest.raises(ValueError) as given:
        services.resolve_toolchain("go", "1.2")
    assert str(given.value) == "target go 1.2: none installed"


def test_queue_unavailable_keeps_its_campaign() -> None:
    campaign = Campaign.objects.create(
        heuristic="A", settings={}, seed=0, program_count=1, timeout_s=1.0, repetitions=1,
        chunk_size=1, generator_version="test",
    )  # fmt: skip
    error = services.QueueUnavailable(campaign, RuntimeError("refused"))
    assert error.campaign == campaign
    assert str(error) == (
        f"campaign {campaign.pk} was created but not queued (refused); "
        f"start Redis and run `manage.py campaign resume {campaign.pk}`"
    )


# ---------------------------------------------------------------- executions


def _attempt(**changes: Any) -> Attempt:
    values: dict[str, Any] = {
        "timeout_s": 2.5, "outcome": Outcome.CRASH, "exit_code": 2, "signal": 6,
        "timed_out": True, "duration_s": 0.123456, "stdout": "o" * (MAX_ATTEMPT_CHARS + 5),
        "stderr": "err", "dump": "dump", "quiet": True, "threads": 4, "group": 3,
    }  # fmt: skip
    return Attempt(**{**values, **changes})


def _target(name: str = "figures", language: str = "go") -> CampaignTarget:
    campaign = Campaign.objects.create(
        name=name, heuristic="A", settings={}, seed=1, program_count=10, timeout_s=5.0,
        repetitions=1, chunk_size=10, generator_version="test",
    )  # fmt: skip
    return CampaignTarget.objects.create(
        campaign=campaign, language=language, toolchain_id=f"{language}-{name}"
    )


def _run(
    outcome: Outcome = Outcome.CRASH,
    signature: str = "go | crash | exit 2",
    *,
    attempts: tuple[Attempt, ...] = (),
    compile_output: str = "",
    hang_confirmed: bool | None = None,
    runs: int = 1,
) -> ProgramRun:
    return ProgramRun(
        index=0,
        classification=Classification(outcome, f"{outcome} reason", signature),
        attempts=attempts,
        compile_output=compile_output,
        hang_confirmed=hang_confirmed,
        runs=runs,
    )


def test_an_execution_keeps_its_verdict_attempts_and_bounded_output() -> None:
    target = _target()
    program = _program()
    first = _attempt(
        stdout="o" * (MAX_ATTEMPT_CHARS + 5),
        stderr="e" * (MAX_STREAM_CHARS + 2),
        dump="d" * (MAX_DUMP_CHARS + 1),
    )
    second = _attempt(outcome=Outcome.TIMEOUT, stdout="", stderr="", dump=None, exit_code=None)
    result = _run(
        Outcome.TIMEOUT, "go | timeout | all blocked",
        attempts=(first, second), compile_output="c" * (MAX_STREAM_CHARS + 3),
        hang_confirmed=True,
    )  # fmt: skip
    services.record_execution(program=program, index=4, result=result, language="go",
                              target=target)  # fmt: skip
    row = Execution.objects.get()
    assert (row.campaign_id, row.target_id, row.reproduction_id, row.index) == (
        target.campaign_id, target.pk, None, 4,
    )  # fmt: skip
    assert (row.outcome, row.reason, row.signature) == (
        "timeout", "timeout reason", "go | timeout | all blocked",
    )  # fmt: skip
    assert row.hang_confirmed is True
    assert row.compile_output == "c" * MAX_STREAM_CHARS + "\n… [3 more characters dropped]"
    assert (row.exit_code, row.signal, row.duration_s) == (2, 6, 0.123456)
    assert row.stdout == "o" * (MAX_ATTEMPT_CHARS + 5)
    assert row.stderr == "e" * MAX_STREAM_CHARS + "\n… [2 more characters dropped]"
    assert row.dump == "d" * MAX_DUMP_CHARS + "\n… [1 more characters dropped]"
    cut = "\n… [{} more characters dropped]"
    assert row.attempts == [
        {
            "timeout_s": 2.5, "outcome": "crash", "exit_code": 2, "signal": 6,
            "timed_out": True, "quiet": True, "threads": 4, "group": 3, "duration_s": 0.123,
            "stdout": "o" * MAX_ATTEMPT_CHARS + cut.format(5),
            "stderr": "e" * MAX_ATTEMPT_CHARS + cut.format(MAX_STREAM_CHARS + 2 - 4000),
            "dump": "d" * MAX_ATTEMPT_CHARS + cut.format(MAX_DUMP_CHARS + 1 - 4000),
        },
        {
            "timeout_s": 2.5, "outcome": "timeout", "exit_code": None, "signal": 6,
            "timed_out": True, "quiet": True, "threads": 4, "group": 3, "duration_s": 0.123,
            "stdout": "", "stderr": "", "dump": "",
        },
    ]  # fmt: skip
    finding = Finding.objects.get()
    assert row.finding == finding
    assert (finding.execution_count, finding.program_count, finding.confirmed_hangs) == (1, 1, 1)


def test_an_execution_keeps_how_many_runs_its_verdict_took() -> None:
    target, program = _target(), _program()
    services.record_execution(program=program, index=0, result=_run(runs=3), language="go",
                              target=target)  # fmt: skip
    clean = [_run(Outcome.TERMINATED, "", runs=4), _run(Outcome.TERMINATED, "")]
    services.record_executions(
        verdicts=[(program, 1, clean[0]), (program, 2, clean[1])], language="go", target=target
    )
    assert list(Execution.objects.order_by("index").values_list("runs", flat=True)) == [3, 4, 1]


def test_a_new_finding_is_logged_with_its_fields(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger=services.log.name)
    caplog.clear()
    program = _program()
    services.record_execution(program=program, index=0, result=_run(), language="go")
    services.record_execution(program=program, index=1, result=_run(), language="go")
    finding = Finding.objects.get()
    (new,) = _events(caplog)
    assert new.getMessage() == f"new finding {finding.pk}: crash reason"
    assert _fields(new, "event", "finding", "outcome", "language", "signature", "program") == {
        "event": "finding_new", "finding": finding.pk, "outcome": "crash", "language": "go",
        "signature": "go | crash | exit 2", "program": program.pk,
    }  # fmt: skip
    assert (finding.execution_count, finding.program_count, finding.confirmed_hangs) == (2, 1, 0)


def test_a_run_that_terminated_makes_no_finding_whatever_its_signature() -> None:
    row = services.record_execution(
        program=_program(), index=0, result=_run(Outcome.TERMINATED, "odd"), language="go"
    )
    assert row is not None and row.finding is None
    assert Finding.objects.count() == 0


def test_a_program_is_counted_once_per_finding_even_if_it_ran_before_without_it() -> None:
    program = _program()
    target = _target()
    services.record_execution(program=program, index=0, result=_run(Outcome.TERMINATED, ""),
                              language="go", target=target)  # fmt: skip
    services.record_execution(program=program, index=1, result=_run(), language="go",
                              target=target)  # fmt: skip
    services.record_execution(program=program, index=2, result=_run(), language="go",
                              target=target)  # fmt: skip
    finding = Finding.objects.get()
    assert (finding.execution_count, finding.program_count) == (2, 1)


def test_the_example_becomes_a_shorter_program_only() -> None:
    short, middle = _program("Get(c1)"), _program("Get(c1) ; Get(c2)")
    _program("Get(c1) ; Get(c2) ; Get(c3) ; Get(c4)")  # longer, of no finding
    services.record_execution(program=short, index=0, result=_run(), language="go")
    services.record_execution(program=middle, index=1, result=_run(), language="go")
    assert Finding.objects.get().example == short
    Finding.objects.update(example=None)
    services.record_execution(program=middle, index=2, result=_run(), language="go")
    assert Finding.objects.get().example == middle
    services.record_execution(program=short, index=3, result=_run(), language="go")
    assert Finding.objects.get().example == short


def test_an_index_recorded_elsewhere_does_not_stop_a_target_from_recording_it() -> None:
    program = _program()
    repro = Reproduction.objects.create(
        program=program, language="go", toolchain_id="go-test", times=1, timeout_s=1.0,
        repetitions=1,
    )  # fmt: skip
    terminated = _run(Outcome.TERMINATED, "")
    services.record_execution(program=program, index=0, result=terminated, language="go",
                              reproduction=repro)  # fmt: skip
    target = _target()
    row = services.record_execution(program=program, index=0, result=terminated, language="go",
                                    target=target)  # fmt: skip
    assert row is not None and row.target == target
    again = services.record_execution(program=program, index=0, result=terminated,
                                      language="go", target=target)  # fmt: skip
    assert again is None and Execution.objects.count() == 2


def test_an_index_recorded_already_is_skipped_before_anything_is_written(
    caplog: pytest.LogCaptureFixture,
) -> None:
    # A retried chunk whose program now crashes where it terminated the first time: the
    # first verdict stays, and no finding is made, not even for a moment (nor logged).
    program = _program()
    target = _target()
    services.record_execution(program=program, index=0, result=_run(Outcome.TERMINATED, ""),
                              language="go", target=target)  # fmt: skip
    caplog.set_level(logging.INFO, logger=services.log.name)
    caplog.clear()
    again = services.record_execution(program=program, index=0, result=_run(), language="go",
                                      target=target)  # fmt: skip
    assert again is None
    assert Execution.objects.get().outcome == "terminated"
    assert Finding.objects.count() == 0
    assert _events(caplog) == []


def _first_check_misses_rows(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, object]]:
    """Another worker's row, inserted between the check before an insert and the insert:
    the first `Execution.objects.filter` finds nothing, the insert meets the row. Returns
    the filters asked for."""
    real_filter = Execution.objects.filter
    calls: list[dict[str, object]] = []

    def racing(*args: object, **kwargs: object) -> object:
        calls.append(kwargs)
        rows = real_filter(*args, **kwargs)
        return rows.none() if len(calls) == 1 else rows

    monkeypatch.setattr(Execution.objects, "filter", racing)
    return calls


def test_an_index_another_worker_recorded_meanwhile_is_skipped(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    program = _program()
    target = _target()
    terminated = _run(Outcome.TERMINATED, "")
    services.record_execution(program=program, index=0, result=terminated, language="go",
                              target=target)  # fmt: skip
    calls = _first_check_misses_rows(monkeypatch)
    again = services.record_execution(program=program, index=0, result=terminated,
                                      language="go", target=target)  # fmt: skip
    assert again is None and len(calls) == 2
    assert Execution.objects.count() == 1


def test_verdicts_of_no_finding_are_recorded_together_with_their_counts() -> None:
    target = _target()
    a, b = _program("Get(c1)"), _program("Get(c2)")
    attempt = Attempt(5.0, Outcome.TERMINATED, 0, None, False, 0.25, "out", "err", None)
    clean = _run(Outcome.TERMINATED, "", attempts=(attempt,))
    services.record_execution(program=a, index=1, result=clean, language="go", target=target)
    stored = services.record_executions(
        verdicts=[(a, 0, clean), (b, 1, clean), (b, 2, None), (a, 3, clean)],
        language="go", target=target,
    )  # fmt: skip
    assert stored == 3  # index 1 was recorded already
    rows = Execution.objects.filter(target=target).order_by("index")
    assert [(r.index, r.program_id, r.outcome, r.campaign_id) for r in rows] == [
        (0, a.pk, "terminated", target.campaign_id), (1, a.pk, "terminated", target.campaign_id),
        (2, b.pk, "skipped", target.campaign_id), (3, a.pk, "terminated", target.campaign_id),
    ]  # fmt: skip
    assert rows[2].reason == "go cannot express this program"
    assert (rows[3].duration_s, rows[3].stdout, rows[3].stderr) == (0.25, "out", "err")
    counts = dict(OutcomeCount.objects.filter(target=target).values_list("outcome", "count"))
    assert counts == {"terminated": 3, "skipped": 1}


def test_a_finding_is_not_recorded_in_bulk() -> None:
    target = _target()
    with pytest.raises(ValueError, match="stores no finding"):
        services.record_executions(
            verdicts=[(_program(), 0, _run(Outcome.TERMINATED, "")), (_program(), 1, _run())],
            language="go", target=target,
        )  # fmt: skip
    assert Execution.objects.count() == 0 and OutcomeCount.objects.count() == 0


def test_verdicts_another_worker_recorded_meanwhile_are_recorded_one_by_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    program, target = _program(), _target()
    clean = _run(Outcome.TERMINATED, "")
    services.record_execution(program=program, index=1, result=clean, language="go",
                              target=target)  # fmt: skip
    _first_check_misses_rows(monkeypatch)
    stored = services.record_executions(
        verdicts=[(program, 0, clean), (program, 1, clean)], language="go", target=target
    )
    assert stored == 1
    assert sorted(Execution.objects.values_list("index", flat=True)) == [0, 1]
    assert OutcomeCount.objects.get(target=target).count == 2


def test_any_other_integrity_error_is_raised(monkeypatch: pytest.MonkeyPatch) -> None:
    program = _program()
    repro = Reproduction.objects.create(
        program=program, language="go", toolchain_id="go-test", times=1, timeout_s=1.0,
        repetitions=1,
    )  # fmt: skip
    target, other = _target("one"), _target("two")
    terminated = _run(Outcome.TERMINATED, "")
    for index, where in [(1, {"target": target}), (0, {"target": other}),
                         (0, {"reproduction": repro})]:  # fmt: skip
        services.record_execution(program=program, index=index, result=terminated,
                                  language="go", **where)  # fmt: skip

    def broken(self: Execution, *args: object, **kwargs: object) -> None:
        raise IntegrityError("something else")

    monkeypatch.setattr(Execution, "save", broken)
    with pytest.raises(IntegrityError, match="something else"):
        services.record_execution(program=program, index=0, result=terminated, language="go",
                                  target=target)  # fmt: skip
    with pytest.raises(IntegrityError, match="something else"):
        services.record_execution(program=program, index=0, result=terminated, language="go",
                                  reproduction=repro)  # fmt: skip


# ---------------------------------------------------------------- creating campaigns

BASE: dict[str, Any] = {"targets": [("go", None)], "count": 10, "enqueue": False}


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"count": 0}, "count must be from 1 to 1e+06, not 0"),
        ({"timeout_s": 0.05}, "timeout_s must be from 0.1 to 3600, not 0.05"),
        ({"repetitions": 0}, "repetitions must be from 1 to 100000, not 0"),
        ({"chunk_size": -1}, "chunk_size must be from 0 to 1000, not -1"),
        ({"triage_retries": -1}, "triage_retries must be from 0 to 10, not -1"),
        ({"runs": 0}, "runs must be from 1 to 20, not 0"),
        ({"runs": 21}, "runs must be from 1 to 20, not 21"),
        ({"hang_quiet_s": 0.05}, "hang_quiet_s must be from 0.1 to 10, not 0.05"),
        ({"seed": 2**62}, f"seed must be a whole number below 2**62 in size, not {2**62}"),
        ({"seed": -(2**62)}, f"seed must be a whole number below 2**62 in size, not {-(2**62)}"),
        ({"seed": True}, "seed must be a whole number below 2**62 in size, not True"),
        ({"seed": 1.5}, "seed must be a whole number below 2**62 in size, not 1.5"),
        ({"targets": []}, "a campaign needs at least one target (language, version)"),
        ({"targets": [("go", None), ("go", "1.0")]}, "target go-1.0-test is given twice"),
        # Once stored, and then refused by each of the campaign's chunk jobs.
        ({"sandbox": "bogus"}, "unknown sandbox 'bogus': choose one of local, docker, none"),
    ],
)
def test_a_campaign_with_a_bad_argument_is_refused_with_the_reason(
    toolchains: list[tuple[str, str | None]], changes: dict[str, Any], message: str
) -> None:
    with pytest.raises(ValueError) as refused:
        services.create_campaign(**{**BASE, **changes})
    assert str(refused.value) == message
    assert Campaign.objects.count() == 0


def test_a_campaign_no_target_can_generate_for_names_them(
    toolchains: list[tuple[str, str | None]],
) -> None:
    # Heuristic E generates with G-Select alone, which rust-std cannot express.
    try:
        shared_capabilities(["go", "rust-std"]).restrict(PRESETS["E"])
    except ValueError as exc:
        reason = str(exc)
    with pytest.raises(ValueError) as refused:
        services.create_campaign(**{**BASE, "targets": [("go", None), ("rust-std", None)]},
                                 heuristic="E")  # fmt: skip
    assert str(refused.value) == f"for go, rust-std: {reason}"


def test_the_smallest_values_are_allowed(toolchains: list[tuple[str, str | None]]) -> None:
    campaign = services.create_campaign(
        **{**BASE, "count": 1}, timeout_s=0.1, repetitions=1, chunk_size=1, triage_retries=0,
        runs=1, hang_quiet_s=0.1, seed=-(2**62 - 1),
    )  # fmt: skip
    row = Campaign.objects.values(
        "program_count", "timeout_s", "repetitions", "chunk_size", "triage_retries", "runs",
        "hang_quiet_s", "seed",
    ).get(pk=campaign.pk)  # fmt: skip
    assert row == {
        "program_count": 1, "timeout_s": 0.1, "repetitions": 1, "chunk_size": 1,
        "triage_retries": 0, "runs": 1, "hang_quiet_s": 0.1, "seed": -(2**62 - 1),
    }  # fmt: skip
    assert services.create_campaign(**BASE, runs=20).runs == 20
    assert services.create_campaign(**BASE, seed=2**62 - 1).seed == 2**62 - 1


# FULL, and a select with a default (which FULL, stored as {}, leaves out).
WITH_DEFAULT = {**FULL.as_dict(), "select_default": True}
CAMPAIGN_FIELDS = (
    "name", "heuristic", "settings", "capabilities", "seed", "program_count", "timeout_s",
    "repetitions", "chunk_size", "triage_retries", "runs", "hang_quiet_s", "value_oracle",
    "pct_depth", "generator_version", "fixed_programs", "sandbox", "owner",
)  # fmt: skip


def test_a_campaign_is_stored_with_its_defaults_targets_and_chunks(
    toolchains: list[tuple[str, str | None]],
) -> None:
    campaign = services.create_campaign(
        targets=[("go", None), ("crystal", "1.2")], count=30, enqueue=False
    )
    assert Campaign.objects.values(*CAMPAIGN_FIELDS).get(pk=campaign.pk) == {
        "name": "A × 30", "heuristic": "A", "settings": PRESETS["A"].as_dict(),
        "capabilities": WITH_DEFAULT, "seed": 0, "program_count": 30, "timeout_s": 10.0,
        "repetitions": 10, "chunk_size": 0, "triage_retries": 2, "runs": 1,
        "hang_quiet_s": None, "value_oracle": True, "pct_depth": None,
        "generator_version": GENERATOR_VERSION, "fixed_programs": [], "sandbox": "",
        "owner": None,
    }  # fmt: skip
    assert toolchains == [("go", None), ("crystal", "1.2")]
    targets = CampaignTarget.objects.filter(campaign=campaign).order_by("pk")
    assert [
        (t.language, t.requested_version, t.toolchain_id, t.toolchain_description) for t in targets
    ] == [
        ("go", "", "go-1.0-test", "go 1.0 (path) at /opt/go"),
        ("crystal", "1.2", "crystal-1.2-test", "crystal 1.2 (path) at /opt/crystal"),
    ]
    # Sized from measured costs by default: a few long chunks per target, each cut to its
    # size by the job that first claims it (runners.campaigns.chunk_sizing).
    chunks = Chunk.objects.filter(target__campaign=campaign).order_by("target", "start")
    assert [(c.target.language, c.start, c.end, c.rq_job_id) for c in chunks] == [
        ("go", 0, 10, ""), ("go", 10, 20, ""), ("go", 20, 30, ""),
        ("crystal", 0, 10, ""), ("crystal", 10, 20, ""), ("crystal", 20, 30, ""),
    ]  # fmt: skip


def test_a_campaign_with_a_chunk_size_is_cut_into_chunks_of_that_size(
    toolchains: list[tuple[str, str | None]],
) -> None:
    campaign = services.create_campaign(targets=[("go", None)], count=30, chunk_size=25,
                                        enqueue=False)  # fmt: skip
    assert campaign.chunk_size == 25
    chunks = Chunk.objects.filter(target__campaign=campaign).order_by("start")
    assert [(c.start, c.end) for c in chunks] == [(0, 25), (25, 30)]


@pytest.mark.parametrize(
    ("parallel", "count", "ranges"),
    [
        ("", 1000, [(0, 250), (250, 500), (500, 750), (750, 1000)]),
        ("", 10, [(0, 10)]),
        ("", 25, [(0, 8), (8, 16), (16, 25)]),
        ("2", 1001, [(0, 500), (500, 1001)]),
        ("0", 1000, [(0, 1000)]),
    ],
)
def test_an_auto_sized_campaign_starts_with_as_many_chunks_as_may_run_at_once(
    toolchains: list[tuple[str, str | None]],
    monkeypatch: pytest.MonkeyPatch,
    parallel: str,
    count: int,
    ranges: list[tuple[int, int]],
) -> None:
    monkeypatch.setenv("CHANFUZZ_CAMPAIGN_PARALLEL_CHUNKS", parallel)
    campaign = services.create_campaign(targets=[("go", None)], count=count, enqueue=False)
    chunks = Chunk.objects.filter(target__campaign=campaign).order_by("start")
    assert [(c.start, c.end) for c in chunks] == ranges


def test_a_campaigns_name_is_trimmed_and_cut_and_its_heuristic_labelled(
    toolchains: list[tuple[str, str | None]],
) -> None:
    named = services.create_campaign(**BASE, name="  " + "n" * 250 + " ", heuristic="b",
                                     sandbox="none", buffered=True)  # fmt: skip
    assert (named.name, named.heuristic, named.sandbox) == ("n" * 200, "B", "none")
    assert named.settings == settings_for("B", buffered=True).as_dict()
    custom = services.create_campaign(**BASE, name="   ", weights={"g_select": 15})
    assert (custom.name, custom.heuristic) == ("custom × 10", "custom")
    assert custom.settings == settings_for("A", g_select=15).as_dict()


def test_a_queued_campaign_gives_each_chunk_a_job(
    toolchains: list[tuple[str, str | None]],
) -> None:
    campaign = services.create_campaign(targets=[("go", None)], count=3, chunk_size=2)
    job_ids = list(
        Chunk.objects.filter(target__campaign=campaign).values_list("rq_job_id", flat=True)
    )
    assert len(job_ids) == 2
    assert all(re.fullmatch(r"chunk-\d+-[0-9a-f]{8}", job_id) for job_id in job_ids)


def test_a_created_campaign_is_logged_with_its_fields(
    toolchains: list[tuple[str, str | None]],
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    checked: list[dict[str, object]] = []
    monkeypatch.setattr(quotas, "check_campaign", lambda **kwargs: checked.append(kwargs))
    owner = get_user_model().objects.create_user("ada")
    caplog.set_level(logging.INFO, logger=services.log.name)
    caplog.clear()
    campaign = services.create_campaign(
        targets=[("go", None), ("crystal", None)], count=7, heuristic="C", owner=owner,
        timeout_s=3.0, repetitions=4,
    )  # fmt: skip
    assert checked == [{"owner": owner, "count": 7, "timeout_s": 3.0, "repetitions": 4, "runs": 1}]
    assert campaign.owner == owner
    (created,) = _events(caplog)
    assert created.getMessage() == (
        f"campaign {campaign.pk} created: 7 programs on go-1.0-test, crystal-1.0-test"
    )
    assert _fields(created, "event", "campaign", "heuristic", "programs", "targets", "owner",
                   "queued") == {
        "event": "campaign_created", "campaign": campaign.pk, "heuristic": "C", "programs": 7,
        "targets": ["go-1.0-test", "crystal-1.0-test"], "owner": owner.pk, "queued": True,
    }  # fmt: skip
    caplog.clear()
    services.create_campaign(**BASE)
    (unowned,) = _events(caplog)
    assert _fields(unowned, "owner", "queued") == {"owner": None, "queued": False}


def test_a_queue_error_before_the_rows_exist_is_raised_as_it_is(
    toolchains: list[tuple[str, str | None]], monkeypatch: pytest.MonkeyPatch
) -> None:
    def refused(chunk: Chunk) -> None:
        raise RedisError("refused")

    monkeypatch.setattr(services, "assign_job", refused)
    with pytest.raises(RedisError, match="refused"):
        services.create_campaign(targets=[("go", None)], count=2)


@pytest.mark.django_db(transaction=True)
def test_a_campaign_whose_jobs_redis_refused_says_why(
    toolchains: list[tuple[str, str | None]],
) -> None:
    with (
        override_settings(RQ_QUEUES={"default": {"URL": "redis://127.0.0.1:1/0"}}),
        pytest.raises(services.QueueUnavailable) as unavailable,
    ):
        services.create_campaign(targets=[("go", None)], count=2)
    campaign = Campaign.objects.get()
    assert unavailable.value.campaign == campaign
    cause = unavailable.value.__cause__
    assert isinstance(cause, RedisError)
    assert str(unavailable.value) == (
        f"campaign {campaign.pk} was created but not queued ({cause}); "
        f"start Redis and run `manage.py campaign resume {campaign.pk}`"
    )


def test_a_campaign_of_given_programs_stores_each_with_its_seed(
    toolchains: list[tuple[str, str | None]], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(quotas, "check_campaign", lambda **kwargs: None)
    owner = get_user_model().objects.create_user("ada")
    effects = ["Get(c1)", "Spawn(Put(c1)) ; Get(c1)"]
    campaign = services.campaign_from_programs(effects=effects, targets=[("go", None)],
                                               seed=5, hang_quiet_s=2.0, runs=3,
                                               owner=owner)  # fmt: skip
    assert Campaign.objects.values(*CAMPAIGN_FIELDS).get(pk=campaign.pk) == {
        "name": "fixed × 2", "heuristic": "fixed", "settings": PRESETS["A"].as_dict(),
        "capabilities": WITH_DEFAULT, "seed": 5, "program_count": 2, "timeout_s": 10.0,
        "repetitions": 10, "chunk_size": 0, "triage_retries": 2, "runs": 3, "hang_quiet_s": 2.0,
        "value_oracle": True, "pct_depth": None, "generator_version": GENERATOR_VERSION,
        "fixed_programs": [
            {"effect": effects_mod.to_text(effects_mod.parse(text)), "seed": seed}
            for text, seed in zip(effects, [5, 6], strict=True)
        ],
        "sandbox": "", "owner": owner.pk,
    }  # fmt: skip
    (chunk,) = Chunk.objects.filter(target__campaign=campaign)
    assert re.fullmatch(r"chunk-\d+-[0-9a-f]{8}", chunk.rq_job_id)
    rows_only = services.campaign_from_programs(effects=effects, targets=[("go", None)],
                                                enqueue=False)  # fmt: skip
    assert Chunk.objects.get(target__campaign=rows_only).rq_job_id == ""
    assert rows_only.seed == 0
    assert [p["seed"] for p in rows_only.fixed_programs] == [0, 1]


def test_a_campaign_of_no_programs_is_refused(
    toolchains: list[tuple[str, str | None]],
) -> None:
    with pytest.raises(ValueError) as refused:
        services.campaign_from_programs(effects=[], targets=[("go", None)])
    assert str(refused.value) == "a campaign of given programs needs at least one effect"


# ---------------------------------------------------------------- stopping and deleting


def _stoppable(
    toolchains: list[tuple[str, str | None]], status: str = "running"
) -> tuple[Campaign, Campaign]:
    """A campaign whose chunks are queued with a job, queued without one, running with a
    job, done and failed with a job; and another campaign with a queued job."""
    campaign = services.create_campaign(targets=[("go", None)], count=5, chunk_size=1,
                                        enqueue=False)  # fmt: skip
    other = services.create_campaign(targets=[("go", None)], count=1, enqueue=False)
    rows = list(Chunk.objects.filter(target__campaign=campaign).order_by("start"))
    for chunk, state, job_id in zip(
        rows,
        ["queued", "queued", "running", "done", "failed"],
        ["job-queued", "", "job-running", "job-done", "job-failed"],
        strict=True,
    ):
        Chunk.objects.filter(pk=chunk.pk).update(state=state, rq_job_id=job_id)
    Chunk.objects.filter(target__campaign=other).update(rq_job_id="job-other")
    Campaign.objects.filter(pk__in=[campaign.pk, other.pk]).update(status=status)
    campaign.refresh_from_db()
    return campaign, other


def test_cancel_stops_for_good_and_takes_queued_jobs_off_the_queue(
    toolchains: list[tuple[str, str | None]],
    cancelled_jobs: list[list[str]],
    caplog: pytest.LogCaptureFixture,
    django_capture_on_commit_callbacks: Any,
) -> None:
    campaign, other = _stoppable(toolchains)
    caplog.set_level(logging.INFO, logger=services.log.name)
    caplog.clear()
    before = timezone.now()
    with django_capture_on_commit_callbacks(execute=True):
        cancelled = services.cancel_campaign(campaign=campaign)
    assert cancelled_jobs == [["job-queued"]]
    cancelled.refresh_from_db()
    assert cancelled.status == "cancelled"
    assert before <= cancelled.finished_at <= timezone.now()
    (event,) = _events(caplog)
    assert event.getMessage() == f"campaign {campaign.pk} cancelled"
    assert _fields(event, "event", "campaign", "jobs_cancelled") == {
        "event": "campaign_cancelled", "campaign": campaign.pk, "jobs_cancelled": 1,
    }  # fmt: skip
    other.refresh_from_db()
    assert other.status == "running"


def test_pause_stops_until_resumed_and_takes_queued_jobs_off_the_queue(
    toolchains: list[tuple[str, str | None]],
    cancelled_jobs: list[list[str]],
    caplog: pytest.LogCaptureFixture,
    django_capture_on_commit_callbacks: Any,
) -> None:
    campaign, _other = _stoppable(toolchains)
    caplog.set_level(logging.INFO, logger=services.log.name)
    caplog.clear()
    with django_capture_on_commit_callbacks(execute=True):
        paused = services.pause_campaign(campaign=campaign)
    assert cancelled_jobs == [["job-queued"]]
    paused.refresh_from_db()
    assert (paused.status, paused.finished_at) == ("paused", None)
    (event,) = _events(caplog)
    assert event.getMessage() == f"campaign {campaign.pk} paused"
    assert _fields(event, "event", "campaign", "jobs_cancelled") == {
        "event": "campaign_paused", "campaign": campaign.pk, "jobs_cancelled": 1,
    }  # fmt: skip


@pytest.mark.parametrize("status", ["done", "cancelled"])
def test_a_finished_campaign_is_not_paused(
    toolchains: list[tuple[str, str | None]],
    cancelled_jobs: list[list[str]],
    django_capture_on_commit_callbacks: Any,
    status: str,
) -> None:
    campaign, _other = _stoppable(toolchains, status=status)
    with django_capture_on_commit_callbacks(execute=True):
        assert services.pause_campaign(campaign=campaign).status == status
    assert cancelled_jobs == []


@pytest.mark.parametrize("status", ["queued", "running"])
def test_an_active_campaign_is_not_deleted(
    toolchains: list[tuple[str, str | None]], status: str
) -> None:
    campaign, _other = _stoppable(toolchains, status=status)
    with pytest.raises(ValueError) as refused:
        services.delete_campaign(campaign=campaign)
    assert str(refused.value) == (
        f"campaign {campaign.pk} is {status}: pause or cancel it, then delete it"
    )
    assert Campaign.objects.filter(pk=campaign.pk).exists()


def test_a_campaign_with_a_chunk_still_running_is_not_deleted(
    toolchains: list[tuple[str, str | None]],
) -> None:
    campaign, _other = _stoppable(toolchains, status="paused")
    with pytest.raises(ValueError) as refused:
        services.delete_campaign(campaign=campaign)
    assert str(refused.value) == (
        f"a chunk of campaign {campaign.pk} is still finishing its current program; "
        "delete it again in a moment"
    )
    assert Campaign.objects.filter(pk=campaign.pk).exists()


def test_delete_removes_the_campaign_keeps_programs_and_findings_and_cancels_its_jobs(
    toolchains: list[tuple[str, str | None]],
    cancelled_jobs: list[list[str]],
    caplog: pytest.LogCaptureFixture,
    django_capture_on_commit_callbacks: Any,
) -> None:
    campaign, other = _stoppable(toolchains, status="cancelled")
    Chunk.objects.filter(target__campaign=campaign, state="running").update(state="done")
    Chunk.objects.filter(target__campaign=other).update(state="running")  # not its business
    program = _program()
    services.record_execution(program=program, index=0, result=_run(), language="go",
                              target=campaign.targets.get())  # fmt: skip
    finding = Finding.objects.get()
    caplog.set_level(logging.INFO, logger=services.log.name)
    caplog.clear()
    with django_capture_on_commit_callbacks(execute=True):
        assert services.delete_campaign(campaign=campaign) is None
    assert sorted(cancelled_jobs[0]) == ["job-done", "job-failed", "job-queued", "job-running"]
    assert len(cancelled_jobs) == 1
    assert not Campaign.objects.filter(pk=campaign.pk).exists()
    assert list(Campaign.objects.all()) == [other]
    assert Chunk.objects.filter(target__campaign=other).count() == 1
    assert (Execution.objects.count(), Chunk.objects.count(), CampaignTarget.objects.count()) == (
        0, 1, 1,
    )  # fmt: skip
    assert list(Program.objects.all()) == [program]
    assert list(Finding.objects.all()) == [finding]
    (event,) = _events(caplog)
    assert event.getMessage() == f"campaign {campaign.pk} deleted"
    assert _fields(event, "event", "campaign") == {
        "event": "campaign_deleted", "campaign": campaign.pk,
    }  # fmt: skip


# ---------------------------------------------------------------- resuming


def test_resume_requeues_queued_and_failed_chunks_only(
    toolchains: list[tuple[str, str | None]],
) -> None:
    campaign, other = _stoppable(toolchains, status="cancelled")
    Campaign.objects.filter(pk=campaign.pk).update(finished_at=timezone.now(), status_note="x")
    Chunk.objects.filter(target__campaign=campaign).update(attempts=2)
    Chunk.objects.filter(target__campaign=other).update(state="failed", attempts=3)
    resumed = services.resume_campaign(campaign=campaign)
    assert (resumed.status, resumed.finished_at, resumed.status_note) == ("queued", None, "")
    rows = Chunk.objects.filter(target__campaign=campaign).order_by("start")
    assert [(c.state, c.attempts) for c in rows] == [
        ("queued", 2), ("queued", 2), ("running", 2), ("done", 2), ("queued", 0),
    ]  # fmt: skip
    fresh = [c.rq_job_id for c in rows]
    assert fresh[2:4] == ["job-running", "job-done"]
    assert all(re.fullmatch(rf"chunk-{c.pk}-[0-9a-f]{{8}}", c.rq_job_id) for c in
               [rows[0], rows[1], rows[4]])  # fmt: skip
    assert Chunk.objects.filter(target__campaign=other).values_list(
        "state", "attempts", "rq_job_id"
    ).get() == ("failed", 3, "job-other")


def test_resume_writes_only_the_attempts_and_state_of_a_chunk(
    toolchains: list[tuple[str, str | None]], monkeypatch: pytest.MonkeyPatch
) -> None:
    campaign, _other = _stoppable(toolchains, status="paused")
    queued = Chunk.objects.get(target__campaign=campaign, start=0)
    beat = timezone.now()
    real_filter = Execution.objects.filter

    def worker_beats_meanwhile(*args: object, **kwargs: object) -> object:
        # Between resume's read of the chunks and its writes, a worker took the queued
        # chunk's job and wrote its heartbeat: resume must not write back what it read.
        Chunk.objects.filter(pk=queued.pk).update(heartbeat_at=beat, started_at=beat)
        return real_filter(*args, **kwargs)

    monkeypatch.setattr(Execution.objects, "filter", worker_beats_meanwhile)
    services.resume_campaign(campaign=campaign)
    queued.refresh_from_db()
    assert (queued.state, queued.heartbeat_at, queued.started_at) == ("queued", beat, beat)


def test_a_resumed_campaign_that_had_run_is_running(
    toolchains: list[tuple[str, str | None]],
) -> None:
    campaign, _other = _stoppable(toolchains, status="paused")
    services.record_execution(program=_program(), index=0, result=_run(Outcome.TERMINATED, ""),
                              language="go", target=campaign.targets.get())  # fmt: skip
    assert services.resume_campaign(campaign=campaign).status == "running"


def test_a_resumed_campaign_with_nothing_left_to_run_is_done(
    toolchains: list[tuple[str, str | None]],
) -> None:
    campaign, other = _stoppable(toolchains, status="cancelled")
    Chunk.objects.filter(target__campaign=campaign).update(state="done")
    resumed = services.resume_campaign(campaign=campaign)
    assert resumed.status == "done" and resumed.finished_at is not None
    other.refresh_from_db()
    assert other.status == "cancelled"


def _as_it_was(campaign: Campaign) -> tuple[object, ...]:
    campaign.refresh_from_db()
    return campaign.status, campaign.finished_at, campaign.status_note


@pytest.mark.django_db(transaction=True)
def test_resuming_without_redis_leaves_the_campaign_as_it_was(
    toolchains: list[tuple[str, str | None]],
) -> None:
    # It once marked the campaign queued for jobs that never existed: neither run nor
    # deletable ("is queued: pause or cancel it").
    campaign, _other = _stoppable(toolchains, status="cancelled")
    Campaign.objects.filter(pk=campaign.pk).update(finished_at=timezone.now(), status_note="x")
    before = _as_it_was(campaign)
    with (
        override_settings(RQ_QUEUES={"default": {"URL": "redis://127.0.0.1:1/0"}}),
        pytest.raises(services.QueueUnavailable) as unavailable,
    ):
        services.resume_campaign(campaign=campaign)
    assert str(unavailable.value).startswith(f"campaign {campaign.pk} was not resumed (")
    assert str(unavailable.value).endswith(f"run `manage.py campaign resume {campaign.pk}`")
    assert _as_it_was(campaign) == before
    states = Chunk.objects.filter(target__campaign=campaign).order_by("start")
    # Queued, as a paused campaign's are: what the next resume enqueues.
    assert list(states.values_list("state", flat=True)) == [
        "queued", "queued", "running", "done", "queued",
    ]  # fmt: skip


@pytest.mark.django_db(transaction=True)
def test_a_resume_whose_jobs_redis_refused_puts_the_campaign_back(
    toolchains: list[tuple[str, str | None]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Redis answered the ping, then refused the jobs as the resume committed."""
    campaign, _other = _stoppable(toolchains, status="paused")

    class Refusing:
        def enqueue(self, *args: object, **kwargs: object) -> None:
            raise RedisError("refused")

    monkeypatch.setattr(chunks_module, "get_queue", Refusing)
    with pytest.raises(services.QueueUnavailable, match="was not resumed \\(refused\\)"):
        services.resume_campaign(campaign=campaign)
    assert _as_it_was(campaign) == ("paused", None, "")


def test_a_chunk_jobs_time_limit_allows_each_run_of_its_programs(
    toolchains: list[tuple[str, str | None]],
    monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks,  # noqa: ANN001 - pytest-django's fixture
) -> None:
    jobs: list[dict[str, object]] = []

    class Recording:
        def enqueue(self, *args: object, **kwargs: object) -> None:
            jobs.append(kwargs)

    monkeypatch.setattr(chunks_module, "get_queue", Recording)
    with django_capture_on_commit_callbacks(execute=True):
        services.create_campaign(**{**BASE, "count": 4, "enqueue": True}, chunk_size=4,
                                 timeout_s=2.0, triage_retries=1, runs=3)  # fmt: skip
    # Per program: three runs, then a timeout's re-run with three times the limit.
    (job,) = jobs
    assert job["job_timeout"] == int(4 * (2.0 * (3 + 1 * 3.0) + 5 * 3) + COMPILE_ALLOWANCE_S)


# ---------------------------------------------------------------- bisection


def test_a_bisection_is_stored_on_its_finding() -> None:
    program = _program()
    services.record_execution(program=program, index=0, result=_run(), language="go")
    finding = Finding.objects.get()
    bad = VersionResult("go-1.20", "1.20", runs=5, bad_runs=2, signatures=("sig",))
    good = VersionResult("go-1.21", "1.21", runs=5, bad_runs=0, signatures=())
    bisection = Bisection("go", (bad, good), last_bad=bad, first_good=good)
    Finding.objects.filter(pk=finding.pk).update(title="kept")
    before = timezone.now()
    returned = services.record_bisection(finding=finding, bisection=bisection)
    assert returned is finding
    finding = Finding.objects.get()
    assert finding.bisection == bisection.as_dict()
    assert before <= finding.bisected_at <= timezone.now()
    assert finding.title == "kept"  # only the bisection's fields are written


# ---------------------------------------------------------------- reproductions


@pytest.fixture
def enqueued(monkeypatch: pytest.MonkeyPatch) -> list[tuple[tuple[Any, ...], dict[str, Any]]]:
    calls: list[tuple[tuple[Any, ...], dict[str, Any]]] = []
    monkeypatch.setattr(
        services, "enqueue_or_fail", lambda *args, **kwargs: calls.append((args, kwargs))
    )
    return calls


REPRO_FIELDS = (
    "program", "language", "requested_version", "toolchain_id", "toolchain_description",
    "times", "timeout_s", "repetitions", "pct_depth", "owner",
)  # fmt: skip


def test_a_reproduction_is_stored_and_queued_after_commit(
    toolchains: list[tuple[str, str | None]],
    enqueued: list[tuple[tuple[Any, ...], dict[str, Any]]],
    monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks: Any,
) -> None:
    checked: list[dict[str, object]] = []
    monkeypatch.setattr(quotas, "check_reproduction", lambda **kwargs: checked.append(kwargs))
    owner = get_user_model().objects.create_user("ada")
    program = _program()
    with django_capture_on_commit_callbacks(execute=True):
        repro = services.reproduce(program=program, language="go", version="1.2", times=3,
                                   timeout_s=2.5, repetitions=4, owner=owner)  # fmt: skip
        assert enqueued == []
    assert checked == [{"owner": owner, "times": 3, "timeout_s": 2.5, "repetitions": 4}]
    assert toolchains == [("go", "1.2")]
    assert Reproduction.objects.values(*REPRO_FIELDS).get(pk=repro.pk) == {
        "program": program.pk, "language": "go", "requested_version": "1.2",
        "toolchain_id": "go-1.2-test", "toolchain_description": "go 1.2 (path) at /opt/go",
        "times": 3, "timeout_s": 2.5, "repetitions": 4, "pct_depth": None, "owner": owner.pk,
    }  # fmt: skip
    job_id = Reproduction.objects.get(pk=repro.pk).rq_job_id
    assert re.fullmatch(rf"repro-{repro.pk}-[0-9a-f]{{8}}", job_id)
    ((args, kwargs),) = enqueued
    rows, func, pk = args
    assert (list(rows), func, pk) == ([repro], RUN_REPRODUCTION, repro.pk)
    assert kwargs == {
        "queue_name": "default", "job_id": job_id,
        "job_timeout": int(3 * 2.5 * 2 + COMPILE_ALLOWANCE_S),
        "description": f"reproduce {program.id} on go-1.2-test ×3",
    }  # fmt: skip
    assert kwargs["job_timeout"] == 915


def test_a_reproduction_has_defaults_and_may_be_left_unqueued(
    toolchains: list[tuple[str, str | None]],
    enqueued: list[tuple[tuple[Any, ...], dict[str, Any]]],
    django_capture_on_commit_callbacks: Any,
) -> None:
    program = _program()
    with django_capture_on_commit_callbacks(execute=True):
        repro = services.reproduce(program=program, language="go", times=1, enqueue=False)
    assert enqueued == []
    row = Reproduction.objects.values(*REPRO_FIELDS, "rq_job_id").get(pk=repro.pk)
    assert row == {
        "program": program.pk, "language": "go", "requested_version": "",
        "toolchain_id": "go-1.0-test", "toolchain_description": "go 1.0 (path) at /opt/go",
        "times": 1, "timeout_s": 10.0, "repetitions": 10, "pct_depth": None, "owner": None,
        "rq_job_id": "",
    }  # fmt: skip
    smallest = services.reproduce(program=program, language="go", times=1, timeout_s=0.1,
                                  repetitions=1, enqueue=False)  # fmt: skip
    assert (smallest.timeout_s, smallest.repetitions) == (0.1, 1)


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"times": 0}, "times must be from 1 to 10000, not 0"),
        ({"timeout_s": 0.05}, "timeout_s must be from 0.1 to 3600, not 0.05"),
        ({"repetitions": 0}, "repetitions must be from 1 to 100000, not 0"),
    ],
)
def test_a_reproduction_with_a_bad_argument_is_refused_with_the_reason(
    toolchains: list[tuple[str, str | None]], changes: dict[str, Any], message: str
) -> None:
    with pytest.raises(ValueError) as refused:
        services.reproduce(**{"program": _program(), "language": "go", "times": 1, **changes})
    assert str(refused.value) == message
    assert Reproduction.objects.count() == 0

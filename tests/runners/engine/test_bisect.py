"""Bisection across releases: the boundary logic, and real runs on the installed Go versions."""

from __future__ import annotations

import time
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse
from django.utils import timezone

from chanfuzz_site.management.commands.bisect import _repetitions_seen
from runners.campaigns.models import Finding
from runners.campaigns.programs import build_from_effect, store_program
from runners.campaigns.services import record_execution, reproduce
from runners.engine.bisect import VersionResult, bisect_program, boundary, runs_on
from runners.engine.run_records import ProgramRun
from runners.engine.sandbox import get_sandbox
from runners.engine.toolchains import installed_toolchains
from runners.engine.verdicts import Classification, Outcome
from tests.runners.conftest import require_toolchain


def result(version: str, bad: int, runs: int = 5, errors: int = 0) -> VersionResult:
    return VersionResult(f"kotlin-x-coroutines-{version}", version, runs, bad, (), errors)


def test_boundary_is_last_bad_and_first_good_after_it() -> None:
    results = [result("0.19", 2), result("0.22.5", 1), result("1.0.1", 3), result("1.3.3", 0)]
    last_bad, first_good = boundary(results)
    assert (last_bad.version, first_good.version) == ("1.0.1", "1.3.3")


def test_boundary_skips_versions_that_decided_nothing() -> None:
    # 1.3.2 failed to compile every time: it is neither bad nor good.
    results = [result("1.0.1", 1), result("1.3.2", 0, errors=5), result("1.3.3", 0)]
    assert boundary(results)[1].version == "1.3.3"


def test_boundary_when_bad_up_to_the_newest_or_never_bad() -> None:
    assert boundary([result("1.0", 0), result("1.1", 1)]) == (result("1.1", 1), None)
    assert boundary([result("1.0", 0), result("1.1", 0)]) == (None, None)


def test_boundary_reports_the_last_bad_even_after_a_good_gap() -> None:
    # A race missed in a few runs of 0.22.5 must not make 0.22.5 the "first good".
    results = [result("0.19", 1), result("0.22.5", 0), result("1.0.1", 2), result("1.3.3", 0)]
    last_bad, first_good = boundary(results)
    assert (last_bad.version, first_good.version) == ("1.0.1", "1.3.3")


STUCK = "Spawn(Get(c2)) ; Get(c1)"  # deadlocks on every runtime


@pytest.mark.slow
def test_deadlock_is_bad_on_every_installed_go() -> None:
    require_toolchain("go")
    built = build_from_effect(STUCK, 1)
    bisection = bisect_program(
        built.program, "go", sandbox=get_sandbox("local"), times=2, repetitions=1, timeout_s=10
    )
    assert [r.version for r in bisection.results] == sorted(
        # Releases only: a runtime mutant (runners.mutation) is no version to bisect over.
        (t.version for t in installed_toolchains("go") if t.origin != "mutant"),
        key=lambda v: tuple(int(p) for p in v.split(".")),
    )
    assert all(r.bad_runs == 2 for r in bisection.results)
    assert bisection.first_good is None
    assert bisection.summary().startswith("seen up to the newest version tried")


@pytest.mark.slow
def test_a_run_blocked_for_quiet_s_is_bad_without_waiting_out_its_limit(tmp_path: Path) -> None:
    # std's rendezvous recv with its sender alive blocks for ever: no runtime detects
    # it, so only the quiet-period watch can end the run before its limit.
    require_toolchain("rust-std")
    toolchain = installed_toolchains("rust-std")[-1]
    built = build_from_effect(STUCK, 1)
    began = time.monotonic()
    result = runs_on(
        built.program, toolchain, sandbox=get_sandbox("local"), times=2, repetitions=1,
        timeout_s=300, quiet_s=1.0, workdir=tmp_path,
    )  # fmt: skip
    elapsed = time.monotonic() - began
    assert (result.runs, result.bad_runs, result.errors) == (2, 2, 0)
    assert all(" | hang | " in s for s in result.signatures), result.signatures
    assert elapsed < 300, "the runs waited out their limit instead of their quiet period"


@pytest.mark.slow
def test_terminating_program_is_not_seen_anywhere() -> None:
    require_toolchain("go")
    built = build_from_effect("Spawn(Put(c1)) ; Get(c1)", 1)
    bisection = bisect_program(
        built.program, "go", sandbox=get_sandbox("local"), times=2, repetitions=5, timeout_s=10
    )
    assert bisection.last_bad is None
    assert bisection.summary() == "not seen on any version tried"


@pytest.mark.slow
@pytest.mark.django_db
def test_bisect_command_stores_the_result_on_the_finding(client) -> None:  # noqa: ANN001
    require_toolchain("go")
    program = store_program(build_from_effect(STUCK, 1))
    now = timezone.now()
    finding = Finding.objects.create(
        signature="go | deadlock | chan receive×2",
        outcome="crash",
        language="go",
        title="exit 2: all goroutines are asleep - deadlock!",
        first_seen=now,
        last_seen=now,
        example=program,
    )
    out = StringIO()
    with pytest.raises(CommandError) as failed:
        call_command("bisect", str(finding.pk), "--times", "2", "--timeout", "10", stdout=out)
    assert failed.value.returncode == 1  # seen up to the newest Go: no first good
    finding.refresh_from_db()
    assert finding.bisection["last_bad"] is not None
    assert finding.bisection["first_good"] is None
    assert {r["bad_runs"] for r in finding.bisection["results"]} == {2}
    assert "2/2 bad" in out.getvalue()
    page = client.get(reverse("finding_detail", args=[finding.pk])).content.decode()
    assert "seen up to the newest version tried" in page
    assert page.count("2 / 2") == len(finding.bisection["results"])


@pytest.mark.django_db
def test_bisect_command_unknown_finding_exits_2() -> None:
    with pytest.raises(CommandError) as failed:
        call_command("bisect", "999999")
    assert failed.value.returncode == 2


@pytest.mark.django_db
def test_a_finding_on_a_target_with_one_release_is_not_bisected_and_both_say_why(
    client,  # noqa: ANN001
) -> None:
    now = timezone.now()
    finding = Finding.objects.create(
        signature="crystal | hang | x", outcome="timeout", language="crystal", title="hang",
        first_seen=now, last_seen=now, example=store_program(build_from_effect(STUCK, 1)),
    )  # fmt: skip
    with pytest.raises(CommandError) as failed:
        call_command("bisect", str(finding.pk))
    assert failed.value.returncode == 2
    assert str(failed.value) == (
        f"finding {finding.pk} cannot be bisected: one Crystal release is obtainable here "
        "(Debian's): nothing to bisect over"
    )
    finding.refresh_from_db()
    assert finding.bisection is None
    page = client.get(reverse("finding_detail", args=[finding.pk])).content.decode()
    assert "Not bisected: one Crystal release is obtainable here" in page
    assert "manage.py bisect" not in page


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--hang-quiet", "0"], "--hang-quiet must be from 0.1 s to --timeout (30 s)"),
        (["--timeout", "5", "--hang-quiet", "6"], "--hang-quiet must be from 0.1 s to --timeout"),
        # Once blamed on --hang-quiet.
        (["--timeout", "0"], "--timeout must be from 0.1 to 3600"),
        # 0 once meant "as in its finding", and -4 was a traceback.
        (["--repetitions", "0"], "--repetitions must be from 1 to 100000"),
        (["--repetitions", "-4"], "--repetitions must be from 1 to 100000"),
    ],
)
def test_bisect_command_refuses_bad_limits_before_it_runs(args: list[str], message: str) -> None:
    program = store_program(build_from_effect(STUCK, 1))
    now = timezone.now()
    finding = Finding.objects.create(
        signature="go | deadlock | chan receive×2", outcome="crash", language="go",
        title="deadlock", first_seen=now, last_seen=now, example=program,
    )  # fmt: skip
    with pytest.raises(CommandError) as refused:
        call_command("bisect", str(finding.pk), *args)
    assert refused.value.returncode == 2
    assert str(refused.value) == message or str(refused.value).startswith(message)
    finding.refresh_from_db()
    assert finding.bisection is None


@pytest.mark.django_db
def test_bisect_runs_as_many_repetitions_as_the_reproduction_that_showed_the_finding() -> None:
    require_toolchain("go")
    program = store_program(build_from_effect(STUCK, 1))
    finding = record_execution(
        program=program, index=0, language="go",
        result=ProgramRun(0, Classification(Outcome.CRASH, "exit 2", "go | deadlock | x")),
        reproduction=reproduce(program=program, language="go", times=1, repetitions=700,
                               enqueue=False),
    ).finding  # fmt: skip
    assert _repetitions_seen(finding) == 700  # it was 1: only campaigns' runs were looked at

"""The reads the pages and commands make: which rows each selector returns, in what order,
with which counts, and what it refuses. One small database of two campaigns, three
findings and a program seen in both (no Redis, no toolchain).

The progress, the original runs and the reproduction verdict are in test_jobs_figures.py.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from django.utils import timezone

from generator.settings import PRESETS
from runners.campaigns import selectors
from runners.campaigns.models import (
    Campaign,
    CampaignTarget,
    Execution,
    Finding,
    Program,
    Reduction,
    Reproduction,
)
from runners.campaigns.programs import build_from_effect, program_object, store_program
from runners.engine.toolchains import ToolchainUnavailable
from runners.targets import get_target
from runners.targets.base import Toolchain
from runners.targets.kotlin import kotlin_render_options

pytestmark = pytest.mark.django_db

T0 = datetime(2026, 11, 1, 12, 0, tzinfo=timezone.get_current_timezone())


def _campaign(name: str, heuristic: str, *, created: datetime, status: str = "done") -> Campaign:
    campaign = Campaign.objects.create(
        name=name, heuristic=heuristic, settings=PRESETS[heuristic].as_dict(), seed=1,
        program_count=4, timeout_s=5.0, repetitions=1, chunk_size=4,
        generator_version="test", status=status,
    )  # fmt: skip
    Campaign.objects.filter(pk=campaign.pk).update(created_at=created)
    campaign.refresh_from_db()
    return campaign


def _finding(signature: str, *, last_seen: datetime, outcome: str = "timeout") -> Finding:
    return Finding.objects.create(
        signature=signature, outcome=outcome, language=signature.split(" | ")[0],
        title=signature, first_seen=T0, last_seen=last_seen,
    )  # fmt: skip


@dataclass
class World:
    a: Campaign
    b: Campaign
    a_go: CampaignTarget
    a_crystal: CampaignTarget
    b_go: CampaignTarget
    hang: Finding
    crash: Finding
    other: Finding
    p1: Program
    p2: Program
    p3: Program
    rows: dict[str, Execution]


def _run(
    name: str, target: CampaignTarget, index: int, program: Program, outcome: str,
    finding: Finding | None, minutes: int,
) -> tuple[str, Execution]:  # fmt: skip
    row = Execution.objects.create(
        campaign=target.campaign, target=target, index=index, program=program,
        outcome=outcome, finding=finding, stdout="big",
        signature=finding.signature if finding else "",
    )  # fmt: skip
    Execution.objects.filter(pk=row.pk).update(created_at=T0 + timedelta(minutes=minutes))
    row.refresh_from_db()
    return name, row


@pytest.fixture
def world() -> World:
    a = _campaign("a", "A", created=T0)
    b = _campaign("b", "B", created=T0 + timedelta(days=1), status="running")
    a_go = CampaignTarget.objects.create(campaign=a, language="go", toolchain_id="go-1.22")
    a_crystal = CampaignTarget.objects.create(
        campaign=a, language="crystal", toolchain_id="crystal-1.0"
    )
    b_go = CampaignTarget.objects.create(campaign=b, language="go", toolchain_id="go-1.23")
    hang = _finding("go | hang | x", last_seen=T0 + timedelta(hours=2))
    crash = _finding("crystal | crash | y", last_seen=T0 + timedelta(hours=3), outcome="crash")
    other = _finding("go | crash | z", last_seen=T0 + timedelta(hours=2), outcome="crash")
    p1 = store_program(build_from_effect("Spawn(Put(c1)) ; Get(c1)", 1))
    p2 = store_program(build_from_effect("Spawn(Get(c1)) ; Put(c1)", 2))
    p3 = store_program(build_from_effect("Spawn(SelGet(c1, eps)) ; SelPut(c1, eps)", 2))
    rows = dict(
        [
            # Crystal's rows first: among runs of one index, the order by target is then
            # not the order the rows were written in.
            _run("a_cr_0", a_crystal, 0, p1, "crash", crash, 14),
            _run("a_cr_1", a_crystal, 1, p2, "terminated", None, 15),
            _run("a_go_0", a_go, 0, p1, "timeout", hang, 10),
            _run("a_go_1", a_go, 1, p2, "terminated", None, 11),
            _run("a_go_2", a_go, 2, p1, "timeout", hang, 12),
            _run("a_go_3", a_go, 3, p3, "timeout", hang, 13),
            _run("b_go_0", b_go, 0, p1, "timeout", hang, 30),
            _run("b_go_1", b_go, 1, p3, "crash", other, 31),
        ]
    )
    return World(a, b, a_go, a_crystal, b_go, hang, crash, other, p1, p2, p3, rows)


BIG_FIELDS = {"stdout", "stderr", "dump", "attempts", "compile_output"}


def _reproductions(program: Program, count: int) -> list[Reproduction]:
    return [
        Reproduction.objects.create(
            program=program,
            language="go",
            toolchain_id="go-1.22",
            times=1,
            timeout_s=1.0,
            repetitions=1,
        )  # fmt: skip
        for _ in range(count)
    ]


def _names(world: World, executions) -> list[str]:  # noqa: ANN001
    by_pk = {row.pk: name for name, row in world.rows.items()}
    return [by_pk[e.pk] for e in executions]


# ---------------------------------------------------------------- campaigns


def test_campaigns_are_listed_newest_first_with_their_targets(
    world: World,
    django_assert_num_queries,  # noqa: ANN001
) -> None:
    with django_assert_num_queries(2):
        listed = [(c.name, [t.toolchain_id for t in c.targets.all()])
                  for c in selectors.list_campaigns()]  # fmt: skip
    assert listed == [("b", ["go-1.23"]), ("a", ["go-1.22", "crystal-1.0"])]
    assert [c.name for c in selectors.list_campaigns(status="done")] == ["a"]
    assert [c.name for c in selectors.list_campaigns(status="")] == ["b", "a"]


def test_a_campaign_is_got_with_its_targets(world: World, django_assert_num_queries) -> None:  # noqa: ANN001
    with django_assert_num_queries(2):
        got = selectors.get_campaign(world.a.pk)
        assert [t.language for t in got.targets.all()] == ["go", "crystal"]
    with pytest.raises(Campaign.DoesNotExist):
        selectors.get_campaign(world.b.pk + 100)


def test_a_campaigns_executions_go_by_index_then_target(world: World) -> None:
    listed = selectors.campaign_executions(world.a)
    assert _names(world, listed) == [
        "a_go_0", "a_cr_0", "a_go_1", "a_cr_1", "a_go_2", "a_go_3",
    ]  # fmt: skip
    first = listed[0]
    # The big fields stay in the database until asked for.
    assert {"stdout", "stderr", "dump", "attempts", "compile_output"} <= first.get_deferred_fields()
    assert first.get_deferred_fields() == BIG_FIELDS
    assert _names(world, selectors.campaign_executions(world.a, outcome="timeout")) == [
        "a_go_0", "a_go_2", "a_go_3",
    ]  # fmt: skip
    assert _names(world, selectors.campaign_executions(world.a, target=world.a_crystal)) == [
        "a_cr_0", "a_cr_1",
    ]  # fmt: skip
    assert _names(world, selectors.campaign_executions(world.a, findings_only=True)) == [
        "a_go_0", "a_cr_0", "a_go_2", "a_go_3",
    ]  # fmt: skip
    both = selectors.campaign_executions(world.a, outcome="crash", target=world.a_go)
    assert list(both) == []


def test_indices_are_dense_only_when_the_highest_is_the_count_less_one(world: World) -> None:
    assert selectors.indices_are_dense(world.a_go, 4)
    assert not selectors.indices_are_dense(world.a_go, 5)
    assert not selectors.indices_are_dense(world.a_go, 3)
    assert not selectors.indices_are_dense(world.a_go, 0)
    assert not selectors.indices_are_dense(world.a_go, None)
    empty = CampaignTarget.objects.create(campaign=world.b, language="go", toolchain_id="go-x")
    assert not selectors.indices_are_dense(empty, 1)


# ---------------------------------------------------------------- findings


def test_a_campaigns_findings_go_by_their_count_there(world: World) -> None:
    listed = selectors.campaign_findings(world.a)
    assert [(f.signature, f.in_campaign) for f in listed] == [
        ("go | hang | x", 3),
        ("crystal | crash | y", 1),
    ]
    # Counted in that campaign only: b's runs of the same hang are not.
    assert [(f.signature, f.in_campaign) for f in selectors.campaign_findings(world.b)] == [
        ("go | hang | x", 1),
        ("go | crash | z", 1),
    ]


def test_findings_are_listed_most_recently_seen_first(world: World) -> None:
    assert [f.signature for f in selectors.list_findings()] == [
        "crystal | crash | y", "go | crash | z", "go | hang | x",
    ]  # fmt: skip
    assert [f.signature for f in selectors.list_findings(outcome="crash")] == [
        "crystal | crash | y", "go | crash | z",
    ]  # fmt: skip
    assert [f.signature for f in selectors.list_findings(language="go")] == [
        "go | crash | z", "go | hang | x",
    ]  # fmt: skip
    assert [f.signature for f in selectors.list_findings(outcome="crash", language="go")] == [
        "go | crash | z"
    ]
    assert selectors.get_finding(world.hang.pk) == world.hang
    with pytest.raises(Finding.DoesNotExist):
        selectors.get_finding(world.other.pk + 100)


def test_a_findings_executions_go_newest_first(world: World) -> None:
    listed = selectors.finding_executions(world.hang)
    assert _names(world, listed) == ["b_go_0", "a_go_3", "a_go_2", "a_go_0"]
    assert listed[0].get_deferred_fields() == BIG_FIELDS
    # Two at the same moment: the later row first.
    Execution.objects.filter(pk=world.rows["a_go_2"].pk).update(created_at=T0)
    Execution.objects.filter(pk=world.rows["a_go_0"].pk).update(created_at=T0)
    assert _names(world, selectors.finding_executions(world.hang))[-2:] == ["a_go_2", "a_go_0"]


def test_a_findings_campaigns_say_how_often_and_when(world: World) -> None:
    listed = selectors.finding_campaigns(world.hang)
    assert [(c.name, c.hits, c.first_hit, c.last_hit) for c in listed] == [
        ("b", 1, T0 + timedelta(minutes=30), T0 + timedelta(minutes=30)),
        ("a", 3, T0 + timedelta(minutes=10), T0 + timedelta(minutes=13)),
    ]
    assert [c.name for c in selectors.finding_campaigns(world.crash)] == ["a"]


def test_a_campaigns_hits_per_finding_and_target(world: World) -> None:
    assert selectors.campaign_finding_hits(world.a) == [
        {
            "target_id": world.a_go.pk, "finding_id": world.hang.pk, "programs": 2,
            "executions": 3, "first": T0 + timedelta(minutes=10),
            "last": T0 + timedelta(minutes=13),
        },
        {
            "target_id": world.a_crystal.pk, "finding_id": world.crash.pk, "programs": 1,
            "executions": 1, "first": T0 + timedelta(minutes=14),
            "last": T0 + timedelta(minutes=14),
        },
    ]  # fmt: skip
    # A verdict that is not a finding's, even if linked to one, is not a hit.
    Execution.objects.filter(pk=world.rows["a_go_3"].pk).update(outcome="terminated")
    assert selectors.campaign_finding_hits(world.a)[0]["executions"] == 2


def test_a_findings_row_of_table_2_per_heuristic_and_toolchain(world: World) -> None:
    (reproduction,) = _reproductions(world.p1, 1)
    Execution.objects.create(
        reproduction=reproduction, program=world.p1, index=0, outcome="timeout",
        finding=world.hang,
    )  # fmt: skip
    assert selectors.finding_hits_by_target(world.hang) == [
        {"campaign__heuristic": "A", "target__toolchain_id": "go-1.22", "programs": 2,
         "executions": 3},
        {"campaign__heuristic": "B", "target__toolchain_id": "go-1.23", "programs": 1,
         "executions": 1},
    ]  # fmt: skip


# ---------------------------------------------------------------- programs


def test_a_program_is_found_by_its_id_in_any_case(world: World) -> None:
    assert selectors.get_program(world.p1.id.upper()) == world.p1
    assert selectors.get_program(world.p1.id) == world.p1
    with pytest.raises(Program.DoesNotExist):
        selectors.get_program("0" * len(world.p1.id))


def test_a_programs_executions_and_findings(world: World) -> None:
    assert _names(world, selectors.program_executions(world.p1)) == [
        "b_go_0", "a_cr_0", "a_go_2", "a_go_0",
    ]  # fmt: skip
    # Each finding once, most recently seen first (z and x were seen at the same time:
    # the later finding first).
    assert list(selectors.program_findings(world.p1)) == [world.crash, world.hang]
    assert list(selectors.program_findings(world.p3)) == [world.other, world.hang]
    assert list(selectors.program_findings(world.p2)) == []


def test_reductions_and_reproductions_of_a_finding_and_a_program(world: World) -> None:
    reduction = Reduction.objects.create(
        finding=world.hang, program=world.p1, language="go", toolchain_id="go-1.22",
        signature=world.hang.signature, timeout_s=1.0, repetitions=1,
    )  # fmt: skip
    assert list(selectors.finding_reductions(world.hang)) == [reduction]
    assert list(selectors.finding_reductions(world.crash)) == []
    assert selectors.get_reduction(reduction.pk) == reduction
    with pytest.raises(Reduction.DoesNotExist):
        selectors.get_reduction(reduction.pk + 1)
    older, newer = _reproductions(world.p1, 2)
    Reproduction.objects.filter(pk=older.pk).update(created_at=T0)
    assert list(selectors.program_reproductions(world.p1)) == [newer, older]
    assert list(selectors.program_reproductions(world.p2)) == []
    assert selectors.get_reproduction(older.pk) == older
    with pytest.raises(Reproduction.DoesNotExist):
        selectors.get_reproduction(newer.pk + 1)


def test_a_programs_source_is_rendered_with_its_own_seed(world: World) -> None:
    spec = get_target("go")
    lc_program = program_object(world.p3)
    options = spec.source_options(None) | {}
    plain = selectors.program_source(world.p3, "go", version="0.0-none", repetitions=3)
    assert plain == spec.render(lc_program, seed=world.p3.render_seed, repetitions=3, **options)
    assert plain != spec.render(lc_program, seed=0, repetitions=3, **options)
    with_values = selectors.program_source(world.p3, "go", version="0.0-none", values=True)
    assert with_values == spec.render(
        lc_program, seed=world.p3.render_seed, repetitions=1, **(options | {"values": True})
    )
    assert with_values != selectors.program_source(world.p3, "go", version="0.0-none")
    yielding = selectors.program_source(world.p3, "go", version="0.0-none", pct_depth=2)
    assert yielding == spec.render(
        lc_program, seed=world.p3.render_seed, repetitions=1,
        **(options | spec.pct_options(2)),
    )  # fmt: skip


def test_a_language_without_a_value_oracle_renders_without_one(world: World) -> None:
    spec = get_target("flix")
    assert not spec.value_oracle
    assert selectors.program_source(world.p1, "flix", values=True) == selectors.program_source(
        world.p1, "flix"
    )


def test_a_program_a_language_cannot_express_is_refused_with_why(world: World) -> None:
    # std's channels have no select.
    spec = get_target("rust-std")
    message = f"{spec.title} cannot express program {world.p3.id}"
    with pytest.raises(ValueError) as refused:
        selectors.program_source(world.p3, "rust-std")
    assert str(refused.value) == message
    assert selectors.program_source_problem(world.p3, "rust-std") == message
    assert selectors.program_source_problem(world.p1, "rust-std") == ""
    assert selectors.program_source_problem(world.p3, "go", values=True) == ""


def test_outcome_counts_per_campaign_come_from_the_kept_counts(world: World) -> None:
    counts = selectors.campaigns_outcome_counts([world.a.pk, world.b.pk, world.b.pk + 100])
    assert counts == {
        world.a.pk: {"timeout": 3, "terminated": 2, "crash": 1},
        world.b.pk: {"timeout": 1, "crash": 1},
        world.b.pk + 100: {},
    }
    assert selectors.campaigns_outcome_counts([]) == {}


# ---------------------------------------------------------------- orders, queries


def _at(row: Execution, minutes: int) -> None:
    Execution.objects.filter(pk=row.pk).update(created_at=T0 + timedelta(minutes=minutes))


def test_runs_are_newest_first_by_time_not_by_row(world: World) -> None:
    # The row written last ran first (a restored backup, a clock set back).
    _at(world.rows["b_go_0"], 1)
    assert _names(world, selectors.finding_executions(world.hang)) == [
        "a_go_3", "a_go_2", "a_go_0", "b_go_0",
    ]  # fmt: skip
    assert _names(world, selectors.program_executions(world.p1)) == [
        "a_cr_0", "a_go_2", "a_go_0", "b_go_0",
    ]  # fmt: skip


def test_reproductions_are_newest_first_by_time_not_by_row(world: World) -> None:
    first, second = _reproductions(world.p1, 2)
    Reproduction.objects.filter(pk=second.pk).update(created_at=T0)
    assert list(selectors.program_reproductions(world.p1)) == [first, second]


def test_a_programs_findings_go_by_when_they_were_seen_not_by_row(world: World) -> None:
    Finding.objects.filter(pk=world.other.pk).update(last_seen=T0)
    assert list(selectors.program_findings(world.p3)) == [world.hang, world.other]


def test_a_campaigns_findings_with_most_runs_there_come_first(world: World) -> None:
    for index in (2, 3):
        _run(f"b_go_{index}", world.b_go, index, world.p3, "crash", world.other, 40)
    assert [(f.signature, f.in_campaign) for f in selectors.campaign_findings(world.b)] == [
        ("go | crash | z", 3),
        ("go | hang | x", 1),
    ]


def test_hits_go_by_target_then_finding(world: World) -> None:
    _run("a_go_4", world.a_go, 4, world.p2, "crash", world.other, 20)
    # A finding's verdict with no finding linked (none made yet) is no hit.
    _run("a_go_5", world.a_go, 5, world.p2, "crash", None, 21)
    hits = selectors.campaign_finding_hits(world.a)
    assert [(h["target_id"], h["finding_id"]) for h in hits] == [
        (world.a_go.pk, world.hang.pk),
        (world.a_go.pk, world.other.pk),
        (world.a_crystal.pk, world.crash.pk),
    ]


def test_table_2_rows_go_by_heuristic_then_toolchain(world: World) -> None:
    older = CampaignTarget.objects.create(campaign=world.b, language="go", toolchain_id="go-1.21")
    _run("b_old_0", older, 0, world.p2, "timeout", world.hang, 35)
    rows = selectors.finding_hits_by_target(world.hang)
    assert [(r["campaign__heuristic"], r["target__toolchain_id"]) for r in rows] == [
        ("A", "go-1.22"),
        ("B", "go-1.21"),
        ("B", "go-1.23"),
    ]


def test_lists_read_their_related_rows_in_the_same_query(
    world: World,
    django_assert_num_queries,  # noqa: ANN001
) -> None:
    reduction = Reduction.objects.create(
        finding=world.hang, program=world.p1, reduced=world.p3, language="go",
        toolchain_id="go-1.22", signature=world.hang.signature, timeout_s=1.0, repetitions=1,
    )  # fmt: skip
    (reproduction,) = _reproductions(world.p1, 1)
    Execution.objects.create(
        reproduction=reproduction, program=world.p1, index=0, outcome="timeout",
        finding=world.hang,
    )  # fmt: skip
    Finding.objects.update(example=world.p1)
    reads = [
        (lambda: selectors.campaign_executions(world.a), ("program", "target")),
        (lambda: selectors.finding_executions(world.hang), ("program", "target", "campaign")),
        (lambda: selectors.program_executions(world.p1),
         ("target", "campaign", "finding", "reproduction")),
        (lambda: selectors.campaign_findings(world.a), ("example",)),
        (lambda: selectors.list_findings(), ("example",)),
        (lambda: selectors.finding_reductions(world.hang), ("program", "reduced")),
    ]  # fmt: skip
    for read, related in reads:
        with django_assert_num_queries(1):
            for row in read():
                for name in related:
                    getattr(row, name)
    with django_assert_num_queries(1):
        got = selectors.get_reduction(reduction.pk)
        assert (got.program, got.reduced, got.finding) == (world.p1, world.p3, world.hang)
    with django_assert_num_queries(1):
        assert selectors.get_reproduction(reproduction.pk).program == world.p1
    with django_assert_num_queries(1):
        assert selectors.get_finding(world.hang.pk).example == world.p1


def test_a_source_uses_the_options_of_the_release_asked_for(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    # kotlinx.coroutines 0.19 has its channels in the experimental package.
    asked: list[tuple[str, str | None]] = []
    old = Toolchain("kotlin", "0.19", "kotlin-0.19", "installed", Path("/x"), Path("/x/java"),
                    render=tuple(sorted(kotlin_render_options("0.19").items())))  # fmt: skip

    def find(language: str, version: str | None) -> Toolchain:
        asked.append((language, version))
        if version == "0.19":
            return old
        raise ToolchainUnavailable(f"{language} {version} is not installed")

    monkeypatch.setattr(selectors, "find_toolchain", find)
    spec = get_target("kotlin")
    program = program_object(world.p3)
    source = selectors.program_source(world.p3, "kotlin", version="0.19")
    assert "kotlinx.coroutines.experimental" in source
    assert source == spec.render(program, seed=world.p3.render_seed, **spec.source_options(old))
    assert source != selectors.program_source(world.p3, "kotlin", version="9.9")
    assert asked == [("kotlin", "0.19"), ("kotlin", "9.9")]
    assert selectors.program_source_problem(world.p3, "kotlin") == ""
    assert asked[-1] == ("kotlin", None)

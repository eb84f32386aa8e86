"""The regression fixture of issue #7: the shortest generated program that crashed
kotlinx.coroutines with the select stack overflow (Kotlin/kotlinx.coroutines#504).

tests/runners/fixtures/kotlin_select_overflow.json is written by
`manage.py kotlin_report` (step `fixture`) from runs on every release: the
releases where the program crashed are "buggy", those after the last buggy
one where it never crashed are "fixed". The slow tests keep that true on the
real releases: the program must crash the buggy releases (the crash is a race,
so it gets up to MAX_RUNS runs and passes at the first crash) and must not
crash a fixed one in FIXED_RUNS runs. They run on the few releases of
toolchains/kotlin/representative.txt, which scripts/test.sh installs: every
release is the report's sweep (`manage.py kotlin_report --steps install,fixture`).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from generator.effects import parse
from generator.settings import GeneratorSettings
from generator.termination import check_effect
from runners.campaigns.programs import build_from_effect, build_generated, render_seed_for
from runners.engine.bisect import runs_on
from runners.engine.sandbox import get_sandbox
from runners.engine.toolchains import version_key
from runners.kotlin_study.report import is_select_overflow
from runners.targets.kotlin_releases import kotlin_releases, representative_kotlin_releases
from tests.runners.conftest import require_toolchain

FIXTURE = json.loads(
    (Path(__file__).parents[1] / "fixtures" / "kotlin_select_overflow.json").read_text()
)
PROGRAM = FIXTURE["program"]
# Runs of the fixture program allowed per buggy release before the test fails.
# Each run repeats the body FIXTURE["repetitions"] times; see the rates in the
# fixture for how often one run crashes.
MAX_RUNS = 40
FIXED_RUNS = 3
REPRESENTATIVE = representative_kotlin_releases()


def fixture_program():
    if PROGRAM["source"] == "generated":
        built = build_generated(PROGRAM["seed"], GeneratorSettings(**PROGRAM["settings"]))
    else:
        built = build_from_effect(PROGRAM["effect"], PROGRAM["seed"])
    assert built.id == PROGRAM["id"], "the generator no longer builds the fixture program"
    return built


def test_fixture_program_is_rebuilt_byte_for_byte_and_terminates() -> None:
    built = fixture_program()
    assert built.lambda_text == PROGRAM["lambda"]
    assert check_effect(parse(PROGRAM["effect"])).terminating is True


def test_fixture_names_buggy_and_fixed_releases_in_order() -> None:
    assert FIXTURE["buggy"] and FIXTURE["fixed"]
    assert max(map(version_key, FIXTURE["buggy"])) < min(map(version_key, FIXTURE["fixed"]))


def test_the_representative_releases_hold_both_ends_and_both_sides_of_the_fix() -> None:
    every = [release.version for release in kotlin_releases()]
    assert set(REPRESENTATIVE) <= set(FIXTURE["buggy"]) | set(FIXTURE["fixed"])
    assert {every[0], every[-1]} <= set(REPRESENTATIVE)
    last_buggy = max(FIXTURE["buggy"], key=version_key)
    first_fixed = min(FIXTURE["fixed"], key=version_key)
    assert {last_buggy, first_fixed} <= set(REPRESENTATIVE)


def _runs(version: str, times: int, tmp_path: Path, *, stop_at_bad: bool):
    toolchain = require_toolchain("kotlin", version)
    workdir = tmp_path / "build"
    workdir.mkdir()
    workdir.chmod(0o755)
    return runs_on(
        fixture_program().program,
        toolchain,
        sandbox=get_sandbox("local"),
        times=times,
        repetitions=FIXTURE["repetitions"],
        timeout_s=FIXTURE["timeout_s"],
        matches=is_select_overflow,
        stop_at_bad=stop_at_bad,
        render_seed=render_seed_for(PROGRAM["id"]),
        workdir=workdir,
    )


@pytest.mark.slow
@pytest.mark.parametrize("version", [v for v in REPRESENTATIVE if v in FIXTURE["buggy"]])
def test_fixture_crashes_the_buggy_releases(version: str, tmp_path: Path) -> None:
    result = _runs(version, MAX_RUNS, tmp_path, stop_at_bad=True)
    assert result.bad_runs == 1, (
        f"kotlinx.coroutines {version}: no select stack overflow in {result.runs} runs "
        f"({result.errors} errors)"
    )


@pytest.mark.slow
@pytest.mark.parametrize("version", [v for v in REPRESENTATIVE if v in FIXTURE["fixed"]])
def test_fixture_passes_the_fixed_releases(version: str, tmp_path: Path) -> None:
    result = _runs(version, FIXED_RUNS, tmp_path, stop_at_bad=False)
    assert (result.bad_runs, result.errors) == (0, 0), (
        f"kotlinx.coroutines {version}: {result.bad_runs} bad and {result.errors} failed "
        f"runs of {result.runs}: {result.signatures}"
    )

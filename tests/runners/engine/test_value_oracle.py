"""The value oracle on every target that has it: runs on the real runtime pass it, and a
message on the wrong channel is a `wrong_value` finding signed by its kind.

The runtimes here deliver correctly, so the wrong message is made by editing the
program's table of which value each channel carries (value 1 said to travel on
a channel that does not exist): the receive of value 1 on c1 must then object.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from generator import effects
from generator.synthesis import synthesize
from runners.engine.build import build
from runners.engine.execute import execute_batch
from runners.engine.run_alone import run_one
from runners.engine.run_target import make_target
from runners.engine.sandbox import Limits, get_sandbox
from runners.engine.verdicts import Outcome
from runners.targets import get_target, runnable_names
from tests.runners.conftest import require_toolchain

pytestmark = pytest.mark.slow

ORACLE_TARGETS = [name for name in runnable_names() if get_target(name).value_oracle]
# Each select meets plain operations, never another select: a select's send meeting a
# select's receive on a rendezvous channel is chan 0.1.23's known hang (BurntSushi/chan#20,
# rust_chan.known_bugs), and this test is about values, not that bug.
EFFECT = "Spawn(Put(c1)) ; Spawn(SelPut(c2, eps) (+) SelGet(c3, eps)) ; " \
    "Spawn(SelGet(c4, eps) (+) SelPut(c5, eps)) ; Get(c1) ; Get(c2) ; Put(c4)"  # fmt: skip
PLAIN_EFFECT = "Spawn(Put(c1)) ; Spawn(Get(c2)) ; Get(c1) ; Put(c2)"


def test_the_targets_that_check_values_include_the_main_ones() -> None:
    assert {"go", "kotlin", "crystal"} <= set(ORACLE_TARGETS)


@pytest.mark.parametrize("language", ORACLE_TARGETS)
def test_a_message_on_the_wrong_channel_is_a_wrong_value(language: str, tmp_path: Path) -> None:
    require_toolchain(language)
    target = make_target(language, repetitions=2)
    assert dict(target.render_options)["values"] is True
    # A target without select (std's sync_channel) gets the same program without them.
    effect = EFFECT if get_target(language).capabilities.select else PLAIN_EFFECT
    program = synthesize(effects.parse(effect), random.Random(0))
    # quiet_s: a hang (a regression) fails in seconds, not after the timeout and its re-run.
    sandbox, limits = get_sandbox("local"), Limits(timeout_s=60, quiet_s=10)
    report = execute_batch([program], target, workdir=tmp_path / "ok", sandbox=sandbox,
                           limits=limits)  # fmt: skip
    assert report.executions[0].outcome is Outcome.TERMINATED, report.executions[0]

    source = target.spec.render_batch([program], repetitions=2, **dict(target.render_options))
    # Separated by a comma, or by a space alone where a comma is no separator (Racket).
    wrong, found = re.subn(r'"",? "c1"', lambda m: m[0].replace('"c1"', '"c9"'), source)
    assert found == 1, "the value table starts with value 0 (none), then c1"
    # Cached (by source): an artifact in the cache is where the sandbox's user can read it.
    artifact = build(target.toolchain, wrong, tmp_path / "wrong", flags=target.build_flags)
    result = run_one(target, artifact, 0, sandbox=sandbox, limits=limits)
    assert result.outcome is Outcome.WRONG_VALUE, result
    assert result.classification.signature == (
        f"{language} | wrong value | received from the wrong channel (by a receive)"
    )
    assert "value 1 sent on c9 received on c1" in result.classification.reason

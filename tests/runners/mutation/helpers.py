"""What the mutant tests share: running one program of a given effect on a toolchain."""

from __future__ import annotations

import random
from pathlib import Path

from generator.effects import parse
from generator.synthesis import synthesize
from runners.engine.execute import execute_batch
from runners.engine.run_target import target_for
from runners.engine.sandbox import Limits, get_sandbox
from runners.targets.base import Toolchain


def run_effect(toolchain: Toolchain, text: str, tmp_path: Path, *, values: bool = False) -> str:
    """The outcome of the program of `text` (synthesised with seed 0), 20 repetitions."""
    program = synthesize(parse(text), random.Random(0))
    report = execute_batch(
        [program], target_for(toolchain, repetitions=20, values=values),
        workdir=tmp_path / "effect", sandbox=get_sandbox("local"),
        limits=Limits(timeout_s=10, quiet_s=2),
    )  # fmt: skip
    return report.executions[0].outcome.value

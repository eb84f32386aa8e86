"""The thread count of a perturbed run: the other half of schedule perturbation.

Under PCT (`pct_depth`, generator.render._common.perturb) a program yields at change
points; its run also gets a number of runtime threads of its own (Go's GOMAXPROCS,
Crystal's workers, Kotlin's dispatcher pool, tokio's workers: each target says how
in `TargetSpec.threads_env`), so that programs of one campaign run with 1 to 8
threads. The count is drawn from the program and the depth alone, like the change
points: the same program at the same depth runs with the same count in a batch, in
a triage re-run and in a reproduction, so a finding reproduces with its schedule.
"""

from __future__ import annotations

import random

from generator.lambda_chan import Program

THREAD_CHOICES = (1, 2, 3, 4, 8)


def threads_for(program: Program, depth: int) -> int:
    """The runtime threads `program` runs with at PCT depth `depth`."""
    return random.Random(f"chanfuzz threads {depth} {program!r}").choice(THREAD_CHOICES)

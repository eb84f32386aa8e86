"""Shared runs: several programs of a built batch in one process, one after another, each
marking its end on stdout and judged from its share of the output (execute's step 3).

Where a process start costs more than most programs' runs (a JVM, Racket, a Go or Rust
binary in the sandbox: TargetSpec.group_runs), a batch's programs share runs. This module
owns one such run (run_group) and how large the next one may grow (next_group_size,
SharedRunSize); runners.engine.execute decides what runs when.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from generator.render import GROUP_DONE
from runners import config
from runners.engine.build import Artifact
from runners.engine.run_alone import sandbox_binds, target_limits
from runners.engine.run_records import Attempt, ProgramRun, Stages
from runners.engine.run_target import RunTarget
from runners.engine.sandbox import Limits, Sandbox, SandboxError
from runners.engine.verdicts import Outcome, classify_run
from runners.targets.base import SHARED_QUIET_S


def shared_run_limits(limits: Limits, quiet_s: float = SHARED_QUIET_S) -> Limits:
    """The limits of a shared run: a quiet period of at most `quiet_s` (the target's
    `shared_quiet_s`). A shared run blocked that long only says where to split the batch:
    the program it stopped in is judged by a run of its own, under `limits` (a program
    blocked for a moment and then ended is judged as ended there), while the batch goes
    on. A watch that only notes when a run went quiet (the false-hang bench) keeps its
    period."""
    if limits.quiet_s is None or limits.quiet_witness or limits.quiet_s <= quiet_s:
        return limits
    return replace(limits, quiet_s=quiet_s)


def shares_runs(target: RunTarget, size: int) -> bool:
    """Whether the programs of a batch on `target` share runs, `size` at first."""
    # A perturbed run gets a thread count of its own program's (run_one): not shareable.
    perturbed = "pct_depth" in dict(target.render_options) and target.spec.threads_env
    return target.spec.group_runs and not perturbed and size > 1


def marked(stdout: str) -> tuple[dict[int, str], str]:
    """What each program of a shared run printed, by its position, for those that ran
    to their end (their GROUP_DONE mark), and what follows the last mark: the output of
    the program the run stopped in."""
    shares: dict[int, str] = {}
    text = ""
    for line in stdout.splitlines(keepends=True):
        index = line[len(GROUP_DONE) :].strip()
        if line.startswith(GROUP_DONE) and index.isdigit():
            shares[int(index)] = text
            text = ""
        else:
            text += line
    return shares, text


@dataclass(frozen=True)
class GroupRun:
    """What a shared run judged: the verdicts of its leading programs, by position; the
    program it stopped in without a verdict, which must run alone (None: none); whether
    the next group may share a run (False: its output could not be told apart); whether
    the run was cut by its time limit or quiet period (a hang, most likely), and by which;
    and how long it took."""

    runs: dict[int, ProgramRun]
    alone: int | None = None
    shareable: bool = True
    hung: bool = False
    duration_s: float = 0.0
    quiet: bool = False  # cut by its quiet period: every process blocked, no core used


# How far shared runs grow: up to this many times CHANFUZZ_SHARED_RUN_SIZE.
GROWTH = 8


@dataclass
class SharedRunSize:
    """How many programs the next shared run of a target takes, carried from one batch to
    the next (`fuzz`'s batches of one target; a campaign's chunks, through
    runners.campaigns.chunk_sizing.shared_runs_for): a batch then starts where the runs of
    the one before grew to, not again at CHANFUZZ_SHARED_RUN_SIZE. Without one, each batch
    starts at that size."""

    size: int = field(default_factory=config.shared_run_size)


# The share of the time limit a shared run may be expected to take. Programs' runs vary
# (a few take ten times the median), and a shared run cut by its limit costs the rest of
# its batch its sharing (execute._run_built), so the groups stay well inside it.
GROUP_TIME_SHARE = 0.5


def next_group_size(
    size: int, *, programs: int, duration_s: float, timeout_s: float, least: int, most: int
) -> int:
    """The size of the shared run after one of `programs` programs (`size` of them, or
    fewer at a batch's end) that all ended cleanly in `duration_s`.

    The run's time scaled to the programs counts its start again with every program, so
    it errs long: twice `size` (at most `most`) when that says twice `size` programs fit
    in GROUP_TIME_SHARE of `timeout_s`; half `size`, but never fewer than `least` (the
    configured size), when not even `size` do; else `size`. So a run never grows towards
    its limit on a guess, and never shrinks below where it started: where the start is
    most of a run (a JVM in a container on a loaded machine) a smaller run would take
    hardly less time and pay the start more often (sizes shrinking to 2 took `fuzz` on
    Clojure in the docker sandbox from 0.1 s a program to 1.5 s).

    Why grow: a run's start (a sandboxed process; a JVM with Clojure, ~1.3 s) is paid once
    a group, and with groups of 25 it was 6 % of a Go program's cost and two fifths of a
    Clojure-threads one's (bench/throughput.py). Why not start large: a group's time is only
    known once one has run, and a batch of slow programs must not meet its limit."""
    budget = GROUP_TIME_SHARE * timeout_s
    per_program = duration_s / programs
    if per_program * size > budget:
        return max(least, size // 2)
    if per_program * 2 * size <= budget:
        return min(2 * size, most)
    return size


def first_group_size(shared_runs: SharedRunSize | None, configured: int) -> int:
    """The size of a batch's first shared run: where the runs before grew to, within what
    runs may grow to from `configured` (CHANFUZZ_SHARED_RUN_SIZE). A size carried from a
    chunk that ran under another configured size starts within this one's bounds."""
    if shared_runs is None:
        return configured
    return min(max(shared_runs.size, configured), GROWTH * configured)


def run_group(
    target: RunTarget,
    artifact: Artifact,
    positions: Sequence[int],
    *,
    sandbox: Sandbox,
    limits: Limits,
    stages: Stages,
) -> GroupRun:
    """Programs `positions` of a built batch in one run, one after another (the
    module docstring). Each that ran to its end is judged from its share of the output.
    A crash ends the process, so a run that exited early failed in the first program
    with no mark: its output is that program's, and judges it. A run cut by the time
    limit judges no more: whose the time was is not known, so that program runs alone
    (with its own limit, dump and re-runs). Nor does a run whose marks are all there
    but whose whole output is not a clean exit (a warning on stderr, say)."""
    started = time.perf_counter()
    try:
        result = sandbox.run(
            artifact.argv(*positions),
            binds=sandbox_binds(target.toolchain, artifact),
            env=dict(target.spec.run_env) or None,
            limits=target_limits(
                target.spec, shared_run_limits(limits, target.spec.shared_quiet_s)
            ),
        )
    except SandboxError:
        return GroupRun({}, shareable=False)
    ran = time.perf_counter()
    stages.run_s += ran - started
    stages.runs += 1
    if result.out_of_time and not result.quiet:
        stages.out_of_time_s += ran - started
    shares, tail = marked(result.stdout)
    language = target.language
    n = len(positions)
    clean = None  # the verdict of a run whose every program ran to its end
    if len(shares) == n and result.exit_code == 0:
        clean = classify_run(
            language, exit_code=0, signal=None, timed_out=False,
            stdout="".join(shares.values()), stderr=result.stderr,
        )  # fmt: skip
        if clean.outcome is not Outcome.TERMINATED:
            return GroupRun({}, shareable=False)
    runs: dict[int, ProgramRun] = {}
    share_s = result.duration_s / n
    for position in positions:
        if position in shares:
            # Each judged on its own share, unless the whole run was read as clean already.
            verdict = clean or classify_run(
                language, exit_code=0, signal=None, timed_out=False,
                stdout=shares[position], stderr="",
            )  # fmt: skip
            attempt = Attempt(
                limits.timeout_s, verdict.outcome, 0, None, False, share_s,
                shares[position], "", None, group=n,
            )  # fmt: skip
            runs[position] = ProgramRun(position, verdict, (attempt,))
            continue
        # The first program with no mark: the one the run stopped in.
        verdict = None
        if not result.out_of_time and (result.exit_code != 0 or result.signal is not None):
            verdict = classify_run(
                language, exit_code=result.exit_code, signal=result.signal, timed_out=False,
                stdout=tail, stderr=result.stderr,
            )  # fmt: skip
        stages.verdict_s += time.perf_counter() - ran
        if verdict is None or verdict.outcome in (Outcome.TERMINATED, Outcome.INFRA_ERROR):
            return GroupRun(
                runs,
                alone=position,
                hung=result.out_of_time,
                quiet=result.out_of_time and result.quiet,
            )
        attempt = Attempt(
            limits.timeout_s, verdict.outcome, result.exit_code, result.signal, False,
            share_s, tail, result.stderr, None, group=n,
        )  # fmt: skip
        runs[position] = ProgramRun(position, verdict, (attempt,))
        return GroupRun(runs)
    stages.verdict_s += time.perf_counter() - ran
    return GroupRun(runs, duration_s=result.duration_s)

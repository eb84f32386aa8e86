"""Reduce a failing program: the smallest effect that still fails the same way, as often.

The search (generator.reduction) offers smaller effects proved terminating; this
module decides, by running them, which still fail:

1. The original program is run `baseline_runs` times to measure its failure
   rate p̂ with the bug asked for (a finding's signature; `same_bug`). Nothing
   is reduced if it never fails: there is nothing to keep.
2. Each candidate is compiled once and run in parallel batches until a
   `RateTest` decides, at confidence 1 − α, whether it fails at a rate of at
   least `keep_ratio` × p̂. Only "keeps" counts: a candidate that passed a few
   runs by luck, or whose rate cannot be told apart, is not taken.
3. The first candidate that keeps the failure becomes the current effect, and
   the search starts again from it (greedy, largest cut first), until no
   candidate keeps it (a local minimum: no single edit can be taken) or the
   budget (candidates run, wall time) is spent.
4. The result is measured again with `baseline_runs` runs, so the rates before
   and after are the same experiment.

The state after every candidate is handed to `on_state`, and a `ReductionState`
given back resumes there; `should_stop` is asked between candidates and between
batches of runs (a cancelled reduction keeps what it had).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path

from generator import effects as fx
from generator.lambda_chan import Program
from generator.reduction import CANDIDATE_MAX_STATES, Candidate, candidates, canonical_names
from generator.synthesis import synthesize
from generator.termination import behaviour, check_effect
from generator.typecheck import infer
from runners.engine.build import Artifact, CompileError, build, scratch
from runners.engine.rates import DEFAULT_CHECKPOINTS, Decision, RateTest
from runners.engine.run_alone import Triage, run_one
from runners.engine.run_target import RunTarget
from runners.engine.sandbox import Limits, Sandbox
from runners.engine.verdicts import same_bug


def effect_of(program: Program) -> fx.Effect:
    """The program's type-and-effect: its choices kept, as it was generated."""
    return infer(program)[1]


class ReductionError(RuntimeError):
    """Nothing can be reduced (the original does not fail, or does not compile)."""


class _Stopped(Exception):
    pass


@dataclass(frozen=True)
class Budget:
    max_candidates: int = 200  # candidates run (the checker's rejections are free)
    max_seconds: float = 3600.0


@dataclass(frozen=True)
class Step:
    """A candidate that was run, and what its runs showed."""

    description: str
    effect_text: str
    size: int
    runs: int
    failures: int
    decision: str  # runners.engine.rates.Decision, or "compile error" / "unsupported"

    @property
    def kept(self) -> bool:
        return self.decision == Decision.KEEPS

    def as_dict(self) -> dict[str, object]:
        return {
            "description": self.description,
            "effect": self.effect_text,
            "size": self.size,
            "runs": self.runs,
            "failures": self.failures,
            "decision": self.decision,
        }

    @classmethod
    def from_dict(cls, d: dict) -> Step:
        return cls(d["description"], d["effect"], d["size"], d["runs"], d["failures"],
                   d["decision"])  # fmt: skip


@dataclass(frozen=True)
class ReductionState:
    """Where a reduction is: enough to resume it, and to show it."""

    original_text: str
    original_size: int
    baseline_runs: int
    baseline_failures: int
    current_text: str
    tried: tuple[Step, ...] = ()
    elapsed_s: float = 0.0
    done: bool = False
    final_runs: int = 0
    final_failures: int = 0
    stop_reason: str = ""

    @property
    def current_size(self) -> int:
        return fx.size(fx.parse(self.current_text))

    @property
    def accepted(self) -> tuple[Step, ...]:
        return tuple(s for s in self.tried if s.kept)

    @property
    def baseline_rate(self) -> float:
        return self.baseline_failures / self.baseline_runs if self.baseline_runs else 0.0

    def as_dict(self) -> dict[str, object]:
        return {
            "original": self.original_text,
            "original_size": self.original_size,
            "baseline_runs": self.baseline_runs,
            "baseline_failures": self.baseline_failures,
            "current": self.current_text,
            "current_size": self.current_size,
            "tried": [s.as_dict() for s in self.tried],
            "elapsed_s": round(self.elapsed_s, 1),
            "done": self.done,
            "final_runs": self.final_runs,
            "final_failures": self.final_failures,
            "stop_reason": self.stop_reason,
        }

    @classmethod
    def from_dict(cls, d: dict) -> ReductionState:
        return cls(
            original_text=d["original"],
            original_size=d["original_size"],
            baseline_runs=d["baseline_runs"],
            baseline_failures=d["baseline_failures"],
            current_text=d["current"],
            tried=tuple(Step.from_dict(s) for s in d.get("tried", [])),
            elapsed_s=d.get("elapsed_s", 0.0),
            done=d.get("done", False),
            final_runs=d.get("final_runs", 0),
            final_failures=d.get("final_failures", 0),
            stop_reason=d.get("stop_reason", ""),
        )


@dataclass
class Reducer:
    """Reduce one program's failure with `signature` on `target`."""

    target: RunTarget
    sandbox: Sandbox
    signature: str
    seed: int  # programs are synthesised from effects with Random(seed)
    # The render seed of each program run (the site renders a program with one derived
    # from its id: pass that, so a reduced program runs here as its page shows it).
    render_seed_of: Callable[[Program], int] = lambda _program: 0
    timeout_s: float = 10.0
    # A run blocked this long is hung then (Limits.quiet_s): a hang's reduction waits the
    # quiet period a run, not the whole limit. None: the limit.
    quiet_s: float | None = None
    baseline_runs: int = 16
    keep_ratio: float = 0.5
    alpha: float = 0.05
    checkpoints: tuple[int, ...] = DEFAULT_CHECKPOINTS
    jobs: int = 2
    budget: Budget = field(default_factory=Budget)
    on_state: Callable[[ReductionState], None] | None = None
    should_stop: Callable[[], bool] | None = None
    _latest: ReductionState | None = field(default=None, init=False, repr=False)

    # ------------------------------------------------------------ running

    def program_of(self, effect: fx.Effect) -> Program:
        return synthesize(effect, random.Random(self.seed))

    def _build(self, program: Program, workdir: Path) -> Artifact:
        """CompileError when it does not build."""
        options = dict(self.target.render_options)
        source = self.target.spec.render_batch(
            [program],
            seed=self.render_seed_of(program),
            repetitions=self.target.repetitions,
            **options,
        )
        return build(self.target.toolchain, source, workdir, flags=self.target.build_flags)

    def _runs(
        self, program: Program, wanted: Callable[[int, int], int], workdir: Path
    ) -> tuple[int, int]:
        """Run `program` while `wanted(failures, runs)` asks for more runs: (failures, runs).

        Runs go in parallel batches of at most `jobs`, never past what was asked,
        so a rate test looks exactly at its checkpoints. CompileError when it does
        not build.
        """
        artifact = self._build(program, workdir)
        limits = Limits(timeout_s=self.timeout_s, quiet_s=self.quiet_s)
        failures = runs = 0
        with ThreadPoolExecutor(max_workers=self.jobs) as pool:
            while (more := wanted(failures, runs)) > 0:
                if self.should_stop and self.should_stop():
                    raise _Stopped
                batch = [
                    pool.submit(
                        run_one,
                        self.target,
                        artifact,
                        0,
                        sandbox=self.sandbox,
                        limits=limits,
                        triage=Triage(retries=0),
                        program=program,  # its own thread count, under perturbation
                    )  # fmt: skip
                    for _ in range(min(more, self.jobs))
                ]
                for future in batch:
                    verdict = future.result().classification
                    runs += 1
                    failures += verdict.is_finding and same_bug(self.signature, verdict.signature)
        return failures, runs

    def measure(self, effect: fx.Effect, workdir: Path, times: int) -> tuple[int, int]:
        return self._runs(self.program_of(effect), lambda _f, r: times - r, workdir)

    def _test(self, effect: fx.Effect, test: RateTest, workdir: Path) -> tuple[int, int, Decision]:
        decision = Decision.MORE

        def wanted(failures: int, runs: int) -> int:
            nonlocal decision
            decision = test.decide(failures, runs) if runs else Decision.MORE
            return test.next_checkpoint(runs) - runs if decision is Decision.MORE else 0

        failures, runs = self._runs(self.program_of(effect), wanted, workdir)
        return failures, runs, decision

    # ------------------------------------------------------------ the search

    def start(self, program: Program, workdir: Path) -> ReductionState:
        """The baseline: the original program's rate (ReductionError if it never fails)."""
        try:
            failures, runs = self._runs(program, lambda _f, r: self.baseline_runs - r, workdir)
        except CompileError as exc:
            raise ReductionError(f"the original does not compile: {exc}") from exc
        if failures == 0:
            raise ReductionError(
                f"the original program did not fail with {self.signature!r} in {runs} runs"
                f" ({self.timeout_s:g} s limit, {self.target.repetitions} repetitions):"
                " nothing to keep; reproduce it first, or give more runs or repetitions"
            )
        text = fx.to_text(effect_of(program))
        return ReductionState(
            original_text=text,
            original_size=fx.size(effect_of(program)),
            baseline_runs=runs,
            baseline_failures=failures,
            current_text=text,
        )

    def rate_test(self, state: ReductionState) -> RateTest:
        return RateTest(
            threshold=max(1e-6, self.keep_ratio * state.baseline_rate),
            alpha=self.alpha,
            checkpoints=self.checkpoints,
        )

    def run(self, program: Program, state: ReductionState | None = None) -> ReductionState:
        """Reduce `program` (or resume `state`) until a local minimum, the budget or a stop."""
        began = time.monotonic()
        self._latest = None
        with scratch("chanfuzz-reduce-") as tmp:
            root = Path(tmp)
            root.chmod(0o755)  # the sandbox's user reaches uncached artifacts here
            if state is None:
                state = self.start(program, self._workdir(root, "original"))
                self._publish(state)
            spent = state.elapsed_s
            try:
                state = self._search(program, state, root, began, spent)
                if state.current_text == state.original_text:
                    failures, runs = state.baseline_failures, state.baseline_runs
                else:
                    failures, runs = self.measure(
                        fx.parse(state.current_text),
                        self._workdir(root, "final"),
                        state.baseline_runs,
                    )
                state = replace(state, final_runs=runs, final_failures=failures,
                                elapsed_s=spent + time.monotonic() - began)  # fmt: skip
            except _Stopped:
                # Stopped deep inside the search: go on from the last state it published.
                state = replace(self._latest or state, stop_reason="stopped",
                                elapsed_s=spent + time.monotonic() - began)  # fmt: skip
            self._publish(state)
            return state

    def _candidates(self, program: Program, state: ReductionState) -> Iterator[Candidate]:
        current = fx.parse(state.current_text)
        if state.current_text == state.original_text:
            # The biggest cut first: the branches the program never takes.
            decided = behaviour(program)
            if fx.to_text(decided) != state.current_text:
                yield Candidate("decide every `if` as the program runs it", decided)
        yield from candidates(current)

    def _search(
        self, program: Program, state: ReductionState, root: Path, began: float, spent: float
    ) -> ReductionState:
        test = self.rate_test(state)
        tried = {s.effect_text for s in state.tried}

        def elapsed() -> float:
            return spent + time.monotonic() - began

        while True:
            for candidate in self._candidates(program, state):
                if candidate.text in tried:
                    continue
                state = self._step(candidate, state, test, root, tried, elapsed)
                if state.done or state.tried[-1].kept:
                    break
            else:
                # No edit kept the failure: last, the cosmetic renaming, a candidate like
                # the others (the same budget, the same stop).
                renaming = self._renaming(state, tried)
                if renaming is not None:
                    state = self._step(renaming, state, test, root, tried, elapsed)
                if state.done:
                    return state
                return replace(state, done=True, stop_reason="no single edit keeps the failure")
            if state.done:
                return state

    def _step(
        self,
        candidate: Candidate,
        state: ReductionState,
        test: RateTest,
        root: Path,
        tried: set[str],
        elapsed: Callable[[], float],
    ) -> ReductionState:
        """Run `candidate` and publish the state after it; the state done, and the
        candidate not run, when the budget is spent. The time spent is set on a done
        state by run(), once the result is measured."""
        if len(state.tried) >= self.budget.max_candidates:
            return replace(state, done=True, stop_reason="candidate budget spent")
        if elapsed() >= self.budget.max_seconds:
            return replace(state, done=True, stop_reason="time budget spent")
        if self.should_stop and self.should_stop():
            raise _Stopped
        tried.add(candidate.text)
        state = self._take(candidate, state, test, root)
        state = replace(state, elapsed_s=elapsed())
        self._publish(state)
        return state

    def _renaming(self, state: ReductionState, tried: set[str]) -> Candidate | None:
        """The channels named c1, c2, … in order, unless they are, or it was tried."""
        renamed = canonical_names(fx.parse(state.current_text))
        if renamed is None or fx.to_text(renamed) in tried:
            return None
        # Like every candidate: offered only when proved terminating (an effect fed in
        # that deadlocks by itself is never "reduced").
        if check_effect(renamed, max_states=CANDIDATE_MAX_STATES).terminating is not True:
            return None
        return Candidate("name the channels c1, c2, … in order", renamed)

    def _take(
        self, candidate: Candidate, state: ReductionState, test: RateTest, root: Path
    ) -> ReductionState:
        """Run `candidate`; the state with its step, and with it as the current effect if kept."""
        step = self._try(candidate, test, self._workdir(root, f"c{len(state.tried)}"))
        state = replace(state, tried=(*state.tried, step))
        if step.kept:
            state = replace(state, current_text=candidate.text)
        return state

    def _try(self, candidate: Candidate, test: RateTest, workdir: Path) -> Step:
        program = self.program_of(candidate.effect)
        if not self.target.spec.supports(program, **dict(self.target.render_options)):
            return Step(candidate.description, candidate.text, candidate.size, 0, 0, "unsupported")
        try:
            failures, runs, decision = self._test(candidate.effect, test, workdir)
        except CompileError:
            return Step(candidate.description, candidate.text, candidate.size, 0, 0,
                        "compile error")  # fmt: skip
        return Step(candidate.description, candidate.text, candidate.size, runs, failures,
                    str(decision))  # fmt: skip

    @staticmethod
    def _workdir(root: Path, name: str) -> Path:
        path = root / name  # a name used once: "original", "c<step>", "final"
        path.mkdir()
        path.chmod(0o755)
        return path

    def _publish(self, state: ReductionState) -> None:
        self._latest = state
        if self.on_state:
            self.on_state(state)


__all__ = ["Budget", "ReductionError", "ReductionState", "Reducer", "Step"]

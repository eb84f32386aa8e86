"""Bisection across releases: on which toolchain versions does a program show its bug?

`bisect_program` runs one program on every installed toolchain of a language,
oldest first, several times each (`runs_on`: one compile, then the runs), and
calls a version *bad* when any run is a finding (crash or timeout; with
`signature` or `matches`, only the finding asked for counts).
`boundary` turns the per-version results into the answer a bug report wants:
the last bad release and the first good one after it. Races show only in some
runs, so "good" means "not seen in `times` runs", and the result says so.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from generator.lambda_chan import Program
from runners.engine.build import CompileError, build, scratch
from runners.engine.run_alone import Triage, run_one
from runners.engine.run_target import target_for
from runners.engine.sandbox import Limits, Sandbox
from runners.engine.toolchains import Toolchain, installed_toolchains, version_key


@dataclass(frozen=True)
class VersionResult:
    toolchain_id: str
    version: str
    runs: int
    bad_runs: int
    signatures: tuple[str, ...]  # of the bad runs, distinct, in order seen
    errors: int = 0  # compile or infrastructure errors: neither bad nor good

    @property
    def bad(self) -> bool:
        return self.bad_runs > 0

    @property
    def decided(self) -> bool:
        return self.bad or self.errors == 0


@dataclass(frozen=True)
class Bisection:
    language: str
    results: tuple[VersionResult, ...]
    last_bad: VersionResult | None
    first_good: VersionResult | None
    # What made a run bad, for the finding's page: "" when not said (the study's own).
    counted: str = ""

    def summary(self) -> str:
        if self.last_bad is None:
            return "not seen on any version tried"
        if self.first_good is None:
            return f"seen up to the newest version tried ({self.last_bad.version})"
        return f"last bad {self.last_bad.version}, first good {self.first_good.version}"

    def as_dict(self) -> dict[str, object]:
        return {
            "language": self.language,
            "summary": self.summary(),
            "last_bad": self.last_bad.version if self.last_bad else None,
            "first_good": self.first_good.version if self.first_good else None,
            "counted": self.counted,
            "results": [
                {
                    "toolchain": r.toolchain_id,
                    "version": r.version,
                    "runs": r.runs,
                    "bad_runs": r.bad_runs,
                    "errors": r.errors,
                    "signatures": list(r.signatures),
                }
                for r in self.results
            ],
        }


def boundary(results: Sequence[VersionResult]) -> tuple[VersionResult | None, VersionResult | None]:
    """(last bad, first good after it) over results sorted oldest first.

    Versions whose runs all failed to compile or run decide nothing and are
    skipped; the first good is the first decided, not-bad version after the
    last bad one.
    """
    last_bad_index = max((i for i, r in enumerate(results) if r.bad), default=None)
    if last_bad_index is None:
        return None, None
    first_good = next((r for r in results[last_bad_index + 1 :] if r.decided and not r.bad), None)
    return results[last_bad_index], first_good


def runs_on(
    program: Program,
    toolchain: Toolchain,
    *,
    sandbox: Sandbox,
    times: int,
    repetitions: int = 1000,
    timeout_s: float = 30.0,
    quiet_s: float | None = None,
    signature: str | None = None,
    matches: Callable[[str], bool] | None = None,
    stop_at_bad: bool = False,
    render_seed: int = 0,
    workdir: Path,
) -> VersionResult:
    """Compile `program` once for `toolchain` and run it up to `times` times.

    A run is bad when it is a finding with `signature` (any finding when None)
    and, with `matches`, a signature `matches` accepts (one bug can have
    several signatures: both sides of a recursion, a package renamed).
    `stop_at_bad` ends at the first bad run (a regression check needs one).
    `quiet_s` declares a run hung once it is blocked that long (Limits.quiet_s).
    A program that does not compile counts as `times` errors.
    """
    target = target_for(toolchain, repetitions=repetitions)
    source = target.spec.render_batch(
        [program],
        seed=render_seed,
        repetitions=target.repetitions,
        **dict(target.render_options),
    )
    try:
        artifact = build(toolchain, source, workdir, flags=target.build_flags)
    except CompileError:
        return VersionResult(toolchain.id, toolchain.version, times, 0, (), errors=times)
    seen: dict[str, None] = {}
    bad = errors = runs = 0
    for _ in range(times):
        runs += 1
        verdict = run_one(
            target, artifact, 0, sandbox=sandbox,
            limits=Limits(timeout_s=timeout_s, quiet_s=quiet_s),
            triage=Triage(retries=0),
        ).classification  # fmt: skip
        if (
            verdict.is_finding
            and (signature is None or verdict.signature == signature)
            and (matches is None or matches(verdict.signature))
        ):
            bad += 1
            seen.setdefault(verdict.signature, None)
            if stop_at_bad:
                break
        elif not verdict.is_finding and verdict.outcome.value != "terminated":
            errors += 1
    return VersionResult(toolchain.id, toolchain.version, runs, bad, tuple(seen), errors)


def bisect_program(
    program: Program,
    language: str,
    *,
    sandbox: Sandbox,
    times: int = 5,
    repetitions: int = 1000,
    timeout_s: float = 30.0,
    quiet_s: float | None = None,
    signature: str | None = None,
    matches: Callable[[str], bool] | None = None,
    stop_at_bad: bool = False,
    toolchains: Sequence[Toolchain] | None = None,
    on_result: Callable[[VersionResult], None] | None = None,
    give_up: Callable[[VersionResult], bool] | None = None,
    counted: str = "",
) -> Bisection:
    """Run `program` `times` times on each toolchain (default: every installed release).

    What counts as bad, and `stop_at_bad`: see `runs_on`. `give_up` ends the
    bisection after the first result it accepts (the results so far are kept).
    """
    # Releases only: a mutant toolchain (runners.mutation) shares its base's version.
    releases = [t for t in installed_toolchains(language) if t.origin != "mutant"]
    chosen = sorted(
        toolchains if toolchains is not None else releases,
        key=lambda t: (version_key(t.version), t.id),
    )
    results = []
    with scratch("chanfuzz-bisect-") as tmp:
        for toolchain in chosen:
            workdir = Path(tmp) / toolchain.id
            workdir.mkdir(parents=True)
            workdir.chmod(0o755)
            result = runs_on(
                program, toolchain, sandbox=sandbox, times=times, repetitions=repetitions,
                timeout_s=timeout_s, quiet_s=quiet_s, signature=signature, matches=matches,
                stop_at_bad=stop_at_bad, workdir=workdir,
            )  # fmt: skip
            results.append(result)
            if on_result:
                on_result(result)
            if give_up is not None and give_up(result):
                break
    last_bad, first_good = boundary(results)
    return Bisection(language, tuple(results), last_bad, first_good, counted)


__all__ = ["Bisection", "VersionResult", "bisect_program", "boundary", "runs_on"]

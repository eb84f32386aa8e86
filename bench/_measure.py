"""Shared by the throughput benchmarks: naive (one compile per program) vs batched runs,
and where each one's time goes.

Both ways go through runners.engine.execute with the same sandbox and the artifact
cache off, so the only difference is how many programs share a compile. Each is split
into the stages a program goes through (issue #18):

- generation: `generate_program` (effect, λ_chan synthesis);
- checking: the termination checker on the program's effect (a campaign's programs
  are terminating by construction; the playground and `verify` run it, and
  `--buffered` programs need it);
- rendering, compiling, running and verdicts: execute_batch's own `Stages`;
- start-up: the runs' share spent starting a sandbox and the runtime, measured as the
  mean run of a program that does nothing (`Put(c1)` answered at once: the
  smallest program) in a process of its own, times the runs (a run shared by several
  programs, on the targets that share them, counts once); running is the rest, but for
- out of time: runs their time limit cut while they used a core (a spin, or a program
  too slow) and their re-runs with a longer limit (`Stages.out_of_time_s`): SPEC §9's
  triage, which no batching shortens (ours also pays the shared run the spin stopped
  in). One spin among 600 chan programs cost ours 151 s (30 s shared, 30 s alone, 90 s
  of re-runs), ten times its other 599 programs, so a sample that met one and a sample
  that met none compare badly: the bench also says what both loops reach without it;
- storing: recording the programs and verdicts into a SQLite database as a campaign's
  chunk job does (`store_programs`, `record_executions`, a finding alone with
  `record_execution`), in a throwaway var dir.

Hangs weigh on the naive loop as spins do, if less: each blocked hang costs it a quiet
period, a dump and two re-runs, and a sample of 30 to 100 programs meets few of them, so
the bench also prices the naive loop's hung and other programs apart and weighs them as
often as ours met hangs (`at_ours_hang_share`).

Seeds come from the caller (`seed`, a fresh one each run by default): a compiler that
caches by content (Go's build cache, cargo's target directory) would otherwise serve a
repeated run's batches, and the figure would not be a campaign's, whose programs are new.
"""

from __future__ import annotations

import atexit
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from unittest import mock

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from generator.effects import parse  # noqa: E402
from generator.pipeline import generate_program  # noqa: E402
from generator.settings import settings_for  # noqa: E402
from generator.synthesis import synthesize  # noqa: E402
from generator.termination import check_effect  # noqa: E402
from runners.engine.batching import BatchSizer  # noqa: E402
from runners.engine.build import scratch  # noqa: E402
from runners.engine.execute import execute_batch
from runners.engine.run_records import ProgramRun
from runners.engine.run_target import make_target
from runners.engine.sandbox import Limits, get_sandbox  # noqa: E402
from runners.engine.shared_runs import SharedRunSize
from runners.engine.verdicts import Outcome  # noqa: E402
from runners.targets import get_target  # noqa: E402

RESIDENT = "CHANFUZZ_RESIDENT_COMPILERS"
STAGES = (
    "generate", "check", "render", "compile", "start-up", "run", "out of time", "verdict",
    "store",
)  # fmt: skip
# The smallest program there is: one process, one channel, no partner needed.
TRIVIAL = "Spawn(Get(c1)) ; Put(c1)"


@dataclass
class Rate:
    programs: int
    seconds: float  # wall time of the whole loop, every stage included
    stages: dict[str, float] = field(default_factory=dict)  # seconds per stage
    all_terminated: bool = True
    sizes: list[int] = field(default_factory=list)  # the batches' sizes, in order
    # Programs a quiet period found hung (blocked), and, where each was a batch of its own
    # (the naive loop), the wall time of those batches: compile, run, dump and re-runs.
    hung: int = 0
    hung_s: float = 0.0

    @property
    def per_minute(self) -> float:
        return 60 * self.programs / self.seconds

    def share(self, stage: str) -> float:
        return self.stages.get(stage, 0.0) / self.seconds


def pin_to_one_core() -> None:
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})


def _django_store() -> object:
    """`record_execution` on a fresh SQLite database of its own, or None without Django."""
    var = tempfile.mkdtemp(prefix="chanfuzz-bench-db-")
    atexit.register(shutil.rmtree, var, ignore_errors=True)  # a throwaway database
    os.environ["CHANFUZZ_VAR_DIR"] = var
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "chanfuzz_site.settings")
    os.environ.setdefault("CHANFUZZ_LOG_LEVEL", "WARNING")
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)
    return var


def _store(language: str, generated: list, executions: list) -> float:
    """Seconds to record every verdict as a campaign chunk does (program row, execution)."""
    from runners.campaigns.models import Campaign, CampaignTarget, Program
    from runners.campaigns.programs import BuiltProgram, store_programs
    from runners.campaigns.services import record_execution, record_executions

    spec = get_target(language)
    settings = settings_for("A")

    campaign = Campaign.objects.create(
        name=f"bench {language}", heuristic="A", settings={}, seed=0,
        program_count=len(generated), timeout_s=30, repetitions=10, chunk_size=25,
        generator_version="bench",
    )  # fmt: skip
    target = CampaignTarget.objects.create(
        campaign=campaign, language=language, toolchain_id=f"{language}-bench"
    )
    started = time.perf_counter()
    built = [
        BuiltProgram(
            g.effect,
            g.program,
            Program.Source.GENERATED,
            g.seed,
            settings.as_dict(),
            g.version,
            g.fired,
            spec.capabilities,
        )  # fmt: skip
        for g in generated
    ]
    verdicts = list(zip(store_programs(built), range(len(built)), executions, strict=True))
    record_executions(
        verdicts=[v for v in verdicts if not v[2].classification.is_finding],
        language=language,
        target=target,
    )
    for row, i, execution in verdicts:
        if execution.classification.is_finding:
            record_execution(
                program=row, index=i, result=execution, language=language, target=target
            )
    return time.perf_counter() - started


def _generate(language: str, count: int, first_seed: int, options: dict) -> tuple[list, float]:
    """`count` programs of heuristic A the target can express, and the seconds it took."""
    spec = get_target(language)
    settings = settings_for("A")
    result = []
    seed = first_seed
    started = time.perf_counter()
    while len(result) < count:
        g = generate_program(seed, settings, spec.capabilities)
        if spec.supports(g.program, **options):
            result.append(g)
        seed += 1
    return result, time.perf_counter() - started


def add_seed_option(parser: object) -> None:
    """`--seed`: the first program's seed; by default a fresh one each run (module docstring)."""
    parser.add_argument(  # type: ignore[attr-defined]
        "--seed",
        type=int,
        default=None,
        help="first seed (default: a fresh one, printed, so no compiler cache serves a run)",
    )


def fresh_seed(seed: int | None) -> int:
    return seed if seed is not None else random.SystemRandom().randrange(10**12)


def startup_s(language: str, target: object, box: object, runs: int = 10) -> float:
    """The mean run of the trivial program: a sandbox and a runtime started and stopped."""
    program = synthesize(parse(TRIVIAL), random.Random(0))
    durations = []
    with scratch("chanfuzz-bench-") as tmp:
        os.chmod(tmp, 0o755)
        # A batch of one each time: a process of its own (runs of a batch may share
        # one); built once (the artifact cache), as only the runs are measured.
        for _ in range(runs):
            report = execute_batch(
                [program], target, workdir=Path(tmp), sandbox=box, limits=Limits(timeout_s=30)
            )
            durations += [a.duration_s for e in report.executions for a in e.attempts]
    return statistics.mean(durations) if durations else 0.0


def measure(
    language: str,
    *,
    naive: int,
    batched: int,
    batch_size: int | None,
    sandbox: str,
    repetitions: int,
    seed: int,
    hang_quiet_s: float | None = None,
) -> tuple[Rate, Rate]:
    # The configuration `manage.py fuzz` runs (Kotlin on its thread pool included).
    target = make_target(language, repetitions=repetitions)
    options = dict(target.render_options)
    box = get_sandbox(sandbox, language=language)
    # A runtime that hangs (flume's) costs both ways the same per program; with a quiet
    # period a hang costs that instead of the 30 s limit and its re-runs.
    limits = Limits(timeout_s=30, quiet_s=hang_quiet_s)
    startup = startup_s(language, target, box)
    rates = []
    # Distinct seeds for the two ways, so neither reuses the other's compiles.
    ways = ((naive, 1, seed, True), (batched, batch_size, seed + 1_000_000, False))
    for count, size, first_seed, paper in ways:
        # The naive loop is the paper's: a compiler started for each program, never one
        # kept running (runners.engine.resident).
        with mock.patch.dict(os.environ, {RESIDENT: "0"} if paper else {}):
            # None: each batch sized from the costs of those before it, as `fuzz` does.
            sizer = BatchSizer(high=target.spec.max_batch) if size is None else None
            shared_runs = SharedRunSize()  # carried from batch to batch, as fuzz does
            start = time.perf_counter()
            generated, generate_s = _generate(language, count, first_seed, options)
            checked = time.perf_counter()
            for g in generated:
                check_effect(g.effect)
            check_s = time.perf_counter() - checked
            stages = dict.fromkeys(STAGES, 0.0)
            stages["generate"], stages["check"] = generate_s, check_s
            ok = True
            executions = []
            runs = 0
            sizes = []
            hung, hung_s = 0, 0.0
            with scratch("chanfuzz-bench-") as tmp:
                os.chmod(tmp, 0o755)  # the sandbox runs programs as an unprivileged user
                i = 0
                while i < count:
                    n = sizer.size_for(count - i) if sizer else min(size, count - i)
                    sizes.append(n)
                    batch_started = time.perf_counter()
                    report = execute_batch(
                        [g.program for g in generated[i : i + n]],
                        target,
                        workdir=Path(tmp),
                        sandbox=box,
                        limits=limits,
                        use_cache=False,
                        shared_runs=shared_runs,
                    )
                    for name in ("render", "compile", "verdict"):
                        stages[name] += getattr(report.stages, f"{name}_s")
                    stages["run"] += report.stages.run_s
                    stages["out of time"] += report.stages.out_of_time_s
                    runs += report.stages.runs
                    executions += report.executions
                    if sizer:
                        sizer.observe(n, report.stages)
                    i += n
                    blocked = sum(map(_hung_blocked, report.executions))
                    hung += blocked
                    if n == 1 and blocked:
                        hung_s += time.perf_counter() - batch_started
                    for e in report.executions:
                        if e.outcome is not Outcome.TERMINATED:
                            ok = False
                            print(f"  {language}: {e.outcome}: {e.classification.reason[:300]}")
            stages["store"] = _store(language, generated, executions)
            # Lanes overlap runs, so a spin's time can exceed the runs' wall time.
            stages["out of time"] = min(stages["out of time"], stages["run"])
            stages["run"] -= stages["out of time"]
            stages["start-up"] = min(stages["run"], startup * runs)
            stages["run"] -= stages["start-up"]
            wall = time.perf_counter() - start
            rates.append(Rate(count, wall, stages, ok, sizes, hung, hung_s))
    return rates[0], rates[1]


def _hung_blocked(execution: ProgramRun) -> bool:
    """Judged a hang by its own run's quiet period: every process blocked."""
    attempts = execution.attempts
    return execution.outcome is Outcome.TIMEOUT and bool(attempts) and attempts[0].quiet


def fuzz_rate(
    language: str,
    *,
    count: int,
    sandbox: str,
    repetitions: int,
    seed: int,
    hang_quiet_s: float | None = None,
    store_s: float = 0.0,
) -> Rate:
    """`count` programs through `fuzz`'s own loop (runners.engine.fuzz, one job, the
    artifact cache off), as `measure`'s ours runs them but for what that loop adds: the
    next batch starts while one only waits for programs set aside. `store_s` a program
    (ours' storing, which `fuzz` does not do) is added to its time, so that both compare
    with the naive loop alike."""
    from runners.engine.fuzz import fuzz  # noqa: PLC0415 - Django-free, only for this way

    target = make_target(language, repetitions=repetitions)
    hung = 0

    def count_hangs(_generated: object, execution: ProgramRun) -> None:
        nonlocal hung
        hung += _hung_blocked(execution)

    summary = fuzz(
        target=target,
        settings=settings_for("A"),
        count=count,
        seed=seed,
        sandbox=get_sandbox(sandbox, language=language),
        limits=Limits(timeout_s=30, quiet_s=hang_quiet_s),
        use_cache=False,
        on_result=count_hangs,
    )
    findings = sum(n for o, n in summary.outcomes.items() if o is not Outcome.TERMINATED)
    return Rate(
        summary.count,
        summary.seconds + store_s * summary.count,
        {"out of time": summary.out_of_time_s},
        all_terminated=findings == 0,
        sizes=summary.batch_sizes,
        hung=hung,
    )


# The stages a faster toolchain or runner could shrink, and the limit's triage; the
# bench's "how far" table.
LIFTS = ("compile", "start-up", "run", "out of time")


def ceiling(naive: Rate, ours: Rate, stage: str) -> float:
    """Ours' speed-up over naive if `stage` of ours took no time: what the rest caps it at
    (issue #18: where a figure stays short, which stage holds it back)."""
    rest = ours.seconds - ours.stages.get(stage, 0.0)
    return (naive.seconds / naive.programs) / (rest / ours.programs) if rest > 0 else float("inf")


def without_limits(naive: Rate, ours: Rate) -> float:
    """The speed-up with neither loop's runs that ran out of time (and their re-runs):
    what batching gains on the programs both loops judge alike, whichever sample met a
    spin (module docstring, "out of time")."""
    left = [(r.seconds - r.stages.get("out of time", 0.0)) / r.programs for r in (naive, ours)]
    return left[0] / left[1] if left[1] > 0 else float("inf")


def at_ours_hang_share(naive: Rate, ours: Rate) -> float | None:
    """The speed-up "either way" (without_limits), with the naive loop's programs that hung
    weighted as often as ours met hangs; None where the naive loop cannot price a program
    of the kind ours met (no hang, or nothing but hangs). On a runtime that hangs in one
    program of six (flume), a naive sample of 30 to 100 meets a handful of hangs, each of
    which costs it a second or more (a quiet period, a dump, two re-runs waiting another),
    so how many it met moved the speed-up by a quarter from run to run; ours' 600 programs
    say how often hangs come more surely. Each of the naive loop's programs is a batch of
    its own, so a hung one's cost is known apart."""
    others = naive.programs - naive.hung
    if not naive.hung and not ours.hung:
        return without_limits(naive, ours)
    if not naive.hung or not others:
        return None
    clean_s = (naive.seconds - naive.stages.get("out of time", 0.0) - naive.hung_s) / others
    share = ours.hung / ours.programs
    naive_s = (1 - share) * clean_s + share * naive.hung_s / naive.hung
    ours_s = (ours.seconds - ours.stages.get("out of time", 0.0)) / ours.programs
    return naive_s / ours_s if ours_s > 0 else float("inf")


def _hangs_cell(naive: Rate, rate: Rate) -> str:
    """at_ours_hang_share's figure (or "-"), and how many hangs each loop met."""
    weighted = at_ours_hang_share(naive, rate)
    hangs = f"({naive.hung}/{naive.programs}, {rate.hung}/{rate.programs})"
    return f"{weighted:12.1f}x {hangs}" if weighted is not None else f"{'-':>13} {hangs}"


def report(languages: list[str], *, with_fuzz: bool = False, **kwargs: object) -> None:
    """The bench's tables; `with_fuzz` adds `fuzz`'s own loop on as many programs as ours
    (fresh seeds), pinned alike, after each target's two ways (fuzz_rate)."""
    _django_store()
    print(f"{'language':16} {'naive/min':>10} {'ours/min':>10} {'speed-up':>9} {'all exit 0':>10}")
    splits = []
    fuzzed = []
    for language in languages:
        naive, batched = measure(language, **kwargs)  # type: ignore[arg-type]
        print(
            f"{language:16} {naive.per_minute:10.0f} {batched.per_minute:10.0f} "
            f"{batched.per_minute / naive.per_minute:8.1f}x "
            f"{'yes' if naive.all_terminated and batched.all_terminated else 'NO':>10}",
            flush=True,
        )
        splits.append((language, naive, batched))
        if with_fuzz:
            rate = fuzz_rate(
                language, count=batched.programs, sandbox=kwargs["sandbox"],
                repetitions=kwargs["repetitions"], seed=kwargs["seed"] + 2_000_000,
                hang_quiet_s=kwargs.get("hang_quiet_s"),
                store_s=batched.stages["store"] / batched.programs,
            )  # type: ignore[arg-type]  # fmt: skip
            fuzzed.append((language, naive, rate))
    if fuzzed:
        print("\nfuzz's own loop (its next batch starts while one only waits for programs aside),")
        print("with ours' storing added; against the same naive loop (either way and hangs as")
        print("fuzz's: as in the 'how far' table below)")
        heads = f"{'either way':>13} {'hangs as fuzz':>13}"
        print(f"{'language':16} {'fuzz/min':>10} {'speed-up':>9} {'all exit 0':>10} {heads}")
        for language, naive, rate in fuzzed:
            print(
                f"{language:16} {rate.per_minute:10.0f} "
                f"{rate.per_minute / naive.per_minute:8.1f}x "
                f"{'yes' if rate.all_terminated else 'NO':>10} "
                f"{without_limits(naive, rate):12.1f}x {_hangs_cell(naive, rate)}"
            )
    print("\nwhere the time goes: ms per program (share of the loop's wall time)")
    print(f"{'language':16} {'way':6} " + " ".join(f"{s:>14}" for s in STAGES))
    for language, naive, batched in splits:
        for way, rate in (("naive", naive), ("ours", batched)):
            cells = " ".join(
                f"{1000 * rate.stages[s] / rate.programs:8.2f} ({100 * rate.share(s):3.0f}%)"
                for s in STAGES
            )
            print(f"{language:16} {way:6} {cells}")
    print("\nhow far ours could go: its speed-up if one stage took no time (the rest as measured);")
    print("either way: neither loop's runs out of time counted; hangs as ours: that, with the")
    print("naive loop's hung programs as often as ours met hangs (their count in brackets)")
    heads = (*LIFTS, "either way", "hangs as ours")
    print(f"{'language':16} {'now':>8} " + " ".join(f"{s:>13}" for s in heads))
    for language, naive, batched in splits:
        cells = [f"{ceiling(naive, batched, s):12.1f}x" for s in LIFTS]
        cells.append(f"{without_limits(naive, batched):12.1f}x")
        cells.append(_hangs_cell(naive, batched))
        print(f"{language:16} {batched.per_minute / naive.per_minute:7.1f}x {' '.join(cells)}")
    print("\nours: the batches' sizes, in order")
    for language, _naive, batched in splits:
        print(f"{language:16} {', '.join(map(str, batched.sizes))}")
    if fuzzed:
        print("\nfuzz: the batches' sizes, in order")
        for language, _naive, rate in fuzzed:
            print(f"{language:16} {', '.join(map(str, rate.sizes))}")

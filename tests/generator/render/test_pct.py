"""Schedule perturbation (PCT): with `pct_depth=d` a renderer yields before d−1 of a
program's communication steps, drawn from the program and d alone; the rest of the
source is the unperturbed one, byte for byte."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from generator.pipeline import generate_program
from generator.render import has_schedule_perturbation, render, render_batch, renderers
from generator.render._common import (
    RecvS,
    SelectS,
    SendS,
    YieldS,
    change_points,
    communication_steps,
    lower,
    lower_all,
    perturb,
    walk,
)
from generator.settings import PRESETS
from runners.targets import get_target
from tests.generator.render.programs import PROGRAMS

# Each perturbing renderer (Rust in its two ways of yielding) and what its yield reads.
YIELDS = {
    ("go", ()): "runtime.Gosched()",
    ("kotlin", ()): "yield()",
    ("kotlin", (("threads", 8),)): "yield()",
    ("crystal", ()): "Fiber.yield",
    ("rust", (("flavour", "crossbeam"),)): "std::thread::yield_now();",
    ("rust", (("flavour", "flume-async"),)): "tokio::task::yield_now().await;",
    ("clojure", (("flavour", "go"),)): "(<! (timeout 0))",
    ("clojure", (("flavour", "thread"),)): "(Thread/yield)",
    ("racket", ()): "(sleep 0)",
}
# A pool rendered with a fixed size takes a perturbed run's size first (CHANFUZZ_THREADS).
POOLS = {
    # Clojure's go blocks: the dispatch pool's size is a property set before core.async loads.
    ("clojure", (("flavour", "go"),)): (
        ";; Before core.async loads: a perturbed run may size its dispatch pool.\n"
        '(when-let [n (System/getenv "CHANFUZZ_THREADS")]\n'
        '  (System/setProperty "clojure.core.async.pool-size" n))\n\n',
        "",
    ),
    ("kotlin", (("threads", 8),)): (
        'newFixedThreadPoolContext(System.getenv("CHANFUZZ_THREADS")?.toIntOrNull() ?: 8,',
        "newFixedThreadPoolContext(8,",
    ),
    ("rust", (("flavour", "flume-async"),)): (
        '.worker_threads(std::env::var("CHANFUZZ_THREADS").ok()'
        ".and_then(|v| v.parse().ok()).unwrap_or(4))",
        ".worker_threads(4)",
    ),
}
PRESET_NAMES = sorted(PRESETS)


def _generated(seed: int, preset: str):  # noqa: ANN202
    return generate_program(seed, PRESETS[preset]).program


@given(
    seed=st.integers(0, 10_000),
    preset=st.sampled_from(PRESET_NAMES),
    depth=st.integers(1, 12),
)
def test_a_yield_comes_before_each_of_depth_minus_one_communication_steps(
    seed: int, preset: str, depth: int
) -> None:
    program = _generated(seed, preset)
    lowered = lower(program)
    perturbed = perturb(program, lowered, depth)
    steps = communication_steps(lowered.body)
    yields = sum(isinstance(s, YieldS) for s in walk(perturbed.body))
    assert yields == min(depth - 1, steps)
    assert communication_steps(perturbed.body) == steps  # nothing else added or lost
    # Every yield stands right before a communication step of its own block.
    blocks = [perturbed.body]
    while blocks:
        block = blocks.pop()
        for i, s in enumerate(block):
            if isinstance(s, YieldS):
                assert isinstance(block[i + 1], RecvS | SendS | SelectS), block
            blocks.extend(
                b
                for b in (
                    getattr(s, "body", None),
                    getattr(s, "then", None),
                    getattr(s, "orelse", None),
                )
                if b is not None
            )
            if isinstance(s, SelectS):
                blocks.extend(c.body for c in s.cases)
    # The yields stand exactly before the drawn steps (numbered in walk order).
    seen, marked = 0, set()
    for s in walk(perturbed.body):
        if isinstance(s, YieldS):
            marked.add(seen)
        elif isinstance(s, RecvS | SendS | SelectS):
            seen += 1
    assert marked == change_points(program, lowered, depth)


@given(seed=st.integers(0, 10_000), other=st.integers(0, 10_000))
def test_change_points_depend_on_the_program_alone_not_on_its_place_in_a_batch(
    seed: int, other: int
) -> None:
    program, neighbour = _generated(seed, "A"), _generated(other, "F")
    alone = lower_all([program], 5)[0]
    assert lower_all([neighbour, program], 5)[1] == alone
    assert lower_all([program], 5)[0] == alone  # and the same every time


def test_another_depth_draws_other_points_and_depth_one_draws_none() -> None:
    program = _generated(14, "A")
    lowered = lower(program)
    assert change_points(program, lowered, 1) == frozenset()
    draws = {change_points(program, lowered, 4) for _ in range(3)}
    assert len(draws) == 1 and len(next(iter(draws))) == 3
    assert change_points(program, lowered, 4) != change_points(program, lowered, 5)


@pytest.mark.parametrize(("lang", "options"), sorted(YIELDS), ids=lambda x: str(x))
@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_perturbed_source_is_the_plain_one_plus_its_yields(
    lang: str, options: tuple[tuple[str, str], ...], name: str
) -> None:
    program, opts = PROGRAMS[name], dict(options)
    plain = render(program, lang, seed=3, repetitions=2, values=True, **opts)

    def unsized(text: str) -> str:
        if (lang, options) not in POOLS:
            return text
        sized, fixed = POOLS[(lang, options)]
        assert text.count(sized) == 1, text
        return text.replace(sized, fixed)

    depth_one = render(program, lang, seed=3, repetitions=2, values=True, pct_depth=1, **opts)
    assert unsized(depth_one) == plain  # no change point: no yield
    perturbed = render(program, lang, seed=3, repetitions=2, values=True, pct_depth=4, **opts)
    yield_line = YIELDS[(lang, options)]
    lines = perturbed.splitlines()
    assert sum(line.strip() == yield_line for line in lines) == min(
        3, communication_steps(lower(program).body)
    )
    kept = "\n".join(line for line in lines if line.strip() != yield_line) + "\n"
    # Go also imports the package that yields, and nothing else (unless the quiet check
    # imports it already).
    if lang == "go" and '\t"runtime"\n' not in plain:
        kept = kept.replace('\t"runtime"\n', "").replace("\nimport (\n)\n", "")
    assert unsized(kept) == plain


def test_a_batch_yields_at_each_programs_own_points() -> None:
    programs = [PROGRAMS[name] for name in sorted(PROGRAMS)]
    source = render_batch(programs, "go", seed=5, pct_depth=3)
    expected = sum(min(2, communication_steps(lower(p).body)) for p in programs)
    assert source.count("runtime.Gosched()") == expected


@pytest.mark.parametrize("bad", [0, 65, -1, True, "3", 2.0])
def test_pct_depth_is_a_whole_number_from_1_to_64(bad: object) -> None:
    with pytest.raises(ValueError, match=r"pct_depth must be a whole number from 1 to 64"):
        render(PROGRAMS[sorted(PROGRAMS)[0]], "go", pct_depth=bad)


def test_which_renderers_perturb_schedules() -> None:
    assert {lang for lang in renderers() if has_schedule_perturbation(lang)} == {
        "go",
        "kotlin",
        "crystal",
        "rust",
        "clojure",
        "racket",
    }
    # Flix has no yield this renderer could use: asking is an error, not a no-op.
    with pytest.raises(ValueError, match=r"unknown option\(s\) for flix: pct_depth"):
        render(PROGRAMS[sorted(PROGRAMS)[0]], "flix", pct_depth=3)
    flix = get_target("flix")
    assert not flix.schedule_perturbation
    with pytest.raises(ValueError, match="Flix programs cannot yield"):
        flix.pct_options(3)
    assert flix.pct_options(None) == {}
    go = get_target("go")
    assert go.pct_options(3) == {"pct_depth": 3} and go.pct_options(None) == {}
    with pytest.raises(ValueError, match="pct_depth must be a whole number from 1 to 64"):
        go.pct_options(0)

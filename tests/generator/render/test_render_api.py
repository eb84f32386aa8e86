"""The language-independent part: API, determinism, lowering, names, conditions."""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator import lambda_chan as lc
from generator.render import (
    BEYOND_PAPER_CONSTRUCTS,
    UnsupportedProgram,
    beyond_paper,
    has_schedule_perturbation,
    has_value_oracle,
    render,
    render_batch,
    renderers,
    runs_in_groups,
    supports,
    unsupported_reason,
)
from generator.render._common import (
    C_LIKE,
    IfS,
    Namer,
    RecvS,
    SelectS,
    SendS,
    SpawnS,
    is_reserved,
    lower,
    render_cond,
    spawn_sites,
)
from generator.render.flix import FLIX_CURRENT
from generator.synthesis import synthesize
from tests.generator.render.helpers import VARIANTS
from tests.generator.render.programs import MIXED, MIXED_GET, PAPER, PROGRAMS
from tests.generator.strategies import effects

# ---------------------------------------------------------------- API

LANGUAGES = renderers()


def test_languages() -> None:
    assert renderers() == ("clojure", "crystal", "flix", "go", "kotlin", "racket", "rust")


@pytest.mark.parametrize("bad", ["zig", "Go", "", None])
def test_unknown_language_names_the_supported_ones(bad: object) -> None:
    with pytest.raises(ValueError, match="clojure, crystal, flix, go, kotlin, racket, rust"):
        render(PAPER["flix2"], bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="clojure, crystal, flix, go, kotlin, racket, rust"):
        render_batch([PAPER["flix2"]], bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_unknown_option_is_an_error_naming_the_renderer(lang: str) -> None:
    wanted = rf"^unknown option\(s\) for {lang}: colour \(known: "
    with pytest.raises(ValueError, match=wanted):
        render(PAPER["flix2"], lang, colour="blue")
    with pytest.raises(ValueError, match=wanted):
        render_batch([PAPER["flix2"]], lang, colour="blue")
    with pytest.raises(ValueError, match=wanted):
        unsupported_reason(PAPER["flix2"], lang, colour="blue")


@pytest.mark.parametrize(
    ("lang", "options", "message"),
    [
        ("go", {"gomaxprocs": 0}, "gomaxprocs must be a positive integer, not 0"),
        ("go", {"gomaxprocs": "4"}, "gomaxprocs must be a positive integer, not '4'"),
        ("kotlin", {"package_layout": "ancient"}, "package_layout must be one of"),
        ("kotlin", {"duplicate_clauses": "drop"}, "duplicate_clauses must be 'merge' or 'keep'"),
        ("flix", {"flix_version": "0.6"}, "flix_version must be one of current, 0.5"),
        ("clojure", {"put_result": "true"}, "put_result must be one of boolean, nil, not 'true'"),
    ],
)
def test_bad_option_values(lang: str, options: dict, message: str) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        render(PAPER["flix2"], lang, **options)


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("reps", [0, -3, 1.5, True])
def test_bad_repetitions(lang: str, reps: object) -> None:
    with pytest.raises(ValueError, match="repetitions"):
        render(PAPER["flix2"], lang, repetitions=reps)  # type: ignore[arg-type]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_empty_batch_is_an_error(lang: str) -> None:
    with pytest.raises(ValueError, match=r"^a batch needs at least one program$"):
        render_batch([], lang)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_channel_not_created_is_an_error(lang: str) -> None:
    with pytest.raises(ValueError, match="'c9'"):
        render(lc.Program(("c1",), lc.Then(lc.Send("c1"), lc.Recv("c9"))), lang)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_repetitions_appear_in_the_output(lang: str) -> None:
    text = render(PAPER["flix2"], lang, repetitions=4321)
    assert "4321" in text
    assert "4321" not in render(PAPER["flix2"], lang, repetitions=1)


def test_supports() -> None:
    # Flix's select only receives.
    assert supports(PAPER["flix1"], "flix") and supports(PAPER["flix1"], "flix", flix_version="0.5")
    assert not supports(PAPER["kotlin"], "flix")
    assert not supports(PAPER["crystal"], "flix", flix_version="0.5")
    with pytest.raises(UnsupportedProgram, match="only receive"):
        render(PAPER["kotlin"], "flix")
    for lang in ("go", "crystal", "kotlin"):
        assert all(supports(p, lang) for p in PROGRAMS.values())


def test_what_each_renderer_declares_it_can_do() -> None:
    # The target registry, the fuzz loop and the campaign pages read these four answers.
    declared = {
        lang: (
            has_value_oracle(lang),
            runs_in_groups(lang),
            has_schedule_perturbation(lang),
            beyond_paper(lang),
        )
        for lang in LANGUAGES
    }
    both, buffered = frozenset({"buffered", "close"}), frozenset({"buffered"})
    every = both | {"default"}  # but unbounded channels, which Go and Crystal have not
    assert every | {"unbounded"} == BEYOND_PAPER_CONSTRUCTS
    assert all(d[3] <= BEYOND_PAPER_CONSTRUCTS for d in declared.values())
    assert declared == {
        "clojure": (True, True, True, both),
        "crystal": (True, True, True, every),
        "flix": (False, False, False, frozenset()),
        "go": (True, True, True, every),
        "kotlin": (True, False, True, both | {"unbounded"}),
        "racket": (True, True, True, buffered | {"unbounded"}),
        # the default: crossbeam's only; unbounded: all but std's
        "rust": (True, True, True, buffered | {"default", "unbounded"}),
    }


def test_a_program_beyond_its_renderer_is_refused_with_the_renderers_name() -> None:
    closes = lc.Program(("c",), lc.CloseE("c"))
    assert unsupported_reason(closes, "rust") == "the rust renderer writes no close or range"
    with pytest.raises(UnsupportedProgram, match=r"^the racket renderer writes no close or range$"):
        render_batch([PAPER["flix2"], closes], "racket")
    buffered = lc.Program(("c",), lc.Then(lc.Send("c"), lc.Recv("c")), (("c", 1),))
    assert unsupported_reason(buffered, "flix") == "the flix renderer writes no buffered channel"
    assert supports(closes, "go") and supports(buffered, "racket")


@pytest.mark.parametrize("lang", ["go", "kotlin", "rust"])
def test_render_defaults_to_seed_zero_and_one_repetition(lang: str) -> None:
    program = PAPER["flix1"]
    alone = render(program, lang)
    assert alone == render(program, lang, seed=0, repetitions=1)
    assert alone != render(program, lang, seed=1)
    batch = render_batch([program, PAPER["flix2"]], lang)
    assert batch == render_batch([program, PAPER["flix2"]], lang, seed=0, repetitions=1)
    assert batch != render_batch([program, PAPER["flix2"]], lang, seed=1)
    assert batch != render_batch([program, PAPER["flix2"]], lang, repetitions=2)


# ---------------------------------------------------------------- determinism


def _variants_for(program: lc.Program):
    return [v for v in VARIANTS.values() if supports(program, v.lang, **v.options)]


@settings(max_examples=60, deadline=None)
@given(effect=effects(max_leaves=10), seed=st.integers(0, 2**32), synth_seed=st.integers(0, 99))
def test_same_inputs_same_bytes(effect, seed: int, synth_seed: int) -> None:
    program = synthesize(effect, random.Random(synth_seed))
    for v in _variants_for(program):
        one = render(program, v.lang, seed=seed, repetitions=3, **v.options)
        two = render(program, v.lang, seed=seed, repetitions=3, **v.options)
        assert one == two
        batch = [program, PAPER["flix2"]]
        assert render_batch(batch, v.lang, seed=seed, **v.options) == render_batch(
            batch, v.lang, seed=seed, **v.options
        )


def test_rendering_does_not_touch_the_global_random() -> None:
    random.seed(123)
    expected = random.random()
    random.seed(123)
    for v in VARIANTS.values():
        render(MIXED_GET, v.lang, seed=5, **v.options)
    assert random.random() == expected


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_different_seeds_can_differ(variant: str) -> None:
    v = VARIANTS[variant]
    program = MIXED_GET if v.lang == "flix" else MIXED
    outputs = {render(program, v.lang, seed=s, **v.options) for s in range(12)}
    assert len(outputs) > 1


# ---------------------------------------------------------------- lowering


def test_lowering_drops_values_and_keeps_effects() -> None:
    program = lc.Program(
        ("c1", "c2"),
        lc.Then(
            lc.Let("a", lc.Unit(), lc.Var("a")),
            lc.Let(
                "x",
                lc.Recv("c1"),
                lc.Then(
                    lc.NewChan("c2"),
                    lc.Then(
                        lc.If(lc.BoolLit(True), lc.Unit(), lc.BoolLit(False)),
                        lc.If(lc.BoolLit(False), lc.Send("c2"), lc.Unit()),
                    ),
                ),
            ),
        ),
    )
    body = lower(program).body
    assert body == (
        RecvS("c1", "x"),
        IfS(lc.BoolLit(False), (SendS("c2", 1),), ()),
    )


def test_lowering_let_of_a_compound_keeps_its_statements() -> None:
    program = lc.Program(
        ("c1",), lc.Let("y", lc.Then(lc.SpawnE(lc.Send("c1")), lc.Recv("c1")), lc.Var("y"))
    )
    body = lower(program).body
    assert isinstance(body[0], SpawnS) and body[0].body == (SendS("c1", 1),)
    assert body[1] == RecvS("c1", None)


def test_spawn_sites_are_unique_and_per_process() -> None:
    lw = lower(MIXED)
    sites = [s.site for s in _all(lw.body) if isinstance(s, SpawnS)]
    assert len(sites) == len(set(sites)) == 5
    # main's own: the first spawn, one in each branch of the if, one in a select case;
    # the fifth is spawned by the first process.
    assert len(spawn_sites(lw.body)) == 4


def _all(block):
    for s in block:
        yield s
        if isinstance(s, SpawnS):
            yield from _all(s.body)
        elif isinstance(s, IfS):
            yield from _all(s.then)
            yield from _all(s.orelse)
        elif isinstance(s, SelectS):
            for c in s.cases:
                yield from _all(c.body)


IDENT = re.compile(r"[a-z][A-Za-z0-9]*\Z")


@given(st.lists(st.text(min_size=0, max_size=8), min_size=1, max_size=20))
def test_namer_gives_valid_distinct_unreserved_names(wanted: list[str]) -> None:
    namer = Namer()
    names = [namer.fresh(w) for w in wanted]
    assert len(set(names)) == len(names)
    for n in names:
        assert IDENT.match(n), n
        assert not is_reserved(n)


def test_keywords_and_capitals_are_renamed_in_programs() -> None:
    program = lc.Program(
        ("select", "C1", "c1", "wg"),
        lc.Then(
            lc.Then(lc.SpawnE(lc.Send("select")), lc.Recv("select")),
            lc.Then(
                lc.Then(lc.SpawnE(lc.Send("C1")), lc.Recv("C1")),
                lc.Then(lc.SpawnE(lc.Send("wg")), lc.Let("end", lc.Recv("wg"), lc.Unit())),
            ),
        ),
    )
    lw = lower(program)
    assert len(set(lw.channels)) == 4
    assert "select" not in lw.channels and "wg" not in lw.channels
    assert all(IDENT.match(c) for c in lw.channels)
    for lang in ("go", "crystal", "kotlin", "flix"):
        text = render(program, lang)
        assert "select2" in text


# ---------------------------------------------------------------- conditions


def _conds() -> st.SearchStrategy[lc.Cond]:
    leaf = st.one_of(
        st.builds(lc.BoolLit, st.booleans()),
        st.builds(
            lc.Compare,
            st.sampled_from(["==", "!=", "<", "<=", ">", ">="]),
            st.integers(-20, 20),
            st.integers(-20, 20),
        ),
    )
    return st.recursive(
        leaf,
        lambda inner: st.one_of(
            st.builds(lc.Not, inner),
            st.builds(lc.BoolOp, st.sampled_from(["&&", "||"]), inner, inner),
        ),
        max_leaves=8,
    )


def _python(text: str) -> str:
    text = text.replace("&&", " and ").replace("||", " or ")
    text = re.sub(r"!(?!=)", " not ", text)
    return text.replace("true", "True").replace("false", "False")


@given(_conds(), st.integers(0, 1000))
def test_rendered_conditions_keep_their_value(cond: lc.Cond, seed: int) -> None:
    for syntax in (C_LIKE, FLIX_CURRENT):
        text = render_cond(cond, syntax, random.Random(seed))
        assert eval(_python(text)) == lc.evaluate(cond), text  # noqa: S307 - our own output


@pytest.mark.parametrize("wanted", ["prog", "rep", "jobs7", "join", "Prog2"])
def test_namer_escapes_helper_names_instead_of_numbering_forever(wanted: str) -> None:
    namer = Namer()
    names = [namer.fresh(w) for w in (wanted, wanted, wanted + "1")]
    assert len(set(names)) == 3
    assert all(IDENT.match(n) and not is_reserved(n) for n in names)

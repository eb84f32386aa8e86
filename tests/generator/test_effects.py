"""Effect values and their text syntax (SPEC §10)."""

import sys

import pytest
from hypothesis import given

from generator.effects import (
    EPS,
    MAX_NESTING,
    UNBOUNDED,
    ChanE,
    Choice,
    Close,
    Effect,
    EffectSyntaxError,
    Get,
    Put,
    Range,
    SelCase,
    Select,
    Seq,
    Spawn,
    capacities,
    channels,
    children,
    choice,
    close_positions,
    count_spawns,
    dual,
    has_channel,
    head_text,
    parse,
    select,
    seq,
    size,
    to_text,
    uses_extension,
    walk,
    without_chan_decls,
)
from tests.generator.strategies import effects, extended_effects


@given(effects(max_leaves=20))
def test_print_then_parse_gives_the_effect_back(effect):
    assert parse(to_text(effect)) == effect
    assert parse(to_text(effect, unicode=True)) == effect


@given(effects(max_leaves=12))
def test_printing_is_canonical(effect):
    text = to_text(effect)
    assert to_text(parse(text)) == text


def test_select_binds_tighter_than_seq_and_choice():
    effect = parse("Spawn(Put(c1)) ; SelGet(c1, eps) (+) SelGet(c1, eps)")
    assert effect == Seq(
        (Spawn(Put("c1")), Select((SelCase("get", "c1", EPS), SelCase("get", "c1", EPS))))
    )


def test_choice_binds_loosest():
    assert parse("Get(c1) ; Put(c2) + Put(c2) ; Get(c1)") == Choice(
        (Seq((Get("c1"), Put("c2"))), Seq((Put("c2"), Get("c1"))))
    )


def test_unicode_and_ascii_spellings_are_the_same_effect():
    assert parse("SelGet(c, ε) ⊕ SelPut(d, ε)") == parse("SelGet(c,eps)(+)SelPut(d , eps)")


def test_whitespace_is_free():
    assert parse("  Spawn (\n Put( c1 ) )\t;Get(c1)") == seq(Spawn(Put("c1")), Get("c1"))


@pytest.mark.parametrize("op", ["( + )", "(+ )", "( +)", "(\n+\t)"])
def test_whitespace_inside_the_select_operator_is_free(op):
    text = f"SelGet(c1, eps) {op} SelPut(c2, eps)"
    assert parse(text) == Select((SelCase("get", "c1", EPS), SelCase("put", "c2", EPS)))


def test_a_split_select_operator_is_not_a_choice():
    # "( +" opens a group and a choice: the parser must not read half an operator.
    with pytest.raises(EffectSyntaxError):
        parse("SelGet(c1, eps) ( + SelPut(c2, eps)")


def test_choice_inside_sequence_is_parenthesised_when_printed():
    effect = seq(choice(Get("a"), Put("a")), Get("b"))
    assert to_text(effect) == "(Get(a) + Put(a)) ; Get(b)"


def test_normal_form_drops_eps_in_sequences_and_flattens():
    assert seq(EPS, seq(Get("a"), EPS), Put("a")) == Seq((Get("a"), Put("a")))
    assert seq(EPS, EPS) == EPS
    assert choice(choice(Get("a"), EPS), Put("a")) == Choice((Get("a"), EPS, Put("a")))


@pytest.mark.parametrize(
    ("text", "position", "expected"),
    [
        ("Get(c1", 6, "')'"),
        ("Get(c1) ;", 9, "an effect"),
        ("Spawn(Put(c1)) Get(c2)", 15, "';', '+', '(+)' or end of input"),
        ("Get(Spawn)", 4, "a channel name"),
        ("SelGet(c1 eps)", 10, "','"),
        ("Get(c1) (+) SelGet(c1, eps)", 8, "';', '+', '(+)' or end of input"),
        ("SelGet(c1, eps) (+) Get(c1)", 20, "SelGet or SelPut"),
        (
            "Got(c1)",
            0,
            "an effect (eps, Get, Put, Chan, Close, Range, Spawn, SelGet, SelPut or '(')",
        ),
        ("Get(c1) $ Put(c1)", 8, "';', '+', '(+)' or end of input"),
        # What the parser expected where the unknown character stands.
        ("Put(ç)", 4, "a channel name"),
        ("Chan(c, -1) ; Put(c)", 8, "the capacity of c (a whole number from 0 to 64, or "
         "unbounded)"),
        ("", 0, "an effect"),
    ],
)
def test_parse_error_names_position_and_what_was_expected(text, position, expected):
    with pytest.raises(EffectSyntaxError) as info:
        parse(text)
    assert info.value.position == position
    assert info.value.expected == expected
    assert f"at position {position + 1}: expected {expected}" in str(info.value)


def test_parse_error_pointer_shows_a_caret_under_the_position():
    with pytest.raises(EffectSyntaxError) as info:
        parse("Get(c1) ; Put()")
    assert info.value.pointer() == "Get(c1) ; Put()\n              ^"


def test_channels_in_order_of_first_appearance():
    assert channels(parse("Spawn(Put(c3)) ; SelGet(c1, Get(c3)) (+) SelPut(c2, eps)")) == [
        "c3",
        "c1",
        "c2",
    ]


# ---------------------------------------------------------------- values and traversal


def test_select_without_cases_is_refused():
    with pytest.raises(ValueError, match=r"^a select needs at least one case$"):
        select()


def test_select_keeps_its_cases_in_order():
    a, b = SelCase("get", "c1", EPS), SelCase("put", "c2", Get("c3"))
    assert select(a, b) == Select((a, b))
    assert select(b) == Select((b,))


def test_choice_without_options_is_refused():
    with pytest.raises(ValueError, match=r"^a choice needs at least one option$"):
        choice()


def test_a_choice_or_sequence_of_one_is_that_one():
    assert choice(Get("a")) == Get("a")
    assert seq(Put("a")) == Put("a")
    assert seq() == EPS


def test_dual_swaps_get_and_put_on_the_same_channel():
    assert dual(Get("c1")) == Put("c1")
    assert dual(Put("c2")) == Get("c2")


def test_children_of_each_kind_of_effect():
    body = Get("c2")
    assert children(parse("Get(c1) ; Put(c1)")) == (Get("c1"), Put("c1"))
    assert children(parse("Get(c1) + Put(c1)")) == (Get("c1"), Put("c1"))
    assert children(Spawn(body)) == (body,)
    assert children(parse("SelGet(c1, Get(c2)) (+) SelPut(c3, eps)")) == (body, EPS)
    assert children(Get("c1")) == ()
    assert children(ChanE("c1")) == ()
    assert children(EPS) == ()


def test_walk_is_pre_order_left_to_right():
    effect = parse("Spawn(Get(a) ; Put(b)) ; (Get(c) + eps) ; SelGet(d, Put(e)) (+) SelPut(f, eps)")
    assert list(walk(effect)) == [
        effect,
        Spawn(Seq((Get("a"), Put("b")))),
        Seq((Get("a"), Put("b"))),
        Get("a"),
        Put("b"),
        Choice((Get("c"), EPS)),
        Get("c"),
        EPS,
        Select((SelCase("get", "d", Put("e")), SelCase("put", "f", EPS))),
        Put("e"),
        EPS,
    ]


def test_channels_include_declared_and_select_channels():
    assert channels(seq(ChanE("c9"), Get("c1"), Put("c9"))) == ["c9", "c1"]
    assert channels(parse("SelGet(c2, eps) (+) SelPut(c1, eps)")) == ["c2", "c1"]
    assert channels(parse("Spawn(eps) ; eps + eps")) == []


@pytest.mark.parametrize(
    ("effect", "communicates"),
    [
        (EPS, False),
        (Spawn(seq(EPS, Spawn(EPS))), False),
        (choice(EPS, Spawn(EPS)), False),
        (Get("c1"), True),
        (Put("c1"), True),
        (ChanE("c1"), True),
        (select(SelCase("get", "c1", EPS)), True),
        (Spawn(choice(EPS, Put("c1"))), True),
    ],
)
def test_has_channel_tells_whether_an_effect_communicates(effect, communicates):
    assert has_channel(effect) is communicates


def test_count_spawns_counts_nested_spawns_and_nothing_else():
    assert count_spawns(parse("Get(c1) ; eps + Put(c1)")) == 0
    assert count_spawns(parse("Spawn(Spawn(eps) ; SelGet(c1, Spawn(eps))) ; Spawn(eps)")) == 4


def test_size_counts_nodes_and_select_cases():
    assert size(EPS) == 1
    assert size(parse("Get(c1) ; Put(c1)")) == 3
    # select (1) + its 2 cases + their bodies (Put, eps)
    assert size(parse("SelGet(c1, Put(c2)) (+) SelPut(c2, eps)")) == 5
    assert size(parse("Spawn(SelGet(c1, eps))")) == 4


def test_without_chan_decls_removes_every_chan_everywhere():
    effect = parse(
        "Chan(c1) ; Chan(c2) ; Spawn(Chan(c3) ; Put(c1)) ;"
        " (Chan(c4) + Get(c2) ; Chan(c5)) ; SelGet(c1, Chan(c6) ; Put(c2)) (+) SelPut(c2, Chan(c7))"
    )
    assert without_chan_decls(effect) == parse(
        "Spawn(Put(c1)) ; (eps + Get(c2)) ; SelGet(c1, Put(c2)) (+) SelPut(c2, eps)"
    )
    assert without_chan_decls(ChanE("c1")) == EPS
    assert without_chan_decls(Get("c1")) == Get("c1")


# ---------------------------------------------------------------- printing


def test_every_kind_prints_in_ascii_and_in_unicode():
    effect = parse(
        "Chan(c1) ; Spawn(Put(c1)) ; (eps + Get(c1)) ; SelGet(c1, eps) (+) SelPut(c1, eps)"
    )
    assert to_text(effect) == (
        "Chan(c1) ; Spawn(Put(c1)) ; (eps + Get(c1)) ; SelGet(c1, eps) (+) SelPut(c1, eps)"
    )
    assert to_text(effect, unicode=True) == (
        "Chan(c1) ; Spawn(Put(c1)) ; (ε + Get(c1)) ; SelGet(c1, ε) ⊕ SelPut(c1, ε)"
    )


def test_printing_something_else_than_an_effect_is_a_type_error():
    with pytest.raises(TypeError, match=r"^not an effect: 'Get\(c1\)'$"):
        to_text("Get(c1)")


def test_head_text_elides_select_bodies_and_prints_anything_else_whole():
    assert head_text(parse("SelGet(c1, Put(c2)) (+) SelPut(c3, eps)")) == (
        "SelGet(c1, …) (+) SelPut(c3, …)"
    )
    assert head_text(parse("Get(c1) ; Put(c2)")) == "Get(c1) ; Put(c2)"


# ---------------------------------------------------------------- parse errors


def test_parse_error_names_what_it_found():
    with pytest.raises(EffectSyntaxError) as end:
        parse("Get(c1")
    assert end.value.found == "end of input"
    assert str(end.value) == "at position 7: expected ')', found end of input"
    with pytest.raises(EffectSyntaxError) as token:
        parse("Get(c1) Put(c1)")
    assert token.value.found == "'Put'"
    assert token.value.text == "Get(c1) Put(c1)"
    assert str(token.value) == (
        "at position 9: expected ';', '+', '(+)' or end of input, found 'Put'"
    )


def test_an_unknown_character_is_named_with_its_position():
    with pytest.raises(EffectSyntaxError) as info:
        parse("Get(c1) ; Put(c1) $")
    assert (info.value.position, info.value.found) == (18, "'$'")
    assert info.value.pointer() == "Get(c1) ; Put(c1) $\n                  ^"


def test_parse_error_pointer_shows_only_the_offending_line():
    text = "Spawn(Put(c1)) ;\n  Get(c1) ;\n  Put(c2) Put(c3)\nGet(c2)"
    with pytest.raises(EffectSyntaxError) as info:
        parse(text)
    assert info.value.position == text.index("Put(c3)")
    assert info.value.pointer() == "  Put(c2) Put(c3)\n          ^"


def test_parse_error_pointer_on_the_first_and_on_the_last_line():
    with pytest.raises(EffectSyntaxError) as first:
        parse("Get(c1) Put(c1)\n; Get(c2)")
    assert first.value.pointer() == "Get(c1) Put(c1)\n        ^"
    with pytest.raises(EffectSyntaxError) as last:
        parse("Get(c1)\n; Get(")
    assert last.value.pointer() == "; Get(\n      ^"


@pytest.fixture
def deep_stack():
    """Room for the deepest nesting even when every call costs more frames (under mutmut,
    whose trampolines put two more frames under each call)."""
    before = sys.getrecursionlimit()
    sys.setrecursionlimit(max(before, 20_000))
    yield
    sys.setrecursionlimit(before)


def test_parser_accepts_the_deepest_nesting_allowed(deep_stack):
    assert parse("(" * (MAX_NESTING - 1) + "Get(c1)" + ")" * (MAX_NESTING - 1)) == Get("c1")
    spawns = "Spawn(" * (MAX_NESTING - 1) + "eps" + ")" * (MAX_NESTING - 1)
    assert count_spawns(parse(spawns)) == MAX_NESTING - 1


def test_parser_refuses_deeper_nesting_with_its_position(deep_stack):
    text = "(" * MAX_NESTING + "Get(c1)" + ")" * MAX_NESTING
    with pytest.raises(EffectSyntaxError) as info:
        parse(text)
    assert info.value.position == MAX_NESTING
    assert info.value.expected == f"at most {MAX_NESTING} levels of nesting"
    assert info.value.found == "a deeper one"


def test_a_channel_named_like_a_keyword_is_refused():
    for keyword in ("eps", "Get", "Put", "Chan", "Spawn", "SelGet", "SelPut"):
        with pytest.raises(EffectSyntaxError, match="expected a channel name") as info:
            parse(f"Get({keyword})")
        assert info.value.position == 4
    assert parse("Get(Eps) ; Put(get)") == Seq((Get("Eps"), Put("get")))


def test_a_select_case_keeps_its_direction_channel_and_body():
    assert parse("SelPut(c2, Get(c1) ; Put(c3)) (+) SelGet(c4, eps)") == Select(
        (SelCase("put", "c2", Seq((Get("c1"), Put("c3")))), SelCase("get", "c4", EPS))
    )


def test_chan_get_put_and_eps_parse_to_their_values():
    assert parse("Chan(c1) ; Get(c1) ; Put(c1) ; eps ; ε") == Seq(
        (ChanE("c1"), Get("c1"), Put("c1"))
    )
    assert parse("eps") == EPS
    assert parse("(eps)") == EPS


def test_parse_error_pointer_after_a_leading_newline():
    with pytest.raises(EffectSyntaxError) as info:
        parse("\nGet(c1) Put(c1)")
    assert info.value.pointer() == "Get(c1) Put(c1)\n        ^"


def test_parse_error_pointer_stops_at_the_first_line_end_after_the_position():
    with pytest.raises(EffectSyntaxError) as info:
        parse("Get(c1) Put(c1)\n; Get(c2)\n; Get(c3)")
    assert info.value.pointer() == "Get(c1) Put(c1)\n        ^"


def test_parse_error_pointer_at_a_line_end_shows_the_empty_line():
    error = EffectSyntaxError("\nGet(c1)", 0, "an effect", "'\\n'")
    assert error.pointer() == "\n^"
    assert EffectSyntaxError("Get(c1)\n", 7, "an effect", "x").pointer() == "Get(c1)\n       ^"


def test_nesting_is_counted_down_when_a_group_closes():
    # Closed groups side by side are no nesting at all.
    assert parse(" ; ".join(["(Get(c1) ; (Put(c1)))"] * (2 * MAX_NESTING))) == Seq(
        (Get("c1"), Put("c1")) * (2 * MAX_NESTING)
    )


def test_nesting_after_a_closed_group_counts_from_where_it_stands(deep_stack):
    # Inside one group, a closed group then MAX_NESTING - 1 more: one level too deep.
    deep = "(" * (MAX_NESTING - 1) + "Get(c1)" + ")" * (MAX_NESTING - 1)
    text = f"((Get(c1)) ; {deep})"
    with pytest.raises(EffectSyntaxError, match="levels of nesting") as info:
        parse(text)
    assert info.value.position == text.index("Get(c1)", 3)
    assert info.value.text == text
    assert parse(f"((Get(c1)) ; {deep[1:-1]})") == Seq((Get("c1"), Get("c1")))


@pytest.mark.parametrize("op", ["(+)", "( + )", "⊕"])
def test_a_misplaced_select_operator_is_named_in_its_canonical_spelling(op):
    with pytest.raises(EffectSyntaxError) as info:
        parse(f"Get(c1) {op} SelGet(c1, eps)")
    assert (info.value.position, info.value.found) == (8, "'(+)'")


@pytest.mark.parametrize(
    ("text", "position"),
    [("Get(c1) ; ; Get(c1)", 10), ("Get(c1) ; )", 10), ("(, Get(c1))", 1), ("+", 0)],
)
def test_punctuation_other_than_an_opening_parenthesis_is_not_an_effect(text, position):
    with pytest.raises(EffectSyntaxError) as info:
        parse(text)
    assert (info.value.position, info.value.expected) == (position, "an effect")


# ---------------------------------------------------------------- beyond the paper


@given(extended_effects())
def test_buffered_close_and_range_print_then_parse_back(effect):
    assert parse(to_text(effect)) == effect
    assert parse(to_text(effect, unicode=True)) == effect


def test_an_unbounded_channel_prints_and_parses_by_that_word() -> None:
    effect = parse("Chan(c, unbounded) ; Put(c) ; Get(c)")
    assert capacities(effect) == {"c": UNBOUNDED}
    assert to_text(effect) == "Chan(c, unbounded) ; Put(c) ; Get(c)"
    # Its number is no capacity one may write: the syntax's numbers stop at 64.
    with pytest.raises(EffectSyntaxError, match="a capacity from 0 to 64, or unbounded"):
        parse(f"Chan(c, {UNBOUNDED}) ; Put(c) ; Get(c)")


def test_a_declared_capacity_closes_and_ranges_parse() -> None:
    effect = parse("Chan(c, 2) ; Spawn(Put(c) ; Close(c)) ; Range(c, Get(d))")
    assert capacities(effect) == {"c": 2}
    assert uses_extension(effect)
    assert channels(effect) == ["c", "d"]
    assert to_text(effect) == "Chan(c, 2) ; Spawn(Put(c) ; Close(c)) ; Range(c, Get(d))"


@pytest.mark.parametrize(
    ("effect", "beyond"),
    [
        (seq(ChanE("c", 1), Get("c")), True),  # the smallest buffer
        (Spawn(Close("c")), True),
        (Range("c", EPS), True),
        (seq(ChanE("c"), Spawn(Put("c")), Get("c")), False),
    ],
)
def test_each_extension_alone_goes_beyond_the_paper(effect: Effect, beyond: bool) -> None:
    assert uses_extension(effect) is beyond


def test_an_unbuffered_declaration_prints_without_a_capacity() -> None:
    assert to_text(parse("Chan(c, 0) ; Get(c)")) == "Chan(c) ; Get(c)"
    assert not uses_extension(parse("Chan(c, 0) ; Get(c)"))


@pytest.mark.parametrize(
    ("text", "position", "expected"),
    [
        ("Chan(c,) ; Get(c)", 7, "the capacity of c (a whole number from 0 to 64, or unbounded)"),
        ("Chan(c, x)", 8, "the capacity of c (a whole number from 0 to 64, or unbounded)"),
        ("Chan(c, 65)", 8, "a capacity from 0 to 64, or unbounded"),
        ("Put(c) ; Close(c)", 9, "Close(c) on a channel declared by Chan(c) or Chan(c, k)"),
        (
            "Range(d, eps) ; Chan(c)",
            0,
            "Range(d, …) on a channel declared by Chan(d) or Chan(d, k)",
        ),
        ("Chan(c, 1) ; Chan(c, 2)", 18, "capacity 1 for c, as declared at position 6"),
    ],
)
def test_bad_capacities_and_undeclared_closes_are_refused_with_the_position(
    text, position, expected
):
    with pytest.raises(EffectSyntaxError) as info:
        parse(text)
    assert (info.value.position, info.value.expected) == (position, expected)


def test_a_declaration_after_the_close_counts() -> None:
    assert parse("Close(c) ; Chan(c)") == seq(Close("c"), ChanE("c"))


def test_close_positions_point_at_every_close_of_a_channel() -> None:
    text = "Chan(c) ; Close(c) ; Close(d) ; Close( c )"
    assert close_positions(text, "c") == [10, 32]


def test_a_select_may_end_with_a_default() -> None:
    effect = parse("SelGet(c, Put(d)) (+) SelPut(e, eps) (+) Default(Put(d) ; Get(c))")
    assert isinstance(effect, Select) and len(effect.cases) == 2
    assert effect.default == parse("Put(d) ; Get(c)")
    shown = "SelGet(c, Put(d)) ⊕ SelPut(e, ε) ⊕ Default(Put(d) ; Get(c))"
    assert to_text(effect, unicode=True) == shown
    assert uses_extension(effect) and channels(effect) == ["c", "e", "d"]
    assert head_text(effect) == "SelGet(c, …) (+) SelPut(e, …) (+) Default(…)"


@pytest.mark.parametrize(
    ("text", "position", "why"),
    [
        ("SelGet(c, eps) (+) Default(eps) (+) SelGet(c, eps)", 32, "a Default ends its select"),
        ("Default(eps)", 0, "a Default only ends a select, after its cases"),
    ],
)
def test_a_default_out_of_place_is_refused(text: str, position: int, why: str) -> None:
    with pytest.raises(EffectSyntaxError) as info:
        parse(text)
    assert info.value.position == position
    assert why in info.value.expected

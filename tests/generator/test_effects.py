"""Effect values and their text syntax (SPEC §10)."""

import pytest
from hypothesis import given

from generator.effects import (
    EPS,
    Choice,
    EffectSyntaxError,
    Get,
    Put,
    SelCase,
    Select,
    Seq,
    Spawn,
    channels,
    choice,
    parse,
    seq,
    to_text,
)
from tests.generator.strategies import effects


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
        ("Got(c1)", 0, "an effect (eps, Get, Put, Chan, Spawn, SelGet, SelPut or '(')"),
        ("Get(c1) $ Put(c1)", 8, "an effect"),
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

"""textlib: strings' pure functions and a bufio.Scanner, on text gocheck knows."""

from __future__ import annotations

import pytest

from generator.gocheck import textlib
from generator.gocheck.values import ERROR, NIL, UNKNOWN, WRAPPING


def tokens(text: str, words: bool = False) -> list[str]:
    sc = textlib.scanner(text)
    sc = (*sc[:3], words)
    out = []
    while True:
        more, sc = textlib.scan(sc)
        if not more:
            return out
        out.append(sc[2])


@pytest.mark.parametrize("text, want", [
    ("a\nb\n", ["a", "b"]),          # no empty token after the last newline
    ("a\n\nb", ["a", "", "b"]),      # an empty line is a token; the last needs no newline
    ("a\r\nb", ["a", "b"]),          # a carriage return before the newline is dropped
    ("", []),
])
def test_lines_split_as_bufio_scan_lines_does(text, want):
    assert tokens(text) == want


def test_words_split_on_any_run_of_spaces():
    assert tokens("  go  run\tfast\n", words=True) == ["go", "run", "fast"]


def test_text_that_is_not_ascii_stays_unknown():
    # Go counts bytes where Python counts code points: only ASCII is computed.
    assert textlib.scanner("héllo") is UNKNOWN
    assert textlib.strings_call("strings.Index", ["héllo", "l"]) is UNKNOWN


@pytest.mark.parametrize("name, args, want", [
    ("strings.TrimSpace", [" a b \n"], "a b"),
    ("strings.HasPrefix", ["# note", "#"], True),
    ("strings.TrimSuffix", ["page.md", ".md"], "page"),
    ("strings.TrimPrefix", ["page.md", "x"], "page.md"),
    ("strings.Index", ["abc", "c"], 2),
    ("strings.IndexByte", ["a\nb", 10], 1),  # a byte: the delimiter of a ReadString
    ("strings.IndexByte", ["ab", 10], -1),
    ("strings.IndexByte", ["ab", 200], UNKNOWN),  # not ASCII
    ("strings.Count", ["cheese", ""], 7),  # Go: 1 + the number of runes
    ("strings.Split", ["a,b", ","], UNKNOWN),  # a slice: strings_list's
])
def test_strings_functions_of_known_text(name, args, want):
    assert textlib.strings_call(name, args) == want


@pytest.mark.parametrize("name, args, want", [
    # A cron spec: the parser checks it has six fields.
    ("strings.Fields", ["* * * * * ?"], ("*", "*", "*", "*", "*", "?")),
    ("strings.Fields", ["  a\tb\n "], ("a", "b")),
    ("strings.Fields", ["a\x1cb"], ("a\x1cb",)),  # not a space to Go, though to Python
    ("strings.Split", ["a,b,", ","], ("a", "b", "")),
    ("strings.Split", ["", ","], ("",)),
    ("strings.Split", ["ab", ""], None),  # by UTF-8 sequences: left unknown
    ("strings.Split", ["é,b", ","], None),
])
def test_strings_functions_giving_a_slice_of_known_text(name, args, want):
    assert textlib.strings_list(name, args) == want


ERR = WRAPPING  # strconv's *NumError wraps ErrSyntax or ErrRange


@pytest.mark.parametrize("name, args, want", [
    # A key=value pair split once: a test's t.Fatalf on a wrong key was a branch both ways.
    ("strings.Cut", ["a=1", "="], ("tuple", ("a", "1", True))),
    ("strings.Cut", ["a", "="], ("tuple", ("a", "", False))),
    ("strings.Cut", ["ab", ""], ("tuple", ("", "ab", True))),  # Index of "" is 0
    ("strings.CutPrefix", ["v1.2", "v"], ("tuple", ("1.2", True))),
    ("strings.CutSuffix", ["a.go", ".md"], ("tuple", ("a.go", False))),
    ("strings.Trim", ["--a-b--", "-"], "a-b"),
    ("strings.TrimLeft", ["xxa", "x"], "a"),
    ("strings.ReplaceAll", ["a.b.c", ".", "/"], "a/b/c"),
    ("strings.Replace", ["a.b.c", ".", "/", 1], "a/b.c"),
    ("strings.Replace", ["a.b.c", ".", "/", -1], "a/b/c"),
    ("strings.Repeat", ["ab", 3], "ababab"),
    ("strings.Repeat", ["ab", -1], UNKNOWN),  # Go panics
    ("strings.Repeat", ["ab", 10**9], UNKNOWN),  # too long to keep
    ("strings.Compare", ["a", "b"], -1),
    ("strconv.Atoi", ["42"], ("tuple", (42, NIL))),
    ("strconv.Atoi", ["-7"], ("tuple", (-7, NIL))),
    ("strconv.Atoi", ["+7"], ("tuple", (7, NIL))),
    ("strconv.Atoi", ["4_2"], ("tuple", (0, ERR))),  # Python's int() would take it
    ("strconv.Atoi", [" 42"], ("tuple", (0, ERR))),
    ("strconv.Atoi", ["x"], ("tuple", (0, ERR))),
    ("strconv.Atoi", ["99999999999999999999"], ("tuple", ((1 << 63) - 1, ERR))),
    ("strconv.ParseInt", ["200", 10, 8], ("tuple", (127, ERR))),
    ("strconv.ParseInt", ["-128", 10, 8], ("tuple", (-128, NIL))),
    ("strconv.ParseInt", ["ff", 16, 64], UNKNOWN),  # only base 10 is computed
    ("strconv.ParseBool", ["T"], ("tuple", (True, NIL))),
    ("strconv.ParseBool", ["yes"], ("tuple", (False, ERR))),
    ("strconv.FormatInt", [-255, 16], "-ff"),
    ("strconv.FormatInt", [0, 2], "0"),
    ("strconv.FormatBool", [True], "true"),
    ("strconv.FormatBool", [1], UNKNOWN),
    ("strconv.Quote", ['say "hi"\\'], '"say \\"hi\\"\\\\"'),
    ("strconv.Quote", ["tab\t"], UNKNOWN),  # escapes beyond \\ and " are not computed
    ("strconv.Atoi", [UNKNOWN], UNKNOWN),
    # A config's timeout: an error branch that never happens went both ways.
    ("time.ParseDuration", ["1h30m"], ("tuple", (5_400_000_000_000, NIL))),
    ("time.ParseDuration", ["1.5s"], ("tuple", (1_500_000_000, NIL))),
    ("time.ParseDuration", [".5s"], ("tuple", (500_000_000, NIL))),
    ("time.ParseDuration", ["-2ms"], ("tuple", (-2_000_000, NIL))),
    ("time.ParseDuration", ["0"], ("tuple", (0, NIL))),
    ("time.ParseDuration", ["1"], ("tuple", (0, ERROR))),  # a unit is needed
    ("time.ParseDuration", ["."], ("tuple", (0, ERROR))),
    ("time.ParseDuration", ["-"], ("tuple", (0, ERROR))),
    ("time.ParseDuration", ["1.0000000001s"], UNKNOWN),  # Go's float rounding
])
def test_strings_and_strconv_functions_with_several_results_or_ints(name, args, want):
    assert textlib.strings_call(name, args) == want


def test_join_of_known_texts():
    assert textlib.join(("a", "b", "c"), ", ") == "a, b, c"
    assert textlib.join(("a", UNKNOWN), ",") is UNKNOWN

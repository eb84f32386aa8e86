"""generator/gocheck/formatting.py: fmt.Sprintf, Sprint, Sprintln and strconv.Itoa computed only
where the result is certain, as Go prints it."""

from __future__ import annotations

from generator.gocheck import formatting
from generator.gocheck.values import UNKNOWN


def test_sprintf_of_known_ints_strings_and_bools_is_gos_text():
    assert formatting.sprintf("web-%d", [3]) == "web-3"
    assert formatting.sprintf("%s/%v/%v %%", ["a", 7, True]) == "a/7/true %"


def test_sprintf_gives_up_on_unknowns_flags_wrong_verbs_and_extra_operands():
    assert formatting.sprintf("web-%d", [UNKNOWN]) is None
    assert formatting.sprintf("%03d", [3]) is None
    assert formatting.sprintf("%d", ["x"]) is None
    assert formatting.sprintf("%s", [True]) is None
    assert formatting.sprintf("%d", [1, 2]) is None
    assert formatting.sprintf("%d %d", [1]) is None
    assert formatting.sprintf("%", []) is None


def test_sprint_spaces_only_between_operands_that_are_not_strings():
    assert formatting.sprint([1, 2, "a", 3, "b", "c"]) == "1 2a3bc"
    assert formatting.sprint([1, UNKNOWN]) is None


def test_sprintln_spaces_between_every_two_operands_and_ends_the_line():
    assert formatting.sprintln(["quit"]) == "quit\n"
    assert formatting.sprintln([1, "a", True]) == "1 a true\n"
    assert formatting.sprintln([]) == "\n"
    assert formatting.sprintln(["a", UNKNOWN]) is None


def test_operands_of_named_types_are_unknown_since_they_may_have_a_string_method():
    assert formatting.operand(("iface", "int", 4)) == 4
    assert formatting.operand(("iface", "main.Kind", 4)) == UNKNOWN


def test_itoa_and_long_results():
    assert formatting.itoa(-12) == "-12"
    assert formatting.itoa(True) is None
    assert formatting.sprintf("%s", ["x" * 65]) is None

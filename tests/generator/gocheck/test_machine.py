"""Pieces of gocheck's interpreter that need no Go front end."""

from __future__ import annotations

from generator.gocheck.instructions import CPU_COUNTS, LocalInstructions
from generator.gocheck.state import State
from generator.gocheck.values import NIL, UNKNOWN, value_holds_sync


def test_a_channel_as_the_first_field_of_a_struct_is_seen():
    assert value_holds_sync(("struct", (("chan", 1), 0)))
    assert value_holds_sync(("struct", (0, ("struct", (("mu", False),)))))
    assert value_holds_sync(("array", (NIL, ("fn", "main.f", ()))))


def test_plain_data_holds_no_sync_object():
    assert not value_holds_sync(("struct", (0, "x", UNKNOWN, NIL)))
    assert not value_holds_sync(("array", ()))
    assert not value_holds_sync(3)


def test_a_cpu_count_once_chosen_is_the_only_one_left():
    st = State(gs=[])
    assert LocalInstructions.cpu_choices(st) == CPU_COUNTS
    LocalInstructions.take_cpus(st, 2)
    assert LocalInstructions.cpu_choices(st) == (2,)

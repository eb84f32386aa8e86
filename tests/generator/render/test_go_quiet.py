"""The Go quiet-channel check (generator.render._go_quiet): one call per channel after the
run's joins, draws that fit each channel, and `quiet=False` writing the files of before."""

from __future__ import annotations

import random
import re

import pytest

from generator.effects import parse
from generator.pipeline import generate_program
from generator.render import quiet_check, render, render_batch
from generator.render._common import ORACLE_EXIT, ORACLE_PREFIX, QUIET_WRONG, lower, used_channels
from generator.render.go import _dead_case_channels
from generator.settings import settings_for
from generator.synthesis import synthesize

CALL = re.compile(
    # A program rendered alone is program 0.
    r'^\tquiet\((\w+), 0, "(\w+)", (\d+), (true|false), (\d+), (\w+), (true|false), (\d+)\)$'
)
NIL = re.compile(r'^\tquietNil\((\w+), "(\w+)"\)$')
WAKES = {  # (allowed when the channel is empty, allowed when it is full)
    "quietRecvBySend": (True, False),
    "quietRecvByClose": (True, False),
    "quietSendByRecv": (False, True),
    "quietSendByClose": (False, True),
}


def _buffered(seed: int, heuristic: str = "A"):  # noqa: ANN202
    settings = settings_for(heuristic, buffered=True)
    return generate_program(seed, settings).program


def _run_body(text: str) -> list[str]:
    """The lines of prog0Once, the run."""
    lines = text.splitlines()
    start = lines.index("func prog0Once() {")
    return lines[start + 1 : lines.index("}", start)]


@pytest.mark.parametrize("values", [False, True])
@pytest.mark.parametrize("seed", range(12))
def test_every_channel_is_checked_once_after_the_joins_with_draws_that_fit_it(
    seed: int, values: bool
) -> None:
    program = _buffered(seed, "AF"[seed % 2])
    text = render(program, "go", seed=seed, values=values)
    lowered = lower(program)
    body = _run_body(text)
    dead = _dead_case_channels(lowered)
    calls = {}
    for line in body:
        if m := CALL.match(line):
            var, name, cap, closable, fill, wake, _, drain = m.groups()
            assert var == name and name not in calls and name not in dead
            assert int(cap) == lowered.capacity(name)
            assert (closable == "true") == (name in lowered.closed())
            assert 0 <= int(drain) <= int(fill) <= int(cap)
            if wake != "0":  # a receive parks on an empty channel, a send on a full one
                empty, full = WAKES[wake]
                assert (empty and int(fill) == 0) or (full and int(fill) == int(cap))
            calls[name] = line
        elif m := NIL.match(line):
            assert m.group(1) == m.group(2) in dead and m.group(2) not in calls
            calls[m.group(2)] = line
    assert set(calls) == set(used_channels(lowered))
    # After the joins and the value oracle's check, and once per run: reflect.Select of a
    # default alone.
    first = min(body.index(line) for line in calls.values()) if calls else len(body)
    assert body.index("\tquietNothing()") < first
    for before in ("\twg.Wait()", "\tvals.check()"):
        if before in body:
            assert body.index(before) < body.index("\tquietNothing()")


def test_messages_are_numbered_under_the_value_oracle_only() -> None:
    program = synthesize(parse("Chan(c1, 2) ; Spawn(Put(c1)) ; Get(c1)"), random.Random(0))
    numbered = render(program, "go", seed=0, values=True)
    assert "func quietMsg(i int) int {\n\treturn i\n}" in numbered
    assert "func quietIs(v int, i int) bool {\n\treturn v == i\n}" in numbered
    unit = render(program, "go", seed=0)
    assert "func quietMsg(i int) struct{} {\n\treturn struct{}{}\n}" in unit
    assert "func quietIs(v struct{}, i int) bool {\n\treturn true\n}" in unit
    for text in (numbered, unit):
        assert "QELEM" not in text and "QMSG" not in text and "QIS" not in text


def test_a_batch_names_each_programs_channels_for_the_once_a_process_wake() -> None:
    programs = [_buffered(seed) for seed in range(4)]
    text = render_batch(programs, "go", seed=1)
    for i in range(len(programs)):
        body = text[text.index(f"func prog{i}Once() {{") :]
        body = body[: body.index("\n}\n")]
        calls = [line for line in body.splitlines() if line.startswith("\tquiet(")]
        assert calls and all(re.match(rf'\tquiet\((\w+), {i}, "\1", ', line) for line in calls)
    assert "if key := (quietKey{prog, name}); wake != 0 && !quietWoken[key] {" in text


def test_a_parked_goroutine_is_seen_in_the_stacks_and_counted_in_the_block_profile() -> None:
    program = synthesize(parse("Spawn(Put(c1)) ; Get(c1)"), random.Random(0))
    text = render(program, "go", seed=0)
    body = text[text.index("func quietWake(") :]
    assert "runtime.SetBlockProfileRate(1)" in body and "runtime.SetBlockProfileRate(0)" in body
    assert "quietParked(fn, reason)" in body and "quietBlocked(fn)" in body
    # What the woken goroutine reports is awaited by polling, then, if it never comes (a
    # wake-up the runtime lost), by blocking: a hang, not a spin to the timeout.
    wait = text[text.index("func quietGotten(") :]
    wait = wait[: wait.index("\n}\n")]
    assert "for i := 0; i < 1000; i++ {" in wait and wait.endswith("return <-got")
    assert text.count("quietGotten(got)") == 4
    # Found by name in stacks: neither may be inlined.
    for fn in ("quietRecv", "quietSend"):
        assert f"//go:noinline\nfunc {fn}(" in text
    # A closed channel's send and second close must panic with the runtime's own words.
    assert '"send on closed channel"' in text and '"close of closed channel"' in text


def test_the_check_says_what_was_wrong_as_the_value_oracle_does() -> None:
    program = synthesize(parse("Spawn(Put(c1)) ; Get(c1)"), random.Random(0))
    text = render(program, "go", seed=0)
    line = (
        f'fmt.Fprintf(os.Stderr, "{ORACLE_PREFIX}{QUIET_WRONG} (%s): %s on %s\\n", by, detail, c)'
    )
    assert line in text and f"os.Exit({ORACLE_EXIT})" in text
    imports = text[text.index("import (") : text.index(")")]
    for name in ("fmt", "os", "reflect", "runtime", "strings"):
        assert f'"{name}"' in imports


@pytest.mark.parametrize("seed", range(6))
def test_without_the_check_the_file_is_the_one_of_before(seed: int) -> None:
    program = _buffered(seed)
    text = render(program, "go", seed=seed, quiet=False, values=True)
    assert "quiet" not in text and '"strings"' not in text
    # The check draws after each run's body: without it, the rest of the file varies alike.
    with_check = render(program, "go", seed=seed, values=True)
    assert with_check.count("func prog0Once() {") == 1


def test_the_check_is_seeded() -> None:
    program = _buffered(7)
    first = render(program, "go", seed=7)
    assert first == render(program, "go", seed=7)
    others = {render(program, "go", seed=s) for s in range(8)}
    assert len(others) > 1


def test_the_version_of_the_check_is_named_where_programs_end_with_it() -> None:
    go = quiet_check("go")
    assert go is not None and re.fullmatch(r"[0-9a-f]{8}", go)
    assert quiet_check("go", quiet=False) is None
    assert quiet_check("rust", flavour="crossbeam") not in (None, go)
    assert quiet_check("rust", flavour="chan") is None
    assert quiet_check("crystal") is None


def test_every_way_of_waking_a_parked_goroutine_is_drawn() -> None:
    seen = set()
    for seed in range(30):
        text = render(_buffered(seed), "go", seed=seed)
        seen |= {m.group(6, 7) for line in text.splitlines() if (m := CALL.match(line))}
    assert {w for w, _ in seen} == {"0", *WAKES}
    assert {sel for _, sel in seen} == {"true", "false"}

"""The quiet-channel check of the Rust renderer (issue #14, quick): after a run's joins,
crossbeam and flume programs check every channel they made (observers, a fill, one side
dropped) and that no message outlives the run; messages have drop glue. chan and std are
left as they were, and `quiet=False` writes the files of before the check.

Slow: tests/runners/mutation/test_rust_mutants.py runs the check on mutants it kills."""

from __future__ import annotations

import random
import re

import pytest

from generator.effects import UNBOUNDED, parse
from generator.pipeline import generate_program
from generator.render import _rust_quiet, render
from generator.render._common import ORACLE_EXIT, ORACLE_PREFIX, QUIET_WRONG, lower, used_channels
from generator.render._rust_quiet import FLUME_COUNTS, QUIET_CRATES, UNBOUNDED_FILL
from generator.render.rust import FLAVOURS, quiet_check_id
from generator.settings import settings_for
from generator.synthesis import synthesize
from runners.targets import get_target
from tests.generator.render.test_rust import TARGET_OF

QUIET = sorted(QUIET_CRATES)
SEEDS = range(12)
# quiet_(c1_tx, c1_rx, "c1", cap, fill, senders_first, drain); on crossbeam, one line of
# quiet_all_(vec![…]): (c1_tx, c1_rx, "c1", cap, fill, senders_first, drain), where cap is
# usize::MAX for an unbounded channel.
CALL = re.compile(
    r'^\s*(?:quiet_)?\((\w+)_tx, (\w+)_rx, "(\w+)", (\d+|usize::MAX), (\d+), (true|false), '
    r"(\d+)\)[;,]$"
)


def _capacity(cap: str) -> int:
    """A call's capacity as the program declares it."""
    return UNBOUNDED if cap == "usize::MAX" else int(cap)


def _buffered(seed: int, flavour: str):
    capabilities = get_target(TARGET_OF[flavour]).capabilities
    return generate_program(seed, settings_for("A", buffered=True), capabilities).program


def _once_body(text: str, i: int = 0) -> list[str]:
    lines = text.splitlines()
    header = re.compile(rf"(async )?fn prog{i}_once\((vals: &'static ValueCheck)?\) \{{$")
    start = next(n for n, line in enumerate(lines) if header.match(line))
    end = lines.index("}", start)
    return lines[start + 1 : end]


@pytest.mark.parametrize("values", [False, True])
@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("flavour", QUIET)
def test_every_channel_is_checked_once_with_its_capacity_after_the_joins(
    flavour: str, seed: int, values: bool
) -> None:
    program = _buffered(seed, flavour)
    lowered = lower(program)
    text = render(program, "rust", seed=seed, flavour=flavour, values=values)
    body = _once_body(text)
    calls = [m.groups() for line in body if (m := CALL.match(line))]
    assert sorted(c[2] for c in calls) == sorted(used_channels(lowered))
    for tx, rx, name, cap, fill, senders_first, drain in calls:
        assert tx == rx == name
        assert _capacity(cap) == lowered.capacity(name)
        # An unbounded channel gets enough messages to cross the ends of blocks.
        assert 0 <= int(fill) <= min(_capacity(cap), UNBOUNDED_FILL)
        assert 0 <= int(drain) <= int(fill)
        if senders_first == "false":
            assert drain == "0"
    if calls:
        # The run's last act, after the process's joins (and the value oracle's check):
        # nobody uses the channels then. On crossbeam one call takes them all.
        first = next(i for i, line in enumerate(body) if CALL.match(line))
        if flavour == "crossbeam":
            assert body[first - 1] == "    quiet_all_(vec![" and body[-1] == "    ]);"
            assert all(line.endswith("),") for line in body[first:-1])
            first -= 1
        else:
            assert "quiet_all_" not in text
        assert len(body) - first == len(calls) + 2 * (flavour == "crossbeam")
        before = "\n".join(body[:first])
        assert "join_(handles_)" in before or "handles_" not in before
        if values:
            assert body[first - 1].strip() == "vals.check();"
    # Every run of the program is followed by the check that no message is left alive.
    args = "vals" if values else ""
    assert text.count(f"prog0_once({args}){'.await' if flavour == 'flume-async' else ''};\n") == 1
    assert re.search(rf"prog0_once\({args}\)(\.await)?;\n\s*quiet_dropped\(\);", text)
    # ...which also ends the program's first run; its runs start by saying it starts.
    assert re.search(r"quiet_program_starts\(\);\n\s*(for _ in|let mut rep_)", text)
    assert text.count("quiet_program_starts();") == 1


@pytest.mark.parametrize("flavour", QUIET)
def test_messages_have_drop_glue_and_sends_make_them_counted(flavour: str) -> None:
    program = synthesize(parse("Chan(c1, 2) ; Spawn(Put(c1) ; Put(c2)) ; Get(c1) ; Get(c2)"),
                         random.Random(0))  # fmt: skip
    for values in (False, True):
        text = render(program, "rust", seed=0, flavour=flavour, values=values)
        assert "bounded::<Msg_>(2)" in text and "bounded::<Msg_>(0)" in text
        assert "impl Drop for Msg_ {" in text
        sends = re.findall(r"send(?:_async)?\((msg_\(\d+\))\)", text)
        if values and flavour != "flume-async":
            # A thread's send goes through one helper, which makes the message.
            assert "tx.send(msg_(v)).unwrap();" in text
            sends = [f"msg_({v})" for v in re.findall(r"\bsend_\(&c\d_tx, (\d+), vals\);", text)]
        assert len(sends) == 2
        if values:
            assert sorted(sends) == ["msg_(1)", "msg_(2)"]
            # The value oracle reads the number a message carries (in place, or in the
            # helper of a thread's receive that only reports it).
            reads = r'vals\.recv\([^;]*\.0, "c1", false\);|vals\.recv\(rx\.recv\(\)\.unwrap\(\)\.0,'
            assert re.search(reads, text)
        else:
            assert sends == ["msg_(0)", "msg_(0)"]


def test_only_crossbeam_checks_same_channel() -> None:
    program = synthesize(parse("Spawn(Put(c1)) ; Get(c1) ; Spawn(Put(c2)) ; Get(c2)"),
                         random.Random(0))  # fmt: skip
    crossbeam = render(program, "rust", seed=0, flavour="crossbeam")
    named = sorted(CALL.match(x).group(3) for x in _once_body(crossbeam) if CALL.match(x))
    assert named == ["c1", "c2"]
    # Over every channel of the run, before any is torn down.
    body = crossbeam[crossbeam.index("fn quiet_all_(") :]
    assert body.index("quiet_same(&ends);") < body.index("quiet_(tx, rx, c,")
    assert "fn quiet_same(ends: &[QuietEnd_]) {" in crossbeam
    # And the crate's other receiver flavours: timers, never(), an unbounded channel.
    body = crossbeam[crossbeam.index("fn quiet_flavours()") :]
    for made in ("after(hour)", "tick(hour)", "never::<Msg_>()", "unbounded::<Msg_>()"):
        assert f"crossbeam_channel::{made}" in body
    # flume 0.10 has no same_channel, and one file serves every release.
    for flavour in ("flume", "flume-async"):
        assert "same_channel" not in render(program, "rust", seed=0, flavour=flavour)


def test_only_crossbeam_asks_a_select_whether_each_end_is_ready() -> None:
    program = synthesize(parse("Chan(c1, 2) ; Spawn(Put(c1)) ; Get(c1)"), random.Random(0))
    crossbeam = render(program, "rust", seed=0, flavour="crossbeam")
    # Once filled, in quiet_: the end's operation alone in a Select, blocking and not.
    assert crossbeam.count("quiet_ready(&tx, &rx, c, cap, fill);") == 1
    body = crossbeam[crossbeam.index("fn quiet_ready(") :]
    assert "sel.try_ready()" in body and "sel.ready_timeout(wait)" in body
    # A spurious "ready", which Select's docs allow, is wrong only three times in a row.
    assert body.count("(0..3).all(") == 2
    # The blocking form waits 600 µs an operation: in a program's first run only, and
    # alone only on a send to a full buffered channel (the others: quiet_wait, below).
    assert "if !ready && n > 0 && first && (0..3).all(|_| sel.ready_timeout(wait)" in body
    assert "CROSSBEAM:" not in crossbeam
    for flavour in ("flume", "flume-async"):
        text = render(program, "rust", seed=0, flavour=flavour)
        assert "quiet_ready" not in text and "CROSSBEAM:" not in text


def test_crossbeam_waits_on_every_empty_channel_at_once_before_filling_any() -> None:
    program = synthesize(
        parse("Chan(c1, 2) ; Spawn(Put(c1)) ; Get(c1) ; Spawn(Put(c2)) ; Get(c2)"),
        random.Random(0),
    )
    crossbeam = render(program, "rust", seed=0, flavour="crossbeam")
    calls = [CALL.match(x).groups() for x in _once_body(crossbeam) if CALL.match(x)]
    assert sorted((c[2], c[3]) for c in calls) == [("c1", "2"), ("c2", "0")]
    helper = crossbeam[crossbeam.index("fn quiet_all_(") :]
    assert helper.index("quiet_wait(&ends);") < helper.index("quiet_(tx, rx, c,")
    body = crossbeam[crossbeam.index("fn quiet_wait(") : crossbeam.index("fn quiet_ready(")]
    # One Select: every receive (each channel is empty), and the sends of rendezvous ones.
    assert body.count("crossbeam_channel::Select::new()") == 1
    assert "sel.recv(rx);" in body and "if cap == 0 {\n            sel.send(tx);" in body
    # In a program's first run only, and wrong only if ready three times in a row.
    assert "if !QUIET_FIRST_.load(" in body and "(0..3).all(|_| ready())" in body
    for flavour in ("flume", "flume-async"):
        assert "quiet_wait" not in render(program, "rust", seed=0, flavour=flavour)


def test_only_flume_checks_its_ends_and_their_counts_behind_a_feature() -> None:
    program = synthesize(parse("Spawn(Put(c1)) ; Get(c1)"), random.Random(0))
    for flavour in ("flume", "flume-async"):
        text = render(program, "rust", seed=0, flavour=flavour)
        # Both ends alive, then the one left once the other side is dropped.
        calls = re.findall(r"quiet_ends\((.*), c\);", text)
        assert calls == ["Some(&tx), Some(&rx)", "None, Some(&rx)", "Some(&tx), None"]
        # flume 0.10.14 has no sender_count(): the target turns the feature on by release.
        assert f'#[cfg(feature = "{FLUME_COUNTS}")]' in text
        assert f'#[cfg(not(feature = "{FLUME_COUNTS}"))]' in text
        assert text.count(".sender_count()") == 1 and "FLUME:" not in text
    crossbeam = render(program, "rust", seed=0, flavour="crossbeam")
    assert "quiet_ends" not in crossbeam and "sender_count" not in crossbeam


@pytest.mark.parametrize("flavour", QUIET)
def test_every_error_the_check_meets_must_say_what_it_is(flavour: str) -> None:
    program = synthesize(parse("Spawn(Put(c1)) ; Get(c1)"), random.Random(0))
    text = render(program, "rust", seed=0, flavour=flavour)
    for by in ("try_send", "try_recv"):
        assert f'quiet_shown(c, "{by}", e);' in text
    for by in ("recv", "send"):
        assert f'Err(e) => quiet_shown(c, "{by}", &e),' in text
    # The timed operations too, which must answer Disconnected at once.
    for by in ("recv_timeout", "send_timeout"):
        assert f'quiet_shown(c, "{by}", e);' in text
    assert "Err(" + QUIET_CRATES[flavour] + "::SendTimeoutError::Disconnected(_))" in text


@pytest.mark.parametrize("flavour", QUIET)
def test_the_check_says_what_was_wrong_as_the_value_oracle_does(flavour: str) -> None:
    program = synthesize(parse("Spawn(Put(c1)) ; Get(c1)"), random.Random(0))
    text = render(program, "rust", seed=0, flavour=flavour)
    assert f'eprintln!("{ORACLE_PREFIX}{QUIET_WRONG} ({{}}): {{}} on {{}}", by, detail, c);' in text
    assert f"std::process::exit({ORACLE_EXIT});" in text
    crate = QUIET_CRATES[flavour]
    assert f"Err({crate}::TrySendError::Disconnected(_)) =>" in text


@pytest.mark.parametrize("flavour", sorted(set(FLAVOURS) - set(QUIET)))
def test_chan_and_std_are_written_as_before(flavour: str) -> None:
    program = synthesize(parse("Chan(c1, 1) ; Put(c1) ; Get(c1)"), random.Random(0))
    assert render(program, "rust", seed=3, flavour=flavour) == render(
        program, "rust", seed=3, flavour=flavour, quiet=False
    )
    assert "quiet_" not in render(program, "rust", seed=3, flavour=flavour)


@pytest.mark.parametrize("flavour", QUIET)
def test_without_the_check_the_file_is_the_one_of_before(flavour: str) -> None:
    program = _buffered(4, flavour)
    text = render(program, "rust", seed=4, flavour=flavour, quiet=False, values=True)
    assert "quiet_" not in text and "Msg_" not in text and "msg_(" not in text
    assert "bounded::<u32>(" in text


@pytest.mark.parametrize("flavour", QUIET)
def test_the_check_is_seeded(flavour: str) -> None:
    program = _buffered(7, flavour)
    first = render(program, "rust", seed=7, flavour=flavour)
    assert first == render(program, "rust", seed=7, flavour=flavour)
    draws = {
        tuple(
            CALL.match(x).groups()
            for x in _once_body(render(program, "rust", seed=s, flavour=flavour))
            if CALL.match(x)
        )  # fmt: skip
        for s in range(20)
    }
    assert len(draws) > 1 or all(
        lower(program).capacity(c) == 0 for c in used_channels(lower(program))
    )


def test_the_checks_version_follows_the_code_each_flavour_writes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    before = {f: quiet_check_id(flavour=f) for f in QUIET}
    assert before["crossbeam"] != before["flume"] == before["flume-async"]
    # A line only crossbeam's files hold moves crossbeam's version, not flume's.
    monkeypatch.setattr(_rust_quiet, "_QUIET", _rust_quiet._QUIET + "\nCROSSBEAM:// another check")
    after = {f: quiet_check_id(flavour=f) for f in QUIET}
    assert after["crossbeam"] != before["crossbeam"]
    assert after["flume"] == before["flume"] and after["flume-async"] == before["flume-async"]
    # And a line of theirs moves both.
    monkeypatch.setattr(_rust_quiet, "_QUIET", _rust_quiet._QUIET + "\n// for every flavour")
    assert all(quiet_check_id(flavour=f) != after[f] for f in QUIET)


def test_the_checks_version_follows_how_full_an_unbounded_channel_gets(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The fill drawn for an unbounded channel is the check's too: a campaign of the check
    that filled a few messages never reached the ends of a list flavour's blocks."""
    before = {f: quiet_check_id(flavour=f) for f in QUIET}
    monkeypatch.setattr(_rust_quiet, "UNBOUNDED_FILL", 3)
    assert all(quiet_check_id(flavour=f) != before[f] for f in QUIET)

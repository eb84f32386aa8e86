"""Rust renderer, every flavour: golden files, joins, clones, selects, options, determinism;
slow: build each flavour with cargo and run generated programs."""

from __future__ import annotations

import dataclasses
import os
import random
import re
import time
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator import effects as fx
from generator import lambda_chan as lc
from generator.capabilities import Capabilities, InexpressibleSettings
from generator.effects import parse
from generator.pipeline import generate_program
from generator.render import GROUP_DONE, UnsupportedProgram, render, render_batch, supports
from generator.render._common import (
    Lowered,
    RecvS,
    SelectS,
    SendS,
    SpawnS,
    lower,
    spawn_sites,
    walk,
)
from generator.render._rust_helpers import select_shape
from generator.render.rust import CRATE_FEATURES, FLAVOURS
from generator.settings import settings_for
from generator.synthesis import synthesize
from runners.targets import get_target
from runners.targets.base import ToolchainUnavailable
from runners.targets.rust_cargo import LIBRARIES
from runners.targets.rust_crates import find_cargo
from runners.targets.rust_library import features_section
from tests.generator.render.helpers import (
    GOLDEN_REPETITIONS,
    GOLDEN_SEED,
    Variant,
    check_golden,
    check_group_runs,
    need,
    run,
)
from tests.generator.render.programs import (
    LONE_RECV,
    PROGRAMS,
    STUCK_CHILD,
    from_effect,
    then_all,
)
from tests.generator.strategies import effects

VARIANTS = {f: Variant(f"rust-{f}", "rust", "rs", {"flavour": f}) for f in FLAVOURS}
NO_SELECT = Capabilities(select=False, select_send=False)


# Programs without a select, so that the std flavour has something to show: a chain of
# processes, and several receivers of one channel (std shares them behind a mutex) with
# nested spawns, a let-bound receive, a spawn of nothing and spawns in a branch.
PIPELINE = from_effect(
    parse(
        "Spawn(Get(c3) ; Put(c4)) ; Spawn(Get(c2) ; Put(c3)) ; Spawn(Get(c1) ; Put(c2)) ; "
        "Put(c1) ; Get(c4)"
    )
)
SHARED = lc.Program(
    ("c1", "c2", "c3", "c4"),
    then_all(
        lc.SpawnE(lc.Send("c1")),
        lc.SpawnE(lc.Send("c1")),
        lc.SpawnE(then_all(lc.Recv("c1"), lc.Send("c2"))),
        lc.Recv("c1"),
        lc.Let(
            "got",
            lc.Recv("c2"),
            then_all(
                lc.SpawnE(then_all(lc.SpawnE(lc.Send("c3")), lc.Recv("c4"))),
                lc.If(
                    lc.Compare("<", 2, 7),
                    then_all(lc.Recv("c3"), lc.Send("c4")),
                    then_all(lc.SpawnE(lc.Unit()), lc.Recv("c3"), lc.Send("c4")),
                ),
            ),
        ),
    ),
)
# λ_chan names that are Rust keywords, for channels, receives and select cases.
KEYWORDS = lc.Program(
    ("fn", "move", "gen"),
    then_all(
        lc.SpawnE(lc.Send("fn")),
        lc.Let(
            "static",
            lc.Recv("fn"),
            then_all(
                lc.SpawnE(lc.Let("impl", lc.Recv("move"), lc.Var("impl"))),
                lc.Send("move"),
                lc.SpawnE(lc.Send("gen")),
                lc.Let("dyn", lc.Recv("gen"), lc.Var("dyn")),
            ),
        ),
    ),
)
KEYWORDS_SELECT = lc.Program(
    ("fn", "loop"),
    then_all(
        lc.SpawnE(lc.Send("fn")),
        lc.SelectE(
            (
                lc.Case("get", "fn", "match", lc.SpawnE(lc.Send("loop"))),
                lc.Case("get", "fn", "mod", lc.SpawnE(lc.Send("loop"))),
            )
        ),
        lc.Let("unsafe", lc.Recv("loop"), lc.Var("unsafe")),
    ),
)
EXTRA = {
    "pipeline": PIPELINE,
    "shared": SHARED,
    "keywords": KEYWORDS,
    "keywords_select": KEYWORDS_SELECT,
}
ALL = {**PROGRAMS, **EXTRA}

RUST_KEYWORDS = frozenset(
    """as break const continue crate else enum extern false fn for if impl in let loop match
    mod move mut pub ref return self static struct super trait true type unsafe use where
    while async await dyn abstract become box do final macro override priv typeof unsized
    virtual yield try gen""".split()  # noqa: SIM905 - a word list reads better as text
)


def _select(lowered: Lowered) -> bool:
    return any(isinstance(s, SelectS) for s in walk(lowered.body))


def _has_select(program: lc.Program) -> bool:
    return _select(lower(program))


def _golden_cases(variant: Variant) -> list[tuple[str, str]]:
    """As helpers.golden_cases, over PROGRAMS and the select-free programs above."""
    progs = {n: p for n, p in ALL.items() if supports(p, "rust", **variant.options)}
    cases = [
        (
            f"{name}.{variant.name}.{variant.ext}",
            render(p, "rust", seed=GOLDEN_SEED, **variant.options),
        )
        for name, p in progs.items()
    ]
    batch = render_batch(
        list(progs.values()),
        "rust",
        seed=GOLDEN_SEED,
        repetitions=GOLDEN_REPETITIONS,
        **variant.options,
    )
    cases.append((f"batch.{variant.name}.{variant.ext}", batch))
    return cases


@pytest.mark.parametrize(
    ("filename", "text"),
    [case for v in VARIANTS.values() for case in _golden_cases(v)],
    ids=lambda x: str(x)[:40],
)
def test_golden(filename: str, text: str) -> None:
    check_golden(filename, text)


# ---------------------------------------------------------------- joins and clones


def _ends(block) -> set[str]:
    ends: set[str] = set()
    for s in walk(block):
        if isinstance(s, RecvS):
            ends.add(f"{s.chan}_rx")
        elif isinstance(s, SendS):
            ends.add(f"{s.chan}_tx")
        elif isinstance(s, SelectS):
            ends |= {f"{c.chan}_{'rx' if c.direction == 'get' else 'tx'}" for c in s.cases}
    return ends


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


@pytest.mark.parametrize("flavour", FLAVOURS)
@pytest.mark.parametrize("name", list(ALL))
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_every_spawn_clones_its_ends_and_is_joined(flavour: str, name: str, seed: int) -> None:
    program = ALL[name]
    if not supports(program, "rust", flavour=flavour):
        return
    lowered = lower(program)
    lines = render(program, "rust", seed=seed, flavour=flavour).splitlines()
    stripped = [line.strip() for line in lines]
    opener = (
        "spawn_(Box::pin(async move {" if flavour == "flume-async" else "spawn_(Box::new(move || {"
    )
    # Every process joins its children through one helper a file (tasks await it).
    is_async = flavour == "flume-async"
    join = "join_(handles_).await;" if is_async else "join_(handles_);"

    # Spawns appear in the text in the statement tree's pre-order.
    spawns = [s for s in walk(lowered.body) if isinstance(s, SpawnS)]
    pushes = [i for i, line in enumerate(stripped) if line.startswith("handles_.push(")]
    assert len(pushes) == len(spawns)
    for spawn, i in zip(spawns, pushes, strict=True):
        if not spawn.body:
            assert stripped[i] == f"handles_.push({opener}}})));"
            continue
        if not _ends(spawn.body):
            assert stripped[i] == f"handles_.push({opener}"
            continue
        # Exactly the ends the process and its descendants use, cloned right before it.
        assert stripped[i] == "handles_.push({"
        j = i + 1
        cloned = []
        while stripped[j] != opener:
            m = re.fullmatch(r"let (\w+) = (\w+)\.clone\(\);", stripped[j])
            assert m and m.group(1) == m.group(2), stripped[j]
            cloned.append(m.group(1))
            j += 1
        assert len(cloned) == len(set(cloned))
        assert set(cloned) == _ends(spawn.body)

    # One handle list per process that spawns, joined by its last statement.
    spawning = int(bool(spawn_sites(lowered.body))) + sum(1 for s in spawns if spawn_sites(s.body))
    lists = [i for i, line in enumerate(stripped) if line.startswith("let mut handles_:")]
    loops = [i for i, line in enumerate(stripped) if line == join]
    assert len(lists) == len(loops) == spawning
    if spawning:
        handle = "tokio::task::JoinHandle<()>" if is_async else "std::thread::JoinHandle<()>"
        helper = f"{'async fn' if is_async else 'fn'} join_(handles: Vec<{handle}>) {{"
        assert lines.count(helper) == 1
        after = lines[lines.index(helper) + 1 :][:3]
        wait = "h_.await.unwrap();" if is_async else "h_.join().unwrap();"
        assert after == ["    for h_ in handles {", f"        {wait}", "    }"]
    for i in loops:
        # The next line closes the process, one level out; a run's own process first
        # checks its channels quiet (test_rust_quiet.py).
        k = i + 1
        if stripped[k] == "quiet_all_(vec![":  # crossbeam: one call, a channel a line
            k = stripped.index("]);", k)
            assert _indent(lines[k]) == _indent(lines[i])
            k += 1
        while stripped[k].startswith("quiet_"):
            assert _indent(lines[k]) == _indent(lines[i])
            k += 1
        assert stripped[k] in ("}", "}))", "})));")
        assert _indent(lines[k]) == _indent(lines[i]) - 4


@pytest.mark.parametrize("flavour", FLAVOURS)
def test_every_process_is_spawned_through_one_helper(flavour: str) -> None:
    # std's and tokio's spawn are generic over the closure: called once a process
    # they would be compiled once a process, most of a batch's compile time.
    programs = [p for p in ALL.values() if supports(p, "rust", flavour=flavour)]
    text = render_batch(programs, "rust", flavour=flavour)
    spawn = "tokio::spawn(" if flavour == "flume-async" else "std::thread::spawn("
    assert text.count(spawn) == 1
    assert text.count("fn spawn_(") == 1
    pushes = text.count("handles_.push(")
    assert pushes > 0 and text.count("spawn_(Box::") == pushes


def test_a_program_that_spawns_nothing_has_no_spawn_helper() -> None:
    program = synthesize(parse("eps"), random.Random(0))
    text = render(program, "rust")
    assert "spawn_" not in text


def test_names_are_never_rust_keywords() -> None:
    for program in (KEYWORDS, KEYWORDS_SELECT):
        lowered = lower(program)
        names = set(lowered.channels)
        for s in walk(lowered.body):
            if isinstance(s, RecvS) and s.var:
                names.add(s.var)
            elif isinstance(s, SelectS):
                names |= {c.var for c in s.cases if c.var}
        assert len(names) > 3 and not names & RUST_KEYWORDS
        for flavour in FLAVOURS:
            if not supports(program, "rust", flavour=flavour):
                continue
            for seed in range(6):
                text = render(program, "rust", seed=seed, flavour=flavour)
                assert "let (fn2_tx, fn2_rx) = " in text
                # (A flume file's select helpers return `impl FnMut(…)`: not a program name.)
                keyword = r"(let|->|\|) ?(static|impl|dyn|unsafe|match|mod)\b(?! FnMut\()"
                assert not re.search(keyword, text)


# ---------------------------------------------------------------- selects


def _block_after(lines: list[str], start: int, end: str) -> list[str]:
    """The stripped lines after lines[start] up to the first line that is `end`."""
    j = start + 1
    while lines[j].strip() != end:
        j += 1
    return [line.strip() for line in lines[start + 1 : j]]


@pytest.mark.parametrize("name", list(ALL))
@pytest.mark.parametrize("seed", [0, 1])
def test_flume_selector_cases_only_pick_the_case(name: str, seed: int) -> None:
    program = ALL[name]
    text = render(program, "rust", seed=seed, flavour="flume")
    lines = text.splitlines()
    starts = [
        i for i, line in enumerate(lines) if line.strip() == "let arm_ = flume::Selector::new()"
    ]
    selects = [s for s in walk(lower(program).body) if isinstance(s, SelectS)]
    assert len(starts) == len(selects) == text.count("match arm_ {")
    for i, select in zip(starts, selects, strict=True):
        inner = _block_after(lines, i, ".wait();")
        assert len(inner) == len(select.cases)
        for k, (line, case) in enumerate(zip(inner, select.cases, strict=True)):
            if case.direction == "get":
                assert line == f".recv(&{case.chan}_rx, sel_got_({k}))"
            else:
                assert line == f".send(&{case.chan}_tx, msg_(0), sel_sent_({k}))"
    # Each helper once, after the first program (here the only one) that selects.
    helpers = ("fn sel_got_<E: std::fmt::Debug>(", "fn sel_sent_<E: std::fmt::Debug>(")
    assert [text.count(h) for h in helpers] == ([1, 1] if selects else [0, 0])
    if selects:
        assert text.index("fn prog0(") < text.index(helpers[0]) < text.index("fn main(")


def test_flume_select_cases_share_one_closure_type_each_way() -> None:
    # Written in place, every case's closure was a type of its own, and flume's Selector was
    # compiled again for each (_rust_helpers.FLUME_MAPS). Under the value oracle the receive's check
    # names the channel, as the closure did.
    text = render(ALL["kotlin"], "rust", seed=0, flavour="flume", values=True)
    assert "|res_|" not in text.split("fn sel_got_")[0]
    assert re.search(r'\.recv\(&c\d+_rx, sel_got_\(vals, "c\d+", \d+\)\)', text)
    assert "vals.recv(res_.unwrap().0, c, true);" in text
    plain = render(ALL["kotlin"], "rust", seed=0, flavour="flume", values=False, quiet=False)
    assert "fn sel_got_<E: std::fmt::Debug>(arm: usize) -> impl FnMut(Result<(), E>)" in plain


@pytest.mark.parametrize("name", list(ALL))
@pytest.mark.parametrize("seed", [0, 1])
def test_tokio_select_arms_only_pick_the_case(name: str, seed: int) -> None:
    """A flume-async select awaits its shape's helper, which holds `tokio::select!`; the arm
    of what it completed only checks the result and gives the case's index."""
    program = ALL[name]
    text = render(program, "rust", seed=seed, flavour="flume-async")
    lines = text.splitlines()
    starts = [i for i, line in enumerate(lines) if line.strip().startswith("let arm_ = match sel_")]
    selects = [s for s in walk(lower(program).body) if isinstance(s, SelectS)]
    assert len(starts) == len(selects) == text.count("match arm_ {")
    for i, select in zip(starts, selects, strict=True):
        args = ", ".join(
            f"&{c.chan}_rx" if c.direction == "get" else f"&{c.chan}_tx, 0" for c in select.cases
        )
        call = f"let arm_ = match sel_{select_shape(select)}_({args}).await {{"
        assert lines[i].strip() == call
        inner = _block_after(lines, i, "};")
        assert len(inner) == 4 * len(select.cases) + 1 and inner[-1] == "_ => unreachable!(),"
        for k, case in enumerate(select.cases):
            head, check, index, close = inner[4 * k : 4 * k + 4]
            variant = "Recv" if case.direction == "get" else "Sent"
            m = re.fullmatch(rf"Selected_::{variant}\({k}, (\w+)\) => \{{", head)
            assert m, head
            assert check == f"{m.group(1)}.unwrap();" and index == str(k) and close == "}"
    for shape in {select_shape(s) for s in selects}:
        helper = text[text.index(f"async fn sel_{shape}_(") :]
        assert helper.index("tokio::select! {") < helper.index("\n}")
    assert text.count("enum Selected_ {") == int(bool(selects))
    assert "crossbeam" not in text


CHAN_ARM = re.compile(
    r"(\w+)_(?:rx\.recv\(\)(?: -> \w+)?|tx\.send\(\(\)\)) => arm_ = (\d+|pick_\(&\[[\d, ]+\]\)),"
)


@pytest.mark.parametrize("name", list(ALL))
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_chan_select_has_one_arm_per_channel_end(name: str, seed: int) -> None:
    """chan_select! shadows each arm's identifier and keys operations by channel end: one
    arm per end, of the forms its macro accepts, whose index picks among merged cases."""
    program = ALL[name]
    text = render(program, "rust", seed=seed, flavour="chan")
    lines = text.splitlines()
    starts = [i for i, line in enumerate(lines) if line.strip() == "chan_select! {"]
    selects = [s for s in walk(lower(program).body) if isinstance(s, SelectS)]
    assert len(starts) == len(selects)
    for i, select in zip(starts, selects, strict=True):
        assert lines[i - 1].strip() == "let arm_: usize;"
        arms = _block_after(lines, i, "}")
        groups: dict[str, list[int]] = {}
        for k, case in enumerate(select.cases):
            end = f"{case.chan}_{'rx' if case.direction == 'get' else 'tx'}"
            groups.setdefault(end, []).append(k)
        assert len(arms) == len(groups)
        for arm, (end, indices) in zip(arms, groups.items(), strict=True):
            m = CHAN_ARM.fullmatch(arm)
            assert m, arm
            assert arm.startswith(end + ".")
            expected = str(indices[0]) if len(indices) == 1 else f"pick_(&{indices})"
            assert m.group(2) == expected
    assert text.count("fn pick_(") == int("pick_(&[" in text)


def test_chan_keeps_a_send_and_a_receive_on_one_channel_apart() -> None:
    program = from_effect(parse("Spawn(Put(c1)) ; SelGet(c1, eps) (+) SelPut(c1, eps)"))
    text = render(program, "rust", flavour="chan")
    assert "c1_rx.recv() => arm_ = 0," in text or "c1_rx.recv() -> x1 => arm_ = 0," in text
    assert "c1_tx.send(()) => arm_ = 1," in text
    assert "pick_" not in text


def test_crossbeam_bodies_follow_their_operation() -> None:
    """Through the macro, a select calls its shape's helper, which holds the `select!`; the
    body of the case it completed runs after, in the arm of that case's index."""
    text = render(PROGRAMS["crystal"], "rust", flavour="crossbeam", seed=1)
    assert "match sel_ss_(&c3_tx, 0, &c3_tx, 0) {" in text
    sent = r"Selected_::Sent\(1, res_\) => \{\n\s+res_\.unwrap\(\);\n\s+c1_tx"
    assert re.search(sent, text)
    helper = text[text.index("fn sel_ss_(") :]
    first_arm = "send(c0, msg_(v0)) -> r => Selected_::Sent(0, r),"
    assert f"crossbeam_channel::select! {{\n        {first_arm}" in helper
    assert "arm_" not in text


def test_crossbeam_writes_one_helper_a_select_shape_after_its_first_user() -> None:
    """A batch's selects of one shape share its helper, written once, after the first program
    that calls it (a compile error in it is then blamed on a caller)."""
    generated = (generate_program(s, settings_for("E"), Capabilities()) for s in range(12))
    programs = [g.program for g in generated]
    text = render_batch(programs, "rust", seed=3, flavour="crossbeam")
    calls = re.findall(r"match sel_(\w+?)_\(", text)
    assert len(calls) > len(set(calls)) > 1  # some shape is shared
    for shape in set(calls):
        assert text.count(f"fn sel_{shape}_(") == 1
        first = text.index(f"match sel_{shape}_(")
        helper = text.index(f"fn sel_{shape}_(")
        assert first < helper
        caller = re.findall(r"^fn (prog\d+)_once", text[:helper], re.M)[-1]
        assert caller in re.findall(r"^fn (prog\d+)_once", text[:first], re.M)[-1:]
    assert text.count("enum Selected_ {") == 1
    assert text.count("crossbeam_channel::select! {") == len(set(calls))


BUILDER = "let mut sel_ = crossbeam_channel::Select::new();"
MACRO = re.compile(r"match sel_[rsd]+_\(.*\) \{")  # a call of a helper holding select!
ADDED = re.compile(r"let i(\d+)_ = sel_\.(recv|send)\(&(\w+)\);")
COMPLETED = re.compile(r"let \w+ = oper_\.(recv|send)\(&(\w+)(?:, msg_\(0\))?\);")


@pytest.mark.parametrize("name", list(ALL))
@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_crossbeam_builder_completes_the_operation_it_added_under_that_index(
    name: str, seed: int
) -> None:
    """A select through `crossbeam_channel::Select` adds its cases in order, then the arm of
    each index completes the very operation (recv or send, same channel end) added under
    it; crossbeam panics if an arm completes another. (Defaults: test_rust_buffered.)"""
    program = ALL[name]
    text = render(program, "rust", seed=seed, flavour="crossbeam")
    lines = [line.strip() for line in text.splitlines()]
    selects = [s for s in walk(lower(program).body) if isinstance(s, SelectS)]
    macro = sum(1 for line in lines if MACRO.fullmatch(line))
    assert lines.count(BUILDER) + macro == len(selects)
    for start in (i for i, line in enumerate(lines) if line == BUILDER):
        added = []
        j = start + 1
        while m := ADDED.fullmatch(lines[j]):
            assert int(m.group(1)) == len(added)
            added.append((m.group(2), m.group(3)))
            j += 1
        assert lines[j] in ("let oper_ = sel_.select();", "if let Ok(oper_) = sel_.try_select() {")
        assert lines[j + 1] == "match oper_.index() {"
        for k, (op, end) in enumerate(added):
            arm = lines.index(f"k_ if k_ == i{k}_ => {{", j)
            assert COMPLETED.fullmatch(lines[arm + 1]).groups() == (op, end), lines[arm + 1]


def test_crossbeam_selects_go_through_the_macro_and_the_builder_by_seed() -> None:
    """Both forms in the programs of one seed range; the other flavours never build one."""
    forms = {"macro": 0, "builder": 0}
    for seed in range(12):
        g = generate_program(seed, settings_for("E"), Capabilities())
        text = render(g.program, "rust", seed=seed, flavour="crossbeam")
        forms["macro"] += len(MACRO.findall(text))
        forms["builder"] += text.count(BUILDER)
        for flavour in ("flume", "flume-async", "chan"):
            assert "Select::new" not in render(g.program, "rust", seed=seed, flavour=flavour)
    assert min(forms.values()) >= 5, forms


# ---------------------------------------------------------------- std


def test_std_refuses_selects() -> None:
    for name, program in ALL.items():
        assert supports(program, "rust", flavour="std") == (not _has_select(program)), name
    with pytest.raises(UnsupportedProgram, match="no select"):
        render(PROGRAMS["flix2"], "rust", flavour="std")
    with pytest.raises(UnsupportedProgram, match="program 1: .*no select"):
        render_batch([PIPELINE, PROGRAMS["flix2"]], "rust", flavour="std")


def test_std_shares_each_receiver_behind_a_mutex() -> None:
    text = render(SHARED, "rust", flavour="std", seed=3)
    for c in ("c1", "c2", "c3", "c4"):
        assert f"let ({c}_tx, {c}_rx) = chan_(0);" in text
    # Every channel is made by one helper: the sender, and the receiver behind its lock.
    maker = (
        "fn chan_(\n    capacity: usize,\n) -> (\n    std::sync::mpsc::SyncSender<()>,\n"
        "    std::sync::Arc<std::sync::Mutex<std::sync::mpsc::Receiver<()>>>,\n) {\n"
        "    let (tx, rx) = std::sync::mpsc::sync_channel::<()>(capacity);\n"
        "    (tx, std::sync::Arc::new(std::sync::Mutex::new(rx)))\n}"
    )
    assert maker in text
    assert text.count("sync_channel") == 1
    assert "recv_(&c1_rx);" in text
    assert "c1_tx.send(()).unwrap();" in text
    # The one place that locks: the guard is a temporary of the helper's one expression,
    # never held across another operation.
    helper = "fn recv_(rx: &std::sync::Arc<std::sync::Mutex<std::sync::mpsc::Receiver<()>>>) -> ()"
    assert f"#[track_caller]\n{helper} {{\n    rx.lock().unwrap().recv().unwrap()\n}}" in text
    assert text.count(".lock()") == 1
    assert "let guard" not in text


# ---------------------------------------------------------------- options and main


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"flavour": "tokio"}, "flavour must be one of crossbeam, flume"),
        ({"flavour": None}, "flavour must be one of crossbeam, flume"),
        ({"flavour": "flume-async", "threads": 0}, "threads must be a whole number from 1"),
        ({"flavour": "flume-async", "threads": "4"}, "threads must be a whole number from 1"),
        ({"flavour": "flume-async", "threads": True}, "threads must be a whole number from 1"),
        ({"flavour": "flume-async", "threads": 257}, "threads must be a whole number from 1"),
        ({"flavour": "crossbeam", "threads": 4}, "threads applies to flavour flume-async only"),
        ({"threads": 2}, "threads applies to flavour flume-async only"),
        ({"colour": "blue"}, "unknown option"),
    ],
)
def test_bad_options(options: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        render(PIPELINE, "rust", **options)
    with pytest.raises(ValueError, match=message):
        supports(PIPELINE, "rust", **options)


def test_default_flavour_is_crossbeam_and_threads_default_to_four() -> None:
    assert render(PIPELINE, "rust", seed=2) == render(PIPELINE, "rust", seed=2, flavour="crossbeam")
    text = render(PIPELINE, "rust", flavour="flume-async")
    assert ".worker_threads(4)" in text and "new_multi_thread()" in text
    assert ".worker_threads(7)" in render(PIPELINE, "rust", flavour="flume-async", threads=7)


@pytest.mark.parametrize("flavour", FLAVOURS)
def test_header_names_the_crates_and_features(flavour: str) -> None:
    header = render(PIPELINE, "rust", flavour=flavour).splitlines()[1]
    for name, features in CRATE_FEATURES[flavour].items():
        assert name in header and all(f in header for f in features)
    assert ("#[macro_use]\nextern crate chan;" in render(PIPELINE, "rust", flavour=flavour)) == (
        flavour == "chan"
    )


@pytest.mark.parametrize("flavour", FLAVOURS)
def test_batch_dispatches_on_each_argument_and_marks_each_end_when_given_several(
    flavour: str,
) -> None:
    programs = [p for p in ALL.values() if supports(p, "rust", flavour=flavour)]
    text = render_batch(programs, "rust", repetitions=9, flavour=flavour)
    assert "for arg_ in &args_ {\n        match arg_.as_str() {" in text
    for i in range(len(programs)):
        call = f"block_on_(&rt_, Box::pin(prog{i}()))" if flavour == "flume-async" else f"prog{i}()"
        assert f'"{i}" => {call},' in text
    assert text.count("prog0_once()") == 2  # defined once, called once
    assert text.count("std::process::exit(2);") == 2  # no index; an unknown one
    mark = f'if args_.len() > 1 {{\n            println!("{GROUP_DONE}{{}}", arg_);'
    assert mark in text
    assert "0..9 {" in text or "rep_ < 9 {" in text


@pytest.mark.parametrize("flavour", FLAVOURS)
def test_different_seeds_can_differ(flavour: str) -> None:
    program = SHARED if flavour == "std" else PROGRAMS["mixed"]
    outputs = {render(program, "rust", seed=s, flavour=flavour) for s in range(12)}
    assert len(outputs) > 1


# ---------------------------------------------------------------- every program, deterministically


def _check_all_flavours(program: lc.Program, seed: int) -> None:
    select = _has_select(program)
    for flavour in FLAVOURS:
        if flavour == "std" and select:
            assert not supports(program, "rust", flavour=flavour)
            with pytest.raises(UnsupportedProgram):
                render(program, "rust", seed=seed, flavour=flavour)
            continue
        assert supports(program, "rust", flavour=flavour)
        one = render(program, "rust", seed=seed, repetitions=3, flavour=flavour)
        assert one == render(program, "rust", seed=seed, repetitions=3, flavour=flavour)
        batch = [program, PIPELINE]
        assert render_batch(batch, "rust", seed=seed, flavour=flavour) == render_batch(
            batch, "rust", seed=seed, flavour=flavour
        )


@settings(max_examples=60, deadline=None)
@given(
    heuristic=st.sampled_from("ABCDEF"),
    seed=st.integers(0, 2**32),
    render_seed=st.integers(0, 2**32),
)
def test_every_flavour_renders_generated_programs_deterministically(
    heuristic: str, seed: int, render_seed: int
) -> None:
    _check_all_flavours(generate_program(seed, settings_for(heuristic)).program, render_seed)
    try:
        no_select = generate_program(seed, settings_for(heuristic), NO_SELECT).program
    except InexpressibleSettings:  # a heuristic that only generates with G-Select
        return
    assert not _has_select(no_select)
    _check_all_flavours(no_select, render_seed)


@settings(max_examples=60, deadline=None)
@given(effect=effects(max_leaves=10), seed=st.integers(0, 2**32), synth_seed=st.integers(0, 99))
def test_every_flavour_renders_arbitrary_programs_deterministically(
    effect, seed: int, synth_seed: int
) -> None:
    _check_all_flavours(synthesize(effect, random.Random(synth_seed)), seed)


# ---------------------------------------------------------------- real toolchain

PINS = {"crossbeam-channel": "=0.5.15", "flume": "=0.11.1", "chan": "=0.1.23", "tokio": "1"}
HEURISTICS = "ABCDEF"
SEEDS = range(7)
REPETITIONS = 5
# Generated programs at 5 repetitions end in well under a second; a hang waits this out,
# or the shorter limit where a known library bug can make the program hang (its failure
# only adds to the xfail's list).
TIMEOUT = 8
KNOWN_BUG_TIMEOUT = 3


def select_sends(lowered: Lowered, *, at_least: int = 1) -> bool:
    """Whether some select of the program has `at_least` send cases."""
    return any(
        isinstance(s, SelectS) and sum(c.direction == "put" for c in s.cases) >= at_least
        for s in walk(lowered.body)
    )


def _processes_ops(lowered: Lowered) -> list[tuple[set[str], set[str]]]:
    """(the channels it sends on, the channels it receives on) of each process."""

    def ops(block) -> tuple[set[str], set[str]]:
        puts: set[str] = set()
        gets: set[str] = set()
        for s in walk(block, into_spawns=False):
            if isinstance(s, SendS):
                puts.add(s.chan)
            elif isinstance(s, RecvS):
                gets.add(s.chan)
            elif isinstance(s, SelectS):
                for c in s.cases:
                    (gets if c.direction == "get" else puts).add(c.chan)
        return puts, gets

    processes = [lowered.body] + [s.body for s in walk(lowered.body) if isinstance(s, SpawnS)]
    return [ops(p) for p in processes]


def _rendezvous_taken_back(lowered: Lowered) -> bool:
    """Whether a receive other than its partner's can take a value a send left in a
    channel: a process sends and receives on one channel, or two processes receive on
    one unbuffered channel."""
    processes = _processes_ops(lowered)
    receivers = Counter(c for _, gets in processes for c in gets)
    return any(puts & gets for puts, gets in processes) or any(
        n > 1 and lowered.capacity(c) == 0 for c, n in receivers.items()
    )


# Which programs each library's known bugs can make hang: a failure of any other
# program is a renderer bug. What the bugs are is said once, by the target
# (runners/targets/rust_*.py: known_bugs).
KNOWN_BUG_PROGRAMS: dict[str, Callable[[Lowered], bool]] = {
    "chan": select_sends,
    "flume": _select,
    # A value a send_async left in a rendezvous channel can be taken by the sender's own
    # next receive, or by a second receiver: SHARED (two senders and two receivers on
    # c1, no select) hung in CI; with both cores loaded it hung in 3 of 30,000 runs on
    # flume 0.11.1, and its steps, recorded, showed a sender and a receiver of c1 waiting.
    "flume-async": lambda lw: _select(lw) or _rendezvous_taken_back(lw),
}
# Which programs two of those bugs can also give a wrong value: a select that commits
# more than one of its operations while it reports one (flume's Selector offers all its
# sends at once; flume-async's send_async is not cancel-safe in tokio::select!). The
# receiver of the extra send gets a value the oracle calls never sent.
MULTI_COMMIT_PROGRAMS: dict[str, Callable[[Lowered], bool]] = {
    "flume": lambda lw: select_sends(lw, at_least=2),
    "flume-async": select_sends,
}
TARGET_OF = {
    "crossbeam": "rust-crossbeam",
    "flume": "rust-flume",
    "flume-async": "rust-flume-async",
    "chan": "rust-chan",
    "std": "rust-std",
}


def _known_bugs(flavour: str) -> str:
    return " ".join(get_target(TARGET_OF[flavour]).known_bugs)


def test_targets_declare_the_bugs_these_runs_expect() -> None:
    for flavour, target in TARGET_OF.items():
        assert bool(get_target(target).known_bugs) == (flavour in KNOWN_BUG_PROGRAMS), flavour
    assert MULTI_COMMIT_PROGRAMS.keys() <= KNOWN_BUG_PROGRAMS.keys()


def test_flume_async_known_hangs_take_two_receivers_of_a_rendezvous_or_a_self_meeting() -> None:
    hangs = KNOWN_BUG_PROGRAMS["flume-async"]
    assert hangs(lower(SHARED))  # c1: two receivers, no select
    assert not hangs(lower(PIPELINE))  # each channel one sender and one receiver
    # The same two receivers on a buffered channel: a send_async there leaves its value
    # where it belongs.
    assert not hangs(lower(dataclasses.replace(SHARED, capacities=(("c1", 1),))))
    meets_itself = lc.Program(
        ("c1",),
        then_all(lc.SpawnE(lc.Recv("c1")), lc.Send("c1"), lc.SpawnE(lc.Send("c1")), lc.Recv("c1")),
    )
    assert hangs(lower(meets_itself))


def _cargo() -> str | None:
    try:
        return str(find_cargo())
    except ToolchainUnavailable:
        return None


@pytest.fixture(scope="session")
def cargo_target(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One CARGO_TARGET_DIR for every flavour (and every xdist worker: cargo locks it)."""
    base = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        base = base.parent
    target = base / "cargo-target"
    target.mkdir(exist_ok=True)
    return target


def _cargo_toml(flavour: str) -> str:
    deps = []
    for name, features in CRATE_FEATURES[flavour].items():
        if features:
            # No default features: the ones named must be enough.
            listed = ", ".join(f'"{f}"' for f in features)
            deps.append(
                f'{name} = {{ version = "{PINS[name]}", default-features = false, '
                f"features = [{listed}] }}"
            )
        else:
            deps.append(f'{name} = "{PINS[name]}"')
    # The program's own features (the flume counts), on as the target turns them on.
    library = LIBRARIES[get_target(TARGET_OF[flavour]).name]
    features = features_section(library, PINS.get(str(library.crate), "").lstrip("="))
    return "\n".join(
        [
            "[package]",
            f'name = "chanfuzz-rust-{flavour}"',
            'version = "0.1.0"',
            'edition = "2021"',
            "",
            "[dependencies]",
            *deps,
            "",
            *(features + [""] if features else []),
            "[profile.release]",
            "debug = false",
            'panic = "abort"',
            "",
            # As the targets build a batch (runners/targets/rust_cargo.py): the generated
            # code unoptimised, the crates optimised, a panic the end of the process.
            f'[profile.release.package."chanfuzz-rust-{flavour}"]',
            "opt-level = 0",
            "",
        ]
    )


def _build(flavour: str, source: str, project: Path, target: Path) -> tuple[Path, float]:
    cargo = _cargo()
    need(cargo, "cargo (set CHANFUZZ_CARGO)")
    assert cargo is not None
    (project / "src").mkdir(parents=True)
    (project / "Cargo.toml").write_text(_cargo_toml(flavour))
    (project / "src" / "main.rs").write_text(source)
    env = {**os.environ, "CARGO_TARGET_DIR": str(target), "CARGO_TERM_COLOR": "never"}
    start = time.monotonic()
    out = run([cargo, "build", "--release"], timeout=900, env=env, cwd=project)
    took = time.monotonic() - start
    assert out.returncode == 0, f"cargo build failed:\n{out.stdout}\n{out.stderr}"
    assert "warning" not in out.stderr, out.stderr
    return target / "release" / f"chanfuzz-rust-{flavour}", took


def _programs(flavour: str) -> list[tuple[str, lc.Program, bool]]:
    """(name, program, whether a known library bug can make it hang) to run."""
    sets = [("no select", NO_SELECT)]
    if flavour != "std":
        sets.insert(0, ("full", Capabilities()))
    known = KNOWN_BUG_PROGRAMS.get(flavour)
    out = []
    for label, capabilities in sets:
        for h in HEURISTICS:
            for seed in SEEDS:
                try:
                    g = generate_program(seed, settings_for(h), capabilities)
                except InexpressibleSettings:  # E generates only with G-Select
                    break
                name = f"{h} seed {seed} ({label}): {fx.to_text(g.effect)}"
                out.append((name, g.program, bool(known and known(lower(g.program)))))
    for name, program in ALL.items():
        if supports(program, "rust", flavour=flavour):
            out.append((name, program, bool(known and known(lower(program)))))
    return out


@pytest.mark.slow
@pytest.mark.parametrize("flavour", FLAVOURS)
def test_rust_runs_generated_programs(flavour: str, tmp_path: Path, cargo_target: Path) -> None:
    """Generated programs (heuristics A–F, seeds 0–6; std: only without select), the same
    generated without select, and the programs above: all in one binary, each run with a
    30 s timeout, must exit 0, except where a known library bug explains a failure (then
    the test xfails naming the bug and every failing program). Two programs that must
    hang close the batch: a stuck process is not hidden by main returning."""
    programs = _programs(flavour)
    stuck = [LONE_RECV, STUCK_CHILD]
    source = render_batch(
        [p for _, p, _ in programs] + stuck,
        "rust",
        seed=4,
        repetitions=REPETITIONS,
        flavour=flavour,
    )
    if flavour == "crossbeam":  # both forms of select are built and run
        assert BUILDER in source and MACRO.search(source)
    binary, took = _build(flavour, source, tmp_path / flavour, cargo_target)
    print(f"{flavour}: built {len(programs) + 2} programs in {took:.1f} s")

    dump_command = get_target(TARGET_OF[flavour]).dump_command

    def execute(i: int):
        if programs[i][2]:
            return run([str(binary), str(i)], timeout=KNOWN_BUG_TIMEOUT)
        # A hang no known bug explains is reported with the dump the target takes of one.
        return run([str(binary), str(i)], timeout=TIMEOUT, dump=dump_command)

    with ThreadPoolExecutor(max_workers=min(4, os.cpu_count() or 1)) as pool:
        outcomes = list(pool.map(execute, range(len(programs))))
    for i in range(len(programs), len(programs) + len(stuck)):
        assert run([str(binary), str(i)], timeout=3).timed_out, f"program {i} should hang"
    assert run([str(binary), str(len(programs) + len(stuck))], timeout=10).returncode == 2
    # Several in one run (GROUP_RUNS): each in turn, each end marked on stdout. Only
    # programs no known library bug can hang, and that ran clean alone.
    order = [i for i, out in enumerate(outcomes) if out.returncode == 0 and not programs[i][2]]
    check_group_runs(binary, order[:3][::-1], "x", timeout=TIMEOUT)

    failures = [
        (i, name, known, out)
        for i, ((name, _, known), out) in enumerate(zip(programs, outcomes, strict=True))
        if out.returncode != 0
    ]

    def report(items) -> str:
        return "\n".join(
            f"program {i} ({name}): "
            + (
                f"timeout{out.stderr[-6000:]}"
                if out.timed_out
                else f"exit {out.returncode}: {out.stderr[-400:]}"
            )
            for i, name, _, out in items
        )

    unexplained = [f for f in failures if not f[2]]
    assert not unexplained, report(unexplained)
    if failures:
        pytest.xfail(f"{_known_bugs(flavour)}; hit by:\n{report(failures)}")

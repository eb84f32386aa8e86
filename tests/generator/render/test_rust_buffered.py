"""Buffered channels in Rust, every flavour (issue #15, quick): a channel is made with its
capacity and nothing else moves; close and range are refused, and programs generated for
the Rust targets never have them (their capabilities say buffered channels, no close).

The programs of `SELECTS` are run on the real libraries by
test_conformance_buffered_rust.py."""

from __future__ import annotations

import dataclasses
import random
import re

import pytest

from generator import lambda_chan as lc
from generator.capabilities import InexpressibleSettings
from generator.effects import UNBOUNDED, parse
from generator.pipeline import generate_program
from generator.render import UnsupportedProgram, beyond_paper, render, supports, unsupported_reason
from generator.render._common import CloseS, RangeS, SelectS, lower, walk
from generator.render._rust_quiet import QUIET_CRATES, UNBOUNDED_FILL
from generator.render.rust import FLAVOURS
from generator.settings import PRESETS, settings_for
from generator.synthesis import synthesize
from generator.termination import check_effect
from runners.targets import get_target
from tests.generator.render.helpers import DEFAULTS
from tests.generator.render.test_rust import TARGET_OF

# How each flavour makes a channel of `()` with capacity 2.
MADE = {
    "crossbeam": "crossbeam_channel::bounded::<{}>({})",
    "flume": "flume::bounded::<{}>({})",
    "flume-async": "flume::bounded::<{}>({})",
    "chan": "chan::sync::<{}>({})",
    "std": "chan_({1})",  # the element is the helper's (test_rust.py)
}

# How each flavour makes an unbounded channel of `()`.
MADE_UNBOUNDED = {
    "crossbeam": "crossbeam_channel::unbounded::<()>()",
    "flume": "flume::unbounded::<()>()",
    "flume-async": "flume::unbounded::<()>()",
    "chan": "chan::r#async::<()>()",
    "std": "chan_u_()",  # mpsc::channel() in its helper, the element the helper's
}
UNBOUNDED_MADE = re.compile(
    r"\s*let \((\w+)_tx, \w+_rx\) = (?:\w+::(?:unbounded|r#async)::<[^>]+>\(\)|chan_u_\(\));"
)


def _program(text: str) -> lc.Program:
    effect = parse(text)
    assert check_effect(effect).terminating is True, text
    return synthesize(effect, random.Random(0))


# Selects meeting buffered channels that a lone process (or one helper) can only get
# through if a send case with room, or a receive case with a message waiting, is ready
# at once; and std's plain sends into a buffer, with nobody receiving yet.
SELECTS = {
    "lone_put_case": "Chan(c1, 1) ; SelPut(c1, eps) (+) SelPut(c1, eps) ; Get(c1)",
    "two_buffers": (
        "Chan(c1, 1) ; Chan(c2, 2) ; SelPut(c1, Get(c1)) (+) SelPut(c2, Get(c2)) ; "
        "SelPut(c2, Get(c2)) (+) SelGet(c3, eps)"
    ),
    "put_case_before_partner": (
        "Chan(c1, 1) ; Spawn(Get(c1) ; Put(c2)) ; SelPut(c1, Get(c2)) (+) SelGet(c2, eps)"
    ),
    "get_case_on_full_buffer": (
        "Chan(c1, 2) ; Spawn(Put(c1) ; Put(c1) ; Put(c2)) ; Get(c2) ; "
        "SelGet(c1, Get(c1)) (+) SelGet(c3, eps)"
    ),
    "lone_puts": "Chan(c1, 2) ; Put(c1) ; Put(c1) ; Get(c1) ; Get(c1)",
}
SELECT_PROGRAMS = {name: _program(text) for name, text in SELECTS.items()}
BUFFERED = _program(
    "Chan(c1, 2) ; Spawn(Get(c1) ; Get(c1) ; Put(c2)) ; Put(c1) ; Put(c1) ; Get(c2)"
)


def _has_select(program: lc.Program) -> bool:
    return any(isinstance(s, SelectS) for s in walk(lower(program).body))


@pytest.mark.parametrize("values", [False, True])
@pytest.mark.parametrize("flavour", FLAVOURS)
def test_a_buffered_channel_is_made_with_its_capacity(flavour: str, values: bool) -> None:
    element = _element(flavour, values)
    text = render(BUFFERED, "rust", flavour=flavour, values=values)
    assert f"let (c1_tx, c1_rx) = {MADE[flavour].format(element, 2)};" in text
    # c2 is declared nowhere: a rendezvous channel, as before.
    assert f"let (c2_tx, c2_rx) = {MADE[flavour].format(element, 0)};" in text


def test_std_shares_a_buffered_receiver_behind_its_mutex_too() -> None:
    text = render(BUFFERED, "rust", flavour="std")
    assert "let (c1_tx, c1_rx) = chan_(2);" in text
    assert "let (tx, rx) = std::sync::mpsc::sync_channel::<()>(capacity);" in text
    assert "(tx, std::sync::Arc::new(std::sync::Mutex::new(rx)))" in text
    assert "recv_(&c1_rx);" in text


def _element(flavour: str, values: bool) -> str:
    """What a channel carries: crossbeam's and flume's messages have drop glue
    (test_rust_quiet.py), the others' are the value or unit."""
    return "Msg_" if flavour in QUIET_CRATES else "u32" if values else "()"


def _unbuffered(program: lc.Program) -> lc.Program:
    return dataclasses.replace(program, capacities=())


@pytest.mark.parametrize("values", [False, True])
@pytest.mark.parametrize("flavour", FLAVOURS)
def test_capacities_change_only_the_lines_that_make_the_channels(
    flavour: str, values: bool
) -> None:
    """The same program rendered with its capacities and without them, at the same seed:
    only the constructors of the buffered channels differ, (k) for (0). The renderer
    draws nothing for a capacity, so every other seeded choice stays where it was.
    (The quiet check, off here, draws a fill up to each capacity: test_rust_quiet.py.
    std's unbounded channels under the value oracle also send through a helper of their
    own: test_std_writes_an_unbounded_channel_with_helpers_of_its_own.)"""
    capabilities = get_target(TARGET_OF[flavour]).capabilities
    seen = 0
    for h in "ABCDEF":
        for seed in range(4):
            try:
                g = generate_program(seed, settings_for(h, buffered=True), capabilities)
            except InexpressibleSettings:  # heuristic E has nothing for a target without select
                break
            capacities = dict(lower(g.program).capacities)
            if not capacities or (flavour == "std" and UNBOUNDED in capacities.values()):
                continue
            seen += 1
            options = {"flavour": flavour, "values": values, "seed": seed, "quiet": False}
            buffered = render(g.program, "rust", **options).splitlines()
            plain = render(_unbuffered(g.program), "rust", **options).splitlines()
            assert len(buffered) == len(plain)
            changed = [(a, b) for a, b in zip(plain, buffered, strict=True) if a != b]
            assert len(changed) == len(capacities)
            for before, after in changed:
                unbounded = UNBOUNDED_MADE.fullmatch(after)
                if unbounded:  # the flavour's constructor of its own, for no capacity
                    assert capacities[unbounded.group(1)] == UNBOUNDED
                    assert before.endswith("(0);")
                    continue
                m = re.fullmatch(r"\s*let \((\w+)_tx, \w+_rx\) = .*\((\d+)\);", after)
                assert m, after
                assert int(m.group(2)) == capacities[m.group(1)]
                assert before == after[: -len(f"({m.group(2)});")] + "(0);"
    assert seen >= 8, "too few generated programs with a buffered channel to compare"


@pytest.mark.parametrize("flavour", FLAVOURS)
def test_select_programs_render_where_the_flavour_has_select(flavour: str) -> None:
    for name, program in SELECT_PROGRAMS.items():
        expressible = flavour != "std" or not _has_select(program)
        assert supports(program, "rust", flavour=flavour) == expressible, name
        if expressible:
            text = render(program, "rust", flavour=flavour)
            for chan, k in lower(program).capacities:
                made = MADE[flavour].format(_element(flavour, False), k)
                assert f"let ({chan}_tx, {chan}_rx) = {made};" in text, name


# ---------------------------------------------------------------- close: out of reach

CLOSING = _program("Chan(c1, 2) ; Spawn(Range(c1, eps)) ; Put(c1) ; Put(c1) ; Close(c1)")
CLOSING_UNBUFFERED = _program("Chan(c1) ; Spawn(Get(c1) ; Get(c1)) ; Put(c1) ; Put(c1) ; Close(c1)")


@pytest.mark.parametrize("flavour", FLAVOURS)
@pytest.mark.parametrize("program", [CLOSING, CLOSING_UNBUFFERED], ids=["range", "close"])
def test_close_and_range_are_refused(flavour: str, program: lc.Program) -> None:
    assert not supports(program, "rust", flavour=flavour)
    assert unsupported_reason(program, "rust", flavour=flavour) == (
        "the rust renderer writes no close or range"
    )
    with pytest.raises(UnsupportedProgram, match="no close or range"):
        render(program, "rust", flavour=flavour)


def test_the_renderer_writes_buffered_channels_defaults_and_no_close() -> None:
    assert beyond_paper("rust") == frozenset({"buffered", "default", "unbounded"})


@pytest.mark.parametrize("flavour", FLAVOURS)
def test_each_rust_target_says_buffered_channels_and_no_close(flavour: str) -> None:
    capabilities = get_target(TARGET_OF[flavour]).capabilities
    assert capabilities.buffered and not capabilities.close
    assert capabilities.select_default is (flavour == "crossbeam")
    assert capabilities.unbounded
    default = "; select with default" if flavour == "crossbeam" else ""
    extension = "; buffered and unbounded channels (no close)" + default
    assert capabilities.describe().endswith(extension)


# ---------------------------------------------------------------- unbounded channels

UNBOUNDED_PROGRAM = "Chan(c1, unbounded) ; Chan(c2, 1) ; Spawn(Put(c1) ; Put(c1) ; Put(c2)) ; " \
    "Get(c2) ; Get(c1) ; Get(c1)"


@pytest.mark.parametrize("flavour", sorted(MADE_UNBOUNDED))
def test_an_unbounded_channel_is_made_by_the_flavours_own_constructor(flavour: str) -> None:
    program = _program(UNBOUNDED_PROGRAM)
    text = render(program, "rust", flavour=flavour, seed=1, quiet=False)
    made = [line.strip() for line in text.splitlines() if line.strip().startswith("let (c")]
    assert f"let (c1_tx, c1_rx) = {MADE_UNBOUNDED[flavour]};" in made
    assert f"let (c2_tx, c2_rx) = {MADE[flavour].format('()', 1)};" in made


@pytest.mark.parametrize("values", [False, True])
def test_std_writes_an_unbounded_channel_with_helpers_of_its_own(values: bool) -> None:
    """mpsc::channel()'s Sender is not the SyncSender of chan_() and send_(): the channel
    has its maker, and under the value oracle its sends their helper, only in a file that
    makes one."""
    text = render(_program(UNBOUNDED_PROGRAM), "rust", flavour="std", values=values, seed=1)
    assert "let (tx, rx) = std::sync::mpsc::channel::<" in text
    assert ("fn send_u_(tx: &std::sync::mpsc::Sender<u32>" in text) is values
    sends = re.findall(r"^\s*(send_|send_u_)\(&(c\d)_tx", text, re.M)
    if values:
        assert sorted(set(sends)) == [("send_", "c2"), ("send_u_", "c1")]
    assert "chan_u_" not in render(
        _program("Chan(c1, 1) ; Put(c1) ; Get(c1)"), "rust", flavour="std", values=values
    )


@pytest.mark.parametrize("flavour", sorted(QUIET_CRATES))
def test_the_quiet_check_takes_an_unbounded_channel_as_never_full(flavour: str) -> None:
    """Its capacity goes to the helpers as usize::MAX: capacity() must say None, is_full()
    false, and a fill of up to UNBOUNDED_FILL goes in without a Full: over seeds, fills past
    the end of crossbeam's first block of 31 messages, and drains past it too."""
    program = _program(UNBOUNDED_PROGRAM)
    call = re.compile(r'\(c1_tx, c1_rx, "c1", usize::MAX, (\d+), (true|false), (\d+)\)')
    fills, drains = set(), set()
    for seed in range(40):
        text = render(program, "rust", flavour=flavour, seed=seed)
        assert "capacity != Some(cap).filter(|&k| k != usize::MAX)" in text
        fill, _, drain = call.search(text).groups()
        assert 0 <= int(drain) <= int(fill) <= UNBOUNDED_FILL
        fills.add(int(fill))
        drains.add(int(drain))
    assert max(fills) > 31 and max(drains) > 31 and min(fills) < 31


# ---------------------------------------------------------------- a select's default

DEFAULTS_PROGRAM = _program(DEFAULTS)


@pytest.mark.parametrize("values", [False, True])
@pytest.mark.parametrize("seed", range(6))
def test_crossbeams_select_writes_a_default_as_its_default_arm(values: bool, seed: int) -> None:
    """In the macro, a `default` arm (in the helper of its shape, whose caller runs the
    default's body on `Selected_::Default`); through the builder, `try_select()` and the
    default's body when it gives no operation. The seeds render both forms."""
    text = render(DEFAULTS_PROGRAM, "rust", flavour="crossbeam", values=values, seed=seed)
    lines = [line.strip() for line in text.splitlines()]
    tried = lines.count("if let Ok(oper_) = sel_.try_select() {")
    assert lines.count("Selected_::Default => {") + tried == 3
    assert "let oper_ = sel_.select();" not in lines  # every select here has a default
    for shape in re.findall(r"^\s*match sel_(\w+?)_\(", text, re.M):
        assert shape.endswith("d")
        helper = text[text.index(f"fn sel_{shape}_(") :]
        assert helper.index("default => Selected_::Default,") < helper.index("\n}")
    # The send nobody receives: its operation, then a default with nothing to do.
    calls = [i for i, line in enumerate(lines) if re.match(r"match sel_\w+_\(&e_tx, ", line)]
    if calls:
        arm = calls[0]
        default = lines.index("Selected_::Default => {", arm)
    else:
        arm = next(
            i for i, line in enumerate(lines) if line.startswith("let res_ = oper_.send(&e_tx")
        )
        default = lines.index("} else {", arm)
    assert lines[default + 1] == "}"


def test_crossbeams_defaults_render_in_both_forms_over_these_seeds() -> None:
    texts = [render(DEFAULTS_PROGRAM, "rust", flavour="crossbeam", seed=s) for s in range(6)]
    assert any("Selected_::Default => {" in t for t in texts)
    assert any("try_select()" in t for t in texts)


@pytest.mark.parametrize("flavour", [f for f in FLAVOURS if f != "crossbeam"])
def test_the_other_flavours_refuse_a_default_and_say_why(flavour: str) -> None:
    assert not supports(DEFAULTS_PROGRAM, "rust", flavour=flavour)
    reason = unsupported_reason(DEFAULTS_PROGRAM, "rust", flavour=flavour)
    expected = "no select" if flavour == "std" else "only crossbeam's select! has a default"
    assert reason is not None and expected in reason


@pytest.mark.parametrize("flavour", FLAVOURS)
@pytest.mark.parametrize("heuristic", list(PRESETS))
def test_programs_generated_for_rust_targets_are_buffered_but_never_closed(
    flavour: str, heuristic: str
) -> None:
    capabilities = get_target(TARGET_OF[flavour]).capabilities
    try:
        capabilities.restrict(PRESETS[heuristic])
    except InexpressibleSettings:  # heuristic E generates only with select: nothing for std
        assert flavour == "std" and heuristic == "E"
        return
    buffered = 0
    for seed in range(10):
        g = generate_program(seed, settings_for(heuristic, buffered=True), capabilities)
        lowered = lower(g.program)
        assert not any(isinstance(s, CloseS | RangeS) for s in walk(lowered.body))
        assert supports(g.program, "rust", flavour=flavour)
        buffered += bool(lowered.capacities)
    assert buffered >= 3

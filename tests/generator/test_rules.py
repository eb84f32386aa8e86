"""Generation, expansion and reordering rules: termination, weights, determinism."""

import dataclasses
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from generator.capabilities import FULL, Capabilities
from generator.effects import (
    EPS,
    Choice,
    Effect,
    Eps,
    Get,
    Put,
    SelCase,
    Select,
    Seq,
    Spawn,
    channels,
    children,
    choice,
    count_spawns,
    dual,
    has_channel,
    parse,
    seq,
    to_text,
    walk,
)
from generator.rules import ROOT_ATTEMPTS, _Generator, generate_effect, positions, replace_at
from generator.settings import (
    EXPANSION_RULES,
    GENERATION_RULES,
    PRESETS,
    REORDERING_RULES,
    RULES,
    GeneratorSettings,
    settings_for,
)
from generator.termination import check_effect

SEEDS = st.integers(0, 2**63 - 1)


@pytest.mark.parametrize("heuristic", sorted(PRESETS))
@given(seed=SEEDS)
def test_every_generated_effect_terminates(heuristic, seed):
    effect = generate_effect(random.Random(seed), PRESETS[heuristic]).effect
    verdict = check_effect(effect)
    assert verdict.terminating is True, f"{to_text(effect)}\n{verdict.counterexample.describe()}"
    assert parse(to_text(effect)) == effect


@given(seed=SEEDS)
def test_larger_settings_still_terminate(seed):
    big = settings_for("A", max_depth=4, max_channels=10, max_processes=10, rewrite_steps=6)
    effect = generate_effect(random.Random(seed), big).effect
    assert check_effect(effect).terminating is True


def test_same_seed_same_effect_byte_for_byte():
    for heuristic, settings in PRESETS.items():
        for seed in range(50):
            a = generate_effect(random.Random(seed), settings)
            b = generate_effect(random.Random(seed), settings)
            assert to_text(a.effect) == to_text(b.effect), heuristic
            assert a.fired == b.fired


def test_different_seeds_give_different_effects():
    texts = {to_text(generate_effect(random.Random(s), PRESETS["A"]).effect) for s in range(200)}
    assert len(texts) > 150


def _fired(settings: GeneratorSettings, seeds: int = 400) -> set[str]:
    fired: set[str] = set()
    for seed in range(seeds):
        fired.update(generate_effect(random.Random(seed), settings).fired)
    return fired


def test_every_rule_with_weight_fires():
    assert _fired(PRESETS["A"]) == set(RULES)


@pytest.mark.parametrize("rule", [r for r in RULES if r != "g_final"])
def test_weight_zero_disables_the_rule(rule):
    settings = dataclasses.replace(PRESETS["A"], **{rule: 0})
    fired = _fired(settings, seeds=300)
    assert rule not in fired
    # ...and the others still fire, so the absence means something.
    assert len(fired) >= len(RULES) - 3


def test_preset_e_uses_only_g_select_to_generate():
    fired = _fired(PRESETS["E"])
    assert fired & set(GENERATION_RULES) == {"g_select"}
    assert set(EXPANSION_RULES) <= fired
    assert set(REORDERING_RULES) <= fired


def test_preset_d_never_builds_a_select_from_g_select():
    fired = _fired(PRESETS["D"])
    assert "g_select" not in fired


def test_preset_weights_match_table_2():
    f = PRESETS["F"]
    assert [f.weight(r) for r in GENERATION_RULES] == [1, 1, 1, 2, 2, 2, 15]
    assert {PRESETS["B"].weight(r) for r in REORDERING_RULES} == {0}
    assert {PRESETS["C"].weight(r) for r in EXPANSION_RULES} == {0}
    assert {PRESETS["E"].weight(r) for r in GENERATION_RULES[:-1]} == {0}


def test_default_sizes_look_like_the_papers_programs():
    chans, procs = [], []
    for seed in range(500):
        effect = generate_effect(random.Random(seed), PRESETS["A"]).effect
        chans.append(len(channels(effect)))
        procs.append(count_spawns(effect) + 1)
    chans.sort()
    procs.sort()
    # Median program: a handful of channels and processes (paper: 3–6 and 2–6).
    assert 2 <= chans[250] <= 6
    assert 2 <= procs[250] <= 7
    assert all(c >= 1 for c in chans)


def test_g_select_servers_each_touch_one_channel():
    settings = settings_for("E", rewrite_steps=0)
    for seed in range(200):
        effect = generate_effect(random.Random(seed), settings).effect
        for node in walk(effect):
            if isinstance(node, Spawn):
                assert len(channels(node)) == 1
            if isinstance(node, Select):
                # every select of G-Select communicates once on each of its channels
                assert all(
                    sorted(channels(case.body) + [case.chan]) == sorted(channels(node))
                    for case in node.cases
                )


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"g_seq": -1}, "weight G-Seq"),
        ({"max_depth": 0}, "max_depth"),
        ({"max_channels": 10_000}, "max_channels"),
        (
            {
                "g_seq": 0,
                "g_choice": 0,
                "g_spawn": 0,
                "g_pingpong": 0,
                "g_fanout": 0,
                "g_pipeline": 0,
                "g_select": 0,
            },
            "at least one generation rule",
        ),
        ({"nonsense": 1}, "unknown setting"),
    ],
)
def test_bad_settings_are_rejected_with_a_clear_message(overrides, message):
    with pytest.raises(ValueError, match=message):
        settings_for("A", **overrides)


def test_unknown_heuristic_is_rejected():
    with pytest.raises(ValueError, match="unknown heuristic 'Z'"):
        settings_for("Z")


# ---------------------------------------------------------------- one rule at a time

NO_GENERATION = dict.fromkeys(GENERATION_RULES, 0)
NO_REWRITES = dict.fromkeys(EXPANSION_RULES + REORDERING_RULES, 0)


def _alone(rule: str, **sizes: int) -> GeneratorSettings:
    """Only `rule` generates, one level deep (its holes are ε); nothing rewrites after."""
    overrides = {**NO_GENERATION, **NO_REWRITES, "g_final": 0, "max_depth": 1, "rewrite_steps": 0}
    return settings_for("A", **{**overrides, rule: 1, **sizes})


def _items(effect: Effect) -> list[Effect]:
    """The parts of a sequence ([] for ε)."""
    if isinstance(effect, Eps):
        return []
    return list(effect.items) if isinstance(effect, Seq) else [effect]


def _chans(k: int) -> list[str]:
    return [f"c{i}" for i in range(1, k + 1)]


def test_g_pingpong_is_one_spawn_answering_n_plus_1_exchanges_on_one_channel():
    lengths, heads = set(), set()
    for seed in range(200):
        result = generate_effect(random.Random(seed), _alone("g_pingpong", max_n=3))
        assert result.fired == ["g_pingpong"]
        spawn = _items(result.effect)[0]
        ops = _items(spawn.body)
        assert result.effect == seq(Spawn(seq(*ops)), *[dual(op) for op in ops])
        assert channels(result.effect) == ["c1"]
        lengths.add(len(ops))
        heads.add(type(ops[0]))
    assert lengths == {1, 2, 3, 4}  # n from 0 to max_n
    assert heads == {Get, Put}


@pytest.mark.parametrize(
    ("sizes", "widths"),
    [
        ({"max_n": 3}, {1, 2, 3, 4}),
        ({"max_n": 3, "max_channels": 2}, {1, 2}),
        ({"max_n": 3, "max_processes": 3}, {1, 2, 3}),
        ({"max_n": 1}, {1, 2}),
    ],
)
def test_g_fanout_spawns_one_process_per_fresh_channel_then_collects(sizes, widths):
    seen, reordered = set(), False
    for seed in range(150):
        result = generate_effect(random.Random(seed), _alone("g_fanout", **sizes))
        assert result.fired == ["g_fanout"]
        items = _items(result.effect)
        k = sum(isinstance(item, Spawn) for item in items)
        spawns, collects = items[:k], items[k:]
        assert all(isinstance(s, Spawn) and isinstance(s.body, Get | Put) for s in spawns)
        ops = [s.body for s in spawns]
        assert [op.chan for op in ops] == _chans(k)
        assert sorted(collects, key=lambda op: op.chan) == [dual(op) for op in ops]
        reordered |= collects != [dual(op) for op in ops]
        seen.add(k)
    assert seen == widths
    assert reordered or widths == {1}


@pytest.mark.parametrize(
    ("sizes", "stages"),
    [
        ({"max_n": 3}, {1, 2, 3}),
        ({"max_n": 3, "max_channels": 3}, {1, 2}),
        ({"max_n": 3, "max_processes": 2}, {1, 2}),
        ({"max_n": 3, "max_channels": 2, "max_processes": 1}, {1}),
    ],
)
def test_g_pipeline_passes_a_message_through_n_stages(sizes, stages):
    seen = set()
    for seed in range(100):
        result = generate_effect(random.Random(seed), _alone("g_pipeline", **sizes))
        assert result.fired == ["g_pipeline"]
        n = len(channels(result.effect)) - 1
        c = _chans(n + 1)
        expected = [Spawn(seq(Get(c[i]), Put(c[i + 1]))) for i in range(n)]
        assert result.effect == seq(*expected, Put("c1"), Get(c[n]))
        seen.add(n)
    assert seen == stages


@pytest.mark.parametrize(
    ("rule", "sizes"),
    [
        ("g_pipeline", {"max_channels": 1}),
        ("g_pingpong", {"max_processes": 0}),
        ("g_fanout", {"max_processes": 0}),
        ("g_select", {"max_processes": 0}),
        ("g_spawn", {"max_processes": 0}),
    ],
)
def test_a_rule_whose_smallest_instance_does_not_fit_never_fires(rule, sizes):
    result = generate_effect(random.Random(0), _alone(rule, **sizes))
    assert result.effect == EPS
    assert result.fired == []


RECEIVE_ONLY = Capabilities(select=True, select_send=False)


@pytest.mark.parametrize(
    ("capabilities", "sizes", "n_channels"),
    [
        (FULL, {}, {1, 2, 3}),  # n up to max_n + 1
        (RECEIVE_ONLY, {}, {1, 2, 3}),
        (FULL, {"max_channels": 2}, {1, 2}),
        (FULL, {"max_processes": 1}, {1}),
    ],
)
def test_g_select_serves_each_channel_once_for_each_select(capabilities, sizes, n_channels):
    widths, counts, cases, heads, split, shuffled = set(), set(), set(), set(), False, False
    settings = _alone("g_select", max_n=2, max_selects=3, max_cases=2, **sizes)
    for seed in range(150):
        result = generate_effect(random.Random(seed), settings, capabilities)
        assert result.fired == ["g_select"]
        items = _items(result.effect)
        servers = [item for item in items if isinstance(item, Spawn)]
        selects = items[len(servers) :]
        assert servers and selects and all(isinstance(s, Select) for s in selects)
        chans = _chans(len(channels(result.effect)))
        assert sorted(channels(result.effect)) == chans
        # Each server answers on one channel only; together, once per select.
        wanted = {}
        for c in chans:
            bodies = [_items(s.body) for s in servers if channels(s) == [c]]
            answers = [op for body in bodies for op in body]
            assert len(answers) == len(selects)
            assert len(set(answers)) == 1
            wanted[c] = dual(answers[0])
            split |= len(bodies) > 1
        assert sum(len(channels(s)) for s in servers) == len(servers)
        shuffled |= [channels(s)[0] for s in servers] != sorted(channels(s)[0] for s in servers)
        # Each case: one channel at its head, then every other channel once.
        for select in selects:
            cases.add(len(select.cases))
            for case in select.cases:
                assert wanted[case.chan] == (Get if case.direction == "get" else Put)(case.chan)
                rest = _items(case.body)
                assert sorted(op.chan for op in rest) == [c for c in chans if c != case.chan]
                assert all(op == wanted[op.chan] for op in rest)
                heads.add(case.direction)
                shuffled |= [op.chan for op in rest] != sorted(op.chan for op in rest)
        widths.add(len(chans))
        counts.add(len(selects))
    assert widths == n_channels
    assert counts == {1, 2, 3}
    assert cases == {1, 2}
    assert split
    assert shuffled or n_channels == {1}
    assert heads == ({"get", "put"} if capabilities.select_send else {"get"})


def test_g_select_may_spawn_past_the_process_budget_up_to_max_selects_a_channel():
    # GeneratorSettings' one exception to max_processes: a select's servers split m.
    settings = _alone("g_select", max_n=2, max_selects=3, max_processes=1)
    spawns = {count_spawns(generate_effect(random.Random(s), settings).effect) for s in range(100)}
    assert spawns == {1, 2, 3}


# ---------------------------------------------------------------- rewrites


def test_positions_lists_every_sub_effect_with_its_path_in_pre_order():
    effect = parse("Spawn(Put(c1)) ; (Get(c1) + SelGet(c2, Put(c3)) (+) SelPut(c4, eps))")
    assert [(path, to_text(node)) for path, node in positions(effect)] == [
        ((), to_text(effect)),
        ((0,), "Spawn(Put(c1))"),
        ((0, 0), "Put(c1)"),
        ((1,), "Get(c1) + SelGet(c2, Put(c3)) (+) SelPut(c4, eps)"),
        ((1, 0), "Get(c1)"),
        ((1, 1), "SelGet(c2, Put(c3)) (+) SelPut(c4, eps)"),
        ((1, 1, 0), "Put(c3)"),
        ((1, 1, 1), "eps"),
    ]


def test_replace_at_each_path_replaces_that_sub_effect_only():
    effect = parse("Spawn(Put(c1)) ; (Get(c1) + SelGet(c2, Put(c3)) (+) SelPut(c4, eps))")
    new = Get("c9")
    replaced = {path: to_text(replace_at(effect, path, new)) for path, _ in positions(effect)}
    assert replaced == {
        (): "Get(c9)",
        (0,): "Get(c9) ; (Get(c1) + SelGet(c2, Put(c3)) (+) SelPut(c4, eps))",
        (0, 0): "Spawn(Get(c9)) ; (Get(c1) + SelGet(c2, Put(c3)) (+) SelPut(c4, eps))",
        (1,): "Spawn(Put(c1)) ; Get(c9)",
        (1, 0): "Spawn(Put(c1)) ; (Get(c9) + SelGet(c2, Put(c3)) (+) SelPut(c4, eps))",
        (1, 1): "Spawn(Put(c1)) ; (Get(c1) + Get(c9))",
        (1, 1, 0): "Spawn(Put(c1)) ; (Get(c1) + SelGet(c2, Get(c9)) (+) SelPut(c4, eps))",
        (1, 1, 1): "Spawn(Put(c1)) ; (Get(c1) + SelGet(c2, Put(c3)) (+) SelPut(c4, Get(c9)))",
    }


def test_replace_at_keeps_the_normal_form():
    effect = parse("Get(c1) ; (Put(c2) + Get(c2)) ; Put(c1)")
    assert replace_at(effect, (0,), parse("Put(c3) ; Get(c3)")) == parse(
        "Put(c3) ; Get(c3) ; (Put(c2) + Get(c2)) ; Put(c1)"
    )
    assert replace_at(effect, (1, 0), parse("Get(c4) + Put(c4)")) == parse(
        "Get(c1) ; (Get(c4) + Put(c4) + Get(c2)) ; Put(c1)"
    )
    assert replace_at(effect, (2,), EPS) == parse("Get(c1) ; (Put(c2) + Get(c2))")


def test_replace_at_a_path_through_a_leaf_is_an_error():
    with pytest.raises(ValueError, match=r"no child 0 in Get\(chan='c1'\)"):
        replace_at(parse("Get(c1) ; Put(c2)"), (0, 0), EPS)


def _sites_of(before: Effect, kind: type) -> list[tuple[tuple[int, ...], Effect]]:
    return [(path, node) for path, node in positions(before) if isinstance(node, kind)]


def _swapped(items: list, i: int) -> list:
    return [*items[:i], items[i + 1], items[i], *items[i + 2 :]]


def _select_dups(node: Select) -> list[Effect]:
    cases = list(node.cases)
    return [
        Select(tuple([*cases[: i + 1], cases[j], *cases[i + 1 :]]))
        for i in range(len(cases) - 1)
        for j in (i, i + 1)
    ]


def _get_get(node: Choice) -> list[Effect]:
    options = list(node.options)
    heads = [k for k, o in enumerate(options) if isinstance(next(iter(_items(o)), None), Get)]
    results = []
    for a, i in enumerate(heads):
        for j in heads[a + 1 :]:
            sel = Select(
                tuple(
                    SelCase("get", _items(options[k])[0].chan, seq(*_items(options[k])[1:]))
                    for k in (i, j)
                )
            )
            # The select takes the place of the first option of the two.
            results.append(choice(*options[:i], sel, *options[i + 1 : j], *options[j + 1 :]))
    return results


def _spawn_pairs(node: Seq) -> list[int]:
    items = node.items
    return [
        i
        for i in range(len(items) - 1)
        if isinstance(items[i], Spawn) and isinstance(items[i + 1], Spawn)
    ]


# What each rewrite may turn each site into (every site and every draw).
REWRITES = {
    "e_choice_dup": lambda before: [
        replace_at(before, p, choice(n, n)) for p, n in positions(before) if n != EPS
    ],
    "e_get_select": lambda before: [
        replace_at(before, p, Select((SelCase("get", n.chan, EPS),) * 2))
        for p, n in _sites_of(before, Get)
    ],
    "e_put_select": lambda before: [
        replace_at(before, p, Select((SelCase("put", n.chan, EPS),) * 2))
        for p, n in _sites_of(before, Put)
    ],
    "e_select_dup": lambda before: [
        replace_at(before, p, new) for p, n in _sites_of(before, Select) for new in _select_dups(n)
    ],
    "r_select": lambda before: [
        replace_at(before, p, Select(tuple(_swapped(list(n.cases), i))))
        for p, n in _sites_of(before, Select)
        for i in range(len(n.cases) - 1)
    ],
    "r_choice_select_get_get": lambda before: [
        replace_at(before, p, new) for p, n in _sites_of(before, Choice) for new in _get_get(n)
    ],
    "r_spawn_1": lambda before: [
        replace_at(before, p, seq(*_swapped(list(n.items), i)))
        for p, n in _sites_of(before, Seq)
        for i in _spawn_pairs(n)
    ],
    "r_spawn_2": lambda before: [
        replace_at(
            before,
            p,
            seq(*n.items[:i], Spawn(seq(n.items[i + 1], n.items[i].body)), *n.items[i + 2 :]),
        )
        for p, n in _sites_of(before, Seq)
        for i in _spawn_pairs(n)
    ],
}


@pytest.mark.parametrize("rule", sorted(set(REWRITES) - {"r_choice_select_get_get"}))
def test_one_rewrite_step_applies_its_rule_at_one_of_its_sites(rule):
    generated = settings_for("F", **NO_REWRITES, rewrite_steps=0)
    rewritten = settings_for("F", **{**NO_REWRITES, rule: 1}, rewrite_steps=1)
    fired, first_or_not = 0, set()
    for seed in range(120):
        before = generate_effect(random.Random(seed), generated)
        after = generate_effect(random.Random(seed), rewritten)
        possible = REWRITES[rule](before.effect)
        if not possible:
            assert after.effect == before.effect
            assert after.fired == before.fired
            continue
        assert after.fired == [*before.fired, rule]
        assert after.effect in possible, to_text(before.effect)
        fired += 1
        first_or_not.add(possible.index(after.effect) == 0)
    assert fired >= 20
    # Not always the first site (or the first draw) either.
    assert first_or_not == {True, False}


def test_r_choice_select_get_get_turns_any_two_get_headed_options_into_a_select():
    # Generation alone never heads an option with a get; earlier rewrites do.
    before = parse(
        "Spawn((Get(c1) ; Put(c2)) + Put(c3) + Get(c4) + (Get(c5) ; Get(c6))) ; (Get(c7) + Get(c8))"
    )
    settings = settings_for("A", **{**NO_REWRITES, "r_choice_select_get_get": 1}, rewrite_steps=1)
    possible = REWRITES["r_choice_select_get_get"](before)
    assert len(possible) == 4
    seen = set()
    for seed in range(80):
        generator = _Generator(random.Random(seed), settings)
        after = generator.rewrite(before)
        assert generator.fired == ["r_choice_select_get_get"]
        seen.add(possible.index(after))
    assert seen == {0, 1, 2, 3}
    assert possible[0] == parse(
        "Spawn(SelGet(c1, Put(c2)) (+) SelGet(c4, eps) + Put(c3) + (Get(c5) ; Get(c6))) ; "
        "(Get(c7) + Get(c8))"
    )
    assert possible[3] == parse(
        "Spawn((Get(c1) ; Put(c2)) + Put(c3) + Get(c4) + (Get(c5) ; Get(c6))) ; "
        "(SelGet(c7, eps) (+) SelGet(c8, eps))"
    )


def _pingpong_on(effect: Effect, chan: str) -> bool:
    """Whether `effect` is one G-PingPong with ε holes on `chan`."""
    items = _items(effect)
    if not items or not isinstance(items[0], Spawn) or channels(effect) != [chan]:
        return False
    ops = _items(items[0].body)
    return effect == seq(Spawn(seq(*ops)), *[dual(op) for op in ops])


@pytest.mark.parametrize("max_depth", [1, 3])
def test_e_seq_puts_one_fresh_level_of_generation_on_each_side(max_depth):
    settings = settings_for(
        "A", **{**NO_GENERATION, "g_pingpong": 1}, g_final=0, max_depth=max_depth
    )
    node = parse("Spawn(Get(c1)) ; Put(c1)")
    for seed in range(20):
        generator = _Generator(random.Random(seed), settings)
        generator.next_chan = 5
        after = generator.e_seq(node)
        # Two more channels and processes (ESEQ_BUDGET), one G-PingPong before and after.
        items = _items(after)
        k = len(_items(after)) - len(_items(node))
        assert any(items[i : i + 2] == list(node.items) for i in range(k + 1))
        i = next(i for i in range(k + 1) if items[i : i + 2] == list(node.items))
        assert _pingpong_on(seq(*items[:i]), "c5")
        assert _pingpong_on(seq(*items[i + 2 :]), "c6")
        assert generator.fired == ["g_pingpong", "g_pingpong"]
        assert generator.next_chan == 7


def test_e_seq_adds_at_most_two_channels_and_sometimes_two():
    settings = settings_for("A", max_depth=3)
    added = set()
    for seed in range(100):
        generator = _Generator(random.Random(seed), settings)
        generator.next_chan = 5
        after = generator.e_seq(Get("c1"))
        new = [c for c in channels(after) if c != "c1"]
        assert sorted(new) == [f"c{i}" for i in range(5, 5 + len(new))]
        added.add(len(new))
    assert added == {0, 1, 2}


# ---------------------------------------------------------------- the root, holes, depth


def test_the_root_is_never_g_final_but_holes_may_be():
    settings = settings_for("A", g_final=1000, rewrite_steps=0)
    finals = 0
    for seed in range(50):
        fired = generate_effect(random.Random(seed), settings).fired
        assert fired[0] in GENERATION_RULES
        finals += fired.count("g_final")
    assert finals >= 50


def _spawn_depth(effect: Effect) -> int:
    """How deep spawns nest in `effect`."""
    return max(map(_spawn_depth, children(effect)), default=0) + isinstance(effect, Spawn)


@pytest.mark.parametrize("max_depth", [1, 2, 3])
def test_rules_nest_max_depth_deep_then_holes_are_empty(max_depth):
    settings = _alone("g_spawn", g_pingpong=1, max_depth=max_depth, max_processes=max_depth)
    depths = set()
    for seed in range(100):
        effect = generate_effect(random.Random(seed), settings).effect
        depths.add(_spawn_depth(effect))
    assert max(depths) == max_depth


@pytest.mark.parametrize("rule", ["g_seq", "g_choice"])
def test_g_seq_and_g_choice_put_their_holes_in_the_order_drawn(rule):
    settings = _alone(rule, g_pingpong=1, max_depth=2)
    combine = seq if rule == "g_seq" else choice
    fired = 0
    for seed in range(60):
        result = generate_effect(random.Random(seed), settings)
        if result.fired != [rule, "g_pingpong", "g_pingpong"]:
            continue
        fired += 1
        parts = _items(result.effect) if rule == "g_seq" else list(result.effect.options)
        k = next(k for k, part in enumerate(parts) if channels(part) == ["c2"])
        left, right = combine(*parts[:k]), combine(*parts[k:])
        assert _pingpong_on(left, "c1") and _pingpong_on(right, "c2")
    assert fired >= 5


@pytest.mark.parametrize("rule", ["g_seq", "g_choice"])
def test_g_seq_and_g_choice_fit_in_an_empty_budget(rule):
    result = generate_effect(random.Random(0), _alone(rule, max_channels=1, max_processes=0))
    assert result.fired == [rule]
    assert not has_channel(result.effect)


@pytest.fixture
def roots(monkeypatch):  # noqa: ANN001, ANN201
    """Every root drawn by generate_effect, in order."""
    drawn = []
    original = _Generator.root

    def root(self):  # noqa: ANN001, ANN202
        drawn.append(original(self))
        return drawn[-1]

    monkeypatch.setattr(_Generator, "root", root)
    return drawn


def test_a_program_without_channels_is_drawn_again_50_times_then_kept(roots):
    result = generate_effect(random.Random(0), _alone("g_seq"))
    assert len(roots) == 1 + ROOT_ATTEMPTS == 51
    assert result.effect == EPS
    assert result.fired == ["g_seq"]


def test_the_first_program_with_a_channel_is_kept(roots):
    redrawn = 0
    for seed in range(30):
        roots.clear()
        result = generate_effect(random.Random(seed), _alone("g_spawn", g_pingpong=1))
        assert result.effect == roots[-1]
        assert has_channel(result.effect)
        assert not any(has_channel(effect) for effect in roots[:-1])
        assert result.fired == ["g_pingpong"]
        redrawn += len(roots) > 1
    assert redrawn >= 5


def test_a_program_drawn_again_keeps_the_targets_capabilities(roots):
    redrawn = 0
    for seed in range(40):
        roots.clear()
        result = generate_effect(random.Random(seed), _alone("g_spawn", g_select=1), RECEIVE_ONLY)
        selects = [node for node in walk(result.effect) if isinstance(node, Select)]
        assert selects
        assert {case.direction for s in selects for case in s.cases} == {"get"}
        redrawn += len(roots) > 1
    assert redrawn >= 10


@pytest.mark.parametrize("rule", ["r_spawn_1", "r_spawn_2"])
def test_r_spawn_rules_reach_every_pair_of_adjacent_spawns_the_last_one_too(rule):
    before = parse("Spawn(Put(c1)) ; Spawn(Put(c2)) ; Get(c1) ; Spawn(Get(c3)) ; Spawn(Put(c3))")
    settings = settings_for("A", **{**NO_REWRITES, rule: 1}, rewrite_steps=1)
    possible = REWRITES[rule](before)
    assert len(possible) == 2
    seen = set()
    for seed in range(30):
        generator = _Generator(random.Random(seed), settings)
        seen.add(possible.index(generator.rewrite(before)))
        assert generator.fired == [rule]
    assert seen == {0, 1}

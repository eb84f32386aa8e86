"""Generation of terminating effects: the G-, E- and R-rules of SPEC §4–§6.

`generate_effect(rng, settings)` builds an effect with the generation rules,
then applies `settings.rewrite_steps` expansion/reordering rewrites. Every rule
introduces fresh channels, so sub-effects never share channels unless a rule
says so; that is what makes each of them terminate (Theorems 4.4, 4.5).
All randomness comes from the one `random.Random` passed in.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field

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
    children,
    choice,
    dual,
    has_channel,
    seq,
)
from generator.settings import (
    EXPANSION_RULES,
    GENERATION_RULES,
    REORDERING_RULES,
    GeneratorSettings,
)

# Channels and spawns one E-Seq step may add beyond the initial budget.
ESEQ_BUDGET = 2
# Draws of the root before a program without channels is accepted.
ROOT_ATTEMPTS = 50

Path = tuple[int, ...]


@dataclass
class _Budget:
    channels: int
    processes: int


@dataclass
class GenerationResult:
    effect: Effect
    fired: list[str] = field(default_factory=list)


class _Generator:
    def __init__(
        self, rng: random.Random, settings: GeneratorSettings, capabilities: Capabilities = FULL
    ) -> None:
        self.rng = rng
        self.s = settings
        self.caps = capabilities
        self.next_chan = 1
        self.fired: list[str] = []
        self.budget = _Budget(settings.max_channels, settings.max_processes)
        self.g_weights = [(r, settings.weight(r)) for r in GENERATION_RULES]

    # ------------------------------------------------------------ helpers

    def fresh(self, n: int = 1) -> list[str]:
        names = [f"c{self.next_chan + i}" for i in range(n)]
        self.next_chan += n
        self.budget.channels -= n
        return names

    def spawned(self, n: int = 1) -> None:
        self.budget.processes -= n

    def pick(self, weighted: list[tuple[str, int]]) -> str | None:
        total = sum(w for _, w in weighted)
        if total <= 0:
            return None
        x = self.rng.randrange(total)
        for name, w in weighted:
            if x < w:
                return name
            x -= w
        raise AssertionError("unreachable")

    def op(self, chan: str) -> Get | Put:
        return Get(chan) if self.rng.random() < 0.5 else Put(chan)

    def n_up_to(self, low: int, limit: int) -> int:
        """A random n in [low, min(max_n, limit)]; caller guarantees limit ≥ low."""
        return self.rng.randint(low, max(low, min(self.s.max_n, limit)))

    # ------------------------------------------------------------ generation rules

    def fits(self, rule: str) -> bool:
        """Whether the rule's smallest instance fits in what is left of the budget."""
        ch, pr = self.budget.channels, self.budget.processes
        if rule in ("g_seq", "g_choice"):
            return True
        if rule == "g_pipeline":
            return ch >= 2 and pr >= 1
        if rule == "g_spawn":
            return pr >= 1
        return ch >= 1 and pr >= 1

    def root(self) -> Effect:
        """The whole program: never G-Final unless nothing else can fire."""
        return self.generate(0, allow_final=False)

    def hole(self, depth: int) -> Effect:
        """□: a recursively generated terminating effect, possibly ε."""
        if depth >= self.s.max_depth:
            return EPS
        return self.generate(depth, allow_final=True)

    def generate(self, depth: int, *, allow_final: bool) -> Effect:
        candidates = [(r, w) for r, w in self.g_weights if w and self.fits(r)]
        if allow_final:
            candidates.append(("g_final", self.s.g_final))
        rule = self.pick(candidates)
        if rule is None or rule == "g_final":
            if rule == "g_final":
                self.fired.append(rule)
            return EPS
        self.fired.append(rule)
        return getattr(self, rule)(depth + 1)

    def g_seq(self, d: int) -> Effect:
        return seq(self.hole(d), self.hole(d))

    def g_choice(self, d: int) -> Effect:
        left, right = self.hole(d), self.hole(d)
        return choice(left, right)

    def g_spawn(self, d: int) -> Effect:
        self.spawned()
        return Spawn(self.hole(d))

    def g_pingpong(self, d: int) -> Effect:
        (c,) = self.fresh()
        self.spawned()
        n = self.rng.randint(0, self.s.max_n)
        ops = [self.op(c) for _ in range(n + 1)]
        child = [self.hole(d)]
        for op in ops:
            child += [op, self.hole(d)]
        parent: list[Effect] = []
        for op in ops:
            parent += [self.hole(d), dual(op)]
        return seq(Spawn(seq(*child)), *parent)

    def g_fanout(self, d: int) -> Effect:
        n = self.n_up_to(0, min(self.budget.channels, self.budget.processes) - 1)
        chans = self.fresh(n + 1)
        self.spawned(n + 1)
        ops = [self.op(c) for c in chans]
        spawns = [Spawn(seq(self.hole(d), op, self.hole(d))) for op in ops]
        collects = [seq(self.hole(d), dual(op)) for op in ops]
        self.rng.shuffle(collects)
        return seq(*spawns, *collects)

    def g_pipeline(self, d: int) -> Effect:
        n = self.n_up_to(1, min(self.budget.channels - 1, self.budget.processes))
        chans = self.fresh(n + 1)
        self.spawned(n)
        stages = [
            Spawn(seq(self.hole(d), Get(chans[i - 1]), self.hole(d), Put(chans[i]), self.hole(d)))
            for i in range(1, n + 1)
        ]
        return seq(*stages, Put(chans[0]), self.hole(d), Get(chans[n]))

    def g_select(self, d: int) -> Effect:
        rng = self.rng
        # n channels, each needing at least one server process.
        n = rng.randint(
            1, max(1, min(self.s.max_n + 1, self.budget.channels, self.budget.processes))
        )
        chans = self.fresh(n)
        # Without send cases every case head receives (the servers send); no draw is
        # made then, and with send cases the draws are the same as ever.
        ops: dict[str, Get | Put] = {
            c: self.op(c) if self.caps.select_send else Get(c) for c in chans
        }
        m = rng.randint(1, self.s.max_selects)
        servers: list[Effect] = []
        for c in chans:
            # Each channel is served m times in total by one or more spawned
            # processes that touch no other channel: always ready, in any order.
            parts = self._split(m)
            self.spawned(len(parts))
            servers += [Spawn(seq(*[dual(ops[c])] * k)) for k in parts]
        rng.shuffle(servers)
        selects: list[Effect] = []
        for _ in range(m):
            k = rng.randint(1, self.s.max_cases)
            cases = []
            for _ in range(k):
                first = rng.choice(chans)
                rest = [ops[c] for c in chans if c != first]
                rng.shuffle(rest)
                direction = "get" if isinstance(ops[first], Get) else "put"
                cases.append(SelCase(direction, first, seq(*rest)))
            selects.append(Select(tuple(cases)))
        return seq(*servers, *selects)

    def _split(self, m: int) -> list[int]:
        """m as a sum of 1 or more positive parts (how many servers share a channel)."""
        parts: list[int] = []
        while m > 0:
            k = self.rng.randint(1, m)
            parts.append(k)
            m -= k
        return parts

    # ------------------------------------------------------------ rewriting

    def rewrite(self, effect: Effect) -> Effect:
        rules = [(r, self.s.weight(r)) for r in EXPANSION_RULES + REORDERING_RULES]
        for _ in range(self.s.rewrite_steps):
            candidates = [(r, w) for r, w in rules if w > 0]
            everywhere = _sites(effect)
            while candidates:
                rule = self.pick(candidates)
                assert rule is not None
                sites = _SITES[rule](everywhere)
                if sites:
                    k = sites[self.rng.randrange(len(sites))]
                    node = everywhere[k][0]
                    effect = replace_at(effect, _path(everywhere, k), getattr(self, rule)(node))
                    self.fired.append(rule)
                    break
                candidates = [(r, w) for r, w in candidates if r != rule]
        return effect

    def e_choice_dup(self, node: Effect) -> Effect:
        return choice(node, node)

    def e_get_select(self, node: Get) -> Effect:
        return Select((SelCase("get", node.chan, EPS), SelCase("get", node.chan, EPS)))

    def e_put_select(self, node: Put) -> Effect:
        return Select((SelCase("put", node.chan, EPS), SelCase("put", node.chan, EPS)))

    def e_seq(self, node: Effect) -> Effect:
        saved = self.budget
        self.budget = _Budget(ESEQ_BUDGET, ESEQ_BUDGET)
        depth = max(0, self.s.max_depth - 1)
        before, after = self.hole(depth), self.hole(depth)
        self.budget = saved
        return seq(before, node, after)

    def e_select_dup(self, node: Select) -> Effect:
        cases = list(node.cases)
        i = self.rng.randrange(len(cases) - 1)
        # σ_i ⊕ σ_{i+1} → σ_i ⊕ σ_j ⊕ σ_{i+1}, j ∈ {i, i+1}
        cases.insert(i + 1, cases[i + self.rng.randrange(2)])
        return Select(tuple(cases))

    def r_select(self, node: Select) -> Effect:
        cases = list(node.cases)
        i = self.rng.randrange(len(cases) - 1)
        cases[i], cases[i + 1] = cases[i + 1], cases[i]
        return Select(tuple(cases))

    def r_choice_select_get_get(self, node: Choice) -> Effect:
        heads = _get_headed(node)
        i, j = sorted(self.rng.sample(heads, 2))
        sel = Select(
            tuple(
                SelCase("get", _first(node.options[k]).chan, _rest(node.options[k])) for k in (i, j)
            )
        )
        others = [o for k, o in enumerate(node.options) if k not in (i, j)]
        return choice(*others[:i], sel, *others[i:]) if others else sel

    def _adjacent_spawns(self, node: Seq) -> int:
        pairs = _spawn_pairs(node)
        return pairs[self.rng.randrange(len(pairs))]

    def r_spawn_1(self, node: Seq) -> Effect:
        i = self._adjacent_spawns(node)
        items = list(node.items)
        items[i], items[i + 1] = items[i + 1], items[i]
        return seq(*items)

    def r_spawn_2(self, node: Seq) -> Effect:
        i = self._adjacent_spawns(node)
        items = list(node.items)
        first, second = items[i], items[i + 1]
        assert isinstance(first, Spawn) and isinstance(second, Spawn)
        items[i : i + 2] = [Spawn(seq(second, first.body))]
        return seq(*items)


# ---------------------------------------------------------------- rewrite sites


def positions(effect: Effect) -> list[tuple[Path, Effect]]:
    """Every sub-effect with its path of child indices from the root, pre-order."""
    sites = _sites(effect)
    return [(_path(sites, k), site[0]) for k, site in enumerate(sites)]


def _sites(effect: Effect) -> list[tuple[Effect, int, int]]:
    """Every sub-effect as (node, index of its parent in this list, child index), pre-order.

    Paths are built only for the site a rewrite picks (`_path`): building one
    per node was most of the cost of a rewrite step.
    """
    result: list[tuple[Effect, int, int]] = []
    stack: list[tuple[Effect, int, int]] = [(effect, -1, -1)]
    while stack:
        item = stack.pop()
        here = len(result)
        result.append(item)
        kids = children(item[0])
        for i in range(len(kids) - 1, -1, -1):
            stack.append((kids[i], here, i))
    return result


def _path(sites: list[tuple[Effect, int, int]], k: int) -> Path:
    path: list[int] = []
    while sites[k][1] >= 0:
        path.append(sites[k][2])
        k = sites[k][1]
    return tuple(reversed(path))


def replace_at(effect: Effect, path: Path, new: Effect) -> Effect:
    """The effect with the sub-effect at `path` replaced, kept in normal form."""
    if not path:
        return new
    i, rest = path[0], path[1:]
    if isinstance(effect, Spawn):
        return Spawn(replace_at(effect.body, rest, new))
    if isinstance(effect, Seq):
        items = list(effect.items)
        items[i] = replace_at(items[i], rest, new)
        return seq(*items)
    if isinstance(effect, Choice):
        options = list(effect.options)
        options[i] = replace_at(options[i], rest, new)
        return choice(*options)
    if isinstance(effect, Select):
        cases = list(effect.cases)
        c = cases[i]
        cases[i] = SelCase(c.direction, c.chan, replace_at(c.body, rest, new))
        return Select(tuple(cases))
    raise ValueError(f"no child {i} in {effect!r}")


def _first(e: Effect) -> Effect:
    return e.items[0] if isinstance(e, Seq) else e


def _rest(e: Effect) -> Effect:
    return seq(*e.items[1:]) if isinstance(e, Seq) else EPS


def _get_headed(node: Choice) -> list[int]:
    return [k for k, o in enumerate(node.options) if isinstance(_first(o), Get)]


def _spawn_pairs(node: Seq) -> list[int]:
    items = node.items
    return [
        i
        for i in range(len(items) - 1)
        if isinstance(items[i], Spawn) and isinstance(items[i + 1], Spawn)
    ]


Site = tuple[Effect, int, int]


def _where(test: Callable[[Effect], bool]) -> Callable[[list[Site]], list[int]]:
    return lambda sites: [k for k, site in enumerate(sites) if test(site[0])]


_SITES: dict[str, Callable[[list[Site]], list[int]]] = {
    # Duplicating ε into ε + ε adds nothing to test.
    "e_choice_dup": _where(lambda n: not isinstance(n, Eps)),
    "e_get_select": _where(lambda n: isinstance(n, Get)),
    "e_put_select": _where(lambda n: isinstance(n, Put)),
    "e_seq": lambda sites: list(range(len(sites))),
    "e_select_dup": _where(lambda n: isinstance(n, Select) and len(n.cases) >= 2),
    "r_select": _where(lambda n: isinstance(n, Select) and len(n.cases) >= 2),
    "r_choice_select_get_get": _where(lambda n: isinstance(n, Choice) and len(_get_headed(n)) >= 2),
    "r_spawn_1": _where(lambda n: isinstance(n, Seq) and bool(_spawn_pairs(n))),
    "r_spawn_2": _where(lambda n: isinstance(n, Seq) and bool(_spawn_pairs(n))),
}


def generate_effect(
    rng: random.Random, settings: GeneratorSettings, capabilities: Capabilities = FULL
) -> GenerationResult:
    """A terminating effect, with the rules that fired in order.

    Only rules the target's ``capabilities`` can express fire (Capabilities.restrict:
    InexpressibleSettings when none of the generation rules is left).
    """
    settings = capabilities.restrict(settings)
    gen = _Generator(rng, settings, capabilities)
    effect = gen.root()
    # A program that never communicates tests nothing; choices of G-Seq,
    # G-Choice or G-Spawn over ε holes give one, so draw again (still seeded).
    for _ in range(ROOT_ATTEMPTS):
        if has_channel(effect):
            break
        gen = _Generator(rng, settings, capabilities)
        effect = gen.root()
    effect = gen.rewrite(effect)
    return GenerationResult(effect, gen.fired)

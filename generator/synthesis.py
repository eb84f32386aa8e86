"""From an effect to a λ_chan program (SPEC §8): the type rules read backwards.

Where several expressions have the effect, one is chosen at random from the
rng: `;` becomes `e1; e2` or `let x = e1 in e2`, `+` becomes
`if B then e1 else e2` with B a closed boolean condition (either value), and
variable names vary. `typecheck.check_has_effect` confirms the result.
"""

from __future__ import annotations

import random

from generator import lambda_chan as lc
from generator.effects import (
    ChanE,
    Choice,
    Close,
    Effect,
    Eps,
    Get,
    Put,
    Range,
    Select,
    Seq,
    Spawn,
    capacities,
    channels,
)

_VAR_STEMS = ("x", "v", "m", "r", "msg", "got", "u")


def random_condition(rng: random.Random, depth: int = 0) -> lc.Cond:
    """A closed boolean condition; either value may come out."""
    roll = rng.randrange(6 if depth < 2 else 2)
    if roll == 0:
        return lc.BoolLit(rng.random() < 0.5)
    if roll == 1:
        a, b = rng.randint(0, 9), rng.randint(0, 9)
        return lc.Compare(rng.choice(("==", "!=", "<", "<=", ">", ">=")), a, b)
    if roll == 2:
        return lc.Not(random_condition(rng, depth + 1))
    if roll in (3, 4):
        op = "&&" if roll == 3 else "||"
        return lc.BoolOp(op, random_condition(rng, depth + 1), random_condition(rng, depth + 1))
    return lc.BoolLit(True)


class _Synth:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.counter = 0

    def var(self) -> str:
        self.counter += 1
        return f"{self.rng.choice(_VAR_STEMS)}{self.counter}"

    def expr(self, e: Effect) -> lc.Expr:
        kind = type(e)
        if kind is Get:
            return lc.Recv(e.chan)
        if kind is Put:
            return lc.Send(e.chan)
        if kind is Seq:
            rng = self.rng
            result = self.expr(e.items[-1])
            for item in reversed(e.items[:-1]):
                first = self.expr(item)
                if rng.random() < 0.3:
                    result = lc.Let(self.var(), first, result)
                else:
                    result = lc.Then(first, result)
            return result
        if kind is Select:
            return lc.SelectE(
                tuple(
                    lc.Case(
                        c.direction,
                        c.chan,
                        self.var() if c.direction == "get" else None,
                        self.expr(c.body),
                    )
                    for c in e.cases
                ),
                None if e.default is None else self.expr(e.default),
            )
        if kind is Spawn:
            return lc.SpawnE(self.expr(e.body))
        if kind is Choice:
            result = self.expr(e.options[-1])
            for option in reversed(e.options[:-1]):
                result = lc.If(random_condition(self.rng), self.expr(option), result)
            return result
        if kind is Eps:
            return lc.Unit()
        if kind is ChanE:
            return lc.NewChan(e.chan, e.capacity)
        if kind is Close:
            return lc.CloseE(e.chan)
        if kind is Range:
            return lc.RangeE(e.chan, self.var(), self.expr(e.body))
        raise TypeError(f"not an effect: {e!r}")


def synthesize(effect: Effect, rng: random.Random) -> lc.Program:
    """A λ_chan program whose type-and-effect is `effect`; channels created up front
    (with the capacities its `Chan(c, k)` declare)."""
    buffered = tuple((c, k) for c, k in capacities(effect).items() if k)
    return lc.Program(tuple(channels(effect)), _Synth(rng).expr(effect), buffered)

"""The type-and-effect system of λ_chan (paper Fig. 9).

`infer(program)` gives main's type and effect; `check_has_effect` confirms a
synthesized program has exactly the effect it came from. Types are `unit`,
`bool` and channels (which carry unit); a channel name must be created at the
top of the program, a variable must be bound before use, branches of an `if`
and cases of a `select` must agree on their type.
"""

from __future__ import annotations

from collections.abc import Mapping

from generator import lambda_chan as lc
from generator.effects import (
    EPS,
    ChanE,
    Close,
    Effect,
    Get,
    Put,
    Range,
    SelCase,
    Select,
    Spawn,
    capacity_text,
    choice,
    seq,
    to_text,
)

Type = str  # "unit" | "bool"


class EffectTypeError(ValueError):
    """The program is ill-typed, or does not have the expected effect."""


def _infer(
    e: lc.Expr, env: Mapping[str, Type], chans: frozenset[str], capacity: Mapping[str, int]
) -> tuple[Type, Effect]:
    def channel(name: str) -> str:
        if name not in chans:
            raise EffectTypeError(f"channel {name} is used but never created")
        return name

    if isinstance(e, lc.Unit):
        return "unit", EPS
    if isinstance(e, lc.BoolLit):
        return "bool", EPS
    if isinstance(e, lc.Var):
        if e.name not in env:
            raise EffectTypeError(f"variable {e.name} is not bound")
        return env[e.name], EPS
    if isinstance(e, lc.NewChan):
        if e.capacity != capacity.get(e.chan, 0):
            raise EffectTypeError(
                f"chan {e.chan} has capacity {capacity_text(e.capacity)}, the program creates "
                f"it with {capacity_text(capacity.get(e.chan, 0))}"
            )
        return "unit", ChanE(channel(e.chan), e.capacity)
    if isinstance(e, lc.CloseE):
        return "unit", Close(channel(e.chan))
    if isinstance(e, lc.RangeE):
        _, f = _infer(e.body, {**env, e.var: "unit"}, chans, capacity)
        return "unit", Range(channel(e.chan), f)
    if isinstance(e, lc.Recv):
        return "unit", Get(channel(e.chan))
    if isinstance(e, lc.Send):
        return "unit", Put(channel(e.chan))
    if isinstance(e, lc.Let):
        t1, f1 = _infer(e.bound, env, chans, capacity)
        t2, f2 = _infer(e.body, {**env, e.name: t1}, chans, capacity)
        return t2, seq(f1, f2)
    if isinstance(e, lc.Then):
        _, f1 = _infer(e.first, env, chans, capacity)
        t2, f2 = _infer(e.second, env, chans, capacity)
        return t2, seq(f1, f2)
    if isinstance(e, lc.If):
        # Conditions are closed boolean expressions: type bool, effect ε.
        t2, f2 = _infer(e.then, env, chans, capacity)
        t3, f3 = _infer(e.orelse, env, chans, capacity)
        if t2 != t3:
            raise EffectTypeError(f"branches of an if have types {t2} and {t3}")
        return t2, choice(f2, f3)
    if isinstance(e, lc.SpawnE):
        _, f = _infer(e.body, env, chans, capacity)
        return "unit", Spawn(f)
    if isinstance(e, lc.SelectE):
        if not e.cases:
            raise EffectTypeError("a select needs at least one case")
        types, cases = set(), []
        for case in e.cases:
            inner = dict(env)
            if case.direction == "get":
                if case.var is None:
                    raise EffectTypeError(f"get case on {case.chan} binds no variable")
                inner[case.var] = "unit"
            t, f = _infer(case.body, inner, chans, capacity)
            types.add(t)
            cases.append(SelCase(case.direction, channel(case.chan), f))
        default = None
        if e.default is not None:
            t, default = _infer(e.default, env, chans, capacity)
            types.add(t)
        if len(types) > 1:
            raise EffectTypeError(f"select cases have different types: {sorted(types)}")
        return types.pop(), Select(tuple(cases), default)
    raise EffectTypeError(f"not an expression: {e!r}")


def infer(program: lc.Program) -> tuple[Type, Effect]:
    """Type and effect of the program's main expression."""
    if len(set(program.channels)) != len(program.channels):
        raise EffectTypeError("a channel is created twice")
    return _infer(program.main, {}, frozenset(program.channels), dict(program.capacities))


def check_has_effect(program: lc.Program, effect: Effect) -> None:
    """Raise EffectTypeError unless the program is well-typed with exactly `effect`."""
    _, inferred = infer(program)
    if inferred != effect:
        raise EffectTypeError(
            f"program has effect {to_text(inferred)}\nexpected        {to_text(effect)}"
        )

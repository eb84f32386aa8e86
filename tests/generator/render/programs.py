"""Programs the renderer tests share: the paper's four (SPEC §8) and a few hand-built ones.

The paper programs are translated from their effects by `from_effect`, a plain
deterministic translation (no randomness), so the golden files do not move
when the synthesiser's random choices change.
"""

from __future__ import annotations

from generator import lambda_chan as lc
from generator.effects import (
    ChanE,
    Choice,
    Effect,
    Eps,
    Get,
    Put,
    Select,
    Seq,
    Spawn,
    channels,
    parse,
)

PAPER_EFFECTS = {
    "flix1": (
        "Spawn(Put(c1)) ; Spawn(Put(c3)) ; Spawn(Put(c2)) ; "
        "SelGet(c2, Get(c1) ; Get(c3))"
        " (+) SelGet(c2, Get(c1) ; (SelGet(c3, eps) (+) SelGet(c3, eps)))"
        " (+) SelGet(c1, Get(c2) ; (SelGet(c3, eps) (+) SelGet(c3, eps)))"
    ),
    "flix2": (
        "Spawn(SelGet(c3, Put(c4)) (+) SelGet(c3, Put(c4))) ; "
        "Spawn(Get(c2) ; Put(c3)) ; Spawn(Get(c1) ; Put(c2)) ; Put(c1) ; Get(c4)"
    ),
    "crystal": (
        "Spawn(Get(c1)) ; Spawn(SelGet(c3, eps) (+) SelGet(c3, eps)) ; Spawn(Put(c2)) ; "
        "SelPut(c3, Put(c1) ; Get(c2)) (+) SelPut(c3, Put(c1) ; Get(c2))"
    ),
    "kotlin": (
        "Spawn(SelGet(c5, eps) (+) SelGet(c5, eps) (+) SelGet(c5, eps)) ; "
        "Spawn(Get(c4)) ; Spawn(Get(c3)) ; Spawn(Put(c2)) ; Spawn(Put(c1)) ; "
        "SelGet(c2, Put(c4) ; Get(c1) ; Put(c5) ; Put(c3))"
        " (+) SelPut(c5, Get(c2) ; Put(c3) ; Get(c1) ; Put(c4))"
        " (+) SelPut(c3, Get(c1) ; Get(c2) ; Put(c4) ; Put(c5))"
    ),
}


def then_all(*exprs: lc.Expr) -> lc.Expr:
    """e1; e2; …; en as λ_chan's right-nested `Then`s."""
    result = exprs[-1]
    for e in reversed(exprs[:-1]):
        result = lc.Then(e, result)
    return result


def from_effect(effect: Effect) -> lc.Program:
    """The obvious λ_chan program of an effect: `;` as `e1; e2`, `+` as `if 1 == 1`."""
    names = iter(f"x{i}" for i in range(1, 10_000))

    def expr(e: Effect) -> lc.Expr:
        if isinstance(e, Eps):
            return lc.Unit()
        if isinstance(e, ChanE):
            return lc.NewChan(e.chan)
        if isinstance(e, Get):
            return lc.Recv(e.chan)
        if isinstance(e, Put):
            return lc.Send(e.chan)
        if isinstance(e, Spawn):
            return lc.SpawnE(expr(e.body))
        if isinstance(e, Seq):
            result = expr(e.items[-1])
            for item in reversed(e.items[:-1]):
                result = lc.Then(expr(item), result)
            return result
        if isinstance(e, Choice):
            result = expr(e.options[-1])
            for option in reversed(e.options[:-1]):
                result = lc.If(lc.Compare("==", 1, 1), expr(option), result)
            return result
        if isinstance(e, Select):
            return lc.SelectE(
                tuple(
                    lc.Case(
                        c.direction,
                        c.chan,
                        next(names) if c.direction == "get" else None,
                        expr(c.body),
                    )
                    for c in e.cases
                )
            )
        raise TypeError(e)

    return lc.Program(tuple(channels(effect)), expr(effect))


PAPER = {name: from_effect(parse(text)) for name, text in PAPER_EFFECTS.items()}

# Choices, lets, nested spawns, spawns inside branches and select cases, and a
# spawn of nothing: the shapes the paper programs lack. Terminates on every path:
# each branch that spawns a sender on c1 also receives on c1 itself.
MIXED = lc.Program(
    ("c1", "c2", "c3"),
    lc.Then(
        lc.SpawnE(lc.Then(lc.SpawnE(lc.Send("c2")), lc.Let("got", lc.Recv("c3"), lc.Var("got")))),
        lc.Let(
            "x",
            lc.Recv("c2"),
            lc.Then(
                lc.If(
                    lc.BoolOp("&&", lc.Not(lc.BoolLit(False)), lc.Compare("<", 2, 7)),
                    lc.Then(lc.SpawnE(lc.Send("c1")), lc.Recv("c1")),
                    lc.Then(lc.SpawnE(lc.Unit()), lc.Unit()),
                ),
                lc.SelectE(
                    (
                        lc.Case("put", "c3", None, lc.SpawnE(lc.Unit())),
                        lc.Case("put", "c3", None, lc.BoolLit(True)),
                    )
                ),
            ),
        ),
    ),
)

# The same shapes with receive-only selects, so that Flix can render it too.
MIXED_GET = lc.Program(
    ("c1", "c2", "c3"),
    lc.Then(
        lc.SpawnE(lc.Then(lc.SpawnE(lc.Send("c2")), lc.Send("c3"))),
        lc.Let(
            "x",
            lc.Recv("c2"),
            lc.Then(
                lc.If(
                    lc.BoolOp("||", lc.BoolLit(False), lc.Compare(">=", -1, 3)),
                    lc.Then(lc.SpawnE(lc.Send("c1")), lc.Recv("c1")),
                    lc.Then(lc.SpawnE(lc.Unit()), lc.NewChan("c1")),
                ),
                lc.SelectE(
                    (
                        lc.Case("get", "c3", "m", lc.SpawnE(lc.Unit())),
                        lc.Case("get", "c3", "m", lc.Then(lc.SpawnE(lc.Unit()), lc.Var("m"))),
                    )
                ),
            ),
        ),
    ),
)

PROGRAMS = {**PAPER, "mixed": MIXED, "mixed_get": MIXED_GET}

# A program that must deadlock: main receives and nobody sends.
LONE_RECV = lc.Program(("c1",), lc.Recv("c1"))
# A spawned process stuck forever while main has nothing left to do: only a join
# makes the program wait for it (and so hang, or for Go, report a deadlock).
STUCK_CHILD = lc.Program(("c1",), lc.SpawnE(lc.Recv("c1")))

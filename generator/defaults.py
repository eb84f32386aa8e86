"""Beyond the paper: selects with a default, added to a generated effect.

With the `buffered` setting, on a target whose capabilities include
`select_default` (Go's `default:`, Crystal's `else`), some communications of a
widened effect become a first try that does not wait, each step drawn from the
generator's one seeded rng. Each rewrite keeps what the process communicates:

* poll, then wait: `op(c)` becomes `SelOp(c, ε) ⊕ Default(op(c))`, and a select
  σ1 ⊕ … ⊕ σn becomes σ1 ⊕ … ⊕ σn ⊕ Default(σ1 ⊕ … ⊕ σn). Either way the
  process makes the same communication, so termination is kept: this is what
  finds a runtime that takes a value and still runs the default, or loses one.
* work first: `X ; op(c)` becomes `SelOp(c, X) ⊕ Default(X ; op(c))`: when c
  cannot go at once the process does X first, as before; when it can, it
  communicates first and does X after. Where c's partner waits for X, only the
  default can make progress: a runtime that blocks instead of taking the default
  (or that takes a case no partner offers) then hangs the program.
* a dead case first: `op(c)` becomes `SelGet(z, ε) ⊕ Default(op(c))` with z a
  fresh channel nobody sends on, so the default always runs. Go writes z as a
  nil channel (disabling a case with nil is a Go idiom), and a select with one
  case and a default is the runtime's non-blocking receive on a nil channel.
* must go: a put or get on a buffered channel `op(c)` becomes
  `SelOp(c, ε) ⊕ Default(ε)`: kept only where the proof shows the buffer always
  has room (or a message) there, so the default never runs on a correct runtime;
  one whose buffer is lost or too small (a capacity-1 channel turned into a
  rendezvous) runs the default, drops the communication and hangs its partner.

Poll and dead case keep termination (the process communicates as before);
work first and must go do not keep termination by themselves, so the result is
proved with the exhaustive checker, which explores a default wherever no case
can complete alone (`termination_buffered`). When the proof fails, the must-go
rewrites become polls; then the work-first ones too; when even that is not
proved within the state bound, the effect is left as it was. The checker runs
with a state bound only, never a clock, so a seed gives the same program
anywhere.
"""

from __future__ import annotations

import random

from generator.effects import (
    ChanE,
    Choice,
    Effect,
    Get,
    Put,
    Range,
    SelCase,
    Select,
    Seq,
    Spawn,
    capacities,
    channels,
    choice,
    has_default,
    seq,
)
from generator.termination import check_effect

# How often a communication gets a default, and how often one that follows another
# step is rewritten work-first rather than poll-then-wait.
DEFAULT_RATE = 0.25
WORK_FIRST_RATE = 0.4
DEAD_CASE_RATE = 0.15
# Of the rewrites of a put or get on a buffered channel, how many are must go.
MUST_GO_RATE = 0.5
# States the checker may use to prove the rewritten effect (more than buffering's: a
# default doubles the ways a process can go at each rewritten step).
PROOF_STATES = 40_000

POLL, WORK_FIRST, DEAD_CASE, MUST_GO = "poll", "work first", "dead case", "must go"
# Fresh channels of dead cases are named DEAD_PREFIX1, DEAD_PREFIX2, … (past any the
# effect has).
DEAD_PREFIX = "z"
_Plan = dict[int, str]  # rewritten communication (its position in pre-order) → how


def _polled(op: Effect, first: Effect | None) -> Select:
    """`op` (a Get, a Put or a select without default) tried first, with `first` moved
    into its cases when given (work first), and waited for in the default."""
    cases = op.cases if isinstance(op, Select) else (_case(op),)
    if first is None:
        return Select(cases, op)
    moved = tuple(SelCase(c.direction, c.chan, seq(first, c.body)) for c in cases)
    return Select(moved, seq(first, op))


def _case(op: Get | Put) -> SelCase:
    """`op` as a select case that does nothing more."""
    return SelCase("get" if isinstance(op, Get) else "put", op.chan, seq())


def _rewritable(e: Effect) -> bool:
    return isinstance(e, Get | Put) or (isinstance(e, Select) and e.default is None)


def _movable(e: Effect) -> bool:
    """Whether a step may move into the cases of the select after it: not a channel
    declaration, which stays at the top of main; not a spawn, whose process would
    start later; not a step with a default already, which would be written once per
    case again."""
    return not isinstance(e, ChanE | Spawn) and not has_default(e)


class _Rewriter:
    """One pass over the effect, numbering the communications it may rewrite in
    pre-order; `plan` says which to rewrite and how."""

    def __init__(self, plan: _Plan, taken: frozenset[str] = frozenset()) -> None:
        self.plan = plan
        self.taken = taken  # channel names the effect has
        self.dead = 0
        self.counter = 0
        self.frozen = 0  # inside a select that is being tried first
        self.seen: list[Effect] = []  # the communications, by number

    def visit(self, e: Effect) -> Effect:
        if isinstance(e, Seq):
            return self.sequence(e.items)
        return self.single(e, None)[0]

    def single(self, e: Effect, before: Effect | None) -> tuple[Effect, bool]:
        """`e` rewritten; whether it took `before` into itself (work first)."""
        if _rewritable(e):
            index = self.counter
            self.counter += 1
            self.seen.append(e)
            chosen = index in self.plan and not self.frozen
            inner = e
            if isinstance(e, Select):
                # A select tried first is written twice (its cases, and again in its
                # default): nothing inside it is rewritten, or programs would double at
                # each level. Its communications are still counted, so the numbering
                # does not depend on the plan.
                self.frozen += chosen
                cases = tuple(SelCase(c.direction, c.chan, self.visit(c.body)) for c in e.cases)
                self.frozen -= chosen
                inner = Select(cases, e.default)
            if not chosen:
                return inner, False
            mode = self.plan[index]
            if mode == MUST_GO and isinstance(inner, Get | Put):
                # Tried, and nothing done when it cannot go at once.
                return Select((_case(inner),), seq()), False
            if mode == DEAD_CASE and isinstance(inner, Get | Put):
                return Select((SelCase("get", self.fresh(), seq()),), inner), False
            take = mode == WORK_FIRST and before is not None
            return _polled(inner, before if take else None), take
        if isinstance(e, Spawn):
            return Spawn(self.visit(e.body)), False
        if isinstance(e, Range):
            return Range(e.chan, self.visit(e.body)), False
        if isinstance(e, Choice):
            return choice(*(self.visit(o) for o in e.options)), False
        if isinstance(e, Select):  # already has a default
            cases = tuple(SelCase(c.direction, c.chan, self.visit(c.body)) for c in e.cases)
            default = None if e.default is None else self.visit(e.default)
            return Select(cases, default), False
        return e, False

    def fresh(self) -> str:
        while True:
            self.dead += 1
            name = f"{DEAD_PREFIX}{self.dead}"
            if name not in self.taken:
                return name

    def sequence(self, items: tuple[Effect, ...]) -> Effect:
        out: list[Effect] = []
        for item in items:
            before = out[-1] if out and _movable(out[-1]) else None
            new, took = self.single(item, before)
            if took:
                out.pop()
            out.append(new)
        return seq(*out)


def _communications(effect: Effect) -> list[Effect]:
    """The communications a rewrite may take, in the order `_Rewriter` numbers them."""
    rewriter = _Rewriter({})
    rewriter.visit(effect)
    return rewriter.seen


def _proved(effect: Effect) -> bool:
    return check_effect(effect, max_states=PROOF_STATES).terminating is True


def with_defaults(effect: Effect, rng: random.Random) -> Effect:
    """`effect` with some communications tried first under a default, proved terminating
    (see above); `effect` itself when none is drawn or no rewrite is proved."""
    buffered = {c for c, k in capacities(effect).items() if k}
    plan: _Plan = {}
    for index, op in enumerate(_communications(effect)):
        if rng.random() >= DEFAULT_RATE:
            continue
        how = rng.random()
        plan[index] = (
            WORK_FIRST
            if how < WORK_FIRST_RATE
            else DEAD_CASE
            if how < WORK_FIRST_RATE + DEAD_CASE_RATE and isinstance(op, Get | Put)
            else POLL
        )
        if isinstance(op, Get | Put) and op.chan in buffered and rng.random() < MUST_GO_RATE:
            plan[index] = MUST_GO
    if not plan:
        return effect
    # Each fallback turns the boldest rewrites left into polls; the last is polls only.
    plans = [plan]
    for bold in (MUST_GO, WORK_FIRST):
        if bold in plans[-1].values():
            plans.append({i: POLL if m == bold else m for i, m in plans[-1].items()})
    taken = frozenset(channels(effect))
    for candidate_plan in plans:
        candidate = _Rewriter(candidate_plan, taken).visit(effect)
        if _proved(candidate):
            return candidate
    return effect

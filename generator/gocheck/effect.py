"""The λ_chan effect (SPEC §3) of a Go program, where the program fits that fragment.

Each goroutine is run on its own, with every communication taken to succeed: a send is
`Put(c)`, a receive `Get(c)`, a select the `⊕` of its cases with what follows each, a
branch on unknown data a `+` of both ways, and a `go` statement `Spawn(…)` of the new
goroutine's effect at the point it starts. Loops with constant bounds unroll. Channels
are named `c1, c2, …` in the order they are made.

λ_chan has unbuffered channels only, no close, no select default, no locks and no
recursion, so a program using any of those (or a loop without a constant bound) has no
effect; `infer` then says why. The effect is what lets a Go program continue in the
effect editor, and lets the effect checker (generator.termination) cross-check gocheck
on the programs both can decide.
"""

from __future__ import annotations

from generator.effects import Effect, Eps, Get, Put, SelCase, Spawn, choice, select, seq
from generator.gocheck.machine import Machine
from generator.gocheck.ssa import Program
from generator.gocheck.state import ProgramExit, State
from generator.gocheck.values import NIL, UNKNOWN, Unsupported

MAX_EFFECT_STEPS = 5_000
MAX_DEPTH = 200


class NotExpressible(Exception):
    """The program's behaviour falls outside λ_chan's effects."""


class _Inferer:
    def __init__(self, program: Program) -> None:
        self.m = Machine(program, releases=False)  # each sync step shows, as it is
        self.names: dict[int, str] = {}
        self.steps = 0

    def name(self, st: State, ch: object) -> str:
        if ch == NIL or not (isinstance(ch, tuple) and ch[0] == "chan"):
            raise NotExpressible("an operation on a nil or unknown channel")
        cap, _buf, _closed = st.chans[ch[1]]
        if cap:
            raise NotExpressible("a buffered channel (λ_chan channels are unbuffered)")
        if ch[1] not in self.names:
            self.names[ch[1]] = f"c{len(self.names) + 1}"
        return self.names[ch[1]]

    def effect(self, st: State, gid: int, seen: int, depth: int = 0) -> Effect:
        """The effect of goroutine `gid` from here; goroutines from `seen` on are new."""
        if depth > MAX_DEPTH:
            raise NotExpressible("the effect nests too deep (a loop without a constant "
                                 "bound, or too many branches)")
        parts: list[Effect] = []
        while True:
            self.steps += 1
            if self.steps > MAX_EFFECT_STEPS:
                raise NotExpressible("the effect grows past its size limit (a loop without "
                                     "a constant bound, or too many branches)")
            while seen < len(st.gs):
                child = st.copy()
                parts.append(Spawn(self.effect(child, seen, len(child.gs), depth + 1)))
                seen += 1
            p = self.m.pending(st, gid)
            if p is None:
                return seq(*parts) if parts else Eps()
            if p.kind in ("choice", "order", "cpus", "value"):
                branches = []
                for which in p.arg:
                    s = st.copy()
                    if p.kind == "choice":
                        self.m.take_branch(s, gid, which)
                    elif p.kind == "cpus":
                        self.m.take_cpus(s, which)
                    elif p.kind == "value":
                        self.m.take_value(s, gid, which)
                    else:
                        self.m.take_order(s, gid, which)
                    self._run(s, gid)
                    branches.append(self.effect(s, gid, seen, depth + 1))
                return seq(*parts, choice(*branches))
            if p.kind == "yield":  # a sleep has no λ_chan effect: on to what follows
                self.m.complete(st, gid, ("tuple", ()), run=False)
                self._run(st, gid)
                continue
            if p.kind != "comm":
                raise NotExpressible(f"{p.kind.replace('_', ' ')} at line {p.line} has no "
                                     "λ_chan effect")
            if p.select:
                if not p.blocking:
                    raise NotExpressible(f"a select with default at line {p.line}")
                cases = []
                for i, c in enumerate(p.cases):
                    s = st.copy()
                    recv = [UNKNOWN for d in p.cases if d.dir == "recv"]
                    self.m.complete(s, gid, ("tuple", (i, True, *recv)), run=False)
                    self._run(s, gid)
                    rest = self.effect(s, gid, seen, depth + 1)
                    name = self.name(st, c.chan)
                    cases.append(SelCase("put" if c.dir == "send" else "get", name, rest))
                return seq(*parts, select(*cases))
            c = p.cases[0]
            name = self.name(st, c.chan)
            parts.append(Put(name) if c.dir == "send" else Get(name))
            result = None if c.dir == "send" else (("tuple", (UNKNOWN, True)) if p.commaok
                                                    else UNKNOWN)
            self.m.complete(st, gid, result, run=False)
            self._run(st, gid)

    def _run(self, st: State, gid: int) -> None:
        try:
            self.m.run(st, gid)
        except ProgramExit as e:
            raise NotExpressible(f"the program exits at line {e.line} ({e.why})") from None


def infer(program: Program) -> tuple[Effect | None, str]:
    """The program's effect, or None and the reason it has none."""
    inf = _Inferer(program)
    try:
        st = inf.m.initial()
        return inf.effect(st, 0, 1), ""
    except NotExpressible as e:
        return None, str(e)
    except Unsupported as e:
        return None, f"unsupported: {e.what}" + (f" (line {e.line})" if e.line else "")
    except ProgramExit as e:
        return None, f"the program exits at line {e.line} ({e.why})"

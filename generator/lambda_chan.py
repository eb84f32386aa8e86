"""The λ_chan calculus (SPEC §2): expressions as frozen dataclasses, and their text form.

A `Program` is the channels created at the top of `main` plus main's body.
Channels carry unit and are unbuffered, but for the opt-in extension beyond the
paper (issue #15): a program may give a channel a capacity (`capacities`),
close it (`close c`) and range over it (`for x <- c do e`). Conditions of `if` are closed boolean
expressions (`Cond`): they have no effect, and every renderer can print them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from generator.effects import capacity_text

# ---------------------------------------------------------------- conditions


@dataclass(frozen=True, slots=True)
class BoolLit:
    value: bool


@dataclass(frozen=True, slots=True)
class Not:
    operand: Cond


@dataclass(frozen=True, slots=True)
class BoolOp:
    op: Literal["&&", "||"]
    left: Cond
    right: Cond


@dataclass(frozen=True, slots=True)
class Compare:
    op: Literal["==", "!=", "<", "<=", ">", ">="]
    left: int
    right: int


Cond = BoolLit | Not | BoolOp | Compare


def evaluate(cond: Cond) -> bool:
    if isinstance(cond, BoolLit):
        return cond.value
    if isinstance(cond, Not):
        return not evaluate(cond.operand)
    if isinstance(cond, BoolOp):
        if cond.op == "&&":
            return evaluate(cond.left) and evaluate(cond.right)
        return evaluate(cond.left) or evaluate(cond.right)
    a, b = cond.left, cond.right
    return {
        "==": a == b,
        "!=": a != b,
        "<": a < b,
        "<=": a <= b,
        ">": a > b,
        ">=": a >= b,
    }[cond.op]


# ---------------------------------------------------------------- expressions


@dataclass(frozen=True, slots=True)
class Unit:
    """The value ()."""


@dataclass(frozen=True, slots=True)
class Var:
    name: str


@dataclass(frozen=True, slots=True)
class Let:
    name: str
    bound: Expr
    body: Expr


@dataclass(frozen=True, slots=True)
class If:
    cond: Cond
    then: Expr
    orelse: Expr


@dataclass(frozen=True, slots=True)
class Then:
    """e1; e2"""

    first: Expr
    second: Expr


@dataclass(frozen=True, slots=True)
class Recv:
    """<- c"""

    chan: str


@dataclass(frozen=True, slots=True)
class Send:
    """c <- ()"""

    chan: str


@dataclass(frozen=True, slots=True)
class Case:
    """`case x <- c => e` (get, binding `var`) or `case c <- () => e` (put)."""

    direction: Literal["get", "put"]
    chan: str
    var: str | None
    body: Expr


@dataclass(frozen=True, slots=True, repr=False)
class SelectE:
    """`select { case … ; default => e }`: the default (beyond the paper) runs when no
    case can go at once."""

    cases: tuple[Case, ...]
    default: Expr | None = None

    def __repr__(self) -> str:
        # Without a default, the repr it had before defaults existed: schedule
        # perturbation seeds its choices with a program's repr (render._common).
        if self.default is None:
            return f"SelectE(cases={self.cases!r})"
        return f"SelectE(cases={self.cases!r}, default={self.default!r})"


@dataclass(frozen=True, slots=True)
class SpawnE:
    body: Expr


@dataclass(frozen=True, slots=True)
class NewChan:
    """`chan c`, `chan[k] c` or `chan[unbounded] c`: (re)creates c. Synthesised only from
    a Chan(c) effect; programs create every channel up front, so this evaluates to ()
    without touching c."""

    chan: str
    capacity: int = 0


@dataclass(frozen=True, slots=True)
class CloseE:
    """`close c`"""

    chan: str


@dataclass(frozen=True, slots=True)
class RangeE:
    """`for x <- c do e`: receive until c is closed and drained, e after each message."""

    chan: str
    var: str
    body: Expr


Expr = (
    Unit
    | Var
    | Let
    | If
    | Then
    | Recv
    | Send
    | SelectE
    | SpawnE
    | NewChan
    | BoolLit
    | CloseE
    | RangeE
)


@dataclass(frozen=True, slots=True)
class Program:
    """Channels created up front; `capacities` pairs (channel, k) for the buffered ones."""

    channels: tuple[str, ...]
    main: Expr
    capacities: tuple[tuple[str, int], ...] = ()

    def capacity(self, chan: str) -> int:
        return dict(self.capacities).get(chan, 0)


# ---------------------------------------------------------------- text form


def cond_text(cond: Cond) -> str:
    if isinstance(cond, BoolLit):
        return "true" if cond.value else "false"
    if isinstance(cond, Not):
        return f"!{cond_atom(cond.operand)}"
    if isinstance(cond, BoolOp):
        return f"{cond_atom(cond.left)} {cond.op} {cond_atom(cond.right)}"
    return f"{cond.left} {cond.op} {cond.right}"


def cond_atom(cond: Cond) -> str:
    text = cond_text(cond)
    return text if isinstance(cond, BoolLit) else f"({text})"


def to_text(program: Program, indent: str = "  ") -> str:
    """λ_chan concrete syntax, one construct per line."""
    lines: list[str] = []
    for c in program.channels:
        k = program.capacity(c)
        made = f"chan[{capacity_text(k)}] {c}" if k else f"chan {c}"
        lines.append(f"let {c} = {made} in")
    _emit(program.main, 0, lines, indent)
    return "\n".join(lines) + "\n"


def _emit(e: Expr, depth: int, out: list[str], indent: str) -> None:
    pad = indent * depth
    if isinstance(e, Unit):
        out.append(f"{pad}()")
    elif isinstance(e, BoolLit):
        out.append(f"{pad}{cond_text(e)}")
    elif isinstance(e, Var):
        out.append(f"{pad}{e.name}")
    elif isinstance(e, Recv):
        out.append(f"{pad}<- {e.chan}")
    elif isinstance(e, Send):
        out.append(f"{pad}{e.chan} <- ()")
    elif isinstance(e, NewChan):
        made = f"chan[{capacity_text(e.capacity)}]" if e.capacity else "chan"
        out.append(f"{pad}{made} {e.chan}")
    elif isinstance(e, CloseE):
        out.append(f"{pad}close {e.chan}")
    elif isinstance(e, RangeE):
        out.append(f"{pad}for {e.var} <- {e.chan} do {{")
        _emit(e.body, depth + 1, out, indent)
        out.append(f"{pad}}}")
    elif isinstance(e, Let):
        if _is_simple(e.bound):
            out.append(f"{pad}let {e.name} = {_simple(e.bound)} in")
        else:
            out.append(f"{pad}let {e.name} =")
            _emit(e.bound, depth + 1, out, indent)
            out.append(f"{pad}in")
        _emit(e.body, depth, out, indent)
    elif isinstance(e, Then):
        _emit(e.first, depth, out, indent)
        out[-1] += ";"
        _emit(e.second, depth, out, indent)
    elif isinstance(e, If):
        out.append(f"{pad}if {cond_text(e.cond)} then")
        _emit(e.then, depth + 1, out, indent)
        out.append(f"{pad}else")
        _emit(e.orelse, depth + 1, out, indent)
    elif isinstance(e, SpawnE):
        out.append(f"{pad}spawn {{")
        _emit(e.body, depth + 1, out, indent)
        out.append(f"{pad}}}")
    elif isinstance(e, SelectE):
        out.append(f"{pad}select {{")
        for case in e.cases:
            head = (
                f"case {case.var} <- {case.chan} =>"
                if case.direction == "get"
                else f"case {case.chan} <- () =>"
            )
            out.append(f"{pad}{indent}{head}")
            _emit(case.body, depth + 2, out, indent)
        if e.default is not None:
            out.append(f"{pad}{indent}default =>")
            _emit(e.default, depth + 2, out, indent)
        out.append(f"{pad}}}")
    else:
        raise TypeError(f"not an expression: {e!r}")


def _is_simple(e: Expr) -> bool:
    return isinstance(e, Unit | Var | Recv | Send | NewChan | BoolLit | CloseE)


def _simple(e: Expr) -> str:
    lines: list[str] = []
    _emit(e, 0, lines, "")
    return lines[0]

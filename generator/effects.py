"""Effects of λ_chan (SPEC §3) as immutable values, and their text syntax (SPEC §10).

Beyond the paper (opt-in, issue #15): `Chan(c, k)` declares a channel of
capacity k (`Chan(c)` and an undeclared channel are unbuffered; `Chan(c, unbounded)` one
whose sends never wait, capacity `UNBOUNDED`), `Close(c)`
closes c, and `Range(c, φ)` receives from c until it is closed and drained,
running φ after each message; a `Get` on a closed, drained channel completes
at once. Close and Range need c declared by a `Chan`. A select may end with
`Default(φ)`: when none of its cases can go at once it runs φ instead of waiting
(Go's `default`, Crystal's `else`). `uses_extension` says whether an effect goes
beyond the paper's fragment.

Effects are kept in a normal form so that printing then parsing gives the same
value back: sequences and choices are n-ary and never directly nested in one
another of the same kind, `eps` never stands inside a sequence, and a sequence
or choice always has at least two parts. Build effects with `seq()` and
`choice()` rather than the classes to keep that form.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Literal

Direction = Literal["get", "put"]


@dataclass(frozen=True, slots=True)
class Eps:
    """ε: does nothing."""


@dataclass(frozen=True, slots=True)
class ChanE:
    """Chan(c) or Chan(c, k): creates channel c of capacity k (0: unbuffered).
    Programs create every channel at the top of main."""

    chan: str
    capacity: int = 0


# The capacity of an unbounded channel (`Chan(c, unbounded)`: Rust's `unbounded()` and
# `mpsc::channel()`, Kotlin's `Channel.UNLIMITED`): a number, so that every rule written
# for capacities ("a put completes alone while fewer than k messages wait") holds for it
# as it stands. No finite program fills it: the parser's MAX_CAPACITY is 64, and a
# checker's state budget is spent long before 2³¹ puts. Kotlin's own UNLIMITED is this.
UNBOUNDED = 2**31 - 1


def capacity_text(capacity: int) -> str:
    """A capacity as the text syntax writes it: the number, or `unbounded`."""
    return "unbounded" if capacity == UNBOUNDED else str(capacity)


@dataclass(frozen=True, slots=True)
class Close:
    """Close(c): closes c; closing it twice or sending on it afterwards is an error."""

    chan: str


@dataclass(frozen=True, slots=True)
class Range:
    """Range(c, φ): receive from c until it is closed and drained, φ after each message."""

    chan: str
    body: Effect


@dataclass(frozen=True, slots=True)
class Get:
    chan: str


@dataclass(frozen=True, slots=True)
class Put:
    chan: str


@dataclass(frozen=True, slots=True)
class Spawn:
    body: Effect


@dataclass(frozen=True, slots=True)
class Seq:
    """φ1 ; φ2 ; …: at least two items, none of them Seq or Eps."""

    items: tuple[Effect, ...]


@dataclass(frozen=True, slots=True)
class Choice:
    """φ1 + φ2 + …: the program picks one option by itself (an `if`)."""

    options: tuple[Effect, ...]


@dataclass(frozen=True, slots=True)
class SelCase:
    """SelGet(c, φ) or SelPut(c, φ): one case of a select."""

    direction: Direction
    chan: str
    body: Effect


@dataclass(frozen=True, slots=True)
class Select:
    """σ1 ⊕ … ⊕ σn: waits until one case's channel is ready (n ≥ 1); with a `default`
    (σ1 ⊕ … ⊕ σn ⊕ Default(φ), beyond the paper), runs it instead when none is."""

    cases: tuple[SelCase, ...]
    default: Effect | None = None


Effect = Eps | ChanE | Get | Put | Spawn | Seq | Choice | Select | Close | Range

EPS = Eps()


def seq(*parts: Effect) -> Effect:
    """φ1 ; φ2 ; … in normal form: flattened, without ε."""
    items: list[Effect] = []
    for part in parts:
        if isinstance(part, Seq):
            items.extend(part.items)
        elif not isinstance(part, Eps):
            items.append(part)
    if not items:
        return EPS
    if len(items) == 1:
        return items[0]
    return Seq(tuple(items))


def choice(*options: Effect) -> Effect:
    """φ1 + φ2 + … in normal form: nested choices flattened (+ is associative)."""
    flat: list[Effect] = []
    for option in options:
        if isinstance(option, Choice):
            flat.extend(option.options)
        else:
            flat.append(option)
    if not flat:
        raise ValueError("a choice needs at least one option")
    if len(flat) == 1:
        return flat[0]
    return Choice(tuple(flat))


def select(*cases: SelCase) -> Select:
    if not cases:
        raise ValueError("a select needs at least one case")
    return Select(tuple(cases))


def dual(op: Get | Put) -> Get | Put:
    return Put(op.chan) if isinstance(op, Get) else Get(op.chan)


# ---------------------------------------------------------------- traversal


def children(effect: Effect) -> tuple[Effect, ...]:
    """Direct sub-effects (the bodies of select cases count as children of the select)."""
    kind = type(effect)
    if kind is Seq:
        return effect.items
    if kind is Choice:
        return effect.options
    if kind is Spawn or kind is Range:
        return (effect.body,)
    if kind is Select:
        bodies = tuple(case.body for case in effect.cases)
        return bodies if effect.default is None else (*bodies, effect.default)
    return ()


def walk(effect: Effect) -> Iterator[Effect]:
    """Every sub-effect, pre-order."""
    stack = [effect]
    while stack:
        node = stack.pop()
        yield node
        kids = children(node)
        if kids:
            stack.extend(reversed(kids))


_CHANNEL_NODES = (Get, Put, ChanE, Close, Range)


def channels(effect: Effect) -> list[str]:
    """Every channel the effect mentions, in order of first appearance."""
    seen: dict[str, None] = {}
    for node in walk(effect):
        kind = type(node)
        if kind in _CHANNEL_NODES:
            seen[node.chan] = None
        elif kind is Select:
            for case in node.cases:
                seen[case.chan] = None
    return list(seen)


def has_channel(effect: Effect) -> bool:
    """Whether the effect communicates at all (stops at the first channel)."""
    return any(type(node) in (Get, Put, Select, ChanE, Close, Range) for node in walk(effect))


def uses_extension(effect: Effect) -> bool:
    """Whether the effect goes beyond the paper: a buffered channel, a close, a range or
    a select with a default."""
    return any(
        type(node) in (Close, Range)
        or (type(node) is ChanE and node.capacity > 0)
        or (type(node) is Select and node.default is not None)
        for node in walk(effect)
    )


def has_default(effect: Effect) -> bool:
    """Whether some select of the effect has a default."""
    return any(type(n) is Select and n.default is not None for n in walk(effect))


def capacities(effect: Effect) -> dict[str, int]:
    """The capacity declared for each channel by a `Chan` (undeclared ones are left out)."""
    return {n.chan: n.capacity for n in walk(effect) if type(n) is ChanE}


def count_spawns(effect: Effect) -> int:
    return sum(isinstance(node, Spawn) for node in walk(effect))


def size(effect: Effect) -> int:
    """Number of effect nodes, select cases included."""
    return sum(1 + (len(n.cases) if isinstance(n, Select) else 0) for n in walk(effect))


def without_chan_decls(effect: Effect) -> Effect:
    """The effect with every Chan(c) removed: programs create all channels up front."""
    if isinstance(effect, ChanE):
        return EPS
    if isinstance(effect, Spawn):
        return Spawn(without_chan_decls(effect.body))
    if isinstance(effect, Range):
        return Range(effect.chan, without_chan_decls(effect.body))
    if isinstance(effect, Seq):
        return seq(*(without_chan_decls(i) for i in effect.items))
    if isinstance(effect, Choice):
        return choice(*(without_chan_decls(o) for o in effect.options))
    if isinstance(effect, Select):
        return Select(
            tuple(SelCase(c.direction, c.chan, without_chan_decls(c.body)) for c in effect.cases),
            None if effect.default is None else without_chan_decls(effect.default),
        )
    return effect


# ---------------------------------------------------------------- printing

SELECT_OP = "(+)"


def to_text(effect: Effect, *, unicode: bool = False) -> str:
    """The effect in the text syntax of SPEC §10 (canonical spacing)."""
    sel = " ⊕ " if unicode else f" {SELECT_OP} "
    eps = "ε" if unicode else "eps"

    def show(e: Effect) -> str:
        if isinstance(e, Eps):
            return eps
        if isinstance(e, ChanE):
            if e.capacity:
                return f"Chan({e.chan}, {capacity_text(e.capacity)})"
            return f"Chan({e.chan})"
        if isinstance(e, Close):
            return f"Close({e.chan})"
        if isinstance(e, Range):
            return f"Range({e.chan}, {show(e.body)})"
        if isinstance(e, Get):
            return f"Get({e.chan})"
        if isinstance(e, Put):
            return f"Put({e.chan})"
        if isinstance(e, Spawn):
            return f"Spawn({show(e.body)})"
        if isinstance(e, Seq):
            return " ; ".join(f"({show(i)})" if isinstance(i, Choice) else show(i) for i in e.items)
        if isinstance(e, Choice):
            return " + ".join(show(o) for o in e.options)
        if isinstance(e, Select):
            shown = [show_case(c) for c in e.cases]
            if e.default is not None:
                shown.append(f"Default({show(e.default)})")
            return sel.join(shown)
        raise TypeError(f"not an effect: {e!r}")

    def show_case(c: SelCase) -> str:
        name = "SelGet" if c.direction == "get" else "SelPut"
        return f"{name}({c.chan}, {show(c.body)})"

    return show(effect)


def head_text(effect: Effect) -> str:
    """A short rendering of what a blocked process waits on (bodies elided)."""
    if isinstance(effect, Select):
        shown = [
            f"{'SelGet' if c.direction == 'get' else 'SelPut'}({c.chan}, …)" for c in effect.cases
        ]
        return " (+) ".join(shown + (["Default(…)"] if effect.default is not None else []))
    if isinstance(effect, Range):
        return f"Range({effect.chan}, …)"
    return to_text(effect)


# ---------------------------------------------------------------- parsing


class EffectSyntaxError(ValueError):
    """Bad effect text; `position` is the 0-based offset of the offending token."""

    def __init__(self, text: str, position: int, expected: str, found: str) -> None:
        self.text = text
        self.position = position
        self.expected = expected
        self.found = found
        super().__init__(f"at position {position + 1}: expected {expected}, found {found}")

    def pointer(self) -> str:
        """The offending line with a caret under the position."""
        start = self.text.rfind("\n", 0, self.position) + 1
        end = self.text.find("\n", self.position)
        line = self.text[start : end if end >= 0 else len(self.text)]
        return f"{line}\n{' ' * (self.position - start)}^"


_TOKEN = re.compile(
    r"""
    (?P<ws>\s+)
  | (?P<sel>\(\s*\+\s*\)|⊕)
  | (?P<punct>[();,+])
  | (?P<eps>ε)
  | (?P<word>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<number>[0-9]+)
    """,
    re.VERBOSE,
)
KEYWORDS = frozenset(
    {"eps", "Get", "Put", "Chan", "Spawn", "SelGet", "SelPut", "Close", "Range", "Default"}
)
MAX_CAPACITY = 64
CHANNEL_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


def _tokenize(text: str) -> list[tuple[str, str, int]]:
    tokens: list[tuple[str, str, int]] = []
    pos = 0
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None:
            # A token of its own, which the parser refuses where it stands, saying what it
            # expected there ("a channel name" after `Put(`, not "an effect").
            tokens.append(("bad", text[pos], pos))
            pos += 1
            continue
        kind = m.lastgroup or ""
        if kind == "sel":
            tokens.append(("sel", "(+)", pos))
        elif kind == "eps":
            tokens.append(("word", "eps", pos))
        elif kind != "ws":
            tokens.append((kind, m.group(), pos))
        pos = m.end()
    tokens.append(("end", "", len(text)))
    return tokens


# Deeper nesting is refused with a message, not a RecursionError: each level costs
# the recursive-descent parser (and every later recursive walk) a few frames.
MAX_NESTING = 200


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.tokens = _tokenize(text)
        self.i = 0
        self.depth = 0
        # Where each channel is declared (position, capacity), closed or ranged over:
        # checked once the whole text is read (a declaration may come later).
        self.declared: dict[str, tuple[int, int]] = {}
        self.needs_decl: list[tuple[str, int, str]] = []

    def enter(self) -> None:
        self.depth += 1
        if self.depth > MAX_NESTING:
            raise EffectSyntaxError(
                self.text,
                self.peek()[2],
                f"at most {MAX_NESTING} levels of nesting",
                "a deeper one",
            )

    def peek(self) -> tuple[str, str, int]:
        return self.tokens[self.i]

    def fail(self, expected: str) -> EffectSyntaxError:
        kind, value, pos = self.peek()
        found = "end of input" if kind == "end" else repr(value)
        return EffectSyntaxError(self.text, pos, expected, found)

    def expect(self, value: str) -> None:
        if self.peek()[1] != value or self.peek()[0] == "end":
            raise self.fail(repr(value))
        self.i += 1

    def effect(self) -> Effect:
        self.enter()
        options = [self.seq()]
        while self.peek()[1] == "+" and self.peek()[0] == "punct":
            self.i += 1
            options.append(self.seq())
        self.depth -= 1
        return choice(*options)

    def seq(self) -> Effect:
        items = [self.item()]
        while self.peek()[1] == ";":
            self.i += 1
            items.append(self.item())
        return seq(*items)

    def chan(self) -> str:
        kind, value, _ = self.peek()
        if kind != "word" or value in KEYWORDS:
            raise self.fail("a channel name")
        self.i += 1
        return value

    def item(self) -> Effect:
        kind, value, _ = self.peek()
        if kind == "punct" and value == "(":
            self.i += 1
            inner = self.effect()
            self.expect(")")
            return inner
        if kind != "word":
            raise self.fail("an effect")
        if value == "eps":
            self.i += 1
            return EPS
        if value in ("Get", "Put", "Close"):
            pos = self.peek()[2]
            self.i += 1
            self.expect("(")
            c = self.chan()
            self.expect(")")
            if value == "Close":
                self.needs_decl.append((c, pos, f"Close({c})"))
            return {"Get": Get, "Put": Put, "Close": Close}[value](c)
        if value == "Chan":
            return self.declaration()
        if value == "Range":
            pos = self.peek()[2]
            self.i += 1
            self.expect("(")
            c = self.chan()
            self.expect(",")
            body = self.effect()
            self.expect(")")
            self.needs_decl.append((c, pos, f"Range({c}, …)"))
            return Range(c, body)
        if value == "Spawn":
            self.i += 1
            self.expect("(")
            body = self.effect()
            self.expect(")")
            return Spawn(body)
        if value in ("SelGet", "SelPut"):
            cases = [self.case()]
            default = None
            while self.peek()[0] == "sel" and default is None:
                self.i += 1
                if self.peek()[1] == "Default":
                    self.i += 1
                    self.expect("(")
                    default = self.effect()
                    self.expect(")")
                else:
                    cases.append(self.case())
            if default is not None and self.peek()[0] == "sel":
                raise self.fail("';', '+', ')' or end of input (a Default ends its select)")
            return Select(tuple(cases), default)
        if value == "Default":
            raise self.fail("an effect (a Default only ends a select, after its cases)")
        raise self.fail(
            "an effect (eps, Get, Put, Chan, Close, Range, Spawn, SelGet, SelPut or '(')"
        )

    def declaration(self) -> ChanE:
        """Chan(c), Chan(c, k) or Chan(c, unbounded); a channel declared twice must agree on
        its capacity."""
        self.i += 1
        self.expect("(")
        _, _, pos = self.peek()
        c = self.chan()
        capacity = 0
        if self.peek()[1] == ",":
            self.i += 1
            kind, value, at = self.peek()
            if kind == "word" and value == "unbounded":
                capacity = UNBOUNDED
            elif kind != "number":
                raise self.fail(
                    f"the capacity of {c} (a whole number from 0 to {MAX_CAPACITY}, or unbounded)"
                )
            elif int(value) > MAX_CAPACITY:
                raise EffectSyntaxError(
                    self.text, at, f"a capacity from 0 to {MAX_CAPACITY}, or unbounded", repr(value)
                )
            else:
                capacity = int(value)
            self.i += 1
        self.expect(")")
        earlier = self.declared.get(c)
        if earlier is not None and earlier[1] != capacity:
            raise EffectSyntaxError(
                self.text,
                pos,
                f"capacity {capacity_text(earlier[1])} for {c}, as declared at position "
                f"{earlier[0] + 1}",
                f"capacity {capacity_text(capacity)}",
            )
        self.declared.setdefault(c, (pos, capacity))
        return ChanE(c, capacity)

    def check_declarations(self) -> None:
        for chan, pos, what in self.needs_decl:
            if chan not in self.declared:
                raise EffectSyntaxError(
                    self.text,
                    pos,
                    f"{what} on a channel declared by Chan({chan}) or Chan({chan}, k)",
                    f"{chan} never declared",
                )

    def case(self) -> SelCase:
        kind, value, _ = self.peek()
        if kind != "word" or value not in ("SelGet", "SelPut"):
            raise self.fail("SelGet or SelPut")
        self.i += 1
        self.expect("(")
        c = self.chan()
        self.expect(",")
        body = self.effect()
        self.expect(")")
        return SelCase("get" if value == "SelGet" else "put", c, body)


def parse(text: str) -> Effect:
    """Parse SPEC §10 syntax; raises EffectSyntaxError naming the position and what was expected."""
    parser = _Parser(text)
    result = parser.effect()
    if parser.peek()[0] != "end":
        raise parser.fail("';', '+', '(+)' or end of input")
    parser.check_declarations()
    return result


def close_positions(text: str, chan: str) -> list[int]:
    """0-based offsets of every `Close(chan)` in effect text (to point at a double close)."""
    tokens = _tokenize(text)
    return [
        pos
        for i, (kind, value, pos) in enumerate(tokens[:-3])
        if kind == "word" and value == "Close" and tokens[i + 2][1] == chan
    ]

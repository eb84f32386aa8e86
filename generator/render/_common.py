"""What every renderer shares: λ_chan lowered to a statement tree, safe names, conditions.

A λ_chan program only moves unit values, so a renderer cares about its effects
and its control flow, never about values. `lower` therefore turns the
expression tree into blocks of statements (receive, send, spawn, if, select):

* `()`, `true`/`false`, variables and `chan c` (channels are all created up
  front, SPEC §8) have no effect and disappear;
* `e1; e2` and `let x = e1 in e2` become e1's statements then e2's; a `let`
  whose bound expression is a receive keeps the name, so a renderer may show it;
* an `if` keeps both branches (its condition is closed), unless both branches
  lost every statement, in which case it had no effect and disappears;
* every binder gets a name unique in the program and valid in every target
  language, so no renderer has to care about shadowing or keywords.

Variables are never read after lowering (nothing consumes a unit value), which
is why renderers must silence "unused variable" rules where a language has them.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Literal

from generator import lambda_chan as lc

# ---------------------------------------------------------------- the statement tree


@dataclass(frozen=True, slots=True)
class RecvS:
    chan: str
    var: str | None  # the λ_chan name bound to the received unit, if any


@dataclass(frozen=True, slots=True)
class SendS:
    chan: str
    value: int = 0  # the value it carries under the value oracle (1, 2, … in program order)


@dataclass(frozen=True, slots=True)
class SpawnS:
    site: int  # unique per program: lets a renderer give each spawn its own join channel
    body: Block


@dataclass(frozen=True, slots=True)
class IfS:
    cond: lc.Cond
    then: Block
    orelse: Block


@dataclass(frozen=True, slots=True)
class CaseS:
    direction: Literal["get", "put"]
    chan: str
    var: str | None
    body: Block
    value: int = 0  # a put's value under the value oracle (as SendS.value); 0 for a get


@dataclass(frozen=True, slots=True)
class SelectS:
    """A select; `default` (beyond the paper, where the renderer declares "default")
    runs when no case can go at once."""

    cases: tuple[CaseS, ...]
    default: Block | None = None


@dataclass(frozen=True, slots=True)
class CloseS:
    """`close c` (beyond the paper: only where the capabilities allow `close`)."""

    chan: str


@dataclass(frozen=True, slots=True)
class RangeS:
    """Receive from `chan` until it is closed and drained, running `body` after each
    message (beyond the paper). `var` names the received value."""

    chan: str
    var: str
    body: Block


@dataclass(frozen=True, slots=True)
class YieldS:
    """A change point of schedule perturbation (`perturb`): the process gives up its
    thread here, as PCT lowers a thread's priority at a change point."""


Stmt = RecvS | SendS | SpawnS | IfS | SelectS | YieldS | CloseS | RangeS
Block = tuple[Stmt, ...]


@dataclass(frozen=True, slots=True)
class Lowered:
    """A program ready to print: channels (safe names, program order) and main's body.

    ``capacities`` pairs (safe channel name, k) for the buffered channels: every
    other channel is unbuffered (beyond the paper, issue #15).
    """

    channels: tuple[str, ...]
    body: Block
    capacities: tuple[tuple[str, int], ...] = ()

    def capacity(self, chan: str) -> int:
        return dict(self.capacities).get(chan, 0)

    def closed(self) -> frozenset[str]:
        """The channels some process closes: their receives may find them closed."""
        return frozenset(s.chan for s in walk(self.body) if isinstance(s, CloseS))


class UnsupportedProgram(ValueError):
    """The program uses a construct the target language cannot express."""


# ---------------------------------------------------------------- names

# Keywords and predeclared names of Go, Kotlin, Crystal, Flix (both eras) and Rust
# (strict and reserved keywords, 2024's `gen` included),
# plus the names the renderers use for their own helpers. A λ_chan name in this
# set gets a suffix; so do names that a helper pattern (`prog3`, `join2`) could
# produce.
RESERVED = frozenset(
    """
    abstract alias and annotation any append as asm begin bool break by byte case cast catch
    chan channel class close companion complex const constructor continue crossinline data
    debugger def default defer deref do done dynamic else elsif end ensure enum error
    exit expect extends extern external fallthrough false final finally for fun func go goto
    if import in include infix init inline inner instanceof int interface internal is it
    joined lat lateinit lazy len let lib loop macro main make map match module mut native
    new nil noinline not null object of open operator or out override package pointerof
    print println private protected public range receive record recover redo ref region
    reified rem repeat require rescue rest return rc reps run runtime sealed select self
    send set sizeof spawn spawned string struct super suspend switch sync tailrec then this
    throw true try type typealias typeof uninitialized union unit unless until use val var
    vararg when where while with wg yield i j n cap copy panic iota os fmt args strconv
    puts raise sleep abort gets rand launch async job await coroutinecontext coroutinescope
    runblocking commonpool dispatchers atomic vals reflect
    crate fn impl mod move pub static trait unsafe dyn become box priv unsized virtual gen
    """.split()  # noqa: SIM905 - a word list reads better as text
)
_HELPER_PATTERN = re.compile(r"(prog|join|jobs|rep)\d*\Z")
_NOT_IDENT = re.compile(r"[^A-Za-z0-9]")


def is_reserved(name: str) -> bool:
    return name.lower() in RESERVED or _HELPER_PATTERN.match(name) is not None


class Namer:
    """Maps λ_chan names to identifiers valid in every target language, injectively.

    Valid means: a lower-case ASCII letter first (Crystal reads a capital as a
    constant, Flix as a type), then letters and digits only (Flix 0.5 and Go
    agree on those), and not reserved.
    """

    def __init__(self) -> None:
        self.taken: set[str] = set()

    def fresh(self, wanted: str) -> str:
        base = _NOT_IDENT.sub("", wanted)
        if not base or not base[0].isalpha():
            base = "v" + base
        base = base[0].lower() + base[1:]
        if _HELPER_PATTERN.match(base):
            # "rep" + a number is still a helper's name: numbering alone never escapes it.
            base += "v"
        name = base
        n = 1
        while name in self.taken or is_reserved(name):
            n += 1
            name = f"{base}{n}"
        self.taken.add(name)
        return name


# ---------------------------------------------------------------- lowering


def lower(program: lc.Program) -> Lowered:
    """The statement tree of `program` (see the module docstring).

    Raises ValueError if the body uses a channel the program does not create.
    """
    namer = Namer()
    chan_names: dict[str, str] = {}
    for c in program.channels:
        if c not in chan_names:
            chan_names[c] = namer.fresh(c)
    sites = iter(range(1_000_000))
    values = iter(range(1, 1_000_000))

    def chan(c: str) -> str:
        try:
            return chan_names[c]
        except KeyError:
            raise ValueError(f"channel {c!r} is used but not created by the program") from None

    def block(e: lc.Expr) -> Block:
        return tuple(stmts(e))

    def stmts(e: lc.Expr) -> Iterator[Stmt]:
        # Iterative over `;`/`let` chains (they nest to the right and can be long).
        while True:
            if isinstance(e, lc.Then):
                yield from stmts(e.first)
                e = e.second
            elif isinstance(e, lc.Let):
                if isinstance(e.bound, lc.Recv):
                    yield RecvS(chan(e.bound.chan), namer.fresh(e.name))
                else:
                    yield from stmts(e.bound)
                e = e.body
            else:
                break
        if isinstance(e, lc.Unit | lc.Var | lc.BoolLit | lc.NewChan):
            return
        if isinstance(e, lc.CloseE):
            yield CloseS(chan(e.chan))
            return
        if isinstance(e, lc.RangeE):
            yield RangeS(chan(e.chan), namer.fresh(e.var), block(e.body))
            return
        if isinstance(e, lc.Recv):
            yield RecvS(chan(e.chan), None)
        elif isinstance(e, lc.Send):
            yield SendS(chan(e.chan), next(values))
        elif isinstance(e, lc.SpawnE):
            site = next(sites)
            yield SpawnS(site, block(e.body))
        elif isinstance(e, lc.If):
            then, orelse = block(e.then), block(e.orelse)
            if then or orelse:
                yield IfS(e.cond, then, orelse)
        elif isinstance(e, lc.SelectE):
            if not e.cases:
                raise ValueError("a select needs at least one case")
            yield SelectS(
                tuple(
                    CaseS(
                        c.direction,
                        chan(c.chan),
                        namer.fresh(c.var) if c.direction == "get" and c.var else None,
                        block(c.body),
                        next(values) if c.direction == "put" else 0,
                    )
                    for c in e.cases
                ),
                None if e.default is None else block(e.default),
            )
        else:
            raise TypeError(f"not a λ_chan expression: {e!r}")

    body = block(program.main)
    buffered = tuple((chan(c), k) for c, k in program.capacities if k)
    return Lowered(tuple(chan_names.values()), body, buffered)


# ---------------------------------------------------------------- queries


def walk(block: Block, *, into_spawns: bool = True) -> Iterator[Stmt]:
    """Every statement, pre-order; `into_spawns=False` stays inside the current process."""
    for s in block:
        yield s
        if isinstance(s, SpawnS):
            if into_spawns:
                yield from walk(s.body, into_spawns=into_spawns)
        elif isinstance(s, IfS):
            yield from walk(s.then, into_spawns=into_spawns)
            yield from walk(s.orelse, into_spawns=into_spawns)
        elif isinstance(s, SelectS):
            for c in s.cases:
                yield from walk(c.body, into_spawns=into_spawns)
            if s.default is not None:
                yield from walk(s.default, into_spawns=into_spawns)
        elif isinstance(s, RangeS):
            yield from walk(s.body, into_spawns=into_spawns)


def has_select_default(block: Block) -> bool:
    """Whether any select in `block` (spawns included) has a default."""
    return any(isinstance(s, SelectS) and s.default is not None for s in walk(block))


def has_spawn(block: Block) -> bool:
    return any(isinstance(s, SpawnS) for s in walk(block))


def spawn_sites(block: Block) -> list[int]:
    """Sites of the spawns this process itself performs (not its children's), in order."""
    return [s.site for s in walk(block, into_spawns=False) if isinstance(s, SpawnS)]


def channel_use(block: Block) -> dict[str, set[str]]:
    """For each channel used: {'get'} / {'put'} / both, over every process."""
    use: dict[str, set[str]] = {}
    for s in walk(block):
        if isinstance(s, RecvS | RangeS):
            use.setdefault(s.chan, set()).add("get")
        elif isinstance(s, SendS):
            use.setdefault(s.chan, set()).add("put")
        elif isinstance(s, CloseS):
            use.setdefault(s.chan, set()).add("close")
        elif isinstance(s, SelectS):
            for c in s.cases:
                use.setdefault(c.chan, set()).add(c.direction)
    return use


def receives(block: Block) -> bool:
    """Whether any process receives (a get or a select: Flix's NonDet effect)."""
    return any(isinstance(s, RecvS | SelectS | RangeS) for s in walk(block))


def used_channels(lowered: Lowered) -> list[str]:
    """The channels the body touches, in program order: renderers create only these
    (an untouched unbuffered channel has no behaviour, and Go rejects unused locals)."""
    use = channel_use(lowered.body)
    return [c for c in lowered.channels if c in use]


# ---------------------------------------------------------------- schedule perturbation

# PCT (Burckhardt et al., "A randomized scheduler with probabilistic guarantees of
# finding bugs") finds a bug of depth d with probability at least 1/(n·k^(d−1)) by
# changing thread priorities at d−1 random steps. A runtime's scheduler is not ours
# to drive, so a renderer asked for `pct_depth=d` puts a yield (`YieldS`: Go's
# runtime.Gosched(), Kotlin's yield(), Crystal's Fiber.yield, Rust's
# thread::yield_now() or tokio's yield_now()) before d−1 of the program's
# communication steps (receives, sends, selects, in every process), drawn at random.
# The draw depends on d and the program alone, never on the renderer's syntax
# seed or the program's place in a batch: the same program at the same depth
# yields at the same steps in a batch and alone, so a finding reproduces, and the
# rest of the source is byte for byte the unperturbed one (but for a thread pool
# rendered with a fixed size, which then reads THREADS_VARIABLE first).
MAX_PCT_DEPTH = 64
# A perturbed run also gets a thread count of its own (runners.engine.schedule). Where
# the runtime reads none from its own variable (GOMAXPROCS, CRYSTAL_WORKERS), the
# program's pool does from this one; absent, it keeps the size it was rendered with.
THREADS_VARIABLE = "CHANFUZZ_THREADS"

# What a dispatcher that runs several programs in one process (render.runs_in_groups)
# prints on stdout, with the program's index, once a program has run to its end.
GROUP_DONE = "chanfuzz: done "


def pct_depth(value: object) -> int:
    """A renderer option: the PCT depth d ≥ 1 (d = 1: no change point)."""
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= MAX_PCT_DEPTH:
        raise ValueError(
            f"pct_depth must be a whole number from 1 to {MAX_PCT_DEPTH}, not {value!r}"
        )
    return value


def _is_step(s: Stmt) -> bool:
    return isinstance(s, RecvS | SendS | SelectS | CloseS | RangeS)


def communication_steps(block: Block) -> int:
    """How many receives, sends and selects `block` has, in every process."""
    return sum(1 for s in walk(block) if _is_step(s))


def change_points(program: lc.Program, lowered: Lowered, depth: int) -> frozenset[int]:
    """Which communication steps (numbered in `walk` order from 0) yield first: d−1 of
    them, or all when the program has fewer."""
    steps = communication_steps(lowered.body)
    rng = random.Random(f"chanfuzz pct {depth} {program!r}")
    return frozenset(rng.sample(range(steps), min(depth - 1, steps)))


def perturb(program: lc.Program, lowered: Lowered, depth: int) -> Lowered:
    """`lowered` with a `YieldS` before each of its `change_points`."""
    points = change_points(program, lowered, depth)
    if not points:
        return lowered
    counter = iter(range(1_000_000))

    def block(b: Block) -> Block:
        out: list[Stmt] = []
        for s in b:
            # Numbered as walk() meets them: a statement before its nested blocks.
            if _is_step(s) and next(counter) in points:
                out.append(YieldS())
            if isinstance(s, SpawnS):
                s = SpawnS(s.site, block(s.body))
            elif isinstance(s, IfS):
                s = IfS(s.cond, block(s.then), block(s.orelse))
            elif isinstance(s, SelectS):
                cases = tuple(replace(c, body=block(c.body)) for c in s.cases)
                s = SelectS(cases, None if s.default is None else block(s.default))
            elif isinstance(s, RangeS):
                s = RangeS(s.chan, s.var, block(s.body))
            out.append(s)
        return tuple(out)

    return Lowered(lowered.channels, block(lowered.body), lowered.capacities)


def lower_all(programs: Sequence[lc.Program], depth: int | None) -> list[Lowered]:
    """Every program lowered, and perturbed when a PCT depth is asked for."""
    lowered = [lower(p) for p in programs]
    if depth is None:
        return lowered
    return [perturb(p, lw, depth) for p, lw in zip(programs, lowered, strict=True)]


def yields(block: Block) -> bool:
    """Whether any process has a change point (a renderer imports what yields then)."""
    return any(isinstance(s, YieldS) for s in walk(block))


# ---------------------------------------------------------------- the value oracle

# Under the value oracle (the renderers' `values=True`), every send carries a value
# of its own (SendS.value, CaseS.value): a receive checks that the value was sent on
# the channel it came from and arrives only once, and each run checks at its end,
# after every process is joined, that each completed send met exactly one receive.
# A violation prints one line starting with ORACLE_PREFIX and exits with
# ORACLE_EXIT; the kinds below are its words in every language (the verdict's
# signature is the kind, the detail names values and channels of one program).
ORACLE_PREFIX = "chanfuzz: wrong value: "
ORACLE_EXIT = 65  # sysexits.h EX_DATAERR; not an exit status any runtime here uses
WRONG_CHANNEL = "received from the wrong channel"
TWICE = "received twice"
NEVER_RECEIVED = "sent but never received"
NEVER_SENT = "received but never sent"
# Where close answers whether it closed the channel (Crystal, Kotlin): every generated
# program closes a channel once at most (the checker refuses a second close).
ALREADY_CLOSED = "closed, but answered it was closed before"
# After a run's joins (Rust, issue #14): a channel nobody uses any more and every
# message of which was received answered its observers or its ends wrongly.
QUIET_WRONG = "a quiet channel answered wrong"
BY_RECEIVE, BY_SELECT, BY_CLOSE = "by a receive", "by a select", "by a close"
OF_SEND, OF_SELECT = "a send", "a select's send"


@dataclass(frozen=True, slots=True)
class ValueTable:
    """Value v (1-based) is sent on ``chans[v - 1]``, by a select when ``in_select[v - 1]``."""

    chans: tuple[str, ...]
    in_select: tuple[bool, ...]


def value_table(lowered: Lowered) -> ValueTable:
    sends: dict[int, tuple[str, bool]] = {}
    for s in walk(lowered.body):
        if isinstance(s, SendS):
            sends[s.value] = (s.chan, False)
        elif isinstance(s, SelectS):
            sends.update((c.value, (c.chan, True)) for c in s.cases if c.direction == "put")
    if sorted(sends) != list(range(1, len(sends) + 1)):
        raise ValueError("send values must be 1, 2, … (lower() numbers them)")
    ordered = [sends[v] for v in range(1, len(sends) + 1)]
    return ValueTable(tuple(c for c, _ in ordered), tuple(sel for _, sel in ordered))


def boolean(value: object) -> bool:
    """A renderer option that is true or false."""
    if not isinstance(value, bool):
        raise ValueError(f"expected true or false, not {value!r}")
    return value


# ---------------------------------------------------------------- conditions


@dataclass(frozen=True, slots=True)
class CondSyntax:
    true: str = "true"
    false: str = "false"
    not_: str = "!"  # prefix; "not " in current Flix
    and_: str = "&&"
    or_: str = "||"


C_LIKE = CondSyntax()

_MIRROR = {"==": "==", "!=": "!=", "<": ">", "<=": ">=", ">": "<", ">=": "<="}


def render_cond(cond: lc.Cond, syntax: CondSyntax, rng: random.Random) -> str:
    """A closed condition in the target syntax, fully parenthesised below the top.

    Seeded variation that keeps the value: a comparison may be written mirrored
    (`3 < 5` as `5 > 3`).
    """

    def show(c: lc.Cond) -> str:
        if isinstance(c, lc.BoolLit):
            return syntax.true if c.value else syntax.false
        if isinstance(c, lc.Not):
            return f"{syntax.not_}{atom(c.operand)}"
        if isinstance(c, lc.BoolOp):
            op = syntax.and_ if c.op == "&&" else syntax.or_
            return f"{atom(c.left)} {op} {atom(c.right)}"
        if isinstance(c, lc.Compare):
            if rng.random() < 0.3:
                return f"{num(c.right)} {_MIRROR[c.op]} {num(c.left)}"
            return f"{num(c.left)} {c.op} {num(c.right)}"
        raise TypeError(f"not a condition: {c!r}")

    def atom(c: lc.Cond) -> str:
        text = show(c)
        return text if isinstance(c, lc.BoolLit) else f"({text})"

    def num(n: int) -> str:
        # A negative literal in parentheses reads the same in every language.
        return str(n) if n >= 0 else f"({n})"

    return show(cond)


# ---------------------------------------------------------------- output


class Writer:
    """Lines with an indentation level; `unit` is the language's indentation step."""

    def __init__(self, unit: str) -> None:
        self.unit = unit
        self.depth = 0
        self.lines: list[str] = []

    def line(self, text: str = "") -> None:
        self.lines.append(f"{self.unit * self.depth}{text}" if text else "")

    def indent(self) -> _Indent:
        return _Indent(self)

    def text(self) -> str:
        return "\n".join(self.lines) + "\n"


class _Indent:
    def __init__(self, writer: Writer) -> None:
        self.writer = writer

    def __enter__(self) -> None:
        self.writer.depth += 1

    def __exit__(self, *exc: object) -> None:
        self.writer.depth -= 1


def shuffled(items: Iterable[str], rng: random.Random) -> list[str]:
    """Independent declarations in a seeded order (creating channels commutes)."""
    out = list(items)
    rng.shuffle(out)
    return out


def check_repetitions(repetitions: int) -> None:
    if not isinstance(repetitions, int) or isinstance(repetitions, bool) or repetitions < 1:
        raise ValueError(f"repetitions must be a positive integer, not {repetitions!r}")


def take_options(
    options: dict[str, object], allowed: dict[str, Callable[[object], object]], lang: str
) -> dict[str, object]:
    """Validate a renderer's keyword options: unknown names and bad values are errors."""
    unknown = sorted(set(options) - set(allowed))
    if unknown:
        known = ", ".join(sorted(allowed)) or "none"
        raise ValueError(f"unknown option(s) for {lang}: {', '.join(unknown)} (known: {known})")
    return {name: check(options[name]) for name, check in allowed.items() if name in options}

"""The search space of a reducer: smaller effects, each one still proved terminating.

A failing program is reduced over its effect (SPEC §3). The first step is to
take the program's *behaviour* (`termination.behaviour`: every `if` decided as
it is when the program runs): its executions are exactly the program's, and
without choices the program synthesised back from it does the same whatever
the seed. From there, `candidates` lists single edits that make the effect
smaller, largest cut first:

- drop every use of a channel (its gets, puts and select cases at once: the
  partners of a communication go together, so termination usually survives);
- drop a spawn, or run its body in the parent instead;
- drop a part of a sequence, a select case, a single get or put, or a get and
  a put on the same channel together;
- turn a one-case select into the plain operation followed by its body;
- keep one option of a choice (for effects given with choices);
- merge two channels into one;
- last, once no edit keeps the failure, name the channels c1, c2, … in order
  (`canonical_names`, cosmetic, but run like any candidate).

Every candidate goes through the exhaustive termination checker, and only those
proved terminating are offered: a reduced program is terminating by
construction exactly like a generated one, so its hang is still the runtime's
fault. Whether a candidate still *fails* is for the caller to find out by
running it (runners.engine.reduce).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from generator.effects import (
    EPS,
    ChanE,
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
    choice,
    seq,
    size,
    to_text,
)
from generator.termination import check_effect

# Bounds the checker's work per candidate: a reducer tries many of them.
CANDIDATE_MAX_STATES = 50_000
# Pairs of a get and a put on one channel grow quadratically; past this many
# per channel the single-operation and whole-channel edits do the work.
MAX_PAIRS_PER_CHANNEL = 64
_SHOWN = 48


@dataclass(frozen=True)
class Candidate:
    """One edit of an effect: what was done, and the effect it gives."""

    description: str
    effect: Effect

    @property
    def text(self) -> str:
        return to_text(self.effect)

    @property
    def size(self) -> int:
        return size(self.effect)


def short(effect: Effect) -> str:
    """An effect's text cut to a length a progress line can hold."""
    text = to_text(effect)
    return text if len(text) <= _SHOWN else text[: _SHOWN - 1] + "…"


# ---------------------------------------------------------------- local edits


def _case_effect(case: SelCase) -> Effect:
    op = Get(case.chan) if case.direction == "get" else Put(case.chan)
    return seq(op, case.body)


def _local_edits(e: Effect) -> Iterator[tuple[str, Effect]]:
    """(description, replacement of `e`) for each one-place edit inside `e`."""
    kind = type(e)
    if kind is Get or kind is Put:
        yield f"drop {to_text(e)}", EPS
    elif kind is Spawn:
        yield f"drop the spawn {short(e)}", EPS
        yield f"run the spawn {short(e)} in its parent", e.body
        for what, body in _local_edits(e.body):
            yield what, Spawn(body)
    elif kind is Seq:
        items = e.items
        for i, item in enumerate(items):
            if not isinstance(item, ChanE):
                yield f"drop {short(item)} from a sequence", seq(*items[:i], *items[i + 1 :])
        for i, item in enumerate(items):
            for what, new in _local_edits(item):
                yield what, seq(*items[:i], new, *items[i + 1 :])
    elif kind is Choice:
        for k, option in enumerate(e.options):
            yield f"keep option {k + 1} of the choice {short(e)}", option
        for k, option in enumerate(e.options):
            for what, new in _local_edits(option):
                yield what, choice(*e.options[:k], new, *e.options[k + 1 :])
    elif kind is Select:
        cases, default = e.cases, e.default
        if default is not None:
            yield f"drop the default of the select {short(e)}", Select(cases)
            yield f"keep only the default of the select {short(e)}", default
        if len(cases) == 1 and default is None:
            yield f"turn the select {short(e)} into its one operation", _case_effect(cases[0])
        elif len(cases) > 1:
            for j, case in enumerate(cases):
                rest = cases[:j] + cases[j + 1 :]
                yield f"drop the case {short(Select((case,)))}", Select(rest, default)
        for j, case in enumerate(cases):
            for what, body in _local_edits(case.body):
                new_case = SelCase(case.direction, case.chan, body)
                yield what, Select(cases[:j] + (new_case,) + cases[j + 1 :], default)
        if default is not None:
            for what, body in _local_edits(default):
                yield what, Select(cases, body)


# ---------------------------------------------------------------- global edits


def _map(e: Effect, leaf, on_select) -> Effect:  # noqa: ANN001 - two small callbacks
    """`e` rebuilt bottom-up: `leaf` on Get/Put/Chan, `on_select(cases, default)` on each
    rebuilt select."""
    kind = type(e)
    if kind is Get or kind is Put or kind is ChanE:
        return leaf(e)
    if kind is Spawn:
        body = _map(e.body, leaf, on_select)
        # A process with nothing to do is no process: drop it with its last action.
        return EPS if isinstance(body, Eps) else Spawn(body)
    if kind is Seq:
        return seq(*(_map(i, leaf, on_select) for i in e.items))
    if kind is Choice:
        return choice(*(_map(o, leaf, on_select) for o in e.options))
    if kind is Select:
        cases = tuple(SelCase(c.direction, c.chan, _map(c.body, leaf, on_select)) for c in e.cases)
        default = None if e.default is None else _map(e.default, leaf, on_select)
        return on_select(cases, default)
    return e


def without_channel(effect: Effect, chan: str) -> Effect:
    """`effect` with every use of `chan` gone: its operations, declarations and select
    cases (bodies included); a select left with no case goes too."""

    def leaf(e: Effect) -> Effect:
        return EPS if e.chan == chan else e

    def on_select(cases: tuple[SelCase, ...], default: Effect | None) -> Effect:
        kept = tuple(c for c in cases if c.chan != chan)
        if kept:
            return Select(kept, default)
        # No case left: a select with a default would always run it.
        return EPS if default is None else default

    return _map(effect, leaf, on_select)


def renamed(effect: Effect, old: str, new: str) -> Effect:
    """`effect` with channel `old` called `new` (two channels merged into one)."""

    def leaf(e: Effect) -> Effect:
        return type(e)(new) if e.chan == old else e

    def on_select(cases: tuple[SelCase, ...], default: Effect | None) -> Effect:
        return Select(tuple(SelCase(c.direction, new if c.chan == old else c.chan, c.body)
                            for c in cases), default)  # fmt: skip

    return _map(effect, leaf, on_select)


def _without_ops(effect: Effect, doomed: frozenset[int]) -> Effect:
    """`effect` with the plain gets and puts at the given pre-order positions dropped."""
    counter = iter(range(1 << 30))

    def leaf(e: Effect) -> Effect:
        if isinstance(e, ChanE):
            return e
        return EPS if next(counter) in doomed else e

    return _map(effect, leaf, Select)


def _op_positions(effect: Effect) -> dict[str, tuple[list[int], list[int]]]:
    """For each channel, the pre-order positions of its plain gets and puts."""
    found: dict[str, tuple[list[int], list[int]]] = {}
    counter = iter(range(1 << 30))

    def leaf(e: Effect) -> Effect:
        if not isinstance(e, ChanE):
            gets, puts = found.setdefault(e.chan, ([], []))
            (gets if isinstance(e, Get) else puts).append(next(counter))
        return e

    _map(effect, leaf, Select)
    return found


def _global_edits(effect: Effect) -> Iterator[tuple[str, Effect]]:
    chans = channels(effect)
    for chan in chans:
        yield f"drop channel {chan}", without_channel(effect, chan)
    for chan, (gets, puts) in _op_positions(effect).items():
        pairs = [(g, p) for g in gets for p in puts][:MAX_PAIRS_PER_CHANNEL]
        for g, p in pairs:
            yield f"drop a Get({chan}) and a Put({chan})", _without_ops(effect, frozenset((g, p)))
    for i, keep in enumerate(chans):
        for gone in chans[i + 1 :]:
            yield f"merge channel {gone} into {keep}", renamed(effect, gone, keep)


def canonical_names(effect: Effect) -> Effect | None:
    """`effect` with its channels renamed c1, c2, … in order of first use; None when they
    are so named already (the last, cosmetic step of a reduction)."""
    names = channels(effect)
    wanted = [f"c{i}" for i in range(1, len(names) + 1)]
    if names == wanted:
        return None
    # Through temporary names, so that renaming c2 → c1 cannot meet a c1 still to rename.
    temporary = [f"_r{i}" for i in range(len(names))]
    for old, tmp in zip(names, temporary, strict=True):
        effect = renamed(effect, old, tmp)
    for tmp, new in zip(temporary, wanted, strict=True):
        effect = renamed(effect, tmp, new)
    return effect


# ---------------------------------------------------------------- candidates


def _weight(effect: Effect) -> tuple[int, int]:
    return size(effect), len(channels(effect))


def candidates(effect: Effect, *, max_states: int = CANDIDATE_MAX_STATES) -> Iterator[Candidate]:
    """Every one-edit reduction of `effect` that the checker proves terminating,
    smallest result first (ties: fewer channels, then by text, so the order is fixed).

    Only effects smaller than `effect` (in nodes, then in channels) are offered,
    so repeatedly taking a candidate ends.
    """
    here = _weight(effect)
    seen: dict[str, Candidate] = {}
    for what, edited in (*_global_edits(effect), *_local_edits(effect)):
        new = _map(edited, lambda leaf: leaf, Select)  # tidy: no empty spawns
        if isinstance(new, Eps) or _weight(new) >= here:
            continue
        text = to_text(new)
        if text not in seen:
            seen[text] = Candidate(what, new)
    ordered = sorted(seen.values(), key=lambda c: (*_weight(c.effect), c.text))
    for candidate in ordered:
        if check_effect(candidate.effect, max_states=max_states).terminating is True:
            yield candidate


__all__ = ["Candidate", "candidates", "canonical_names", "renamed", "short", "without_channel"]

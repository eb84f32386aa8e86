"""Hypothesis strategies for effects: arbitrary ones (mostly not terminating), small."""

from __future__ import annotations

from functools import cache

from hypothesis import strategies as st

from generator.effects import (
    EPS,
    UNBOUNDED,
    ChanE,
    Close,
    Effect,
    Get,
    Put,
    Range,
    SelCase,
    Select,
    Spawn,
    choice,
    seq,
)

CHANNELS = ("c1", "c2", "c3")

_leaf = st.one_of(
    st.just(EPS),
    st.builds(Get, st.sampled_from(CHANNELS)),
    st.builds(Put, st.sampled_from(CHANNELS)),
    st.builds(ChanE, st.sampled_from(CHANNELS)),
)


def _extend(inner: st.SearchStrategy[Effect]) -> st.SearchStrategy[Effect]:
    case = st.builds(SelCase, st.sampled_from(("get", "put")), st.sampled_from(CHANNELS), inner)
    return st.one_of(
        st.builds(Spawn, inner),
        st.lists(inner, min_size=2, max_size=3).map(lambda xs: seq(*xs)),
        st.lists(inner, min_size=2, max_size=3).map(lambda xs: choice(*xs)),
        st.lists(case, min_size=1, max_size=3).map(lambda cs: Select(tuple(cs))),
    )


def effects(max_leaves: int = 8) -> st.SearchStrategy[Effect]:
    """Arbitrary effects in normal form over three channels."""
    return st.recursive(_leaf, _extend, max_leaves=max_leaves)


def _extended_leaf() -> st.SearchStrategy[Effect]:
    return st.one_of(
        st.just(EPS),
        st.builds(Get, st.sampled_from(CHANNELS)),
        st.builds(Put, st.sampled_from(CHANNELS)),
        st.builds(Close, st.sampled_from(CHANNELS)),
    )


def _extended(inner: st.SearchStrategy[Effect]) -> st.SearchStrategy[Effect]:
    return st.one_of(_extend(inner), st.builds(Range, st.sampled_from(CHANNELS), inner))


def _declared(body: Effect, capacities: tuple[int, ...]) -> Effect:
    return seq(*(ChanE(c, k) for c, k in zip(CHANNELS, capacities, strict=True)), body)


@cache
def extended_effects(max_leaves: int = 7) -> st.SearchStrategy[Effect]:
    """Effects beyond the paper: every channel declared with a capacity from 0 to 2 or
    unbounded, then an arbitrary body with closes and ranges (mostly not terminating)."""
    # Built once, not inside a composite's draw: hypothesis validates a new recursive
    # strategy on every example, which took 5 of every 6 seconds of the tests using it.
    body = st.recursive(_extended_leaf(), _extended, max_leaves=max_leaves)
    capacity = st.sampled_from((0, 1, 2, UNBOUNDED))
    return st.builds(_declared, body, st.tuples(*(capacity for _ in CHANNELS)))

"""A deliberately naive interpreter of effects, to test the termination checker against.

No partial-order reduction, no components, no eager local steps: every
interleaving of single steps of single processes and every synchronisation of
two processes is explored, with a visited set of whole configurations. Only
usable on small effects, which is what the property tests feed it.
"""

from __future__ import annotations

import functools

from generator.effects import (
    EPS,
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
    seq,
    walk,
)


def _offers(e: Effect) -> list[tuple[str, str, Effect]]:
    """(direction, channel, what remains) for every communication e can start with."""
    head, rest = (e.items[0], seq(*e.items[1:])) if isinstance(e, Seq) else (e, EPS)
    if isinstance(head, Get):
        return [("get", head.chan, rest)]
    if isinstance(head, Put):
        return [("put", head.chan, rest)]
    if isinstance(head, Select):
        return [(c.direction, c.chan, seq(c.body, rest)) for c in head.cases]
    return []


def _local_steps(e: Effect) -> list[tuple[Effect, Effect | None]]:
    """Local successors of a process: (its new effect, spawned process or None)."""
    head, rest = (e.items[0], seq(*e.items[1:])) if isinstance(e, Seq) else (e, EPS)
    if isinstance(head, ChanE):
        return [(rest, None)]
    if isinstance(head, Spawn):
        return [(rest, head.body)]
    if isinstance(head, Choice):
        return [(seq(option, rest), None) for option in head.options]
    return []


def terminates(effect: Effect) -> bool:
    start = (effect,)
    seen: set[tuple[Effect, ...]] = set()
    stack = [start]
    while stack:
        state = stack.pop()
        key = tuple(sorted(state, key=repr))
        if key in seen:
            continue
        seen.add(key)
        successors: list[tuple[Effect, ...]] = []
        for i, p in enumerate(state):
            for new, child in _local_steps(p):
                nxt = list(state)
                nxt[i] = new
                if child is not None:
                    nxt.append(child)
                successors.append(tuple(nxt))
        for i, p in enumerate(state):
            for di, ci, ri in _offers(p):
                if di != "get":
                    continue
                for j, q in enumerate(state):
                    if j == i:
                        continue
                    for dj, cj, rj in _offers(q):
                        if dj == "put" and cj == ci:
                            nxt = list(state)
                            nxt[i], nxt[j] = ri, rj
                            successors.append(tuple(nxt))
        if not successors and any(not isinstance(p, Eps) for p in state):
            return False
        stack.extend(tuple(p for p in s if not isinstance(p, Eps)) for s in successors)
    return True


# ---------------------------------------------------------------- beyond the paper


def _ext_offers(e: Effect) -> list[tuple[str, str, Effect, Effect]]:
    """(direction, channel, rest after a message, rest when closed and empty)."""
    head, rest = (e.items[0], seq(*e.items[1:])) if isinstance(e, Seq) else (e, EPS)
    if isinstance(head, Get | Put):
        direction = "get" if isinstance(head, Get) else "put"
        return [(direction, head.chan, rest, rest)]
    if isinstance(head, Close):
        return [("close", head.chan, rest, rest)]
    if isinstance(head, Range):
        return [("get", head.chan, seq(head.body, head, rest), rest)]
    if isinstance(head, Select):
        return [(c.direction, c.chan, seq(c.body, rest), seq(c.body, rest)) for c in head.cases]
    return []


def _default_step(
    e: Effect, chans: dict[str, tuple[int, bool]], capacity: dict[str, int]
) -> Effect | None:
    """What a process whose head is a select with a default becomes by taking it: only
    when no case can complete alone (a partner on an unbuffered channel may not have
    reached it yet, so it does not count)."""
    head, rest = (e.items[0], seq(*e.items[1:])) if isinstance(e, Seq) else (e, EPS)
    if not isinstance(head, Select) or head.default is None:
        return None
    for case in head.cases:
        count, closed = chans.get(case.chan, (0, False))
        if case.direction == "put" and count < capacity.get(case.chan, 0):
            return None
        if case.direction == "get" and (count or closed):
            return None
    return seq(head.default, rest)


def terminates_extended(effect: Effect) -> bool:
    """Whether every execution of an effect with buffered channels, close, range and
    selects with a default ends with every process done, every buffer empty, no send on
    a closed channel and no second close: the whole state graph, then a search for a
    cycle in it."""
    capacity = {n.chan: n.capacity for n in walk(effect) if isinstance(n, ChanE)}
    start = ((effect,), ())
    graph: dict[tuple, list[tuple]] = {}
    stack = [start]
    while stack:
        state = stack.pop()
        if state in graph:
            continue
        procs, chan_items = state
        chans = dict(chan_items)
        successors: list[tuple] = []
        add = functools.partial(_add_state, successors)

        for i, p in enumerate(procs):
            for new, child in _local_steps(p):
                nxt = list(procs)
                nxt[i] = new
                if child is not None:
                    nxt.append(child)
                add(nxt, chans)
        for i, p in enumerate(procs):
            for direction, c, on_message, on_closed in _ext_offers(p):
                count, closed = chans.get(c, (0, False))
                k = capacity.get(c, 0)
                if closed and direction in ("put", "close"):
                    return False
                nxt = list(procs)
                if direction == "close":
                    nxt[i] = on_message
                    add(nxt, {**chans, c: (count, True)})
                elif direction == "put" and count < k:
                    nxt[i] = on_message
                    add(nxt, {**chans, c: (count + 1, closed)})
                elif direction == "get" and count:
                    nxt[i] = on_message
                    add(nxt, {**chans, c: (count - 1, closed)})
                elif direction == "get" and closed:
                    nxt[i] = on_closed
                    add(nxt, chans)
                elif direction == "get" and k == 0:
                    for j, q in enumerate(procs):
                        if j == i:
                            continue
                        for dj, cj, rj, _ in _ext_offers(q):
                            if dj == "put" and cj == c:
                                both = list(procs)
                                both[i], both[j] = on_message, rj
                                add(both, chans)
        for i, p in enumerate(procs):
            default = _default_step(p, chans, capacity)
            if default is not None:
                nxt = list(procs)
                nxt[i] = default
                add(nxt, chans)
        if not successors and (procs or any(count for count, _ in chans.values())):
            return False
        graph[state] = successors
        stack.extend(successors)
    return not _has_cycle(graph, start)


def _add_state(
    successors: list[tuple], procs: list[Effect], chans: dict[str, tuple[int, bool]]
) -> None:
    kept = tuple(sorted((p for p in procs if not isinstance(p, Eps)), key=repr))
    items = tuple(sorted((c, s) for c, s in chans.items() if s != (0, False)))
    successors.append((kept, items))


def _has_cycle(graph: dict[tuple, list[tuple]], start: tuple) -> bool:
    colour: dict[tuple, int] = {}  # 1: on the path, 2: done
    stack: list[tuple[tuple, int]] = [(start, 0)]
    colour[start] = 1
    while stack:
        node, index = stack.pop()
        successors = graph[node]
        if index < len(successors):
            stack.append((node, index + 1))
            nxt = successors[index]
            if colour.get(nxt) == 1:
                return True
            if nxt not in colour:
                colour[nxt] = 1
                stack.append((nxt, 0))
        else:
            colour[node] = 2
    return False

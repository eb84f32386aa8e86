"""A deliberately naive interpreter of effects, to test the termination checker against.

No partial-order reduction, no components, no eager local steps: every
interleaving of single steps of single processes and every synchronisation of
two processes is explored, with a visited set of whole configurations. Only
usable on small effects, which is what the property tests feed it.
"""

from __future__ import annotations

from generator.effects import EPS, ChanE, Choice, Effect, Eps, Get, Put, Select, Seq, Spawn, seq


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

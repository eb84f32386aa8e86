"""Reading a runtime's output: frame names, messages and shapes that every target's reader shares.

Signatures follow crash dashboards (ClusterFuzz's crash state = top 3 frames):
the exception or panic type plus the top frames, with the parts that vary from
program to program (program numbers, lambda numbers, addresses) taken out, so
the same bug found by many programs is one finding.
"""

from __future__ import annotations

import re
from collections import Counter

TOP_FRAMES = 3


# How many top frames of a stack overflow are searched for the recursion.
RECURSION_WINDOW = 200


def normalise_frame(frame: str) -> str:
    """A frame name without the parts that differ between programs of one batch."""
    frame = re.sub(r"\bprog\d+", "prog", frame)
    frame = re.sub(r"(\.func|\$)\d+", r"\1N", frame)
    frame = re.sub(r"0x[0-9a-f]+", "ADDR", frame)
    return frame


def message(text: str) -> str:
    return re.sub(r"0x[0-9a-f]+", "ADDR", text.strip())[:200]


def shape(states: list[str]) -> str:
    counts = Counter(states)
    return ", ".join(f"{state}×{n}" if n > 1 else state for state, n in sorted(counts.items()))


def recursion_cycle(frames: list[str]) -> list[str] | None:
    """The frames of the recursion at the top of a stack, sorted; None if there is none.

    A stack overflow's top frames depend on where in the cycle the stack ran
    out, so one bug would show many "top 3 frames". The set of frames that
    repeat near the top is the same wherever the cut fell.
    """
    window = frames[:RECURSION_WINDOW]
    counts = Counter(window)
    cycle = sorted(f for f, n in counts.items() if n >= 2)
    return cycle or None

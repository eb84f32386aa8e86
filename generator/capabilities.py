"""What a target language can express, and the generation rules that follows from it.

A renderer that cannot write some construct (Flix's `select` only receives; Rust's
`std::sync::mpsc` has no select at all) must never be handed a program that uses it.
So the generator is told the target's capabilities and turns off the rules whose
output the target cannot express, instead of generating and then refusing.

With every capability (``FULL``) nothing changes: the same seed and settings give
the same program byte for byte as before capabilities existed.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass

from generator.settings import GENERATION_RULES, RULE_TITLES, GeneratorSettings

# Rules whose output holds a select: off for a target without one.
SELECT_RULES = (
    "g_select",
    "e_get_select",
    "e_put_select",
    "e_select_dup",
    "r_select",
    "r_choice_select_get_get",
)
# Rules that put a send case into a select (G-Select can do without: it then
# gives every client case a receive head, and the servers send).
SELECT_SEND_RULES = ("e_put_select",)


class InexpressibleSettings(ValueError):
    """Settings whose every generation rule the target cannot express."""


@dataclass(frozen=True)
class Capabilities:
    """What programs for a target may contain.

    ``select``: a select over channel operations; ``select_send``: send cases in
    a select (implies ``select``). Beyond the paper (issue #15, only with the
    `buffered` setting): ``buffered``: channels of capacity k ≥ 1; ``close``:
    closing a channel, receiving from a closed one and ranging over one until
    it is closed; ``select_default``: a select with a default, run when no case
    can go at once (implies ``select``; used with the `buffered` setting);
    ``unbounded``: channels whose sends never wait (`Chan(c, unbounded)`, implies
    ``buffered``): a runtime's unbounded flavour is code of its own (crossbeam's and
    std's list of blocks, kotlinx.coroutines' UNLIMITED), which bounded channels never
    reach. Several selects per process are allowed on every target so far.
    """

    select: bool = True
    select_send: bool = True
    buffered: bool = False
    close: bool = False
    select_default: bool = False
    unbounded: bool = False

    def __post_init__(self) -> None:
        if self.select_send and not self.select:
            raise ValueError("select_send needs select")
        if self.select_default and not self.select:
            raise ValueError("select_default needs select")
        if self.unbounded and not self.buffered:
            raise ValueError("unbounded needs buffered")

    def rules_off(self) -> tuple[str, ...]:
        """The rules this target cannot express, in the settings' order."""
        off: list[str] = []
        if not self.select:
            off += SELECT_RULES
        elif not self.select_send:
            off += SELECT_SEND_RULES
        return tuple(off)

    def restrict(self, settings: GeneratorSettings) -> GeneratorSettings:
        """``settings`` with the weights of inexpressible rules set to 0.

        Raises InexpressibleSettings when no generation rule is left (heuristic E
        uses G-Select alone: nothing for a target without select).
        """
        off = [r for r in self.rules_off() if settings.weight(r)]
        if not off:
            return settings
        restricted = dataclasses.replace(settings, **{r: 0 for r in off})
        if not any(restricted.weight(r) for r in GENERATION_RULES):
            names = ", ".join(RULE_TITLES[r] for r in off if r in GENERATION_RULES)
            raise InexpressibleSettings(
                f"these settings generate only with {names}, which the target cannot express "
                f"({self.describe()}): give another generation rule a weight"
            )
        return restricted

    def describe(self) -> str:
        if not self.select:
            text = "no select"
        elif not self.select_send:
            text = "select with receive cases only"
        else:
            text = "select with send and receive cases"
        return text + self.describe_extension()

    def describe_extension(self) -> str:
        """The beyond-the-paper part of `describe` ("" when the target has none of it)."""
        default = "; select with default" if self.select_default else ""
        buffered = "buffered and unbounded channels" if self.unbounded else "buffered channels"
        if self.buffered and self.close:
            return f"; {buffered}, close and range" + default
        if self.buffered:
            return f"; {buffered} (no close)" + default
        if self.close:
            return "; close and range (no buffered channels)" + default
        return default

    @classmethod
    def shared(cls, each: Iterable[Capabilities]) -> Capabilities:
        """What every one of several targets can express (a campaign over all of them)."""
        caps = list(each)
        select = all(c.select for c in caps)
        return cls(
            select=select,
            select_send=select and all(c.select_send for c in caps),
            buffered=all(c.buffered for c in caps),
            close=all(c.close for c in caps),
            select_default=select and all(c.select_default for c in caps),
            unbounded=all(c.unbounded for c in caps),
        )

    def as_dict(self) -> dict[str, bool]:
        """Every field; the extension's only when on, so the targets of the paper's
        fragment keep the stored form they had before it existed."""
        values = dataclasses.asdict(self)
        for name in ("buffered", "close", "select_default", "unbounded"):
            if not values[name]:
                del values[name]
        return values

    @classmethod
    def from_dict(cls, data: dict[str, bool] | None) -> Capabilities:
        """The inverse of `as_dict`; empty or None stands for FULL (how rows store it)."""
        return cls(**data) if data else FULL


# Without select_default or unbounded: rows stored before they existed say {} for FULL,
# and their programs must build again byte for byte.
FULL = Capabilities(buffered=True, close=True)

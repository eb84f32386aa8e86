"""Generator settings: one weight per rule, the paper's presets A–F, and size limits.

A rule is picked with probability proportional to its weight; weight 0 disables
it (SPEC §7). The paper groups the expansion rules and the reordering rules
into one weight each; a preset gives that weight to every rule of the group.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

GENERATION_RULES = (
    "g_seq",
    "g_choice",
    "g_spawn",
    "g_pingpong",
    "g_fanout",
    "g_pipeline",
    "g_select",
)
EXPANSION_RULES = ("e_choice_dup", "e_get_select", "e_put_select", "e_seq", "e_select_dup")
REORDERING_RULES = ("r_select", "r_choice_select_get_get", "r_spawn_1", "r_spawn_2")
RULES = ("g_final",) + GENERATION_RULES + EXPANSION_RULES + REORDERING_RULES

RULE_TITLES = {
    "g_final": "G-Final",
    "g_seq": "G-Seq",
    "g_choice": "G-Choice",
    "g_spawn": "G-Spawn",
    "g_pingpong": "G-PingPong",
    "g_fanout": "G-FanOut",
    "g_pipeline": "G-Pipeline",
    "g_select": "G-Select",
    "e_choice_dup": "E-Choice-Dup",
    "e_get_select": "E-Get-Select",
    "e_put_select": "E-Put-Select",
    "e_seq": "E-Seq",
    "e_select_dup": "E-Select-Dup",
    "r_select": "R-Select",
    "r_choice_select_get_get": "R-Choice-SelectGetGet",
    "r_spawn_1": "R-Spawn-1",
    "r_spawn_2": "R-Spawn-2",
}

SIZE_LIMITS = {
    # name: (minimum, maximum) accepted from users; defaults live on the dataclass.
    "max_depth": (1, 8),
    "max_channels": (1, 40),
    "max_processes": (0, 40),
    "max_n": (1, 8),
    "max_selects": (1, 6),
    "max_cases": (1, 8),
    "rewrite_steps": (0, 30),
}
MAX_WEIGHT = 1000


@dataclass(frozen=True)
class GeneratorSettings:
    """Everything that, with a seed, determines a generated program.

    Sizes: `max_depth` bounds the nesting of generation rules (holes `□` deeper
    than that are ε); `max_channels` and `max_processes` bound the channels and
    spawns of the initial generation (each E-Seq step may add up to
    `ESEQ_BUDGET` more of each), with one exception: G-Select fires while one
    process is left and splits each of its channels' m messages among 1 to m
    servers, so it can spawn up to `max_selects` processes a channel, over the
    budget (which is then spent); `max_n` bounds the n of G-PingPong,
    G-FanOut, G-Pipeline and G-Select (the number of channels or exchanges is
    at most n + 1); `max_selects` is G-Select's m, `max_cases` its k;
    `rewrite_steps` expansion/reordering rewrites follow the initial generation.
    """

    g_final: int = 3
    g_seq: int = 1
    g_choice: int = 1
    g_spawn: int = 1
    g_pingpong: int = 1
    g_fanout: int = 1
    g_pipeline: int = 1
    g_select: int = 1
    e_choice_dup: int = 1
    e_get_select: int = 1
    e_put_select: int = 1
    e_seq: int = 1
    e_select_dup: int = 1
    r_select: int = 1
    r_choice_select_get_get: int = 1
    r_spawn_1: int = 1
    r_spawn_2: int = 1
    max_depth: int = 3
    max_channels: int = 6
    max_processes: int = 6
    max_n: int = 3
    max_selects: int = 2
    max_cases: int = 3
    rewrite_steps: int = 3
    # Beyond the paper (issue #15): buffered channels, close and range, added by
    # `generator.buffering` after the paper's rules and proved by the checker; then,
    # on targets that can write one, selects with a default (`generator.defaults`).
    buffered: bool = False

    def weight(self, rule: str) -> int:
        return int(getattr(self, rule))

    def weights(self) -> dict[str, int]:
        return {rule: self.weight(rule) for rule in RULES}

    def validate(self) -> None:
        """Raise ValueError naming the first bad field."""
        for rule in RULES:
            w = getattr(self, rule)
            if not isinstance(w, int) or isinstance(w, bool) or not 0 <= w <= MAX_WEIGHT:
                raise ValueError(
                    f"weight {RULE_TITLES[rule]} must be a whole number from 0 to {MAX_WEIGHT}"
                )
        if not any(self.weight(r) for r in GENERATION_RULES):
            raise ValueError("at least one generation rule (G-Seq … G-Select) needs a weight > 0")
        for name, (low, high) in SIZE_LIMITS.items():
            v = getattr(self, name)
            if not isinstance(v, int) or isinstance(v, bool) or not low <= v <= high:
                raise ValueError(f"{name} must be a whole number from {low} to {high}")
        if not isinstance(self.buffered, bool):
            raise ValueError(f"buffered must be true or false, not {self.buffered!r}")

    def as_dict(self) -> dict[str, int]:
        """Every field; `buffered` only when on, so settings of the paper's fragment keep
        the form (and the stored rows and hashes) they had before it existed."""
        values = dataclasses.asdict(self)
        if not self.buffered:
            del values["buffered"]
        return values


def _preset(generation: tuple[int, ...], expansion: int, reordering: int) -> GeneratorSettings:
    values = dict(zip(GENERATION_RULES, generation, strict=True))
    values.update({r: expansion for r in EXPANSION_RULES})
    values.update({r: reordering for r in REORDERING_RULES})
    return GeneratorSettings(**values)


# SPEC §7, Table 2: G-Seq G-Choice G-Spawn G-PingPong G-FanOut G-Pipeline G-Select | E | R
PRESETS: dict[str, GeneratorSettings] = {
    "A": _preset((1, 1, 1, 1, 1, 1, 1), 1, 1),
    "B": _preset((1, 1, 1, 1, 1, 1, 1), 1, 0),
    "C": _preset((1, 1, 1, 1, 1, 1, 1), 0, 1),
    "D": _preset((1, 1, 1, 1, 1, 1, 0), 1, 1),
    "E": _preset((0, 0, 0, 0, 0, 0, 1), 1, 1),
    "F": _preset((1, 1, 1, 2, 2, 2, 15), 1, 1),
}


def settings_for(heuristic: str = "A", **overrides: int) -> GeneratorSettings:
    """A preset with some fields replaced; raises ValueError on unknown names or bad values."""
    key = heuristic.upper()
    if key not in PRESETS:
        raise ValueError(f"unknown heuristic {heuristic!r}: choose one of {', '.join(PRESETS)}")
    fields = {f.name for f in dataclasses.fields(GeneratorSettings)}
    unknown = sorted(set(overrides) - fields)
    if unknown:
        raise ValueError(f"unknown setting(s): {', '.join(unknown)}")
    result = dataclasses.replace(PRESETS[key], **overrides)
    result.validate()
    return result

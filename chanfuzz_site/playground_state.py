"""The playground's state: what its URL says, and the bounds on what a user may send.

The playground shows one program at a time, and everything that determines it lives in
the query string (chanfuzz_site.playground's docstring lists the parameters). `State` is
that query string parsed and checked; `parse_state` refuses bad input with a
`PlaygroundError` that names its form field, and `salvage_state` keeps what a shared link
still holds when one value is bad. The toolchains a program can run on are part of the
state (`target`), so finding them lives here too.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Mapping
from dataclasses import dataclass
from urllib.parse import urlencode

from generator import effects as effects_mod
from generator.effects import Effect, EffectSyntaxError
from generator.render import MAX_PCT_DEPTH
from generator.settings import (
    MAX_WEIGHT,
    PRESETS,
    RULE_TITLES,
    RULES,
    SIZE_LIMITS,
    GeneratorSettings,
)
from runners.engine.toolchains import Toolchain, installed_toolchains
from runners.targets import get_target

# ---------------------------------------------------------------- limits

# Longest effect text accepted (characters). The paper's largest figure is ~300.
MAX_EFFECT_CHARS = 4_000
# Deepest nesting of parentheses in an effect: the parser and the checker recurse.
MAX_EFFECT_NESTING = 64
# States the termination checker may visit before it answers "undecided".
CHECK_MAX_STATES = 100_000
# Seconds of wall-clock time it may take (in a child process: chanfuzz_site.bounded_check).
CHECK_TIME_LIMIT_S = 5.0
# Seconds a program's generation may take (in a child process: generate_bounded); with
# the largest sizes and buffered channels, proving the widened program took up to 13 s.
GENERATE_TIME_LIMIT_S = 3.0
# Steps of a deadlock trace drawn; the rest are counted ("… n more steps").
MAX_TRACE_STEPS = 200
# Seeds are whole numbers a browser's JavaScript can hold exactly.
MAX_SEED = 2**53 - 1
MAX_PLAYGROUND_REPETITIONS = 100
DEFAULT_REPETITIONS = 10
# Seed 14 of preset A: 6 channels, 6 spawns, short enough to read at a glance.
DEFAULT_SEED = 14
DEFAULT_PRESET = "A"
# One run of a program on a target (compile time is not counted).
RUN_TIMEOUT_S = 10.0
# Output shown per stream of a run (the rest is on the program's page).
MAX_SHOWN_OUTPUT = 6_000

LIMITS = {
    "effect_chars": MAX_EFFECT_CHARS,
    "effect_nesting": MAX_EFFECT_NESTING,
    "check_states": CHECK_MAX_STATES,
    "check_seconds": CHECK_TIME_LIMIT_S,
    "max_seed": MAX_SEED,
    "max_weight": MAX_WEIGHT,
    "max_repetitions": MAX_PLAYGROUND_REPETITIONS,
    "max_pct_depth": MAX_PCT_DEPTH,
    "run_timeout_s": RUN_TIMEOUT_S,
    "sizes": SIZE_LIMITS,
}

SIZES = tuple(SIZE_LIMITS)
SIZE_TITLES = {
    "max_depth": "nesting depth",
    "max_channels": "channels",
    "max_processes": "processes",
    "max_n": "n (PingPong, FanOut, Pipeline, Select)",
    "max_selects": "selects per G-Select (m)",
    "max_cases": "cases per select (k)",
    "rewrite_steps": "rewrite steps (E-, R- rules)",
}


class PlaygroundError(ValueError):
    """Input the playground refuses; `field` names the form field, if one is to blame."""

    def __init__(self, message: str, field: str = "", pointer: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.field = field
        self.pointer = pointer  # for effect syntax errors: the line with a caret under it


# ---------------------------------------------------------------- targets

_TARGETS_TTL_S = 10.0
_targets_cache: tuple[float, list[Toolchain]] = (0.0, [])


def targets() -> list[Toolchain]:
    """Installed toolchains a program can run on (languages with a builder), preferred first.

    Discovering them reads the file system (~5 ms); a short cache keeps
    generation requests fast while a newly installed toolchain still shows up.
    """
    global _targets_cache
    now = time.monotonic()
    stamp, cached = _targets_cache
    if now - stamp > _TARGETS_TTL_S:
        cached = installed_toolchains()
        _targets_cache = (now, cached)
    return cached


def default_target() -> str:
    """The preferred toolchain of the first target in the registry's order that has one
    (Go first: fast to build), else ""."""
    found = targets()
    if not found:
        return ""
    return min(found, key=lambda t: get_target(t.language).position).id


def find_target(target_id: str) -> Toolchain:
    for t in targets():
        if t.id == target_id:
            return t
    known = ", ".join(t.id for t in targets()) or "none installed"
    raise PlaygroundError(f"unknown target {target_id!r} (installed: {known})", "target")


def resolve_target(target_id: str) -> str:
    """`target_id` if it is installed; else the preferred installed toolchain of the same
    language (a shared link names the toolchain of its day: `go-1.26.7-machine` after an
    upgrade, or another machine's); PlaygroundError when no language is known by it."""
    installed = targets()
    if any(t.id == target_id for t in installed):
        return target_id
    # Ids start with their language, and one language's name may start another's
    # (rust-flume, rust-flume-async): the longest that fits.
    languages = sorted({t.language for t in installed}, key=len, reverse=True)
    language = next((lang for lang in languages if target_id.startswith(lang + "-")), None)
    if language is None:
        return find_target(target_id).id  # refused, with the installed ones named
    return next(t for t in installed if t.language == language).id  # preferred first


# ---------------------------------------------------------------- state


@dataclass(frozen=True)
class State:
    """Everything that determines what the playground shows."""

    seed: int = DEFAULT_SEED
    preset: str = DEFAULT_PRESET
    settings: GeneratorSettings = PRESETS[DEFAULT_PRESET]
    effect: str | None = None  # canonical effect text: a program from an effect, else generated
    target: str = ""
    reps: int = DEFAULT_REPETITIONS
    pct: int | None = None  # PCT depth of schedule perturbation; None: no yields

    @property
    def mode(self) -> str:
        return "effect" if self.effect is not None else "generate"

    def params(self) -> dict[str, str]:
        """The canonical parameters, in a fixed order (the share link's query string)."""
        out: dict[str, str] = {"seed": str(self.seed)}
        if self.effect is not None:
            out["effect"] = self.effect
        else:
            out["preset"] = self.preset
            base = PRESETS[self.preset]
            for name in (*RULES, *SIZES):
                value = getattr(self.settings, name)
                if value != getattr(base, name):
                    out[name] = str(value)
            if self.settings.buffered:
                # Only when on: links made before the setting existed stay as they were.
                out["buffered"] = "1"
        if self.target and self.target != default_target():
            out["target"] = self.target
        if self.reps != DEFAULT_REPETITIONS:
            out["reps"] = str(self.reps)
        if self.pct is not None:
            out["pct"] = str(self.pct)
        return out

    def query(self) -> str:
        return urlencode(self.params())


def _int(data: Mapping[str, str], name: str, low: int, high: int, default: int, title: str) -> int:
    raw = data.get(name)
    if raw is None or str(raw).strip() == "":
        return default
    text = str(raw).strip()
    # int() would accept "1_000" and 4,300-digit monsters; keep to plain decimals.
    if len(text) > 20 or not (text.isascii() and text.lstrip("-").isdigit()):
        raise PlaygroundError(f"{title} must be a whole number, not {text[:30]!r}", name)
    value = int(text)
    if not low <= value <= high:
        raise PlaygroundError(f"{title} must be from {low} to {high} (got {value})", name)
    return value


_TRUE = ("1", "on", "true", "yes")
_FALSE = ("", "0", "off", "false", "no")


def _flag(data: Mapping[str, str], name: str, title: str) -> bool:
    """A checkbox: sent as "on" when ticked, absent when not; links carry "1"."""
    text = str(data.get(name) or "").strip().lower()
    if text in _TRUE:
        return True
    if text in _FALSE:
        return False
    raise PlaygroundError(f"{title} must be 1 or 0, not {text[:20]!r}", name)


def check_effect_limits(text: str) -> None:
    """Refuse effect texts the parser or checker should not be asked to handle."""
    if len(text) > MAX_EFFECT_CHARS:
        raise PlaygroundError(
            f"the effect is {len(text):,} characters long; the playground takes at most "
            f"{MAX_EFFECT_CHARS:,}",
            "effect",
        )
    depth = deepest = 0
    for ch in text:
        if ch == "(":
            depth += 1
            deepest = max(deepest, depth)
        elif ch == ")":
            depth -= 1
    if deepest > MAX_EFFECT_NESTING:
        raise PlaygroundError(
            f"the effect nests parentheses {deepest} deep; the playground takes at most "
            f"{MAX_EFFECT_NESTING}",
            "effect",
        )


def parse_effect_text(text: str) -> Effect:
    """Parse a user's effect; PlaygroundError with a caret pointer on bad syntax."""
    check_effect_limits(text)
    if not text.strip():
        raise PlaygroundError(
            "the effect is empty: type one, e.g. Spawn(Put(c1)) ; Get(c1)", "effect"
        )
    try:
        return effects_mod.parse(text)
    except EffectSyntaxError as err:
        line = text.count("\n", 0, err.position) + 1
        column = err.position - (text.rfind("\n", 0, err.position) + 1) + 1
        raise PlaygroundError(
            f"syntax error at line {line}, column {column}: expected {err.expected}, "
            f"found {err.found}",
            "effect",
            pointer=err.pointer(),
        ) from None
    except RecursionError:
        raise PlaygroundError("the effect nests too deeply", "effect") from None


def salvage_state(data: Mapping[str, str]) -> State:
    """The state of `data` without the parameters parse_state refuses, one after another
    (a shared link with one bad value keeps its seed, preset and the rest), else the
    default state."""
    kept = {key: data.get(key) for key in data}  # a QueryDict's last value of each
    for _ in range(len(kept) + 1):
        try:
            return parse_state(kept)
        except PlaygroundError as err:
            if err.field not in kept:
                break
            del kept[err.field]
    return State(target=default_target())


def parse_state(data: Mapping[str, str], *, reset_weights: bool = False) -> State:
    """The state in request parameters; PlaygroundError naming the first bad one.

    Missing settings take the preset's value; `mode=effect` (or an `effect`
    parameter without `mode`) selects a program from an effect. With
    `reset_weights` the rule weights are the preset's whatever was sent (the
    preset was just changed).
    """
    seed = _int(data, "seed", 0, MAX_SEED, DEFAULT_SEED, "the seed")
    reps = _int(data, "reps", 1, MAX_PLAYGROUND_REPETITIONS, DEFAULT_REPETITIONS, "repetitions")
    pct = _int(data, "pct", 1, MAX_PCT_DEPTH, 0, "the PCT depth") or None
    target = str(data.get("target") or "").strip() or default_target()
    if target:
        target = resolve_target(target)
    preset = str(data.get("preset") or DEFAULT_PRESET).strip().upper()
    if preset not in PRESETS:
        raise PlaygroundError(
            f"unknown preset {preset[:20]!r}: choose one of {', '.join(PRESETS)}", "preset"
        )
    mode = str(data.get("mode") or ("effect" if data.get("effect") else "generate"))
    if mode not in ("generate", "effect"):
        raise PlaygroundError("mode must be 'generate' or 'effect'", "mode")
    base = PRESETS[preset]
    values: dict[str, int] = {}
    for rule in RULES:
        if reset_weights:
            continue
        values[rule] = _int(
            data, rule, 0, MAX_WEIGHT, base.weight(rule), f"the weight of {RULE_TITLES[rule]}"
        )
    for name, (low, high) in SIZE_LIMITS.items():
        values[name] = _int(data, name, low, high, getattr(base, name), SIZE_TITLES[name])
    settings = dataclasses.replace(
        base, **values, buffered=_flag(data, "buffered", "buffered channels")
    )
    try:
        settings.validate()
    except ValueError as err:
        raise PlaygroundError(str(err), "weights") from None
    effect: str | None = None
    if mode == "effect":
        effect = effects_mod.to_text(parse_effect_text(str(data.get("effect") or "")))
    return State(seed, preset, settings, effect, target, reps, pct)

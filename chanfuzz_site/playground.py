"""Playground services: the pure(ish) functions the playground views call.

The playground shows one program at a time. Its whole state is small and lives
in the URL (`State` ⇄ query string), so a link restores it exactly:

    /?seed=42&preset=A                 a generated program (preset A, seed 42)
    /?seed=42&preset=F&g_select=3      … with one weight or size overridden
    /?seed=7&effect=Spawn(Put(c1))…    a program synthesised from a given effect
    &target=go-1.22.12-installed       the toolchain "Run" uses (default: newest Go)
    &reps=10                           repetitions of the program body (default 10)
    &pct=3                             schedule perturbation: yields before 2 steps (default none)
    &buffered=1                        beyond the paper: buffered channels, close and range
                                       (generated programs only; absent: off, as in older links)

The query string is canonical (fixed key order, only settings that differ from
the preset, the effect in its ASCII text form), so equal states give equal links.
A program is determined by the state alone: generated with `generate_program`
or synthesised with `synthesize(parse(effect), Random(seed))` (the same builders
campaigns use), and rendered with the render seed of its permalink id, so the
sources here are byte for byte those of `/p/<id>`.

Everything a user sends is bounded (see `LIMITS`): bad input raises
`PlaygroundError`, which views turn into a 400 with the message.
"""

from __future__ import annotations

import dataclasses
import json
import time
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any
from urllib.parse import urlencode

from django.urls import reverse
from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexer import RegexLexer
from pygments.lexers import get_lexer_by_name
from pygments.token import (
    Comment,
    Keyword,
    Name,
    Number,
    Operator,
    Punctuation,
    Text,
    Whitespace,
)

from chanfuzz_site.beyond_paper import double_close_position, line_column, pointer
from chanfuzz_site.bounded_check import bounded_check
from chanfuzz_site.generate_bounded import GenerationTooSlow, bounded_generate
from generator import effects as effects_mod
from generator.effects import Choice, Effect, EffectSyntaxError, Range, Select, Seq, Spawn
from generator.render import MAX_PCT_DEPTH, UnsupportedProgram
from generator.settings import (
    MAX_WEIGHT,
    PRESETS,
    RULE_TITLES,
    RULES,
    SIZE_LIMITS,
    GeneratorSettings,
)
from generator.termination import (
    ChannelEvent,
    ChoiceEvent,
    Counterexample,
    DefaultEvent,
    SpawnEvent,
    SyncEvent,
    Verdict,
)
from runners.campaigns.models import Execution, Program, Reproduction
from runners.campaigns.programs import (
    BuiltProgram,
    build_from_effect,
    built_from,
    render_seed_for,
    store_program,
)
from runners.campaigns.services import reproduce
from runners.engine.toolchains import Toolchain, installed_toolchains
from runners.targets import all_targets, get_target

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


# ---------------------------------------------------------------- programs


def build(state: State) -> BuiltProgram:
    """The program of a state (the same builders campaigns use, so ids agree).
    PlaygroundError when generating it takes more than GENERATE_TIME_LIMIT_S."""
    if state.effect is not None:
        return build_from_effect(state.effect, state.seed)
    built = _generated(state.seed, state.settings)
    if isinstance(built, str):
        # A new exception each time: one kept in the cache and raised again would gather
        # every request's frames in its traceback.
        raise PlaygroundError(built, field="sizes")
    return built


@lru_cache(maxsize=128)
def _generated(seed: int, settings: GeneratorSettings) -> BuiltProgram | str:
    """The generated program of `seed`, or why there is none: the page and each of its
    code tabs build the same program, and a program too slow to generate is refused
    again without another child spending the limit on it."""
    try:
        generated = bounded_generate(seed, settings, budget_s=GENERATE_TIME_LIMIT_S)
    except GenerationTooSlow as slow:
        return (
            f"{slow} (the playground's limit): make the sizes smaller, or generate without "
            "buffered channels, close and range, whose proof takes longest"
        )
    return built_from(generated, seed, settings)


def pretty_effect(effect: Effect, width: int = 64) -> str:
    """The effect with ⊕/ε, broken over lines where it does not fit `width`.

    A sequence puts one item per line, a spawn or a range indents its body, a
    select puts one case per line. The result parses back to the same effect (SPEC §10:
    whitespace is free).
    """

    def flat(e: Effect) -> str:
        return effects_mod.to_text(e, unicode=True)

    def show(e: Effect, indent: int) -> str:
        text = flat(e)
        if indent + len(text) <= width:
            return text
        pad = "\n" + " " * indent
        if isinstance(e, Seq):
            parts = [
                "(" + show(i, indent + 1) + ")" if isinstance(i, Choice) else show(i, indent)
                for i in e.items
            ]
            return (" ;" + pad).join(parts)
        if isinstance(e, Spawn):
            inner = " " * (indent + 2)
            return "Spawn(\n" + inner + show(e.body, indent + 2) + pad + ")"
        if isinstance(e, Range):
            inner = " " * (indent + 2)
            return f"Range({e.chan},\n" + inner + show(e.body, indent + 2) + pad + ")"
        if isinstance(e, Choice):
            return (pad + "+ ").join(show(o, indent + 2) for o in e.options)
        if isinstance(e, Select):
            cases = []
            for c in e.cases:
                name = "SelGet" if c.direction == "get" else "SelPut"
                head = f"{name}({c.chan}, "
                body = flat(c.body)
                if indent + len(head) + len(body) + 1 <= width:
                    cases.append(f"{head}{body})")
                else:
                    inner = " " * (indent + 2)
                    cases.append(f"{head}\n{inner}{show(c.body, indent + 2)})")
            if e.default is not None:
                body = flat(e.default)
                if indent + len("Default(") + len(body) + 1 <= width:
                    cases.append(f"Default({body})")
                else:
                    inner = " " * (indent + 2)
                    cases.append(f"Default(\n{inner}{show(e.default, indent + 2)})")
            return (pad + "⊕ ").join(cases)
        return text

    return show(effect, 0)


class EffectLexer(RegexLexer):
    """Effects in the text syntax of SPEC §10."""

    name = "chanfuzz effect"
    tokens = {
        "root": [
            (r"\s+", Whitespace),
            (r"\b(Spawn|Range)\b", Keyword),
            (r"\b(SelGet|SelPut|Default)\b", Keyword.Reserved),
            (r"\b(Get|Put|Chan|Close)\b", Name.Builtin),
            (r"[0-9]+", Number),  # a capacity: Chan(c, k)
            (r"\b(eps)\b|ε", Keyword.Constant),
            (r"\(\s*\+\s*\)|⊕|\+", Operator),
            (r"[();,]", Punctuation),
            (r"[A-Za-z_][A-Za-z0-9_]*", Name.Variable),
            (r".", Text),
        ]
    }


class LambdaChanLexer(RegexLexer):
    """λ_chan as `generator.lambda_chan.to_text` prints it."""

    name = "lambda_chan"
    tokens = {
        "root": [
            (r"\s+", Whitespace),
            (r"//.*?$", Comment),
            (r"\b(let|in|if|then|else|select|case|spawn|chan|close|for|do)\b", Keyword),
            (r"\b(true|false|not|and|or)\b", Keyword.Constant),
            (r"<-|=>|==|!=|<=|>=|[=<>+*-]", Operator),
            (r"\(\)|[(){};,\[\]]", Punctuation),  # chan[k]: a buffered channel
            (r"[0-9]+", Name.Constant),
            (r"[A-Za-z_][A-Za-z0-9_]*", Name),
            (r".", Text),
        ]
    }


# The playground's own notations; a target's code uses the lexer its target declares.
_LEXERS = {"effect": EffectLexer, "lambda": LambdaChanLexer}
_FORMATTER = HtmlFormatter(cssclass="hl", wrapcode=True)


@lru_cache(maxsize=256)
def highlight_html(text: str, kind: str) -> str:
    """Pygments HTML (`<div class="hl"><pre><code>…`) of `text`; styles in playground.css."""
    lexer = _LEXERS[kind]() if kind in _LEXERS else get_lexer_by_name(get_target(kind).lexer)
    return highlight(text, lexer, _FORMATTER)


def render_options(language: str, target: Toolchain | None) -> dict[str, Any]:
    """Options for rendering `language`: its target's, with the chosen toolchain's if it is of
    that language, else the newest installed one's (Kotlin's package layout depends on the
    release)."""
    if target is None or target.language != language:
        target = next((t for t in targets() if t.language == language), None)
    return get_target(language).source_options(target)


@dataclass(frozen=True)
class Source:
    language: str
    title: str
    text: str  # "" when the language cannot express the program
    html: str  # "" too when its tab fetches the markup when first shown (`code_url`)
    problem: str = ""
    code_url: str = ""


def sources(built: BuiltProgram, state: State, *, highlight: int | None = None) -> list[Source]:
    """The program in every language, rendered as on its permalink page; highlighted are all
    of them, or with `highlight` = n only the nth that renders (the others are left for
    their tabs to fetch: `source`)."""
    target = find_target(state.target) if state.target else None
    seed = render_seed_for(built.id)
    out = []
    for spec in all_targets():
        lang, title = spec.name, spec.title
        options = render_options(lang, target)
        try:
            options.update(spec.pct_options(state.pct))
        except ValueError as err:  # Flix cannot yield
            out.append(Source(lang, title, "", "", str(err)))
            continue
        try:
            if not spec.supports(built.program, **options):
                raise UnsupportedProgram(f"{title} cannot express this program")
            text = spec.render(built.program, seed=seed, repetitions=state.reps, **options)
        except UnsupportedProgram as err:
            out.append(Source(lang, title, "", "", str(err)))
            continue
        rendered = sum(1 for s in out if s.text)
        if highlight is None or rendered == highlight:
            out.append(Source(lang, title, text, highlight_html(text, lang)))
        else:
            code_url = f"{reverse('playground_code', args=[lang])}?{state.query()}"
            out.append(Source(lang, title, text, "", code_url=code_url))
    return out


def source(state: State, language: str) -> Source:
    """One language's source of the state's program, highlighted (a code tab's fetch).
    LookupError for a language that is not a target's."""
    spec = get_target(language)
    built = build(state)
    (found,) = [s for s in sources(built, state) if s.language == spec.name]
    return found


# ---------------------------------------------------------------- checking


@dataclass(frozen=True)
class TraceCell:
    text: str
    # spawn, start, choice, put, get, close, closed (a get from a closed channel),
    # blocked, idle, "" (lane not started)
    kind: str


@dataclass(frozen=True)
class TraceRow:
    step: str  # "1", "2", …, "stuck", or "then" (what goes wrong, in `note`)
    cells: tuple[TraceCell, ...]
    note: str = ""  # a line across every lane: the counterexample's problem


@dataclass(frozen=True)
class Trace:
    """A counterexample as lanes: one column per process, one row per event."""

    processes: tuple[str, ...]
    rows: tuple[TraceRow, ...]
    text: str  # Counterexample.describe(), for copying


def _case(case: int | None) -> str:
    return "" if case is None else f" (select case {case + 1})"


def _channel_cell(e: ChannelEvent) -> TraceCell:
    """A step beyond the paper's rendezvous, in the lane of the one process that takes it."""
    via = _case(e.case)
    return {
        "buffer-put": TraceCell(f"Put({e.chan}) into its buffer{via}", "put"),
        "buffer-get": TraceCell(f"Get({e.chan}) from its buffer{via}", "get"),
        "closed-get": TraceCell(f"Get({e.chan}): closed, empty{via}", "closed"),
        "close": TraceCell(f"Close({e.chan})", "close"),
    }[e.action]


def trace_table(cx: Counterexample) -> Trace:
    """Lay a counterexample out as a table: who does what at each step, then who is stuck."""
    lanes = cx.processes()
    column = {p: i for i, p in enumerate(lanes)}
    alive = {"main"}
    rows: list[TraceRow] = []

    def idle() -> list[TraceCell]:
        return [TraceCell("", "idle" if p in alive else "") for p in lanes]

    for n, e in enumerate(cx.events[:MAX_TRACE_STEPS], 1):
        cells = idle()
        if isinstance(e, SpawnEvent):
            cells[column[e.parent]] = TraceCell(f"spawns {e.child}", "spawn")
            cells[column[e.child]] = TraceCell(f"starts (spawned by {e.parent})", "start")
            alive.add(e.child)
        elif isinstance(e, ChoiceEvent):
            cells[column[e.process]] = TraceCell(
                f"takes option {e.option + 1} of {e.options} (+)", "choice"
            )
        elif isinstance(e, SyncEvent):
            cells[column[e.putter]] = TraceCell(
                f"Put({e.chan}) → {e.getter}{_case(e.putter_case)}", "put"
            )
            cells[column[e.getter]] = TraceCell(
                f"Get({e.chan}) ← {e.putter}{_case(e.getter_case)}", "get"
            )
        elif isinstance(e, ChannelEvent):
            cells[column[e.process]] = _channel_cell(e)
        elif isinstance(e, DefaultEvent):
            cells[column[e.process]] = TraceCell("takes the select's default", "choice")
        rows.append(TraceRow(str(n), tuple(cells)))
    if len(cx.events) > MAX_TRACE_STEPS:
        rows.append(TraceRow("…", tuple(TraceCell("", "") for _ in lanes)))
        rows.append(
            TraceRow(f"{len(cx.events) - MAX_TRACE_STEPS} more steps",
                     tuple(TraceCell("", "") for _ in lanes))
        )  # fmt: skip
    if cx.problem:
        # Beyond the paper an execution can go wrong without a process stuck (a send on a
        # closed channel, a second close, a message left over, a loop): the last line.
        rows.append(TraceRow("then", tuple(TraceCell("", "") for _ in lanes), cx.problem))
    if cx.blocked or not cx.problem:
        stuck = [TraceCell("not stuck", "idle" if p in alive else "") for p in lanes]
        for b in cx.blocked:
            where = f"stuck at {b.waits_for}"
            if b.channels:
                where += f" — needs a partner on {', '.join(b.channels)}"
            stuck[column[b.process]] = TraceCell(where, "blocked")
        rows.append(TraceRow("stuck", tuple(stuck)))
    return Trace(tuple(lanes), tuple(rows), cx.describe(MAX_TRACE_STEPS))


@dataclass(frozen=True)
class Check:
    verdict: Verdict
    trace: Trace | None
    elapsed_ms: float
    # A double close is an error in the effect as written: where it is, as a syntax
    # error says it ("line 1, column 22"), and the line with a caret under that Close.
    where: str = ""
    pointer: str = ""

    @property
    def problem(self) -> str:
        """How an execution goes wrong other than by a deadlock (beyond the paper), or ""."""
        cx = self.verdict.counterexample
        return cx.problem if cx is not None else ""

    @property
    def label(self) -> str:
        if self.verdict.terminating is True:
            return "terminates"
        if self.verdict.terminating is False:
            return "rejected" if self.problem else "can deadlock"
        by = self.verdict.undecided_by
        return f"undecided ({by})" if by else "undecided"


def check(effect: Effect, text: str = "") -> Check:
    """Run the termination checker within the playground's state and time limits, in a
    child process (never in the request's thread). `text`, the effect as the user sees
    it, is where a double close is pointed at."""
    start = time.perf_counter()
    verdict = bounded_check(effect, max_states=CHECK_MAX_STATES, time_limit_s=CHECK_TIME_LIMIT_S)
    elapsed = (time.perf_counter() - start) * 1000
    cx = verdict.counterexample
    trace = trace_table(cx) if cx else None
    at = double_close_position(text, cx) if cx and text else None
    if at is None:
        return Check(verdict, trace, elapsed)
    line, column = line_column(text, at)
    return Check(verdict, trace, elapsed, f"line {line}, column {column}", pointer(text, at))


# ---------------------------------------------------------------- the view model


@dataclass(frozen=True)
class ProgramView:
    """What the playground shows for one state."""

    state: State
    program_id: str
    effect_text: str  # canonical ASCII text
    effect_pretty: str
    effect_html: str
    lambda_text: str
    lambda_html: str
    sources: list[Source]
    check: Check
    fired: tuple[str, ...]
    channels: int
    spawns: int
    elapsed_ms: float

    @property
    def state_json(self) -> str:
        """The canonical parameters as JSON, for `hx-vals` of the run and share buttons."""
        return json.dumps(self.state.params())


def program_view(state: State, typed: str | None = None) -> ProgramView:
    """Build, check, render and highlight the program of `state`.

    `typed` is the effect as the user typed it (it parses to the state's effect): a
    double close is pointed at there, else in the effect as the editor shows it."""
    start = time.perf_counter()
    built = build(state)
    fired = built.fired
    pretty = pretty_effect(built.effect)
    shown = typed if state.effect is not None and typed and typed.strip() else pretty
    lam = built.lambda_text
    return ProgramView(
        state=state,
        program_id=built.id,
        effect_text=effects_mod.to_text(built.effect),
        effect_pretty=pretty,
        effect_html=highlight_html(pretty, "effect"),
        lambda_text=lam,
        lambda_html=highlight_html(lam, "lambda"),
        # Highlighting a dozen sources was most of a generate's time: the first tab comes
        # highlighted, the others fetch theirs when first shown.
        sources=sources(built, state, highlight=0),
        check=check(built.effect, shown),
        fired=tuple(RULE_TITLES.get(f, f) for f in fired),
        channels=len(effects_mod.channels(built.effect)),
        spawns=effects_mod.count_spawns(built.effect),
        elapsed_ms=(time.perf_counter() - start) * 1000,
    )


# ---------------------------------------------------------------- sharing and running


def share(state: State) -> Program:
    """Store the state's program (once) so that its permalink `/p/<id>` exists."""
    return store_program(build(state))


class RunUnavailable(RuntimeError):
    """The queue cannot take a run now (Redis down); the message says so."""


def start_run(state: State) -> Reproduction:
    """Store the program and queue one run of it on the state's target (an RQ job)."""
    if not state.target:
        raise PlaygroundError("no toolchain is installed to run programs on", "target")
    target = find_target(state.target)
    program = share(state)
    try:
        return reproduce(
            program=program,
            language=target.language,
            version=target.id,
            times=1,
            timeout_s=RUN_TIMEOUT_S,
            repetitions=state.reps,
            pct_depth=state.pct,
        )
    except ValueError as err:
        raise PlaygroundError(str(err), "target") from None
    except Exception as err:  # redis.exceptions.ConnectionError and kin, from the enqueue
        if type(err).__module__.startswith("redis"):
            raise RunUnavailable(
                f"the run queue is not reachable ({err}); try again later"
            ) from err
        raise


def program_path(pid: str) -> str:
    """The permalink of a stored program (the campaign UI's page, `/p/<id>`)."""
    from django.urls import NoReverseMatch, reverse

    try:
        return reverse("program", kwargs={"pid": pid})
    except NoReverseMatch:
        return f"/p/{pid}"


def _clip(text: str) -> str:
    if len(text) <= MAX_SHOWN_OUTPUT:
        return text
    return text[:MAX_SHOWN_OUTPUT] + f"\n… [{len(text) - MAX_SHOWN_OUTPUT} more characters]"


@dataclass(frozen=True)
class RunView:
    reproduction: Reproduction
    execution: Execution | None
    done: bool
    waited_s: float
    stdout: str
    stderr: str
    dump: str

    @property
    def outcome(self) -> str:
        if self.execution is not None:
            return self.execution.outcome
        return self.reproduction.status


def run_view(reproduction_id: int) -> RunView:
    """The state of a playground run; raises Reproduction.DoesNotExist."""
    repro = Reproduction.objects.select_related("program").get(pk=reproduction_id)
    execution = repro.executions.order_by("index").first()
    done = repro.status in (Reproduction.Status.DONE, Reproduction.Status.FAILED)
    end = repro.finished_at or _now()
    waited = (end - repro.created_at).total_seconds()
    return RunView(
        repro,
        execution,
        done,
        waited,
        _clip(execution.stdout) if execution else "",
        _clip(execution.stderr) if execution else "",
        _clip(execution.dump) if execution else "",
    )


def _now():  # noqa: ANN202 - a timezone-aware datetime
    from django.utils import timezone

    return timezone.now()


def controls(state: State) -> dict[str, Any]:
    """What the control panel needs: presets, weights, sizes and targets with current values."""
    return {
        "presets": [
            (name, " ".join(str(p.weight(r)) for r in RULES[1:8])) for name, p in PRESETS.items()
        ],
        "weights": [(r, RULE_TITLES[r], state.settings.weight(r)) for r in RULES],
        "sizes": [
            (n, SIZE_TITLES[n], getattr(state.settings, n), low, high)
            for n, (low, high) in SIZE_LIMITS.items()
        ],
        "targets": [(t.id, f"{t.language} {t.version} ({t.origin})") for t in targets()],
        "buffered": state.settings.buffered,
    }

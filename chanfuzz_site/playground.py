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
`PlaygroundError`, which views turn into a 400 with the message. The state, its
parsing and those bounds are chanfuzz_site.playground_state's; this module makes, checks,
shows, shares and runs the program a state determines.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

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

from chanfuzz_site import playground_state as ps
from chanfuzz_site.beyond_paper import double_close_position, line_column, pointer
from chanfuzz_site.bounded_check import bounded_check
from chanfuzz_site.generate_bounded import GenerationTooSlow, bounded_generate
from chanfuzz_site.playground_state import PlaygroundError, State, find_target, targets
from generator import effects as effects_mod
from generator.effects import Choice, Effect, Range, Select, Seq, Spawn
from generator.render import UnsupportedProgram
from generator.settings import (
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
from runners.engine.toolchains import Toolchain
from runners.targets import all_targets, get_target

# ---------------------------------------------------------------- programs


def build(state: State) -> BuiltProgram:
    """The program of a state (the same builders campaigns use, so ids agree).
    PlaygroundError when generating it takes more than ps.GENERATE_TIME_LIMIT_S."""
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
        generated = bounded_generate(seed, settings, budget_s=ps.GENERATE_TIME_LIMIT_S)
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

    for n, e in enumerate(cx.events[: ps.MAX_TRACE_STEPS], 1):
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
    if len(cx.events) > ps.MAX_TRACE_STEPS:
        rows.append(TraceRow("…", tuple(TraceCell("", "") for _ in lanes)))
        rows.append(
            TraceRow(f"{len(cx.events) - ps.MAX_TRACE_STEPS} more steps",
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
    return Trace(tuple(lanes), tuple(rows), cx.describe(ps.MAX_TRACE_STEPS))


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
    verdict = bounded_check(
        effect, max_states=ps.CHECK_MAX_STATES, time_limit_s=ps.CHECK_TIME_LIMIT_S
    )
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
            timeout_s=ps.RUN_TIMEOUT_S,
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
    if len(text) <= ps.MAX_SHOWN_OUTPUT:
        return text
    return text[: ps.MAX_SHOWN_OUTPUT] + f"\n… [{len(text) - ps.MAX_SHOWN_OUTPUT} more characters]"


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
            (n, ps.SIZE_TITLES[n], getattr(state.settings, n), low, high)
            for n, (low, high) in SIZE_LIMITS.items()
        ],
        "targets": [(t.id, f"{t.language} {t.version} ({t.origin})") for t in targets()],
        "buffered": state.settings.buffered,
    }

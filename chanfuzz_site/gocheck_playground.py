"""The playground's "Check Go code" tab: the services its views call.

A user pastes one `package main` program or test file; `check` runs `runners.gocheck.check`
on it (in a child process under the playground's budgets:
`chanfuzz_site.gocheck_bounded`) and lays out what it found for the page: the
verdict, Go's error for a program that does not load, each finding's trace in
the effect checker's lanes (a column per goroutine, a row per step, with source
lines), the goroutines blocked at the end, the unsupported constructs, and the
λ_chan effect as an "Open as effect" link into the effect editor.

Permalinks are content-hashed like the playground's programs: a shared source
is stored once as `<id>.go` under `GOCHECK_SHARE_DIR` (default
`<CHANFUZZ_VAR_DIR>/gocheck/shared/`), its id 12 base32 characters of the sha256
of the source (line ends normalised), and `/playground/go/<id>/` shows it again
and checks it again.

Budgets (Django settings, all optional; the defaults are the effect checker's):
    GOCHECK_MAX_STATES         states the model checker may visit (100,000)
    GOCHECK_TIME_LIMIT_S       seconds it may search (5)
    GOCHECK_FRONTEND_S         seconds Go's front end may take, first build of the helper
                               included (30)
    GOCHECK_MAX_SOURCE_CHARS   longest source accepted (20,000 characters)
    GOCHECK_MODULES            the only modules a source may import from outside the
                               standard library, fetched through the Go module proxy
                               (golang.org/x/sync: errgroup, semaphore, singleflight);
                               a public page must not fetch whatever a paste names
"""

from __future__ import annotations

import base64
import hashlib
import os
import re
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings
from django.urls import reverse

from chanfuzz_site import playground as pg
from chanfuzz_site import playground_state as ps
from chanfuzz_site.gocheck_bounded import GoCheckUnavailable, GoOutcome, bounded_gocheck
from generator import effects as effects_mod
from generator.gocheck.explore import Finding, Step

DEFAULT_MAX_SOURCE_CHARS = 20_000
DEFAULT_FRONTEND_S = 30.0
DEFAULT_MODULES = ("golang.org/x/sync",)

VERDICTS = ("ok", "global-deadlock", "partial-deadlock", "channel-safety", "unsupported",
            "undecided", "bad-input")  # fmt: skip

# What the badge says and how it is styled (gocheck.css), per verdict.
VERDICT_LABELS = {
    "ok": "ok",
    "global-deadlock": "global deadlock",
    "partial-deadlock": "partial deadlock",
    "channel-safety": "channel safety",
    "unsupported": "unsupported",
    "undecided": "undecided",
    "bad-input": "bad input",
}
VERDICT_CLASSES = {
    "ok": "ok",
    "global-deadlock": "bad",
    "partial-deadlock": "bad",
    "channel-safety": "bad",
    "unsupported": "unknown",
    "undecided": "unknown",
    "bad-input": "input",
}
VERDICT_SENTENCES = {
    "ok": (
        "No execution deadlocks, leaks a goroutine or misuses a channel: every goroutine "
        "finishes on every schedule the checker explored (all of them)."
    ),
    "global-deadlock": (
        "Some execution blocks every goroutine, main included: Go stops it "
        "with “all goroutines are asleep - deadlock!”."
    ),
    "partial-deadlock": (
        "Some execution leaves a goroutine blocked for ever while main "
        "returns: a goroutine leak, which Go does not report."
    ),
    "channel-safety": (
        "Some execution sends on a closed channel or closes a closed or nil channel: Go panics."
    ),
    "unsupported": (
        "The program uses something the checker does not model, so it gives no "
        "verdict rather than a wrong one."
    ),
    "undecided": "The checker spent its budget before it explored every execution.",
    "bad-input": "This is not a Go program the checker can load: Go's own front end says why.",
}

SAMPLE_PROGRAM = """\
package main

// A server answers one ping with a pong; a second client, sneaking in,
// may take that pong and then ping again with nobody left to answer.
func main() {
	ping := make(chan string)
	pong := make(chan string)
	go func() { // the server
		msg := <-ping
		pong <- msg + "!"
	}()
	go func() { // the other client
		<-pong
		ping <- "again"
	}()
	ping <- "hello"
	println(<-pong)
}
"""

_ID = re.compile(r"[a-z2-7]{12}")


class GoCheckError(ValueError):
    """A source the tab refuses before checking it; the message says why."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


# ---------------------------------------------------------------- budgets and input


def limits() -> dict[str, float | int]:
    return {
        "max_states": int(getattr(settings, "GOCHECK_MAX_STATES", ps.CHECK_MAX_STATES)),
        "time_limit_s": float(getattr(settings, "GOCHECK_TIME_LIMIT_S", ps.CHECK_TIME_LIMIT_S)),
        "frontend_s": float(getattr(settings, "GOCHECK_FRONTEND_S", DEFAULT_FRONTEND_S)),
        "source_chars": int(getattr(settings, "GOCHECK_MAX_SOURCE_CHARS",
                                    DEFAULT_MAX_SOURCE_CHARS)),
    }  # fmt: skip


def clean_source(raw: str | None) -> str:
    """The source as checked and stored (line ends normalised); GoCheckError if refused."""
    text = (raw or "").replace("\r\n", "\n").replace("\r", "\n")
    most = limits()["source_chars"]
    if len(text) > most:
        raise GoCheckError(
            f"the program is {len(text):,} characters long; the playground checks at most {most:,}"
        )
    if not text.strip():
        raise GoCheckError("the program is empty: paste one `package main` Go file or test file")
    if "\x00" in text:
        raise GoCheckError("the program contains a NUL character")
    return text


# ---------------------------------------------------------------- permalinks


def source_id(source: str) -> str:
    """The permalink id: 12 base32 characters of the sha256 of the source (as programs')."""
    digest = hashlib.sha256(source.encode()).digest()
    return base64.b32encode(digest).decode().lower()[:12]


def share_dir() -> Path:
    configured = getattr(settings, "GOCHECK_SHARE_DIR", None)
    return Path(configured) if configured else Path(settings.VAR_DIR) / "gocheck" / "shared"


def store_source(source: str) -> str:
    """Store a (cleaned) source once under its id; returns the id."""
    sid = source_id(source)
    folder = share_dir()
    target = folder / f"{sid}.go"
    if target.exists():
        return sid
    folder.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{sid}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as out:
            out.write(source)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return sid


def load_source(sid: str) -> str | None:
    """The stored source of a permalink id, None if there is none."""
    if not _ID.fullmatch(sid):
        return None
    try:
        return (share_dir() / f"{sid}.go").read_text(encoding="utf-8")
    except (FileNotFoundError, UnicodeDecodeError):
        return None


def permalink_path(sid: str) -> str:
    return reverse("playground_go_permalink", kwargs={"sid": sid})


# ---------------------------------------------------------------- lanes


def _kind(text: str) -> str:
    """The lane cell's style (the effect checker's classes where they mean the same)."""
    if text.startswith("blocked"):
        return "blocked"
    if text.startswith("send"):
        return "put"
    if text.startswith("receive"):
        return "get"
    if text.startswith(("close", "cancel")):
        return "spawn"
    if text.startswith(("branch", "select default")):
        return "choice"
    return "start"


def _cell(step: Step) -> pg.TraceCell:
    return pg.TraceCell(f"{step.where}{step.text}", _kind(step.text))


def _is_rendezvous(a: Step, b: Step) -> bool:
    """An unbuffered send and the receive it met: the checker reports them one after the
    other; the lanes show them in one row, as the effect checker shows a Put and its Get."""
    if a.goroutine == b.goroutine or "(buffered)" in a.text or "(buffered)" in b.text:
        return False
    return (a.text.startswith("send on ") and not a.text.startswith("send on closed")
            and b.text == "receive from " + a.text[len("send on "):])  # fmt: skip


def lanes(finding: Finding) -> pg.Trace:
    """A finding as the effect checker's lanes: a column per goroutine (main first, the
    others as they appear), a row per step, then the goroutines blocked at the end."""
    order: list[str] = ["main"]
    for step in (*finding.trace, *finding.stuck):
        if step.goroutine not in order:
            order.append(step.goroutine)
    column = {g: i for i, g in enumerate(order)}
    seen = {"main"}
    rows: list[pg.TraceRow] = []
    steps = list(finding.trace)
    i = n = 0
    while i < len(steps) and n < ps.MAX_TRACE_STEPS:
        group = [steps[i]]
        if i + 1 < len(steps) and _is_rendezvous(steps[i], steps[i + 1]):
            group.append(steps[i + 1])
        i += len(group)
        n += 1
        seen.update(s.goroutine for s in group)
        cells = [pg.TraceCell("", "idle" if g in seen else "") for g in order]
        for s in group:
            cells[column[s.goroutine]] = _cell(s)
        rows.append(pg.TraceRow(str(n), tuple(cells)))
    if i < len(steps):
        blank = tuple(pg.TraceCell("", "") for _ in order)
        rows.append(pg.TraceRow("…", blank))
        rows.append(pg.TraceRow(f"{len(steps) - i} more steps", blank))
    if finding.stuck:
        end = [pg.TraceCell("not blocked", "idle") for _ in order]
        for s in finding.stuck:
            end[column[s.goroutine]] = _cell(s)
        rows.append(pg.TraceRow("stuck", tuple(end)))
    text = [f"{finding.kind}: {finding.message}"]
    text += [f"  {s.goroutine}: {s.where}{s.text}" for s in finding.trace]
    if finding.stuck:
        text.append("at the end:")
        text += [f"  {s.goroutine}: {s.where}{s.text}" for s in finding.stuck]
    return pg.Trace(tuple(order), tuple(rows), "\n".join(text))


# ---------------------------------------------------------------- the view model


@dataclass(frozen=True)
class ShownFinding:
    index: int
    kind: str
    message: str
    trace: pg.Trace
    stuck: tuple[Step, ...]


@dataclass(frozen=True)
class GoCheckView:
    """What the tab shows for one check of one source."""

    source: str
    outcome: GoOutcome
    findings: tuple[ShownFinding, ...]
    unsupported: tuple[tuple[str, int], ...]
    effect_url: str  # "" when there is no effect to open
    effect_reason: str
    elapsed_ms: float

    @property
    def verdict(self) -> str:
        return self.outcome.verdict

    @property
    def label(self) -> str:
        return VERDICT_LABELS[self.verdict]

    @property
    def badge_class(self) -> str:
        return VERDICT_CLASSES[self.verdict]

    @property
    def sentence(self) -> str:
        return VERDICT_SENTENCES[self.verdict]

    @property
    def states(self) -> int:
        return self.outcome.result.states if self.outcome.result else 0

    @property
    def seconds(self) -> float:
        return self.outcome.result.seconds if self.outcome.result else 0.0

    @property
    def notes(self) -> tuple[str, ...]:
        return self.outcome.result.notes if self.outcome.result else ()

    @property
    def report(self) -> str:
        return "\n".join(self.outcome.report)

    @property
    def source_id(self) -> str:
        return source_id(self.source)


def effect_link(effect: str | None, reason: str) -> tuple[str, str]:
    """The effect editor's URL with `effect` filled in, or "" and why there is none."""
    if effect is None:
        return "", reason or "the checker gave no effect"
    try:
        canonical = effects_mod.to_text(ps.parse_effect_text(effect))
    except ps.PlaygroundError as err:
        return "", f"the effect does not fit the effect editor: {err.message}"
    state = ps.State(seed=ps.DEFAULT_SEED, effect=canonical, target=ps.default_target())
    return f"{reverse('playground')}?{state.query()}", ""


def check(source: str) -> GoCheckView:
    """Check a cleaned source within the playground's budgets, in a child process.

    Raises GoCheckUnavailable when the checker cannot run (no Go, say)."""
    budget = limits()
    start = time.perf_counter()
    outcome = bounded_gocheck(
        source,
        max_states=int(budget["max_states"]),
        time_limit_s=float(budget["time_limit_s"]),
        frontend_s=float(budget["frontend_s"]),
        modules=tuple(getattr(settings, "GOCHECK_MODULES", DEFAULT_MODULES)),
    )
    elapsed = (time.perf_counter() - start) * 1000
    result = outcome.result
    findings = tuple(
        ShownFinding(n, f.kind, f.message, lanes(f), f.stuck)
        for n, f in enumerate(result.findings if result else (), 1)
    )
    url, why = effect_link(outcome.effect, outcome.effect_reason)
    return GoCheckView(
        source=source,
        outcome=outcome,
        findings=findings,
        unsupported=result.unsupported if result else (),
        effect_url=url,
        effect_reason=why,
        elapsed_ms=elapsed,
    )


__all__ = [
    "SAMPLE_PROGRAM",
    "GoCheckError",
    "GoCheckUnavailable",
    "GoCheckView",
    "check",
    "clean_source",
    "effect_link",
    "lanes",
    "limits",
    "load_source",
    "permalink_path",
    "source_id",
    "store_source",
]

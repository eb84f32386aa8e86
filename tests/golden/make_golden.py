"""Write tests/golden/renders.json: hashes of generated programs rendered for every target.

Run once before a change that must keep behaviour (``python -m tests.golden.make_golden``);
``test_golden_renders.py`` then checks that the same seeds render byte for byte the same
sources. Each entry is the first 16 hex digits of the source's SHA-256: enough to tell
any change, small enough to keep in git.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path

from generator.capabilities import FULL, Capabilities
from generator.render.rust import FLAVOURS as RUST_FLAVOURS

GOLDEN = Path(__file__).with_name("renders.json")
SEEDS = range(200)
HEURISTICS = "ABCDEF"
BATCH = 50
REPETITIONS = 10


@dataclass(frozen=True)
class Variant:
    """A renderer with its options, over the generated programs of `seeds` (`buffered`:
    generated with buffered channels, close and range, issue #15) and what the target's
    `capabilities` allow, as campaigns generate them."""

    lang: str
    options: Mapping[str, object] = field(default_factory=dict)
    seeds: range = SEEDS
    buffered: bool = False
    capabilities: Capabilities = FULL


# Every target (and option variant a toolchain selects) whose output must not move.
VARIANTS: dict[str, Variant] = {
    "go": Variant("go"),
    "crystal": Variant("crystal"),
    "kotlin-modern": Variant(
        "kotlin", {"package_layout": "modern", "duplicate_clauses": "keep", "threads": 8}
    ),
    "kotlin-merge": Variant(
        "kotlin", {"package_layout": "modern", "duplicate_clauses": "merge", "threads": 8}
    ),
    "kotlin-experimental": Variant(
        "kotlin", {"package_layout": "experimental", "duplicate_clauses": "keep", "threads": 8}
    ),
}

# Added with the renderers' mutation score (docs/testing.md): the targets and options the
# set above leaves out, on fewer seeds each. A program a renderer refuses is recorded by
# its reason, so the refusals are pinned as well.
MORE_SEEDS = range(40)
WITH_DEFAULT = Capabilities(buffered=True, close=True, select_default=True)
NO_CLOSE = Capabilities(buffered=True, close=False)  # Rust and Racket; Clojure's nil puts
VARIANTS |= {
    **{f"rust-{f}": Variant("rust", {"flavour": f}, MORE_SEEDS) for f in RUST_FLAVOURS},
    "rust-std-no-select": Variant(
        "rust", {"flavour": "std"}, MORE_SEEDS, True, Capabilities(False, False, True)
    ),
    "flix-receive-selects": Variant(
        "flix", {"flix_version": "current"}, MORE_SEEDS, capabilities=Capabilities(True, False)
    ),
    "flix-0.5-receive-selects": Variant(
        "flix", {"flix_version": "0.5"}, MORE_SEEDS, capabilities=Capabilities(True, False)
    ),
    "clojure-go": Variant("clojure", {"flavour": "go"}, MORE_SEEDS),
    "clojure-thread": Variant("clojure", {"flavour": "thread"}, MORE_SEEDS),
    "racket": Variant("racket", {}, MORE_SEEDS),
    "flix": Variant("flix", {"flix_version": "current"}, MORE_SEEDS),
    "flix-0.5": Variant("flix", {"flix_version": "0.5"}, MORE_SEEDS),
    **{
        f"{lang}-values": Variant(lang, {"values": True}, MORE_SEEDS)
        for lang in ("go", "crystal", "kotlin", "clojure", "racket", "rust")
    },
    "rust-flume-async-values": Variant(
        "rust", {"flavour": "flume-async", "values": True}, MORE_SEEDS
    ),
    **{
        f"{lang}-pct": Variant(lang, {"pct_depth": 4}, MORE_SEEDS)
        for lang in ("go", "crystal", "kotlin", "clojure", "racket", "rust")
    },
    "go-gomaxprocs": Variant("go", {"gomaxprocs": 3}, MORE_SEEDS),
    **{
        f"{lang}-buffered": Variant(lang, {}, MORE_SEEDS, buffered=True)
        for lang in ("go", "crystal", "clojure")
    },
    **{
        f"{lang}-buffered": Variant(lang, {}, MORE_SEEDS, True, NO_CLOSE)
        for lang in ("racket", "rust")
    },
    "rust-flume-async-buffered-values": Variant(
        "rust", {"flavour": "flume-async", "values": True}, MORE_SEEDS, True, NO_CLOSE
    ),
    "kotlin-buffered-catching": Variant(
        "kotlin", {"closed_receive": "catching"}, MORE_SEEDS, buffered=True
    ),
    "kotlin-buffered-or-null": Variant(
        "kotlin", {"closed_receive": "or_null"}, MORE_SEEDS, buffered=True
    ),
    "kotlin-experimental-buffered": Variant(
        "kotlin", {"package_layout": "experimental"}, MORE_SEEDS, buffered=True
    ),
    "clojure-nil-puts-buffered": Variant(
        "clojure", {"put_result": "nil"}, MORE_SEEDS, True, NO_CLOSE
    ),
    # Every select a statement and no quiet check (what gocheck reads): the files of before
    # reflect.Select.
    "go-statements": Variant("go", {"reflect_select": False, "quiet": False}),
    "go-statements-buffered-values": Variant(
        "go", {"reflect_select": False, "values": True, "quiet": False}, MORE_SEEDS, buffered=True
    ),
    # Without the quiet-channel check: the Go files of before it.
    "go-no-quiet": Variant("go", {"quiet": False}),
    "go-buffered-values-pct-no-quiet": Variant(
        "go", {"values": True, "pct_depth": 4, "quiet": False}, MORE_SEEDS, buffered=True
    ),
    "go-buffered-values-pct": Variant(
        "go", {"values": True, "pct_depth": 4}, MORE_SEEDS, buffered=True
    ),
    # Without the quiet-channel check: the crossbeam and flume files of before it.
    **{
        f"rust-{f}-no-quiet": Variant("rust", {"flavour": f, "quiet": False}, MORE_SEEDS)
        for f in ("crossbeam", "flume", "flume-async")
    },
    "rust-buffered-no-quiet": Variant("rust", {"quiet": False}, MORE_SEEDS, True, NO_CLOSE),
    # Selects with a default, on the targets that can write one (generator.defaults).
    **{
        f"{lang}-buffered-defaults-values": Variant(
            lang, {"values": True}, MORE_SEEDS, True, WITH_DEFAULT
        )
        for lang in ("go", "crystal")
    },
    "rust-crossbeam-buffered-defaults-values": Variant(
        "rust", {"flavour": "crossbeam", "values": True}, MORE_SEEDS, True,
        Capabilities(buffered=True, close=False, select_default=True),
    ),  # fmt: skip
}

# Each form a renderer writes (its options that change the code) under the value oracle and
# PCT, alone and on buffered programs: the branches only a combination reaches.
FORMS: dict[str, tuple[str, dict[str, object]]] = {
    "go": ("go", {}),
    "crystal": ("crystal", {}),
    "kotlin-catching": ("kotlin", {"closed_receive": "catching"}),
    "kotlin-or-null": ("kotlin", {"closed_receive": "or_null"}),
    "kotlin-experimental": ("kotlin", {"package_layout": "experimental"}),
    "clojure-go": ("clojure", {"flavour": "go"}),
    "clojure-thread": ("clojure", {"flavour": "thread"}),
    "racket": ("racket", {}),
    **{f"rust-{f}": ("rust", {"flavour": f}) for f in RUST_FLAVOURS},
}
COMBINED_SEEDS = range(12)


def _combined() -> dict[str, Variant]:
    out = {}
    for form, (lang, options) in FORMS.items():
        caps = FULL if lang in ("go", "crystal", "kotlin", "clojure") else NO_CLOSE
        if form == "rust-std":
            caps = Capabilities(select=False, select_send=False, buffered=True)
        for extra, name in (({"values": True}, "values"), ({"pct_depth": 3}, "pct")):
            both = {**options, **extra}
            out[f"{form}+{name}"] = Variant(lang, both, COMBINED_SEEDS, False, caps)
            out[f"{form}+{name}+buffered"] = Variant(lang, both, COMBINED_SEEDS, True, caps)
    return out


VARIANTS |= _combined()


def digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def labels(variant: Variant) -> list[str]:
    """What each recorded hash of `variant` is: a seed's program alone, or a batch."""
    seeds = [f"seed {s}" for s in variant.seeds]
    return seeds + [f"batch {start}" for start in range(0, len(variant.seeds), BATCH)]


@cache
def _programs(heuristic: str, buffered: bool, capabilities: Capabilities, n: int) -> tuple:
    """The programs of seeds 0 … n−1, generated once for the variants that share them."""
    from generator.pipeline import generate_program
    from generator.settings import PRESETS

    settings = replace(PRESETS[heuristic], buffered=buffered)
    return tuple(generate_program(s, settings, capabilities).program for s in range(n))


def _rendered(make: Callable[..., str], what: object, v: Variant, seed: int) -> str:
    from generator.render import UnsupportedProgram

    try:
        return digest(make(what, v.lang, seed=seed, repetitions=REPETITIONS, **v.options))
    except UnsupportedProgram as refused:
        return f"refused: {refused}"


def compute_variant(name: str) -> dict[str, list[str]]:
    """{heuristic: [single-program hashes..., then one hash per batch of BATCH]} of a variant."""
    from generator.capabilities import InexpressibleSettings
    from generator.render import render, render_batch

    v = VARIANTS[name]
    per: dict[str, list[str]] = {}
    for h in HEURISTICS:
        try:
            progs = _programs(h, v.buffered, v.capabilities, len(v.seeds))
        except InexpressibleSettings as refused:  # a heuristic of selects alone, no select
            per[h] = [f"inexpressible: {refused}"]
            continue
        hashes = [_rendered(render, p, v, s) for s, p in zip(v.seeds, progs, strict=True)]
        for start in range(0, len(progs), BATCH):
            hashes.append(_rendered(render_batch, progs[start : start + BATCH], v, start))
        per[h] = hashes
    return per


def compute() -> dict[str, dict[str, list[str]]]:
    """{variant: compute_variant(variant)} for every variant."""
    return {name: compute_variant(name) for name in VARIANTS}


if __name__ == "__main__":
    GOLDEN.write_text(json.dumps(compute(), indent=0, sort_keys=True) + "\n")
    print(f"wrote {GOLDEN}")

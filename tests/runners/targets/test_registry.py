"""The target registry: every target complete, and everything else iterating over it."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import pytest
from pygments.lexers import get_lexer_by_name

from generator.capabilities import Capabilities, InexpressibleSettings
from generator.pipeline import generate_program
from generator.render import renderers
from generator.settings import PRESETS
from runners.engine.run_alone import target_limits
from runners.engine.sandbox import Limits
from runners.targets import all_targets, get_target, names, runnable_names, shared_capabilities
from runners.targets.base import REPO_ROOT, TargetSpec

TARGETS = all_targets()


def test_the_registry_finds_every_target_module_in_display_order() -> None:
    rust = ("rust-crossbeam", "rust-flume", "rust-flume-async", "rust-chan", "rust-std")
    later = ("clojure-go", "clojure-thread", "racket")
    assert names() == ("go", "kotlin", "crystal", "flix", *rust, *later)
    assert runnable_names() == ("go", "kotlin", "crystal", *rust, *later)
    assert [t.position for t in TARGETS] == sorted(t.position for t in TARGETS)


@pytest.mark.parametrize("target", TARGETS, ids=lambda t: t.name)
def test_every_target_declares_everything_it_needs(target: TargetSpec) -> None:
    assert re.fullmatch(r"[a-z][a-z0-9-]*", target.name)
    assert target.title and target.concurrency and target.bundle_script.strip()
    assert re.fullmatch(r"[a-z0-9]+(\.[a-z0-9]+)?", target.extension)
    assert target.renderer in renderers(), f"no generator/render/{target.renderer}.py"
    get_lexer_by_name(target.lexer)  # a Pygments lexer that exists
    assert isinstance(target.capabilities, Capabilities)
    source = Path(target.source_file)
    assert target.source_file and not source.is_absolute() and ".." not in source.parts
    assert list(target.candidates()), "no place to look for a toolchain"
    assert target.install is not None or target.not_installable, "say why nothing installs"
    if target.runnable:
        assert target.dockerfile, "a runnable target needs a sandbox image"
        dockerfile = REPO_ROOT / target.dockerfile
        assert dockerfile.is_file(), f"{dockerfile} is missing"
        assert "ARG BASE" in dockerfile.read_text()
        assert inspect.signature(target.build_plan).parameters.keys() >= set()
    else:
        assert not target.dockerfile


def test_names_and_extensions_are_unique() -> None:
    assert len({t.name for t in TARGETS}) == len(TARGETS)
    assert len({t.extension for t in TARGETS}) == len(TARGETS)


def test_unknown_target_names_the_known_ones() -> None:
    with pytest.raises(ValueError, match="go, kotlin, crystal, flix, rust-crossbeam"):
        get_target("cobol")


@pytest.mark.parametrize("target", TARGETS, ids=lambda t: t.name)
@pytest.mark.parametrize("heuristic", sorted(PRESETS))
def test_every_target_renders_every_program_generated_for_it(
    target: TargetSpec, heuristic: str
) -> None:
    if not target.capabilities.select and heuristic == "E":
        # E generates with G-Select alone: a target without select is told so.
        with pytest.raises(InexpressibleSettings, match="G-Select"):
            generate_program(0, PRESETS[heuristic], target.capabilities)
        return
    for seed in range(25):
        generated = generate_program(seed, PRESETS[heuristic], target.capabilities)
        assert target.supports(generated.program), (target.name, heuristic, seed)
        assert target.render(generated.program, seed=seed, repetitions=2)


def test_a_campaign_over_several_targets_generates_for_what_they_share() -> None:
    # Both write buffered channels, close and range (issue #15).
    assert shared_capabilities(["go", "kotlin"]) == Capabilities(buffered=True, close=True)
    assert shared_capabilities(["go", "flix"]).select_send is False


def test_every_dockerfile_belongs_to_a_target() -> None:
    declared = {t.dockerfile for t in TARGETS if t.dockerfile}
    on_disk = {str(p.relative_to(REPO_ROOT)) for p in (REPO_ROOT / "docker").glob("*.Dockerfile")}
    assert on_disk == declared


def test_no_module_outside_the_registry_names_a_target_language() -> None:
    # Adding a target must not mean editing tables elsewhere: per-language dicts keyed
    # by a target's name belong in its module of runners/targets/.
    offenders = []
    table = re.compile(r'(^|[{,])\s*["\'](go|kotlin|crystal|flix)["\']\s*:')
    roots = [REPO_ROOT / "runners" / "engine", REPO_ROOT / "runners" / "campaigns",
             REPO_ROOT / "chanfuzz_site"]  # fmt: skip
    # Reports are studies of one runtime (the Kotlin report), named after it, not targets.
    studies = {REPO_ROOT / "chanfuzz_site" / "report_views.py"}
    for root in roots:
        for path in sorted(set(root.rglob("*.py")) - studies):
            for number, line in enumerate(path.read_text().splitlines(), 1):
                if table.search(line) and not line.lstrip().startswith("#"):
                    offenders.append(f"{path.relative_to(REPO_ROOT)}:{number}: {line.strip()}")
    assert not offenders, "\n".join(offenders)


def test_language_tables_are_gone_from_the_generator_package() -> None:
    init = Path(REPO_ROOT / "generator" / "render" / "__init__.py").read_text()
    assert "LANGUAGES" not in init and "SOURCE_FILE" not in init


def test_targets_sharing_a_renderer_show_their_own_library_on_pages() -> None:
    # A page renders without a run's settings (source_options): a Rust target's
    # flavour must still be its own, not the renderer's default.
    program = generate_program(
        3, PRESETS["B"], Capabilities(select=False, select_send=False)
    ).program
    sources = {t.name: t.render(program, seed=3, **t.source_options(None)) for t in TARGETS}
    markers = {
        "rust-crossbeam": "crossbeam_channel::",
        "rust-flume": "flume::bounded",
        "rust-flume-async": "recv_async",
        "rust-chan": "chan::sync",
        "rust-std": "sync_channel",
        "clojure-go": "(go\n",
        "clojure-thread": "(thread\n",
    }
    for name, marker in markers.items():
        assert marker in sources[name], name
    assert len({sources[name] for name in markers}) == len(markers)


def test_only_the_targets_that_ask_for_it_run_under_sched_batch() -> None:
    asked = Limits(timeout_s=5)
    assert [t.name for t in TARGETS if t.batch_scheduling] == ["crystal"]
    assert target_limits(get_target("crystal"), asked) == Limits(timeout_s=5, batch_scheduling=True)
    assert target_limits(get_target("go"), asked) is asked


def test_batch_scheduling_can_be_turned_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CHANFUZZ_BATCH_SCHEDULING", "0")
    asked = Limits(timeout_s=5)
    assert target_limits(get_target("crystal"), asked) is asked

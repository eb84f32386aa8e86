"""`manage.py generate`: prints the program the generator makes for a seed."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from generator import effects, lambda_chan
from generator.pipeline import generate_program
from generator.settings import settings_for
from tests.site.site_helpers import Manage


def generate(*args: str) -> str:
    out = StringIO()
    call_command("generate", *args, stdout=out)
    return out.getvalue()


def test_effect_is_the_generators_effect() -> None:
    expected = generate_program(7, settings_for("A")).effect
    printed = generate("--seed", "7")
    assert printed == effects.to_text(expected) + "\n"
    # The output is valid effect syntax that reads back to the same effect.
    assert effects.parse(printed) == expected


def test_lambda_format() -> None:
    expected = generate_program(3, settings_for("E")).program
    printed = generate("--seed", "3", "--heuristic", "E", "--format", "lambda")
    assert printed.rstrip("\n") == lambda_chan.to_text(expected).rstrip("\n")


def test_same_seed_same_program_and_heuristic_matters() -> None:
    assert generate("--seed", "11") == generate("--seed", "11")
    # Lower case is accepted for the heuristic.
    assert generate("--seed", "11", "--heuristic", "f") == generate(
        "--seed", "11", "--heuristic", "F"
    )
    outputs = {generate("--seed", "11", "--heuristic", h) for h in "ABCDEF"}
    assert len(outputs) > 1


@pytest.mark.parametrize(
    "args",
    [
        [],  # --seed is required
        ["--seed", "x"],
        ["--seed", "1", "--heuristic", "Z"],
        ["--seed", "1", "--format", "go"],
    ],
)
def test_bad_arguments(args: list[str]) -> None:
    with pytest.raises(CommandError):
        call_command("generate", *args, stdout=StringIO())


def test_command_line(manage: Manage) -> None:
    result = manage("generate", "--seed", "5", "--heuristic", "B")
    assert result.returncode == 0, result.stderr
    expected = effects.to_text(generate_program(5, settings_for("B")).effect)
    assert result.stdout == expected + "\n"


@pytest.mark.parametrize("repetitions", ["0", "100001", "99999999999999999999999"])
def test_repetitions_out_of_range_exit_2(manage: Manage, repetitions: str) -> None:
    # The largest once printed Go whose loop bound overflowed int: a program that did not build.
    result = manage("generate", "--seed", "42", "--lang", "go", "--repetitions", repetitions)
    assert result.returncode == 2
    assert "--repetitions must be from 1 to 100000" in result.stderr


def test_a_flag_option_takes_true_and_false(manage: Manage) -> None:
    # values=false was refused: "expected true or false, not 'false'".
    args = ("generate", "--seed", "1", "--lang", "go")
    on = manage(*args, "--option", "values=true")
    off = manage(*args, "--option", "values=false")
    assert on.returncode == off.returncode == 0, on.stderr + off.stderr
    assert on.stdout != off.stdout
    assert off.stdout == manage(*args).stdout  # Go's source leaves the oracle out by default


@pytest.mark.parametrize(
    "extra", [["--repetitions", "5"], ["--option", "values=true"], ["--version", "1.26"]]
)
def test_options_of_a_languages_source_need_the_language(manage: Manage, extra: list[str]) -> None:
    result = manage("generate", "--seed", "1", *extra)
    assert result.returncode == 2
    assert "--option, --repetitions and --version need --lang" in result.stderr


def test_command_line_bad_heuristic_exits_2(manage: Manage) -> None:
    result = manage("generate", "--seed", "5", "--heuristic", "Q")
    assert result.returncode == 2
    assert "invalid choice" in result.stderr


@pytest.mark.parametrize("lang", ["go", "kotlin", "crystal", "flix"])
def test_lang_prints_the_renderers_source_of_a_program_it_can_express(lang: str) -> None:
    from generator.render import render
    from runners.targets import get_target

    spec = get_target(lang)
    generated = generate_program(11, settings_for("A"), spec.capabilities)
    expected = render(generated.program, lang, seed=11, **spec.source_options(None))
    assert generate("--seed", "11", "--lang", lang) == expected.rstrip("\n") + "\n"


def test_version_renders_for_that_release_and_needs_lang() -> None:
    from runners.engine.toolchains import installed_toolchains

    old = [t for t in installed_toolchains("kotlin") if t.version.startswith("0.")]
    if not old:
        pytest.skip("no kotlinx.coroutines release before 1.0 installed")
    text = generate("--seed", "3", "--lang", "kotlin", "--version", old[0].version)
    assert "import kotlinx.coroutines.experimental.*" in text  # the release's own layout
    with pytest.raises(CommandError, match="need --lang") as refused:
        generate("--seed", "3", "--version", old[0].version)
    assert refused.value.returncode == 2


def test_kotlin_source_runs_on_the_pool_fuzz_runs_it_on() -> None:
    # fuzz and campaigns run Kotlin programs on a pool of 8 threads (the default
    # dispatchers showed nothing on 2 cores); the printed source once used those.
    assert 'runBlocking(newFixedThreadPoolContext(8, "chanfuzz"))' in generate(
        "--seed", "11", "--lang", "kotlin"
    )
    own = generate("--seed", "11", "--lang", "kotlin", "--option", "threads=0")
    assert "runBlocking(Dispatchers.Default)" in own


@pytest.mark.parametrize("heuristic", "ABCDEF")
def test_generate_for_flix_works_for_every_seed(heuristic: str) -> None:
    # Flix's select only receives: generation must not hand it a send case.
    for seed in range(40):
        text = generate("--seed", str(seed), "--heuristic", heuristic, "--lang", "flix")
        assert "def main" in text


def test_seed_11_for_go_is_the_program_it_always_was() -> None:
    # Targets with every capability generate exactly what they did before capabilities.
    from generator.render import render

    expected = render(generate_program(11, settings_for("A")).program, "go", seed=11)
    assert generate("--seed", "11", "--lang", "go") == expected.rstrip("\n") + "\n"


def test_lang_takes_renderer_options() -> None:
    text = generate("--seed", "3", "--lang", "kotlin", "--option", "package_layout=experimental")
    assert "import kotlinx.coroutines.experimental.*" in text


def test_lang_rejects_unknown_renderer_option_with_exit_2(manage: Manage) -> None:
    result = manage("generate", "--seed", "3", "--lang", "go", "--option", "nonsense=1")
    assert result.returncode == 2
    assert "nonsense" in result.stderr


@pytest.mark.parametrize(
    ("lang", "marker"),
    [("rust-flume", "flume::bounded"), ("rust-chan", "chan::sync"), ("rust-std", "sync_channel")],
)
def test_lang_renders_with_the_targets_own_library(lang: str, marker: str) -> None:
    text = generate("--seed", "5", "--heuristic", "B", "--lang", lang)
    assert marker in text


# ---- --buffered: beyond the paper (issue #15)


def test_buffered_prints_the_widened_program_of_the_seed() -> None:
    expected = generate_program(14, settings_for("A", buffered=True)).effect
    printed = generate("--seed", "14", "--buffered")
    assert printed == effects.to_text(expected) + "\n"
    assert effects.uses_extension(expected)
    assert "Close(" in printed and "Range(" in printed
    # Off by default: the paper's program of the same seed.
    assert (
        generate("--seed", "14")
        == effects.to_text(generate_program(14, settings_for("A")).effect) + "\n"
    )


def test_buffered_lambda_shows_capacities_closes_and_ranges() -> None:
    printed = generate("--seed", "14", "--buffered", "--format", "lambda")
    assert "chan[" in printed and "close " in printed and "for " in printed


@pytest.mark.parametrize("lang", ["go", "flix", "rust-std"])
def test_buffered_says_on_stderr_what_the_target_lacks(manage: Manage, lang: str) -> None:
    from chanfuzz_site.beyond_paper import missing_note
    from runners.targets import get_target

    capabilities = get_target(lang).capabilities
    result = manage("generate", "--seed", "14", "--buffered", "--lang", lang)
    assert result.returncode == 0, result.stderr
    note = missing_note(capabilities, [lang])
    assert result.stderr == (note + "\n" if note else "")
    # stdout stays the program, whatever the note says.
    assert "note:" not in result.stdout
    if not (capabilities.buffered or capabilities.close):
        # Nothing to widen with: the paper's program of the seed.
        generated = generate_program(14, settings_for("A", buffered=True), capabilities)
        assert not effects.uses_extension(generated.effect)

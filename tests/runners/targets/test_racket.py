"""The Racket target: discovery of Debian's racket, the one-release listing, the build plan,
and the readers on output recorded from real Racket 8.7 runs under the local sandbox
(tests/runners/samples/racket_*.txt; how each was made is said at its test)."""

from __future__ import annotations

from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from generator.render import render_batch
from runners.engine.build import CompileError, build
from runners.engine.run_alone import run_one
from runners.engine.run_target import make_target
from runners.engine.sandbox import Limits, get_sandbox
from runners.engine.toolchains import known_toolchains
from runners.engine.verdicts import Outcome, classify_run
from runners.targets import get_target
from runners.targets.racket import (
    DEBIAN_RACKET,
    ONLY_DEBIAN,
    PRODUCT,
    SOURCE_FILE,
    _binds,
    _command,
    _infra_error,
    _racket_plan,
    _read_crash,
)
from tests.generator.render.programs import PROGRAMS
from tests.runners.conftest import require_toolchain

SAMPLES = Path(__file__).parents[1] / "samples"
RACKET = get_target("racket")


def _sample(name: str) -> str:
    return (SAMPLES / name).read_text()


# ---------------------------------------------------------------- declaration


def test_the_declaration() -> None:
    assert RACKET.renderer == "racket" and RACKET.extension == "rkt"
    assert RACKET.runnable and RACKET.value_oracle and RACKET.schedule_perturbation
    assert RACKET.capabilities.select and RACKET.capabilities.select_send
    # One release: nothing to install, nothing to bisect over, and it says why.
    assert RACKET.install is None and "Debian" in RACKET.not_installable
    assert "one Racket release" in RACKET.no_bisection
    # No dump on any signal, no tool to dump from outside: a hang is its timeout alone.
    assert RACKET.dump_signal is None and RACKET.dump_command is None
    assert RACKET.hang_shape("anything") == ""
    assert RACKET.threads_env is None  # green threads on one OS thread: no pool to size
    assert RACKET.dockerfile_path is not None and RACKET.dockerfile_path.is_file()
    text = RACKET.dockerfile_path.read_text()
    assert "ARG BASE" in text and "FROM ${BASE}" in text and "install -y" in text
    assert "racket" in text.split("install -y", 1)[1]


# ---------------------------------------------------------------- toolchains


@pytest.mark.slow
def test_debians_racket_is_found_with_its_version() -> None:
    toolchain = require_toolchain("racket")
    assert toolchain.language == "racket" and toolchain.version.startswith("8.")
    assert toolchain.component("vm") == "chez-scheme"
    if toolchain.executable == DEBIAN_RACKET:
        assert toolchain.origin == "debian" and toolchain.id == f"racket-{toolchain.version}-debian"
        assert toolchain.home == Path("/usr")
        # Debian's config (where the compiled collections are) is outside /usr: bound.
        assert _binds(toolchain) == (Path("/etc/racket"),)


@pytest.mark.slow
def test_the_listing_says_no_other_release_can_be_had() -> None:
    require_toolchain("racket")
    assert [k.state for k in known_toolchains("racket")] == ["installed"]
    out = StringIO()
    call_command("toolchains", "list", "racket", stdout=out)
    last = out.getvalue().splitlines()[-1]
    assert last == f"racket   no other version: {ONLY_DEBIAN}"
    assert "no Racket release but Debian's package is obtainable here" in last
    with pytest.raises(CommandError, match="cannot install racket 9.0: no Racket release"):
        call_command("toolchains", "install", "racket", "9.0")


# ---------------------------------------------------------------- building


@pytest.mark.slow
def test_the_build_plan_compiles_with_raco_make_and_keeps_compiled(tmp_path: Path) -> None:
    toolchain = require_toolchain("racket")
    plan = _racket_plan(toolchain, tmp_path, ())
    assert plan.argv == (str(toolchain.executable), "-l-", "raco", "make", SOURCE_FILE)
    assert plan.cwd == tmp_path and plan.product == tmp_path / PRODUCT
    assert not any(k.startswith("PLT") for k in plan.env)
    product = tmp_path / "x" / PRODUCT
    assert _command(toolchain, product) == (str(toolchain.executable), str(tmp_path / "x/main.rkt"))


@pytest.mark.slow
def test_a_module_that_does_not_expand_is_a_compile_error(tmp_path: Path) -> None:
    toolchain = require_toolchain("racket")
    source = render_batch([PROGRAMS["flix2"]], "racket").replace("(make-channel)", "(make-chanel)")
    with pytest.raises(CompileError) as failed:
        build(toolchain, source, tmp_path / "bad", use_cache=False)
    assert "make-chanel: unbound identifier" in failed.value.output


@pytest.mark.slow
def test_a_built_program_runs_in_the_sandbox(tmp_path: Path) -> None:
    require_toolchain("racket")
    target = make_target("racket", repetitions=3)
    programs = [PROGRAMS["kotlin"], PROGRAMS["mixed"]]
    source = render_batch(programs, "racket", **dict(target.render_options))
    artifact = build(target.toolchain, source, tmp_path / "w")
    assert artifact.path.name == PRODUCT and (artifact.path / "main_rkt.zo").is_file()
    for i in range(len(programs)):
        run = run_one(target, artifact, i, sandbox=get_sandbox("local"), limits=Limits(30))
        assert run.outcome is Outcome.TERMINATED, run


# ---------------------------------------------------------------- reading runs


def test_a_crash_in_a_spawned_thread_is_read_and_its_signature_ignores_the_program() -> None:
    """Recorded: `(car (vector-length (current-command-line-arguments)))` put first in the
    first spawned thread of program 1 of one batch and of program 0 of another."""
    one = _read_crash(_sample("racket_thread_contract.txt"))
    other = _read_crash(_sample("racket_thread_contract_other.txt"))
    assert one == ("exn:fail:contract: car: contract violation",
                   "exn:fail:contract | car: contract violation | ")  # fmt: skip
    assert other == one  # Racket CS gave no context for the thread: kind and message


def test_frames_lose_paths_lines_and_program_numbers() -> None:
    """Recorded: an out-of-range `vector-ref` at the start of `prog2-once` (main thread)."""
    message, signature = _read_crash(_sample("racket_main_contract.txt"))  # type: ignore[misc]
    assert message == "exn:fail:contract: vector-ref: index is out of range for empty vector"
    assert signature == (
        "exn:fail:contract | vector-ref: index is out of range for empty vector | "
        'main.rkt: prog-once < main.rkt: prog < body of (submod "main.rkt" main)'
    )
    assert "/work/" not in signature and "index: 1" not in signature


def test_an_error_of_a_library_function_and_one_in_a_select_handler() -> None:
    """Recorded: `(sort (list 1 2) 'x)` in the main thread; a `vector-ref` out of range in
    a `handle-evt` handler that `sync` called in a spawned thread."""
    _, sort = _read_crash(_sample("racket_main_collects.txt"))  # type: ignore[misc]
    assert sort.startswith("exn:fail:contract | sort: contract violation | main.rkt: prog-once")
    _, handler = _read_crash(_sample("racket_handler_error.txt"))  # type: ignore[misc]
    assert handler == (
        "exn:fail:contract | vector-ref: index is out of range for empty vector | main.rkt"
    )


def test_a_raised_non_exception_value() -> None:
    """Recorded: `(raise 'boom)` in the main thread."""
    assert _read_crash(_sample("racket_main_raise.txt")) == (
        "non-exception value: uncaught exception: 'boom",
        "non-exception value | uncaught exception: 'boom | ",
    )


def test_output_without_our_handlers_line_is_no_crash() -> None:
    assert _read_crash("car: contract violation\n  expected: pair?\n") is None
    assert _read_crash("") is None


def test_out_of_memory_is_ours_not_the_runtimes() -> None:
    """Recorded: a thread consing 100,000-element vectors for ever, under the sandbox's
    default memory limit: Racket CS prints `out of memory` and aborts."""
    text = _sample("racket_out_of_memory.txt")
    assert _infra_error(text) == "Racket ran out of memory under the sandbox's limit"
    assert _infra_error(_sample("racket_main_raise.txt")) is None
    verdict = classify_run("racket", exit_code=None, signal=6, timed_out=False, stdout="",
                           stderr=text)  # fmt: skip
    assert verdict.outcome is Outcome.INFRA_ERROR


def test_the_verdict_of_a_crash() -> None:
    verdict = classify_run("racket", exit_code=70, signal=None, timed_out=False, stdout="",
                           stderr=_sample("racket_thread_contract.txt"))  # fmt: skip
    assert verdict.outcome is Outcome.CRASH
    assert verdict.reason == "exit 70: exn:fail:contract: car: contract violation"
    assert verdict.signature == "racket | exn:fail:contract | car: contract violation | "

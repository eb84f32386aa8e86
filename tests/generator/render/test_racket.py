"""Racket renderer: golden files, joins, selects, names, options, determinism, the value
oracle and schedule perturbation; slow: compile with raco make and run on the real Racket."""

from __future__ import annotations

import os
import random
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator import lambda_chan as lc
from generator.effects import parse
from generator.pipeline import generate_program
from generator.render import render, render_batch
from generator.render._common import (
    ORACLE_EXIT,
    ORACLE_PREFIX,
    SelectS,
    SpawnS,
    communication_steps,
    lower,
    spawn_sites,
    walk,
)
from generator.render.racket import CRASH_EXIT, CRASH_PREFIX, SHADOWING, render_cond
from generator.settings import PRESETS, settings_for
from generator.synthesis import synthesize
from tests.generator.render.helpers import Variant, check_golden, golden_cases, run
from tests.generator.render.programs import LONE_RECV, PROGRAMS, STUCK_CHILD, from_effect
from tests.generator.strategies import effects
from tests.missing import unavailable

VARIANTS = {
    "racket": Variant("racket", "racket", "rkt"),
    "racket-values": Variant("racket-values", "racket", "rkt", {"values": True}),
}

# λ_chan names that are bindings of racket/base the rendered code uses: each must be
# renamed, or `(thread (λ () …))` would call the program's channel.
SHADOWED = lc.Program(
    ("thread", "define", "void"),
    lc.Then(
        lc.SpawnE(lc.Then(lc.Send("thread"), lc.Recv("void"))),
        lc.Let(
            "sync",
            lc.Recv("thread"),
            lc.SelectE(
                (
                    lc.Case("put", "void", None, lc.SpawnE(lc.Send("define"))),
                    lc.Case("put", "void", None, lc.SpawnE(lc.Send("define"))),
                )
            ),
        ),
    ),
)
# ... the main process then receives on `define` from whichever spawn ran.
SHADOWED = lc.Program(SHADOWED.channels, lc.Then(SHADOWED.main, lc.Recv("define")))


@pytest.mark.parametrize(
    ("filename", "text"),
    [case for v in VARIANTS.values() for case in golden_cases(v)],
    ids=lambda x: str(x)[:40],
)
def test_golden(filename: str, text: str) -> None:
    check_golden(filename, text)


def _forms(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines()]


@pytest.mark.parametrize("name", sorted(PROGRAMS))
@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_every_thread_is_kept_and_waited_for_by_its_process(name: str, seed: int) -> None:
    program = PROGRAMS[name]
    body = lower(program).body
    spawns = [s for s in walk(body) if isinstance(s, SpawnS)]
    text = render(program, "racket", seed=seed)
    lines = _forms(text)
    # Every spawn is pushed onto the list of the process that performs it.
    pushes = [line for line in lines if line.startswith("(set! kids-")]
    assert len(pushes) == len(spawns)
    assert sum(line.startswith("(set! kids-main (cons (thread (λ ()") for line in lines) == len(
        spawn_sites(body)
    )
    for s in spawns:
        own = spawn_sites(s.body)
        assert sum(f"(set! kids-{s.site} (cons (thread" in line for line in lines) == len(own)
        # A thread with children defines its list first and waits for it last.
        assert (f"(define kids-{s.site} '())" in lines) == bool(own)
        assert any(line.startswith(f"(for-each thread-wait kids-{s.site})") for line in lines) == (
            bool(own)
        )
    waits = [line for line in lines if line.startswith("(for-each thread-wait kids-main)")]
    assert len(waits) == (1 if spawn_sites(body) else 0)


def test_a_select_is_one_sync_over_handlers_of_get_and_put_events() -> None:
    text = render(PROGRAMS["kotlin"], "racket", seed=7)
    lowered = lower(PROGRAMS["kotlin"])
    selects = [s for s in walk(lowered.body) if isinstance(s, SelectS)]
    cases = [c for s in selects for c in s.cases]
    assert text.count("(handle-evt (channel-put-evt ") == sum(c.direction == "put" for c in cases)
    gets = sum(c.direction == "get" for c in cases)
    assert len(re.findall(r"\(handle-evt c\d+$", text, re.M)) == gets
    assert text.count("(sync (choice-evt") + len(re.findall(r"\(sync$", text, re.M)) == len(selects)


def test_both_select_forms_and_both_receive_forms_occur() -> None:
    texts = [render(PROGRAMS["kotlin"], "racket", seed=s) for s in range(12)]
    joined = "\n".join(texts)
    for form in ("(sync (choice-evt", "(channel-get ", "(sync c", "(channel-put ", "(sync\n"):
        assert form in joined, form
    assert "(sync (channel-put-evt " in joined


def test_batch_dispatches_on_the_command_line() -> None:
    programs = list(PROGRAMS.values())
    text = render_batch(programs, "racket", repetitions=9)
    assert text.startswith("#lang racket/base\n")
    assert '(run-program (if (= (vector-length args) 1) (vector-ref args 0) ""))' in text
    assert re.search(r"\(for \(\[i \(in-vector args\)\]\)\s+\(run-program i\)", text)
    assert '(printf "chanfuzz: done ~a\\n" i)' in text
    for i in range(len(programs)):
        assert f'[("{i}") (prog{i})]' in text
    assert "(exit 2)" in text and "(module+ main" in text
    assert text.count("(in-range 9)") + text.count("(< rep 9)") == len(programs)


def test_names_that_shadow_racket_get_an_underscore() -> None:
    text = render(SHADOWED, "racket", seed=1)
    for name in ("thread", "define", "void"):
        assert f"(define {name}_ (make-channel))" in text
    assert re.search(r"\((?:channel-get|sync) thread_\)", text)
    assert not re.search(r"\((?:channel-get|channel-put|sync) (?:thread|define|void)[ )]", text)
    assert {"thread", "define", "void", "sync"} <= SHADOWING


def test_every_run_of_a_crash_goes_through_the_handler() -> None:
    text = render(PROGRAMS["flix2"], "racket")
    assert "(parameterize ([uncaught-exception-handler chanfuzz-crash])" in text
    assert f"(exit {CRASH_EXIT})" in text and CRASH_PREFIX in text


@pytest.mark.parametrize("bad", [{"colour": "blue"}, {"values": 1}, {"pct_depth": 0}])
def test_bad_options_are_errors(bad: dict) -> None:
    with pytest.raises(ValueError, match="unknown option|expected true or false|pct_depth"):
        render(PROGRAMS["flix2"], "racket", **bad)


@settings(max_examples=40, deadline=None)
@given(effect=effects(max_leaves=10), seed=st.integers(0, 2**32), synth_seed=st.integers(0, 99))
def test_same_inputs_same_bytes(effect, seed: int, synth_seed: int) -> None:  # noqa: ANN001
    program = synthesize(effect, random.Random(synth_seed))
    for options in ({}, {"values": True}, {"pct_depth": 3}):
        one = render(program, "racket", seed=seed, repetitions=3, **options)
        assert one == render(program, "racket", seed=seed, repetitions=3, **options)


def test_different_seeds_differ_somewhere() -> None:
    assert len({render(PROGRAMS["kotlin"], "racket", seed=s) for s in range(6)}) > 1


@given(cond=st.recursive(
    st.builds(lc.BoolLit, st.booleans())
    | st.builds(lc.Compare, st.sampled_from(["==", "!=", "<", "<=", ">", ">="]),
                st.integers(-9, 9), st.integers(-9, 9)),
    lambda inner: st.builds(lc.Not, inner)
    | st.builds(lc.BoolOp, st.sampled_from(["&&", "||"]), inner, inner),
    max_leaves=6,
), seed=st.integers(0, 1000))  # fmt: skip
def test_conditions_are_prefix_forms_of_the_same_shape(cond: lc.Cond, seed: int) -> None:
    text = render_cond(cond, random.Random(seed))
    assert text.count("(") == text.count(")")
    assert "&&" not in text and "||" not in text and "!=" not in text and "==" not in text


# ---------------------------------------------------------------- the value oracle


def test_the_oracle_off_renders_what_was_rendered_before() -> None:
    program = generate_program(5, settings_for("F")).program
    plain = render(program, "racket", seed=5, repetitions=3)
    assert render(program, "racket", seed=5, repetitions=3, values=False) == plain
    checked = render(program, "racket", seed=5, repetitions=3, values=True)
    assert ORACLE_PREFIX in checked and ORACLE_PREFIX not in plain
    assert "(value-check! vals)" in checked


def test_every_receive_and_send_reports_to_the_oracle() -> None:
    text = render(PROGRAMS["kotlin"], "racket", seed=7, values=True)
    lowered = lower(PROGRAMS["kotlin"])
    sends = sum(type(s).__name__ == "SendS" for s in walk(lowered.body))
    put_cases = sum(
        c.direction == "put" for s in walk(lowered.body) if isinstance(s, SelectS) for c in s.cases
    )
    assert text.count("(value-sent! vals ") == sends + put_cases
    receives = sum(type(s).__name__ == "RecvS" for s in walk(lowered.body))
    get_cases = sum(
        c.direction == "get" for s in walk(lowered.body) if isinstance(s, SelectS) for c in s.cases
    )
    assert text.count("(value-recv! vals ") == receives + get_cases


# ---------------------------------------------------------------- schedule perturbation


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_perturbed_source_is_the_plain_one_plus_its_yields(name: str) -> None:
    program = PROGRAMS[name]
    plain = render(program, "racket", seed=3, repetitions=2, values=True)
    assert render(program, "racket", seed=3, repetitions=2, values=True, pct_depth=1) == plain
    perturbed = render(program, "racket", seed=3, repetitions=2, values=True, pct_depth=4)
    lines = perturbed.splitlines()
    assert sum(line.strip() == "(sleep 0)" for line in lines) == min(
        3, communication_steps(lower(program).body)
    )
    kept = "\n".join(line for line in lines if line.strip() != "(sleep 0)") + "\n"
    assert kept == plain


# ---------------------------------------------------------------- real toolchain


def _racket() -> str:
    found = shutil.which("racket")
    if found is None:
        unavailable("racket not found (apt-get install racket)")
    return str(found)


def _build(source: str, directory: Path) -> list[str]:
    """`racket main.rkt` after `raco make`, as runners/targets/racket.py builds it."""
    racket = _racket()
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "main.rkt").write_text(source)
    out = run([racket, "-l-", "raco", "make", "main.rkt"], timeout=300, cwd=directory)
    assert out.returncode == 0, f"raco make failed:\n{out.stdout}\n{out.stderr}"
    return [racket, str(directory / "main.rkt")]


@pytest.mark.slow
def test_racket_runs_every_program(tmp_path: Path) -> None:
    programs = [*PROGRAMS.values(), SHADOWED]
    command = _build(render_batch(programs, "racket", seed=5, repetitions=200), tmp_path)
    for i in range(len(programs)):
        out = run([*command, str(i)], timeout=60)
        assert out.returncode == 0, (i, out)
    usage = run([*command, str(len(programs))], timeout=30)
    assert usage.returncode == 2 and "usage: racket main.rkt N" in usage.stderr


@pytest.mark.slow
def test_racket_runs_generated_programs_checked_and_perturbed(tmp_path: Path) -> None:
    programs = [
        generate_program(seed, PRESETS[preset]).program
        for preset in sorted(PRESETS)
        for seed in range(4)
    ]
    for options in ({"values": True}, {"values": True, "pct_depth": 5}):
        directory = tmp_path / str(len(options))
        source = render_batch(programs, "racket", seed=8, repetitions=50, **options)
        command = _build(source, directory)
        for i in range(len(programs)):
            out = run([*command, str(i)], timeout=60)
            assert out.returncode == 0, (options, i, out)


@pytest.mark.slow
def test_racket_waits_for_a_stuck_thread(tmp_path: Path) -> None:
    """Racket does not detect deadlocks: a stuck program hangs. A stuck *spawned* thread
    must hang it too; without the join the main thread would return and exit 0."""
    command = _build(render_batch([STUCK_CHILD, LONE_RECV], "racket"), tmp_path)
    for i in range(2):
        assert run([*command, str(i)], timeout=3).timed_out


def _crashing(source: str) -> str:
    """The first spawned thread of a rendered program raises a contract error as it starts."""
    marker = "(cons (thread (λ ()\n"
    assert marker in source
    return source.replace(
        marker, marker + "(car (vector-length (current-command-line-arguments)))\n", 1
    )


@pytest.mark.slow
def test_an_exception_in_a_spawned_thread_ends_the_program(tmp_path: Path) -> None:
    """In Racket an uncaught exception ends its own thread only; the handler every thread
    inherits ends the whole program, non-zero, with the error on stderr."""
    source = _crashing(render_batch([PROGRAMS["flix2"]], "racket"))
    out = run([*_build(source, tmp_path), "0"], timeout=30)
    assert out.returncode == CRASH_EXIT, out
    assert f"{CRASH_PREFIX}exn:fail:contract in a spawned thread" in out.stderr
    assert "car: contract violation" in out.stderr


@pytest.mark.slow
def test_a_wrong_value_stops_the_program(tmp_path: Path) -> None:
    program = from_effect(parse("Spawn(Put(c1)) ; Spawn(Get(c2)) ; Get(c1) ; Put(c2)"))
    source = render_batch([program], "racket", values=True)
    assert source.count('(vector "" "c1"') == 1
    wrong = source.replace('(vector "" "c1"', '(vector "" "c9"')
    out = run([*_build(wrong, tmp_path), "0"], timeout=30)
    assert out.returncode == ORACLE_EXIT, out
    assert f"{ORACLE_PREFIX}received from the wrong channel (by a receive): " in out.stderr
    assert "value 1 sent on c9 received on c1" in out.stderr


@pytest.mark.slow
def test_compiled_module_runs_without_its_source(tmp_path: Path) -> None:
    """The build keeps `compiled/` alone: the sandbox shows a run nothing else."""
    command = _build(render_batch([PROGRAMS["flix1"]], "racket"), tmp_path / "build")
    elsewhere = tmp_path / "product"
    shutil.copytree(tmp_path / "build" / "compiled", elsewhere / "compiled")
    env = {**os.environ, "PLT_COMPILED_FILE_CHECK": "exists"}
    done = subprocess.run(
        [command[0], str(elsewhere / "main.rkt"), "0"], capture_output=True, text=True,
        timeout=30, env=env, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done
    assert not (elsewhere / "main.rkt").exists()

"""Go renderer: golden files, joins, options; slow: compile and run with a real Go."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from generator.render import GROUP_DONE, render, render_batch
from generator.render._common import SelectS, has_spawn, lower, walk
from generator.render._common import SpawnS as SpawnStmt
from tests.generator.render.helpers import (
    VARIANTS,
    check_golden,
    check_group_runs,
    compile_ok,
    go_binary,
    golden_cases,
    need,
    run,
)
from tests.generator.render.programs import LONE_RECV, PROGRAMS, STUCK_CHILD

GO = VARIANTS["go"]
# The tests that read a program's own code render it without the quiet-channel check, whose
# code and calls test_go_quiet.py tests (quiet=False writes the file of before the check).
PLAIN = {"quiet": False}


@pytest.mark.parametrize(
    ("filename", "text"),
    golden_cases(GO) + golden_cases(VARIANTS["go-values"]),
    ids=lambda x: str(x)[:40],
)
def test_golden(filename: str, text: str) -> None:
    check_golden(filename, text)


def _functions(text: str) -> dict[str, list[str]]:
    """Top-level function name → its body lines (the file is gofmt-shaped)."""
    funcs: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in text.splitlines():
        m = re.match(r"func (\w+)\(\) \{$", line)
        if m:
            current = funcs.setdefault(m.group(1), [])
        elif line == "}":
            current = None
        elif current is not None:
            current.append(line)
    return funcs


@pytest.mark.parametrize("name", list(PROGRAMS))
@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_every_spawn_is_joined(name: str, seed: int) -> None:
    program = PROGRAMS[name]
    text = render(program, "go", seed=seed, **PLAIN)
    spawns = sum(isinstance(s, SpawnStmt) for s in walk(lower(program).body))
    lines = [line.strip() for line in text.splitlines()]
    goroutines = [i for i, line in enumerate(lines) if line == "go func() {"]
    assert len(goroutines) == spawns
    for i in goroutines:
        # Added by the spawner before the goroutine exists; Done however it ends.
        assert lines[i - 1] == "wg.Add(1)"
        assert lines[i + 1] == "defer wg.Done()"
    assert lines.count("wg.Add(1)") == lines.count("defer wg.Done()") == spawns
    once = _functions(text)["prog0Once"]
    assert once[0].strip() == "var wg sync.WaitGroup"
    assert once[-1].strip() == "wg.Wait()"


ENTRY = re.compile(
    r"\{Dir: reflect\.Select(Send|Recv|Default)(?:, Chan: reflect\.ValueOf\((\w+)\))?"
    r"(?:, Send: reflect\.ValueOf\((\d+)\))?\},"
)


@pytest.mark.parametrize("name", list(PROGRAMS))
@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_a_reflect_select_clause_does_what_its_case_entry_says(name: str, seed: int) -> None:
    """Through reflect.Select, the cases are listed in order (a default last), and the
    clause of index k completes case k: a send's value is reported sent, a receive
    reports the value reflect received on that case's channel."""
    program = PROGRAMS[name]
    text = render(program, "go", seed=seed, values=True, **PLAIN)
    lines = [line.strip() for line in text.splitlines()]
    selects = [s for s in walk(lower(program).body) if isinstance(s, SelectS)]
    switches = [i for i, line in enumerate(lines) if line.startswith("switch chosen_, ")]
    assert len(switches) + lines.count("select {") == len(selects)
    assert ('"reflect"' in lines) == bool(switches)
    for start in switches:
        entries = []
        j = start + 1
        while m := ENTRY.fullmatch(lines[j]):
            entries.append(m.groups())
            j += 1
        assert lines[j] == "}); chosen_ {"
        for k, (direction, chan, value) in enumerate(entries):
            if direction == "Default":
                assert k == len(entries) - 1
                assert "default:" in lines[j:]
                continue
            clause = lines.index(f"case {k}:", j)
            if direction == "Send":
                assert lines[clause + 1] == f"vals.done({value})"
            else:
                report = f'vals.recv(int(recv_.Int()), "{chan}", true)'
                assert report in lines[clause + 1 : clause + 3]


def test_go_selects_are_statements_or_reflect_by_seed() -> None:
    from generator.pipeline import generate_program
    from generator.settings import settings_for

    forms = {"statement": 0, "reflect": 0}
    for seed in range(12):
        text = render(generate_program(seed, settings_for("E")).program, "go", seed=seed)
        forms["statement"] += text.count("\tselect {")
        forms["reflect"] += text.count("reflect.Select(")
    assert min(forms.values()) >= 5, forms


def test_without_reflect_select_every_select_is_a_statement() -> None:
    from generator.pipeline import generate_program
    from generator.settings import settings_for

    for seed in range(12):
        program = generate_program(seed, settings_for("E")).program
        text = render(program, "go", seed=seed, reflect_select=False, **PLAIN)
        selects = sum(isinstance(s, SelectS) for s in walk(lower(program).body))
        assert text.count("select {") == selects and "reflect" not in text


def test_no_waitgroup_without_spawns() -> None:
    program = lower(LONE_RECV)
    assert not has_spawn(program.body)
    text = render(LONE_RECV, "go", **PLAIN)
    assert "sync" not in text and "wg" not in text


def test_batch_dispatches_on_each_argument_and_marks_each_end_when_given_several() -> None:
    programs = list(PROGRAMS.values())
    text = render_batch(programs, "go", repetitions=5)
    for i in range(len(programs)):
        assert f'case "{i}":\n\t\t\tprog{i}()' in text
        assert f"func prog{i}Once() {{" in text
    assert text.count("i < 5;") == len(programs)
    assert "for _, arg := range os.Args[1:] {" in text and "os.Exit(2)" in text
    assert f'if len(os.Args) > 2 {{\n\t\t\tfmt.Println("{GROUP_DONE}" + arg)' in text


def test_gomaxprocs_option() -> None:
    text = render(PROGRAMS["flix2"], "go", gomaxprocs=3, **PLAIN)
    assert "runtime.GOMAXPROCS(3)" in text and '"runtime"' in text
    assert "runtime" not in render(PROGRAMS["flix2"], "go", **PLAIN)


# ---------------------------------------------------------------- real toolchain


def _build(go: str, source: str, tmp_path: Path, cache: Path) -> Path:
    (tmp_path / "go.mod").write_text("module chanfuzzprog\n\ngo 1.21\n")
    (tmp_path / "main.go").write_text(source)
    env = {
        "PATH": "/usr/bin:/bin",
        "HOME": str(tmp_path),
        "GOCACHE": str(cache / "go"),
        "GOFLAGS": "-mod=mod",
        "GOTOOLCHAIN": "local",
    }
    compile_ok([go, "build", "-o", "prog", "."], cwd=tmp_path, env=env)
    return tmp_path / "prog"


@pytest.mark.slow
def test_go_runs_every_program(tmp_path: Path, build_cache: Path) -> None:
    go = go_binary()
    need(go, "Go (set CHANFUZZ_GO)")
    programs = list(PROGRAMS.values())
    binary = _build(
        go, render_batch(programs, "go", seed=11, repetitions=200), tmp_path, build_cache
    )
    for i in range(len(programs)):
        out = run([str(binary), str(i)], timeout=30)
        assert out.returncode == 0, (i, out)
        assert out.stdout == ""  # run alone: no mark
    assert run([str(binary), str(len(programs))], timeout=10).returncode == 2
    check_group_runs(binary, [2, 0, 1], str(len(programs)), timeout=30)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_go_runs_single_renders_with_gomaxprocs(
    tmp_path: Path, build_cache: Path, seed: int
) -> None:
    go = go_binary()
    need(go, "Go (set CHANFUZZ_GO)")
    binary = _build(
        go,
        render(PROGRAMS["kotlin"], "go", seed=seed, repetitions=500, gomaxprocs=2),
        tmp_path,
        build_cache,
    )
    out = run([str(binary)], timeout=30)
    assert out.returncode == 0, out


@pytest.mark.slow
def test_go_runs_generated_programs(tmp_path: Path, build_cache: Path) -> None:
    """Programs from the real generator (heuristic A), 60 in one binary."""
    from generator.pipeline import generate_program
    from generator.settings import settings_for

    go = go_binary()
    need(go, "Go (set CHANFUZZ_GO)")
    programs = [generate_program(seed, settings_for("A")).program for seed in range(60)]
    binary = _build(go, render_batch(programs, "go", seed=3, repetitions=20), tmp_path, build_cache)
    for i in range(len(programs)):
        out = run([str(binary), str(i)], timeout=30)
        assert out.returncode == 0, (i, out)


@pytest.mark.slow
@pytest.mark.parametrize("program", [LONE_RECV, STUCK_CHILD], ids=["lone-recv", "stuck-child"])
def test_go_reports_a_real_deadlock(tmp_path: Path, build_cache: Path, program) -> None:
    """A stuck spawned process is not hidden by main returning: the join waits for it and
    Go's runtime sees that nothing can move."""
    go = go_binary()
    need(go, "Go (set CHANFUZZ_GO)")
    binary = _build(
        go, render(program, "go", seed=random.Random(1).randrange(99)), tmp_path, build_cache
    )
    out = run([str(binary)], timeout=30)
    assert out.returncode == 2, out
    assert "all goroutines are asleep - deadlock!" in out.stderr


@pytest.mark.slow
def test_go_output_is_gofmt_clean(tmp_path: Path) -> None:
    go = go_binary()
    need(go, "Go (set CHANFUZZ_GO)")
    gofmt = str(Path(go).with_name("gofmt"))
    for seed in range(4):
        (tmp_path / f"p{seed}.go").write_text(
            render_batch(list(PROGRAMS.values()), "go", seed=seed, gomaxprocs=2)
        )
    out = run([gofmt, "-l", "."], timeout=60, cwd=tmp_path)
    assert out.returncode == 0 and out.stdout == "", out

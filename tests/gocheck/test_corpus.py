"""The gocheck corpus: headers parse, verdicts are known, and running confirms a sample."""

from collections import Counter
from pathlib import Path

import pytest

from tests.gocheck import confirm
from tests.gocheck.corpus import (
    MAIN_VERDICTS,
    MODULES_DIR,
    VERDICTS,
    CorpusError,
    load_corpus,
    parse_header,
)


def test_every_program_parses_with_a_known_verdict():
    programs = load_corpus()
    assert len(programs) >= 90
    for program in programs:
        assert program.want in VERDICTS, program.name
        assert program.source and program.what, program.name
        text = program.path.read_text(encoding="utf-8")
        if confirm.is_test_file(text):  # its tests are the program, as go test runs them
            assert "\nfunc Test" in text and "*testing.T)" in text, program.name
        else:
            assert "\npackage main\n" in text, program.name
            assert text.count("\nfunc main() {") == 1, program.name


def test_module_programs_parse_and_import_beyond_the_standard_library():
    programs = load_corpus(MODULES_DIR)
    assert len(programs) >= 16
    for program in programs:
        text = program.path.read_text(encoding="utf-8")
        assert any(f'"{mod}' in text for mod in ("golang.org/x/", "go.uber.org/",
                                                  "github.com/")), program.name
    assert not {p.name for p in programs} & {p.name for p in load_corpus()}


def test_names_are_unique():
    names = [program.name for program in load_corpus()]
    assert len(names) == len(set(names))


def test_each_main_verdict_has_programs():
    counts = Counter(program.want for program in load_corpus())
    for verdict in MAIN_VERDICTS:
        assert counts[verdict] >= 5, (verdict, counts)


def test_a_malformed_header_is_a_clear_error(tmp_path: Path):
    bad = tmp_path / "bad.go"
    bad.write_text("// want: maybe\n// source: x\n// what: y\n\npackage main\n")
    with pytest.raises(CorpusError, match="maybe"):
        parse_header(bad)
    missing = tmp_path / "missing.go"
    missing.write_text("// want: ok\n// what: y\n\npackage main\n")
    with pytest.raises(CorpusError, match="source"):
        parse_header(missing)


def test_what_goes_on_over_indented_lines(tmp_path: Path):
    path = tmp_path / "two_lines.go"
    path.write_text(
        "// want: ok\n// source: s\n// what: first\n//   second\n// Copyright\n\npackage main\n"
    )
    assert parse_header(path).what == "first second"


SAMPLE = (
    "own_unbuffered_ok",
    "own_waitgroup_ok",
    "own_range_no_close",
    "godel_mismatch",
    "own_loop_spawn_short",
    "godel_prodcons",
    "own_send_after_close",
    "godel_double_close",
)


@pytest.mark.slow
def test_running_confirms_a_sample():
    if not Path(confirm.GO).exists():
        pytest.skip(f"no Go at {confirm.GO}")
    programs = [p for p in load_corpus() if p.name in SAMPLE]
    assert len(programs) == len(SAMPLE)
    results = confirm.confirm_all(programs, runs=5)
    assert {r.program.want for r in results} == set(MAIN_VERDICTS)
    for result in results:
        assert result.status == "confirmed", (result.program.name, result.evidence)

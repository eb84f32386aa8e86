"""runners.engine.culprit: the program of a batch a compile error's line falls in."""

from __future__ import annotations

import pytest

from runners.engine.culprit import named_program

CLOJURE = """(ns chanfuzz.main)
(defn helper [] 1)
(defn prog0-proc0 [c]
  (go (>! c 1)))
(defn prog0 [] (prog0-proc0 (chan)))
(defn prog1-proc0 [c]
  (go (<! c)))
(defn prog1 [] 1)
(defn run-program [i]
  (case i "0" (prog0) "1" (prog1)))
"""

GO = """package main

func prog0() {
\tx := 1
}

func prog10() {
\ty := 2
}
"""


@pytest.mark.parametrize(
    ("output", "source", "source_file", "program"),
    [
        ("Syntax error (IndexOutOfBoundsException) compiling fn* at (chanfuzz/main.clj:7:3).",
         CLOJURE, "src/chanfuzz/main.clj", 1),
        ("Syntax error compiling at (chanfuzz/main.clj:4:3).", CLOJURE, "src/chanfuzz/main.clj",
         0),
        ("# command-line-arguments\n./main.go:8:2: declared and not used: y", GO, "main.go", 10),
        ("./main.go:4:2: declared and not used: x\n./main.go:8:2: y", GO, "main.go", 0),
        ("src/Main.kt:8:5: error: unresolved reference", GO, "src/Main.kt", 10),
        ("error[E0425]: cannot find value\n  --> src/main.rs:4:9", GO, "src/main.rs", 0),
    ],
)  # fmt: skip
def test_the_line_a_compiler_names_falls_in_a_program(
    output: str, source: str, source_file: str, program: int
) -> None:
    assert named_program(output, source, source_file) == program


@pytest.mark.parametrize(
    "output",
    [
        "flag provided but not defined: -definitely-not-a-flag",  # no line at all
        "./main.go:1:1: expected 'package'",  # shared code, before any program
        "./main.go:99:1: past the end",
        "./xmain.go:8:2: another file's line",
    ],
)
def test_no_program_is_named_without_a_line_of_one(output: str) -> None:
    assert named_program(output, GO, "main.go") is None

"""The families of a release study and the standalone projects of their bug reports:
each pins the release the finding was made on, and says how to run the program."""

from __future__ import annotations

from pathlib import Path

import pytest

from runners.release_study.families import CLOJURE_RACKET, FAMILIES, RUST, project
from runners.targets import all_targets, get_target
from runners.targets.base import Toolchain


def _toolchain(target: str, version: str, tmp_path: Path, **components: str) -> Toolchain:
    return Toolchain(
        target, version, f"{target}-{version}", "installed", tmp_path, tmp_path,
        components=tuple(components.items()),
    )  # fmt: skip


def test_families_name_their_report_command_and_bug_folder() -> None:
    assert (RUST.command, RUST.bugs_folder) == ("rust_report", "rust-bugs")
    assert CLOJURE_RACKET.command == "clojure_racket_report"
    assert CLOJURE_RACKET.name_prefix == "clojure-racket report:"
    assert set(FAMILIES) == {"rust", "clojure-racket"}


def test_no_target_is_in_two_families() -> None:
    studied = [t.name for f in FAMILIES.values() for t in f.targets()]
    assert len(studied) == len(set(studied))
    assert {t.name for t in all_targets() if t.renderer == "rust"} <= set(studied)


def test_rust_project_pins_the_crate_release_exactly(tmp_path: Path) -> None:
    toolchain = _toolchain("rust-flume", "0.11.1", tmp_path, rustc="1.63.0")
    made = project(get_target("rust-flume"), toolchain, "fn main() {}\n")
    assert 'flume = { version = "=0.11.1"' in made.files["Cargo.toml"]
    # The program builds as the fuzzer built it.
    assert "[profile.release.package.chanfuzzprog]\nopt-level = 0" in made.files["Cargo.toml"]
    assert made.files["src/main.rs"] == "fn main() {}\n"
    assert made.run.startswith("cargo build --release")
    assert made.built_with.startswith("rustc 1.63.0 and flume 0.11.1")


def test_clojure_project_pins_core_async_and_its_clojure(tmp_path: Path) -> None:
    toolchain = _toolchain("clojure-go", "1.9.865", tmp_path, clojure="1.11.4", java="17.0.15")
    made = project(get_target("clojure-go"), toolchain, "(ns chanfuzz.main)\n")
    deps = made.files["deps.edn"]
    assert 'org.clojure/core.async {:mvn/version "1.9.865"}' in deps
    assert 'org.clojure/clojure {:mvn/version "1.11.4"}' in deps
    # The rendered namespace is chanfuzz.main: its file is where Clojure looks for it.
    assert made.files["src/chanfuzz/main.clj"] == "(ns chanfuzz.main)\n"
    assert "clojure -M -m chanfuzz.main" in made.run
    assert "Java 17.0.15" in made.built_with


def test_racket_project_is_the_module_and_the_racket_it_ran_on(tmp_path: Path) -> None:
    made = project(get_target("racket"), _toolchain("racket", "8.7", tmp_path), "#lang racket\n")
    assert made.files == {"main.rkt": "#lang racket\n"}
    assert made.run.endswith("racket main.rkt") and made.built_with == "Racket 8.7"


def test_a_target_of_no_family_has_no_project(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="no standalone project for go"):
        project(get_target("go"), _toolchain("go", "1.22", tmp_path), "package main\n")


def test_a_clojure_toolchain_without_its_clojure_is_not_guessed(tmp_path: Path) -> None:
    toolchain = _toolchain("clojure-go", "1.9.865", tmp_path, java="17.0.15")
    with pytest.raises(ValueError, match="toolchain clojure-go-1.9.865 names no Clojure to pin"):
        project(get_target("clojure-go"), toolchain, "(ns chanfuzz.main)\n")

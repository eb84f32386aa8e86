"""The families of targets a release study covers, and the standalone project each
family's bug report is.

A family is a report: `manage.py <slug>_report` writes `docs/<slug>-report.md`.
It studies the targets of the registry rendered by its renderers (so a target
added to the registry joins its family's report with no change here), and a
finding on a current release becomes a project a maintainer can run without
chanfuzz: the program, a build file pinning the release, and the command that
runs it.
"""

from __future__ import annotations

from dataclasses import dataclass

from runners.targets import TargetSpec, all_targets
from runners.targets.base import Toolchain
from runners.targets.rust_cargo import LIBRARIES
from runners.targets.rust_library import PACKAGE, manifest_text


@dataclass(frozen=True)
class Project:
    """A standalone reproducer: files by relative path, and how to run it."""

    files: dict[str, str]
    run: str  # a shell line, from the project's directory
    built_with: str  # the toolchain, in words


@dataclass(frozen=True)
class Family:
    name: str  # slug: docs/<name>-report.md, /reports/<name>/, campaigns "<name> report: …"
    title: str
    renderers: tuple[str, ...]
    release_word: str  # what one of a target's versions is called
    how_built: str  # one sentence for the report's "How it ran"

    @property
    def name_prefix(self) -> str:
        return f"{self.name} report:"

    @property
    def command(self) -> str:
        return f"{self.name.replace('-', '_')}_report"

    @property
    def bugs_folder(self) -> str:
        return f"{self.name}-bugs"

    def targets(self) -> list[TargetSpec]:
        """The family's targets, in the registry's order."""
        return [t for t in all_targets() if t.renderer in self.renderers]


RUST = Family(
    name="rust",
    title="Rust channel crates",
    renderers=("rust",),
    release_word="crate release",
    how_built=(
        "Programs are compiled by cargo `--release` against the installed crate release, the"
        " generated `main.rs` itself at opt-level 0 (the crates at opt-level 3; see"
        " `runners/targets/rust_cargo.py`); a hang's threads are dumped with `eu-stack`."
    ),
)
CLOJURE_RACKET = Family(
    name="clojure-racket",
    title="Clojure core.async and Racket channels",
    renderers=("clojure", "racket"),
    release_word="release",
    how_built=(
        "Clojure programs are AOT-compiled by `clojure.main` against the core.async release and"
        " the Clojure its POM names, and run on the machine's JDK (a hang's threads are dumped by"
        " the JVM on SIGQUIT); Racket programs are compiled by `raco make` and run by Debian's"
        " Racket, the one release obtainable here. Several programs share one JVM or Racket"
        " process (`CHANFUZZ_SHARED_RUN_SIZE`); a program that hangs in a shared run is run"
        " alone to be judged."
    ),
)
FAMILIES = {f.name: f for f in (RUST, CLOJURE_RACKET)}


def project(target: TargetSpec, toolchain: Toolchain, source: str) -> Project:
    """The standalone reproducer of `source` (a program rendered for `toolchain`)."""
    if target.renderer == "rust":
        library = LIBRARIES[target.name]
        return Project(
            files={
                "Cargo.toml": manifest_text(library, toolchain.version, exact=True),
                "src/main.rs": source,
            },
            run=f"cargo build --release && timeout 10 ./target/release/{PACKAGE}",
            built_with=f"rustc {toolchain.component('rustc') or '?'}"
            + (f" and {library.crate} {toolchain.version}" if library.crate else "")
            + " (Cargo.toml pins the release exactly)",
        )
    if target.renderer == "clojure":
        clojure = toolchain.component("clojure")
        if clojure is None:  # every installed core.async release records its Clojure
            raise ValueError(f"toolchain {toolchain.id} names no Clojure to pin")
        deps = (
            '{:paths ["src"]\n'
            f' :deps {{org.clojure/clojure {{:mvn/version "{clojure}"}}\n'
            f'        org.clojure/core.async {{:mvn/version "{toolchain.version}"}}}}}}\n'
        )
        return Project(
            files={"deps.edn": deps, "src/chanfuzz/main.clj": source},
            run="timeout -s QUIT 30 clojure -M -m chanfuzz.main",
            built_with=f"core.async {toolchain.version} on Clojure {clojure}"
            f" and Java {toolchain.component('java') or '?'} (deps.edn pins both)",
        )
    if target.renderer == "racket":
        return Project(
            files={"main.rkt": source},
            run="raco make main.rkt && timeout 30 racket main.rkt",
            built_with=f"Racket {toolchain.version}",
        )
    raise ValueError(f"no standalone project for {target.name} (renderer {target.renderer})")

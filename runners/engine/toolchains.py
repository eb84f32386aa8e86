"""Which toolchains exist: every target's installed, installable and unavailable versions.

This module owns the questions "what is installed, which one do I use, what
could be installed and why not", for every target of the registry
(:mod:`runners.targets`), each of which declares *where* its toolchains live
and *which versions* exist. It compiles and runs nothing (:mod:`runners.engine.build`)
and installs nothing (:mod:`runners.engine.install`). Everything is discovered
from the file system on each call (once per web request: `snapshot`), so installing
a toolchain needs no restart; version probes that must run a binary are memoised per
binary and modification time.

Run ``python -m runners.engine.toolchains`` to print what is installed.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from runners.targets import all_targets, get_target, runnable_names
from runners.targets.base import (
    INSTALL_HINT,
    REPO_ROOT,
    KnownToolchain,
    Toolchain,
    ToolchainStatus,
    ToolchainUnavailable,
    known_from_status,
    version_key,
)

__all__ = [
    "REPO_ROOT",
    "KnownToolchain",
    "Toolchain",
    "ToolchainStatus",
    "ToolchainUnavailable",
    "available_toolchains",
    "find_toolchain",
    "installed_toolchains",
    "known_from_status",
    "known_toolchains",
    "snapshot",
    "version_key",
]


def known_toolchains(language: str | None = None, *, offline: bool = False) -> list[KnownToolchain]:
    """Every toolchain version chanfuzz knows of, installed or not, and why not.

    Targets that can install versions list them (Go asks the Go module proxy, at
    most daily; ``offline`` uses its cache only).
    """
    targets = all_targets() if language is None else (get_target(language),)
    known: list[KnownToolchain] = []
    for target in targets:
        if target.known is not None:
            known += target.known(offline, available_toolchains(target.name))
        else:
            known += [known_from_status(s) for s in available_toolchains(target.name)]
    return known


_SNAPSHOT: ContextVar[dict[str, list[ToolchainStatus]] | None] = ContextVar(
    "toolchain_snapshot", default=None
)


@contextmanager
def snapshot() -> Iterator[None]:
    """Within the block, each language's toolchains are looked up on disk once.

    A web page asks a dozen times (each code tab, the forms, the bug report), and each
    lookup stats and globs hundreds of paths: a third of a program page's time. Long
    runs (workers, the CLI) stay outside, so that a toolchain installed meanwhile is seen.
    """
    token = _SNAPSHOT.set({})
    try:
        yield
    finally:
        _SNAPSHOT.reset(token)


def available_toolchains(language: str | None = None) -> list[ToolchainStatus]:
    """Every known toolchain place, in order of preference, installed or not (and why not).

    Without ``language``: the targets that can run programs.
    """
    languages = runnable_names() if language is None else (language,)
    memo = _SNAPSHOT.get()
    statuses = []
    for lang in languages:
        if memo is not None and lang in memo:
            statuses += memo[lang]
            continue
        found = _discover(lang)
        if memo is not None:
            memo[lang] = found
        statuses += found
    return statuses


def _discover(lang: str) -> list[ToolchainStatus]:
    statuses = []
    for candidate in get_target(lang).candidates():
        toolchain: Toolchain | None = None
        reason = ""
        try:
            toolchain = candidate.locate()
        except ToolchainUnavailable as error:
            reason = error.reason
        statuses.append(
            ToolchainStatus(
                lang, candidate.origin, str(candidate.location), toolchain, reason, candidate.hint
            )
        )
    return statuses


def installed_toolchains(language: str | None = None) -> list[Toolchain]:
    """The installed toolchains, in order of preference."""
    return [s.toolchain for s in available_toolchains(language) if s.toolchain is not None]


def _version_matches(wanted: str, toolchain: Toolchain) -> bool:
    # "1.19" selects 1.19.8; an id selects exactly that toolchain.
    return wanted in (toolchain.version, toolchain.id) or toolchain.version.startswith(wanted + ".")


def find_toolchain(language: str, version: str | None = None) -> Toolchain:
    """The preferred installed toolchain for ``language`` (of ``version``, if given).

    ``version`` is matched against the version (``"1.26.8"``, or a prefix such as
    ``"1.26"``) or the id (``"go-1.19.8-debian"``). Raises ToolchainUnavailable
    saying what was looked for and why nothing fit.
    """
    get_target(language)  # ValueError for an unknown language
    statuses = available_toolchains(language)
    for status in statuses:
        if status.toolchain is not None and (
            version is None or _version_matches(version, status.toolchain)
        ):
            return status.toolchain
    wanted = f"{language} {version}" if version else language
    found = [s.toolchain for s in statuses if s.toolchain is not None]
    installed = [t.id for t in sorted(found, key=lambda t: (version_key(t.version), t.id))]
    problems = [s.reason for s in statuses if s.toolchain is None]
    if installed:
        reason = f"{wanted} not installed (installed: {', '.join(installed)})"
    elif problems:
        reason = "; ".join(problems)
    else:
        reason = f"{wanted} not installed: {INSTALL_HINT}"
    raise ToolchainUnavailable(reason)


def main() -> None:
    for status in available_toolchains():
        toolchain = status.toolchain
        if toolchain is not None:
            print(f"{status.language:8} yes  {toolchain.id:40} {toolchain.describe()}")
        else:
            print(f"{status.language:8} no   {status.location:40} {status.reason}")


if __name__ == "__main__":
    main()

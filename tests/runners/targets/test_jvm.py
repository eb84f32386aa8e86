"""What the JVM targets share (runners.targets.jvm): the flags that map a class archive."""

from __future__ import annotations

from pathlib import Path

from runners.targets import jvm


def test_an_archive_maps_quietly_and_none_adds_no_flag() -> None:
    assert jvm.cds_flags(None) == ()
    # A stale archive must not print to stderr: a run's stderr is read for its verdict.
    assert jvm.cds_flags(Path("/t/compile.jsa")) == (
        "-XX:SharedArchiveFile=/t/compile.jsa",
        "-Xlog:cds=off,cds+dynamic=off",
    )

"""``chanfuzz-launch`` (launch.c), a local run's first process: the gate, joining through
descriptors, becoming nobody, and each failure's exit code and words, run for real."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from runners.engine.sandbox.helper import ensure_launcher, launcher_path

NOBODY = 65534


@pytest.fixture(scope="module")
def launcher() -> str:
    return str(ensure_launcher())


def _status(text: str) -> dict[str, list[str]]:
    fields = dict(line.split(":", 1) for line in text.splitlines() if ":" in line)
    return {key: fields[key].split() for key in ("Uid", "Gid", "Groups", "CapEff", "CapPrm")}


def test_the_launcher_is_built_once_and_keyed_by_its_source(launcher: str) -> None:
    path = Path(launcher)
    assert path == launcher_path() and path.is_file()
    assert ensure_launcher() == path
    assert path.name.startswith("chanfuzz-launch-")


def test_it_becomes_the_program_with_its_arguments(launcher: str) -> None:
    done = subprocess.run(
        [launcher, "--", "/bin/echo", "-n", "a b", "c"], capture_output=True, text=True
    )
    assert (done.returncode, done.stdout, done.stderr) == (0, "a b c", "")


def test_as_root_it_becomes_nobody_with_no_group_and_no_capability(launcher: str) -> None:
    if os.geteuid() != 0:
        pytest.skip("only root can become another user")
    done = subprocess.run(
        [launcher, "--user", f"{NOBODY}:{NOBODY}", "--", "/bin/cat", "/proc/self/status"],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    status = _status(done.stdout)
    assert status["Uid"] == [str(NOBODY)] * 4 and status["Gid"] == [str(NOBODY)] * 4
    assert status["Groups"] == []
    assert status["CapEff"] == status["CapPrm"] == ["0000000000000000"]


def test_unable_to_become_the_user_it_starts_nothing(launcher: str, tmp_path: Path) -> None:
    if os.geteuid() == 0:
        pytest.skip("root may become any user")
    marker = tmp_path / "ran"
    done = subprocess.run(
        [launcher, "--user", "0:0", "--", "/usr/bin/touch", str(marker)],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 126
    assert "chanfuzz-launch: cannot become the run's user" in done.stderr
    assert not marker.exists()


def test_it_joins_through_each_descriptor_then_closes_them(launcher: str, tmp_path: Path) -> None:
    # Files stand in for a cgroup's `tasks`: each gets the "0" that moves the writer.
    paths = [tmp_path / "memory", tmp_path / "pids"]
    fds = [os.open(p, os.O_WRONLY | os.O_CREAT, 0o600) for p in paths]
    try:
        argv = [launcher]
        for fd in fds:
            argv += ["--join", str(fd)]
        done = subprocess.run(
            [*argv, "--", "/bin/ls", "/proc/self/fd"],
            capture_output=True,
            text=True,
            pass_fds=fds,
        )
    finally:
        for fd in fds:
            os.close(fd)
    assert done.returncode == 0, done.stderr
    assert [p.read_text() for p in paths] == ["0", "0"]
    assert not {str(fd) for fd in fds} & set(done.stdout.split())


def test_a_join_that_fails_starts_nothing_and_says_so(launcher: str, tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    read_only = os.open("/dev/null", os.O_RDONLY)
    try:
        done = subprocess.run(
            [launcher, "--join", str(read_only), "--", "/usr/bin/touch", str(marker)],
            capture_output=True,
            text=True,
            pass_fds=[read_only],
        )
    finally:
        os.close(read_only)
    assert done.returncode == 125
    assert "chanfuzz-launch: cannot join the run's cgroup" in done.stderr
    assert not marker.exists()


def test_the_gate_holds_the_program_until_its_line(launcher: str, tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    proc = subprocess.Popen(
        [launcher, "--gate", "--", "/bin/sh", "-c", f"touch {marker}; cat"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
    )
    assert proc.stdin is not None
    with pytest.raises(subprocess.TimeoutExpired):
        proc.wait(timeout=0.3)
    assert not marker.exists()
    proc.stdin.write(b"go\nnot for the program\n")
    proc.stdin.close()
    assert proc.stdout is not None
    out = proc.stdout.read()
    proc.wait(timeout=10)
    # The program ran, and read /dev/null, not what followed the gate's line.
    assert (proc.returncode, out) == (0, b"")
    assert marker.exists()


def test_a_gate_closed_without_its_line_starts_nothing(launcher: str, tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    done = subprocess.run(
        [launcher, "--gate", "--", "/usr/bin/touch", str(marker)],
        input=b"",
        capture_output=True,
    )
    assert done.returncode == 125
    assert not marker.exists()


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["--", "true"], "absolute path"),
        (["--join", "x", "--", "/bin/true"], "--join takes a descriptor"),
        (["--user", "65534", "--", "/bin/true"], "--user takes UID:GID"),
        (["--user", "4294967296:0", "--", "/bin/true"], "--user takes UID:GID"),
        (["--user", "-1:-1", "--", "/bin/true"], "--user takes UID:GID"),
        (["--frobnicate", "--", "/bin/true"], "usage:"),
        ([], "absolute path"),
    ],
)
def test_a_bad_command_line_is_refused(launcher: str, argv: list[str], words: str) -> None:
    done = subprocess.run([launcher, *argv], capture_output=True, text=True)
    assert done.returncode == 2
    assert words in done.stderr


def test_a_program_that_cannot_be_executed_is_named(launcher: str, tmp_path: Path) -> None:
    missing = str(tmp_path / "missing")
    done = subprocess.run([launcher, "--", missing], capture_output=True, text=True)
    assert done.returncode == 127
    assert f"chanfuzz-launch: {missing}: No such file or directory" in done.stderr

"""Compiles of generated code run jailed: the host read-only but for the build's work
directory, chanfuzz's cache and toolchain directories and /tmp, no network;
and where bubblewrap cannot jail them, the product says so instead of pretending."""

from __future__ import annotations

import os
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from runners.engine.sandbox import compile_jail, describe

from .conftest import unavailable

pytestmark = pytest.mark.security


@pytest.fixture
def jailed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, Path]]:
    problem = compile_jail.available()
    if problem is not None:
        unavailable(f"compiles cannot be jailed here: {problem}")
    places = {name: tmp_path / name for name in ("work", "cache", "toolchains")}
    for place in places.values():
        place.mkdir()
    monkeypatch.setenv("CHANFUZZ_CACHE_DIR", str(places["cache"]))
    monkeypatch.setenv("CHANFUZZ_TOOLCHAINS_DIR", str(places["toolchains"]))
    # A host directory outside /tmp, which the jail leaves writable.
    with tempfile.TemporaryDirectory(dir="/var/tmp", prefix="chanfuzz-jail-") as elsewhere:
        yield {**places, "elsewhere": Path(elsewhere)}


# The system's Python: outside the checkout, wherever the checkout is.
SYSTEM_PYTHON = "/usr/bin/python3"


def _run_jailed(
    script: str, workdir: Path, writes: tuple[Path, ...] = ()
) -> subprocess.CompletedProcess[str]:
    if not os.access(SYSTEM_PYTHON, os.X_OK):
        unavailable(f"no {SYSTEM_PYTHON} to run inside the jail")
    argv = compile_jail.jail(
        [SYSTEM_PYTHON, "-c", script], workdir=workdir, cwd=workdir, writes=writes
    )
    return subprocess.run(argv, capture_output=True, text=True, timeout=60)


def _writing(*paths: Path) -> str:
    """A script that tries to create each of `paths`, printing "written" or "refused ERRNO"."""
    return (
        f"for path in {tuple(map(str, paths))!r}:\n"
        "    try:\n"
        "        open(path, 'w').close(); print('written')\n"
        "    except OSError as exc:\n"
        "        print('refused', exc.errno)\n"
    )


def test_a_jailed_compile_writes_only_to_its_work_cache_and_toolchain_directories(
    jailed: dict[str, Path],
) -> None:
    in_tmp = Path("/tmp") / f"chanfuzz-jail-test-{jailed['work'].parent.name}"
    targets = {name: place / "written" for name, place in jailed.items()}
    targets["tmp"] = in_tmp
    paths = {name: str(path) for name, path in targets.items()}
    script = (
        f"for name, path in {paths!r}.items():\n"
        "    try:\n"
        "        with open(path, 'w') as out: out.write(name)\n"
        "        print(name, 'written')\n"
        "    except OSError as exc:\n"
        "        print(name, 'refused', exc.errno)\n"
    )
    done = _run_jailed(script, jailed["work"])
    assert done.returncode == 0, done.stderr
    said = dict(line.split(" ", 1) for line in done.stdout.splitlines())
    assert said == {
        "work": "written",
        "cache": "written",
        "toolchains": "written",
        "elsewhere": "refused 30",  # EROFS: the host is mounted read-only
        "tmp": "written",
    }, done.stdout
    for name in ("work", "cache", "toolchains"):
        assert targets[name].read_text() == name
    assert not targets["elsewhere"].exists()
    # /tmp is the host's (toolchains and checkouts may live there).
    assert in_tmp.read_text() == "tmp"
    in_tmp.unlink()


def test_a_build_plans_own_directories_are_writable_and_their_neighbours_are_not(
    jailed: dict[str, Path],
) -> None:
    # A release's cargo target directory stays in its home, outside the toolchains
    # directory once $CHANFUZZ_TOOLCHAINS_DIR points elsewhere (as in the mutant tests).
    declared, neighbour = jailed["elsewhere"] / "home" / "target", jailed["elsewhere"] / "home"
    declared.mkdir(parents=True)
    done = _run_jailed(_writing(declared / "x", neighbour / "x"), jailed["work"], (declared,))
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["written", "refused 30"]
    assert (declared / "x").is_file() and not (neighbour / "x").exists()


def test_the_scratch_directory_is_writable_and_each_place_is_bound_once(
    jailed: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    scratch = jailed["elsewhere"] / "scratch"
    monkeypatch.setenv("CHANFUZZ_SCRATCH_DIR", str(scratch))
    done = _run_jailed(_writing(scratch / "x", jailed["elsewhere"] / "x"), jailed["work"])
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["written", "refused 30"]
    monkeypatch.setenv("CHANFUZZ_SCRATCH_DIR", "/tmp")  # no room in memory
    argv = compile_jail.jail(["true"], workdir=Path("/tmp"), cwd=None)
    binds = [argv[i + 1] for i, arg in enumerate(argv) if arg == "--bind"]
    assert binds.count(str(Path("/tmp").resolve())) == 1 and len(binds) == len(set(binds))


def test_a_jailed_compile_reaches_no_network(jailed: dict[str, Path]) -> None:
    with socket.create_server(("127.0.0.1", 0)) as server:
        server.settimeout(0.5)
        port = server.getsockname()[1]
        script = (
            "import socket\n"
            "try:\n"
            f"    socket.create_connection(('127.0.0.1', {port}), timeout=5)\n"
            "    print('connected')\n"
            "except OSError as exc:\n"
            "    print('refused', type(exc).__name__)\n"
        )
        done = _run_jailed(script, jailed["work"])
        with pytest.raises(TimeoutError):
            server.accept()  # the host's listener heard nothing
    assert done.returncode == 0, done.stderr
    # Its own network namespace: the loopback there has no listener on that port.
    assert done.stdout.strip() == "refused ConnectionRefusedError", done.stdout


def test_a_jailed_compile_sees_none_of_the_hosts_processes(jailed: dict[str, Path]) -> None:
    script = "import os\nprint(sorted(int(p) for p in os.listdir('/proc') if p.isdigit()))"
    done = _run_jailed(script, jailed["work"])
    assert done.returncode == 0, done.stderr
    # A PID namespace of its own: bubblewrap's init and the compiler, nothing else.
    assert done.stdout.strip() in ("[1, 2]", "[2]"), done.stdout


def test_where_compiles_cannot_be_jailed_they_run_as_asked_and_the_product_says_so(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(compile_jail, "available", lambda: "no bubblewrap (a test)")
    argv = ["go", "build", "-o", "prog", "."]
    assert compile_jail.jail(argv, workdir=tmp_path, cwd=None) == argv
    # Then the line of the compilers kept running (runners.engine.resident).
    assert describe("none")[-2] == "compiles: NOT jailed (no bubblewrap (a test))"
    assert "per toolchain, NOT jailed, as other compiles;" in describe("none")[-1]


def test_the_sandbox_description_ends_with_how_compiles_are_contained(
    jailed: dict[str, Path],
) -> None:
    lines = describe("none")
    assert lines[-2].startswith("compiles: jailed (bubblewrap: no network")
    assert "per toolchain, jailed as other compiles, writing only to" in lines[-1]


def test_the_description_says_whether_compilers_are_kept_running(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("CHANFUZZ_RESIDENT_IDLE_S", "60")
    line = compile_jail.describe_resident()
    assert "2 per toolchain" in line and "after 60 s without a build" in line
    monkeypatch.setenv("CHANFUZZ_RESIDENT_COMPILERS", "0")
    cold = compile_jail.describe_resident()
    assert cold.startswith("Kotlin and Clojure compiles: a cold compiler for every build")

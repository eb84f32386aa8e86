"""Compilers kept running between builds (runners.engine.resident): the server and its
client on a small Java tool with the compiler's entry point (fast: one JVM per test),
and the Kotlin compiler itself against `kotlinc` started cold (slow)."""

from __future__ import annotations

import dataclasses
import os
import re
import shutil
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from generator.lambda_chan import Program
from generator.pipeline import generate_program
from generator.settings import settings_for
from runners.engine import resident
from runners.engine.build import COMPILE_LIMITS, CompileError, build, compiles_kept_running
from runners.engine.run_target import target_for
from runners.engine.sandbox import compile_jail
from runners.targets import get_target
from runners.targets.base import ResidentCompile, TargetSpec
from tests.runners.conftest import fake_toolchain, require_toolchain
from tests.runners.engine.processes import alive

# A tool with the entry point kotlinc's K2JVMCompiler has: exec(PrintStream, String[])
# returning something with getCode(). What it does is named by its first argument.
TOOL = """\
import java.io.PrintStream;

public final class EchoTool {
    private static int calls;

    public static final class Code {
        private final int code;
        Code(int code) { this.code = code; }
        public int getCode() { return code; }
    }

    /** A tool of ours (ClojureCompiler's kind): it answers its exit code itself, and may
     * say it is spent, which ends its server after the answer. */
    public static final class Plain {
        private static boolean spent;

        public static boolean spent() { return spent; }

        public Integer exec(PrintStream out, String[] args) {
            calls++;
            spent = args[0].equals("spent");
            out.println("plain " + args[0] + ", call " + calls);
            return spent ? 0 : Integer.parseInt(args[0]);
        }
    }

    public Code exec(PrintStream out, String[] args) throws Exception {
        calls++;
        switch (args[0]) {
            case "calls":
                out.println("call " + calls);
                return new Code(0);
            case "sleep":
                Thread.sleep(Long.parseLong(args[1]));
                out.println("call " + calls);
                return new Code(0);
            case "oom":
                throw new OutOfMemoryError("the tool ran out");
            default:
                System.out.println("stdout: " + String.join(" ", args));
                out.println("args: " + String.join(" ", args));
                return new Code(Integer.parseInt(args[0]));
        }
    }
}
"""


def _java() -> Path:
    java = shutil.which("java")
    if java is None or not (Path(java).resolve().parent / "javac").is_file():
        if os.environ.get("CI") == "true":
            pytest.fail("no JDK (scripts/install_toolchains.sh installs openjdk-17-jdk-headless)")
        pytest.skip("no JDK here")
    return Path(java).resolve()


@pytest.fixture(scope="module")
def server_classes(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The server compiled once for this module's tests."""
    classes = tmp_path_factory.mktemp("server") / f"classes-{resident._source_digest()}"
    javac = _java().parent / "javac"
    subprocess.run(
        [str(javac), "--release", "17", "-d", str(classes), *map(str, resident.SERVER_SOURCES)],
        check=True,
    )
    return classes


@pytest.fixture(autouse=True)
def own_home(monkeypatch: pytest.MonkeyPatch, server_classes: Path) -> Iterator[Path]:
    """Servers of this test only: another process's start ends idle servers beyond the
    most kept (resident._evict), and this test's must not be among them. A short path
    in the temporary directory: a Unix socket's path has at most 107 bytes."""
    directory = Path(tempfile.mkdtemp(prefix="cf-"))
    (directory / server_classes.name).symlink_to(server_classes)
    monkeypatch.setattr(resident, "home", lambda: directory)
    yield directory
    resident.stop_all()
    shutil.rmtree(directory, ignore_errors=True)


@pytest.fixture(scope="module")
def tool_classes(tmp_path_factory: pytest.TempPathFactory) -> Path:
    java = _java()
    out = tmp_path_factory.mktemp("tool")
    (out / "EchoTool.java").write_text(TOOL)
    subprocess.run(
        [str(java.parent / "javac"), "-d", str(out), str(out / "EchoTool.java")], check=True
    )
    return out


Make = Callable[..., ResidentCompile]


@pytest.fixture
def tool(tool_classes: Path, request: pytest.FixtureRequest) -> Make:
    """Compiles for EchoTool (servers of their own: `own_home`)."""
    flag = f"-Dchanfuzz.test={request.node.name}"

    def make(*args: str, tool: str = "EchoTool") -> ResidentCompile:
        return ResidentCompile(
            java=_java(), jvm_flags=(flag,), classpath=(tool_classes,), tool=tool, args=args
        )

    return make


def compile_(spec: ResidentCompile, workdir: Path, timeout_s: float = 60.0):
    return resident.compile(
        spec, workdir=workdir, env=dict(os.environ), timeout_s=timeout_s, limits=COMPILE_LIMITS
    )


def server_pid(spec: ResidentCompile, slot: int = 0) -> int:
    name = resident.server_name(spec)
    return int((resident.home() / f"{name}-{slot}.pid").read_text())


def test_a_compile_answers_with_the_tools_exit_code_and_all_it_printed(
    tool: Make, tmp_path: Path
) -> None:
    result = compile_(tool("3", "two words"), tmp_path)
    assert result is not None and result.exit_code == 3 and not result.timed_out
    assert "args: 3 two words" in result.stderr
    assert "stdout: 3 two words" in result.stderr  # what the tool printed to System.out too


def test_the_next_compile_goes_to_the_server_already_running(tool: Make, tmp_path: Path) -> None:
    first = compile_(tool("calls"), tmp_path)
    pid = server_pid(tool())
    second = compile_(tool("calls"), tmp_path)
    assert first is not None and second is not None
    assert (first.stderr.strip(), second.stderr.strip()) == ("call 1", "call 2")
    assert server_pid(tool()) == pid and alive(pid)
    # The server's start is told apart: it serves the builds after the first one too.
    assert 0 < first.setup_s < first.duration_s and second.setup_s == 0


def test_compiles_under_way_at_once_get_a_server_each(
    tool: Make, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CHANFUZZ_RESIDENT_COMPILERS", "2")
    results = []
    threads = [
        threading.Thread(target=lambda: results.append(compile_(tool("sleep", "1500"), tmp_path)))
        for _ in range(2)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    # Each server served one compile: had one waited for the other, a server says "call 2".
    assert sorted(r.stderr.strip() for r in results if r is not None) == ["call 1", "call 1"]
    assert server_pid(tool(), 0) != server_pid(tool(), 1)


def test_a_compile_past_its_timeout_kills_its_server_and_times_out(
    tool: Make, tmp_path: Path
) -> None:
    assert compile_(tool("calls"), tmp_path) is not None
    pid = server_pid(tool())
    result = compile_(tool("sleep", "60000"), tmp_path, timeout_s=1.0)
    assert result is not None and result.timed_out and not result.ok
    assert 1.0 <= result.duration_s < 10
    _gone(pid)
    after = compile_(tool("calls"), tmp_path)  # a new server, counting from 1
    assert after is not None and after.stderr.strip() == "call 1"


def test_a_server_that_died_between_compiles_is_started_again(tool: Make, tmp_path: Path) -> None:
    assert compile_(tool("calls"), tmp_path) is not None
    os.killpg(server_pid(tool()), 9)
    result = compile_(tool("calls"), tmp_path)
    assert result is not None and result.exit_code == 0 and result.stderr.strip() == "call 1"


def test_an_error_thrown_by_the_tool_is_answered_then_ends_its_server(
    tool: Make, tmp_path: Path
) -> None:
    result = compile_(tool("oom"), tmp_path)
    assert result is not None and result.exit_code == 2
    assert "OutOfMemoryError: the tool ran out" in result.stderr
    _gone(server_pid(tool()))


def test_a_tool_may_answer_its_exit_code_itself(tool: Make, tmp_path: Path) -> None:
    result = compile_(tool("3", tool="EchoTool$Plain"), tmp_path)
    assert result is not None and result.exit_code == 3
    assert result.stderr.strip() == "plain 3, call 1"


def test_a_tool_that_says_it_is_spent_ends_its_server_after_answering(
    tool: Make, tmp_path: Path
) -> None:
    plain = tool("0", tool="EchoTool$Plain")
    assert compile_(plain, tmp_path) is not None
    pid = server_pid(plain)
    spent = compile_(tool("spent", tool="EchoTool$Plain"), tmp_path)
    assert spent is not None and spent.exit_code == 0
    assert spent.stderr.strip() == "plain spent, call 2"
    assert server_pid(plain) == pid  # the same server answered, then ended
    _gone(pid)
    after = compile_(plain, tmp_path)  # a new server, counting from 1
    assert after is not None and after.stderr.strip() == "plain 0, call 1"


def test_an_idle_server_ends_on_its_own(
    tool: Make, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CHANFUZZ_RESIDENT_IDLE_S", "1")
    assert compile_(tool("calls"), tmp_path) is not None
    _gone(server_pid(tool()))
    assert not (resident.home() / f"{resident.server_name(tool())}-0.sock").exists()


def test_work_outside_the_temporary_directory_compiles_cold(tool: Make) -> None:
    outside = Path("/") / "nonexistent-chanfuzz-workdir"
    assert not outside.resolve().is_relative_to(Path(tempfile.gettempdir()).resolve())
    assert compile_(tool("0"), outside) is None
    assert not (resident.home() / f"{resident.server_name(tool())}-0.pid").exists()


def test_no_server_when_none_is_wanted(
    tool: Make, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CHANFUZZ_RESIDENT_COMPILERS", "0")
    assert compile_(tool("0"), tmp_path) is None
    assert not (resident.home() / f"{resident.server_name(tool())}-0.pid").exists()


def test_builds_say_whether_a_compiler_kept_running_takes_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    kotlin = fake_toolchain("kotlin")
    assert compiles_kept_running(kotlin, tmp_path)
    assert not compiles_kept_running(fake_toolchain("go"), tmp_path)  # go build starts cold
    assert not compiles_kept_running(kotlin, Path("/") / "nonexistent-chanfuzz-workdir")
    monkeypatch.setenv("CHANFUZZ_RESIDENT_COMPILERS", "0")
    assert not compiles_kept_running(kotlin, tmp_path)


def test_ending_a_server_spares_a_process_that_took_its_pid(tool: Make) -> None:
    stranger = subprocess.Popen(["sleep", "30"], start_new_session=True)
    try:
        path = resident.home() / f"{resident.server_name(tool())}-0.sock"
        path.with_suffix(".pid").write_text(str(stranger.pid))
        resident._kill(path)
        assert stranger.poll() is None
        assert not path.with_suffix(".pid").exists()
    finally:
        stranger.kill()
        stranger.wait()


def test_a_server_is_named_after_its_jars_and_flags(tmp_path: Path) -> None:
    jar = tmp_path / "tool.jar"
    jar.write_bytes(b"one")
    spec = ResidentCompile(Path("/usr/bin/java"), ("-Xss1m",), (jar,), "Tool", ())
    name = resident.server_name(spec)
    assert resident.server_name(spec) == name
    os.utime(jar, ns=(1, 1))  # a release installed again in place
    assert resident.server_name(spec) != name
    other = ResidentCompile(Path("/usr/bin/java"), ("-Xss2m",), (jar,), "Tool", ())
    assert resident.server_name(other) != resident.server_name(spec)


def test_a_resident_compiler_is_jailed_without_dying_with_its_starter() -> None:
    if compile_jail.available() is not None:
        pytest.skip(compile_jail.available() or "")
    argv = ["java", "-version"]
    assert "--die-with-parent" in compile_jail.jail(argv, workdir=Path("/tmp"), cwd=None)
    kept = compile_jail.jail(argv, workdir=Path("/tmp"), cwd=None, die_with_parent=False)
    assert "--die-with-parent" not in kept and kept[-2:] == argv


def _gone(pid: int, within_s: float = 15.0) -> None:
    deadline = time.monotonic() + within_s
    while alive(pid):
        assert time.monotonic() < deadline, f"server {pid} still running"
        time.sleep(0.05)


# --- the Kotlin compiler -------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("version", [None, "1.0.1"])  # Kotlin 2.2.20, and 1.3.0's compiler
def test_kotlin_from_a_resident_compiler_is_what_kotlinc_gives(
    version: str | None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Byte for byte the same classes, and the same message for a source that does not
    compile, as kotlinc started for the build; the second build finds the server."""
    toolchain = require_toolchain("kotlin", version)
    spec = get_target("kotlin")
    options = dict(target_for(toolchain).render_options)
    source = spec.render_batch(_programs(spec, 4, options), seed=7, repetitions=2, **options)
    broken = 'fun main() { val x: Int = "no" }'

    def both(text: str, way: str) -> tuple[dict[str, bytes] | None, str]:
        monkeypatch.setenv("CHANFUZZ_RESIDENT_COMPILERS", "0" if way == "cold" else "2")
        workdir = tmp_path / f"{way}-{len(text)}"
        try:
            artifact = build(toolchain, text, workdir, use_cache=False)
        except CompileError as error:
            return None, error.output
        classes = artifact.path
        return {str(p.relative_to(classes)): p.read_bytes() for p in classes.rglob("*.class")}, ""

    cold, _ = both(source, "cold")
    served, _ = both(source, "resident")
    plan = spec.build_plan(toolchain, tmp_path, ())  # type: ignore[misc]
    assert plan.resident is not None
    name = resident.server_name(plan.resident)
    pids = {p.read_text() for p in resident.home().glob(f"{name}-*.pid")}
    assert cold and served == cold
    assert both(broken, "cold") == both(broken, "resident")
    assert "Main.kt:1:27: error" in both(broken, "resident")[1]
    assert {p.read_text() for p in resident.home().glob(f"{name}-*.pid")} == pids


# --- the Clojure compiler ------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("language", ["clojure-go", "clojure-thread"])
def test_clojure_from_a_resident_compiler_is_what_clojure_main_gives(
    language: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same classes but for Clojure's gensym numbers, which run the same, and a
    failed compile for a source that does not compile, naming where; the later builds
    find the server, which compiles each batch's namespace afresh."""
    toolchain = require_toolchain(language)
    spec = get_target(language)
    options = dict(target_for(toolchain).render_options)
    programs = _programs(spec, 6, options)
    first = spec.render_batch(programs[:3], seed=7, repetitions=2, **options)
    second = spec.render_batch(programs[3:], seed=8, repetitions=2, **options)
    broken = first.replace("(defn -main", "(defn -main [] (no-such-fn))\n(defn -main2", 1)

    def both(text: str, way: str) -> tuple[Path | None, str]:
        monkeypatch.setenv("CHANFUZZ_RESIDENT_COMPILERS", "0" if way == "cold" else "1")
        workdir = tmp_path / f"{way}-{len(text)}"
        try:
            return build(toolchain, text, workdir, use_cache=False).path, ""
        except CompileError as error:
            return None, error.output

    def classes(path: Path | None) -> list[str]:
        assert path is not None
        return sorted(re.sub(r"__\d+", "__N", str(p.relative_to(path))) for p in path.rglob("*"))

    def run(path: Path | None, program: int) -> str:
        assert path is not None
        argv = [*spec.run_command(toolchain, path), str(program)]
        done = subprocess.run(argv, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        return done.stdout

    cold, _ = both(first, "cold")
    served, _ = both(first, "resident")
    plan = spec.build_plan(toolchain, tmp_path, ())  # type: ignore[misc]
    assert plan.resident is not None
    servers = f"{resident.server_name(plan.resident)}-*.pid"
    pids = {p.read_text() for p in resident.home().glob(servers)}
    assert len(pids) == 1
    assert classes(served) == classes(cold)
    assert [run(served, i) for i in range(3)] == [run(cold, i) for i in range(3)]
    later, _ = both(second, "resident")
    assert classes(later) == classes(both(second, "cold")[0])
    assert (both(broken, "cold")[0], both(broken, "resident")[0]) == (None, None)
    failed = both(broken, "resident")[1]
    assert "no-such-fn" in failed and "main.clj" in failed
    assert {p.read_text() for p in resident.home().glob(servers)} == pids


def _programs(spec: TargetSpec, count: int, options: dict[str, object]) -> list[Program]:
    found, seed = [], 0
    while len(found) < count:
        program = generate_program(seed, settings_for("A"), spec.capabilities).program
        if spec.supports(program, **options):
            found.append(program)
        seed += 1
    return found


def test_the_least_recently_used_servers_end_beyond_the_most_kept(
    tool: Make, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(resident, "MAX_SERVERS", 2)
    specs = [
        dataclasses.replace(tool("calls"), jvm_flags=(f"-Dchanfuzz.evict={i}",)) for i in range(3)
    ]
    pids = []
    for spec in specs:
        assert compile_(spec, tmp_path) is not None
        pids.append(server_pid(spec))
        time.sleep(0.05)  # lock files' times tell the order of use
    _gone(pids[0])
    assert alive(pids[1]) and alive(pids[2])


def test_a_shared_directory_is_not_private(tmp_path: Path) -> None:
    shared = tmp_path / "shared"
    shared.mkdir(mode=0o755)
    shared.chmod(0o755)
    assert not resident._private(shared)
    shared.chmod(0o700)
    assert resident._private(shared)


def test_what_servers_gone_for_a_day_left_is_removed() -> None:
    old, recent, running = (resident.home() / f"tidy-test-{n}-0" for n in range(3))
    files = [old.with_suffix(".log"), recent.with_suffix(".log"), running.with_suffix(".log")]
    try:
        for path in [*files, running.with_suffix(".pid")]:
            path.write_text("")
        a_day_ago = time.time() - 2 * 86_400
        for path in (files[0], files[2]):
            os.utime(path, (a_day_ago, a_day_ago))
        resident._tidy()
        assert [path.exists() for path in files] == [False, True, True]
    finally:
        for path in [*files, running.with_suffix(".pid")]:
            path.unlink(missing_ok=True)

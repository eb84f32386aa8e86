"""runners.targets.kotlin: what a finding's standalone reproducer fetches of the release."""

from __future__ import annotations

import re
import subprocess

import pytest

from runners.engine.toolchains import installed_toolchains
from runners.targets.kotlin import reproducer_fetch
from tests.runners.conftest import require_toolchain

_URL = re.compile(r'"(https://repo1\.maven\.org/maven2/\S+\.jar)"')


def test_a_reproducer_fetches_the_coroutines_jar_the_release_installed() -> None:
    require_toolchain("kotlin")
    for toolchain in installed_toolchains("kotlin"):
        lines = "\n".join(reproducer_fetch(toolchain))
        (jar,) = [p.name for p in toolchain.runtime_classpath if "coroutines" in p.name]
        artifact = jar.removesuffix(f"-{toolchain.version}.jar")  # -core, or -core-jvm
        (url,) = _URL.findall(lines)
        assert url.endswith(f"/org/jetbrains/kotlinx/{artifact}/{toolchain.version}/{jar}")
        assert f"Seen with Kotlin {toolchain.component('kotlin')}" in lines
        assert 'if [ -z "${COROUTINES_JAR:-}" ]' in lines  # the user's own jar wins


@pytest.mark.slow
def test_the_jar_a_reproducer_fetches_is_on_maven_central() -> None:
    toolchain = require_toolchain("kotlin")
    (url,) = _URL.findall("\n".join(reproducer_fetch(toolchain)))
    head = subprocess.run(
        ["curl", "-fsSI", "--max-time", "60", url], capture_output=True, text=True, timeout=90
    )
    assert head.returncode == 0, head.stderr

"""core.async's releases on Maven Central, and the Clojure each is paired with.

- Releases: every version of ``org.clojure/core.async`` in Maven Central's
  ``maven-metadata.xml`` (asked at most once a day, cached beside the toolchains).
- Pairing: a release runs on the Clojure its POM names (the ``clojure.version``
  property, its own or its parent's, ``pom.contrib``); the oldest releases'
  POMs name none (their parent is Sonatype's generic ``oss-parent``) and get
  ``NO_POM_CLOJURE``, recorded as a substitution. A Clojure older than
  ``OLDEST_CLOJURE`` would be replaced by it, recorded too.
- What a release can run: releases before ``FIRST_PUT_STATUS`` return nil from every put
  (``put_result``, ``close_note``).

Used by :mod:`runners.targets.clojure_core_async` (listing) and
:mod:`runners.targets.clojure_install` (installing).
"""

from __future__ import annotations

import json
import os
import time
import xml.etree.ElementTree as ET
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from generator.render.clojure import NIL_PUTS
from runners import config
from runners.targets import jvm
from runners.targets.base import ToolchainUnavailable, version_key

GROUP_PATH = "org/clojure"
ARTIFACT = "core.async"
METADATA_MAX_AGE_S = 24 * 3600
# The Clojure of releases whose POM names none (0.1.x alphas and 0.2.x inherit
# Sonatype's oss-parent): the first that pom.contrib-era releases (0.3) name.
NO_POM_CLOJURE = "1.7.0"
# The oldest Clojure a release is installed with: the training programs of both flavours
# compile and run on 1.7.0 with JDK 17 (core.async 0.1.215 … 0.2.371 were installed so);
# older Clojure releases were not tried. No release's POM names an older one.
OLDEST_CLOJURE = "1.7.0"
# The first release whose puts return true, or false on a closed channel (core.async
# commit cf8dc1b, "put returns status"); the ones before return nil (module docstring).
FIRST_PUT_STATUS = "0.1.278.0-76b25b-alpha"


def put_result(version: str) -> str:
    """What a completed put returns in core.async ``version`` (the renderer's put_result)."""
    return "nil" if version_key(version) < version_key(FIRST_PUT_STATUS) else "boolean"


def close_note(version: str) -> str:
    """What ``toolchains list`` says of a release that cannot run programs that close."""
    return f"no close: {NIL_PUTS}" if put_result(version) == "nil" else ""


def parse_metadata(text: str) -> list[str]:
    """Every version a maven-metadata.xml lists, oldest first (Maven's order is kept:
    it is publication order, and alphas sort badly by number alone)."""
    root = ET.fromstring(text)
    return [v.text.strip() for v in root.iterfind("versioning/versions/version") if v.text]


def _cache_path() -> Path:
    return config.toolchains_dir() / ".cache" / "maven-core.async.json"


def core_async_releases(*, refresh: bool = False, offline: bool = False) -> list[str]:
    """Every core.async version on Maven Central (asked at most daily, cached)."""
    cache = _cache_path()
    if not refresh and cache.is_file():
        fresh = os.path.getmtime(cache) > time.time() - METADATA_MAX_AGE_S
        if offline or fresh:
            return list(json.loads(cache.read_text())["versions"])
    if offline:
        raise ToolchainUnavailable("offline, and no list of core.async's releases is cached")
    url = f"{config.maven_central()}/{GROUP_PATH}/{ARTIFACT}/maven-metadata.xml"
    try:
        versions = parse_metadata(jvm.maven_fetch(url).decode())
    except (OSError, ET.ParseError) as error:  # URLError and TimeoutError are OSErrors
        raise ToolchainUnavailable(f"Maven Central did not list core.async: {error}") from None
    cache.parent.mkdir(parents=True, exist_ok=True)
    cache.write_text(json.dumps({"versions": versions}) + "\n")
    return versions


_POM_NS = {"m": "http://maven.apache.org/POM/4.0.0"}


def pom_clojure_version(pom: str, parent_pom: Callable[[str, str, str], str]) -> str | None:
    """The ``clojure.version`` a release's POM sets, following its parents
    (``parent_pom(group, artifact, version)`` gives a parent's text); None when none does."""
    root = ET.fromstring(pom)
    prop = root.findtext("m:properties/m:clojure.version", "", _POM_NS).strip()
    if prop and "$" not in prop:
        return prop
    parent = root.find("m:parent", _POM_NS)
    if parent is None:
        return None
    group = parent.findtext("m:groupId", "", _POM_NS)
    if group != "org.clojure":  # Sonatype's oss-parent names no Clojure
        return None
    artifact = parent.findtext("m:artifactId", "", _POM_NS)
    version = parent.findtext("m:version", "", _POM_NS)
    return pom_clojure_version(parent_pom(group, artifact, version), parent_pom)


def central_pom(group: str, artifact: str, version: str) -> str:
    path = group.replace(".", "/")
    url = f"{config.maven_central()}/{path}/{artifact}/{version}/{artifact}-{version}.pom"
    return jvm.maven_fetch(url).decode()


@dataclass(frozen=True)
class ClojurePairing:
    """The Clojure a core.async release is installed with, and why if not its POM's."""

    clojure: str
    pom_clojure: str | None  # what the release's POM names (None: nothing)
    substitution: str = ""


def clojure_pairing(version: str, pom_clojure: str | None) -> ClojurePairing:
    """Pair a release with its POM's Clojure, or the nearest that runs here."""
    if pom_clojure is None:
        return ClojurePairing(
            NO_POM_CLOJURE,
            None,
            f"Clojure {NO_POM_CLOJURE}: the POM of core.async {version} names no Clojure",
        )
    if version_key(pom_clojure) < version_key(OLDEST_CLOJURE):
        return ClojurePairing(
            OLDEST_CLOJURE,
            pom_clojure,
            f"Clojure {OLDEST_CLOJURE} instead of {pom_clojure}, which does not run here",
        )
    return ClojurePairing(pom_clojure, pom_clojure)


# The targets that test core.async: one install serves both.
TARGETS = ("clojure-go", "clojure-thread")

"""The clojure-thread target: core.async's unbuffered `chan`, processes as `thread`s (real
threads of core.async's thread pool), `<!!`, `>!!` and `alts!!` with put and take operations.

Toolchains (core.async releases from Maven Central, each with its Clojure), builds
and the reading of runs are shared with clojure-go
(:mod:`runners.targets.clojure_core_async`); this module says which flavour.
"""

from __future__ import annotations

from runners.targets import clojure_core_async
from runners.targets.clojure_core_async import ClojureFlavour

FLAVOUR = ClojureFlavour(target="clojure-thread", flavour="thread")

TARGET = clojure_core_async.target_spec(
    FLAVOUR,
    title="Clojure (core.async thread)",
    extension="thread.clj",
    position=61,
    concurrency="threads",
    dockerfile="docker/clojure-thread.Dockerfile",
)

"""The clojure-go target: core.async's unbuffered `chan`, processes as `go` blocks (state
machines on core.async's dispatch pool), `<!`, `>!` and `alts!` with put and take operations.

Toolchains (core.async releases from Maven Central, each with its Clojure), builds
and the reading of runs are shared with clojure-thread
(:mod:`runners.targets.clojure_core_async`); this module says which flavour.
"""

from __future__ import annotations

from runners.targets import clojure_core_async
from runners.targets.clojure_core_async import ClojureFlavour

FLAVOUR = ClojureFlavour(target="clojure-go", flavour="go")

TARGET = clojure_core_async.target_spec(
    FLAVOUR,
    title="Clojure (core.async go)",
    extension="go.clj",
    position=60,
    concurrency="go blocks",
    dockerfile="docker/clojure-go.Dockerfile",
)

#!/usr/bin/env bash
# Set up, lint, and run the whole test suite, slow tests included.
# Extra arguments go to pytest: `scripts/test.sh -m "not slow"` is the quick loop.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
# The sandboxes' own needs: bubblewrap, and podman serving the Docker API so the
# docker backend is tested for real (prints DOCKER_HOST, which is found anyway).
./scripts/install_sandbox.sh >/dev/null
./scripts/install_browser.sh
# A few kotlinx.coroutines releases that differ (toolchains/kotlin/representative.txt):
# the regression fixture of the select stack overflow
# (tests/runners/kotlin_study/test_kotlin_regression.py) must crash the buggy ones and
# pass the fixed ones. Every release is the report's sweep (manage.py kotlin_report).
# About 10–30 s and 80 MB each the first time; a re-run only checks.
PYTHONPATH=. .venv/bin/python -m runners.engine.install kotlin-representative
# An older core.async that can close channels (the defaults' oldest, 0.1.215, cannot): the
# buffered conformance tests sample it (tests/generator/render/test_conformance_buffered_jvm.py).
.venv/bin/python manage.py toolchains install clojure-go 0.3.443 >/dev/null

# compose.yaml is validated with `docker-compose config` (tests/test_compose.py): Debian's
# docker-compose, a few MB of Python. No engine runs it here (docs/deploy.md).
if ! command -v docker-compose >/dev/null 2>&1 && [[ $(id -u) -eq 0 ]]; then
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq docker-compose >/dev/null 2>&1 \
    || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
         docker-compose >/dev/null; }
fi

.venv/bin/ruff check .
# The import contracts of pyproject.toml ([tool.importlinter]; docs/architecture.md).
.venv/bin/lint-imports

status=0
# pytest's exit status, but 1 for its "no tests collected" (5): a suite that tests nothing
# must not pass.
run_pytest() {
  local code=0
  .venv/bin/python -m pytest "$@" || code=$?
  if [[ $code -eq 5 ]]; then
    echo "test.sh: pytest collected no tests ($*)" >&2
    code=1
  fi
  return "$code"
}
if [[ $# -gt 0 ]]; then
  run_pytest --durations=30 "$@" || status=$?
else
  # The whole suite in two runs: the quick tests on two workers, as in the developer loop
  # (they share nothing but the machine), then the slow ones one at a time: most of them
  # build or run on every core already, and many wait on timeouts that a busy neighbour
  # could trip. The slowest are named at the end: where CI's time goes.
  run_pytest -m "not slow" -n 2 -q -p no:cacheprovider || status=$?
  run_pytest -m slow --durations=30 || { code=$?; [[ $status -ne 0 ]] || status=$code; }
fi

# The database-touching quick tests again, on PostgreSQL (Debian's server, a throwaway
# one from scripts/start_postgres.sh; the run above used SQLite): migrations, the
# services, selectors, jobs and pages, and the EXPLAIN checks of
# tests/runners/campaigns/test_postgres_indexes.py. About 2 minutes on 2 cores.
# CHANFUZZ_TEST_POSTGRES=0 skips it.
if [[ "${CHANFUZZ_TEST_POSTGRES:-1}" != 0 ]]; then
  pg_status=0
  pg_url=$(./scripts/start_postgres.sh) || pg_status=$?
  if [[ $pg_status -eq 0 ]]; then
    echo "test.sh: the database tests again on PostgreSQL (${pg_url#export })" >&2
    env "${pg_url#export }" .venv/bin/python -m pytest -q -n 2 -p no:cacheprovider \
      -m "not slow or postgres" tests/site tests/runners/campaigns || pg_status=$?
    if [[ $pg_status -eq 5 ]]; then
      echo "test.sh: the PostgreSQL run collected no tests" >&2
      pg_status=1
    fi
  else
    echo "test.sh: PostgreSQL did not start (scripts/start_postgres.sh)" >&2
  fi
  if [[ $status -eq 0 ]]; then status=$pg_status; fi
fi
exit "$status"

#!/usr/bin/env bash
# Set up, lint, and run the whole test suite, slow tests included.
# Extra arguments go to pytest: `scripts/test.sh -m "not slow"` is the quick loop.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh

.venv/bin/ruff check .

status=0
.venv/bin/python -m pytest "$@" || status=$?
if [[ $status -eq 5 ]]; then
  # pytest's "no tests collected": a suite that tests nothing must not pass.
  echo "test.sh: pytest collected no tests" >&2
  exit 1
fi
exit "$status"

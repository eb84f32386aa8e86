#!/usr/bin/env bash
# Set up a checkout: a virtualenv in .venv with chanfuzz and its dev tools, the
# language toolchains (scripts/install_toolchains.sh), and the database schema.
# Idempotent: a second run only re-checks, so run.sh and test.sh call it every time.
set -euo pipefail
cd "$(dirname "$0")/.."

python=${PYTHON:-}
if [[ -z $python ]]; then
  if command -v python3.11 >/dev/null 2>&1; then python=python3.11; else python=python3; fi
fi

# A .venv left half-made (no interpreter) by an interrupted run is made again.
if [[ ! -x .venv/bin/python ]]; then
  if ! "$python" -c 'import ensurepip' >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1; then
    # Debian's own python3 ships venv's pip bootstrap separately.
    echo "setup: installing python3-venv" >&2
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv >/dev/null
  fi
  rm -rf .venv
  "$python" -m venv .venv
fi

# pip install -e builds an editable wheel every time (seconds); skip it while
# pyproject.toml is unchanged since the last successful install.
stamp=.venv/.chanfuzz-installed
want=$(sha256sum pyproject.toml | cut -d' ' -f1)
if [[ ! -f $stamp || $(cat "$stamp") != "$want" ]]; then
  .venv/bin/python -m pip install --quiet --disable-pip-version-check -e '.[dev]'
  echo "$want" >"$stamp"
fi

if [[ -f scripts/install_toolchains.sh ]]; then
  bash scripts/install_toolchains.sh
fi

.venv/bin/python manage.py migrate --noinput --verbosity 0

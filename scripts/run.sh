#!/usr/bin/env bash
# Set everything up, then run chanfuzz's main job on its embedded defaults:
# SQLite, a local Redis it starts itself (unless REDIS_URL answers), one RQ
# worker, the web server on http://127.0.0.1:8000/ and a demo campaign of 100
# Go programs. Ctrl-C stops all of it. Extra arguments go to
# `manage.py worker_services` (e.g. --workers 4, --demo 0).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh

exec ./scripts/start_services.sh --demo 100 "$@"

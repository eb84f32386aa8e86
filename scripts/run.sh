#!/usr/bin/env bash
# Set everything up, then run chanfuzz's main job on its embedded defaults.
# Extra arguments go to the main job.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh

# The main job: the one line to change when it becomes a fuzzing campaign.
exec .venv/bin/python manage.py sample --count 200 --heuristic A "$@"

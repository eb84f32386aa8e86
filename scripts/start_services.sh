#!/usr/bin/env bash
# Start the services campaigns need, in the foreground, until Ctrl-C or SIGTERM:
# Redis (a private redis-server under var/redis/ unless REDIS_URL answers),
# RQ workers and the Django server. Everything it started is stopped on exit
# (manage.py worker_services does the starting and stopping; the trap makes
# sure a SIGTERM to this script reaches it). Arguments go to worker_services.
# More workers on other hosts: `python manage.py rqworker default` with the
# same REDIS_URL and DATABASE_URL.
set -euo pipefail
cd "$(dirname "$0")/.."
# Local use: debug on (plain HTTP, the development key) unless said otherwise. The
# settings' own defaults are production's: debug off, HTTPS only.
export DJANGO_DEBUG="${DJANGO_DEBUG:-true}"

.venv/bin/python manage.py worker_services "$@" &
pid=$!
trap 'kill -TERM "$pid" 2>/dev/null; wait "$pid"' INT TERM
wait "$pid"

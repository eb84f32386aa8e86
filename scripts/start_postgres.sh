#!/usr/bin/env bash
# Start a throwaway PostgreSQL for tests and local use, and print its DATABASE_URL.
#
#   eval "$(scripts/start_postgres.sh)"        # exports DATABASE_URL
#   scripts/start_postgres.sh --stop           # stops it (the data stays until --wipe)
#   scripts/start_postgres.sh --wipe           # stops it and deletes its directory
#
# Idempotent: a server already running in the directory is kept and only its URL printed.
# Debian's server (apt-get install postgresql; its initdb and pg_ctl live in
# /usr/lib/postgresql/<version>/bin, not on PATH). It listens on a unix socket in its own
# directory only (no TCP) unless CHANFUZZ_PG_LISTEN is set (e.g. 127.0.0.1), with trust
# authentication for local connections: it is for tests, never for a deployment
# (compose.yaml has that PostgreSQL; docs/deploy.md).
#
#   CHANFUZZ_PG_DIR     its directory (data/, socket/, log), default /tmp/chanfuzz-postgres-$UID
#                       (the postgres user must be able to reach it, so not under /root)
#   CHANFUZZ_PG_PORT    the port (the socket's name on a unix socket), default 55432
#   CHANFUZZ_PG_LISTEN  TCP addresses to listen on too, default none
#   CHANFUZZ_PG_DB      the database created in it, default chanfuzz
#
# Run as root, the server runs as the `postgres` user (PostgreSQL refuses root).
# Only stdout carries the `export DATABASE_URL=…` line; progress goes to stderr.
set -euo pipefail

PG_DIR="${CHANFUZZ_PG_DIR:-/tmp/chanfuzz-postgres-$(id -u)}"
PG_PORT="${CHANFUZZ_PG_PORT:-55432}"
PG_LISTEN="${CHANFUZZ_PG_LISTEN:-}"
PG_DB="${CHANFUZZ_PG_DB:-chanfuzz}"

bindir=""
for candidate in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
  if [[ -x "$candidate/pg_ctl" ]]; then bindir="$candidate"; break; fi
done
if [[ -z "$bindir" ]]; then
  echo "start_postgres.sh: no PostgreSQL server (apt-get install postgresql)" >&2
  exit 1
fi

if [[ $(id -u) -eq 0 ]]; then
  run_user=postgres
  as_pg() { runuser -u postgres -- "$@"; }
else
  run_user=$(id -un)
  as_pg() { "$@"; }
fi

data="$PG_DIR/data"
socket="$PG_DIR/socket"
log="$PG_DIR/postgres.log"

case "${1:-}" in
  --stop|--wipe)
    if [[ -f "$data/postmaster.pid" ]]; then
      as_pg "$bindir/pg_ctl" -D "$data" -m fast -w stop >&2 || true
    fi
    if [[ "$1" == --wipe ]]; then rm -rf "$PG_DIR"; fi
    exit 0
    ;;
  "") ;;
  *) echo "usage: $0 [--stop|--wipe]" >&2; exit 2 ;;
esac

mkdir -p "$PG_DIR" "$socket"
chmod 755 "$PG_DIR"
if [[ $(id -u) -eq 0 ]]; then chown "$run_user" "$PG_DIR" "$socket"; fi

if [[ ! -f "$data/PG_VERSION" ]]; then
  echo "start_postgres.sh: initdb in $data" >&2
  # A half-made data directory from a run cut off is started over.
  rm -rf "$data"
  as_pg "$bindir/initdb" -D "$data" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 \
    >"$PG_DIR/initdb.log" 2>&1 || { cat "$PG_DIR/initdb.log" >&2; exit 1; }
fi

url_host=$([[ -n "$PG_LISTEN" ]] && echo "${PG_LISTEN%%,*}" || echo "$socket")
if ! as_pg "$bindir/pg_ctl" -D "$data" status >/dev/null 2>&1; then
  echo "start_postgres.sh: starting PostgreSQL ($(basename "$(dirname "$bindir")")) on $url_host:$PG_PORT" >&2
  # Tests: durability is not wanted (fsync off) and many test databases come and go.
  as_pg "$bindir/pg_ctl" -D "$data" -l "$log" -w -t 60 start -o \
    "-k $socket -p $PG_PORT -c listen_addresses='$PG_LISTEN' -c fsync=off \
     -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" >&2 \
    || { tail -20 "$log" >&2; exit 1; }
fi

for _ in $(seq 50); do
  as_pg "$bindir/pg_isready" -q -h "$socket" -p "$PG_PORT" && break
  sleep 0.2
done
if ! as_pg "$bindir/psql" -h "$socket" -p "$PG_PORT" -U postgres -Atqc \
  "SELECT 1 FROM pg_database WHERE datname = '$PG_DB'" postgres | grep -q 1; then
  as_pg "$bindir/createdb" -h "$socket" -p "$PG_PORT" -U postgres "$PG_DB"
fi

if [[ -n "$PG_LISTEN" ]]; then
  echo "export DATABASE_URL=postgres://postgres@${url_host}:${PG_PORT}/${PG_DB}"
else
  # dj-database-url takes a percent-encoded socket directory as the host.
  encoded=$(printf '%s' "$socket" | sed 's|/|%2F|g')
  echo "export DATABASE_URL=postgres://postgres@${encoded}:${PG_PORT}/${PG_DB}"
fi

"""The test database on PostgreSQL as on SQLite (a plugin: tests/conftest.py loads it).

A test runs inside a transaction that is rolled back at its end. Code under test closes
its connections on purpose: a management command's `run_from_argv` ends with
`connections.close_all()`, the RQ jobs start with `close_old_connections()` (which closes a
connection not in autocommit: inside the test's transaction, always), and the worker closes
its connection before it forks. On the in-memory SQLite test database a close does nothing,
so the test goes on; on PostgreSQL it drops the test's transaction and every later query
fails with "the connection is closed". With DATABASE_URL on PostgreSQL
(scripts/start_postgres.sh, the second run of scripts/test.sh) those closes are made
no-ops for tests that run in a transaction, as SQLite's are. Tests with
`transaction=True` (live servers, separate processes) keep the real behaviour.

`drop_postgres_database` removes a database a test made in scripts/start_postgres.sh's
server, which outlives test runs.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest


@pytest.fixture(autouse=True)
def _keep_the_test_transactions_connection(request: pytest.FixtureRequest) -> Iterator[None]:
    marker = request.node.get_closest_marker("django_db")
    in_transaction = (marker is not None and not marker.kwargs.get("transaction")) or (
        "db" in request.fixturenames
    )
    if not in_transaction or "transactional_db" in request.fixturenames:
        yield
        return
    from django.db import connection

    if connection.vendor == "sqlite":
        yield
        return
    from django.db.backends.base.base import BaseDatabaseWrapper
    from django.db.utils import ConnectionHandler

    patch = pytest.MonkeyPatch()
    patch.setattr(ConnectionHandler, "close_all", lambda self: None)
    patch.setattr(BaseDatabaseWrapper, "close_if_unusable_or_obsolete", lambda self: None)
    try:
        yield
    finally:
        patch.undo()


def drop_postgres_database(url: str) -> None:
    """Drop the database `url` names (a DATABASE_URL of scripts/start_postgres.sh's server),
    connected to the server's own `postgres` database; sessions left on it are ended."""
    import psycopg

    server, name = url.replace("postgres://", "postgresql://").rsplit("/", 1)
    with psycopg.connect(server + "/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

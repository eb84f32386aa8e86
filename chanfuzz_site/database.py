"""The check that commands working on campaigns make first: every migration applied
to the database, so an old database stops them with what to run instead of a
traceback from a worker, half-way into a campaign."""

from __future__ import annotations

from django.core.management.base import CommandError
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.migrations.executor import MigrationExecutor


def require_migrated(database: str = DEFAULT_DB_ALIAS) -> None:
    """Raise a CommandError (exit 2) naming the migrations `database` lacks, if any."""
    connection = connections[database]
    executor = MigrationExecutor(connection)
    missing = executor.migration_plan(executor.loader.graph.leaf_nodes())
    if not missing:
        return
    names = [f"{migration.app_label}.{migration.name}" for migration, _ in missing]
    shown = ", ".join(names[:3]) + (f" and {len(names) - 3} more" if len(names) > 3 else "")
    raise CommandError(
        f"the database {connection.settings_dict['NAME']} lacks {len(names)} migration(s)"
        f" ({shown}): run `python manage.py migrate` first",
        returncode=2,
    )

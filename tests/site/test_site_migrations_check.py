"""Commands that work on campaigns refuse a database that lacks migrations, naming them
and what to run, instead of failing in a worker half-way into a campaign."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.db.migrations.loader import MigrationLoader

from chanfuzz_site.database import require_migrated


def _last_two() -> tuple[str, str]:
    """The names of the runners app's last migration and of the one before it."""
    graph = MigrationLoader(None, ignore_no_migrations=True).graph
    (leaf,) = graph.leaf_nodes("runners")
    (parent,) = (p for p in graph.node_map[leaf].parents if p[0] == "runners")
    return leaf[1], parent[1]


@pytest.fixture
def one_migration_behind(transactional_db: None) -> Iterator[None]:
    call_command("migrate", "runners", _last_two()[1], verbosity=0)
    try:
        yield
    finally:
        call_command("migrate", "runners", verbosity=0)


def test_a_migrated_database_passes(db: None) -> None:
    require_migrated()


@pytest.mark.parametrize(
    "command",
    [
        ["campaign", "list"],
        ["rust_report", "--steps", "none"],
        ["mutation_report", "--steps", "none"],
    ],
)
def test_commands_refuse_a_database_one_migration_behind(
    one_migration_behind: None, tmp_path: Path, command: list[str]
) -> None:
    args = [*command, "--output", str(tmp_path)] if "report" in command[0] else command
    with pytest.raises(CommandError) as refused:
        call_command(*args)
    assert refused.value.returncode == 2
    message = str(refused.value)
    assert f"lacks 1 migration(s) (runners.{_last_two()[0]})" in message
    assert "run `python manage.py migrate` first" in message
    assert not list(tmp_path.iterdir())

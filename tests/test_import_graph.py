"""The import graph of generator, runners and chanfuzz_site has no cycle, module by module.

`lint-imports` (pyproject.toml) checks the layer rules and that no two sibling
packages or modules import each other; no contract type says "no cycle at
all", so this test does, with grimp (import-linter's graph library): imports
inside functions count, and so do cycles across the three packages or between
a package's __init__ and its own modules. A failure names one cycle.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import grimp

REPO = Path(__file__).resolve().parents[1]
PACKAGES = ("generator", "runners", "chanfuzz_site")


def find_cycle(graph: grimp.ImportGraph) -> list[str] | None:
    """One cycle of `graph` as [a, b, …, a] (a imports b …), or None when it is acyclic."""
    done: set[str] = set()
    for root in sorted(graph.modules):
        if root in done:
            continue
        path = [root]  # the modules being visited, each importing the next
        on_path = {root}
        todo = [iter(sorted(graph.find_modules_directly_imported_by(root)))]
        while todo:
            imported = next(todo[-1], None)
            if imported is None:
                todo.pop()
                done.add(path[-1])
                on_path.discard(path.pop())
            elif imported in on_path:
                return [*path[path.index(imported) :], imported]
            elif imported not in done:
                path.append(imported)
                on_path.add(imported)
                todo.append(iter(sorted(graph.find_modules_directly_imported_by(imported))))
    return None


def test_find_cycle_names_the_modules_of_a_cycle() -> None:
    graph = grimp.ImportGraph()
    for importer, imported in [("a", "b"), ("b", "c"), ("c", "d"), ("d", "b"), ("a", "e")]:
        graph.add_import(importer=importer, imported=imported)
    assert find_cycle(graph) == ["b", "c", "d", "b"]
    graph.remove_import(importer="d", imported="b")
    assert find_cycle(graph) is None


def test_the_project_has_no_import_cycle() -> None:
    # The graph is of this checkout's code, not of another copy installed elsewhere.
    for package in PACKAGES:
        spec = importlib.util.find_spec(package)
        assert spec and spec.origin and Path(spec.origin).is_relative_to(REPO), spec
    graph = grimp.build_graph(*PACKAGES, cache_dir=None)
    assert {"runners.campaigns.services", "runners.engine.execute"} <= graph.modules
    cycle = find_cycle(graph)
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])

"""No two modules of builder/ import each other, directly or through others (issue 24).

A cycle makes the import order matter, invites imports hidden inside functions, and means neither
module can be read or changed without the other. The graph is built here from the source with
`ast`, not by importing anything: every `import` and `from … import` anywhere in a module counts,
at the top, inside a function or under `if TYPE_CHECKING:` alike, so no cycle can hide behind a
lazy or a type-only import. Cycles are the strongly connected components of that graph (Tarjan's
algorithm, written out here).

The same graph keeps the layers apart: the engine (builder.engine) knows no grading system, and no
system (builder.tdqs, builder.flowmcp, builder.cleo) knows another or the registry of them all
(builder.systems), directly or through any module in between, counting the packages' `__init__`
modules Python runs before a module inside them.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = "builder"


def modules() -> dict[str, tuple[Path, bool]]:
    """Dotted module name → (file, is a package's `__init__`)."""
    found: dict[str, tuple[Path, bool]] = {}
    for path in sorted((ROOT / PACKAGE).rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        if is_package:
            parts = parts[:-1]
        found[".".join(parts)] = (path, is_package)
    return found


def imported(name: str, path: Path, is_package: bool, known: set[str]) -> set[str]:
    """The modules of `known` that the module `name` imports: `from a.b import c` is the module
    `a.b.c` when there is one, else `a.b` itself."""
    package = name if is_package else name.rpartition(".")[0]
    targets: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            targets.update(alias.name for alias in node.names if alias.name in known)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                source = ".".join([*base, node.module] if node.module else base)
            else:
                source = node.module or ""
            for alias in node.names:
                if f"{source}.{alias.name}" in known:
                    targets.add(f"{source}.{alias.name}")
                elif source in known:
                    targets.add(source)
    targets.discard(name)
    return targets


def import_graph() -> dict[str, set[str]]:
    found = modules()
    return {name: imported(name, path, is_package, set(found)) for name, (path, is_package) in found.items()}


def strongly_connected(graph: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's algorithm, iterative (no recursion limit to meet): the components of more than one
    module, each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []
    counter = 0
    for root in sorted(graph):
        if root in index:
            continue
        work: list[tuple[str, list[str]]] = [(root, sorted(graph[root]))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, successors = work[-1]
            if successors:
                nxt = successors.pop()
                if nxt not in index:
                    index[nxt] = low[nxt] = counter
                    counter += 1
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, sorted(graph[nxt])))
                elif nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    components.append(sorted(component))
    return sorted(components)


def test_the_cycle_finder_finds_cycles_and_only_cycles() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": {"e"}, "e": {"d"}, "f": {"a"}, "g": set()}
    assert strongly_connected(graph) == [["a", "b", "c"], ["d", "e"]]
    assert strongly_connected({"a": {"b"}, "b": {"c"}, "c": set()}) == []


def test_the_graph_sees_lazy_relative_and_type_only_imports(tmp_path: Path) -> None:
    source = tmp_path / "m.py"
    source.write_text(
        "from typing import TYPE_CHECKING\n"
        "from . import sibling\n"
        "from .pkg import thing\n"
        "if TYPE_CHECKING:\n    from builder.typed import T\n"
        "def f():\n    import builder.lazy\n",
        encoding="utf-8",
    )
    known = {"builder.sibling", "builder.pkg", "builder.typed", "builder.lazy", "builder.m"}
    assert imported("builder.m", source, False, known) == {
        "builder.sibling", "builder.pkg", "builder.typed", "builder.lazy",
    }


def test_the_graph_is_the_builders() -> None:
    graph = import_graph()
    # A few edges known from the source, so an empty graph cannot pass the test below.
    assert "builder.systems" in graph["builder.build"]
    assert "builder.engine.grading_system" in graph["builder.cleo.pages.section"]
    assert "builder.tdqs.pages.outputs" in graph["builder.tdqs.pages.section"]
    assert len(graph) > 100


def test_no_import_cycle_between_builder_modules() -> None:
    assert strongly_connected(import_graph()) == []


SYSTEMS = ("builder.tdqs", "builder.flowmcp", "builder.cleo")


def within(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


def reachable(graph: dict[str, set[str]], start: str) -> set[str]:
    """Every module that importing `start` imports, through any chain: each module's own imports
    and the packages enclosing it, whose `__init__` Python runs first."""
    seen: set[str] = set()
    todo = [start]
    while todo:
        node = todo.pop()
        parts = node.split(".")
        for nxt in [*graph.get(node, ()), *(".".join(parts[:i]) for i in range(1, len(parts)))]:
            if nxt in graph and nxt not in seen and nxt != start:
                seen.add(nxt)
                todo.append(nxt)
    return seen


def test_reachable_follows_chains_and_enclosing_packages() -> None:
    graph = {"a": set(), "a.b": {"c"}, "c": {"d"}, "d": set(), "e": {"a.b"}, "f": set()}
    assert reachable(graph, "e") == {"a", "a.b", "c", "d"}
    assert reachable(graph, "f") == set()


def test_the_engine_imports_no_grading_system() -> None:
    graph = import_graph()
    engine = sorted(name for name in graph if within(name, "builder.engine"))
    assert len(engine) > 10
    for module in engine:
        known = sorted(m for m in reachable(graph, module) if any(within(m, s) for s in (*SYSTEMS, "builder.systems")))
        assert known == [], f"{module} imports {known}"


def test_no_grading_system_imports_another_or_the_registry() -> None:
    graph = import_graph()
    for system in SYSTEMS:
        members = sorted(name for name in graph if within(name, system))
        assert len(members) > 5, system
        others = [*(s for s in SYSTEMS if s != system), "builder.systems"]
        for module in members:
            known = sorted(m for m in reachable(graph, module) if any(within(m, o) for o in others))
            assert known == [], f"{module} imports {known}"

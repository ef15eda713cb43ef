"""The imports go one way: no cycle between modules or packages, and scores never reaches into mfbeta.

Every ``import`` and ``from ... import`` of every module under ``src/amreval`` is read with
:mod:`ast` (those inside functions too, and the modules a package's ``__init__.pyi`` stub names), so
an import made late to dodge a cycle is still seen. Imports of our own modules inside functions are
counted as well: mfbeta makes none (the command line, :mod:`amreval.cli`, loads what a command runs
when it runs); an import at the top is where a reader sees what a module needs.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"
PACKAGE = SRC / "amreval"


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _is_module(name: str) -> bool:
    path = SRC.joinpath(*name.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def _imports(path: Path) -> set[str]:
    """The ``amreval`` modules a file imports (``from X import name`` counts ``X.name`` when that is a module)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                submodule = f"{node.module}.{alias.name}"
                found.add(submodule if _is_module(submodule) else node.module)
    stub = path.with_suffix(".pyi")
    if path.name == "__init__.py" and stub.is_file():  # the package's exports, loaded on first use
        found |= _imports(stub)
    return {name for name in found if name.split(".")[0] == "amreval"}


def _late_imports(path: Path) -> set[str]:
    """The ``amreval`` modules a file imports inside its functions (as :func:`_imports` names them)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for function in ast.walk(tree):
        if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        for node in ast.walk(function):
            if isinstance(node, ast.Import):
                found.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                for alias in node.names:
                    submodule = f"{node.module}.{alias.name}"
                    found.add(submodule if _is_module(submodule) else node.module)
    return {name for name in found if name.split(".")[0] == "amreval"}


def strongly_connected(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import cycles of ``graph``: its strongly connected components of two or more modules (or of
    one that imports itself), each sorted, in order (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph.get(node, ())):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1 or node in graph.get(node, ()):
                cycles.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(cycles)


MODULES = {_module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}
GRAPH = {name: {m for m in _imports(path) if m in MODULES and m != name} for name, path in MODULES.items()}
#: Every module → the amreval modules it imports inside functions.
LATE = {name: {m for m in _late_imports(path) if m in MODULES and m != name} for name, path in MODULES.items()}


def _unit(module: str) -> str:
    """A subpackage (``amreval.scores``) stands for all its modules; a top-level module for itself."""
    parts = module.split(".")
    if len(parts) >= 2 and (PACKAGE / parts[1]).is_dir():
        return ".".join(parts[:2])
    return module


def test_the_graph_is_read():
    assert "amreval.scores.harness" in GRAPH["amreval.scores.smatch"]
    assert "amreval.scores.s2match" in GRAPH["amreval.mfbeta.score"]
    assert "amreval.scores.smatch" in GRAPH["amreval.scores"]  # through the package's stub
    assert "amreval.scores.bootstrap" in GRAPH["amreval.scores.f1"]  # an import inside a function
    assert "amreval.scores.bootstrap" in LATE["amreval.scores.f1"]
    assert "amreval.scores.s2match" not in LATE["amreval.mfbeta.score"]  # imported at the top


def test_the_cycles_are_found():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": {"e"}, "e": {"d"}, "f": {"f"}, "g": {"a"}}
    assert strongly_connected(graph) == [["a", "b", "c"], ["d", "e"], ["f"]]
    assert strongly_connected({"a": {"b"}, "b": set()}) == []


def test_no_module_imports_another_in_a_circle():
    cycles = strongly_connected({name: GRAPH[name] for name in GRAPH if name != "amreval"})
    assert not cycles, "import cycles (inside functions too): " + "; ".join(" <-> ".join(c) for c in cycles)
    assert not any("amreval" in imported for name, imported in GRAPH.items() if name != "amreval")


def test_mfbeta_imports_its_own_modules_at_the_top():
    late = sorted(
        f"{name} -> {m}" for name, imported in LATE.items() if name.startswith("amreval.mfbeta.") for m in imported
    )
    assert late == []


def test_no_scores_module_imports_mfbeta_or_the_doors():
    for name, imported in GRAPH.items():
        if _unit(name) == "amreval.scores":
            above = {m for m in imported if _unit(m) in ("amreval.mfbeta", "amreval.report", "amreval.hub")}
            above |= {m for m in imported if _unit(m) == "amreval.cli" or m == "amreval"}
            assert not above, f"{name} imports {sorted(above)}"


def test_no_cycle_between_packages():
    units: dict[str, set[str]] = {}
    for name, imported in GRAPH.items():
        if name == "amreval":
            continue  # the top package names everything, lazily; nothing below imports it (checked next)
        units.setdefault(_unit(name), set()).update(_unit(m) for m in imported if _unit(m) != _unit(name))
    assert not any("amreval" in targets for targets in units.values())
    state: dict[str, int] = {}
    path: list[str] = []

    def visit(unit: str) -> None:
        state[unit] = 1
        path.append(unit)
        for target in sorted(units.get(unit, ())):
            assert state.get(target) != 1, "import cycle: " + " -> ".join([*path[path.index(target) :], target])
            if target not in state:
                visit(target)
        path.pop()
        state[unit] = 2

    for unit in sorted(units):
        if unit not in state:
            visit(unit)
    assert units["amreval.mfbeta"] >= {"amreval.scores"} and "amreval.mfbeta" not in units["amreval.scores"]


def test_importing_every_scores_module_loads_no_mfbeta():
    scores = sorted(name for name in MODULES if _unit(name) == "amreval.scores")
    code = "import importlib, sys\n"
    code += "".join(f"importlib.import_module({name!r})\n" for name in scores)
    code += "print(sorted(m for m in sys.modules if m.startswith(('amreval.mfbeta', 'amreval.report'))))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"

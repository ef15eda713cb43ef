"""The packages' imports go one way: no cycle between packages (nor between the modules of scores), and scores never
reaches into mfbeta.

Every ``import`` and ``from ... import`` of every module under ``src/amreval`` is read with
:mod:`ast` (those inside functions too, and the modules a package's ``__init__.pyi`` stub names), so
an import made late to dodge a cycle is still seen.
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


MODULES = {_module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}
GRAPH = {name: {m for m in _imports(path) if m in MODULES and m != name} for name, path in MODULES.items()}


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


def test_no_cycle_between_the_modules_of_scores():
    """Within scores the modules go one way too (results on f1, the harness on both and on workers), so each
    can be read, and loaded, without the ones above it."""
    scores = {
        name: {m for m in imported if _unit(m) == "amreval.scores" and m != "amreval.scores"}
        for name, imported in GRAPH.items()
        if _unit(name) == "amreval.scores" and name != "amreval.scores"
    }
    state: dict[str, int] = {}

    def visit(module: str, path: list[str]) -> None:
        state[module] = 1
        for target in sorted(scores[module]):
            assert state.get(target) != 1, "import cycle: " + " -> ".join([*path[path.index(target) :], target])
            if target not in state:
                visit(target, [*path, target])
        state[module] = 2

    for module in sorted(scores):
        if module not in state:
            visit(module, [module])
    assert {"amreval.scores.f1", "amreval.scores.workers"} <= GRAPH["amreval.scores.harness"]
    assert "amreval.scores.f1" in GRAPH["amreval.scores.results"]

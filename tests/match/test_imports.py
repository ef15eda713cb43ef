"""The modules of amreval.match import one another without a cycle, the kernel layer below the public one."""

from __future__ import annotations

import ast
from pathlib import Path

import amreval.match

PACKAGE = Path(amreval.match.__file__).resolve().parent


def match_imports() -> dict[str, set[str]]:
    """Each module's imports of the package's other modules, wherever they are (in functions too)."""
    modules = {p.stem for p in PACKAGE.glob("*.py") if p.stem != "__init__"}
    edges = {}
    for module in modules:
        found = set()
        for node in ast.walk(ast.parse((PACKAGE / f"{module}.py").read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module == "amreval.match":
                found |= {alias.name for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("amreval.match."):
                found.add(node.module.split(".")[2])
            elif isinstance(node, ast.Import):
                found |= {a.name.split(".")[2] for a in node.names if a.name.startswith("amreval.match.")}
        edges[module] = found & modules
    return edges


def test_no_module_of_the_package_imports_itself_through_others():
    edges = match_imports()
    done: set[str] = set()

    def visit(module: str, path: tuple[str, ...]) -> None:
        assert module not in path, f"import cycle: {' -> '.join((*path, module))}"
        if module not in done:
            for other in sorted(edges[module]):
                visit(other, (*path, module))
            done.add(module)

    for module in sorted(edges):
        visit(module, ())
    # the kernel layer knows nothing of the public one: the contract and the checks, the two backends
    assert edges["contract"] == set() and edges["checks"] == {"contract"}
    assert edges["kernels"] == {"_assign", "_branch", "_climb", "_pool", "checks", "contract"}
    assert edges["_pool"] == {"contract"} and edges["_climb"] == {"_pool", "contract"}

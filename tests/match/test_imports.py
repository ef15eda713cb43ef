"""The modules of amreval.match import one another without a cycle, in layers: the kernels at the bottom,
the problem above them, the certified search's steps above that, and the entry, align, on top."""

from __future__ import annotations

import ast
from pathlib import Path

import amreval.match

PACKAGE = Path(amreval.match.__file__).resolve().parent


def _name(path: Path) -> str:
    """A module's name below amreval.match (``kernels.contract``; a subpackage's ``__init__``: ``kernels``)."""
    parts = path.relative_to(PACKAGE).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def match_imports() -> dict[str, set[str]]:
    """Each module's imports of the package's other modules, wherever they are (in functions too)."""
    paths = {_name(p): p for p in PACKAGE.rglob("*.py") if p != PACKAGE / "__init__.py"}
    edges = {}
    for module, path in paths.items():
        found = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("amreval.match"):
                base = node.module.removeprefix("amreval.match").removeprefix(".")
                for alias in node.names:
                    sub = f"{base}.{alias.name}" if base else alias.name
                    found.add(sub if sub in paths else base)
            elif isinstance(node, ast.Import):
                found |= {
                    a.name.removeprefix("amreval.match.") for a in node.names if a.name.startswith("amreval.match.")
                }
        edges[module] = found & set(paths) - {module}
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


def test_the_layers_import_downwards_only():
    edges = match_imports()
    assert {"kernels.contract", "kernels.backends", "certify.pricing", "alignment"} <= set(edges)
    kernel_layer = {m for m in edges if m == "kernels" or m.startswith("kernels.")}
    certify = {m for m in edges if m == "certify" or m.startswith("certify.")}
    # the kernel layer knows nothing of the layers above: the contract and the checks, the two backends
    for module in kernel_layer:
        assert edges[module] <= kernel_layer, module
    assert edges["kernels.contract"] == set() and edges["kernels.checks"] == {"kernels.contract"}
    assert edges["kernels.backends"] == {
        "kernels._assign",
        "kernels._branch",
        "kernels._climb",
        "kernels._pool",
        "kernels.checks",
        "kernels.contract",
    }
    assert edges["kernels._pool"] == {"kernels.contract"}
    assert edges["kernels._climb"] == {"kernels._pool", "kernels.contract"}
    # the certified search's steps are run by the entry alone
    for module in set(edges) - certify - {"alignment"}:
        assert not edges[module] & certify, module

"""Package names that load their module on first use (PEP 562), listed once in the package's stub.

A package's names are the re-exports of the ``__init__.pyi`` beside its
``__init__.py``, one ``from amreval.x.y import name as name`` per name: type
checkers read them there, and :func:`attach_stub` reads the same lines (with
:mod:`ast`, when the package is imported) to give the package its ``__all__``
and the module-level ``__getattr__`` and ``__dir__`` that import a name's
module when the name is first asked for, and keep the value. The package's
own modules are plain modules (``import amreval.scores.smatch`` gives the
module), each imported when first named.
"""

from __future__ import annotations

import ast
import importlib
import os
import sys
import types
from collections.abc import Callable

TYPE_CHECKING = False
if TYPE_CHECKING:  # typing is not imported at run time: it would add half again to the time `import amreval` takes
    from typing import Any

__all__ = ["attach_stub", "read_stub"]


def read_stub(path: str) -> dict[str, str]:
    """The names a package stub re-exports, each with the module it takes the name from, in the stub's order.

    Raises:
        ImportError: the stub holds anything but a docstring and ``from <absolute module> import name as name``
            lines, or names a name twice.
    """
    with open(path, encoding="utf-8") as file:
        tree = ast.parse(file.read(), path)
    home: dict[str, str] = {}
    for k, node in enumerate(tree.body):
        if k == 0 and isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            continue  # the docstring
        if not (
            isinstance(node, ast.ImportFrom)
            and node.level == 0
            and node.module
            and all(alias.asname == alias.name for alias in node.names)
        ):
            raise ImportError(
                f"{path}, line {node.lineno}: a package stub holds only re-exports, "
                "`from <absolute module> import name as name`"
            )
        for alias in node.names:
            if alias.name in home:
                raise ImportError(f"{path}, line {node.lineno}: {alias.name!r} is named twice")
            home[alias.name] = node.module
    return home


def attach_stub(package: str, filename: str) -> tuple[Callable[[str], Any], Callable[[], list[str]], list[str]]:
    """``__getattr__``, ``__dir__`` and ``__all__`` for ``package`` (whose ``__init__.py`` is ``filename``),
    from the names of its ``__init__.pyi``.

    ``__getattr__`` imports a name's module on first use and keeps the value in the package; a name that
    is no export but one of the package's modules imports that module.
    """
    home = read_stub(os.path.splitext(filename)[0] + ".pyi")

    def __getattr__(name: str) -> Any:
        module = home.get(name)
        if module is not None:
            value = getattr(importlib.import_module(module), name)
            setattr(sys.modules[package], name, value)
            return value
        if name.isidentifier() and not name.startswith("_"):
            try:
                return importlib.import_module(f"{package}.{name}")
            except ModuleNotFoundError as error:
                if error.name != f"{package}.{name}":
                    raise  # the module is there, but something it needs is not
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    def __dir__() -> list[str]:
        loaded = [k for k, v in vars(sys.modules[package]).items() if isinstance(v, types.ModuleType)]
        return sorted({*home, *(k for k in loaded if not k.startswith("_"))})

    return __getattr__, __dir__, list(home)

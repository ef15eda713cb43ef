"""Package names that load their module on first use (PEP 562), so ``import amreval`` stays quick.

A package lists where each of its names lives; :func:`exports` gives it the
module-level ``__getattr__`` and ``__dir__`` that import the module when the
name is first asked for and keep the value. Type checkers read the same names
from the package's ``if TYPE_CHECKING:`` imports.

A name that is also the name of one of the package's modules (``amreval.scores.smatch``
is a module and a function) must be the function whichever is imported first, so
such modules are loaded with the package (see :func:`shadow`).
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Any

__all__ = ["exports", "shadow"]


def exports(package: str, where: Mapping[str, Sequence[str]]) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """``__getattr__`` and ``__dir__`` for ``package``, whose names are ``where[module]`` (a module of the
    package, or one named in full from ``amreval.``)."""
    home = {
        name: module if module.startswith("amreval.") else f"{package}.{module}"
        for module, names in where.items()
        for name in names
    }

    def __getattr__(name: str) -> Any:
        module = home.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module), name)
        setattr(sys.modules[package], name, value)
        return value

    def __dir__() -> list[str]:
        return sorted(set(vars(sys.modules[package])) | set(home))

    return __getattr__, __dir__


def shadow(package: str, *modules: str) -> None:
    """Load ``modules`` of ``package`` now and drop the module attributes they set on it, so that the
    package's names of the same spelling (its functions) are what ``package.<name>`` gives."""
    owner = sys.modules[package]
    for module in modules:
        importlib.import_module(f"{package}.{module}")
        vars(owner).pop(module, None)

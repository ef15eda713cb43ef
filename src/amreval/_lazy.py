"""Package names that load their module on first use (PEP 562), so ``import amreval`` stays quick.

A package lists where each of its names lives; :func:`exports` gives it the
module-level ``__getattr__`` and ``__dir__`` that import the module when the
name is first asked for and keep the value (a module of the package, such as
``amreval.scores``, is imported when first asked for too). Type checkers read
the same names from the package's ``if TYPE_CHECKING:`` imports.

A name that is also the name of one of the package's modules
(``amreval.scores.smatch`` is a module and a function) stays the function
whichever is imported first: :func:`shadow` keeps the import system from
binding the module over it.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
import types
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
            if name.isidentifier() and not name.startswith("_"):
                try:
                    if importlib.util.find_spec(f"{package}.{name}") is not None:
                        return importlib.import_module(f"{package}.{name}")
                except ImportError:
                    pass
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module), name)
        setattr(sys.modules[package], name, value)
        return value

    def __dir__() -> list[str]:
        owner = sys.modules[package]
        loaded = [k for k, v in vars(owner).items() if isinstance(v, types.ModuleType) and not k.startswith("_")]
        return sorted({*getattr(owner, "__all__", ()), *home, *loaded})

    return __getattr__, __dir__


class _Package(types.ModuleType):
    """A package whose names in ``_shadowed`` are never replaced by the module of the same name."""

    _shadowed: frozenset[str] = frozenset()

    def __setattr__(self, name: str, value: Any) -> None:
        if name in self._shadowed and isinstance(value, types.ModuleType):
            return  # the import system binding amreval.scores.smatch (the module) over smatch (the function)
        super().__setattr__(name, value)


def shadow(package: str, *names: str) -> None:
    """Keep ``package.<name>`` the package's own export for each of ``names``, never its module of that name."""
    owner = sys.modules[package]
    owner.__class__ = type(f"_Package_{package.replace('.', '_')}", (_Package,), {"_shadowed": frozenset(names)})

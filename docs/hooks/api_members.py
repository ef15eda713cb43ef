"""MkDocs hook: a package's API page documents the names the package exports, read from its stub.

A page line ``<!-- api: amreval.scores -->`` becomes a mkdocstrings block for that package whose members are
the names of ``src/amreval/scores/__init__.pyi`` (one ``from amreval.x.y import name as name`` a line, the
list ``amreval._lazy.attach_stub`` loads at run time), in the stub's order. The pages follow the exports as
they change, and show none of a package's own imports.
"""

from __future__ import annotations

import re
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src"
_MARKER = re.compile(r"^<!-- api: (?P<package>amreval(?:\.\w+)*) -->$", re.MULTILINE)
_EXPORT = re.compile(r"^from [\w.]+ import (?P<name>\w+) as (?P=name)$", re.MULTILINE)


def exported_names(package: str) -> list[str]:
    """The names ``package`` exports, as its stub lists them (private ones, such as ``__version__``, left out)."""
    stub = SRC.joinpath(*package.split("."), "__init__.pyi")
    names = _EXPORT.findall(stub.read_text(encoding="utf-8"))
    if not names:
        raise LookupError(f"{stub} exports no names")
    return [name for name in dict.fromkeys(names) if not name.startswith("_")]


def _block(found: re.Match[str]) -> str:
    package = found["package"]
    members = "\n".join(f"        - {name}" for name in exported_names(package))
    return f"::: {package}\n    options:\n      show_root_heading: false\n      members:\n{members}\n"


def on_page_markdown(markdown: str, page, config, files) -> str:
    return _MARKER.sub(_block, markdown)

"""MkDocs hook: what looks like a Markdown reference inside a docstring's code is not one.

The docstrings are written for ``help()`` and type checkers, with reST-style roles and Python expressions such
as ``rows[k]['a', 'b']``; Markdown reads ``[...][...]`` in them as a cross-reference. A "Could not find
cross-reference target" from a docstring whose target is no dotted name (quotes, commas, brackets, a single
letter) is dropped; every other unresolved reference stays an error of ``mkdocs build --strict``.
"""

from __future__ import annotations

import logging
import re

_AUTOREFS_LOGGER = "mkdocs.plugins.mkdocs_autorefs._internal.plugin"
_UNRESOLVED = re.compile(r"from \S+/src/amreval/\S+: .*Could not find cross-reference target '(?P<target>.*)'$")
_DOTTED_NAME = re.compile(r"[A-Za-z_]\w+(\.\w+)*")


class _CodeInDocstrings(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        found = _UNRESOLVED.search(record.getMessage())
        return not (found and not _DOTTED_NAME.fullmatch(found["target"]))


_FILTER = _CodeInDocstrings()


def on_startup(command, dirty) -> None:
    logger = logging.getLogger(_AUTOREFS_LOGGER)
    if _FILTER not in logger.filters:
        logger.addFilter(_FILTER)

"""Warnings attributed to the caller: the first frame outside amreval and the ``evaluate`` machinery.

A warning's ``stacklevel`` counted by hand goes wrong as soon as a function is reached by another path
(``smatch`` directly, through ``score_corpus``, through an ``evaluate`` metric's ``compute``), so
:func:`warn_caller` counts the frames: the warning names the file and line of the code that called
amreval (a script, a notebook cell, a test), which is where ``-W error`` and ``warnings.filterwarnings``
with ``module=`` apply.
"""

from __future__ import annotations

import sys
import warnings

from amreval.errors import AmrevalWarning, RenamedSettingWarning

__all__ = ["warn_caller", "caller_stacklevel", "warn_renamed", "renamed_keyword"]

# modules whose frames are ours or the metric machinery's: amreval, the evaluate metric scripts (which
# evaluate imports as evaluate_modules.metrics.<name>.<hash>.<name>), evaluate and datasets
_INSIDE = ("amreval", "evaluate", "evaluate_modules", "datasets")


def _inside(module: object) -> bool:
    return isinstance(module, str) and module.split(".", 1)[0] in _INSIDE


def caller_stacklevel(skip: int = 1) -> int:
    """The ``stacklevel`` for ``warnings.warn`` called in the frame ``skip`` levels up (1: the function
    that calls this one) that names the first frame outside amreval, evaluate and datasets (the
    outermost frame when there is none)."""
    frame = sys._getframe(skip)
    level = 1
    while frame.f_back is not None and _inside(frame.f_globals.get("__name__")):
        frame = frame.f_back
        level += 1
    return level


def warn_caller(message: str, category: type[Warning] = AmrevalWarning) -> None:
    """``warnings.warn(message, category)`` attributed to the code that called amreval."""
    warnings.warn(message, category, stacklevel=caller_stacklevel(2) + 1)


# the old names already warned about in this process
_WARNED: set[str] = set()


def warn_renamed(old: str, new: str, note: str = "") -> None:
    """Say once per process that the setting ``old`` is now ``new`` (:class:`RenamedSettingWarning`,
    attributed to the caller); ``note``: what the old value means in the new names, when not the same."""
    if old in _WARNED:
        return
    _WARNED.add(old)
    warn_caller(f"{old} is deprecated; use {new}" + (f" ({note})" if note else ""), RenamedSettingWarning)


def renamed_keyword(options: dict[str, object], old: str, new: str) -> None:
    """Move ``options[old]`` to ``options[new]`` (warning once), in place; both given is an error."""
    if old not in options:
        return
    from amreval.errors import UsageError

    if new in options:
        raise UsageError(f"{old} and {new} are the same setting ({old} is its old name): give {new} only")
    warn_renamed(old, new)
    options[new] = options.pop(old)

"""The checks of the settings the scores and the resampling share: whole numbers, choices, confidence levels, flags.

Each returns the value in its plain Python type or raises an
:class:`~amreval.errors.InputError` that names the setting and what it must be.

Example:
    >>> check_int("n_resamples", 200, 1), check_confidence(0.9), check_choice("test", "exact", ("exact", "fast"))
    (200, 0.9, 'exact')
    >>> check_int("num_workers", True, 1)
    Traceback (most recent call last):
    ...
    amreval.errors.InputError: num_workers must be an integer >= 1, got True
    >>> check_bool("coref", "no")
    Traceback (most recent call last):
    ...
    amreval.errors.InputError: coref must be True or False, got 'no'
"""

from __future__ import annotations

import numpy as np

from amreval.errors import InputError

__all__ = ["DEFAULT_RESAMPLES", "check_int", "check_choice", "check_confidence", "check_bool", "interval_resamples"]

#: Resamples of every bootstrap interval and paired test unless ``n_resamples`` says otherwise (scipy's
#: ``bootstrap`` and ``permutation_test`` take 9999).
DEFAULT_RESAMPLES = 10_000


def check_int(name: str, value: object, low: int) -> int:
    """``value`` as an int, checked to be an integer (not a bool) of at least ``low``.

    Raises:
        InputError: anything else, naming ``name`` and the bound.
    """
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < low:
        raise InputError(f"{name} must be an integer >= {low}, got {value!r}")
    return int(value)


def check_choice(name: str, value: object, choices: tuple[str, ...]) -> str:
    """``value``, checked to be one of ``choices``.

    Raises:
        InputError: an unknown ``name``, with the choices.
    """
    if value not in choices:
        raise InputError(f"unknown {name} {value!r}; expected one of {', '.join(choices)}")
    return str(value)


def check_confidence(confidence: object) -> float:
    """The confidence level of an interval: a number strictly between 0 and 1.

    Raises:
        InputError: anything else, naming ``confidence`` and the range.
    """
    if isinstance(confidence, bool) or not isinstance(confidence, (int, float, np.floating)) or not 0 < confidence < 1:
        raise InputError(f"confidence must be a number between 0 and 1 (exclusive), got {confidence!r}")
    return float(confidence)


def check_bool(name: str, value: object, *, optional: bool = False) -> bool | None:
    """``value`` as a bool: ``True`` or ``False`` (a NumPy bool too), or ``None`` when ``optional``.

    A flag is never taken by truthiness: ``"no"``, ``"yes"``, ``0`` and ``1`` are refused.

    Raises:
        InputError: anything else, naming ``name``.
    """
    if value is None and optional:
        return None
    if not isinstance(value, (bool, np.bool_)):
        expected = "True, False or None" if optional else "True or False"
        raise InputError(f"{name} must be {expected}, got {value!r}")
    return bool(value)


def interval_resamples(ci: object, n_resamples: object, bootstrap: object = None) -> int:
    """The resamples of the bootstrap intervals a score is asked for: ``n_resamples`` when ``ci`` is True,
    0 (no interval) when it is False.

    ``bootstrap=N`` is the old spelling of ``ci=True, n_resamples=N`` (0: no interval): still taken, with
    a :class:`~amreval.errors.RenamedSettingWarning` once per process; then ``N`` is the intervals' number
    of resamples (a paired test beside them keeps its own ``n_resamples``), so old calls give the same
    numbers.

    Example:
        >>> interval_resamples(False, 10000), interval_resamples(True, 500)
        (0, 500)
    """
    if bootstrap is not None:
        from amreval._warn import warn_renamed

        warn_renamed("bootstrap=N", "ci=True, n_resamples=N", "bootstrap=0: ci=False")
        return check_int("bootstrap", bootstrap, 0)
    if not check_bool("ci", ci):
        return 0
    return check_int("n_resamples", n_resamples, 1)

"""Corpus scores as functions of per-item counts summed over items.

A :class:`Statistic` names the count columns it reads and computes the corpus
score from their sums (with any leading axes for resamples):
:func:`prf_statistic` gives precision, recall or F1 of ``(match, test, gold)``
(Smatch, S²match, DocSmatch and their parts), :func:`mfbeta_statistic` MFβ,
Meaning or Form of ``(match, test, gold, acceptable)``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from amreval.errors import InputError

__all__ = [
    "STATISTICS",
    "MF_PARTS",
    "PRF_COLUMNS",
    "MF_COLUMNS",
    "Statistic",
    "prf_statistic",
    "mfbeta_statistic",
    "as_statistic",
    "columns_statistic",
]

STATISTICS = ("f1", "precision", "recall")
#: MFβ and its two parts.
MF_PARTS = ("mfbeta", "meaning", "form")


@dataclass(frozen=True)
class Statistic:
    """A corpus score as a function of summed per-item counts.

    Attributes:
        name: what it is called in reports (``f1``, ``precision``, ``mfbeta``, ...).
        columns: the per-item count columns it reads, in order.
        function: ``function(sums, n)``: ``sums`` has the columns on its last
            axis (any leading axes are resamples); ``n`` is the number of items.
    """

    name: str
    columns: tuple[str, ...]
    function: Callable[[np.ndarray, int], np.ndarray]

    def __call__(self, sums: npt.ArrayLike, n: int) -> np.ndarray:
        return self.function(np.asarray(sums, dtype=np.float64), n)


PRF_COLUMNS = ("match", "test", "gold")
MF_COLUMNS = ("match", "test", "gold", "acceptable")


def _prf_values(sums: np.ndarray, which: str) -> np.ndarray:
    """Precision, recall or F1 of ``(match, test, gold)`` on the last axis; 0 where undefined (as ``prf``)."""
    m, t, g = sums[..., 0], sums[..., 1], sums[..., 2]
    defined = (t > 0) & (g > 0)
    with np.errstate(divide="ignore", invalid="ignore"):
        p, r = m / t, m / g
        if which == "precision":
            value = p
        elif which == "recall":
            value = r
        else:  # as prf computes it, to the last bit
            value = np.where(p + r != 0, 2 * p * r / (p + r), 0.0)
    return np.where(defined, value, 0.0)


def prf_statistic(which: str = "f1") -> Statistic:
    """Precision, recall or F1 of summed ``(match, test, gold)`` counts.

    Example:
        >>> float(prf_statistic("recall")([3, 4, 6], 1)), float(prf_statistic()([[3, 4, 6], [0, 0, 2]], 2)[0])
        (0.5, 0.6)
    """
    if which not in STATISTICS:
        raise InputError(f"unknown statistic {which!r}; expected one of {', '.join(STATISTICS)}")
    return Statistic(which, PRF_COLUMNS, lambda sums, n: _prf_values(sums, which))


def mfbeta_statistic(beta: float = 1.0, part: str = "mfbeta", which: str = "f1") -> Statistic:
    """MFβ, Meaning or Form of summed ``(match, test, gold, acceptable)`` counts.

    Meaning is S²match of the summed counts (``which``: its F1, precision or
    recall), Form the share of acceptable items, MFβ their weighted harmonic mean.

    Example:
        >>> s = mfbeta_statistic(2.0)
        >>> round(float(s([6.5, 7, 11, 1], 2)), 4)      # M = 13/18, F = 1/2: 5 M F / (4 M + F)
        0.5328
    """
    from amreval.mfbeta.score import mf_beta

    mf_beta(1.0, 1.0, beta)  # validates beta
    if part not in MF_PARTS:
        raise InputError(f"unknown MFβ part {part!r}; expected one of {', '.join(MF_PARTS)}")
    if part != "meaning" and which != "f1":
        raise InputError(f"{part} has no {which}; precision and recall exist for meaning only")
    prf_statistic(which)
    b2 = float(beta) ** 2

    def function(sums: np.ndarray, n: int) -> np.ndarray:
        form = sums[..., 3] / n
        if part == "form":
            return form
        meaning = _prf_values(sums, which if part == "meaning" else "f1")
        if part == "meaning":
            return meaning
        denominator = b2 * meaning + form
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(denominator > 0, (1 + b2) * meaning * form / denominator, 0.0)

    name = part if part != "meaning" or which == "f1" else f"meaning_{which}"
    return Statistic(name, MF_COLUMNS, function)


def as_statistic(statistic: str | Statistic) -> Statistic:
    """``statistic`` itself, or the :func:`prf_statistic` it names."""
    return statistic if isinstance(statistic, Statistic) else prf_statistic(statistic)


def columns_statistic(statistic: Statistic, offset: int) -> Statistic:
    """``statistic`` on the columns from ``offset`` on."""
    k = len(statistic.columns)
    return Statistic(
        statistic.name, statistic.columns, lambda sums, n: statistic.function(sums[..., offset : offset + k], n)
    )

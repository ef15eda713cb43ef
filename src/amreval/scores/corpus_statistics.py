"""Corpus scores as functions of per-item counts summed over items.

A :class:`Statistic` names the count columns it reads and computes the corpus
score from their sums (with any leading axes for resamples):
:func:`prf_statistic` gives precision, recall or F1 of ``(match, test, gold)``
(Smatch, S²match, DocSmatch and their parts), :func:`dice_f1_statistic` the
same F1 written as ``2 match / (test + gold)``, the form
:func:`~amreval.scores.f1.bootstrap_f1` resamples. MFβ's statistic is
:func:`amreval.mfbeta.counts.mfbeta_statistic`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

import numpy as np
import numpy.typing as npt

from amreval.errors import InputError

__all__ = [
    "STATISTICS",
    "PRF_COLUMNS",
    "Statistic",
    "prf_values",
    "prf_statistic",
    "prf_undefined",
    "dice_f1_statistic",
    "as_statistic",
    "columns_statistic",
]

STATISTICS = ("f1", "precision", "recall")


@dataclass(frozen=True)
class Statistic:
    """A corpus score as a function of summed per-item counts.

    Attributes:
        name: what it is called in reports (``f1``, ``precision``, ``mfbeta``, ...).
        columns: the per-item count columns it reads, in order.
        function: ``function(sums, n)``: ``sums`` has the columns on its last
            axis (any leading axes are resamples); ``n`` is the number of items.
        undefined: ``undefined(sums)``: where the score is 0/0, nothing to score
            (:func:`~amreval.scores.f1.undefined`), on the same axes; None: never.
            ``function`` still gives a number there (resamples need one); what is
            reported there is undefined, a comparison's difference and p-value too.
    """

    name: str
    columns: tuple[str, ...]
    function: Callable[[np.ndarray, int], np.ndarray]
    undefined: Callable[[np.ndarray], np.ndarray] | None = None

    def __call__(self, sums: npt.ArrayLike, n: int) -> np.ndarray:
        return self.function(np.asarray(sums, dtype=np.float64), n)

    def is_undefined(self, sums: npt.ArrayLike) -> np.ndarray:
        """Where the score of ``sums`` is undefined (booleans on the leading axes)."""
        array = np.asarray(sums, dtype=np.float64)
        if self.undefined is None:
            return np.zeros(array.shape[:-1], dtype=bool)
        return np.asarray(self.undefined(array), dtype=bool)

    def defined(self, sums: npt.ArrayLike, n: int) -> np.ndarray:
        """The score of ``sums``, NaN where it is undefined."""
        return np.where(self.is_undefined(sums), np.nan, self(sums, n))


PRF_COLUMNS = ("match", "test", "gold")


def prf_values(sums: np.ndarray, which: str) -> np.ndarray:
    """Precision, recall or F1 of ``(match, test, gold)`` on the last axis; 0 where undefined (as ``prf``).

    Example:
        >>> prf_values(np.array([[3.0, 4.0, 6.0], [0.0, 0.0, 2.0]]), "precision").tolist()
        [0.75, 0.0]
    """
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
    return Statistic(which, PRF_COLUMNS, lambda sums, n: prf_values(sums, which), partial(prf_undefined, which))


def prf_undefined(which: str, sums: np.ndarray) -> np.ndarray:
    """Where precision, recall or F1 of ``(match, test, gold)`` is 0/0 (:func:`~amreval.scores.f1.undefined`).

    Example:
        >>> prf_undefined("f1", np.array([[0.0, 0.0, 0.0], [0.0, 0.0, 2.0]])).tolist()
        [True, False]
    """
    t, g = sums[..., 1], sums[..., 2]
    if which == "precision":
        return t <= 0
    if which == "recall":
        return g <= 0
    return (t <= 0) & (g <= 0)


def dice_f1_statistic() -> Statistic:
    """F1 of summed ``(match, test, gold)`` as ``2 match / (test + gold)`` (0 where either sum is 0).

    It is F1, but computed in another order than :func:`prf_statistic`'s (which is
    :func:`~amreval.scores.f1.prf`'s, to the last bit), so the two can differ in the
    last bit; :func:`~amreval.scores.f1.bootstrap_f1` has always resampled this one.

    Example:
        >>> float(dice_f1_statistic()([[3, 4, 6], [0, 0, 2]], 2)[0]), float(dice_f1_statistic()([0, 0, 2], 1))
        (0.6, 0.0)
    """
    return Statistic("f1", PRF_COLUMNS, _dice_f1)


def _dice_f1(sums: np.ndarray, n: int) -> np.ndarray:
    m, t, g = sums[..., 0], sums[..., 1], sums[..., 2]
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where((t > 0) & (g > 0), 2 * m / (t + g), 0.0)


def as_statistic(statistic: str | Statistic) -> Statistic:
    """``statistic`` itself, or the :func:`prf_statistic` it names."""
    return statistic if isinstance(statistic, Statistic) else prf_statistic(statistic)


def columns_statistic(statistic: Statistic, offset: int) -> Statistic:
    """``statistic`` on the columns from ``offset`` on."""
    k = len(statistic.columns)
    inner = statistic.undefined
    return Statistic(
        statistic.name,
        statistic.columns,
        lambda sums, n: statistic.function(sums[..., offset : offset + k], n),
        None if inner is None else lambda sums: inner(sums[..., offset : offset + k]),
    )

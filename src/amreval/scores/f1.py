"""Precision, recall and F1 of counts, and the bootstrap interval of a corpus's F1.

Every score ends in the same arithmetic on three counts: matched items,
predicted items (``test``) and gold items. It lives here, apart from the
results that hold the counts (:mod:`amreval.scores.results`) and the corpus
loop that sums them (:mod:`amreval.scores.harness`), so that a picture, a
metric or a report can take an F1 without loading either.

Example:
    >>> prf(25, 30, 29)
    (0.8333333333333334, 0.8620689655172413, 0.847457627118644)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

import numpy as np

from amreval.errors import InputError
from amreval.scores.checks import check_confidence, check_int

__all__ = ["prf", "prf_or_none", "bootstrap_f1", "PairCounts"]


def prf(match: float, test: float, gold: float) -> tuple[float, float, float]:
    """Precision, recall and F1 from counts (0 where undefined).

    Example:
        >>> prf(3, 4, 4)
        (0.75, 0.75, 0.75)
        >>> prf(0, 0, 5)
        (0.0, 0.0, 0.0)
    """
    if test <= 0 or gold <= 0:
        return 0.0, 0.0, 0.0
    p = match / test
    r = match / gold
    if p + r == 0:
        return p, r, 0.0
    return p, r, 2 * p * r / (p + r)


def prf_or_none(match: float, test: float, gold: float) -> tuple[float | None, float | None, float | None]:
    """Precision, recall and F1 of a sub-score, None where there is nothing to score.

    Precision is None without predicted items, recall without gold items,
    F1 when there are neither (otherwise as :func:`prf`).

    Example:
        >>> prf_or_none(0, 0, 0), prf_or_none(0, 0, 4), prf_or_none(2, 4, 4)
        ((None, None, None), (None, 0.0, 0.0), (0.5, 0.5, 0.5))
    """
    p, r, f = prf(match, test, gold)
    return (
        None if test <= 0 else p,
        None if gold <= 0 else r,
        None if test <= 0 and gold <= 0 else f,
    )


class PairCounts(Protocol):
    """The counts of one pair, all the interval reads of it: a :class:`~amreval.scores.results.PairScore`
    (or a subclass) is one, named by shape so that the arithmetic need not import the results."""

    @property
    def match(self) -> float: ...

    @property
    def test(self) -> int: ...

    @property
    def gold(self) -> int: ...


def bootstrap_f1(
    pairs: Sequence[PairCounts],
    *,
    n_resamples: int = 1000,
    confidence: float = 0.95,
    seed: int = 0,
) -> tuple[float, float]:
    """Bootstrap confidence interval of the micro-averaged F1 (pairs resampled).

    The percentile interval of :mod:`amreval.scores.bootstrap` (the resamples
    of :func:`scipy.stats.bootstrap`) with a generator seeded by ``seed``, so
    the interval is reproducible; F1 is resampled as ``2 match / (test + gold)``
    (:func:`~amreval.scores.corpus_statistics.dice_f1_statistic`).

    Raises:
        InputError: fewer than 2 pairs, ``confidence`` not strictly between 0
            and 1, or ``n_resamples`` below 1.
    """
    from amreval.scores.bootstrap import bootstrap_statistics
    from amreval.scores.corpus_statistics import dice_f1_statistic

    confidence = check_confidence(confidence)
    n_resamples = check_int("n_resamples", n_resamples, 1)
    if len(pairs) < 2:
        raise InputError("a bootstrap interval needs at least 2 pairs")
    counts = np.array([(p.match, p.test, p.gold) for p in pairs], dtype=float)
    low, high = bootstrap_statistics(counts, [dice_f1_statistic()], n_resamples, confidence, seed)
    return float(low[0]), float(high[0])

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

import math
from collections.abc import Sequence
from typing import Protocol

import numpy as np

from amreval.errors import InputError
from amreval.scores.checks import check_confidence, check_int

__all__ = [
    "prf",
    "prf_or_none",
    "UNDEFINED_TEXT",
    "undefined",
    "defined_or_none",
    "score_text",
    "bootstrap_f1",
    "PairCounts",
]

#: How an undefined score (0/0: nothing to score) is printed in text, tables and CSV.
UNDEFINED_TEXT = "n/a"


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
    """Precision, recall and F1 of a sub-score, None where there is nothing to score (:func:`undefined`).

    Precision is None without predicted items, recall without gold items,
    F1 when there are neither (otherwise as :func:`prf`).

    Example:
        >>> prf_or_none(0, 0, 0), prf_or_none(0, 0, 4), prf_or_none(2, 4, 4)
        ((None, None, None), (None, 0.0, 0.0), (0.5, 0.5, 0.5))
    """
    p, r, f = prf(match, test, gold)
    return (
        None if undefined("precision", test, gold) else p,
        None if undefined("recall", test, gold) else r,
        None if undefined("f1", test, gold) else f,
    )


def undefined(which: str, test: float, gold: float) -> bool:
    """Whether a score is 0/0, nothing to score: precision without predicted items, recall without gold
    items, F1 (or any other score of both sides: MFβ's Meaning by dimension) with neither.

    This is the one rule of an undefined score, and every output follows it: the score is ``None`` in
    Python, ``null`` in JSON, ``n/a`` (:data:`UNDEFINED_TEXT`) in text, tables and CSV, never a 0.0 or 1.0
    standing in for "undefined"; a difference, interval or p-value of an undefined score is undefined
    too. A score that is genuinely 0 (something predicted or gold, nothing matched) stays 0.0. The
    metrics' ``zero_division=`` puts a number in its place for those who want one. The main Smatch and
    DocSmatch F of a corpus keeps smatch's convention (an empty graph against a non-empty one is 0.0).

    Example:
        >>> undefined("precision", 0, 3), undefined("recall", 0, 3), undefined("f1", 0, 3), undefined("f1", 0, 0)
        (True, False, False, True)
    """
    if which == "precision":
        return test <= 0
    if which == "recall":
        return gold <= 0
    return test <= 0 and gold <= 0


def defined_or_none(value: float | None) -> float | None:
    """``value`` as a plain float, or None where it is undefined (None or NaN): how every result
    writes an undefined score out (valid JSON: ``null``, never ``NaN``).

    Example:
        >>> defined_or_none(float("nan")), defined_or_none(0.0), defined_or_none(None)
        (None, 0.0, None)
    """
    if value is None:
        return None
    value = float(value)
    return None if math.isnan(value) else value


def score_text(value: float | None, digits: int = 4, *, signed: bool = False) -> str:
    """A score as text with ``digits`` digits after the point (``+`` for a positive one when ``signed``),
    or ``n/a`` when it is undefined (None or NaN; see :func:`undefined`).

    Example:
        >>> score_text(0.5), score_text(None), score_text(float("nan"), 2), score_text(0.25, 2, signed=True)
        ('0.5000', 'n/a', 'n/a', '+0.25')
    """
    value = defined_or_none(value)
    if value is None:
        return UNDEFINED_TEXT
    return f"{value:+.{digits}f}" if signed else f"{value:.{digits}f}"


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

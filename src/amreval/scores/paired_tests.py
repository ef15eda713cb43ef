"""The p-values of paired tests of two systems' per-item counts, the interval of their difference, and Holm.

Both systems' counts are items × columns arrays over the same items; each
resample re-sums the counts of the items it holds and recomputes the corpus
score (a :class:`~amreval.scores.corpus_statistics.Statistic`).
:func:`bootstrap_differences` is the paired bootstrap of ``S(A) - S(B)``
(the resamples of :mod:`amreval.scores.bootstrap`, both systems' columns
drawn together), :func:`bootstrap_p` and :func:`permutation_p` the p-values
of the two tests described in :mod:`amreval.scores.compare`, and
:func:`holm` the correction over several pairs.

Example:
    >>> holm([0.01, 0.04, 0.03])
    [0.03, 0.06, 0.06]
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from amreval.scores.bootstrap import batch_size, percentile_interval, resample_sums
from amreval.scores.checks import DEFAULT_RESAMPLES
from amreval.scores.corpus_statistics import Statistic

__all__ = [
    "TESTS",
    "ALTERNATIVES",
    "DEFAULT_RESAMPLES",
    "bootstrap_differences",
    "bootstrap_p",
    "permutation_p",
    "holm",
]

TESTS = ("permutation", "bootstrap")
ALTERNATIVES = ("two-sided", "greater", "less")


def bootstrap_differences(
    a: np.ndarray, b: np.ndarray, stat: Statistic, n_resamples: int, confidence: float, seed: int
) -> tuple[float, float, np.ndarray]:
    """Paired bootstrap of ``S(A) - S(B)``: the percentile interval and the resampled differences.

    The items are drawn once for both systems (:func:`~amreval.scores.bootstrap.resample_sums`
    of A's columns beside B's).
    """
    n, k = a.shape
    sums = resample_sums(np.concatenate([a, b], axis=1), n_resamples, seed)
    differences = stat(sums[:, :k], n) - stat(sums[:, k:], n)
    low, high = percentile_interval(differences, confidence)
    return float(low), float(high), differences


def bootstrap_p(distribution: np.ndarray, observed: float, alternative: str) -> float:
    """p-value of the shifted bootstrap distribution (null: centred on zero)."""
    null = distribution - observed
    tol = abs(observed) * np.finfo(np.float64).eps * 100
    size = null.size
    greater = (np.count_nonzero(null >= observed - tol) + 1) / (size + 1)
    less = (np.count_nonzero(null <= observed + tol) + 1) / (size + 1)
    if alternative == "greater":
        return float(greater)
    if alternative == "less":
        return float(less)
    return float(min(1.0, 2 * min(greater, less)))


def permutation_p(
    a: np.ndarray, b: np.ndarray, stat: Statistic, n_resamples: int, alternative: str, seed: int
) -> tuple[float, bool]:
    """Approximate randomization: each item's counts swapped between the systems (all columns together).

    ``permutation_test`` with ``permutation_type="samples"`` and one sample
    flips the signs of its observations at random (all ``2**n`` sign patterns
    when ``n_resamples >= 2**n``). The sample is a +1 per item; a flipped sign
    swaps that item's counts, so the statistic re-sums the counts of each
    system with the flipped items exchanged: ``A + s·(B - A)`` and
    ``B - s·(B - A)`` for the 0/1 vector ``s`` of flipped items.
    """
    from scipy.stats import permutation_test

    n = a.shape[0]
    sum_a, sum_b, swap = a.sum(axis=0), b.sum(axis=0), b - a

    def difference(signs: np.ndarray, axis: int = -1) -> np.ndarray:
        moved = (np.moveaxis(signs, axis, -1) < 0).astype(np.float64) @ swap
        return stat(sum_a + moved, n) - stat(sum_b - moved, n)

    res = permutation_test(
        (np.ones(n),),
        difference,
        permutation_type="samples",
        vectorized=True,
        n_resamples=n_resamples,
        batch=batch_size(n, 1),
        alternative=alternative,
        rng=np.random.default_rng(seed),
    )
    return float(res.pvalue), n_resamples >= 2**n


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm's step-down adjusted p-values (family-wise error), in the input order.

    The i-th smallest of m p-values becomes ``max over j <= i of min(1, (m - j + 1) p_(j))``.

    Example:
        >>> holm([0.04, 0.001, 0.03, 0.2])      # 4 x 0.001, 3 x 0.03, max(2 x 0.04, 0.09), 0.2
        [0.09, 0.004, 0.09, 0.2]
    """
    m = len(p_values)
    order = sorted(range(m), key=lambda k: p_values[k])
    adjusted = [0.0] * m
    running = 0.0
    for rank, k in enumerate(order):
        running = max(running, min(1.0, (m - rank) * float(p_values[k])))
        adjusted[k] = running
    return adjusted

"""Resampling per-item counts: the checks of their inputs, bootstrap intervals, p-values, Holm.

Every function here takes items × columns count arrays (one per system) and a
:class:`~amreval.scores.statistic.Statistic`; each resample re-sums the counts
of the items it holds and recomputes the corpus score. One system:
:func:`resample_system` and :func:`bootstrap_interval` (percentile bootstrap
intervals). Two systems on the same items: :func:`bootstrap_differences`
(paired bootstrap of the difference), :func:`bootstrap_p` and
:func:`permutation_p` (the p-values of the two tests described in
:mod:`amreval.scores.compare`). Several: :func:`holm`.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from amreval.errors import InputError
from amreval.scores.harness import check_confidence
from amreval.scores.statistic import Statistic, as_statistic

__all__ = [
    "TESTS",
    "ALTERNATIVES",
    "DEFAULT_RESAMPLES",
    "check_int",
    "check_choice",
    "check_counts",
    "resample_system",
    "bootstrap_interval",
    "bootstrap_differences",
    "bootstrap_p",
    "permutation_p",
    "holm",
]

TESTS = ("permutation", "bootstrap")
ALTERNATIVES = ("two-sided", "greater", "less")
DEFAULT_RESAMPLES = 10_000
# numbers held at once while resampling (about 32 MB); bounds the batch of resamples
_CELLS = 4_000_000


# --------------------------------------------------------------------------- checks


def check_int(name: str, value: object, low: int) -> int:
    """``value`` as an int, checked to be an integer (not a bool) of at least ``low``."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < low:
        raise InputError(f"{name} must be an integer >= {low}, got {value!r}")
    return int(value)


def check_choice(name: str, value: object, choices: tuple[str, ...]) -> str:
    """``value``, checked to be one of ``choices`` (an unknown ``name`` otherwise)."""
    if value not in choices:
        raise InputError(f"unknown {name} {value!r}; expected one of {', '.join(choices)}")
    return str(value)


def check_counts(counts: npt.ArrayLike, statistic: Statistic, what: str) -> np.ndarray:
    """Per-item counts as a float array ``items × columns``, checked."""
    try:
        array = np.asarray(counts, dtype=np.float64)
    except (TypeError, ValueError):
        raise InputError(f"{what}: expected numbers, items × {len(statistic.columns)} counts") from None
    k = len(statistic.columns)
    if array.ndim != 2 or array.shape[1] != k:
        raise InputError(
            f"{what}: expected items × {k} counts ({', '.join(statistic.columns)}), got shape {array.shape}"
        )
    if array.shape[0] < 2:
        raise InputError(f"{what}: resampling needs at least 2 items, got {array.shape[0]}")
    if not np.isfinite(array).all() or (array < 0).any():
        raise InputError(f"{what}: counts must be finite and not negative")
    return array


def _batch(n: int, columns: int) -> int:
    return max(1, _CELLS // max(1, n * columns))


# --------------------------------------------------------------------------- one system


def resample_system(
    counts: np.ndarray, statistics: Sequence[Statistic], n_resamples: int, confidence: float, seed: int
) -> tuple[np.ndarray, np.ndarray]:
    """Percentile bootstrap intervals of several statistics of one system, items resampled once for all."""
    from scipy.stats import bootstrap

    n, k = counts.shape

    def stat(*cols: np.ndarray, axis: int = -1) -> np.ndarray:
        sums = np.stack([c.sum(axis=axis) for c in cols], axis=-1)
        return np.stack([s(sums, cols[0].shape[axis]) for s in statistics])

    res = bootstrap(
        tuple(counts[:, j] for j in range(k)),
        stat,
        paired=True,
        vectorized=True,
        n_resamples=n_resamples,
        batch=_batch(n, k),
        confidence_level=confidence,
        method="percentile",
        rng=np.random.default_rng(seed),
    )
    return np.atleast_1d(res.confidence_interval.low), np.atleast_1d(res.confidence_interval.high)


def bootstrap_interval(
    counts: npt.ArrayLike,
    statistic: str | Statistic = "f1",
    *,
    n_resamples: int = 1000,
    confidence: float = 0.95,
    seed: int = 0,
) -> tuple[float, float]:
    """Percentile bootstrap interval of one system's corpus score (items resampled, counts re-summed).

    Example:
        >>> lo, hi = bootstrap_interval([[3, 4, 4], [5, 5, 6], [2, 4, 3]], n_resamples=200)
        >>> 0.5 <= lo <= hi <= 0.95
        True
    """
    stat = as_statistic(statistic)
    low, high = resample_system(
        check_counts(counts, stat, "counts"),
        [stat],
        check_int("n_resamples", n_resamples, 1),
        check_confidence(confidence),
        seed,
    )
    return float(low[0]), float(high[0])


# --------------------------------------------------------------------------- two systems and more


def _paired_data(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, ...]:
    return tuple(a[:, j] for j in range(a.shape[1])) + tuple(b[:, j] for j in range(b.shape[1]))


def bootstrap_differences(
    a: np.ndarray, b: np.ndarray, stat: Statistic, n_resamples: int, confidence: float, seed: int
) -> tuple[float, float, np.ndarray]:
    """Paired bootstrap of ``S(A) - S(B)``: the percentile interval and the resampled differences."""
    from scipy.stats import bootstrap

    n, k = a.shape

    def difference(*cols: np.ndarray, axis: int = -1) -> np.ndarray:
        sa = np.stack([c.sum(axis=axis) for c in cols[:k]], axis=-1)
        sb = np.stack([c.sum(axis=axis) for c in cols[k:]], axis=-1)
        m = cols[0].shape[axis]
        return stat(sa, m) - stat(sb, m)

    res = bootstrap(
        _paired_data(a, b),
        difference,
        paired=True,
        vectorized=True,
        n_resamples=n_resamples,
        batch=_batch(n, 2 * k),
        confidence_level=confidence,
        method="percentile",
        rng=np.random.default_rng(seed),
    )
    return float(res.confidence_interval.low), float(res.confidence_interval.high), res.bootstrap_distribution


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
        batch=_batch(n, 1),
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

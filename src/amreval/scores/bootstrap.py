"""The one bootstrap of per-item counts: items drawn with replacement, counts re-summed, percentile intervals.

Every bootstrap in amreval is made of two functions. :func:`resample_sums`
draws the resamples: each is ``n`` of the ``n`` items drawn with replacement,
the same items for every column (so two systems' columns resampled together
stay paired), and it re-sums each column over the items drawn.
:func:`percentile_interval` turns a statistic of those sums (one value per
resample) into its percentile interval. Together they give, to the last bit,
what :func:`scipy.stats.bootstrap` gives with ``paired=True`` and
``method="percentile"`` and a generator seeded with ``seed`` (a negative seed
counts modulo ``2**128``): the same resamples, drawn in the same order.

On them are built :func:`bootstrap_statistics` (several statistics of one
system from the same resamples), :func:`bootstrap_interval` (one),
:func:`bootstrap_prf` (precision, recall and F1) and :func:`score_intervals`
(every precision, recall and F1 a result holds); so are
:func:`~amreval.scores.f1.bootstrap_f1`,
:func:`~amreval.mfbeta.counts.bootstrap_mfbeta` and the interval of a paired
difference (:func:`~amreval.scores.paired_tests.bootstrap_differences`). The
same counts and seed give the same resamples in all of them.

Example:
    >>> counts = np.array([[3, 4, 4], [5, 5, 6], [2, 4, 3]], dtype=float)
    >>> sums = resample_sums(counts, 50, seed=0)       # three items drawn: 4 + 4 + 4 up to 5 + 5 + 5 predicted
    >>> sums.shape, set(sums[:, 1].tolist()) <= {12.0, 13.0, 14.0, 15.0}
    ((50, 3), True)
    >>> lo, hi = bootstrap_interval(counts, n_resamples=200)
    >>> 0.5 <= lo <= hi <= 0.95
    True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from amreval.errors import InputError
from amreval.scores.checks import check_confidence, check_int
from amreval.scores.corpus_statistics import STATISTICS, Statistic, as_statistic, columns_statistic, prf_statistic
from amreval.scores.result_parts import part_counts, parts_of

__all__ = [
    "batch_size",
    "check_counts",
    "resample_sums",
    "percentile_interval",
    "bootstrap_statistics",
    "bootstrap_interval",
    "bootstrap_prf",
    "score_intervals",
]

# numbers held at once while resampling (about 32 MB); bounds the batch of resamples
_CELLS = 4_000_000


def batch_size(n_items: int, columns: int) -> int:
    """How many resamples of ``n_items`` items × ``columns`` counts are made at once (at least one).

    Example:
        >>> batch_size(1000, 3), batch_size(10**7, 1)
        (1333, 1)
    """
    return max(1, _CELLS // max(1, n_items * columns))


def check_counts(counts: npt.ArrayLike, statistic: Statistic, what: str) -> np.ndarray:
    """Per-item counts as a float array ``items × columns``, checked for ``statistic``'s columns.

    Raises:
        InputError: not numbers, the wrong shape, fewer than 2 items, or a
            count that is negative or not finite (``what`` names the counts).
    """
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


def resample_sums(counts: np.ndarray, n_resamples: int, seed: int) -> np.ndarray:
    """The column sums of each of ``n_resamples`` resamples of the items: ``n_resamples × columns``.

    Each resample draws ``n`` item positions with replacement (one
    ``rng.integers(0, n, (batch, n))`` per batch of resamples, from
    ``numpy.random.default_rng(seed)``; the batches change memory, not the
    draws) and sums every column over them.

    Args:
        counts: ``items × columns``, checked (:func:`check_counts`).
        seed: any integer; a negative one counts modulo ``2**128``.
    """
    n, k = counts.shape
    rng = np.random.default_rng(seed if seed >= 0 else seed % (1 << 128))
    columns = [np.ascontiguousarray(counts[:, j]) for j in range(k)]
    sums = np.empty((n_resamples, k), dtype=np.float64)
    batch = batch_size(n, k)
    for start in range(0, n_resamples, batch):
        size = min(batch, n_resamples - start)
        drawn = rng.integers(0, n, (size, n), dtype=np.int64)
        for j, column in enumerate(columns):
            sums[start : start + size, j] = column[drawn].sum(axis=-1)
    return sums


def percentile_interval(values: np.ndarray, confidence: float) -> tuple[np.ndarray, np.ndarray]:
    """The percentile interval of resampled values along their last axis.

    The ``(1 - confidence) / 2`` and ``(1 + confidence) / 2`` quantiles
    (:func:`scipy.stats.quantile`, linear interpolation), as
    :func:`scipy.stats.bootstrap`'s percentile method takes them.

    Returns:
        ``(low, high)``, each of the shape of ``values`` without its last axis.
    """
    from scipy.stats import quantile

    alpha = np.asarray((1 - confidence) / 2, dtype=values.dtype)
    bounds = quantile(values, np.stack((alpha, 1 - alpha), axis=-1), axis=-1)
    return bounds[..., 0], bounds[..., 1]


def bootstrap_statistics(
    counts: np.ndarray, statistics: Sequence[Statistic], n_resamples: int, confidence: float, seed: int
) -> tuple[np.ndarray, np.ndarray]:
    """Percentile intervals of several statistics of one system's checked counts, from the same resamples.

    Returns:
        ``(low, high)``: one bound per statistic, in order.
    """
    n = counts.shape[0]
    sums = resample_sums(counts, n_resamples, seed)
    low, high = percentile_interval(np.stack([s(sums, n) for s in statistics]), confidence)
    return np.atleast_1d(low), np.atleast_1d(high)


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
        >>> bootstrap_interval([[1, 1, 1], [0, 1, 1]], n_resamples=1000)    # F1 1, 1/2 or 0
        (0.0, 1.0)
    """
    stat = as_statistic(statistic)
    low, high = bootstrap_statistics(
        check_counts(counts, stat, "counts"),
        [stat],
        check_int("n_resamples", n_resamples, 1),
        check_confidence(confidence),
        seed,
    )
    return float(low[0]), float(high[0])


def bootstrap_prf(
    counts: npt.ArrayLike, *, n_resamples: int = 1000, confidence: float = 0.95, seed: int = 0
) -> dict[str, tuple[float, float]]:
    """Percentile bootstrap intervals of precision, recall and F1 of one system, from the same resamples.

    ``counts`` is items × ``(match, test, gold)``. The resamples are those of
    :func:`~amreval.scores.f1.bootstrap_f1` for the same seed.

    Returns:
        ``{"precision": (low, high), "recall": ..., "f1": ...}``
    """
    stats = [prf_statistic(w) for w in STATISTICS[1:] + STATISTICS[:1]]  # precision, recall, f1
    low, high = bootstrap_statistics(
        check_counts(counts, stats[0], "counts"),
        stats,
        check_int("n_resamples", n_resamples, 1),
        check_confidence(confidence),
        seed,
    )
    return {s.name: (float(lo), float(hi)) for s, lo, hi in zip(stats, low, high)}


def score_intervals(
    result: Any, *, n_resamples: int = 1000, confidence: float = 0.95, seed: int = 0
) -> dict[str, float | None]:
    """Bootstrap intervals of every precision, recall and F1 a Smatch, S²match or DocSmatch result holds.

    Items are resampled once for all scores. Keys are the result's own keys
    with ``_ci_low`` and ``_ci_high``: ``precision_ci_low``, ``f1_ci_high``,
    ``coref_recall_ci_low``, ``srl_f1_ci_high``, ...; with fewer than 2 items every value is None
    (an interval of one item is undefined), and both are None for a sub-score with nothing to score
    (:func:`~amreval.scores.f1.undefined`), whose interval is undefined too.
    """
    n_resamples = check_int("n_resamples", n_resamples, 1)
    confidence = check_confidence(confidence)
    parts = parts_of(result)
    counts = np.concatenate([part_counts(result.pairs, part) for part in parts], axis=1)
    statistics = []
    names = []
    for j, part in enumerate(parts):
        prefix = "" if part == "overall" else f"{part}_"
        for which in ("precision", "recall", "f1"):
            statistics.append(columns_statistic(prf_statistic(which), 3 * j))
            names.append(f"{prefix}{which}")
    if counts.shape[0] < 2:  # one item has no interval to resample: every interval undefined
        return {f"{name}_ci_{end}": None for name in names for end in ("low", "high")}
    low, high = bootstrap_statistics(counts, statistics, n_resamples, confidence, seed)
    totals = counts.sum(axis=0)
    out: dict[str, float | None] = {}
    for name, statistic, lo, hi in zip(names, statistics, low, high):
        # a sub-score with nothing to score has no interval either (the main score keeps smatch's 0)
        undefined = name not in ("precision", "recall", "f1") and bool(statistic.is_undefined(totals))
        out[f"{name}_ci_low"], out[f"{name}_ci_high"] = (None, None) if undefined else (float(lo), float(hi))
    return out

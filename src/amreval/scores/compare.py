"""Is system A better than system B? Paired tests over items, intervals for every score, rankings.

Every score amreval computes is a function of counts summed over items
(sentences or documents): Smatch and DocSmatch of matched, predicted and gold
triples, each DocSmatch sub-score and fine-grained score likewise, S²match of
graded matches, MFβ of S²match counts plus the number of acceptable
sentences. The tests here work on those counts, one array of items × columns
per system, made once by scoring each system: every resample re-sums the
counts of the items it holds and recomputes the corpus score (the
micro-average). No per-item score is ever averaged.

* **permutation** (approximate randomization): if the two systems are
  exchangeable, swapping their counts on any item leaves the statistic's
  distribution unchanged. :func:`scipy.stats.permutation_test` with
  ``permutation_type="samples"`` on one sample flips the signs of its
  observations; the sample is one +1 per item, and a flipped sign swaps that
  item's counts (all columns together) between the systems before both are
  re-summed. With ``n_resamples >= 2**n`` all ``2**n`` swaps are enumerated
  and the p-value is exact; a random test's p-value is
  ``(k + 1) / (n_resamples + 1)``.
* **bootstrap** (paired): :func:`scipy.stats.bootstrap` with ``paired=True``
  draws items with replacement, the same items for both systems. The p-value
  is read off the resampled differences shifted to centre on zero (Koehn
  2004; Berg-Kirkpatrick et al. 2012): ``greater`` is
  ``(1 + #{d* - d >= d}) / (n_resamples + 1)``.

The statistic is ``d = S(A) - S(B)``, the difference of the corpus scores
(F1, precision or recall of summed counts, or MFβ and its parts); both tests
report it with its paired bootstrap percentile interval. ``alternative``
is ``"greater"`` for "A scores higher than B"; a two-sided p-value is twice
the smaller one-sided one, at most 1. Several systems: every pair is tested
and Holm's step-down correction is applied over all pairs. The same inputs
and ``seed`` give the same result.

Example:
    >>> a = [[3, 4, 4], [5, 5, 6], [2, 4, 3]]       # matched, predicted, gold per item
    >>> b = [[2, 4, 4], [5, 6, 6], [1, 4, 3]]
    >>> t = paired_test(a, b)
    >>> round(t.score_a, 4), round(t.score_b, 4), round(t.difference, 4)     # 20/26 - 16/27
    (0.7692, 0.5926, 0.1766)
    >>> t.exact, t.p_value    # 8 swaps; only no swap and all swapped are as extreme: 2/8
    (True, 0.25)
    >>> holm([0.01, 0.04, 0.03])
    [0.03, 0.06, 0.06]
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from amreval.errors import InputError

__all__ = [
    "TESTS",
    "ALTERNATIVES",
    "STATISTICS",
    "SCORES",
    "COREF_PARTS",
    "MF_PARTS",
    "DEFAULT_RESAMPLES",
    "Statistic",
    "prf_statistic",
    "mfbeta_statistic",
    "PairedTest",
    "ItemDifference",
    "Comparison",
    "paired_test",
    "bootstrap_interval",
    "bootstrap_prf",
    "score_intervals",
    "holm",
    "part_counts",
    "mfbeta_items",
    "mfbeta_parts",
    "check_mfbeta_parts",
    "bootstrap_mfbeta",
    "compare_results",
    "compare_mfbeta",
    "compare_counts",
    "compare_systems",
]

TESTS = ("permutation", "bootstrap")
ALTERNATIVES = ("two-sided", "greater", "less")
STATISTICS = ("f1", "precision", "recall")
#: DocSmatch's coreference sub-score and its breakdown (a document pair's :class:`~amreval.scores.coref.CorefCounts`).
COREF_PARTS = ("coref", "coref_named_entity", "coref_bridging", "coref_other", "noncoref")
#: MFβ and its two parts.
MF_PARTS = ("mfbeta", "meaning", "form")
DEFAULT_RESAMPLES = 10_000
# numbers held at once while resampling (about 32 MB); bounds the batch of resamples
_CELLS = 4_000_000


def _fine_measures() -> tuple[str, ...]:
    from amreval.scores.finegrained import MEASURES

    return tuple(MEASURES)


#: Every score :func:`compare_systems` compares: Smatch, S²match, DocSmatch, its coreference
#: parts, the fine-grained scores, MFβ and its parts.
SCORES = ("smatch", "s2match", "docsmatch", *COREF_PARTS, *_fine_measures(), *MF_PARTS)


# --------------------------------------------------------------------------- statistics


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


def _statistic(statistic: str | Statistic) -> Statistic:
    return statistic if isinstance(statistic, Statistic) else prf_statistic(statistic)


# --------------------------------------------------------------------------- checks


def _check_int(name: str, value: object, low: int) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < low:
        raise InputError(f"{name} must be an integer >= {low}, got {value!r}")
    return int(value)


def _check_confidence(confidence: object) -> float:
    if isinstance(confidence, bool) or not isinstance(confidence, (int, float, np.floating)) or not 0 < confidence < 1:
        raise InputError(f"confidence must be a number between 0 and 1 (exclusive), got {confidence!r}")
    return float(confidence)


def _check_choice(name: str, value: object, choices: tuple[str, ...]) -> str:
    if value not in choices:
        raise InputError(f"unknown {name} {value!r}; expected one of {', '.join(choices)}")
    return str(value)


def _counts(counts: npt.ArrayLike, statistic: Statistic, what: str) -> np.ndarray:
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


def _resample_system(
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
    stat = _statistic(statistic)
    low, high = _resample_system(
        _counts(counts, stat, "counts"),
        [stat],
        _check_int("n_resamples", n_resamples, 1),
        _check_confidence(confidence),
        seed,
    )
    return float(low[0]), float(high[0])


def bootstrap_prf(
    counts: npt.ArrayLike, *, n_resamples: int = 1000, confidence: float = 0.95, seed: int = 0
) -> dict[str, tuple[float, float]]:
    """Percentile bootstrap intervals of precision, recall and F1 of one system, from the same resamples.

    ``counts`` is items × ``(match, test, gold)``. The resamples are those of
    :func:`~amreval.scores.harness.bootstrap_f1` for the same seed.

    Returns:
        ``{"precision": (low, high), "recall": ..., "f1": ...}``
    """
    stats = [prf_statistic(w) for w in STATISTICS[1:] + STATISTICS[:1]]  # precision, recall, f1
    checked = _counts(counts, stats[0], "counts")
    low, high = _resample_system(
        checked,
        stats,
        _check_int("n_resamples", n_resamples, 1),
        _check_confidence(confidence),
        seed,
    )
    return {s.name: (float(lo), float(hi)) for s, lo, hi in zip(stats, low, high)}


def part_counts(pairs: Sequence[Any], part: str = "overall") -> np.ndarray:
    """Per-item ``(match, test, gold)`` of one score part, from a result's ``pairs``.

    Args:
        pairs: :class:`~amreval.scores.harness.PairScore` (or DocSmatch's
            :class:`~amreval.scores.docsmatch.DocPairScore`) per item.
        part: ``overall`` (also ``smatch``, ``s2match``, ``docsmatch``), a
            coreference part (:data:`COREF_PARTS`, needs ``coref=True``), or a
            fine-grained measure (needs ``fine_grained=True``).

    Raises:
        InputError: the part is unknown or was not computed.
    """
    rows: list[tuple[float, float, float]] = []
    measures = _fine_measures()
    if part in ("overall", "smatch", "s2match", "docsmatch"):
        rows = [(p.match, p.test, p.gold) for p in pairs]
    elif part in COREF_PARTS:
        for k, p in enumerate(pairs):
            coref = getattr(p, "coref", None)
            if coref is None:
                raise InputError(f"item #{k} has no coreference counts: score DocSmatch with coref=True")
            if part == "coref":
                rows.append(coref.total)
            elif part == "noncoref":
                rows.append(coref.noncoref(p.match, p.test, p.gold))
            else:
                rows.append(tuple(getattr(coref, part[len("coref_") :])))
    elif part in measures:
        for k, p in enumerate(pairs):
            fine = getattr(p, "fine_grained", None)
            if fine is None:
                raise InputError(f"item #{k} has no fine-grained counts: score DocSmatch with fine_grained=True")
            rows.append(tuple(fine[part]))
    else:
        known = ("overall", *COREF_PARTS, *measures)
        raise InputError(f"unknown part {part!r}; expected one of {', '.join(known)}")
    return np.asarray(rows, dtype=np.float64).reshape(len(rows), 3)


def _parts_of(result: Any) -> list[str]:
    """The score parts a result holds, overall first."""
    parts = ["overall"]
    pairs = result.pairs
    if pairs and getattr(pairs[0], "coref", None) is not None:
        parts += list(COREF_PARTS)
    if pairs and getattr(pairs[0], "fine_grained", None) is not None:
        parts += list(_fine_measures())
    return parts


def score_intervals(
    result: Any, *, n_resamples: int = 1000, confidence: float = 0.95, seed: int = 0
) -> dict[str, float]:
    """Bootstrap intervals of every precision, recall and F1 a Smatch, S²match or DocSmatch result holds.

    Items are resampled once for all scores. Keys are the result's own keys
    with ``_ci_low`` and ``_ci_high``: ``precision_ci_low``, ``f1_ci_high``,
    ``coref_recall_ci_low``, ``srl_f1_ci_high``, ...
    """
    n_resamples = _check_int("n_resamples", n_resamples, 1)
    confidence = _check_confidence(confidence)
    parts = _parts_of(result)
    blocks = [part_counts(result.pairs, part) for part in parts]
    counts = np.concatenate(blocks, axis=1)
    if counts.shape[0] < 2:
        raise InputError(f"a bootstrap interval needs at least 2 items, got {counts.shape[0]}")
    statistics = []
    names = []
    for j, part in enumerate(parts):
        prefix = "" if part == "overall" else f"{part}_"
        for which in ("precision", "recall", "f1"):
            statistics.append(_columns_statistic(prf_statistic(which), 3 * j))
            names.append(f"{prefix}{which}")
    low, high = _resample_system(counts, statistics, n_resamples, confidence, seed)
    out: dict[str, float] = {}
    for name, lo, hi in zip(names, low, high):
        out[f"{name}_ci_low"], out[f"{name}_ci_high"] = float(lo), float(hi)
    return out


def _columns_statistic(statistic: Statistic, offset: int) -> Statistic:
    """``statistic`` on the columns from ``offset`` on."""
    k = len(statistic.columns)
    return Statistic(
        statistic.name, statistic.columns, lambda sums, n: statistic.function(sums[..., offset : offset + k], n)
    )


# --------------------------------------------------------------------------- two systems


@dataclass(frozen=True)
class PairedTest:
    """A paired test of system ``a`` against system ``b`` over the same items.

    Attributes:
        a, b: the systems' names.
        score: the score compared (``smatch``, ``coref``, ``srl``, ``mfbeta``, ...).
        statistic: ``f1``, ``precision``, ``recall`` (or an MFβ part).
        score_a, score_b: the corpus scores; ``difference`` is ``score_a - score_b``.
        ci_low, ci_high: paired bootstrap percentile interval of the difference.
        p_value: of the test, for ``alternative``; ``p_holm`` the Holm-corrected
            p-value over all pairs of a comparison of several systems.
        test, alternative, n_resamples, confidence, seed: the settings.
        n_items: the number of items; ``exact``: every permutation was enumerated.
    """

    a: str
    b: str
    score: str
    statistic: str
    score_a: float
    score_b: float
    difference: float
    ci_low: float
    ci_high: float
    p_value: float
    test: str
    alternative: str
    n_resamples: int
    confidence: float
    seed: int
    n_items: int
    exact: bool = False
    p_holm: float | None = None

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def _paired_data(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, ...]:
    return tuple(a[:, j] for j in range(a.shape[1])) + tuple(b[:, j] for j in range(b.shape[1]))


def _bootstrap_differences(
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


def _bootstrap_p(distribution: np.ndarray, observed: float, alternative: str) -> float:
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


def _permutation_p(
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


def paired_test(
    a: npt.ArrayLike,
    b: npt.ArrayLike,
    *,
    statistic: str | Statistic = "f1",
    test: str = "permutation",
    n_resamples: int = DEFAULT_RESAMPLES,
    seed: int = 0,
    alternative: str = "two-sided",
    confidence: float = 0.95,
    names: tuple[str, str] = ("A", "B"),
    score: str = "",
) -> PairedTest:
    """Paired test of two systems' per-item counts (see the module docs).

    Args:
        a, b: items × columns counts of the two systems on the same items
            (``match, test, gold`` for the P/R/F statistics).
        statistic: ``f1``, ``precision``, ``recall`` or a :class:`Statistic`
            (e.g. :func:`mfbeta_statistic`).
        test: ``permutation`` or ``bootstrap``.
        n_resamples: resamples of the test and of the interval; a permutation
            test with ``n_resamples >= 2**items`` is exact.
        seed: seed of the resampling.
        alternative: ``two-sided``, ``greater`` (A scores higher) or ``less``.
        confidence: of the interval of the difference.
        names: the systems' names; ``score``: the score's name, for reports.

    Raises:
        InputError: shapes differ or do not fit the statistic, fewer than 2
            items, negative counts, or a setting out of range.
    """
    stat = _statistic(statistic)
    test = _check_choice("test", test, TESTS)
    alternative = _check_choice("alternative", alternative, ALTERNATIVES)
    n_resamples = _check_int("n_resamples", n_resamples, 1)
    confidence = _check_confidence(confidence)
    seed = _check_int("seed", seed, 0)
    ca = _counts(a, stat, f"system {names[0]}")
    cb = _counts(b, stat, f"system {names[1]}")
    if ca.shape != cb.shape:
        raise InputError(
            f"system {names[0]} has {ca.shape[0]} items but {names[1]} has {cb.shape[0]}; they are paired by position"
        )
    n = ca.shape[0]
    score_a, score_b = float(stat(ca.sum(axis=0), n)), float(stat(cb.sum(axis=0), n))
    observed = score_a - score_b
    low, high, distribution = _bootstrap_differences(ca, cb, stat, n_resamples, confidence, seed)
    exact = False
    if test == "permutation":
        p_value, exact = _permutation_p(ca, cb, stat, n_resamples, alternative, seed)
    else:
        p_value = _bootstrap_p(distribution, observed, alternative)
    return PairedTest(
        a=names[0],
        b=names[1],
        score=score or stat.name,
        statistic=stat.name,
        score_a=score_a,
        score_b=score_b,
        difference=observed,
        ci_low=low,
        ci_high=high,
        p_value=p_value,
        test=test,
        alternative=alternative,
        n_resamples=n_resamples,
        confidence=confidence,
        seed=seed,
        n_items=n,
        exact=exact,
    )


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


# --------------------------------------------------------------------------- several systems


@dataclass(frozen=True)
class ItemDifference:
    """One item's scores under two systems.

    Attributes:
        index: 0-based position; ``id``: the item's ``::id`` (or its 1-based position).
        score_a, score_b: the item's own score (the statistic of its counts alone).
        difference: ``score_a - score_b``.
    """

    index: int
    id: str
    score_a: float
    score_b: float
    difference: float


@dataclass
class Comparison:
    """Systems compared on the same items.

    Attributes:
        score, statistic: what is compared (``smatch`` and ``f1``, say).
        names: the systems, in the order given; ``ids``: one per item.
        counts: per system, its items × columns counts (scored once).
        scores: per system, its corpus score; ``intervals`` its bootstrap interval.
        tests: one :class:`PairedTest` per pair of systems (earlier against
            later, in the order given), with ``p_holm`` when there are more
            than two systems.
        breakdown: for the first two systems, a test per part of the score
            (DocSmatch: overall, the coreference parts, and the fine-grained
            scores when computed; MFβ: MFβ, Meaning, Form), when it has parts.
        config: the scoring settings (the :class:`~amreval.scores.harness.Config` line), when scored here.
    """

    score: str
    statistic: str
    names: list[str]
    ids: list[str]
    counts: dict[str, np.ndarray]
    item_scores: dict[str, np.ndarray]
    scores: dict[str, float]
    intervals: dict[str, tuple[float, float]]
    tests: list[PairedTest]
    breakdown: list[PairedTest] = field(default_factory=list)
    config: str = ""

    @property
    def n_items(self) -> int:
        return len(self.ids)

    def test(self, a: str | None = None, b: str | None = None) -> PairedTest:
        """The test of ``a`` against ``b`` (default: the first two systems)."""
        a = a if a is not None else self.names[0]
        b = b if b is not None else self.names[1]
        for t in self.tests:
            if (t.a, t.b) == (a, b):
                return t
        raise InputError(f"no test of {a!r} against {b!r}; tests are of earlier against later systems")

    def ranking(self) -> list[str]:
        """The systems from the best corpus score down (ties keep the order given)."""
        return sorted(self.names, key=lambda name: -self.scores[name])

    def differences(self, a: str | None = None, b: str | None = None) -> list[ItemDifference]:
        """Every item's scores under ``a`` and ``b``, the largest differences first (then by position)."""
        a = a if a is not None else self.names[0]
        b = b if b is not None else self.names[1]
        sa, sb = self.item_scores[a], self.item_scores[b]
        rows = [
            ItemDifference(k, self.ids[k], float(sa[k]), float(sb[k]), float(sa[k] - sb[k]))
            for k in range(self.n_items)
        ]
        return sorted(rows, key=lambda r: (-abs(r.difference), r.index))

    def as_dict(self) -> dict[str, Any]:
        """Everything as plain data (for JSON): systems ranked, tests, breakdown, and every item."""
        ranked = self.ranking()
        systems = [
            {
                "name": name,
                "rank": ranked.index(name) + 1,
                self.statistic: self.scores[name],
                "ci_low": self.intervals[name][0],
                "ci_high": self.intervals[name][1],
                "counts": [float(x) for x in self.counts[name].sum(axis=0)],
            }
            for name in self.names
        ]
        items = [
            {
                "index": k,
                "id": self.ids[k],
                "scores": {name: float(self.item_scores[name][k]) for name in self.names},
                "counts": {name: [float(x) for x in self.counts[name][k]] for name in self.names},
            }
            for k in range(self.n_items)
        ]
        return {
            "score": self.score,
            "statistic": self.statistic,
            "n_items": self.n_items,
            "systems": systems,
            "tests": [t.as_dict() for t in self.tests],
            "breakdown": [t.as_dict() for t in self.breakdown],
            "largest_differences": [asdict(d) for d in self.differences()],
            "items": items,
            "config": self.config,
        }


def compare_counts(
    counts: Mapping[str, npt.ArrayLike],
    *,
    statistic: str | Statistic = "f1",
    ids: Sequence[str] | None = None,
    test: str = "permutation",
    n_resamples: int = DEFAULT_RESAMPLES,
    seed: int = 0,
    alternative: str = "two-sided",
    confidence: float = 0.95,
    parts: Mapping[str, tuple[Statistic, Mapping[str, npt.ArrayLike]]] | None = None,
    score: str = "",
    config: str = "",
) -> Comparison:
    """Compare systems from their per-item counts: intervals, every pairwise test, Holm, item scores.

    Args:
        counts: system name → items × columns counts (at least two systems,
            the same items in the same order).
        statistic: as in :func:`paired_test`.
        ids: one label per item (default: positions from 1).
        parts: score part → ``(statistic, {system: counts})`` for the
            breakdown of the first two systems.
        score, config: names the score and its settings in reports.
        test, n_resamples, seed, alternative, confidence: as in :func:`paired_test`.
    """
    stat = _statistic(statistic)
    names = list(counts)
    if len(names) < 2:
        raise InputError(f"a comparison needs at least two systems, got {len(names)}")
    n_resamples = _check_int("n_resamples", n_resamples, 1)
    confidence = _check_confidence(confidence)
    arrays = {name: _counts(counts[name], stat, f"system {name}") for name in names}
    n = arrays[names[0]].shape[0]
    for name in names[1:]:
        if arrays[name].shape[0] != n:
            raise InputError(
                f"system {names[0]} has {n} items but {name} has {arrays[name].shape[0]}; they are paired by position"
            )
    labels = [str(k + 1) for k in range(n)] if ids is None else [str(x) for x in ids]
    if len(labels) != n:
        raise InputError(f"{len(labels)} item ids for {n} items")
    kw: dict[str, Any] = dict(
        test=test, n_resamples=n_resamples, seed=seed, alternative=alternative, confidence=confidence
    )
    tests = [
        paired_test(arrays[a], arrays[b], statistic=stat, names=(a, b), score=score or stat.name, **kw)
        for i, a in enumerate(names)
        for b in names[i + 1 :]
    ]
    if len(names) > 2:
        adjusted = holm([t.p_value for t in tests])
        tests = [_with_holm(t, p) for t, p in zip(tests, adjusted)]
    intervals = {}
    for name in names:
        low, high = _resample_system(arrays[name], [stat], n_resamples, confidence, seed)
        intervals[name] = (float(low[0]), float(high[0]))
    breakdown = []
    a, b = names[0], names[1]
    for part, (part_stat, part_counts_) in (parts or {}).items():
        breakdown.append(
            paired_test(part_counts_[a], part_counts_[b], statistic=part_stat, names=(a, b), score=part, **kw)
        )
    return Comparison(
        score=score or stat.name,
        statistic=stat.name,
        names=names,
        ids=labels,
        counts=arrays,
        item_scores={name: stat(arrays[name], 1) for name in names},
        scores={name: float(stat(arrays[name].sum(axis=0), n)) for name in names},
        intervals=intervals,
        tests=tests,
        breakdown=breakdown,
        config=config,
    )


def _with_holm(t: PairedTest, p: float) -> PairedTest:
    from dataclasses import replace

    return replace(t, p_holm=p)


# --------------------------------------------------------------------------- scoring systems once


def mfbeta_items(
    prediction_amrs: Sequence[Any],
    reference_amrs: Sequence[Any],
    form: Sequence[float] | Sequence[bool],
    *,
    tolerance: float | None = None,
    vectors: Any = None,
    cutoff: float | None = None,
    diffsense: float | None = None,
    **search: Any,
) -> np.ndarray:
    """Per-item ``(match, test, gold, acceptable)`` of MFβ from precomputed parts.

    Meaning's counts are S²match of each parse against its gold AMR, with the
    search MFβ uses (so they sum to :attr:`~amreval.mfbeta.score.MFResult.meaning_counts`);
    a parse that is None, empty or unreadable is MFβ's stand-in for a failed
    parse (:func:`~amreval.mfbeta.parsers.failed_parse_graph`).
    Form is given: one preference score per item (acceptable when at least
    ``0.5 - tolerance``) or one acceptability flag per item.

    Args:
        search: ``solver``, ``restarts``, ``seed``, ``time_limit``, ``progress``.
    """
    import warnings

    from amreval.amr.graph import Graph
    from amreval.amr.read import as_graph, loads_graph
    from amreval.errors import AmrevalWarning, DecodeError
    from amreval.mfbeta.form import DEFAULT_TOLERANCE, acceptable
    from amreval.mfbeta.parsers import failed_parse_graph
    from amreval.scores.s2match import DEFAULT_CUTOFF, DEFAULT_DIFFSENSE, s2match

    n = len(reference_amrs)
    if len(prediction_amrs) != n or len(form) != n:
        raise InputError(
            f"{len(prediction_amrs)} prediction AMRs, {n} reference AMRs and {len(form)} form values; "
            "they are paired by position"
        )
    flags = np.asarray(form)
    if flags.dtype != np.bool_:
        try:
            flags = acceptable(
                np.asarray(form, dtype=np.float64), DEFAULT_TOLERANCE if tolerance is None else tolerance
            )
        except (TypeError, ValueError) as exc:
            if isinstance(exc, InputError):
                raise
            raise InputError("form: expected one preference score or one true/false per item") from None
    preds: list[Graph] = []
    for k, g in enumerate(prediction_amrs):
        graph: Graph | None = None
        if isinstance(g, Graph):
            graph = as_graph(g, "prediction AMR", k)
        elif isinstance(g, str) and g.strip():
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore", AmrevalWarning)
                    graph = loads_graph(g, name=f"prediction AMR #{k}")
            except DecodeError:
                graph = None
        preds.append(graph if graph is not None and not graph.is_empty() else failed_parse_graph())
    golds = []
    for k, g in enumerate(reference_amrs):
        if isinstance(g, Graph):
            golds.append(as_graph(g, "reference AMR", k))
        elif isinstance(g, str) and g.strip():
            golds.append(loads_graph(g, name=f"reference AMR #{k}"))
        else:
            raise InputError(f"reference AMR #{k}: expected a PENMAN graph, got {g!r:.40}")
    result = s2match(
        preds,
        golds,
        vectors=vectors,
        cutoff=DEFAULT_CUTOFF if cutoff is None else cutoff,
        diffsense=DEFAULT_DIFFSENSE if diffsense is None else diffsense,
        **search,
    )
    meaning = part_counts(result.pairs)
    return np.column_stack([meaning, flags.astype(np.float64)])


def check_mfbeta_parts(prediction_amrs: Sequence[Any] | None, reference_amrs: Sequence[Any] | None) -> None:
    """MFβ's per-item counts need the parses and the gold AMRs.

    Raises:
        InputError: either is missing.
    """
    if prediction_amrs is None or reference_amrs is None:
        raise InputError(
            "intervals and comparisons of MFβ need its precomputed parts: the parses (prediction_amrs, and "
            "compare_prediction_amrs for a second system) and the gold AMRs (reference_amrs)"
        )


def mfbeta_parts(
    result: Any,
    prediction_amrs: Sequence[Any] | None,
    reference_amrs: Sequence[Any] | None,
    options: Mapping[str, Any] | None = None,
) -> np.ndarray:
    """Per-item ``(match, test, gold, acceptable)`` behind an :class:`~amreval.mfbeta.score.MFResult`.

    Meaning's counts are scored again from the parses the result was made
    from (precomputed ``prediction_amrs`` against ``reference_amrs``, with the
    S²match settings among ``options``, MFβ's keywords); Form's flags are the result's.

    Raises:
        InputError: the parses or the gold AMRs are missing (MFβ's items
            need both), or the counts do not add up to the result's.
    """
    check_mfbeta_parts(prediction_amrs, reference_amrs)
    assert prediction_amrs is not None and reference_amrs is not None
    options = options or {}
    keys = ("vectors", "cutoff", "diffsense", "solver", "restarts", "seed", "time_limit")
    items = mfbeta_items(
        prediction_amrs,
        reference_amrs,
        [bool(x) for x in result.acceptable],
        **{k: options[k] for k in keys if k in options},
    )
    if not np.allclose(items[:, :3].sum(axis=0), result.meaning_counts, rtol=1e-9, atol=1e-9):
        raise InputError("the parses given do not give the result's Meaning counts")
    return items


def _mf_statistics(beta: float) -> list[tuple[str, Statistic]]:
    return [
        ("mf_beta", mfbeta_statistic(beta, "mfbeta")),
        ("meaning", mfbeta_statistic(beta, "meaning")),
        ("form", mfbeta_statistic(beta, "form")),
    ]


def bootstrap_mfbeta(
    items: npt.ArrayLike, *, beta: float = 1.0, n_resamples: int = 1000, confidence: float = 0.95, seed: int = 0
) -> dict[str, float]:
    """Bootstrap intervals of MFβ, Meaning and Form from per-item ``(match, test, gold, acceptable)``,
    items resampled once for all three: ``mf_beta_ci_low``, ``mf_beta_ci_high``, ``meaning_ci_low``, ...
    """
    named = _mf_statistics(beta)
    counts = _counts(items, named[0][1], "items")
    low, high = _resample_system(
        counts, [s for _, s in named], _check_int("n_resamples", n_resamples, 1), _check_confidence(confidence), seed
    )
    out: dict[str, float] = {}
    for (name, _), lo, hi in zip(named, low, high):
        out[f"{name}_ci_low"], out[f"{name}_ci_high"] = float(lo), float(hi)
    return out


def _test_outputs(tests: Sequence[tuple[str, PairedTest]]) -> dict[str, float]:
    out: dict[str, float] = {}
    for base, t in tests:
        out[f"compare_{base}"] = t.score_b
        out[f"{base}_difference"] = t.difference
        out[f"{base}_difference_ci_low"] = t.ci_low
        out[f"{base}_difference_ci_high"] = t.ci_high
        out[f"{base}_p_value"] = t.p_value
    return out


def compare_results(result_a: Any, result_b: Any, *, statistic: str = "f1", **kw: Any) -> dict[str, float]:
    """Flat outputs comparing two systems' results of one score on the same items (for the metrics).

    For every part both results hold (overall, the coreference parts, the
    fine-grained scores), with ``<part>`` the result's key of the statistic
    (``f1``, ``coref_f1``, ``srl_f1``, ...): ``compare_<part>`` (the second
    system's score), ``<part>_difference`` (first minus second), its interval
    ``<part>_difference_ci_low`` / ``_ci_high``, and ``<part>_p_value``.

    Args:
        kw: ``test``, ``n_resamples``, ``seed``, ``alternative``, ``confidence`` (see :func:`paired_test`).
    """
    stat = prf_statistic(statistic)
    b_parts = set(_parts_of(result_b))
    tests = []
    for part in _parts_of(result_a):
        if part not in b_parts:
            continue
        base = statistic if part == "overall" else f"{part}_{statistic}"
        tests.append(
            (
                base,
                paired_test(
                    part_counts(result_a.pairs, part),
                    part_counts(result_b.pairs, part),
                    statistic=stat,
                    score="docsmatch" if part == "overall" else part,
                    **kw,
                ),
            )
        )
    return _test_outputs(tests)


def compare_mfbeta(items_a: npt.ArrayLike, items_b: npt.ArrayLike, *, beta: float = 1.0, **kw: Any) -> dict[str, float]:
    """Flat outputs comparing two systems' MFβ items (see :func:`compare_results`): ``compare_mf_beta``,
    ``mf_beta_difference``, ``mf_beta_difference_ci_low``, ..., ``mf_beta_p_value``, and the same for
    ``meaning`` and ``form``."""
    return _test_outputs(
        [(name, paired_test(items_a, items_b, statistic=stat, score=name, **kw)) for name, stat in _mf_statistics(beta)]
    )


def _item_ids(graphs: Sequence[Any]) -> list[str]:
    return [(getattr(g, "id", None) or str(k + 1)) for k, g in enumerate(graphs)]


def compare_systems(
    systems: Mapping[str, Sequence[Any]] | Sequence[Sequence[Any]],
    references: Sequence[Any],
    *,
    score: str = "smatch",
    statistic: str = "f1",
    test: str = "permutation",
    n_resamples: int = DEFAULT_RESAMPLES,
    seed: int = 0,
    alternative: str = "two-sided",
    confidence: float = 0.95,
    fine_grained: bool = False,
    form: Mapping[str, Sequence[float] | Sequence[bool]] | Sequence[Sequence[float] | Sequence[bool]] | None = None,
    beta: float = 1.0,
    tolerance: float | None = None,
    vectors: Any = None,
    cutoff: float | None = None,
    diffsense: float | None = None,
    num_workers: int = 1,
    progress: bool | None = None,
    **search: Any,
) -> Comparison:
    """Score each system once against the references, then compare them (see the module docs).

    Args:
        systems: name → predictions (or a list of prediction lists, named
            ``A``, ``B``, ...), each paired with ``references`` by position.
        references: the gold graphs (documents for the DocSmatch scores).
        score: one of :data:`SCORES`: ``smatch``, ``s2match``, ``docsmatch``
            (with the coreference sub-score; the breakdown tests each part),
            a coreference part (``coref``, ``coref_named_entity``, ...,
            ``noncoref``), a fine-grained score (``srl``, ``concepts``, ...;
            DocSmatch's, which on sentence graphs is Smatch's), or ``mfbeta``,
            ``meaning``, ``form`` (MFβ from precomputed parts: ``systems`` are
            the parses of each system's generated sentences, ``references``
            the gold AMRs, ``form`` each system's preference scores or
            acceptability flags).
        statistic: ``f1``, ``precision`` or ``recall``.
        fine_grained: with a DocSmatch score, add the fine-grained scores to the breakdown.
        beta, tolerance: MFβ's β and Form's tolerance.
        vectors, cutoff, diffsense: S²match settings (``s2match`` and MFβ).
        num_workers: processes for DocSmatch scores.
        search: ``solver``, ``restarts``, ``time_limit`` of the alignment
            search; its seed is ``seed``.
        test, n_resamples, seed, alternative, confidence: as in :func:`paired_test`.

    Raises:
        InputError: an unknown score, fewer than two systems, lengths that
            differ, or a bad setting.
    """
    score = _check_choice("score", score, SCORES)
    statistic = _check_choice("statistic", statistic, STATISTICS)
    if isinstance(systems, Mapping):
        named = {str(k): list(v) for k, v in systems.items()}
    else:
        named = {_letter(k): list(v) for k, v in enumerate(systems)}
    if len(named) < 2:
        raise InputError(f"a comparison needs at least two systems, got {len(named)}")
    refs = list(references)
    for name, preds in named.items():
        if len(preds) != len(refs):
            raise InputError(f"system {name} has {len(preds)} items but there are {len(refs)} references")
    search = {**search, "seed": seed}
    kw: dict[str, Any] = dict(
        test=test, n_resamples=n_resamples, seed=seed, alternative=alternative, confidence=confidence
    )
    if score in MF_PARTS:
        return _compare_mfbeta(
            named, refs, score, statistic, form, beta, tolerance, (vectors, cutoff, diffsense), kw, search, progress
        )
    if score in ("smatch", "s2match"):
        from amreval.amr.read import as_graph

        golds = [as_graph(r, "reference", k) for k, r in enumerate(refs)]
        results = {}
        for name, preds in named.items():
            if score == "smatch":
                from amreval.scores.smatch import smatch

                results[name] = smatch(preds, golds, progress=progress, **search)
            else:
                from amreval.scores.s2match import s2match

                s2: dict[str, Any] = {"vectors": vectors}
                if cutoff is not None:
                    s2["cutoff"] = cutoff
                if diffsense is not None:
                    s2["diffsense"] = diffsense
                results[name] = s2match(preds, golds, progress=progress, **s2, **search)
        first = next(iter(results.values()))
        return compare_counts(
            {name: part_counts(r.pairs) for name, r in results.items()},
            statistic=statistic,
            ids=_item_ids(golds),
            score=score,
            config=first.config.as_string(),
            **kw,
        )
    from amreval.docamr.document import document_graph
    from amreval.scores.docsmatch import docsmatch

    measures = _fine_measures()
    fine = fine_grained or score in measures
    golds = [document_graph(r, "reference", k) for k, r in enumerate(refs)]
    results = {
        name: docsmatch(
            preds, golds, coref=True, fine_grained=fine, num_workers=num_workers, progress=progress, **search
        )
        for name, preds in named.items()
    }
    part = "overall" if score == "docsmatch" else score
    stat = prf_statistic(statistic)
    parts = {
        ("docsmatch" if p == "overall" else p): (stat, {name: part_counts(r.pairs, p) for name, r in results.items()})
        for p in _parts_of(next(iter(results.values())))
    }
    first = next(iter(results.values()))
    return compare_counts(
        {name: part_counts(r.pairs, part) for name, r in results.items()},
        statistic=stat,
        ids=_item_ids(golds),
        parts=parts,
        score=score,
        config=first.config.as_string(),
        **kw,
    )


def _letter(k: int) -> str:
    return chr(ord("A") + k) if k < 26 else f"S{k + 1}"


def _compare_mfbeta(
    named: dict[str, list[Any]],
    refs: list[Any],
    score: str,
    statistic: str,
    form: Any,
    beta: float,
    tolerance: float | None,
    s2: tuple[Any, float | None, float | None],
    kw: dict[str, Any],
    search: dict[str, Any],
    progress: bool | None,
) -> Comparison:
    from amreval.match.options import SearchOptions
    from amreval.mfbeta.form import DEFAULT_TOLERANCE
    from amreval.scores.harness import Config

    vectors, cutoff, diffsense = s2
    if form is None:
        raise InputError("MFβ needs each system's Form: pass form= (preference scores or acceptability flags)")
    forms = dict(form) if isinstance(form, Mapping) else {_letter(k): f for k, f in enumerate(form)}
    if set(forms) != set(named):
        raise InputError(f"form= names {sorted(forms)} but the systems are {sorted(named)}")
    items = {
        name: mfbeta_items(
            preds,
            refs,
            forms[name],
            tolerance=tolerance,
            vectors=vectors,
            cutoff=cutoff,
            diffsense=diffsense,
            progress=progress,
            **search,
        )
        for name, preds in named.items()
    }
    parts = {p: (mfbeta_statistic(beta, p), items) for p in MF_PARTS}
    ids = [str(k + 1) for k in range(len(refs))]
    for k, g in enumerate(refs):
        gid = getattr(g, "id", None)
        if gid:
            ids[k] = gid
    return compare_counts(
        items,
        statistic=mfbeta_statistic(beta, score, statistic if score == "meaning" else "f1"),
        ids=ids,
        parts=parts,
        score=score,
        config=Config(
            "mfbeta",
            SearchOptions(**{k: v for k, v in search.items() if k in ("solver", "restarts", "seed", "time_limit")}),
            (("beta", beta), ("tolerance", DEFAULT_TOLERANCE if tolerance is None else tolerance)),
        ).as_string(),
        **kw,
    )

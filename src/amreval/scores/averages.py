"""Corpus averages of a score and their bootstrap intervals: micro, macro and micro-macro.

* **micro** (the published definition, what every result holds): match, test and gold counts
  summed over the items before precision, recall and F1 are taken.
* **macro**: the mean of the items' own precision, recall and F1 (SMATCH++'s ``-score_type
  macro``). An item whose two graphs are both empty scores 1 in all three, as in SMATCH++; an
  item with nothing predicted (or nothing gold) has precision and recall 0 there.
* **micro-macro**: with ``groups`` (a label per item, say the document of each sentence), each
  group's micro score, averaged over the groups. Without groups there is none; SMATCH++'s
  ``micromacro`` is the micro and the macro average side by side, which :func:`averages` always
  gives, from the same resamples.

Every interval is a percentile bootstrap (:mod:`amreval.scores.bootstrap`): items (or, for
micro-macro, groups) drawn with replacement from ``numpy.random.default_rng(seed)``, vectorized;
the micro interval is that of :func:`~amreval.scores.bootstrap.score_intervals` for the same seed.

Example:
    >>> a = averages([[3, 4, 4], [1, 2, 4], [0, 0, 0]], n_resamples=200)
    >>> round(a.micro.f1, 4), round(a.macro.f1, 4)       # 4 of 6 and 8; (0.75 + 1/3 + 1) / 3
    (0.5714, 0.6944)
    >>> a.micro_macro is None
    True
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from amreval.errors import InputError
from amreval.scores.bootstrap import resample_sums
from amreval.scores.checks import check_confidence, check_int
from amreval.scores.results import Result
from amreval.scores.text import plural

__all__ = ["Average", "Averages", "averages", "item_prf", "AVERAGES"]

AVERAGES = ("micro", "macro", "micro-macro")


@dataclass(frozen=True)
class Average(Result):
    """One average: precision, recall and F1, each with its ``(low, high)`` interval (None without resamples)."""

    precision: float
    recall: float
    f1: float
    precision_ci: tuple[float, float] | None = None
    recall_ci: tuple[float, float] | None = None
    f1_ci: tuple[float, float] | None = None

    def as_dict(self, prefix: str = "") -> dict[str, float]:
        """Flat numbers: ``<prefix>_precision``, ..., ``<prefix>_f1_ci_high``; without a prefix ``precision``,
        ..., ``f1_ci_high`` (one average on its own, written out as any result is)."""
        out: dict[str, float] = {}
        for name in ("precision", "recall", "f1"):
            key = f"{prefix}_{name}" if prefix else name
            out[key] = getattr(self, name)
            ci = getattr(self, f"{name}_ci")
            if ci is not None:
                out[f"{key}_ci_low"], out[f"{key}_ci_high"] = ci
        return out


@dataclass(frozen=True)
class Averages(Result):
    """The micro and macro averages of a corpus and, with groups, the micro-macro average."""

    micro: Average
    macro: Average
    micro_macro: Average | None
    n_resamples: int
    confidence: float
    seed: int

    def as_dict(self) -> dict[str, float | None]:
        """All numbers, flat (``micro_f1``, ``macro_f1_ci_low``, ``micro_macro_recall``, ...); an interval asked
        for (``n_resamples``) but undefined (fewer than 2 items or groups to resample) is None."""
        out: dict[str, float | None] = {}
        for prefix, average in (("micro", self.micro), ("macro", self.macro), ("micro_macro", self.micro_macro)):
            if average is None:
                continue
            out.update(average.as_dict(prefix))
            if self.n_resamples:
                for name in ("precision", "recall", "f1"):
                    for end in ("low", "high"):
                        out.setdefault(f"{prefix}_{name}_ci_{end}", None)
        return out


def _micro(sums: np.ndarray) -> np.ndarray:
    """Precision, recall and F1 of summed ``(match, test, gold)`` (rows), 0 where undefined."""
    m, t, g = sums[..., 0], sums[..., 1], sums[..., 2]
    with np.errstate(divide="ignore", invalid="ignore"):
        p = np.where(t > 0, m / np.where(t > 0, t, 1), 0.0)
        r = np.where(g > 0, m / np.where(g > 0, g, 1), 0.0)
        f = np.where(p + r > 0, 2 * p * r / np.where(p + r > 0, p + r, 1), 0.0)
    ok = (t > 0) & (g > 0)
    return np.stack((np.where(ok, p, 0.0), np.where(ok, r, 0.0), np.where(ok, f, 0.0)), axis=-1)


def item_prf(counts: np.ndarray) -> np.ndarray:
    """Each item's precision, recall and F1 (``items × 3``) as macro averages them (see the module docs).

    Example:
        >>> item_prf(np.array([[3.0, 4, 4], [0, 0, 0], [0, 0, 2]])).tolist()
        [[0.75, 0.75, 0.75], [1.0, 1.0, 1.0], [0.0, 0.0, 0.0]]
    """
    m, t, g = counts[:, 0], counts[:, 1], counts[:, 2]
    with np.errstate(divide="ignore", invalid="ignore"):
        p = np.where(t > 0, m / np.where(t > 0, t, 1), 0.0)
        r = np.where(g > 0, m / np.where(g > 0, g, 1), 0.0)
        f = np.where(p + r > 0, 2 * p * r / np.where(p + r > 0, p + r, 1), 0.0)
    empty = (m == 0) & (t == 0) & (g == 0)
    return np.where(empty[:, None], 1.0, np.stack((p, r, f), axis=1))


def _counts_of(source: Any) -> np.ndarray:
    if hasattr(source, "pairs"):
        rows = [(p.match, p.test, p.gold) for p in source.pairs]
    else:
        rows = source
    try:
        counts = np.asarray(rows, dtype=np.float64)
    except (TypeError, ValueError):
        raise InputError("averages: expected a result or items × (match, test, gold) counts") from None
    if counts.ndim != 2 or counts.shape[1] != 3 or counts.shape[0] == 0:
        raise InputError(f"averages: expected items × (match, test, gold) counts, got shape {counts.shape}")
    if not np.isfinite(counts).all() or (counts < 0).any():
        raise InputError("averages: counts must be finite and not negative")
    return counts


def _average(value: np.ndarray, resampled: np.ndarray | None, confidence: float) -> Average:
    p, r, f = (float(v) for v in value)
    if resampled is None:
        return Average(p, r, f)
    # the percentile method's linear quantiles, by NumPy (no SciPy to import)
    alpha = (1 - confidence) / 2
    low, high = np.quantile(resampled, [alpha, 1 - alpha], axis=0)
    ci = [(float(lo), float(hi)) for lo, hi in zip(low, high)]
    return Average(p, r, f, ci[0], ci[1], ci[2])


def averages(
    source: Any,
    *,
    groups: Sequence[Hashable] | None = None,
    n_resamples: int = 10000,
    confidence: float = 0.95,
    seed: int = 0,
) -> Averages:
    """The micro, macro (and, with ``groups``, micro-macro) averages with their bootstrap intervals.

    Args:
        source: a result (:class:`~amreval.scores.results.SmatchResult`, S²match's, DocSmatch's:
            anything with ``pairs`` of ``match``, ``test``, ``gold``) or items × ``(match, test, gold)``.
        groups: one label per item; enables micro-macro (each group's micro score, averaged).
        n_resamples: bootstrap resamples (0: no intervals).
        confidence: of the intervals.
        seed: of the resamples; the same counts and seed give the same intervals.

    Raises:
        InputError: counts of the wrong shape, negative or not finite; groups of another
            length than the items. With fewer than 2 items (or groups) the intervals are undefined:
            None, as without resamples.
    """
    counts = _counts_of(source)
    n_resamples = check_int("n_resamples", n_resamples, 0)
    confidence = check_confidence(confidence)
    n = counts.shape[0]
    per_item = item_prf(counts)
    columns = np.concatenate((counts, per_item), axis=1)
    micro_value = _micro(counts.sum(axis=0))
    macro_value = per_item.mean(axis=0)
    micro_rs = macro_rs = None
    if n_resamples and n >= 2:  # one item has no interval to resample: undefined (None), not an error
        sums = resample_sums(columns, n_resamples, seed)
        micro_rs, macro_rs = _micro(sums[:, :3]), sums[:, 3:] / n
    micro_macro = None
    if groups is not None:
        labels = list(groups)
        if len(labels) != n:
            raise InputError(f"averages: {len(labels)} group labels for {plural(n, 'item')}")
        index: dict[Hashable, int] = {}
        ids = np.fromiter((index.setdefault(x, len(index)) for x in labels), dtype=np.int64, count=n)
        k = len(index)
        group_counts = np.zeros((k, 3))
        np.add.at(group_counts, ids, counts)
        group_prf = _micro(group_counts)
        mm_rs = None
        if n_resamples and k >= 2:
            mm_rs = resample_sums(group_prf, n_resamples, seed) / k
        micro_macro = _average(group_prf.mean(axis=0), mm_rs, confidence)
    return Averages(
        _average(micro_value, micro_rs, confidence),
        _average(macro_value, macro_rs, confidence),
        micro_macro,
        n_resamples,
        confidence,
        seed,
    )

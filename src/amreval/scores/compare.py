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

Here: :func:`compare_systems` (each system scored once, then compared),
:func:`compare_counts` of several systems' counts, :func:`paired_test` of two,
the intervals of one system (:func:`bootstrap_prf`, :func:`score_intervals`)
and the per-item counts of a result's parts (:func:`part_counts`). The corpus
scores are in :mod:`amreval.scores.statistic`, the resampling in
:mod:`amreval.scores.resample`, the results in :mod:`amreval.scores.comparison`,
MFβ's counts in :mod:`amreval.scores.mfcounts`, and the metrics' flat outputs
in :mod:`amreval.scores.outputs`.

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

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

import numpy as np
import numpy.typing as npt

from amreval.errors import InputError
from amreval.scores.comparison import Comparison, PairedTest
from amreval.scores.finegrained import MEASURES
from amreval.scores.harness import check_confidence
from amreval.scores.mfcounts import mfbeta_items
from amreval.scores.resample import (
    ALTERNATIVES,
    DEFAULT_RESAMPLES,
    TESTS,
    bootstrap_differences,
    bootstrap_p,
    check_choice,
    check_counts,
    check_int,
    holm,
    permutation_p,
    resample_system,
)
from amreval.scores.statistic import (
    MF_PARTS,
    STATISTICS,
    Statistic,
    as_statistic,
    columns_statistic,
    mfbeta_statistic,
    prf_statistic,
)

__all__ = [
    "SCORES",
    "COREF_PARTS",
    "bootstrap_prf",
    "part_counts",
    "parts_of",
    "score_intervals",
    "paired_test",
    "compare_counts",
    "compare_systems",
]

#: DocSmatch's coreference sub-score and its breakdown (a document pair's :class:`~amreval.scores.coref.CorefCounts`).
COREF_PARTS = ("coref", "coref_named_entity", "coref_bridging", "coref_other", "noncoref")
#: Every score :func:`compare_systems` compares: Smatch, S²match, DocSmatch, its coreference
#: parts, the fine-grained scores, MFβ and its parts.
SCORES = ("smatch", "s2match", "docsmatch", *COREF_PARTS, *MEASURES, *MF_PARTS)


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
    checked = check_counts(counts, stats[0], "counts")
    low, high = resample_system(
        checked,
        stats,
        check_int("n_resamples", n_resamples, 1),
        check_confidence(confidence),
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
    elif part in MEASURES:
        for k, p in enumerate(pairs):
            fine = getattr(p, "fine_grained", None)
            if fine is None:
                raise InputError(f"item #{k} has no fine-grained counts: score DocSmatch with fine_grained=True")
            rows.append(tuple(fine[part]))
    else:
        known = ("overall", *COREF_PARTS, *MEASURES)
        raise InputError(f"unknown part {part!r}; expected one of {', '.join(known)}")
    return np.asarray(rows, dtype=np.float64).reshape(len(rows), 3)


def parts_of(result: Any) -> list[str]:
    """The score parts a result holds, overall first."""
    parts = ["overall"]
    pairs = result.pairs
    if pairs and getattr(pairs[0], "coref", None) is not None:
        parts += list(COREF_PARTS)
    if pairs and getattr(pairs[0], "fine_grained", None) is not None:
        parts += list(MEASURES)
    return parts


def score_intervals(
    result: Any, *, n_resamples: int = 1000, confidence: float = 0.95, seed: int = 0
) -> dict[str, float]:
    """Bootstrap intervals of every precision, recall and F1 a Smatch, S²match or DocSmatch result holds.

    Items are resampled once for all scores. Keys are the result's own keys
    with ``_ci_low`` and ``_ci_high``: ``precision_ci_low``, ``f1_ci_high``,
    ``coref_recall_ci_low``, ``srl_f1_ci_high``, ...
    """
    n_resamples = check_int("n_resamples", n_resamples, 1)
    confidence = check_confidence(confidence)
    parts = parts_of(result)
    blocks = [part_counts(result.pairs, part) for part in parts]
    counts = np.concatenate(blocks, axis=1)
    if counts.shape[0] < 2:
        raise InputError(f"a bootstrap interval needs at least 2 items, got {counts.shape[0]}")
    statistics = []
    names = []
    for j, part in enumerate(parts):
        prefix = "" if part == "overall" else f"{part}_"
        for which in ("precision", "recall", "f1"):
            statistics.append(columns_statistic(prf_statistic(which), 3 * j))
            names.append(f"{prefix}{which}")
    low, high = resample_system(counts, statistics, n_resamples, confidence, seed)
    out: dict[str, float] = {}
    for name, lo, hi in zip(names, low, high):
        out[f"{name}_ci_low"], out[f"{name}_ci_high"] = float(lo), float(hi)
    return out


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
        statistic: ``f1``, ``precision``, ``recall`` or a :class:`~amreval.scores.statistic.Statistic`
            (e.g. :func:`~amreval.scores.statistic.mfbeta_statistic`).
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
    stat = as_statistic(statistic)
    test = check_choice("test", test, TESTS)
    alternative = check_choice("alternative", alternative, ALTERNATIVES)
    n_resamples = check_int("n_resamples", n_resamples, 1)
    confidence = check_confidence(confidence)
    seed = check_int("seed", seed, 0)
    ca = check_counts(a, stat, f"system {names[0]}")
    cb = check_counts(b, stat, f"system {names[1]}")
    if ca.shape != cb.shape:
        raise InputError(
            f"system {names[0]} has {ca.shape[0]} items but {names[1]} has {cb.shape[0]}; they are paired by position"
        )
    n = ca.shape[0]
    score_a, score_b = float(stat(ca.sum(axis=0), n)), float(stat(cb.sum(axis=0), n))
    observed = score_a - score_b
    low, high, distribution = bootstrap_differences(ca, cb, stat, n_resamples, confidence, seed)
    exact = False
    if test == "permutation":
        p_value, exact = permutation_p(ca, cb, stat, n_resamples, alternative, seed)
    else:
        p_value = bootstrap_p(distribution, observed, alternative)
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
    stat = as_statistic(statistic)
    names = list(counts)
    if len(names) < 2:
        raise InputError(f"a comparison needs at least two systems, got {len(names)}")
    n_resamples = check_int("n_resamples", n_resamples, 1)
    confidence = check_confidence(confidence)
    arrays = {name: check_counts(counts[name], stat, f"system {name}") for name in names}
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
        low, high = resample_system(arrays[name], [stat], n_resamples, confidence, seed)
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
    return replace(t, p_holm=p)


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
    score = check_choice("score", score, SCORES)
    statistic = check_choice("statistic", statistic, STATISTICS)
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

    fine = fine_grained or score in MEASURES
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
        for p in parts_of(next(iter(results.values())))
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

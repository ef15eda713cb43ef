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
* **bootstrap** (paired): items are drawn with replacement, the same items
  for both systems (:mod:`amreval.scores.bootstrap`: the resamples of
  :func:`scipy.stats.bootstrap` with ``paired=True``). The p-value
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
and :func:`compare_against`, the metrics' flat outputs of a paired test of
every part two results hold. The per-item counts of a result's parts are in
:mod:`amreval.scores.result_parts`, the corpus scores in
:mod:`amreval.scores.corpus_statistics`, the resampling in
:mod:`amreval.scores.bootstrap` and :mod:`amreval.scores.paired_tests`, and
the results in :mod:`amreval.scores.comparison_results`. MFβ's counts and
its comparisons are in :mod:`amreval.mfbeta.counts`.

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

import numpy.typing as npt

from amreval.errors import InputError, UsageError
from amreval.scores.bootstrap import bootstrap_statistics, check_counts
from amreval.scores.checks import check_choice, check_confidence, check_int
from amreval.scores.comparison_results import Comparison, PairedTest
from amreval.scores.corpus_statistics import STATISTICS, Statistic, as_statistic, prf_statistic
from amreval.scores.finegrained import MEASURES
from amreval.scores.paired_tests import (
    ALTERNATIVES,
    DEFAULT_RESAMPLES,
    TESTS,
    bootstrap_differences,
    bootstrap_p,
    holm,
    permutation_p,
)
from amreval.scores.result_parts import COREF_PARTS, part_counts, parts_of
from amreval.scores.text import plural

__all__ = [
    "SCORES",
    "ASPECT_SCORES",
    "paired_test",
    "compare_counts",
    "compare_systems",
    "compare_against",
    "named_systems",
]

#: SMATCH++'s aspect scores (:mod:`amreval.scores.aspects`), by their alignment.
ASPECT_SCORES = ("aspects-onealign", "aspects-multialign")
#: Every score :func:`compare_systems` compares: Smatch, S²match, DocSmatch, its coreference
#: parts, the fine-grained scores and SMATCH++'s aspects (MFβ and its parts:
#: :func:`amreval.mfbeta.counts.compare_mfbeta_systems`).
SCORES = ("smatch", "s2match", "docsmatch", *COREF_PARTS, *MEASURES, *ASPECT_SCORES)
# MFβ's scores, compared where MFβ's parts are scored
_MFBETA_SCORES = ("mfbeta", "meaning", "form")


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
        statistic: ``f1``, ``precision``, ``recall`` or a :class:`~amreval.scores.corpus_statistics.Statistic`
            (e.g. :func:`~amreval.mfbeta.counts.mfbeta_statistic`).
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
            f"system {names[0]} has {plural(ca.shape[0], 'item')} but {names[1]} has {cb.shape[0]}; they "
            "are paired by position"
        )
    n = ca.shape[0]
    score_a, score_b = _corpus_score(stat, ca), _corpus_score(stat, cb)
    if score_a is None or score_b is None:  # nothing to score on a side: nothing to test
        return PairedTest(
            a=names[0],
            b=names[1],
            score=score or stat.name,
            statistic=stat.name,
            score_a=score_a,
            score_b=score_b,
            difference=None,
            ci_low=None,
            ci_high=None,
            p_value=None,
            test=test,
            alternative=alternative,
            n_resamples=n_resamples,
            confidence=confidence,
            seed=seed,
            n_items=n,
        )
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


def _corpus_score(stat: Statistic, counts: Any) -> float | None:
    """The corpus score of per-item ``counts``, None where it is undefined (nothing to score)."""
    sums = counts.sum(axis=0)
    return None if bool(stat.is_undefined(sums)) else float(stat(sums, counts.shape[0]))


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
                f"system {names[0]} has {plural(n, 'item')} but {name} has {arrays[name].shape[0]}; they "
                "are paired by position"
            )
    labels = [str(k + 1) for k in range(n)] if ids is None else [str(x) for x in ids]
    if len(labels) != n:
        raise InputError(f"{len(labels)} item ids for {plural(n, 'item')}")
    kw: dict[str, Any] = dict(
        test=test, n_resamples=n_resamples, seed=seed, alternative=alternative, confidence=confidence
    )
    tests = [
        paired_test(arrays[a], arrays[b], statistic=stat, names=(a, b), score=score or stat.name, **kw)
        for i, a in enumerate(names)
        for b in names[i + 1 :]
    ]
    if len(names) > 2:
        tested = [k for k, t in enumerate(tests) if t.p_value is not None]
        adjusted = holm([float(tests[k].p_value) for k in tested])  # type: ignore[arg-type]
        for k, p in zip(tested, adjusted):
            tests[k] = _with_holm(tests[k], p)
    intervals: dict[str, tuple[float | None, float | None]] = {}
    scores = {name: _corpus_score(stat, arrays[name]) for name in names}
    for name in names:
        if scores[name] is None:
            intervals[name] = (None, None)
            continue
        low, high = bootstrap_statistics(arrays[name], [stat], n_resamples, confidence, seed)
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
        item_scores={name: stat.defined(arrays[name], 1) for name in names},
        scores=scores,
        intervals=intervals,
        tests=tests,
        breakdown=breakdown,
        config=config,
    )


def _with_holm(t: PairedTest, p: float) -> PairedTest:
    return replace(t, p_holm=p)


def item_ids(graphs: Sequence[Any]) -> list[str]:
    """One label per item: its graph's ``::id``, else its position from 1."""
    return [(getattr(g, "id", None) or str(k + 1)) for k, g in enumerate(graphs)]


def named_systems(
    systems: Mapping[str, Sequence[Any]] | Sequence[Sequence[Any]], references: Sequence[Any]
) -> dict[str, list[Any]]:
    """The systems by name (a list of prediction lists is named ``A``, ``B``, ...), checked against the references.

    Raises:
        InputError: fewer than two systems, or a system whose length is not the references'.
    """
    if isinstance(systems, Mapping):
        named = {str(k): list(v) for k, v in systems.items()}
    else:
        named = {system_letter(k): list(v) for k, v in enumerate(systems)}
    if len(named) < 2:
        raise InputError(f"a comparison needs at least two systems, got {len(named)}")
    for name, preds in named.items():
        if len(preds) != len(references):
            raise InputError(
                f"system {name} has {plural(len(preds), 'item')} but there are {plural(len(references), 'reference')}"
            )
    return named


def system_letter(k: int) -> str:
    """The name of the ``k``-th unnamed system: ``A`` to ``Z``, then ``S27``, ``S28``, ..."""
    return chr(ord("A") + k) if k < 26 else f"S{k + 1}"


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
    vectors: Any = None,
    cutoff: float | None = None,
    diffsense: float | None = None,
    num_workers: int = 1,
    progress: bool | None = None,
    standardize: str = "smatch",
    frames: Any = None,
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
            ``noncoref``), or a fine-grained score (``srl``, ``concepts``, ...;
            DocSmatch's, which on sentence graphs is Smatch's), or SMATCH++'s aspect
            scores (``aspects-onealign``, ``aspects-multialign``: the whole graphs' score
            under ``standardize``, ``smatchpp-amr`` if it is ``smatch``, and a test per aspect
            in the breakdown). MFβ and its parts are compared by
            :func:`amreval.mfbeta.counts.compare_mfbeta_systems`.
        statistic: ``f1``, ``precision`` or ``recall``.
        fine_grained: with a DocSmatch score, add the fine-grained scores to the breakdown.
        vectors, cutoff, diffsense: S²match settings.
        num_workers: processes for DocSmatch scores.
        standardize: Smatch's reading of the triples (:data:`~amreval.match.standard.STANDARDIZATIONS`;
            default ``smatch``); the other scores read them only as ``smatch`` does.
        frames: with an aspect score, SMATCH++'s PropBank frame description file (or its table or
            rules, :func:`amreval.scores.aspects.read_frames`) whose descriptions rename core roles.
        search: ``solver``, ``restarts``, ``time_limit``, ``work_limit`` of the alignment
            search; its seed is ``seed``.
        test, n_resamples, seed, alternative, confidence: as in :func:`paired_test`.

    Raises:
        InputError: an unknown score, fewer than two systems, lengths that
            differ, a bad setting, or ``frames`` with another score than an aspect score.
    """
    if score in _MFBETA_SCORES:
        raise InputError(f"{score} is an MFβ score: compare it with amreval.mfbeta.counts.compare_mfbeta_systems")
    score = check_choice("score", score, SCORES)
    if standardize != "smatch" and score not in ("smatch", *ASPECT_SCORES):
        raise UsageError(f"standardize={standardize!r}: only the smatch score reads triples another way; got {score}")
    if frames is not None and score not in ASPECT_SCORES:
        raise UsageError(
            f"frames: the frames rename roles for the aspect scores ({', '.join(ASPECT_SCORES)}); got {score}"
        )
    statistic = check_choice("statistic", statistic, STATISTICS)
    refs = list(references)
    named = named_systems(systems, refs)
    search = {**search, "seed": seed}
    kw: dict[str, Any] = dict(
        test=test, n_resamples=n_resamples, seed=seed, alternative=alternative, confidence=confidence
    )
    if score in ("smatch", "s2match"):
        from amreval.amr.read import as_graph

        golds = [as_graph(r, "reference", k) for k, r in enumerate(refs)]
        results = {}
        for name, preds in named.items():
            if score == "smatch":
                from amreval.scores.smatch import smatch

                results[name] = smatch(preds, golds, progress=progress, standardize=standardize, **search)
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
            ids=item_ids(golds),
            score=score,
            config=first.config.as_string(),
            **kw,
        )
    if score in ASPECT_SCORES:
        return _compare_aspects(named, refs, score, statistic, standardize, search, kw, frames)
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
        ids=item_ids(golds),
        parts=parts,
        score=score,
        config=first.config.as_string(),
        **kw,
    )


def _compare_aspects(
    named: Mapping[str, Sequence[Any]],
    refs: Sequence[Any],
    score: str,
    statistic: str,
    standardize: str,
    search: Mapping[str, Any],
    kw: Mapping[str, Any],
    frames: Any = None,
) -> Comparison:
    """:func:`compare_systems` of SMATCH++'s aspect scores: the whole graphs, and each aspect in the breakdown."""
    import numpy as np

    from amreval.amr.read import as_graph
    from amreval.scores.aspects import ASPECTS, aspect_scores
    from amreval.scores.doc_aspects import aspect_rules

    golds = [as_graph(r, "reference", k) for k, r in enumerate(refs)]
    reading = "smatchpp-amr" if standardize == "smatch" else standardize
    alignment = score.split("-", 1)[1]
    rules = aspect_rules(frames)  # read once for every system
    results = {
        name: aspect_scores(preds, golds, alignment=alignment, standardize=reading, frames=rules, **search)
        for name, preds in named.items()
    }
    stat = prf_statistic(statistic)
    parts = {
        aspect: (
            stat,
            {name: np.array([p.counts[aspect] for p in r.pairs], dtype=float) for name, r in results.items()},
        )
        for aspect in ASPECTS
    }
    return compare_counts(
        {name: np.array([p.main for p in r.pairs], dtype=float) for name, r in results.items()},
        statistic=stat,
        ids=item_ids(golds),
        parts=parts,
        score=score,
        config=f"{score},standardize={reading}" + (",frames=True" if rules else ""),
        **kw,
    )


def compare_against(
    a: Mapping[str, tuple[Statistic, npt.ArrayLike]],
    b: Mapping[str, tuple[Statistic, npt.ArrayLike]],
    *,
    test: str = "permutation",
    n_resamples: int = DEFAULT_RESAMPLES,
    seed: int = 0,
    alternative: str = "two-sided",
    confidence: float = 0.95,
) -> dict[str, float | None]:
    """The metrics' flat outputs of a paired test of system ``a`` against ``b``, for every part both hold.

    ``a`` and ``b`` map each part's output key to its statistic and per-item
    counts: :func:`~amreval.scores.result_parts.result_parts` of a Smatch,
    S²match or DocSmatch result, :func:`~amreval.mfbeta.counts.mfbeta_item_parts`
    of MFβ's items. Each part's test (:func:`paired_test`, with ``a``'s
    statistic) gives ``compare_<key>`` (the second system's score),
    ``<key>_difference`` (first minus second), its interval
    ``<key>_difference_ci_low`` and ``<key>_difference_ci_high``, and ``<key>_p_value``; each None
    where a system's score is undefined (nothing to score, :func:`~amreval.scores.f1.undefined`).

    Example:
        >>> from amreval.scores.corpus_statistics import prf_statistic
        >>> f1 = prf_statistic("f1")
        >>> out = compare_against({"f1": (f1, [[3, 4, 4], [5, 5, 6]])}, {"f1": (f1, [[2, 4, 4], [5, 6, 6]])})
        >>> round(out["compare_f1"], 4), round(out["f1_difference"], 4), out["f1_p_value"]  # 16/19 - 14/20
        (0.7, 0.1421, 0.5)
    """
    kw: dict[str, Any] = dict(
        test=test, n_resamples=n_resamples, seed=seed, alternative=alternative, confidence=confidence
    )
    out: dict[str, float | None] = {}
    for key, (stat, counts_a) in a.items():
        if key not in b:
            continue
        t = paired_test(counts_a, b[key][1], statistic=stat, score=key, **kw)
        out[f"compare_{key}"] = t.score_b
        out[f"{key}_difference"] = t.difference
        out[f"{key}_difference_ci_low"] = t.ci_low
        out[f"{key}_difference_ci_high"] = t.ci_high
        out[f"{key}_p_value"] = t.p_value
    return out

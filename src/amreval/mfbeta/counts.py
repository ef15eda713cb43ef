"""MFβ's per-item counts ``(match, test, gold, acceptable)``, its statistic, intervals and comparisons.

MFβ (:mod:`amreval.mfbeta.score`) is a corpus score of summed counts like the
others: Meaning is S²match of each parse of a generated sentence against its
gold AMR, Form the number of acceptable sentences.
:func:`mfbeta_statistic` is MFβ, Meaning or Form of summed counts;
:func:`mfbeta_items` makes the counts from precomputed parts,
:func:`mfbeta_parts` checks them against an :class:`~amreval.mfbeta.score.MFResult`,
:func:`bootstrap_mfbeta` gives the intervals of MFβ, Meaning and Form (the
bootstrap of :mod:`amreval.scores.bootstrap`), :func:`mfbeta_item_parts` the
parts :func:`~amreval.scores.compare.compare_against` tests, and
:func:`compare_mfbeta_systems` compares systems as
:func:`~amreval.scores.compare.compare_systems` does the other scores.

Example:
    >>> s = mfbeta_statistic(2.0)
    >>> round(float(s([6.5, 7, 11, 1], 2)), 4)      # M = 13/18, F = 1/2: 5 M F / (4 M + F)
    0.5328
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from amreval.errors import InputError
from amreval.match.options import SearchOptions
from amreval.mfbeta.combine import mf_beta
from amreval.mfbeta.dimensions import dimension_parts
from amreval.mfbeta.form import DEFAULT_TOLERANCE, acceptable
from amreval.mfbeta.graphs import given_parses, gold_graphs
from amreval.scores.bootstrap import bootstrap_statistics, check_counts
from amreval.scores.checks import check_choice, check_confidence, check_int
from amreval.scores.compare import compare_counts, named_systems, system_letter
from amreval.scores.comparison_results import Comparison
from amreval.scores.corpus_statistics import PRF_COLUMNS, STATISTICS, Statistic, prf_statistic, prf_values
from amreval.scores.paired_tests import DEFAULT_RESAMPLES
from amreval.scores.results import Config
from amreval.scores.s2match import DEFAULT_CUTOFF, DEFAULT_DIFFSENSE, s2match

__all__ = [
    "MF_PARTS",
    "MF_COLUMNS",
    "mfbeta_statistic",
    "mfbeta_items",
    "check_mfbeta_parts",
    "mfbeta_parts",
    "mf_statistics",
    "mfbeta_item_parts",
    "bootstrap_mfbeta",
    "compare_mfbeta_systems",
]

#: MFβ and its two parts.
MF_PARTS = ("mfbeta", "meaning", "form")
MF_COLUMNS = ("match", "test", "gold", "acceptable")
# the search settings among a comparison's keywords (SearchOptions' fields)
_SEARCH_FIELDS = ("solver", "restarts", "seed", "time_limit", "work_limit")


def mfbeta_statistic(beta: float = 1.0, part: str = "mfbeta", which: str = "f1") -> Statistic:
    """MFβ, Meaning or Form of summed ``(match, test, gold, acceptable)`` counts.

    Meaning is S²match of the summed counts (``which``: its F1, precision or
    recall), Form the share of acceptable items, MFβ their weighted harmonic mean.

    Raises:
        InputError: ``beta`` is not positive, or an unknown part or statistic.
    """
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
        meaning = prf_values(sums, which if part == "meaning" else "f1")
        if part == "meaning":
            return meaning
        denominator = b2 * meaning + form
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(denominator > 0, (1 + b2) * meaning * form / denominator, 0.0)

    name = part if part != "meaning" or which == "f1" else f"meaning_{which}"
    return Statistic(name, MF_COLUMNS, function)


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
        search: ``solver``, ``restarts``, ``seed``, ``time_limit``, ``work_limit``, ``progress``.
    """

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
    preds, _ = given_parses(prediction_amrs, [""] * n, blank_fails=False)
    golds = gold_graphs(reference_amrs, n)
    result = s2match(
        preds,
        golds,
        vectors=vectors,
        cutoff=DEFAULT_CUTOFF if cutoff is None else cutoff,
        diffsense=DEFAULT_DIFFSENSE if diffsense is None else diffsense,
        **search,
    )
    meaning = np.asarray([(p.match, p.test, p.gold) for p in result.pairs], dtype=np.float64)
    meaning = meaning.reshape(len(result.pairs), 3)
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

    Meaning's counts are the result's own (``meaning_items``); for a result
    without them they are scored again from the parses the result was made
    from (precomputed ``prediction_amrs`` against ``reference_amrs``, with the
    S²match settings among ``options``, MFβ's keywords). Form's flags are the result's.

    Raises:
        InputError: the parses or the gold AMRs are missing (MFβ's items
            need both), or the counts do not add up to the result's.
    """
    check_mfbeta_parts(prediction_amrs, reference_amrs)
    assert prediction_amrs is not None and reference_amrs is not None
    flags = np.asarray([bool(x) for x in result.acceptable], dtype=np.float64)
    kept = getattr(result, "meaning_items", None)
    if kept and len(kept) == len(flags):  # the result's own per-item counts: nothing is scored again
        return np.column_stack([np.asarray(kept, dtype=np.float64).reshape(len(kept), 3), flags])
    options = options or {}
    keys = ("vectors", "cutoff", "diffsense", "solver", "restarts", "seed", "time_limit", "work_limit")
    items = mfbeta_items(
        prediction_amrs,
        reference_amrs,
        [bool(x) for x in result.acceptable],
        **{k: options[k] for k in keys if k in options},
    )
    if not np.allclose(items[:, :3].sum(axis=0), result.meaning_counts, rtol=1e-9, atol=1e-9):
        raise InputError("the parses given do not give the result's Meaning counts")
    return items


def mf_statistics(beta: float) -> list[tuple[str, Statistic]]:
    """MFβ, Meaning and Form, each with the name of its outputs (``mf_beta``, ``meaning``, ``form``)."""
    return [
        ("mf_beta", mfbeta_statistic(beta, "mfbeta")),
        ("meaning", mfbeta_statistic(beta, "meaning")),
        ("form", mfbeta_statistic(beta, "form")),
    ]


def mfbeta_item_parts(items: npt.ArrayLike, beta: float = 1.0) -> dict[str, tuple[Statistic, npt.ArrayLike]]:
    """MFβ, Meaning and Form of per-item ``(match, test, gold, acceptable)``, as output key
    (``mf_beta``, ``meaning``, ``form``) → ``(statistic, items)``: what
    :func:`~amreval.scores.compare.compare_against` compares."""
    return {name: (stat, items) for name, stat in mf_statistics(beta)}


def bootstrap_mfbeta(
    items: npt.ArrayLike, *, beta: float = 1.0, n_resamples: int = 1000, confidence: float = 0.95, seed: int = 0
) -> dict[str, float]:
    """Bootstrap intervals of MFβ, Meaning and Form from per-item ``(match, test, gold, acceptable)``,
    items resampled once for all three: ``mf_beta_ci_low``, ``mf_beta_ci_high``, ``meaning_ci_low``, ...
    """
    named = mf_statistics(beta)
    counts = check_counts(items, named[0][1], "items")
    low, high = bootstrap_statistics(
        counts, [s for _, s in named], check_int("n_resamples", n_resamples, 1), check_confidence(confidence), seed
    )
    out: dict[str, float] = {}
    for (name, _), lo, hi in zip(named, low, high):
        out[f"{name}_ci_low"], out[f"{name}_ci_high"] = float(lo), float(hi)
    return out


def compare_mfbeta_systems(
    systems: Mapping[str, Sequence[Any]] | Sequence[Sequence[Any]],
    references: Sequence[Any],
    *,
    form: Mapping[str, Sequence[float] | Sequence[bool]] | Sequence[Sequence[float] | Sequence[bool]] | None,
    score: str = "mfbeta",
    statistic: str = "f1",
    test: str = "permutation",
    n_resamples: int = DEFAULT_RESAMPLES,
    seed: int = 0,
    alternative: str = "two-sided",
    confidence: float = 0.95,
    beta: float = 1.0,
    tolerance: float | None = None,
    vectors: Any = None,
    cutoff: float | None = None,
    diffsense: float | None = None,
    progress: bool | None = None,
    dimensions: str | None = None,
    **search: Any,
) -> Comparison:
    """Compare systems by MFβ, Meaning or Form from precomputed parts, as
    :func:`~amreval.scores.compare.compare_systems` compares the other scores.

    Args:
        systems: name → the parses of the system's generated sentences (or a
            list of them, named ``A``, ``B``, ...), paired with ``references`` by position.
        references: the gold AMRs.
        form: each system's preference scores or acceptability flags (by name, or in the systems' order);
            None with ``score="meaning"``: Meaning alone (S²match needs no Form), the breakdown without Form
            and MFβ.
        score: ``mfbeta``, ``meaning`` or ``form``; the breakdown tests all three.
        statistic: ``f1``, ``precision`` or ``recall`` (of Meaning; MFβ and Form are F1 only).
        beta, tolerance: MFβ's β and Form's tolerance.
        vectors, cutoff, diffsense: S²match settings.
        dimensions: ``s2align`` or ``smatch``: the breakdown also tests ``meaning_<measure>`` and
            ``mfbeta_<measure>`` for each fine-grained measure (:mod:`amreval.mfbeta.dimensions`).
        search: ``solver``, ``restarts``, ``time_limit``, ``work_limit`` of the alignment search; its seed is ``seed``.
        test, n_resamples, seed, alternative, confidence: as in :func:`~amreval.scores.compare.paired_test`.

    Raises:
        InputError: an unknown score, fewer than two systems, lengths that
            differ, no Form or Form of other systems, or a bad setting.
    """
    score = check_choice("score", score, MF_PARTS)
    statistic = check_choice("statistic", statistic, STATISTICS)
    refs = list(references)
    named = named_systems(systems, refs)
    search = {**search, "seed": seed}
    # Meaning is S²match of the parses: it needs no Form (and no language model to make one)
    meaning_only = form is None and score == "meaning"
    if form is None and not meaning_only:
        raise InputError(
            "MFβ needs each system's Form: pass form= (preference scores or acceptability flags); "
            "Meaning alone (score='meaning') needs none"
        )
    if form is None:
        forms: dict[str, Any] = {name: [False] * len(refs) for name in named}  # a column that is cut off below
    else:
        forms = dict(form) if isinstance(form, Mapping) else {system_letter(k): f for k, f in enumerate(form)}
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
    parts: dict[str, Any] = {p: (mfbeta_statistic(beta, p), items) for p in MF_PARTS}
    if dimensions is not None:
        flags = {name: items[name][:, 3].astype(bool).tolist() for name in items}
        s2 = dict(vectors=vectors, cutoff=cutoff, diffsense=diffsense, progress=progress)
        parts.update(dimension_parts(named, refs, flags, dimensions=dimensions, beta=beta, **s2, **search))
    main = mfbeta_statistic(beta, score, statistic if score == "meaning" else "f1")
    if meaning_only:
        # Meaning's counts alone: no Form column, and neither Form nor MFβ in the breakdown
        items = {name: counts[:, :3] for name, counts in items.items()}
        main = Statistic(main.name, PRF_COLUMNS, prf_statistic(statistic).function)
        meaning_f1 = prf_statistic("f1").function  # Meaning (of a measure, too): S²match's F1 of the counts
        parts = {
            key: (Statistic(s.name, PRF_COLUMNS, meaning_f1), {n: c[:, :3] for n, c in counts.items()})
            for key, (s, counts) in parts.items()
            if key == "meaning" or key.startswith("meaning_")
        }
    ids = [str(k + 1) for k in range(len(refs))]
    for k, g in enumerate(refs):
        gid = getattr(g, "id", None)
        if gid:
            ids[k] = gid
    return compare_counts(
        items,
        statistic=main,
        ids=ids,
        parts=parts,
        score=score,
        config=Config(
            "mfbeta",
            SearchOptions(**{k: v for k, v in search.items() if k in _SEARCH_FIELDS}),
            (("beta", beta), ("tolerance", DEFAULT_TOLERANCE if tolerance is None else tolerance)),
        ).as_string(),
        test=test,
        n_resamples=n_resamples,
        seed=seed,
        alternative=alternative,
        confidence=confidence,
    )

"""MFβ's per-item counts: ``(match, test, gold, acceptable)`` per sentence, and their intervals.

MFβ (:mod:`amreval.mfbeta`) is a corpus score of summed counts like the
others: Meaning is S²match of each parse of a generated sentence against its
gold AMR, Form the number of acceptable sentences. :func:`mfbeta_items` makes
those counts from precomputed parts, :func:`mfbeta_parts` checks them against
an :class:`~amreval.mfbeta.score.MFResult`, and :func:`bootstrap_mfbeta`
gives the intervals of MFβ, Meaning and Form.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from amreval.errors import InputError
from amreval.scores.harness import check_confidence
from amreval.scores.resample import check_counts, check_int, resample_system
from amreval.scores.statistic import Statistic, mfbeta_statistic

__all__ = ["mfbeta_items", "check_mfbeta_parts", "mfbeta_parts", "mf_statistics", "bootstrap_mfbeta"]


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

    from amreval.mfbeta.form import DEFAULT_TOLERANCE, acceptable
    from amreval.mfbeta.score import given_parses, gold_graphs
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


def mf_statistics(beta: float) -> list[tuple[str, Statistic]]:
    """MFβ, Meaning and Form, each with the name of its outputs (``mf_beta``, ``meaning``, ``form``)."""
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
    named = mf_statistics(beta)
    counts = check_counts(items, named[0][1], "items")
    low, high = resample_system(
        counts, [s for _, s in named], check_int("n_resamples", n_resamples, 1), check_confidence(confidence), seed
    )
    out: dict[str, float] = {}
    for (name, _), lo, hi in zip(named, low, high):
        out[f"{name}_ci_low"], out[f"{name}_ci_high"] = float(lo), float(hi)
    return out

"""The Form score of MFβ (Opitz & Frank 2021): is a generated sentence as fluent as its reference?

A language model gives every sentence a score (:mod:`amreval.mfbeta.lm`): a
causal LM the mean probability of its tokens (``mtp``), a masked LM the mean
pseudo-likelihood probability. The preference for the generated sentence
``s'`` over the reference ``s`` is ``prefScore = mtp(s') / (mtp(s') + mtp(s))``
(0.5 when both are 0). The pair is acceptable when ``prefScore >= 0.5 -
tolerance`` (default tolerance 0.05), and Form is the share of acceptable
pairs.

An empty (or blank) generated sentence is scored, not refused: it is not sent
to the language model, its score is 0, so its prefScore is 0 and it is never
acceptable (the authors' scripts score the empty line too, and it is not
preferred). A reference sentence must not be empty.

The scorer, its batching, devices, dtypes and the reuse of scores live in
:mod:`amreval.mfbeta.lm`; its names are importable from here too.

Example:
    >>> pref_scores([0.375, 0.125, 0.0], [0.125, 0.375, 0.0]).tolist()
    [0.75, 0.25, 0.5]
    >>> result = form_from_scores([0.375, 0.125, 0.45], [0.125, 0.375, 0.55])
    >>> result.acceptable, result.form
    ([True, False, True], 0.6666666666666666)
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from amreval.errors import InputError, numbered
from amreval.mfbeta.cache import CacheLike
from amreval.mfbeta.lm import (
    DEFAULT_KIND,
    DEFAULT_MAX_TOKENS,
    DEFAULT_MODEL,
    KINDS,
    LanguageModelScorer,
    SentenceScorer,
    check_sentences,
    clear_cache,
    get_scorer,
)
from amreval.scores.text import plural

__all__ = [
    "DEFAULT_KIND",
    "DEFAULT_MAX_TOKENS",
    "DEFAULT_MODEL",
    "DEFAULT_TOLERANCE",
    "KINDS",
    "FormResult",
    "LanguageModelScorer",
    "SentenceScorer",
    "acceptable",
    "check_sentences",
    "clear_cache",
    "form_from_scores",
    "form_score",
    "get_scorer",
    "pref_scores",
]

#: How far below 0.5 a preference score may fall and still be acceptable.
DEFAULT_TOLERANCE = 0.05


def _as_scores(values: npt.ArrayLike, label: str) -> np.ndarray:
    arr = np.asarray(values, dtype=np.float64)
    if arr.ndim != 1:
        raise InputError(f"{label}: expected a 1-D list of scores, got shape {arr.shape}")
    bad = np.flatnonzero(~np.isfinite(arr) | (arr < 0))
    if bad.size:
        raise InputError(f"{numbered(label, int(bad[0]))}: scores must be finite and >= 0, got {arr[bad[0]]}")
    return arr


def pref_scores(generated_scores: npt.ArrayLike, reference_scores: npt.ArrayLike) -> np.ndarray:
    """Preference for each generated sentence over its reference: ``g / (g + r)``.

    Args:
        generated_scores: language model scores (``mtp``) of the generated sentences.
        reference_scores: those of the references, paired by position.

    Returns:
        A float64 array in [0, 1]; 0.5 where both scores are 0 (no preference).

    Raises:
        InputError: the lists differ in length, are not 1-D, or hold a
            negative or non-finite score.

    Example:
        >>> pref_scores([0.2, 0.0], [0.6, 0.0]).tolist()
        [0.25, 0.5]
    """
    g = _as_scores(generated_scores, "generated")
    r = _as_scores(reference_scores, "reference")
    if g.shape != r.shape:
        raise InputError(f"{g.size} generated scores but {r.size} reference scores; they are paired by position")
    total = g + r
    out = np.full(g.shape, 0.5)
    np.divide(g, total, out=out, where=total > 0)
    return out


def check_tolerance(tolerance: float) -> float:
    if not 0.0 <= tolerance <= 0.5:
        raise InputError(f"tolerance must be in [0, 0.5], got {tolerance}")
    return float(tolerance)


def acceptable(preferences: npt.ArrayLike, tolerance: float = DEFAULT_TOLERANCE) -> np.ndarray:
    """Which preference scores are acceptable: ``prefScore >= 0.5 - tolerance``.

    Args:
        preferences: preference scores (see :func:`pref_scores`).
        tolerance: in [0, 0.5]; 0 accepts only sentences at least as likely as their reference.

    Returns:
        A boolean array.

    Raises:
        InputError: the tolerance is outside [0, 0.5].

    Example:
        >>> acceptable([0.5, 0.45, 0.4499], tolerance=0.05).tolist()
        [True, True, False]
    """
    return np.asarray(preferences, dtype=np.float64) >= 0.5 - check_tolerance(tolerance)


@dataclass
class FormResult:
    """The Form score of a corpus and its parts.

    Attributes:
        form: the share of acceptable sentences, in [0, 1].
        pref_scores: per pair, the preference for the generated sentence.
        acceptable: per pair, whether ``pref_score >= 0.5 - tolerance``.
        generated_mtp: per pair, the language model score of the generated sentence.
        reference_mtp: per pair, that of the reference.
    """

    form: float
    pref_scores: list[float]
    acceptable: list[bool]
    generated_mtp: list[float]
    reference_mtp: list[float]


def form_from_scores(
    generated_scores: npt.ArrayLike,
    reference_scores: npt.ArrayLike,
    tolerance: float = DEFAULT_TOLERANCE,
) -> FormResult:
    """Form from language model scores computed beforehand.

    Args:
        generated_scores: scores (``mtp``) of the generated sentences.
        reference_scores: scores of the references, paired by position.
        tolerance: how far below 0.5 a preference may fall and still be acceptable.

    Returns:
        A :class:`FormResult`.

    Raises:
        InputError: the lists differ in length or are empty, a score is
            negative or not finite, or the tolerance is outside [0, 0.5].

    Example:
        >>> form_from_scores([0.2, 0.1], [0.1, 0.2]).form
        0.5
    """
    tol = check_tolerance(tolerance)
    prefs = pref_scores(generated_scores, reference_scores)
    if prefs.size == 0:
        raise InputError("nothing to score: generated and reference sentences are empty")
    ok = acceptable(prefs, tol)
    return FormResult(
        form=float(ok.mean()),
        pref_scores=prefs.tolist(),
        acceptable=ok.tolist(),
        generated_mtp=np.asarray(generated_scores, dtype=np.float64).tolist(),
        reference_mtp=np.asarray(reference_scores, dtype=np.float64).tolist(),
    )


def form_score(
    generated: Sequence[str],
    references: Sequence[str],
    *,
    scorer: LanguageModelScorer | SentenceScorer | None = None,
    model: str | os.PathLike[str] = DEFAULT_MODEL,
    kind: str = DEFAULT_KIND,
    tolerance: float = DEFAULT_TOLERANCE,
    batch_size: int | None = None,
    device: str | None = None,
    dtype: Any = None,
    max_tokens: int | None = None,
    cache: CacheLike = "memory",
    progress: bool | None = None,
) -> FormResult:
    """The Form score of generated sentences against reference sentences.

    Both lists are scored in one pass of the language model, then compared
    pair by pair (see the module documentation).

    Args:
        generated: the generated sentences; an empty one scores 0 (prefScore
            0, never acceptable) without reaching the language model.
        references: the reference sentences, paired by position.
        scorer: the scorer to use; when given, ``model``, ``kind``,
            ``batch_size``, ``device``, ``dtype``, ``max_tokens`` and ``cache``
            are ignored. Any object with a
            ``sentence_scores(sentences, *, progress=None)`` method works.
        model: a Hugging Face model name or local folder (default ``"gpt2"``),
            loaded through :func:`get_scorer`.
        kind: ``"causal"`` or ``"masked"``.
        tolerance: how far below 0.5 a preference may fall and still be acceptable.
        batch_size, device, dtype, max_tokens, cache: as in
            :class:`~amreval.mfbeta.lm.LanguageModelScorer`.
        progress: show a progress bar (default: only on a terminal).

    Returns:
        A :class:`FormResult`.

    Raises:
        InputError: the lists differ in length or are empty, a reference is
            blank, a sentence is not a string (named by list and position counted from 1,
            e.g. ``reference #3: empty sentence`` for ``references[2]``), or the tolerance
            is outside [0, 0.5].
        MissingDependencyError: no scorer was given and torch or transformers
            is not installed.
    """
    gen = check_sentences(generated, "generated", allow_empty=True)
    ref = check_sentences(references, "reference")
    if len(gen) != len(ref):
        raise InputError(
            f"{len(gen)} generated sentences but {plural(len(ref), 'reference')}; they are paired by position"
        )
    if not gen:
        raise InputError("nothing to score: generated and reference sentences are empty")
    tol = check_tolerance(tolerance)
    if scorer is None:
        scorer = get_scorer(model, kind, device, batch_size, dtype=dtype, max_tokens=max_tokens, cache=cache)
    kept = [k for k, s in enumerate(gen) if s.strip()]
    to_score = [gen[k] for k in kept] + ref
    m = len(kept)
    if isinstance(scorer, LanguageModelScorer):
        scores = scorer.scores(
            to_score, lambda k: numbered("generated", kept[k]) if k < m else numbered("reference", k - m), progress
        )
    else:
        scores = np.asarray(scorer.sentence_scores(to_score, progress=progress), dtype=np.float64)
    if scores.shape != (len(to_score),):
        raise InputError(f"the scorer returned {scores.shape} scores for {plural(len(to_score), 'sentence')}")
    unscorable = np.flatnonzero(np.isnan(scores[m:]))
    if unscorable.size:
        raise InputError(f"{numbered('reference', int(unscorable[0]))}: no tokens to score")
    generated_scores = np.zeros(len(gen), dtype=np.float64)  # an empty sentence scores 0
    generated_scores[kept] = np.nan_to_num(scores[:m], nan=0.0)  # so does one with nothing to score
    return form_from_scores(generated_scores, scores[m:], tol)

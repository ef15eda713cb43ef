"""MFβ's one formula: Meaning and Form combined by their weighted harmonic mean.

It lives apart from the scoring so that every part of MFβ that combines a Meaning with a Form (the corpus
score, each fine-grained dimension, the document level, the counts behind intervals and tests) imports it
from one place that imports nothing of theirs.

Example:
    >>> round(mf_beta(0.8, 0.5, 1.0), 4), round(mf_beta(0.8, 0.5, 2.0), 4), mf_beta(0.0, 0.0, 1.0)
    (0.6154, 0.5405, 0.0)
"""

from __future__ import annotations

from amreval.errors import InputError

__all__ = ["BETAS", "mf_beta"]

#: The β values always reported.
BETAS = (1.0, 0.5, 2.0)


def mf_beta(meaning: float, form: float, beta: float) -> float:
    """The weighted harmonic mean of Meaning and Form (0 when both are 0).

    Raises:
        InputError: ``beta`` is not positive.
    """
    if not (0 < beta < float("inf")):
        raise InputError(f"beta must be a positive finite number, got {beta}")
    b2 = beta * beta
    denominator = b2 * meaning + form
    return 0.0 if denominator == 0 else (1 + b2) * meaning * form / denominator

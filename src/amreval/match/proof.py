"""When a bound proves a score: the one tolerance, and the rules built on it.

Bounds from an LP or integer solver are exact to about 1e-9 relative, and
blocks' bounds add small slacks, so a score within :data:`PROOF_TOLERANCE` of
a bound reaches it. Where every weight is 1 (Smatch) scores are whole numbers,
so a bound proves a score that reaches its whole part, and a mapping better by
less than one match is not better.

Example:
    >>> proves(4.0, 4.5, integral=True), proves(4.0, 4.5, integral=False), whole_bound(6.9999995)
    (True, False, 7.0)
"""

from __future__ import annotations

import numpy as np

__all__ = ["PROOF_TOLERANCE", "FRACTION_GAP", "whole_bound", "proves", "proves_each", "optimality_gap"]

#: A score this close to a bound (or above) reaches it.
PROOF_TOLERANCE = 1e-6
#: How much better a mapping must be to count as better where scores are fractions.
FRACTION_GAP = 1e-7


def whole_bound(bound: float) -> float:
    """The best bound on a count of whole triples: the whole part of a fractional bound."""
    return float(np.floor(bound + PROOF_TOLERANCE))


def proves(score: float, bound: float, *, integral: bool) -> bool:
    """Whether ``bound`` proves ``score`` optimal (``integral``: scores are whole numbers, so the bound's
    whole part is enough)."""
    if integral:
        return bool(score >= np.floor(bound + PROOF_TOLERANCE))
    return bool(score >= bound - PROOF_TOLERANCE)


def proves_each(score: float, bounds: np.ndarray, *, integral: bool, quantum: float = 0.0) -> np.ndarray:
    """For each bound, whether it proves ``score`` optimal: :func:`proves`, or, where every value is a whole
    multiple of ``quantum`` (a weight quantum over ``10 * PROOF_TOLERANCE``; 0: none), no multiple of it
    above ``score`` up to the bound.

    Example:
        >>> proves_each(2.0, np.array([2.2, 2.3]), integral=False, quantum=0.25).tolist()
        [True, False]
    """
    bounds = np.asarray(bounds, dtype=np.float64)
    if integral:
        return np.asarray(score >= np.floor(bounds + PROOF_TOLERANCE))
    if quantum > 10 * PROOF_TOLERANCE:
        return np.asarray(bounds < score + quantum - PROOF_TOLERANCE)
    return np.asarray(score >= bounds - PROOF_TOLERANCE)


def optimality_gap(integral: bool) -> float:
    """How much better a mapping must be to count as better: just under one match where scores are whole
    numbers (``integral``), else :data:`FRACTION_GAP` (the exact search's and the integer program's gap)."""
    return 1.0 - PROOF_TOLERANCE if integral else FRACTION_GAP

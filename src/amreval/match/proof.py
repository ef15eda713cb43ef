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

__all__ = ["PROOF_TOLERANCE", "FRACTION_GAP", "whole_bound", "proves", "optimality_gap"]

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


def optimality_gap(integral: bool) -> float:
    """How much better a mapping must be to count as better: just under one match where scores are whole
    numbers (``integral``), else :data:`FRACTION_GAP` (the exact search's and the integer program's gap)."""
    return 1.0 - PROOF_TOLERANCE if integral else FRACTION_GAP

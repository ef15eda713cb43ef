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

from fractions import Fraction
from math import gcd
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from amreval.match.problem import Problem

__all__ = [
    "PROOF_TOLERANCE",
    "FRACTION_GAP",
    "whole_bound",
    "proves",
    "proves_each",
    "optimality_gap",
    "weight_quantum",
]

#: A score this close to a bound (or above) reaches it.
PROOF_TOLERANCE = 1e-6
#: How much better a mapping must be to count as better where scores are fractions.
FRACTION_GAP = 1e-7
#: Denominators tried for the weights' quantum, at most.
_MAX_DENOMINATOR = 10**6
#: Distinct fractional parts of weights looked at, at most (more: no quantum).
_MAX_FRACTIONS = 64


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


def weight_quantum(problem: Problem) -> float:
    """The largest ``q = 1 / L`` (``L`` a whole number) of which every weight is a whole multiple, or 0.

    Every mapping's value is then a multiple of ``q``, so a bound less than ``q`` above a score proves
    it. Whole-number weights give 1; DocSmatch's tie-break weights ``1 + eps``, ``eps = 1 / (2 (n + 1))``,
    give ``eps``.

    Example:
        >>> from amreval.amr.read import loads_graph
        >>> from amreval.match.problem import build_problem
        >>> from amreval.match.triples import graph_triples, encode_pair
        >>> g = graph_triples(loads_graph("(a / x :r (b / y))"))
        >>> weight_quantum(build_problem(encode_pair(g, g)))
        1.0
        >>> weight_quantum(build_problem(encode_pair(g, g), b_weights=(np.array([1.25, 1.0]), None, None)))
        0.25
    """
    w = np.unique(np.concatenate((problem.pair_u, problem.term_w)))
    frac = np.unique(w - np.floor(w))
    frac = frac[(frac > 1e-9) & (frac < 1 - 1e-9)]
    if not len(frac):
        return 1.0
    if len(frac) > _MAX_FRACTIONS:
        return 0.0
    denominator = 1
    for f in frac.tolist():
        near = Fraction(f).limit_denominator(_MAX_DENOMINATOR)
        if abs(float(near) - f) > 1e-12:
            return 0.0
        denominator = denominator * near.denominator // gcd(denominator, near.denominator)
        if denominator > _MAX_DENOMINATOR:
            return 0.0
    scaled = w * denominator
    # each weight a whole multiple to within 1e-9 of one: a mapping's value, of fewer than 10**6 of them,
    # lies within 1e-3 of a multiple, far inside the margin of a proof
    if np.all(np.abs(scaled - np.round(scaled)) <= 1e-9):
        return 1.0 / denominator
    return 0.0

"""Certified search of a document on the pairs a better mapping could use (reduced-cost fixing).

The LP relaxation's dual solution (:func:`amreval.match.pricing.priced_lp`)
bounds more than the optimum: a mapping that uses pair ``p`` is worth at most
``bound - slack[p]``, where ``slack[p]`` is the reduced cost of ``p``'s column
(weak duality: every column's reduced cost is at most zero, and a column at one
lowers the dual objective by its own). Once a good mapping is known, most pairs
of a parsed document have a bound of this kind that proves the mapping at least
as good (the rule of :func:`~amreval.match.proof.proves_each`, with the weights'
quantum where they have one), so no better mapping uses them.

What is left is the same document over fewer pairs: its blocks are smaller and
share fewer copies, and the coupled search (:mod:`amreval.match.coupling`) makes
them agree within counts it could not reach on the whole. Its optimum there is
the optimum of the whole where it beats the mapping known; otherwise the mapping
known is optimal. Where it is not proven, the bound is the larger of its bound and
the best bound of a pair left out.
"""

from __future__ import annotations

import numpy as np

from amreval.match.coupling import COUPLING_ROUNDS, COUPLING_SUBTREES, couple, weight_quantum
from amreval.match.pricing import PricedLP
from amreval.match.problem import Alignment, Problem, nodes_to_pairs
from amreval.match.proof import proves_each

__all__ = ["fixed_search", "pairs_left"]

_TOL = 1e-9


def pairs_left(problem: Problem, lp: PricedLP, score: float) -> np.ndarray:
    """Which pairs a mapping better than ``score`` could use, by the LP's reduced costs (module docs);
    every pair where the LP gave none."""
    if lp.slack is None:
        return np.ones(problem.n_pairs, dtype=bool)
    each = lp.bound - lp.slack
    return ~proves_each(score, each, integral=problem.integral, quantum=weight_quantum(problem))


def fixed_search(
    problem: Problem,
    result: Alignment,
    lp: PricedLP,
    *,
    rounds: int = COUPLING_ROUNDS,
    subtrees: int = COUPLING_SUBTREES,
) -> Alignment:
    """The coupled search over the pairs a mapping better than ``result`` could use (module docs).

    Args:
        problem: a problem with groups (a document's sentences).
        result: the best mapping found so far and its bound.
        lp: the LP bound with its reduced costs, from :func:`~amreval.match.pricing.priced_lp`.
        rounds, subtrees: the coupled search's limits (:func:`~amreval.match.coupling.couple`).

    Returns:
        The better mapping (method ``fixing``) and ``optimal`` when proven; else ``result`` with the bound
        lowered where this one is lower.
    """
    if problem.groups is None or lp.slack is None:
        return result
    left = pairs_left(problem, lp, result.score)
    if not left.any():
        return Alignment(result.mapping, result.score, result.score, True, result.method, result.climbs)
    sub, _, _ = problem.restrict(left)
    # the mapping's pairs that are left, as its start there (node numbers are the same)
    start = result.mapping.copy()
    pairs = nodes_to_pairs(problem, start)
    start[(pairs >= 0) & ~left[np.maximum(pairs, 0)]] = -1
    start[pairs < 0] = -1
    found = couple(sub, start, rounds=rounds, subtrees=subtrees)
    if found.score > result.score + _TOL:
        mapping, score, method = found.mapping, found.score, "fixing"
    else:
        mapping, score, method = result.mapping, result.score, result.method
    climbs = result.climbs + found.climbs
    if found.proven:
        return Alignment(mapping, score, score, True, method, climbs)
    out = lp.bound - lp.slack[~left]
    bound = result.bound
    if found.bound is not None:
        bound = min(bound, max(found.bound, float(out.max(initial=score))))
    return Alignment(mapping, score, bound, False, method, climbs)

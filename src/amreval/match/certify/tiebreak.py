"""A tie-break among the optimal mappings, certified at about the main score's cost.

DocSmatch's coreference sub-score (:mod:`amreval.scores.docsmatch`) is counted under a mapping with
the best main count that has, among those, the most coreference matches: the **graded** problem gives
each gold coreference item ``1 + eps`` instead of 1 (``eps = 1 / (2 (n + 1))`` for ``n`` items, so the
bonus never outweighs one main match), and its optimum is that mapping. Searched whole, the graded
problem must be proven to within one ``eps``: on documents with long chains (a narrator's ``i`` in
every sentence) many mappings share the main optimum and differ by a few bonuses, and the proof took
3-20x the main score's time, often through the integer program.

:func:`tie_break` first runs the certified search's steps short of the integer program on the graded
problem itself (what :func:`amreval.match.alignment.align` runs first: where they prove it, at the same
cost and with the same mapping). Where they do not, the two parts are taken apart
(:func:`lagrangian_tie_break`). Every weight of the graded problem is ``m + eps * k`` with whole
``m`` (the main weight) and ``k`` (the bonus), so a mapping's value is ``main(x) + eps * bonus(x)``:

1. the **main problem** (the weights ``m``) is solved and proven: its optimum ``M``;
2. its LP's reduced costs at ``M`` (:func:`amreval.match.certify.fixing.pairs_left`) leave the pairs
   that can belong to a mapping worth ``M``: no optimal mapping uses another;
3. over those pairs, for a few whole ``lam`` (:data:`LADDER`), the problem with weights
   ``lam * m + k`` (whole numbers: proofs to within one, as the main score's) is searched by the
   steps of the certified search short of the integer program. Every main-optimal mapping ``x`` has
   ``bonus(x) = lam * (main(x) - M) + bonus(x)``, so its optimum less ``lam * M`` bounds the best bonus
   ``B`` among them (a Lagrangian bound; every mapping that is not main-optimal only lowers the
   term it adds); and every mapping that search finds with ``main(x) = M`` has a bonus to reach it.

Where a main-optimal mapping's bonus reaches the bound, it is the graded optimum ``M + eps * B``
(proven: no proof here depends on the clock). Otherwise (the main score unproven, no reduced costs,
or the bound not met on the ladder) :func:`tie_break` returns None and the caller runs
:func:`~amreval.match.alignment.align` on the graded problem, as before (its restarts, then the integer
program within its node limit).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from amreval.match.alignment import FIRST_COUPLING_SUBTREES, coupled_search, fixed_search, hill_climb
from amreval.match.certify import pricing
from amreval.match.certify.bounds import assignment_bound
from amreval.match.certify.fixing import pairs_left
from amreval.match.certify.proof import PROOF_TOLERANCE, proves
from amreval.match.options import SearchOptions
from amreval.match.problem import Alignment, Problem, nodes_to_pairs, pairs_to_nodes

__all__ = ["tie_break", "lagrangian_tie_break", "split_weights", "LADDER"]

#: The multipliers of the main weights tried, in order. A larger one is closer to the graded problem itself
#: (a bound as tight, a search as hard): on the benchmarks' documents ``lam = 4`` proved none that ``lam = 1``
#: left, at several times its cost.
LADDER = (1,)
# the decomposition must reproduce the graded weights this closely
_SPLIT_TOL = 1e-9


def split_weights(problem: Problem, eps: float) -> tuple[Problem, np.ndarray, np.ndarray] | None:
    """The main problem (whole weights ``m``) of a graded ``problem`` whose weights are ``m + eps * k``, and the
    bonuses ``k`` of its pairs and terms; None where the weights are not of that form."""
    if not 0 < eps < 0.5:
        return None
    main_u, main_t = np.floor(problem.pair_u + PROOF_TOLERANCE), np.floor(problem.term_w + PROOF_TOLERANCE)
    bonus_u, bonus_t = np.round((problem.pair_u - main_u) / eps), np.round((problem.term_w - main_t) / eps)
    if not (
        np.allclose(main_u + eps * bonus_u, problem.pair_u, rtol=0, atol=_SPLIT_TOL)
        and np.allclose(main_t + eps * bonus_t, problem.term_w, rtol=0, atol=_SPLIT_TOL)
    ):
        return None
    main = replace(problem, pair_u=main_u, term_w=main_t, integral=True, _adj=None, _rows=None)
    return main, bonus_u, bonus_t


def _search(problem: Problem, init: np.ndarray | None, search: SearchOptions) -> Alignment:
    """The certified search's steps short of the integer program and the restarts: a climb from ``init`` (None:
    the greedy start),
    the coupled search, the assignment bound, the priced LP (its rounding a mapping too), the fixed search.
    The best mapping found and the lowest bound; ``optimal`` where it proves the mapping."""
    result = hill_climb(problem, restarts=0, seed=search.seed, init=init)
    if result.optimal or problem.groups is None:
        return result
    result = coupled_search(problem, result, subtrees=FIRST_COUPLING_SUBTREES)
    if result.optimal:
        return result
    bound = min(result.bound, assignment_bound(problem))
    incumbent = nodes_to_pairs(problem, result.mapping)
    lp = pricing.priced_lp(problem, incumbent, time_limit=search.time_limit, work_limit=search.work_limit)
    bound = min(bound, lp.bound)
    if lp.pairs is not None:
        rounded = pairs_to_nodes(problem, lp.pairs)
        value = problem.value(rounded)
        if value > result.score + PROOF_TOLERANCE:
            result = Alignment(rounded, value, bound, False, "lp", result.climbs)
    result.bound = bound
    if proves(result.score, bound, integral=problem.integral):
        return Alignment(result.mapping, result.score, result.score, True, result.method, result.climbs)
    return fixed_search(problem, result, lp)


def tie_break(problem: Problem, eps: float, bonus_bound: float, search: SearchOptions) -> Alignment | None:
    """The graded ``problem``'s optimum where the steps of the certified search short of the integer program
    prove it (on the graded problem itself: as :func:`amreval.match.alignment.align` would, at the same
    cost), else by the main problem and a Lagrangian bound on the bonus (:func:`lagrangian_tie_break`);
    None where neither proves it (the caller then runs :func:`~amreval.match.alignment.align`, whose
    restarts and integer program come after the same steps).
    """
    if problem.groups is None:
        return None
    direct = _search(problem, None, search)
    if direct.optimal:
        return direct
    return lagrangian_tie_break(problem, eps, bonus_bound, search)


def lagrangian_tie_break(problem: Problem, eps: float, bonus_bound: float, search: SearchOptions) -> Alignment | None:
    """The graded ``problem``'s optimum by the main problem and a Lagrangian bound on the bonus (module docs).

    Args:
        problem: the graded problem, weights ``m + eps * k`` (a document's: with sentence groups).
        eps: the bonus's weight.
        bonus_bound: an upper bound on any mapping's bonus (the gold coreference items); ``eps * bonus_bound``
            must be below 1 (all bonuses below one main match), else None.
        search: the search settings (seed; the work limit and the time limit of the LP's solver).

    Returns:
        A mapping of the graded optimum (``optimal``, ``score`` its graded value), or None where this way
        does not prove one.
    """
    # every bonus together below one match: the graded optimum is a main optimum (else this way is not sound)
    if problem.groups is None or eps * bonus_bound >= 1.0:
        return None
    split = split_weights(problem, eps)
    if split is None:
        return None
    main, bonus_u, bonus_t = split
    first = _search(main, None, search)
    if not first.optimal:
        return None
    best = float(first.score)
    incumbent = nodes_to_pairs(main, first.mapping)
    lp = pricing.priced_lp(main, incumbent, time_limit=search.time_limit, work_limit=search.work_limit)
    if lp.slack is None:
        return None
    # the pairs of mappings worth the optimum (better than one match less)
    left = pairs_left(main, lp, best - 1.0)
    mapping, found = first.mapping, _bonus(problem, main, first.mapping, eps)
    # the graded problem's climb from there: a main-optimal start with more bonus, where it keeps the optimum
    graded, _, _ = problem.restrict(left)
    climbed = hill_climb(graded, restarts=0, seed=search.seed, init=first.mapping).mapping
    if main.value(climbed) >= best - PROOF_TOLERANCE and _bonus(problem, main, climbed, eps) > found:
        mapping, found = climbed, _bonus(problem, main, climbed, eps)
    ceiling = np.inf
    for lam in LADDER:
        weighted = replace(
            problem,
            pair_u=lam * main.pair_u + bonus_u,
            term_w=lam * main.term_w + bonus_t,
            integral=True,
            bound=lam * main.bound + float(bonus_bound),
            _adj=None,
            _rows=None,
        )
        sub, _, _ = weighted.restrict(left)
        result = _search(sub, mapping, search)
        ceiling = min(ceiling, np.floor(result.bound + PROOF_TOLERANCE) - lam * best)
        # its mapping, and the graded climb from it (a mapping a match short of the optimum with a bonus
        # more than the ceiling is often one move from a main-optimal one that reaches it)
        again = hill_climb(graded, restarts=0, seed=search.seed, init=result.mapping).mapping
        for candidate in (result.mapping, again):
            if main.value(candidate) >= best - PROOF_TOLERANCE:
                bonus = _bonus(problem, main, candidate, eps)
                if bonus > found:
                    mapping, found = candidate, bonus
        if found >= ceiling:
            value = problem.value(mapping)
            return Alignment(mapping, value, value, True, "tie-break", first.climbs + result.climbs)
    return None


def _bonus(problem: Problem, main: Problem, mapping: np.ndarray, eps: float) -> int:
    """The bonus of ``mapping``: its graded value less its main value, in ``eps``."""
    return int(round((problem.value(mapping) - main.value(mapping)) / eps))

"""Certified search of a document on the pairs a better mapping could use (reduced-cost fixing).

The LP relaxation's dual solution (:func:`amreval.match.certify.pricing.priced_lp`)
bounds more than the optimum: a mapping that uses pair ``p`` is worth at most
``bound - slack[p]``, where ``slack[p]`` is the reduced cost of ``p``'s column
(weak duality: every column's reduced cost is at most zero, and a column at one
lowers the dual objective by its own). Once a good mapping is known, most pairs
of a parsed document have a bound of this kind that proves the mapping at least
as good (the rule of :func:`~amreval.match.certify.proof.proves_each`, with the weights'
quantum where they have one), so no better mapping uses them.

What is left is the same document over fewer pairs: its blocks are smaller and
share fewer copies, and the coupled search (:mod:`amreval.match.certify.coupling`, capped: a
block's search stops early while the round could not prove anything anyway) makes
them agree within counts it could not reach on the whole. Its optimum there is
the optimum of the whole where it beats the mapping known; otherwise the mapping
known is optimal. Where it is not proven but finds a better mapping, fewer pairs
are left against that one, and they are searched again (at most
:data:`FIXING_ROUNDS` searches, each within the coupled search's counts).

Where the blocks still disagree, the search **branches** on the pair they
disagree on most: the mappings that use it (its clashing pairs gone) and those
that do not (it gone) are two smaller documents, each searched the same way with
the best score so far as the floor to beat, to :data:`BRANCH_DEPTH` levels and
:data:`BRANCH_SUBTREES` subtrees in all. Fixing one pair often settles the
blocks on both sides. A better mapping found while branching ends the branching:
fewer pairs are left against it, and those are searched again (within
:data:`FIXING_ROUNDS`). The document is proven when every last search is; the
bound is otherwise the larger of the searches' bounds and the best bound of a
pair left out.

The integer program, where a document gets that far, is solved over the same pairs
(:func:`fixed_milp`): its optimum there is the whole's where it beats the mapping
known, and otherwise proves that mapping.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from amreval.match.certify.coupling import COUPLING_ROUNDS, COUPLING_SUBTREES, Coupled, couple
from amreval.match.certify.pricing import PricedLP
from amreval.match.certify.proof import proves_each, weight_quantum
from amreval.match.problem import Alignment, Problem, nodes_to_pairs

__all__ = ["fixed_search", "fixed_milp", "pairs_left", "FIXING_ROUNDS", "BRANCH_DEPTH", "BRANCH_SUBTREES"]

#: Searches at most: each better mapping found leaves fewer pairs, searched again.
FIXING_ROUNDS = 4
#: Levels of branching on a disputed pair, at most (up to ``2 ** BRANCH_DEPTH`` last searches).
BRANCH_DEPTH = 3
#: Subtrees of exact search of all the branching's searches, at most (each also within the coupled
#: search's :data:`~amreval.match.certify.coupling.COUPLING_SUBTREES`): a count, the same on every machine.
#: Where the branching proved a parser document (the 48 of ``benchmarks/bench_docparse.py`` and the 28 of
#: ``benchmarks/bench_coupling.py``'s default sizes and both chain rules, with the coreference sub-score), it
#: took at most 178,863 subtrees; where it did not, it spent 1,083,021 to 1,500,000 (the limit before) ahead
#: of the integer program, which, started from the best mapping known, proves those documents in seconds.
BRANCH_SUBTREES = 300_000

_TOL = 1e-9


def pairs_left(problem: Problem, lp: PricedLP, score: float) -> np.ndarray:
    """Which pairs a mapping better than ``score`` could use, by the LP's reduced costs (module docs);
    every pair where the LP gave none."""
    if lp.slack is None:
        return np.ones(problem.n_pairs, dtype=bool)
    each = lp.bound - lp.slack
    return ~proves_each(score, each, integral=problem.integral, quantum=weight_quantum(problem))


def _best_left_out(lp: PricedLP, left: np.ndarray, floor: float) -> float:
    """The most a mapping through a pair left out (``~left``) can be worth by the LP's reduced costs, or
    ``floor`` where that is more (or no pair is left out)."""
    assert lp.slack is not None
    return float((lp.bound - lp.slack[~left]).max(initial=floor))


class _Tree:
    """The branching's state: the best mapping, its score, and the subtrees left."""

    def __init__(self, result: Alignment, subtrees: int) -> None:
        self.mapping, self.score, self.method = result.mapping, result.score, result.method
        self.left, self.climbs = subtrees, result.climbs

    def keep(self, found: Coupled, *, branching: bool = True) -> None:
        """Count a search (against the branching's subtrees where ``branching``) and keep its mapping where
        it is better."""
        self.left -= found.subtrees if branching else 0
        self.climbs += found.climbs
        if found.score > self.score + _TOL:
            self.mapping, self.score, self.method = found.mapping, found.score, "fixing"


def _branch(
    problem: Problem, found: Coupled, tree: _Tree, depth: int, rounds: int, stop_above: float
) -> tuple[bool, float]:
    """Whether no mapping of ``problem`` beats the tree's best, and a bound on them, given its coupled
    search ``found``: where unproven, the search again on each side of its disputed pair (the mappings
    that use it; those that do not), while depth and subtrees last, and until a mapping better than
    ``stop_above`` is found (unproven then: fewer pairs are left against it, searched anew)."""
    if found.proven:
        return True, max(found.score, tree.score)
    bound = problem.bound if found.bound is None else found.bound
    p = found.disputed
    if p < 0 or depth >= BRANCH_DEPTH or tree.left <= 0:
        return False, bound
    i, j = int(problem.pair_src[p]), int(problem.pair_tgt[p])
    # with the pair: its clashes gone, the best mapping moved onto it
    keep = (problem.pair_src != i) & (problem.pair_tgt != j)
    keep[p] = True
    start = tree.mapping.copy()
    start[start == j] = -1
    start[i] = j
    sides = [(problem.restrict(keep)[0], start)]
    # without it
    keep = np.ones(problem.n_pairs, dtype=bool)
    keep[p] = False
    start = tree.mapping.copy()
    if start[i] == j:
        start[i] = -1
    sides.append((problem.restrict(keep)[0], start))
    proven, bounds = True, []
    for side, start in sides:
        if tree.left <= 0:
            return False, bound
        limit = min(COUPLING_SUBTREES, tree.left)
        inner = couple(side, start, rounds=rounds, subtrees=limit, floor=tree.score, until=stop_above, capped=True)
        tree.keep(inner)
        if tree.score > stop_above + _TOL:
            return False, bound
        ok, b = _branch(side, inner, tree, depth + 1, rounds, stop_above)
        proven &= ok
        bounds.append(b)
    return proven, min(bound, max(bounds))


def _left_part(problem: Problem, mapping: np.ndarray, left: np.ndarray) -> np.ndarray:
    """``mapping`` with the nodes whose pair is not ``left`` unmapped (a mapping of the problem over the pairs
    left: node numbers are the same)."""
    start = mapping.copy()
    pairs = nodes_to_pairs(problem, start)
    start[(pairs < 0) | ~left[np.maximum(pairs, 0)]] = -1
    return start


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
        lp: the LP bound with its reduced costs, from :func:`~amreval.match.certify.pricing.priced_lp`.
        rounds, subtrees: the coupled search's limits (:func:`~amreval.match.certify.coupling.couple`), for each
            search; the branching's searches share :data:`BRANCH_SUBTREES` on top.

    Returns:
        The better mapping (method ``fixing``) and ``optimal`` when proven; else the better mapping with
        the bound lowered where the searches' is lower.
    """
    if problem.groups is None or lp.slack is None:
        return result
    tree = _Tree(result, BRANCH_SUBTREES)
    bound = result.bound

    def done(proven: bool, at: float) -> Alignment:
        return Alignment(tree.mapping, tree.score, tree.score if proven else at, proven, tree.method, tree.climbs)

    for search in range(FIXING_ROUNDS):
        left = pairs_left(problem, lp, tree.score)
        if not left.any():
            return done(True, tree.score)
        # every mapping through a pair left out is worth at most this
        out = _best_left_out(lp, left, tree.score)
        sub, _, _ = problem.restrict(left)
        # the mapping's pairs that are left, as the start there (node numbers are the same)
        start = _left_part(problem, tree.mapping, left)
        before = tree.score
        found = couple(sub, start, rounds=rounds, subtrees=subtrees, capped=True)
        tree.keep(found, branching=False)
        if found.proven:
            return done(True, tree.score)
        if tree.score > before + _TOL and search + 1 < FIXING_ROUNDS:
            if found.bound is not None:
                bound = min(bound, max(found.bound, out))
            continue  # a better mapping leaves fewer pairs: search again over those
        # where the blocks still disagree, branch on the pair they disagree on most; a better mapping
        # found there leaves fewer pairs, searched again while searches are left
        again = search + 1 < FIXING_ROUNDS
        proven, at = _branch(sub, found, tree, 0, rounds, tree.score if again else float("inf"))
        bound = min(bound, max(at, out))
        if proven or tree.score <= before + _TOL or not again:
            return done(proven, bound)
    return done(False, bound)


def fixed_milp(
    problem: Problem, result: Alignment, lp: PricedLP, *, time_limit: float, solve: Callable[..., Alignment]
) -> Alignment:
    """The integer program (``solve``, :func:`~amreval.match.certify.bounds.solve_milp`) over the pairs a mapping
    better than ``result`` could use (:func:`pairs_left`), as a result for the whole problem.

    Every mapping through a pair left out is worth at most ``lp.bound - lp.slack`` of that pair, which
    proves ``result`` at least as good; so the optimum over the pairs left is the whole's where it beats
    ``result``, and where it does not, ``result`` is optimal. Unproven, the bound is the larger of the
    integer program's there and the best bound of a pair left out. Where the LP gave no reduced costs, the
    integer program of the whole.

    Returns:
        The integer program's mapping (method ``milp``) where it scores more than ``result``, else
        ``result``'s; ``optimal`` where the integer program proved its optimum over the pairs left;
        ``timed_out`` where the time limit (the safety net) stopped it.
    """
    if lp.slack is None:
        return solve(problem, time_limit=time_limit, start=nodes_to_pairs(problem, result.mapping))
    left = pairs_left(problem, lp, result.score)
    if not left.any():
        return Alignment(result.mapping, result.score, result.score, True, result.method, result.climbs)
    if left.all():
        return solve(problem, time_limit=time_limit, start=nodes_to_pairs(problem, result.mapping))
    sub, _, _ = problem.restrict(left)
    # the mapping's pairs that are left, as the start there (node numbers are the same)
    found = solve(sub, time_limit=time_limit, start=nodes_to_pairs(sub, _left_part(problem, result.mapping, left)))
    # the mapping uses the pairs left only, and the terms between them are all there: the same value
    score = problem.value(found.mapping)
    better = score > result.score + _TOL
    mapping, value, method = (found.mapping, score, "milp") if better else (result.mapping, result.score, result.method)
    if found.optimal:
        return Alignment(mapping, value, value, True, method, result.climbs, timed_out=found.timed_out)
    bound = _best_left_out(lp, left, found.bound)
    return Alignment(mapping, value, bound, False, method, result.climbs, timed_out=found.timed_out)

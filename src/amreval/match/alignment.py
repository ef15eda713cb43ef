"""The alignment engine: the best one-to-one node mapping between two graphs.

Every score in amreval (Smatch, DocSmatch, S²match) is the value of the best
partial one-to-one mapping from the nodes of graph A (predicted) to the nodes
of graph B (gold), where a mapping earns

* a **unary** weight for each pair ``i -> j`` it uses (instance and attribute
  triples matched by that pair; a float, so S²match can give graded credit),
* a **pairwise** weight for each two pairs ``i -> j``, ``k -> l`` it uses
  together (relation triples matched when both ends are mapped).

Candidates may be restricted per node (DocSmatch's sentence constraint).
Three ways to search, all deterministic for a given seed:

* ``"exact"`` (the default): certified. Hill climbing finds a mapping, then,
  unless it already reaches the simple bound, the exact search by branch and
  bound (the whole problem when it is small, :mod:`amreval.match.exact`; a
  document block by block, the blocks made to agree on the pairs they share,
  :mod:`amreval.match.coupling`, whose first round is a block-by-block bound) and ever stronger
  upper bounds are tried until one proves its score
  (:mod:`amreval.match.proof`): :func:`assignment_bound`, the LP relaxation
  (:func:`lp_bound`; on a document, the coupled search again on the pairs its
  reduced costs leave, branching where the blocks disagree,
  :mod:`amreval.match.fixing`), and last the integer program solved by HiGHS (through
  ``highspy``) within a per-problem time limit. The result is the proven
  optimum unless the time limit ran out; then it is marked unproven and
  ``bound - score`` is the gap;
* ``"hillclimb"``: the fast option, smatch's hill climbing alone (moves and
  swaps, steepest ascent) from a greedy start plus ``restarts`` random
  starts, in the kernels (:mod:`amreval.match.kernels`: compiled C where
  built); it stops early when a climb reaches the simple upper bound (every
  triple matches at most once), which proves it;
* ``"auto"``: like ``"exact"`` for problems small enough to solve in
  milliseconds (sentence-level graphs), hill climbing alone for larger ones.

Example:
    >>> from amreval.amr.read import loads_graph
    >>> from amreval.match.triples import graph_triples, encode_pair
    >>> a = graph_triples(loads_graph("(w / want-01 :ARG0 (b / boy))"))
    >>> b = graph_triples(loads_graph("(x / want-01 :ARG0 (y / girl))"))
    >>> result = align(build_problem(encode_pair(a, b)))
    >>> result.score, result.optimal, result.mapping.tolist()
    (3.0, True, [0, 1])
"""

from __future__ import annotations

import logging
import time

import numpy as np

from amreval.errors import InputError
from amreval.match.bounds import assignment_bound, lp_relaxation, solve_milp
from amreval.match.contract import KernelBackend
from amreval.match.exact import BRANCH_MAX_PAIRS, branch_and_bound
from amreval.match.options import (
    DEFAULT_RESTARTS,
    DEFAULT_SOLVER,
    DEFAULT_TIME_LIMIT,
    SOLVERS,
    SearchOptions,
    Solver,
)
from amreval.match.problem import (
    Alignment,
    Candidates,
    Problem,
    build_problem,
    check_one_to_one,
    nodes_to_pairs,
    pairs_to_nodes,
)
from amreval.match.proof import proves
from amreval.match.triples import Triples, encode_pair

__all__ = [
    "align",
    "align_triples",
    "hill_climb",
    "SearchOptions",
    "SOLVERS",
    "DEFAULT_SOLVER",
    "DEFAULT_RESTARTS",
    "DEFAULT_TIME_LIMIT",
    "Solver",
]

logger = logging.getLogger(__name__)

#: Problems up to this many candidate pairs and terms get the integer program
#: under ``solver="auto"``.
AUTO_MAX_PAIRS = 400
AUTO_MAX_TERMS = 4000
#: Random restarts are tried in certified search only on problems up to this many candidate
#: pairs: on a long document one random climb costs seconds, and the bounds decide anyway.
CERTIFY_RESTART_MAX_PAIRS = 20_000
#: Problems with more candidate pairs than this get their LP bound by pricing (:mod:`amreval.match.pricing`):
#: a small LP over the pairs with unary weight, grown until the rest are proven not to help.
PRICED_LP_MIN_PAIRS = 5_000
#: The integer program is tried on problems up to this many columns (pairs plus terms). On larger
#: ones (a whole book as one document) HiGHS spends minutes setting up its search before it looks at
#: the time limit and could not finish within any usual limit; they end with the LP bound, unproven
#: where it does not meet the score, with the gap reported.
MILP_MAX_COLUMNS = 100_000

#: Subtrees of the first coupled search of a document, at most; where it does not prove the document, the
#: search goes on with the LP and on the pairs its reduced costs leave (:mod:`amreval.match.fixing`).
FIRST_COUPLING_SUBTREES = 50_000

_EMPTY_INT = np.zeros(0, dtype=np.int64)
# a mapping must score this much more to replace another; a climb within it of the simple bound reaches it
_TOL = 1e-9


def _kernels() -> KernelBackend:
    """The kernels (compiled where built), loaded on first use."""
    from amreval.match.kernels import kernels

    return kernels()


def coupled_search(problem: Problem, result: Alignment, *, subtrees: int) -> Alignment:
    """:func:`amreval.match.coupling.coupled_search`, its module loaded by the first problem with groups."""
    from amreval.match.coupling import coupled_search as search

    return search(problem, result, subtrees=subtrees)


def hill_climb(
    problem: Problem,
    *,
    restarts: int = DEFAULT_RESTARTS,
    seed: int = 0,
    init: np.ndarray | None = None,
) -> Alignment:
    """Hill climbing from a greedy (or given) start plus ``restarts`` random starts.

    Args:
        problem: the problem.
        restarts: number of random starts after the first climb.
        seed: seed of the random starts; same problem and seed give the same result.
        init: optional start mapping (target node per A node, -1 for none)
            used instead of the greedy start.

    Returns:
        The best :class:`Alignment` found; ``optimal`` is True when it
        reaches the simple bound.
    """
    if restarts < 0:
        raise InputError(f"restarts must be >= 0, got {restarts}")
    if init is not None and len(init) != problem.n_a:
        raise InputError(f"init must give a target (or -1) for each of the {problem.n_a} nodes, got {len(init)}")
    if init is not None:
        check_one_to_one(init, "init")
    if problem.n_a == 0 or problem.n_pairs == 0:
        mapping = np.full(problem.n_a, -1, dtype=np.int64)
        return Alignment(mapping, 0.0, problem.bound, problem.bound <= _TOL, "hillclimb", 0)
    found = _kernels().hill_climb_kernel(
        problem.search_space(),
        restarts=int(restarts),
        seed=int(seed) & 0x7FFFFFFFFFFFFFFF,  # the kernel takes a signed 64-bit seed
        bound=problem.bound,
        init=_EMPTY_INT if init is None else nodes_to_pairs(problem, np.asarray(init)),
    )
    mapping = pairs_to_nodes(problem, found.pairs)
    optimal = found.score >= problem.bound - _TOL
    return Alignment(mapping, found.score, problem.bound, bool(optimal), "hillclimb", found.climbs)


def _reaches(problem: Problem, score: float, bound: float) -> bool:
    """Whether ``bound`` proves ``score`` optimal (:func:`amreval.match.proof.proves`)."""
    return proves(score, bound, integral=problem.integral)


def _proven(result: Alignment) -> Alignment:
    """``result``, proven optimal."""
    return Alignment(result.mapping, result.score, result.score, True, result.method, result.climbs)


def _better(problem: Problem, result: Alignment, mapping: np.ndarray, method: str) -> Alignment:
    """``mapping`` (found by ``method``) where it scores more than ``result``, else ``result``."""
    if mapping is result.mapping:
        return result
    value = problem.value(mapping)
    if value > result.score + _TOL:
        return Alignment(mapping, value, result.bound, False, method, result.climbs)
    return result


def _exact_search(problem: Problem, result: Alignment) -> Alignment:
    """The exact search from ``result``: block by block where the problem has groups, else whole where it
    is small. Its better mapping replaces ``result``'s; the result is proven where the search proves it,
    else has the search's bound."""
    if problem.groups is not None:
        # block by block, the blocks made to agree on the pairs they share (amreval.match.coupling: its first
        # round is a block-by-block bound), briefly: where they do not agree soon, the LP's reduced costs
        # leave fewer pairs to search (amreval.match.fixing)
        return coupled_search(problem, result, subtrees=FIRST_COUPLING_SUBTREES)
    elif problem.n_pairs <= BRANCH_MAX_PAIRS:
        found = branch_and_bound(problem, result.mapping)
        result = _better(problem, result, found.mapping, "branch-and-bound")
        if found.proven:
            return _proven(result)
    return result


def _remaining(deadline: float) -> float:
    """Seconds left before ``deadline``, at least a few milliseconds (a solver needs some)."""
    return max(0.01, deadline - time.perf_counter())


def align(problem: Problem, search: SearchOptions = SearchOptions(), *, init: np.ndarray | None = None) -> Alignment:
    """Find the best mapping with the chosen solver (see module docs).

    ``"exact"`` certifies in steps, each tried only when the one before could
    not: one climb from the greedy start and its simple bound, the exact search
    (where the problem has groups, the coupled search block by block,
    :func:`amreval.match.coupling.coupled_search`, within :data:`FIRST_COUPLING_SUBTREES` subtrees;
    else :func:`~amreval.match.exact.branch_and_bound` on problems of up to
    :data:`~amreval.match.exact.BRANCH_MAX_PAIRS` pairs), whose better mapping replaces the
    climb's, :func:`assignment_bound`, the LP relaxation (:func:`lp_relaxation`, or on
    problems over :data:`PRICED_LP_MIN_PAIRS` pairs
    :func:`amreval.match.pricing.priced_lp`, as on every document), whose rounded solution replaces
    the climb's mapping where it scores higher, on a document the fixed search
    (:func:`amreval.match.fixing.fixed_search`), then the random restarts, and
    last the integer program (:func:`solve_milp`; after a priced LP, over the
    pairs its reduced costs leave, :func:`amreval.match.fixing.fixed_milp`) within what is left of the
    time limit, which counts from the start of the search. A result is ``optimal`` when its score reaches a bound;
    otherwise ``bound`` is the best bound found, so ``bound - score`` is the
    gap.

    Args:
        problem: from :func:`build_problem`.
        search: solver, restarts, seed and time limit.
        init: optional start mapping for the first climb.

    Returns:
        The best :class:`Alignment` found.
    """
    deadline = time.perf_counter() + search.time_limit
    if search.solver == "hillclimb" or (
        search.solver == "auto" and (problem.n_pairs > AUTO_MAX_PAIRS or problem.n_terms > AUTO_MAX_TERMS)
    ):
        return hill_climb(problem, restarts=search.restarts, seed=search.seed, init=init)
    # certified: one climb, then the bounds; random restarts only where they did not prove it
    result = hill_climb(problem, restarts=0, seed=search.seed, init=init)
    if result.optimal:
        return result
    # exact search: block by block on a document, whole on a small problem
    result = _exact_search(problem, result)
    if result.optimal:
        return result
    bound = assignment_bound(problem)
    if _reaches(problem, result.score, bound):
        return _proven(result)
    result.bound = min(result.bound, bound)
    # the LP relaxation: its bound, and its solution rounded, a mapping that may beat the climb's
    priced = None
    if problem.n_pairs > PRICED_LP_MIN_PAIRS or problem.groups is not None:
        from amreval.match.pricing import priced_lp

        priced = priced_lp(problem, nodes_to_pairs(problem, result.mapping), time_limit=_remaining(deadline))
        bound, lp_pairs = priced.bound, priced.pairs
    else:
        bound, lp_pairs = lp_relaxation(problem, time_limit=_remaining(deadline))
    if lp_pairs is not None:
        result = _better(problem, result, pairs_to_nodes(problem, lp_pairs), "lp")
    if _reaches(problem, result.score, bound):
        return _proven(result)
    result.bound = min(result.bound, bound)
    if priced is not None and problem.groups is not None:
        # a document: the coupled search again, on the pairs the LP's reduced costs leave
        from amreval.match.fixing import fixed_search

        result = fixed_search(problem, result, priced)
        if result.optimal:
            return result
    if search.restarts and problem.n_pairs <= CERTIFY_RESTART_MAX_PAIRS and time.perf_counter() < deadline:
        more = hill_climb(problem, restarts=search.restarts, seed=search.seed, init=init)
        if more.score > result.score + _TOL:
            more.bound = result.bound
            result = more
        else:
            result.climbs += more.climbs
        if _reaches(problem, result.score, result.bound):
            return _proven(result)
    if time.perf_counter() >= deadline or problem.n_pairs + problem.n_terms > MILP_MAX_COLUMNS:
        return result
    if priced is not None:
        # over the pairs the LP's reduced costs leave against the best mapping (amreval.match.fixing)
        from amreval.match.fixing import fixed_milp

        exact = fixed_milp(problem, result, priced, time_limit=_remaining(deadline), solve=solve_milp)
    else:
        exact = solve_milp(problem, time_limit=_remaining(deadline))
    best = exact if exact.score > result.score + _TOL else result
    bound = min(exact.bound, result.bound)
    return Alignment(
        best.mapping,
        best.score,
        bound,
        _reaches(problem, best.score, bound),
        best.method,
        result.climbs,
    )


def align_triples(
    a: Triples,
    b: Triples,
    search: SearchOptions = SearchOptions(),
    *,
    allowed: Candidates | np.ndarray | None = None,
) -> Alignment:
    """Align two graphs' triples (the building block of every score).

    Example:
        >>> from amreval.amr.read import loads_graph
        >>> from amreval.match.triples import graph_triples
        >>> found = align_triples(graph_triples(loads_graph("(a / b :ARG0 (c / d))")),
        ...                       graph_triples(loads_graph("(x / b :ARG0 (y / e))")))
        >>> found.score, found.mapping.tolist()
        (3.0, [0, 1])
    """
    return align(build_problem(encode_pair(a, b), allowed=allowed), search)

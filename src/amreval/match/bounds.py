"""Upper bounds and the exact solution of an alignment problem.

* :func:`assignment_bound`: cheap, from the best one-to-one assignment of
  optimistic pair values;
* :func:`lp_bound`: the LP relaxation of the integer program;
* :func:`solve_milp`: the integer program itself, solved by HiGHS
  (``scipy.optimize.milp``) within a time limit.
"""

from __future__ import annotations

import numpy as np

from amreval.match.options import DEFAULT_TIME_LIMIT
from amreval.match.problem import Alignment, Problem, pairs_to_nodes

__all__ = ["assignment_bound", "lp_bound", "solve_milp", "ASSIGNMENT_MAX_CELLS"]

#: :func:`assignment_bound` works on a dense table up to this many node pairs.
ASSIGNMENT_MAX_CELLS = 4_000_000


def _milp_model(problem: Problem, integral: bool):
    from scipy.optimize import Bounds, LinearConstraint
    from scipy.sparse import coo_matrix, vstack

    P, E = problem.n_pairs, problem.n_terms
    nvar = P + E
    c = -np.concatenate([problem.pair_u, problem.term_w])
    rows = []
    # each node of A and of B used at most once
    for nodes, n in ((problem.pair_src, problem.n_a), (problem.pair_tgt, problem.n_b)):
        rows.append(coo_matrix((np.ones(P), (nodes, np.arange(P))), shape=(n, nvar)))
    if E:
        # a term counts at most once per (triple, pair) at each end:
        # sum of y over a group <= x of the group's pair
        groups = []
        for trip, ends in (
            (problem.term_ta, problem.term_p),
            (problem.term_ta, problem.term_q),
            (problem.term_tb, problem.term_p),
            (problem.term_tb, problem.term_q),
        ):
            key = trip * P + ends
            uniq, inv = np.unique(key, return_inverse=True)
            g = len(uniq)
            pair_of_group = uniq % P
            m_y = coo_matrix((np.ones(E), (inv, P + np.arange(E))), shape=(g, nvar))
            m_x = coo_matrix((-np.ones(g), (np.arange(g), pair_of_group)), shape=(g, nvar))
            groups.append((m_y + m_x).tocoo())
        rows.extend(groups)
    A = vstack(rows).tocsr()
    n_node_rows = problem.n_a + problem.n_b
    ub = np.concatenate([np.ones(n_node_rows), np.zeros(A.shape[0] - n_node_rows)])
    lb = np.full(A.shape[0], -np.inf)
    integrality = np.concatenate([np.full(P, 1 if integral else 0), np.zeros(E)])
    return c, LinearConstraint(A, lb, ub), integrality, Bounds(np.zeros(nvar), np.ones(nvar))


def lp_bound(problem: Problem, *, time_limit: float | None = None) -> float:
    """The LP-relaxation bound of the integer program (an upper bound on the optimum).

    With ``time_limit`` (seconds) an LP that is not solved in time gives the simple bound.
    """
    from scipy.optimize import milp

    if problem.n_pairs == 0:
        return 0.0
    c, cons, integrality, bounds = _milp_model(problem, integral=False)
    options = {} if time_limit is None else {"time_limit": float(time_limit)}
    res = milp(c, constraints=cons, integrality=integrality, bounds=bounds, options=options)
    if res.x is None or res.status != 0:
        return problem.bound
    return min(problem.bound, float(-res.fun))


def solve_milp(problem: Problem, *, time_limit: float = DEFAULT_TIME_LIMIT) -> Alignment:
    """Solve the integer program with HiGHS within ``time_limit`` seconds.

    Returns:
        An :class:`Alignment` with ``optimal`` True when HiGHS proved it, and
        ``bound`` the solver's dual bound otherwise.
    """
    from scipy.optimize import milp

    if problem.n_pairs == 0:
        return Alignment(np.full(problem.n_a, -1, dtype=np.int64), 0.0, 0.0, True, "milp")
    c, cons, integrality, bounds = _milp_model(problem, integral=True)
    res = milp(
        c,
        constraints=cons,
        integrality=integrality,
        bounds=bounds,
        options={"time_limit": float(time_limit), "presolve": True},
    )
    if res.x is None:
        mapping = np.full(problem.n_a, -1, dtype=np.int64)
        dual = getattr(res, "mip_dual_bound", None)
        bound = problem.bound if dual is None or not np.isfinite(dual) else min(problem.bound, -dual)
        return Alignment(mapping, 0.0, float(bound), False, "milp")
    x = res.x[: problem.n_pairs] > 0.5
    pairs = np.full(problem.n_a, -1, dtype=np.int64)
    pairs[problem.pair_src[x]] = np.nonzero(x)[0]
    mapping = pairs_to_nodes(problem, pairs)
    score = problem.value(mapping)
    proven = res.status == 0
    dual = getattr(res, "mip_dual_bound", None)
    if proven:
        bound = score
    elif dual is not None and np.isfinite(dual):
        bound = min(problem.bound, float(-dual))
    else:
        bound = problem.bound
    return Alignment(mapping, score, float(bound), bool(proven), "milp")


def assignment_bound(problem: Problem) -> float:
    """A cheap upper bound: the best one-to-one assignment of optimistic pair values.

    Each candidate pair is worth its unary weight plus half of every pairwise
    term it could take part in, counting at each end at most one term per
    relation triple of A and one per relation triple of B (a triple matches
    once). Any mapping's score is the sum of its pairs' shares of the terms
    it realises, so the best assignment of these values (the linear
    assignment problem, solved as :func:`scipy.optimize.linear_sum_assignment` solves it) bounds
    the optimum. Problems with more than :data:`ASSIGNMENT_MAX_CELLS` node
    pairs get the simple bound instead.

    Example:
        >>> from amreval.amr.read import loads_graph
        >>> from amreval.match.problem import build_problem
        >>> from amreval.match.triples import graph_triples, encode_pair
        >>> p = build_problem(encode_pair(graph_triples(loads_graph("(a / x :r (b / y) :s (c / z))")),
        ...                               graph_triples(loads_graph("(p / x :s (q / y) :r (t / z))"))))
        >>> p.bound, assignment_bound(p), lp_bound(p)
        (6.0, 5.0, 4.0)
    """
    if problem.n_pairs == 0:
        return 0.0
    if problem.n_a * problem.n_b > ASSIGNMENT_MAX_CELLS:
        return problem.bound
    from amreval.match.kernels import kernels

    value = problem.pair_u.copy()
    if problem.n_terms:
        half = problem.term_w / 2.0
        for ends in (problem.term_p, problem.term_q):
            shares = []
            for triples in (problem.term_ta, problem.term_tb):
                width = int(triples.max()) + 1
                keys, inverse = np.unique(ends * width + triples, return_inverse=True)
                best = np.zeros(len(keys))
                np.maximum.at(best, inverse, half)
                shares.append(np.bincount(keys // width, weights=best, minlength=problem.n_pairs))
            value += np.minimum(shares[0], shares[1])
    table = np.zeros((problem.n_a, problem.n_b))
    table[problem.pair_src, problem.pair_tgt] = value
    rows, cols = kernels().assignment(table)
    return min(problem.bound, float(table[rows, cols].sum()))

"""Upper bounds and the exact solution of an alignment problem.

* :func:`assignment_bound`: cheap, from the best one-to-one assignment of
  optimistic pair values;
* :func:`lp_bound`: the LP relaxation of the integer program;
* :func:`solve_milp`: the integer program itself, solved by HiGHS.

HiGHS is called through ``highspy`` (its own Python binding, which imports in
a few milliseconds where ``scipy.optimize`` takes about 0.3 s, and releases the
GIL while it solves). The integer program is solved to the end: HiGHS's
default relative gap of 1e-4 would let it stop up to two matches short on a
20,000-triple document, so the gap is set to prove the optimum (below one
match for whole-number scores) and a result counts as proven only when its
score reaches the solver's own dual bound.

**Where HiGHS stops is decided by counts**, so that a result is the same on
every machine and under any load: an LP within a number of simplex iterations
(``work_limit``, :data:`~amreval.match.options.DEFAULT_WORK_LIMIT`), the
integer program within :data:`MILP_MAX_NODES` branch-and-bound nodes (HiGHS's
own ``simplex_iteration_limit`` and ``mip_max_nodes``; its presolve, probing and
cuts are bounded by counts of HiGHS's own). Given the same model and options
HiGHS takes the same steps whatever the load (checked: the same integer program
took 29.5 s and 94 s under two busy processes, with the same nodes, LP
iterations, cuts, bound and solution). The time limit is passed to HiGHS as a
safety net only; a solve it stops is reported as such (``timed_out``), since
where it stopped depends on the machine's speed.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from amreval.match.certify.proof import optimality_gap, proves
from amreval.match.kernels import backend
from amreval.match.options import DEFAULT_TIME_LIMIT
from amreval.match.problem import Alignment, Problem, pairs_to_nodes

__all__ = ["assignment_bound", "lp_bound", "lp_relaxation", "solve_lp", "solve_milp", "LPSolution", "MILP_MAX_NODES"]
# HiGHS's codes: row-wise matrices, maximisation, integer and continuous columns
_ROWWISE, _MAXIMIZE, _INTEGER, _CONTINUOUS = 2, -1, 1, 0
_HIGHS_INT_MAX = 2**31 - 1  # HiGHS's integer options are 32-bit
_EMPTY = np.zeros(0, dtype=np.int64)

#: Branch-and-bound nodes of the integer program, at most (HiGHS's ``mip_max_nodes``): a count, the same on every
#: machine. Every integer program that proved a score on the measured data (the parser documents of
#: ``benchmarks/bench_docparse.py`` from 20 to 1000 sentences, with the coreference sub-score and Damonte's
#: re-alignments, up to 89,669 columns; the hard pairs of ``benchmarks/bench_certified.py``; 1,500 random
#: documents of the tests) did so at its root node. The one that branched (the second hard pair of
#: ``bench_certified.py``, 24,592 columns) needed 143 nodes and 17 minutes under load to prove a gap of one
#: match: a node costs seconds on a problem of that size, so ten nodes keep the integer program to about
#: its root's time, well within the time limit's safety net.
MILP_MAX_NODES = 10


def _rows_of(keys: np.ndarray, n_rows: int) -> tuple[np.ndarray, np.ndarray]:
    """Row starts and the entries (indices into ``keys``) of rows given by each entry's row key."""
    order = np.argsort(keys, kind="stable")
    starts = np.zeros(n_rows + 1, dtype=np.int64)
    np.cumsum(np.bincount(keys, minlength=n_rows), out=starts[1:])
    return starts, order


def milp_model(problem: Problem) -> dict[str, Any]:
    """The integer program in HiGHS's row-wise form: pairs ``x`` then terms ``y``, all in [0, 1].

    Rows: each node of A and of B is used at most once (``sum x <= 1``); a term
    counts at most once per (triple, pair) at each end (``sum of y over a group
    <= x of the group's pair``).
    """
    P, E = problem.n_pairs, problem.n_terms
    starts: list[np.ndarray] = []
    index: list[np.ndarray] = []
    value: list[np.ndarray] = []
    groups: list[np.ndarray] = []
    offset = 0
    # node rows: the pairs of each node of A (pairs are ordered by source), of each node of B
    for nodes, n in ((problem.pair_src, problem.n_a), (problem.pair_tgt, problem.n_b)):
        row_starts, order = _rows_of(nodes, n)
        starts.append(row_starts[:-1] + offset)
        index.append(order)
        value.append(np.ones(P))
        offset += P
    n_group_rows = 0
    if E:
        for trip, ends in (
            (problem.term_ta, problem.term_p),
            (problem.term_ta, problem.term_q),
            (problem.term_tb, problem.term_p),
            (problem.term_tb, problem.term_q),
        ):
            uniq, inv = np.unique(trip * P + ends, return_inverse=True)
            groups.append(uniq)
            g = len(uniq)
            row_starts, order = _rows_of(inv.ravel(), g)
            # each row: the group's pair (-1), then its terms (+1)
            row_starts = row_starts + np.arange(g + 1)
            idx = np.empty(g + E, dtype=np.int64)
            val = np.ones(g + E)
            idx[row_starts[:-1]] = uniq % P
            val[row_starts[:-1]] = -1.0
            mask = np.ones(g + E, dtype=bool)
            mask[row_starts[:-1]] = False
            idx[mask] = P + order
            starts.append(row_starts[:-1] + offset)
            index.append(idx)
            value.append(val)
            offset += g + E
            n_group_rows += g
    n_rows = problem.n_a + problem.n_b + n_group_rows
    a_start = np.concatenate([*starts, [offset]]).astype(np.int32)
    return {
        "num_col": P + E,
        "num_row": n_rows,
        "num_nz": offset,
        "cost": np.concatenate([problem.pair_u, problem.term_w]).astype(np.float64),
        "row_upper": np.concatenate([np.ones(problem.n_a + problem.n_b), np.zeros(n_group_rows)]),
        "a_start": a_start,
        "a_index": np.concatenate(index).astype(np.int32),
        "a_value": np.concatenate(value),
        # the keys (triple * n_pairs + pair) of the group rows, in row order, per kind of row
        "groups": groups,
    }


def highs_solver(
    problem: Problem,
    integral: bool,
    time_limit: float | None,
    *,
    work_limit: int | None = None,
    nodes: int | None = None,
    presolve: bool = True,
    model: dict[str, Any] | None = None,
) -> Any:
    """A HiGHS solver holding the problem's model (or the ``model`` given), quiet, with the gaps and limits set:
    an LP within ``work_limit`` simplex iterations, the integer program within ``nodes`` branch-and-bound nodes
    (None: no limit), both within ``time_limit`` seconds (the safety net)."""
    from highspy import _core

    m = model if model is not None else milp_model(problem)
    n = m["num_col"]
    integrality = np.zeros(n, dtype=np.int32)
    if integral:
        integrality[: problem.n_pairs] = _INTEGER
    # the binding's own solver class: ``highspy.Highs`` prints HiGHS's banner when it is made, before
    # output can be switched off, and sets up Python callbacks the search does not use
    h = _core._Highs()
    h.setOptionValue("output_flag", bool(__import__("os").environ.get("AMREVAL_HIGHS_LOG")))
    if time_limit is not None:
        h.setOptionValue("time_limit", float(time_limit))
    if work_limit is not None and not integral:
        h.setOptionValue("simplex_iteration_limit", int(min(work_limit, _HIGHS_INT_MAX)))
    if nodes is not None and integral:
        h.setOptionValue("mip_max_nodes", int(min(nodes, _HIGHS_INT_MAX)))
    h.setOptionValue("presolve", "on" if presolve else "off")
    if integral:
        h.setOptionValue("mip_rel_gap", 0.0)
        # whole-number scores: a gap below one match proves the optimum
        h.setOptionValue("mip_abs_gap", optimality_gap(problem.integral))
    h.passModel(
        n, m["num_row"], m["num_nz"], _ROWWISE, _MAXIMIZE, 0.0,
        m["cost"], np.zeros(n), np.ones(n), np.full(m["num_row"], -np.inf), m["row_upper"],
        m["a_start"], m["a_index"], m["a_value"], integrality,
    )  # fmt: skip
    return h


def solved(h: Any) -> bool:
    """Whether HiGHS solved the model to optimality (not stopped by a limit, say)."""
    import highspy

    return bool(h.getModelStatus() == highspy.HighsModelStatus.kOptimal)


def timed_out(h: Any) -> bool:
    """Whether HiGHS's last run was stopped by its time limit (the safety net), not by a count."""
    import highspy

    return bool(h.getModelStatus() == highspy.HighsModelStatus.kTimeLimit)


def iterations(h: Any) -> int:
    """The simplex iterations of HiGHS's last run of an LP."""
    return max(0, int(h.getInfo().simplex_iteration_count))


class LPSolution(NamedTuple):
    """What :func:`solve_lp` found: the bound (the simple bound where the LP was not solved), its solution
    rounded (a pair index per A node, or None), the simplex iterations spent, and whether the time limit (the
    safety net) stopped it."""

    bound: float
    pairs: np.ndarray | None
    iterations: int
    timed_out: bool


def round_solution(src: np.ndarray, tgt: np.ndarray, x: np.ndarray, n_a: int, n_b: int) -> np.ndarray:
    """A mapping (pair index per A node, -1: none) from the pairs' values ``x`` of an LP or integer program.

    Pairs with ``x > 0.5`` are taken from the largest value down, skipping one whose node of A or B
    is taken already: an LP's half-integral solution can put two pairs of one node at 0.5 plus a
    rounding error.
    """
    chosen = np.nonzero(x > 0.5)[0]
    chosen = chosen[np.argsort(-x[chosen], kind="stable")]
    pairs = np.full(n_a, -1, dtype=np.int64)
    taken = np.zeros(n_b, dtype=bool)
    for p, i, j in zip(chosen.tolist(), src[chosen].tolist(), tgt[chosen].tolist()):
        if pairs[i] < 0 and not taken[j]:
            pairs[i] = p
            taken[j] = True
    return pairs


def solve_lp(problem: Problem, *, time_limit: float | None = None, work_limit: int | None = None) -> LPSolution:
    """The LP relaxation within ``work_limit`` simplex iterations (and ``time_limit`` seconds, the safety net):
    its bound and its solution rounded (:func:`round_solution`), or the simple bound where it was not solved."""
    if problem.n_pairs == 0:
        return LPSolution(0.0, None, 0, False)
    h = highs_solver(problem, False, time_limit, work_limit=work_limit)
    h.run()
    if not solved(h):
        return LPSolution(problem.bound, None, iterations(h), timed_out(h))
    x = np.asarray(h.getSolution().col_value, dtype=np.float64)[: problem.n_pairs]
    pairs = round_solution(problem.pair_src, problem.pair_tgt, x, problem.n_a, problem.n_b)
    return LPSolution(min(problem.bound, float(h.getInfo().objective_function_value)), pairs, iterations(h), False)


def lp_relaxation(
    problem: Problem, *, time_limit: float | None = None, work_limit: int | None = None
) -> tuple[float, np.ndarray | None]:
    """The LP relaxation: its bound, and its solution rounded (a pair index per A node, or None).

    The rounding (:func:`round_solution`) is a mapping; where the LP's optimum is whole (as it
    often is) it is a mapping that reaches the bound. An LP not solved within ``work_limit`` simplex
    iterations (or ``time_limit`` seconds) gives the simple bound and None (:func:`solve_lp` says which).
    """
    found = solve_lp(problem, time_limit=time_limit, work_limit=work_limit)
    return found.bound, found.pairs


def lp_bound(problem: Problem, *, time_limit: float | None = None, work_limit: int | None = None) -> float:
    """The LP-relaxation bound of the integer program (an upper bound on the optimum).

    An LP not solved within ``work_limit`` simplex iterations (or ``time_limit`` seconds) gives the simple bound.
    """
    return lp_relaxation(problem, time_limit=time_limit, work_limit=work_limit)[0]


def solve_milp(
    problem: Problem,
    *,
    time_limit: float = DEFAULT_TIME_LIMIT,
    nodes: int = MILP_MAX_NODES,
    start: np.ndarray | None = None,
) -> Alignment:
    """Solve the integer program with HiGHS within ``nodes`` branch-and-bound nodes (and ``time_limit`` seconds,
    the safety net).

    ``start``, a mapping already known (a pair index per A node, -1 for none), is handed to HiGHS as its first
    solution (its pairs at one; HiGHS completes the terms), and HiGHS then runs without its presolve. With
    the best score known from the start, HiGHS's root node fixes and cuts against it at once. On the
    integer programs the parser documents of ``benchmarks/bench_docparse.py`` reach (15,000-26,000 pairs
    left by the reduced costs) they took 1.3 s instead of 9.1 s, 2.4 s instead of 5.9 s and 9.0 s instead
    of 17.4 s, with the same optima, each proven at its root node. The presolve is off because it loses the
    gain: with the start and the presolve, the second took 8.2 s.

    Returns:
        An :class:`Alignment` with ``optimal`` True when its score reaches
        HiGHS's dual bound, and ``bound`` that dual bound otherwise; ``timed_out`` where the time limit
        stopped HiGHS.
    """
    if problem.n_pairs == 0:
        return Alignment(np.full(problem.n_a, -1, dtype=np.int64), 0.0, 0.0, True, "milp")
    known = _EMPTY if start is None else np.sort(start[start >= 0])
    h = highs_solver(problem, True, time_limit, nodes=nodes, presolve=not len(known))
    if len(known):
        h.setSolution(len(known), known.astype(np.int32), np.ones(len(known)))
    h.run()
    clock = timed_out(h)
    info = h.getInfo()
    dual = float(info.mip_dual_bound)
    bound = min(problem.bound, dual) if np.isfinite(dual) else problem.bound
    if int(info.primal_solution_status) != 2:  # no feasible solution found within the limits
        return Alignment(np.full(problem.n_a, -1, dtype=np.int64), 0.0, float(bound), False, "milp", timed_out=clock)
    x = np.asarray(h.getSolution().col_value, dtype=np.float64)[: problem.n_pairs]
    pairs = round_solution(problem.pair_src, problem.pair_tgt, x, problem.n_a, problem.n_b)
    mapping = pairs_to_nodes(problem, pairs)
    score = problem.value(mapping)
    proven = proves(score, bound, integral=problem.integral)
    return Alignment(mapping, score, float(score if proven else bound), proven, "milp", timed_out=clock)


def assignment_bound(problem: Problem) -> float:
    """A cheap upper bound: the best one-to-one assignment of optimistic pair values.

    Each candidate pair is worth its unary weight plus half of every pairwise
    term it could take part in, counting at each end at most one term per
    relation triple of A and one per relation triple of B (a triple matches
    once). Any mapping's score is the sum of its pairs' shares of the terms
    it realises, so the best assignment of these values bounds the optimum.
    The assignment is solved over the candidate pairs only (shortest
    augmenting paths, :mod:`amreval.match.kernels._assign`): nothing is allocated per
    node pair.

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
    found = backend().sparse_assignment_kernel(problem.n_a, problem.n_b, problem.rows(), problem.pair_tgt, value)
    return min(problem.bound, found.total)

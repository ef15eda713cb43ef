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
  unless it already reaches the simple bound, ever stronger upper bounds are
  tried until one equals its score: :func:`assignment_bound`, the LP
  relaxation (:func:`lp_bound`), and last the integer program solved by
  HiGHS (``scipy.optimize.milp``) within a per-problem time limit. The
  result is the proven optimum unless the time limit ran out; then it is
  marked unproven and ``bound - score`` is the gap;
* ``"hillclimb"``: the fast option, smatch's hill climbing alone (moves and
  swaps, steepest ascent) from a greedy start plus ``restarts`` random
  starts, compiled with Numba; it stops early when a climb reaches the
  simple upper bound (every triple matches at most once), which proves it;
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
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal, get_args

import numpy as np

from amreval.errors import InputError
from amreval.match.triples import EncodedPair, Triples, encode_pair

__all__ = [
    "SearchOptions",
    "Candidates",
    "Problem",
    "Alignment",
    "build_problem",
    "align",
    "align_triples",
    "lp_bound",
    "assignment_bound",
    "solve_milp",
    "inverse_mapping",
    "SOLVERS",
]

logger = logging.getLogger(__name__)

Solver = Literal["hillclimb", "exact", "auto"]
SOLVERS: tuple[str, ...] = get_args(Solver)
#: Certified by default: hill climbing alone missed the optimum on real
#: documents (see benchmarks/); the bounds prove most problems for little more.
DEFAULT_SOLVER: Solver = "exact"
#: Random starts after the greedy one. Climbs stop as soon as one reaches the
#: simple upper bound, so identical or near-identical graphs cost one climb.
DEFAULT_RESTARTS = 19
#: Seconds allowed to the integer program, per problem.
DEFAULT_TIME_LIMIT = 30.0

#: Problems up to this many candidate pairs and terms get the integer program
#: under ``solver="auto"``.
AUTO_MAX_PAIRS = 400
AUTO_MAX_TERMS = 4000
#: Random restarts are tried in certified search only on problems up to this many candidate
#: pairs: on a long document one random climb costs seconds, and the bounds decide anyway.
CERTIFY_RESTART_MAX_PAIRS = 20_000
#: :func:`assignment_bound` works on a dense table up to this many node pairs.
ASSIGNMENT_MAX_CELLS = 4_000_000

_EMPTY_FLOAT2 = np.zeros((0, 0), dtype=np.float64)
_EMPTY_INT = np.zeros(0, dtype=np.int64)
_EMPTY_INT1 = np.zeros(1, dtype=np.int64)
_TOL = 1e-9
# bounds from an LP solver are exact to about 1e-9 relative; a score within this of a bound reaches it
_BOUND_TOL = 1e-6


@dataclass(frozen=True)
class SearchOptions:
    """How to search for the best alignment; checked once, where the user comes in.

    Attributes:
        solver: ``"exact"`` (default: certified), ``"hillclimb"`` or ``"auto"`` (see the module docs).
        restarts: random starts of hill climbing after the greedy one (smatch's ``-r``).
        seed: seed of the random starts; the same inputs and seed give the same result.
        time_limit: seconds allowed to the integer program, per problem.

    Raises:
        InputError: an unknown solver, negative restarts, a time limit that is
            not positive.

    Example:
        >>> SearchOptions(restarts=4)
        SearchOptions(solver='exact', restarts=4, seed=0, time_limit=30.0)
        >>> SearchOptions(solver="fast")
        Traceback (most recent call last):
        ...
        amreval.errors.InputError: unknown solver 'fast'; expected one of hillclimb, exact, auto
    """

    solver: Solver = DEFAULT_SOLVER
    restarts: int = DEFAULT_RESTARTS
    seed: int = 0
    time_limit: float = DEFAULT_TIME_LIMIT

    def __post_init__(self) -> None:
        if self.solver not in SOLVERS:
            raise InputError(f"unknown solver {self.solver!r}; expected one of {', '.join(SOLVERS)}")
        if isinstance(self.restarts, bool) or not isinstance(self.restarts, (int, np.integer)) or self.restarts < 0:
            raise InputError(f"restarts must be an integer >= 0, got {self.restarts!r}")
        if isinstance(self.seed, bool) or not isinstance(self.seed, (int, np.integer)):
            raise InputError(f"seed must be an integer, got {self.seed!r}")
        if not isinstance(self.time_limit, (int, float)) or not self.time_limit > 0:
            raise InputError(f"time_limit must be a positive number of seconds, got {self.time_limit!r}")
        object.__setattr__(self, "restarts", int(self.restarts))
        object.__setattr__(self, "seed", int(self.seed))
        object.__setattr__(self, "time_limit", float(self.time_limit))


@dataclass
class Problem:
    """A candidate pool with unary and pairwise weights (see module docs).

    Attributes:
        n_a, n_b: node counts of graph A and graph B.
        pair_src, pair_tgt, pair_u: the candidate pairs (ordered by source,
            then target) and their unary weights.
        term_p, term_q, term_w: pairwise terms (two pair indices and a weight).
        term_ta, term_tb: the relation triples of A and B each term matches.
        bound: an upper bound on the best score (each triple matched once).
    """

    n_a: int
    n_b: int
    pair_src: np.ndarray
    pair_tgt: np.ndarray
    pair_u: np.ndarray
    term_p: np.ndarray
    term_q: np.ndarray
    term_ta: np.ndarray
    term_tb: np.ndarray
    term_w: np.ndarray
    bound: float
    _adj: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None
    _rows: np.ndarray | None = None

    @property
    def n_pairs(self) -> int:
        """Number of candidate pairs."""
        return int(self.pair_src.shape[0])

    @property
    def n_terms(self) -> int:
        """Number of pairwise terms."""
        return int(self.term_p.shape[0])

    def adjacency(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """CSR adjacency of the pairwise terms (computed once)."""
        if self._adj is None:
            self._adj = _kernels().adjacency(self.n_pairs, self.term_p, self.term_q, self.term_w)
        return self._adj

    def rows(self) -> np.ndarray:
        """Where each A node's candidate pairs start in the pair arrays (computed once)."""
        if self._rows is None:
            self._rows = _kernels().row_pointers(self.n_a, self.pair_src)
        return self._rows

    def find_pair(self, i: int, j: int) -> int:
        """The index of candidate pair ``(i, j)``, or -1."""
        return int(_kernels().find_pair(self.rows(), self.pair_tgt, i, j))

    def value(self, mapping: np.ndarray) -> float:
        """The score of a mapping given as target node per A node (-1 = none).

        Raises:
            InputError: the mapping is not one-to-one.
        """
        targets = mapping[mapping >= 0]
        if len(np.unique(targets)) != len(targets):
            raise InputError("the mapping is not one-to-one")
        active = np.zeros(self.n_pairs, dtype=bool)
        total = 0.0
        for i, j in enumerate(mapping):
            if j >= 0:
                p = self.find_pair(i, int(j))
                if p >= 0:
                    active[p] = True
                    total += self.pair_u[p]
        if self.n_terms:
            both = active[self.term_p] & active[self.term_q]
            total += float(self.term_w[both].sum())
        return float(total)


@dataclass
class Alignment:
    """The result of a search.

    Attributes:
        mapping: for each node of A, the node of B it maps to, or -1.
        score: the value of that mapping (the match count for Smatch).
        bound: the best known upper bound on the optimum.
        optimal: whether ``score`` is proven to be the optimum.
        method: what produced the mapping: ``hillclimb`` or ``milp``.
        climbs: number of hill-climbing runs made.
    """

    mapping: np.ndarray
    score: float
    bound: float
    optimal: bool
    method: str
    climbs: int = 0


def inverse_mapping(mapping: np.ndarray, n_b: int) -> np.ndarray:
    """For each of the ``n_b`` nodes of B, the node of A mapped to it, or -1.

    Example:
        >>> inverse_mapping(np.array([2, -1, 0]), 3).tolist()
        [2, -1, 0]
    """
    inverse = np.full(n_b, -1, dtype=np.int64)
    for i, j in enumerate(mapping):
        if j >= 0:
            inverse[j] = i
    return inverse


def _as_weights(values: np.ndarray | None, n: int) -> np.ndarray:
    if values is None:
        return np.ones(n, dtype=np.float64)
    arr = np.asarray(values, dtype=np.float64)
    if arr.shape != (n,):
        raise InputError(f"expected {n} weights, got shape {arr.shape}")
    return arr


@dataclass(frozen=True)
class Candidates:
    """Which nodes may align: node ``i`` of A with node ``j`` of B when they share a group.

    Groups are integers (DocSmatch: sentence numbers), sorted per node, stored
    as ``ptr``/``ids`` arrays (node ``i``'s groups are ``ids[ptr[i]:ptr[i+1]]``),
    so the restriction costs memory per node, never per node pair.

    Example:
        >>> c = Candidates.from_lists([[1], [1, 2], []], [[2], [-1]])
        >>> [[c.allows(i, j) for j in range(2)] for i in range(3)]
        [[False, False], [True, False], [False, False]]
    """

    a_ptr: np.ndarray
    a_ids: np.ndarray
    b_ptr: np.ndarray
    b_ids: np.ndarray

    @staticmethod
    def _csr(lists: Sequence[Sequence[int]]) -> tuple[np.ndarray, np.ndarray]:
        ptr = np.zeros(len(lists) + 1, dtype=np.int64)
        ptr[1:] = np.cumsum([len(x) for x in lists])
        ids = np.fromiter((k for x in lists for k in sorted(x)), dtype=np.int64, count=int(ptr[-1]))
        return ptr, ids

    @classmethod
    def from_lists(cls, a: Sequence[Sequence[int]], b: Sequence[Sequence[int]]) -> Candidates:
        """From each node's groups."""
        return cls(*cls._csr(a), *cls._csr(b))

    @classmethod
    def from_matrix(cls, allowed: np.ndarray) -> Candidates:
        """From an ``n_a x n_b`` boolean matrix (node ``j`` of B is group ``j``)."""
        allowed = np.asarray(allowed, dtype=bool)
        return cls.from_lists([np.nonzero(row)[0].tolist() for row in allowed], [[j] for j in range(allowed.shape[1])])

    def subset(self, a_nodes: Sequence[int] | np.ndarray, b_nodes: Sequence[int] | np.ndarray) -> Candidates:
        """The restriction to some nodes of A and of B, renumbered in the order given."""
        return Candidates.from_lists(
            [self.a_ids[self.a_ptr[i] : self.a_ptr[i + 1]].tolist() for i in a_nodes],
            [self.b_ids[self.b_ptr[j] : self.b_ptr[j + 1]].tolist() for j in b_nodes],
        )

    def allows(self, i: int, j: int) -> bool:
        """Whether ``i -> j`` is a candidate."""
        mine = self.a_ids[self.a_ptr[i] : self.a_ptr[i + 1]]
        theirs = self.b_ids[self.b_ptr[j] : self.b_ptr[j + 1]]
        return bool(np.intersect1d(mine, theirs).size)


#: A problem that would need more memory than this (bytes) is refused before anything is allocated.
MEMORY_BUDGET = 4 * 1024**3
# bytes per pairwise term: its seven arrays, the adjacency (twice) and the integer program's share
_BYTES_PER_TERM = 7 * 8 + 2 * 16


def build_problem(
    pair: EncodedPair,
    *,
    allowed: Candidates | np.ndarray | None = None,
    instance_weights: np.ndarray | None = None,
    b_weights: tuple[np.ndarray | None, np.ndarray | None, np.ndarray | None] | None = None,
) -> Problem:
    """Build the candidate pool and the weights for two encoded graphs.

    Args:
        pair: the two graphs' triples over a shared vocabulary.
        allowed: optional :class:`Candidates` (or an ``n_a x n_b`` boolean
            matrix); ``i -> j`` is a candidate only where it allows it.
        instance_weights: optional ``n_a x n_b`` float matrix giving the credit
            for matching the instance triple of ``i`` with that of ``j``
            (default: 1 for equal concepts, else 0).
        b_weights: optional weights of B's instance, attribute and relation
            triples (default 1 each); a matched triple earns its B weight.

    Returns:
        The :class:`Problem`.

    Raises:
        InputError: the problem would need more than :data:`MEMORY_BUDGET`
            bytes (the message gives the sizes).
    """
    n_a = pair.inst_a.shape[0]
    n_b = pair.inst_b.shape[0]
    if isinstance(allowed, np.ndarray):
        if allowed.shape != (n_a, n_b):
            raise InputError(f"allowed must have shape {(n_a, n_b)}, got {allowed.shape}")
        allowed = Candidates.from_matrix(allowed)
    if allowed is None:
        # one group for all
        groups = (np.arange(n_a + 1), np.zeros(n_a, dtype=np.int64), np.arange(n_b + 1), np.zeros(n_b, dtype=np.int64))
        n_groups = 1
    else:
        if len(allowed.a_ptr) != n_a + 1 or len(allowed.b_ptr) != n_b + 1:
            raise InputError(
                f"the candidate groups cover {len(allowed.a_ptr) - 1} x {len(allowed.b_ptr) - 1} "
                f"nodes, the graphs have {n_a} x {n_b}"
            )
        # group ids renumbered 0 .. n_groups - 1 (in the same order, so each node's stay sorted)
        ids = np.unique(np.concatenate([allowed.a_ids, allowed.b_ids]))
        n_groups = max(1, len(ids))
        groups = (
            allowed.a_ptr,
            np.searchsorted(ids, allowed.a_ids),
            allowed.b_ptr,
            np.searchsorted(ids, allowed.b_ids),
        )
    if instance_weights is None:
        inst_w, use_inst_w = _EMPTY_FLOAT2, False
    else:
        inst_w = np.ascontiguousarray(instance_weights, dtype=np.float64)
        if inst_w.shape != (n_a, n_b):
            raise InputError(f"instance_weights must have shape {(n_a, n_b)}, got {inst_w.shape}")
        use_inst_w = True
    n_terms = _kernels().count_terms(pair.rel_a, pair.rel_b, *groups, n_groups)
    need = n_terms * _BYTES_PER_TERM
    if need > MEMORY_BUDGET:
        raise InputError(
            f"the alignment problem of {n_a} x {n_b} nodes has {n_terms:,} pairwise terms and needs about "
            f"{need / 1024**3:.1f} GiB, over the budget of {MEMORY_BUDGET / 1024**3:.1f} GiB; split the graph "
            "(DocSmatch: :sntK edges restrict alignments to their sentence)"
        )
    bw = b_weights or (None, None, None)
    inst_bw = _as_weights(bw[0], n_b)
    attr_bw = _as_weights(bw[1], pair.attr_b.shape[0])
    rel_bw = _as_weights(bw[2], pair.rel_b.shape[0])
    out = _kernels().build_pool(
        pair.inst_a,
        pair.attr_a,
        pair.rel_a,
        pair.inst_b,
        pair.attr_b,
        pair.rel_b,
        *groups,
        n_groups,
        inst_w,
        use_inst_w,
        inst_bw,
        attr_bw,
        rel_bw,
    )
    src, tgt, u, tp, tq, ta, tb, tw, bound = out
    return Problem(n_a, n_b, src, tgt, u, tp, tq, ta, tb, tw, float(bound))


def _pairs_to_nodes(problem: Problem, pairs: np.ndarray) -> np.ndarray:
    mapping = np.full(problem.n_a, -1, dtype=np.int64)
    sel = pairs >= 0
    mapping[sel] = problem.pair_tgt[pairs[sel]]
    return mapping


def _nodes_to_pairs(problem: Problem, mapping: np.ndarray) -> np.ndarray:
    pairs = np.full(problem.n_a, -1, dtype=np.int64)
    for i, j in enumerate(mapping):
        if j >= 0:
            pairs[i] = problem.find_pair(i, int(j))
    return pairs


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
    if problem.n_a == 0 or problem.n_pairs == 0:
        mapping = np.full(problem.n_a, -1, dtype=np.int64)
        return Alignment(mapping, 0.0, problem.bound, problem.bound <= _TOL, "hillclimb", 0)
    ptr, nbr, w = problem.adjacency()
    init_pairs = _EMPTY_INT if init is None else _nodes_to_pairs(problem, np.asarray(init))
    pairs, score, climbs = _kernels().hill_climb(
        problem.n_a,
        problem.n_b,
        problem.pair_src,
        problem.pair_tgt,
        problem.pair_u,
        ptr,
        nbr,
        w,
        int(restarts),
        int(seed) & 0xFFFFFFFFFFFFFFFF,
        problem.bound,
        init_pairs,
    )
    mapping = _pairs_to_nodes(problem, pairs)
    optimal = score >= problem.bound - _TOL
    return Alignment(mapping, float(score), problem.bound, bool(optimal), "hillclimb", int(climbs))


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
    mapping = _pairs_to_nodes(problem, pairs)
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
    assignment problem, :func:`scipy.optimize.linear_sum_assignment`) bounds
    the optimum. Problems with more than :data:`ASSIGNMENT_MAX_CELLS` node
    pairs get the simple bound instead.

    Example:
        >>> from amreval.amr.read import loads_graph
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
    from scipy.optimize import linear_sum_assignment

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
    rows, cols = linear_sum_assignment(table, maximize=True)
    return min(problem.bound, float(table[rows, cols].sum()))


def _kernels() -> Any:
    """The compiled kernels, imported (and Numba with them) on first use, not with the package."""
    from amreval.match import _kernels as kernels

    return kernels


def _remaining(deadline: float) -> float:
    """Seconds left before ``deadline``, at least a few milliseconds (a solver needs some)."""
    return max(0.01, deadline - time.perf_counter())


def align(problem: Problem, search: SearchOptions = SearchOptions(), *, init: np.ndarray | None = None) -> Alignment:
    """Find the best mapping with the chosen solver (see module docs).

    ``"exact"`` certifies in steps, each tried only when the one before could
    not: one climb from the greedy start and its simple bound,
    :func:`assignment_bound`, :func:`lp_bound`, then the random restarts, and
    last the integer program (:func:`solve_milp`) within what is left of the
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
    for bound_of in (assignment_bound, lambda p: lp_bound(p, time_limit=_remaining(deadline))):
        bound = bound_of(problem)
        if result.score >= bound - _BOUND_TOL:
            return Alignment(result.mapping, result.score, result.score, True, result.method, result.climbs)
        result.bound = min(result.bound, bound)
    if search.restarts and problem.n_pairs <= CERTIFY_RESTART_MAX_PAIRS and time.perf_counter() < deadline:
        more = hill_climb(problem, restarts=search.restarts, seed=search.seed, init=init)
        if more.score > result.score + _TOL:
            more.bound = result.bound
            result = more
        else:
            result.climbs += more.climbs
        if result.score >= result.bound - _BOUND_TOL:
            return Alignment(result.mapping, result.score, result.score, True, result.method, result.climbs)
    if time.perf_counter() >= deadline:
        return result
    exact = solve_milp(problem, time_limit=_remaining(deadline))
    best = exact if exact.score > result.score + _TOL else result
    bound = min(exact.bound, result.bound)
    return Alignment(
        best.mapping,
        best.score,
        bound,
        bool(best.score >= bound - _TOL),
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

"""The alignment problem: candidate pairs with unary weights, pairwise terms, and their bound.

A mapping from the nodes of graph A (predicted) to the nodes of graph B (gold)
earns a **unary** weight for each pair ``i -> j`` it uses and a **pairwise**
weight for each two pairs it uses together (see :mod:`amreval.match.alignment`).
:class:`Candidates` restricts which pairs may be used; :func:`build_problem`
builds the :class:`Problem` with the compiled kernels, which are imported on
the first build, not with the package.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields, replace

import numpy as np

from amreval.errors import InputError, TooLarge
from amreval.match.kernels import backend
from amreval.match.kernels.checks import candidate_groups, check_weights, float_array, graph_arrays
from amreval.match.kernels.contract import (
    Adjacency,
    Budget,
    GraphArrays,
    GroupArrays,
    Ints,
    PoolWeights,
    ProblemArrays,
    ProblemBlock,
    SearchSpace,
)
from amreval.match.triples import EncodedPair

__all__ = [
    "Problem",
    "Alignment",
    "Candidates",
    "build_problem",
    "inverse_mapping",
    "is_one_to_one",
    "check_one_to_one",
    "pairs_to_nodes",
    "nodes_to_pairs",
    "MEMORY_BUDGET",
    "memory_estimate",
    "lp_memory_estimate",
]


#: the problem arrays' names, in the order the kernels lay them out (read once: ``fields`` makes a new tuple each call)
ARRAY_NAMES = tuple(f.name for f in fields(ProblemArrays))


@dataclass(kw_only=True)
class Problem(ProblemArrays):
    """A candidate pool with unary and pairwise weights (see module docs), made by :func:`build_problem`
    (:meth:`from_block`); its fields are given by name. Its arrays are the kernels'
    (:class:`~amreval.match.kernels.contract.ProblemArrays`, which it extends), so the kernels and the
    searches above them name the same arrays the same way.

    Attributes:
        n_a, n_b: node counts of graph A and graph B.
        pair_src, pair_tgt, pair_u: the candidate pairs (ordered by source,
            then target) and their unary weights.
        term_p, term_q, term_w: pairwise terms (two pair indices and a weight).
        term_ta, term_tb: the relation triples of A and B each term matches.
        bound: an upper bound on the best score (each triple matched once).
        integral: every weight is 1 (Smatch), so scores are whole numbers and a
            bound proves a score that reaches its whole part.
        groups: the :class:`Candidates` that restricted the pairs, if any (DocSmatch's sentences:
            the blocks :mod:`amreval.match.certify.blocks` bounds one by one).
        restricted: the problem keeps only each node's best candidates, because the whole one is over
            :data:`MEMORY_BUDGET` (:func:`amreval.match.approximate.restricted_problem`): its optimum is a
            lower bound, ``bound`` the whole problem's upper bound, and it is hill climbed, not certified.
    """

    n_a: int
    n_b: int
    bound: float
    integral: bool = False
    groups: Candidates | None = None
    restricted: bool = False
    _adj: Adjacency | None = None
    _rows: Ints | None = None

    @classmethod
    def from_block(
        cls, block: ProblemBlock, *, n_a: int, n_b: int, integral: bool, groups: Candidates | None
    ) -> Problem:
        """The problem the kernels built (its adjacency and row pointers come with it)."""
        return cls(
            n_a=n_a,
            n_b=n_b,
            **{name: getattr(block, name) for name in ARRAY_NAMES},
            bound=block.bound,
            integral=integral,
            groups=groups,
            _adj=block.adjacency,
            _rows=block.rows,
        )

    @property
    def n_pairs(self) -> int:
        """Number of candidate pairs."""
        return int(self.pair_src.shape[0])

    @property
    def n_terms(self) -> int:
        """Number of pairwise terms."""
        return int(self.term_p.shape[0])

    def adjacency(self) -> Adjacency:
        """CSR adjacency of the pairwise terms (computed once)."""
        if self._adj is None:
            self._adj = backend().adjacency_kernel(self.n_pairs, self.term_p, self.term_q, self.term_w)
        return self._adj

    def search_space(self) -> SearchSpace:
        """What the kernels search over: the pairs and the adjacency of the terms."""
        return SearchSpace(self.n_a, self.n_b, self.pair_src, self.pair_tgt, self.pair_u, self.adjacency())

    def restrict(self, keep: np.ndarray) -> tuple[Problem, np.ndarray, np.ndarray]:
        """The problem over the pairs where ``keep`` is true and the terms between them (same nodes and
        groups; its ``bound`` stays this problem's, still an upper bound); the kept pairs' and terms'
        indices here."""
        pairs = np.flatnonzero(keep)
        local = np.full(self.n_pairs, -1, dtype=np.int64)
        local[pairs] = np.arange(len(pairs))
        terms = np.flatnonzero(keep[self.term_p] & keep[self.term_q])
        sub = replace(
            self,
            pair_src=self.pair_src[pairs],
            pair_tgt=self.pair_tgt[pairs],
            pair_u=self.pair_u[pairs],
            term_p=local[self.term_p[terms]],
            term_q=local[self.term_q[terms]],
            term_ta=self.term_ta[terms],
            term_tb=self.term_tb[terms],
            term_w=self.term_w[terms],
            _adj=None,
            _rows=None,
        )
        return sub, pairs, terms

    def set_term_weights(self, weights: np.ndarray) -> None:
        """Lower the pairwise terms' weights (finite, not negative, none above the built ones); the
        adjacency follows, and scores stop counting as whole numbers unless every weight is one.

        Raises:
            InputError: a weight that is not a number, negative, nan or inf, above the one built (the
                problem's bound rests on those: build the problem with the weights instead), or the
                wrong number of weights.
        """
        weights = float_array("term weights", weights)
        if weights.shape != self.term_w.shape:
            raise InputError(f"expected {self.n_terms} term weights, got shape {weights.shape}")
        check_weights("term weights", weights)
        if np.any(weights > self.term_w):
            raise InputError(
                "term weights may only be lowered (the problem's bound rests on the built ones); "
                "build the problem with the weights instead"
            )
        self.integral = self.integral and bool(np.all(weights == self.term_w))
        self.term_w = weights
        self._adj = None

    def rows(self) -> Ints:
        """Where each A node's candidate pairs start in the pair arrays (computed once)."""
        if self._rows is None:
            self._rows = backend().row_pointers_kernel(self.n_a, self.pair_src)
        return self._rows

    def find_pair(self, i: int, j: int) -> int:
        """The index of candidate pair ``(i, j)``, or -1."""
        return backend().find_pair_kernel(self.rows(), self.pair_tgt, i, j)

    def pairs_value(self, pairs: np.ndarray) -> float:
        """The score of a mapping given as a candidate pair per A node (-1 = none), taken as one-to-one.

        Example:
            >>> from amreval.amr.read import loads_graph
            >>> from amreval.match.triples import encode_pair, graph_triples
            >>> g = graph_triples(loads_graph("(a / x :r (b / y))"))
            >>> p = build_problem(encode_pair(g, g))
            >>> p.pairs_value(np.array([0, 1])), p.pairs_value(np.array([0, -1]))
            (4.0, 2.0)
        """
        on = np.zeros(self.n_pairs, dtype=bool)
        on[pairs[pairs >= 0]] = True
        value = float(self.pair_u[on].sum())
        if self.n_terms:
            value += float(self.term_w[on[self.term_p] & on[self.term_q]].sum())
        return value

    def value(self, mapping: np.ndarray) -> float:
        """The score of a mapping given as target node per A node (-1 = none).

        Raises:
            InputError: the mapping is not one target (or -1) per node of A, or not one-to-one.
        """
        mapping = np.asarray(mapping)
        if mapping.shape != (self.n_a,):
            raise InputError(f"the mapping must give a target (or -1) for each of the {self.n_a} nodes")
        check_one_to_one(mapping)
        pairs = nodes_to_pairs(self, mapping)
        pairs = pairs[pairs >= 0]  # ascending: pairs are ordered by node of A
        active = np.zeros(self.n_pairs, dtype=bool)
        active[pairs] = True
        # the unary weights added one at a time in node order (a running sum, not NumPy's pairwise one)
        total = float(np.cumsum(self.pair_u[pairs])[-1]) if len(pairs) else 0.0
        if self.n_terms:
            both = active[self.term_p] & active[self.term_q]
            total += float(self.term_w[both].sum())
        return total


@dataclass
class Alignment:
    """The result of a search.

    Attributes:
        mapping: for each node of A, the node of B it maps to, or -1.
        score: the value of that mapping (the match count for Smatch).
        bound: the best known upper bound on the optimum.
        optimal: whether ``score`` is proven to be the optimum.
        method: what produced the mapping: ``hillclimb``, ``branch-and-bound`` (the exact search),
            ``blocks`` (blocks' choices put into the climb's), ``coupling`` (the coupled search of a
            document, :mod:`amreval.match.certify.coupling`), ``lp`` (the LP relaxation's solution, rounded),
            ``milp``, ``identity`` (two graphs the same up to variable names,
            :func:`amreval.match.approximate.identity_alignment`) or ``restricted`` (a problem over the memory
            budget, :func:`amreval.match.approximate.restricted_problem`).
        climbs: number of hill-climbing runs made.
        over_budget: the whole problem was over :data:`MEMORY_BUDGET` (the mapping was found over each node's
            best candidates, method ``restricted``), or its LP bounds were (the search ended before them): the
            score is a lower bound unless it reaches ``bound``.
        timed_out: the time limit, the search's safety net (:attr:`~amreval.match.options.SearchOptions.time_limit`),
            stopped a step of the search (or a step was skipped because it had run out): unlike a search its work
            limits stop, where it stopped can depend on the machine's speed and load.
    """

    mapping: np.ndarray
    score: float
    bound: float
    optimal: bool
    method: str
    climbs: int = 0
    over_budget: bool = False
    timed_out: bool = False


def sorted_distinct(values: np.ndarray) -> np.ndarray:
    """The distinct values, ascending (``np.unique`` without its masked-array check, which loads ``numpy.ma``)."""
    values = np.sort(values)
    if len(values) < 2:
        return values
    return values[np.concatenate(([True], values[1:] != values[:-1]))]


def is_one_to_one(targets: np.ndarray) -> bool:
    """Whether no two nodes map to one node: ``targets`` a node per node (negative: none)."""
    taken = np.sort(targets[targets >= 0])
    return not bool(np.any(taken[1:] == taken[:-1]))


def check_one_to_one(mapping: np.ndarray, name: str = "the mapping") -> None:
    """Raise unless ``mapping`` (a target node per node of A, -1 none) is one-to-one.

    Raises:
        InputError: two nodes map to one.
    """
    if not is_one_to_one(np.asarray(mapping)):
        raise InputError(f"{name} is not one-to-one: two nodes map to one")


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


#: The memory (bytes) scoring one pair may take beyond what the process held before (the interpreter, the
#: modules and libraries loaded, the graphs read): the problem's arrays and each step's working memory
#: at its peak, per process (each worker has its own). A problem whose build and climbs are over it
#: (:func:`memory_estimate`) is not built: it is aligned over each node's best candidates
#: (:mod:`amreval.match.approximate`), or refused under ``strict``; one whose LP bounds are over it
#: (:func:`lp_memory_estimate`) is certified without them, as far as the steps before go.
MEMORY_BUDGET = 4 * 1024**3
# What the estimates charge, calibrated on measured peaks with a margin (benchmarks/bench_budget.py).
# Building a problem and climbing over it (and the exact search of a small problem or of a document's
# blocks) peaked at ~210 bytes a term where the problem is all terms (two 1000-node chains of distinct
# concepts, a star), ~110 bytes a term and entry together on one-concept chains (300 to 1000 nodes, as
# many entries as terms) and ~140 on a 1000-sentence document of such chains: 240 a term and 80 an entry
# keep the estimate 1.2 to 1.8 times those peaks.
_BYTES_PER_TERM = 240
_BYTES_PER_ENTRY = 80
# HiGHS's LP takes ~4.6 KB a term (its column, its four group rows, their entries) and ~0.65 KB a pair,
# and the priced LP (amreval.match.certify.pricing) grows one solver round by round, whose arrays may be
# held twice while they grow: the worst case is two LPs over every term, the two pairs each term may add,
# and every pair of unary weight (~12 KB a term, ~1.3 KB an entry).
_LP_BYTES_PER_TERM = 12 * 1024
_LP_BYTES_PER_ENTRY = 1536
# the steps' small arrays whatever the size; HiGHS's own memory (~40 MB a solver, two at once) with the LP's
_BYTES_FIXED = 1024**2
_LP_BYTES_FIXED = 128 * 1024**2


def memory_estimate(n_terms: int, n_entries: int) -> int:
    """The memory (bytes) :data:`MEMORY_BUDGET` counts for building a problem of ``n_terms`` pairwise terms
    and ``n_entries`` unary entries (instance, attribute and self-relation matches gathered before they
    are merged into pairs; a dense instance table counts every cell) and for the steps of the search that
    need no LP: the climbs, the exact search (of up to
    :data:`amreval.match.certify.exact.BRANCH_MAX_PAIRS` pairs, or a document's blocks one by one) and the
    assignment bound. The LP steps are counted apart, when they are reached (:func:`lp_memory_estimate`).

    Example:
        >>> memory_estimate(0, 0) // 1024**2, memory_estimate(100_000, 50_000) // 1024**2
        (1, 27)
    """
    return _BYTES_FIXED + n_terms * _BYTES_PER_TERM + n_entries * _BYTES_PER_ENTRY


def lp_memory_estimate(n_terms: int, n_entries: int) -> int:
    """The memory (bytes) the LP steps of the certified search may take at their peak on a problem of
    ``n_terms`` pairwise terms and ``n_entries`` pairs of unary weight: the LP relaxation over all of them
    and the terms, twice (the priced LP's rounds). The integer program is tried only on problems of up to
    :data:`amreval.match.alignment.MILP_MAX_COLUMNS` columns; there it peaked below 0.6 GB within the
    default time limit (a longer limit lets its search grow further).

    Example:
        >>> lp_memory_estimate(0, 0) // 1024**2, lp_memory_estimate(100_000, 50_000) // 1024**2
        (128, 1373)
    """
    return _LP_BYTES_FIXED + n_terms * _LP_BYTES_PER_TERM + n_entries * _LP_BYTES_PER_ENTRY


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
        TooLarge: (an :class:`InputError`) scoring the problem could need more than
            :data:`MEMORY_BUDGET` bytes (:func:`memory_estimate`), counted from the
            triples before anything is allocated, in a time that grows with the
            triples, not the node pairs (the message gives the sizes).
    """
    # the kernels check the graphs' arrays (the groups' first need the sizes those give)
    a = GraphArrays(pair.inst_a, pair.attr_a, pair.rel_a)
    b = GraphArrays(pair.inst_b, pair.attr_b, pair.rel_b)
    candidates, groups = None, None
    if allowed is not None:
        a, b = graph_arrays("A", *a), graph_arrays("B", *b)
        candidates, groups = _groups(allowed, len(a.inst), len(b.inst))
    bw = b_weights or (None, None, None)
    if not isinstance(bw, (tuple, list)) or len(bw) != 3:
        raise InputError("b_weights must be three arrays (or None each): B's instance, attribute and relation weights")
    weights = PoolWeights(instance_weights, *bw)
    budget = Budget(MEMORY_BUDGET - _BYTES_FIXED, _BYTES_PER_TERM, _BYTES_PER_ENTRY)
    try:
        block = backend().build_problem_kernel(a, b, groups, weights, budget)
    except TooLarge as big:
        n_a, n_b = len(a.inst), len(b.inst)
        pairs = min(big.n_entries + 2 * big.n_terms, _node_pairs(n_a, n_b, candidates))
        need = memory_estimate(big.n_terms, big.n_entries)
        raise TooLarge(
            big.n_terms,
            big.n_entries,
            f"the alignment problem of {n_a} x {n_b} nodes has {big.n_terms:,} pairwise terms and up to "
            f"{pairs:,} candidate pairs and needs about {need / 1024**3:,.1f} GiB, over the budget of "
            f"{MEMORY_BUDGET / 1024**3:.1f} GiB; split the graph (DocSmatch: :sntK edges restrict alignments "
            "to their sentence)",
        ) from None
    integral = instance_weights is None and b_weights is None
    return Problem.from_block(block, n_a=len(a.inst), n_b=len(b.inst), integral=integral, groups=candidates)


def _node_pairs(n_a: int, n_b: int, candidates: Candidates | None) -> int:
    """How many node pairs may align at most: all, or those of each group (a pair sharing several counted
    in each)."""
    if candidates is None:
        return n_a * n_b
    a_ids, b_ids = candidates.a_ids.astype(np.int64), candidates.b_ids.astype(np.int64)
    if not (len(a_ids) and len(b_ids)):
        return 0
    ids = sorted_distinct(np.concatenate([a_ids, b_ids]))
    in_a = np.bincount(np.searchsorted(ids, a_ids), minlength=len(ids))
    in_b = np.bincount(np.searchsorted(ids, b_ids), minlength=len(ids))
    return int(np.dot(in_a, in_b))


def _groups(allowed: Candidates | np.ndarray, n_a: int, n_b: int) -> tuple[Candidates, GroupArrays]:
    """The restriction as :class:`Candidates` and as the kernels take it: group ids numbered 0 ..
    n_groups - 1 in the same order, so each node's stay sorted.

    Raises:
        InputError: ``allowed`` of another kind or shape, or groups that are not CSR rows (see
            :func:`amreval.match.kernels.checks.candidate_groups`).
    """
    if not isinstance(allowed, (Candidates, np.ndarray)):
        raise InputError(f"allowed must be Candidates or an {n_a} x {n_b} boolean array, got {type(allowed).__name__}")
    if isinstance(allowed, np.ndarray):
        if allowed.shape != (n_a, n_b):
            raise InputError(f"allowed must have shape {(n_a, n_b)}, got {allowed.shape}")
        allowed = Candidates.from_matrix(allowed)
    a_ptr, a_ids, b_ptr, b_ids = candidate_groups(allowed.a_ptr, allowed.a_ids, allowed.b_ptr, allowed.b_ids, n_a, n_b)
    ids = sorted_distinct(np.concatenate([a_ids, b_ids]))
    groups = GroupArrays(a_ptr, np.searchsorted(ids, a_ids), b_ptr, np.searchsorted(ids, b_ids), max(1, len(ids)))
    return allowed, groups


def pairs_to_nodes(problem: Problem, pairs: np.ndarray) -> np.ndarray:
    """A mapping (target node per A node, -1 none) from chosen pair indices per A node."""
    mapping = np.full(problem.n_a, -1, dtype=np.int64)
    sel = pairs >= 0
    mapping[sel] = problem.pair_tgt[pairs[sel]]
    return mapping


def nodes_to_pairs(problem: Problem, mapping: np.ndarray) -> np.ndarray:
    """The candidate pair index per A node of a mapping (-1 where none, or where ``i -> j`` is no candidate)."""
    mapping = np.asarray(mapping, dtype=np.int64)
    pairs = np.full(problem.n_a, -1, dtype=np.int64)
    sel = np.nonzero((mapping >= 0) & (mapping < problem.n_b))[0]
    if sel.size and problem.n_pairs:
        # pairs are ordered by source, then target: their keys ascend
        keys = problem.pair_src * problem.n_b + problem.pair_tgt
        wanted = sel * problem.n_b + mapping[sel]
        at = np.minimum(np.searchsorted(keys, wanted), problem.n_pairs - 1)
        hit = keys[at] == wanted
        pairs[sel[hit]] = at[hit]
    return pairs

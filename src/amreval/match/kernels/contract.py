"""The contract between the alignment engine and its kernels: their inputs, results and signatures.

Two backends implement :class:`KernelBackend`, with identical results to the
last bit: the compiled C (``_kernels.c``, called through :mod:`ctypes`) and its
specification in plain Python (``_pool.py``, ``_climb.py``, ``_branch.py``,
``_assign.py``); :func:`amreval.match.kernels.backends.kernels` picks one. Both check
their inputs the same way, in :mod:`amreval.match.kernels.checks`, before they run.

Naming: every entry point of the kernel layer ends in ``_kernel`` (the methods
of :class:`KernelBackend` and the Python functions behind them), so none shares
a name with the functions of the public layer (:func:`amreval.match.build_problem`,
:func:`amreval.match.hill_climb`, :func:`amreval.match.certify.exact.branch_and_bound`,
:meth:`amreval.match.Problem.find_pair`) that call them; the C function behind
``x_kernel`` is ``amr_x`` (``exact_search_kernel`` prepares the search of ``branch_and_bound_kernel``,
``amr_branch_and_bound``, for many calls over one space).

The problem the C builds comes back as one block of 8-byte items holding twelve
arrays one after the other; :data:`BLOCK_LAYOUT` is where each lies, the one
definition of it (``amr_block_layout`` in ``_kernels.c`` writes the same
offsets, which the tests compare).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, fields
from functools import lru_cache
from typing import Any, NamedTuple, Protocol

import numpy as np
from numpy.typing import NDArray

__all__ = [
    "Ints",
    "Floats",
    "GraphArrays",
    "GroupArrays",
    "one_group",
    "PoolWeights",
    "Budget",
    "Adjacency",
    "BlockCounts",
    "BlockField",
    "ProblemArrays",
    "BLOCK_LAYOUT",
    "block_offsets",
    "block_size",
    "block_views",
    "pack_block",
    "ProblemBlock",
    "SearchSpace",
    "ClimbResult",
    "SearchResult",
    "ExactSearch",
    "AssignmentResult",
    "KernelBackend",
]

#: The kernels' integer arrays (node, pair, term and vocabulary indices) and float arrays (weights).
Ints = NDArray[np.int64]
Floats = NDArray[np.float64]


class GraphArrays(NamedTuple):
    """One encoded graph: ``inst`` (n,) each node's concept id, ``attr`` (m, 2) rows ``(node, id)``,
    ``rel`` (r, 3) rows ``(id, source node, target node)``."""

    inst: Ints
    attr: Ints
    rel: Ints


class GroupArrays(NamedTuple):
    """Which nodes may align: node ``i`` of A with node ``j`` of B when they share a group. Each
    node's groups, ascending ids below ``n_groups``, are ``a_ids[a_ptr[i]:a_ptr[i + 1]]`` (of B alike)."""

    a_ptr: Ints
    a_ids: Ints
    b_ptr: Ints
    b_ids: Ints
    n_groups: int


# the one group of an unconstrained problem, for graphs of up to 511 nodes (read only)
_RANGE = np.arange(512, dtype=np.int64)
_ZEROS = np.zeros(511, dtype=np.int64)
_RANGE.flags.writeable = False
_ZEROS.flags.writeable = False


def one_group(n_a: int, n_b: int) -> GroupArrays:
    """One group for all: every node of A may align with every node of B (read-only arrays).

    Example:
        >>> [x.tolist() for x in one_group(2, 1)[:4]]
        [[0, 1, 2], [0, 0], [0, 1], [0]]
    """
    if max(n_a, n_b) < 512:
        return _small_group(n_a, n_b)
    ptr_a, ptr_b = np.arange(n_a + 1, dtype=np.int64), np.arange(n_b + 1, dtype=np.int64)
    ids_a, ids_b = np.zeros(n_a, dtype=np.int64), np.zeros(n_b, dtype=np.int64)
    for array in (ptr_a, ids_a, ptr_b, ids_b):
        array.flags.writeable = False
    return GroupArrays(ptr_a, ids_a, ptr_b, ids_b, 1)


@lru_cache(maxsize=4096)
def _small_group(n_a: int, n_b: int) -> GroupArrays:
    # views of the two arrays above, made once per size
    return GroupArrays(_RANGE[: n_a + 1], _ZEROS[:n_a], _RANGE[: n_b + 1], _ZEROS[:n_b], 1)


class PoolWeights(NamedTuple):
    """The weights a problem is built with. ``instance``: the ``n_a x n_b`` credit of matching two
    instance triples (None: 1 for equal concepts, else 0); ``inst_b``, ``attr_b``, ``rel_b``: the
    weights of B's instance, attribute and relation triples (None: all 1)."""

    instance: Floats | None = None
    inst_b: Floats | None = None
    attr_b: Floats | None = None
    rel_b: Floats | None = None


class Budget(NamedTuple):
    """The memory a problem may take: ``limit`` bytes, counted as ``per_term`` bytes per pairwise term
    and ``per_entry`` bytes per node pair gathered, before anything is allocated."""

    limit: int
    per_term: int
    per_entry: int


class Adjacency(NamedTuple):
    """The pairwise terms as a symmetric CSR adjacency of the pairs: pair ``p``'s neighbours are
    ``nbr[ptr[p]:ptr[p + 1]]``, with the terms' weights ``w`` (each term once at each end)."""

    ptr: Ints
    nbr: Ints
    w: Floats


class BlockCounts(NamedTuple):
    """The sizes a problem block's arrays follow from."""

    n_a: int
    n_pairs: int
    n_terms: int


class BlockField(NamedTuple):
    """One array of the block: its name (a field of :class:`ProblemBlock`), its type and its length."""

    name: str
    dtype: type[np.int64] | type[np.float64]
    length: Callable[[BlockCounts], int]


def _per_pair(counts: BlockCounts) -> int:
    return counts.n_pairs


def _per_term(counts: BlockCounts) -> int:
    return counts.n_terms


@dataclass(kw_only=True)
class ProblemArrays:
    """The arrays of an alignment problem, the one list of them: the Python build makes them, the block
    (:class:`ProblemBlock`) and :class:`amreval.match.problem.Problem` extend them, and
    :data:`BLOCK_LAYOUT` lays them out first, each with the type and length its field's metadata gives.

    Candidate pairs (``pair_src``, ``pair_tgt``, unary weight ``pair_u``) are ordered by source, then
    target; terms (pairs ``term_p``, ``term_q``, the relation triples ``term_ta`` of A and ``term_tb`` of
    B they match, weight ``term_w``) by (relation of A, relation of B).
    """

    pair_src: Ints = field(metadata={"dtype": np.int64, "length": _per_pair})
    pair_tgt: Ints = field(metadata={"dtype": np.int64, "length": _per_pair})
    pair_u: Floats = field(metadata={"dtype": np.float64, "length": _per_pair})
    term_p: Ints = field(metadata={"dtype": np.int64, "length": _per_term})
    term_q: Ints = field(metadata={"dtype": np.int64, "length": _per_term})
    term_ta: Ints = field(metadata={"dtype": np.int64, "length": _per_term})
    term_tb: Ints = field(metadata={"dtype": np.int64, "length": _per_term})
    term_w: Floats = field(metadata={"dtype": np.float64, "length": _per_term})


#: The problem block, array by array, in order (see module docs): the :class:`ProblemArrays`, then their
#: adjacency and row pointers. ``amr_block_layout`` in ``_kernels.c`` follows it; change both together.
BLOCK_LAYOUT: tuple[BlockField, ...] = (
    *(BlockField(f.name, f.metadata["dtype"], f.metadata["length"]) for f in fields(ProblemArrays)),
    BlockField("adj_ptr", np.int64, lambda c: c.n_pairs + 1),
    BlockField("adj_nbr", np.int64, lambda c: 2 * c.n_terms),
    BlockField("adj_w", np.float64, lambda c: 2 * c.n_terms),
    BlockField("rows", np.int64, lambda c: c.n_a + 1),
)


def block_offsets(counts: BlockCounts) -> list[int]:
    """Where each array of :data:`BLOCK_LAYOUT` starts in the block (in items), and last the block's length.

    Example:
        >>> block_offsets(BlockCounts(n_a=2, n_pairs=3, n_terms=1))
        [0, 3, 6, 9, 10, 11, 12, 13, 14, 18, 20, 22, 25]
    """
    offsets = [0]
    at = 0
    for array in BLOCK_LAYOUT:
        at += array.length(counts)
        offsets.append(at)
    return offsets


def block_size(counts: BlockCounts) -> int:
    """The block's length in 8-byte items."""
    return block_offsets(counts)[-1]


@dataclass(kw_only=True)
class ProblemBlock(ProblemArrays):
    """A built problem (:meth:`KernelBackend.build_problem_kernel`): the arrays of :data:`BLOCK_LAYOUT`,
    views into one block, and the simple bound; its fields are the layout's arrays in order, then ``bound``.

    The :class:`ProblemArrays`; ``adj_*``, their :class:`Adjacency`; ``rows``, where each node of A's pairs
    start. ``bound``: every triple matched at most once, each for the most it can earn.
    """

    adj_ptr: Ints
    adj_nbr: Ints
    adj_w: Floats
    rows: Ints
    bound: float

    @property
    def adjacency(self) -> Adjacency:
        """The terms' adjacency."""
        return Adjacency(self.adj_ptr, self.adj_nbr, self.adj_w)


def block_views(block: Ints, offsets: list[int], bound: float) -> ProblemBlock:
    """The arrays of a block laid out as :data:`BLOCK_LAYOUT` says, at ``offsets`` (:func:`block_offsets`
    of its counts): views, no copies."""
    floats = block.view(np.float64)
    views: dict[str, Any] = {
        array.name: (floats if array.dtype is np.float64 else block)[at:end]
        for array, at, end in zip(BLOCK_LAYOUT, offsets, offsets[1:])
    }
    return ProblemBlock(**views, bound=float(bound))


def pack_block(counts: BlockCounts, bound: float, arrays: dict[str, Ints | Floats]) -> ProblemBlock:
    """A new block holding ``arrays`` (by name, as :data:`BLOCK_LAYOUT` lists them)."""
    offsets = block_offsets(counts)
    views = block_views(np.empty(offsets[-1], dtype=np.int64), offsets, bound)
    for array in BLOCK_LAYOUT:
        view: Ints | Floats = getattr(views, array.name)
        view[:] = arrays[array.name]
    return views


class SearchSpace(NamedTuple):
    """What a search runs over: ``n_a`` and ``n_b`` nodes, the candidate pairs (ordered by source, then
    target) with their unary weights, and the pairwise terms' adjacency."""

    n_a: int
    n_b: int
    pair_src: Ints
    pair_tgt: Ints
    pair_u: Floats
    adjacency: Adjacency


class ClimbResult(NamedTuple):
    """What :meth:`KernelBackend.hill_climb_kernel` found: the best mapping as a pair index per node of
    A (-1 none), its score and the climbs run."""

    pairs: Ints
    score: float
    climbs: int


class SearchResult(NamedTuple):
    """What :meth:`KernelBackend.branch_and_bound_kernel` found: the best mapping as a pair index per node
    of A (-1 none), its value, whether the search ended within its limit (so no mapping is better by
    more than its gap) and the subtrees entered."""

    pairs: Ints
    value: float
    proven: bool
    nodes: int


class ExactSearch(Protocol):
    """What :meth:`KernelBackend.exact_search_kernel` gives: a search over its space, called with the unary
    weights ``pair_u`` (one per pair), the incumbent ``init`` (a pair per node of A, -1 none), ``gap`` and
    ``node_limit`` as :meth:`KernelBackend.branch_and_bound_kernel` takes them."""

    def __call__(self, pair_u: Floats, init: Ints, gap: float, node_limit: int, /) -> SearchResult: ...


class AssignmentResult(NamedTuple):
    """What :meth:`KernelBackend.sparse_assignment_kernel` found: a pair per row (-1 none) and their total."""

    pairs: Ints
    total: float


class KernelBackend(Protocol):
    """The kernels, as both backends give them (see module docs).

    Raises (every method): :class:`amreval.errors.InputError` for inputs the kernel would index out
    of bounds with or that break its results, the same for both backends; ``MemoryError`` when the C
    runs out of memory.
    """

    #: ``"c"`` or ``"python"``.
    name: str

    def build_problem_kernel(
        self, a: GraphArrays, b: GraphArrays, groups: GroupArrays | None, weights: PoolWeights, budget: Budget
    ) -> ProblemBlock:
        """The candidate pool, its terms, their adjacency, the row pointers and the bound, in one block.

        A pair ``i -> j`` of a shared group (``groups`` None: :func:`one_group`) is a candidate when it
        earns unary weight (matching instance and attribute triples, relations from a node to itself) or
        is an end of a term (a relation of A matching one of B between two other candidates).

        Raises:
            amreval.errors.TooLarge: the terms and node pairs would take more memory than ``budget``.
        """
        ...

    def adjacency_kernel(self, n_pairs: int, term_p: Ints, term_q: Ints, term_w: Floats) -> Adjacency:
        """The adjacency of the terms between ``n_pairs`` pairs."""
        ...

    def row_pointers_kernel(self, n_a: int, pair_src: Ints) -> Ints:
        """Where each of the ``n_a`` nodes' pairs start (``n_a + 1`` entries; pairs ordered by source)."""
        ...

    def find_pair_kernel(self, rows: Ints, pair_tgt: Ints, i: int, j: int) -> int:
        """The index of pair ``i -> j``, or -1."""
        ...

    def hill_climb_kernel(
        self, space: SearchSpace, *, restarts: int, seed: int, bound: float, init: Ints
    ) -> ClimbResult:
        """Smatch's hill climbing: from ``init`` (a pair per node of A) or, when it is empty, a greedy
        start, then ``restarts`` random starts from ``seed``; stops once a climb reaches ``bound``."""
        ...

    def branch_and_bound_kernel(
        self, space: SearchSpace, *, rows: Ints, init: Ints, gap: float, node_limit: int
    ) -> SearchResult:
        """The exact search from the incumbent ``init`` (a pair per node of A), entering at most
        ``node_limit`` subtrees; a mapping replaces the incumbent only when more than ``gap`` better."""
        ...

    def exact_search_kernel(self, space: SearchSpace, *, rows: Ints) -> ExactSearch:
        """:meth:`branch_and_bound_kernel` over ``space`` and ``rows``, checked once, for many searches that
        change only the unary weights and the incumbent (a document's blocks as their shares move)."""
        ...

    def sparse_assignment_kernel(
        self, n_rows: int, n_cols: int, row_ptr: Ints, cols: Ints, value: Floats
    ) -> AssignmentResult:
        """The best one-to-one assignment over the pairs of each row (CSR), values not negative."""
        ...

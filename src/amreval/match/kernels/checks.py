"""The checks of the kernels' inputs, made before either backend runs (one place for both).

The C kernels index with what they are given, so an array of the wrong length
or an index out of range would read or write out of bounds; the Python ones
would fail or give a result that means nothing. Each ``checked_*`` function
returns its inputs as contiguous ``int64`` and ``float64`` arrays, or raises
:class:`amreval.errors.InputError` saying which array and what was expected.
A search space's lengths are checked, not each of its indices (see
:func:`checked_space`): they come from the kernel that built the problem.
:class:`amreval.match.kernels.backends.CKernels` and
:class:`amreval.match.kernels.backends.PythonKernels` call them (through their shared
base) before they dispatch; :func:`amreval.match.build_problem` calls the ones
it needs earlier on the user's arrays.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from amreval.errors import InputError
from amreval.match.kernels.contract import (
    Adjacency,
    Floats,
    GraphArrays,
    GroupArrays,
    Ints,
    PoolWeights,
    SearchSpace,
)

__all__ = [
    "as_ints",
    "as_floats",
    "float_array",
    "check_weights",
    "graph_arrays",
    "check_graph",
    "candidate_groups",
    "checked_groups",
    "checked_weights",
    "checked_terms",
    "checked_sources",
    "checked_space",
    "checked_start",
    "checked_incumbent",
    "checked_rows",
    "checked_assignment",
    "checked_count",
]

# vocabulary ids are combined with group numbers in 64 bits
_MAX_ID = 2**31


def as_ints(a: ArrayLike) -> Ints:
    """``a`` as a contiguous int64 array (itself when it is one)."""
    return np.ascontiguousarray(a, dtype=np.int64)


def as_floats(a: ArrayLike) -> Floats:
    """``a`` as a contiguous float64 array (itself when it is one)."""
    return np.ascontiguousarray(a, dtype=np.float64)


def float_array(name: str, values: ArrayLike) -> Floats:
    """``values`` as a contiguous float64 array.

    Raises:
        InputError: they are not numbers.
    """
    try:
        return as_floats(values)
    except (TypeError, ValueError) as err:
        raise InputError(f"{name} must be numbers: {err}") from None


def check_weights(name: str, values: Floats) -> None:
    """Weights must be finite and not negative: the bounds and the integer program rest on it."""
    if values.size and not (np.isfinite(values).all() and values.min() >= 0.0):
        bad = values[~np.isfinite(values) | (values < 0)][0]
        raise InputError(f"{name} must be finite and not negative, got {float(bad)!r}")


def graph_arrays(side: str, inst: ArrayLike, attr: ArrayLike, rel: ArrayLike) -> GraphArrays:
    """One encoded graph's arrays, of the right shapes and integer types, as int64.

    Raises:
        InputError: arrays of other shapes (``inst`` (n,), ``attr`` (m, 2), ``rel`` (r, 3)), not of
            integers, or unsigned values past 2**63 (they would turn negative in 64-bit integers).
    """
    inst, attr, rel = np.asarray(inst), np.asarray(attr), np.asarray(rel)
    if inst.ndim != 1 or attr.ndim != 2 or attr.shape[1] != 2 or rel.ndim != 2 or rel.shape[1] != 3:
        raise InputError(f"encoded graph {side}: expected inst (n,), attr (m, 2) and rel (r, 3) arrays")
    kinds = inst.dtype.kind + attr.dtype.kind + rel.dtype.kind
    if kinds.strip("iu"):
        raise InputError(f"encoded graph {side}: expected integer arrays")
    if "u" in kinds:
        for x in (inst, attr, rel):
            if x.dtype.kind == "u" and x.size and int(x.max()) >= 2**63:
                raise InputError(f"encoded graph {side}: values must lie below 2**63, got {int(x.max())}")
    as_int64 = np.ascontiguousarray
    return GraphArrays(as_int64(inst, np.int64), as_int64(attr, np.int64), as_int64(rel, np.int64))


def _below(a: Ints, n: int) -> bool:
    """Whether every entry of ``a`` lies in ``[0, n)``, in one pass: as unsigned 64-bit integers negative
    entries are 2**63 or more."""
    return not a.size or int(a.view(np.uint64).max()) < n


def check_graph(side: str, graph: GraphArrays) -> None:
    """What one graph's triples name: vocabulary ids within ±2**31, nodes of the graph.

    Raises:
        InputError: an id beyond ±2**31 or a triple naming a node the graph does not have (the first
            found, in array order).
    """
    inst, attr, rel = graph
    # as lists: a sentence's graph has tens of triples, where a pass in Python beats NumPy's calls
    attr_nodes, attr_ids = attr.T.tolist()
    rel_ids, sources, targets = rel.T.tolist()
    ids = inst.tolist() + attr_ids + rel_ids
    if ids and (min(ids) <= -_MAX_ID or max(ids) >= _MAX_ID):
        raise InputError(
            f"encoded graph {side}: vocabulary ids must lie within ±2**31 (encode_pair numbers them densely)"
        )
    n = len(inst)
    nodes = attr_nodes + sources + targets
    if nodes and (min(nodes) < 0 or max(nodes) >= n):
        # the first in array order: attributes, then relations row by row
        bad = next(x for x in attr_nodes + rel[:, 1:].ravel().tolist() if not 0 <= x < n)
        raise InputError(f"encoded graph {side}: a triple names node {bad}, the graph has {n} nodes")


def _group_rows(name: str, ptr: ArrayLike, ids: ArrayLike) -> tuple[Ints, Ints]:
    """``ptr``/``ids`` as CSR rows: integers, from 0 to ``len(ids)``, never decreasing, each row's ids ascending."""
    ptr, ids = np.asarray(ptr), np.asarray(ids)
    if ptr.dtype.kind not in "iu" or ids.dtype.kind not in "iu":
        raise InputError(f"candidate groups of {name}: ptr and ids must be integer arrays")
    if (
        ptr.ndim != 1
        or ids.ndim != 1
        or len(ptr) == 0
        or ptr[0] != 0
        or ptr[-1] != len(ids)
        or np.any(np.diff(ptr) < 0)
    ):
        raise InputError(f"candidate groups of {name}: ptr must rise from 0 to len(ids) = {len(ids)}")
    steps = np.diff(ids)
    starts = np.zeros(len(ids), dtype=bool)
    starts[ptr[:-1][ptr[:-1] < len(ids)]] = True
    if np.any(steps[~starts[1:]] < 0):
        raise InputError(f"candidate groups of {name}: each node's group ids must be in ascending order")
    return as_ints(ptr), as_ints(ids)


def candidate_groups(
    a_ptr: ArrayLike, a_ids: ArrayLike, b_ptr: ArrayLike, b_ids: ArrayLike, n_a: int, n_b: int
) -> tuple[Ints, Ints, Ints, Ints]:
    """The groups of the ``n_a`` nodes of A and ``n_b`` of B as CSR rows (see :class:`GroupArrays`).

    Raises:
        InputError: not one row per node, or rows that are not CSR rows of ascending integers.
    """
    a_ptr, b_ptr = np.asarray(a_ptr), np.asarray(b_ptr)
    if len(a_ptr) != n_a + 1 or len(b_ptr) != n_b + 1:
        raise InputError(
            f"the candidate groups have {len(a_ptr)} x {len(b_ptr)} row pointers, "
            f"expected one more than the nodes: {n_a + 1} x {n_b + 1}"
        )
    return (*_group_rows("A", a_ptr, a_ids), *_group_rows("B", b_ptr, b_ids))


def checked_groups(groups: GroupArrays, n_a: int, n_b: int) -> GroupArrays:
    """:func:`candidate_groups`, with ids below ``n_groups``.

    Raises:
        InputError: as :func:`candidate_groups`, or an id outside ``[0, n_groups)``.
    """
    a_ptr, a_ids, b_ptr, b_ids = candidate_groups(*groups[:4], n_a, n_b)
    n_groups = int(groups.n_groups)
    if not (_below(a_ids, n_groups) and _below(b_ids, n_groups)):
        raise InputError(f"candidate groups: ids must lie in [0, {n_groups})")
    return GroupArrays(a_ptr, a_ids, b_ptr, b_ids, n_groups)


def _b_weights(values: ArrayLike | None, n: int) -> Floats | None:
    if values is None:
        return None
    arr = float_array("b_weights", values)
    if arr.shape != (n,):
        raise InputError(f"expected {n} weights, got shape {arr.shape}")
    check_weights("b_weights", arr)
    return arr


def checked_weights(weights: PoolWeights, a: GraphArrays, b: GraphArrays) -> PoolWeights:
    """The weights of a problem between graphs ``a`` and ``b`` (see :class:`PoolWeights`).

    Raises:
        InputError: weights that are not numbers, negative, nan or inf, or not one per cell (``instance``,
            ``n_a x n_b``) or per triple of B.
    """
    if weights.instance is None and weights.inst_b is None and weights.attr_b is None and weights.rel_b is None:
        return weights
    instance = None
    if weights.instance is not None:
        instance = float_array("instance_weights", weights.instance)
        if instance.shape != (len(a.inst), len(b.inst)):
            raise InputError(f"instance_weights must have shape {(len(a.inst), len(b.inst))}, got {instance.shape}")
        check_weights("instance_weights", instance)
    return PoolWeights(
        instance,
        _b_weights(weights.inst_b, len(b.inst)),
        _b_weights(weights.attr_b, len(b.attr)),
        _b_weights(weights.rel_b, len(b.rel)),
    )


def checked_terms(n_pairs: int, term_p: ArrayLike, term_q: ArrayLike, term_w: ArrayLike) -> tuple[Ints, Ints, Floats]:
    """Terms between ``n_pairs`` pairs: ``term_p``, ``term_q``, ``term_w``, one entry per term.

    Raises:
        InputError: arrays of different lengths, or a term naming a pair outside ``[0, n_pairs)``.
    """
    term_p, term_q, term_w = as_ints(term_p), as_ints(term_q), as_floats(term_w)
    if not (term_p.shape == term_q.shape == term_w.shape and term_p.ndim == 1):
        raise InputError("term_p, term_q and term_w must hold one entry per term")
    if not (_below(term_p, n_pairs) and _below(term_q, n_pairs)):
        raise InputError(f"terms must join pairs in [0, {n_pairs})")
    return term_p, term_q, term_w


def checked_sources(n_a: int, pair_src: ArrayLike) -> Ints:
    """Pairs' source nodes, each in ``[0, n_a)``.

    Raises:
        InputError: a source outside ``[0, n_a)``.
    """
    pair_src = as_ints(pair_src)
    if not _below(pair_src, n_a):
        raise InputError(f"pair_src must name nodes in [0, {n_a})")
    return pair_src


def checked_space(space: SearchSpace) -> SearchSpace:
    """A search space whose arrays fit one another (see :class:`SearchSpace`).

    The lengths are checked, and where the adjacency starts and ends; the pairs' and neighbours'
    indices are taken as :meth:`~amreval.match.kernels.contract.KernelBackend.build_problem_kernel` made them
    (checking each would cost a pass over every array on each search of a sentence's problem).

    Raises:
        InputError: pair arrays of different lengths, or an adjacency that is not CSR over the pairs.
    """
    n_a, n_b, src, tgt, u, (ptr, nbr, w) = space
    n_a, n_b = int(n_a), int(n_b)
    contiguous, i64, f64 = np.ascontiguousarray, np.int64, np.float64
    src, tgt, u = contiguous(src, i64), contiguous(tgt, i64), contiguous(u, f64)
    ptr, nbr, w = contiguous(ptr, i64), contiguous(nbr, i64), contiguous(w, f64)
    n = len(src)
    if len(tgt) != n or len(u) != n or len(ptr) != n + 1 or len(nbr) != len(w) or n_a < 0 or n_b < 0:
        raise InputError(
            "the search space: pair_src, pair_tgt and pair_u must hold one entry per pair, the adjacency's ptr "
            "one more, its nbr and w one per neighbour"
        )
    if ptr[0] != 0 or ptr[-1] != len(nbr):
        raise InputError("the search space: the adjacency's ptr must run from 0 to len(nbr)")
    return SearchSpace(n_a, n_b, src, tgt, u, Adjacency(ptr, nbr, w))


def _pairs_per_node(name: str, init: ArrayLike, space: SearchSpace, allowed: tuple[int, ...]) -> Ints:
    init = as_ints(init)
    if init.ndim != 1 or len(init) not in allowed or (len(init) and not _below(init + 1, len(space.pair_src) + 1)):
        raise InputError(f"{name} must hold a pair index (or -1) for each of the {space.n_a} nodes")
    return init


def checked_start(space: SearchSpace, init: ArrayLike) -> Ints:
    """A climb's start: a pair index (or -1) per node of A, or nothing (the greedy start).

    Raises:
        InputError: of another length, or an index that is no pair.
    """
    return _pairs_per_node("init", init, space, (0, space.n_a))


def checked_incumbent(space: SearchSpace, init: ArrayLike) -> Ints:
    """An exact search's incumbent: a pair index (or -1) per node of A.

    Raises:
        InputError: of another length, or an index that is no pair.
    """
    return _pairs_per_node("init", init, space, (space.n_a,))


def checked_rows(space: SearchSpace, rows: ArrayLike) -> Ints:
    """Where each node of A's pairs start: from 0 to the number of pairs over ``n_a + 1`` entries.

    Raises:
        InputError: otherwise.
    """
    rows = as_ints(rows)
    if (
        rows.shape != (space.n_a + 1,)
        or rows[0] != 0
        or rows[-1] != len(space.pair_src)
        or (rows[1:] < rows[:-1]).any()
    ):
        raise InputError(f"rows must rise from 0 to the number of pairs over {space.n_a + 1} entries")
    return rows


def checked_assignment(
    n_rows: int, n_cols: int, row_ptr: ArrayLike, cols: ArrayLike, value: ArrayLike
) -> tuple[int, int, Ints, Ints, Floats]:
    """An assignment problem's pairs: each row's columns and values (CSR).

    Raises:
        InputError: ``row_ptr`` not rising from 0 to ``len(cols)`` over ``n_rows + 1`` entries, values not
            one per column, or a column outside ``[0, n_cols)``.
    """
    n_rows, n_cols = int(n_rows), int(n_cols)
    row_ptr, cols, value = as_ints(row_ptr), as_ints(cols), as_floats(value)
    if len(row_ptr) != n_rows + 1 or row_ptr[0] != 0 or row_ptr[-1] != len(cols) or len(value) != len(cols):
        raise InputError("row_ptr must rise from 0 to len(cols) over n_rows + 1 entries, value one per col")
    if (row_ptr[1:] < row_ptr[:-1]).any() or not _below(cols, n_cols):
        raise InputError(f"row_ptr must not decrease and cols must lie in [0, {n_cols})")
    return n_rows, n_cols, row_ptr, cols, value


def checked_count(name: str, value: int, low: int, high: int) -> int:
    """An integer in ``[low, high)`` (what the C takes in 64 bits).

    Raises:
        InputError: outside it.
    """
    value = int(value)
    if not low <= value < high:
        raise InputError(f"{name} must be an integer in [{low}, {high}), got {value}")
    return value

"""The alignment kernels: compiled C, or the same algorithms in Python where the C is not built.

Both backends implement :class:`amreval.match.kernels.contract.KernelBackend` (see there
for the kernels, their inputs and named results). :mod:`amreval.match.kernels._pool`
(the problem: candidate pool, terms, adjacency, row pointers),
:mod:`amreval.match.kernels._climb` (smatch's hill climbing), :mod:`amreval.match.kernels._branch`
(the exact search by branch and bound) and :mod:`amreval.match.kernels._assign` (the
sparse assignment) hold them in plain Python: :class:`PythonKernels`.
``_kernels.c`` is their translation to C, built at install time as the
extension module ``amreval.match.kernels._ckernels`` and called through :mod:`ctypes`,
which releases the GIL while a kernel runs: :class:`CKernels`. Both give
identical results, to the last bit (the tests compare them on random problems),
and both check their inputs first, the same way (:mod:`amreval.match.kernels.checks`).

:func:`kernels` picks one on first use (importing the package loads neither; the rest of
:mod:`amreval.match` asks :func:`amreval.match.kernels.backend` for it):
the C unless the extension is missing or ``AMREVAL_KERNELS=python`` asks for
Python (slower by one to two orders of magnitude; a warning says so when the
extension is missing). Nothing is compiled or cached at run time, so a
read-only install works as any other.
"""

from __future__ import annotations

import ctypes
import importlib
import os
import warnings
from abc import ABC, abstractmethod
from functools import cache
from typing import Any

import numpy as np

from amreval.errors import AmrevalWarning, InputError, MissingDependencyError, TooLarge
from amreval.match.kernels.checks import (
    check_graph,
    checked_assignment,
    checked_count,
    checked_groups,
    checked_incumbent,
    checked_rows,
    checked_sources,
    checked_space,
    checked_start,
    checked_terms,
    checked_weights,
    graph_arrays,
)
from amreval.match.kernels.contract import (
    BLOCK_LAYOUT,
    Adjacency,
    AssignmentResult,
    BlockCounts,
    Budget,
    ClimbResult,
    ExactSearch,
    Floats,
    GraphArrays,
    GroupArrays,
    Ints,
    KernelBackend,
    PoolWeights,
    ProblemBlock,
    SearchResult,
    SearchSpace,
    block_offsets,
    block_views,
    one_group,
)

__all__ = ["kernels", "CKernels", "PythonKernels", "KERNELS_ENV"]

#: Set to ``python`` to run the pure-Python kernels even where the C is built (``c``: the C or an error).
KERNELS_ENV = "AMREVAL_KERNELS"
_REINSTALL = (
    "where a C compiler and the Python headers are installed (Debian: build-essential python3-dev), "
    "reinstall without pip's cached wheel: pip install --no-cache-dir --force-reinstall amreval"
)
#: The exact search's subtree limit is clamped to this (the C counts in 64 bits).
_NODE_LIMIT_MAX = 2**62
_INT64 = (-(2**63), 2**63)


class _Checked(ABC):
    """What both backends share: each kernel checks its inputs (:mod:`amreval.match.kernels.checks`), then runs
    the backend's own implementation (``_build_problem`` and so on), which may trust them."""

    name: str

    def build_problem_kernel(
        self, a: GraphArrays, b: GraphArrays, groups: GroupArrays | None, weights: PoolWeights, budget: Budget
    ) -> ProblemBlock:
        """See :meth:`amreval.match.kernels.contract.KernelBackend.build_problem_kernel`."""
        a, b = graph_arrays("A", *a), graph_arrays("B", *b)
        check_graph("A", a)
        check_graph("B", b)
        n_a, n_b = len(a.inst), len(b.inst)
        groups = one_group(n_a, n_b) if groups is None else checked_groups(groups, n_a, n_b)
        weights = checked_weights(weights, a, b)
        return self._build_problem(a, b, groups, weights, Budget(int(budget[0]), int(budget[1]), int(budget[2])))

    def adjacency_kernel(self, n_pairs: int, term_p: Ints, term_q: Ints, term_w: Floats) -> Adjacency:
        """See :meth:`amreval.match.kernels.contract.KernelBackend.adjacency_kernel`."""
        n_pairs = checked_count("n_pairs", n_pairs, 0, _INT64[1])
        return self._adjacency(n_pairs, *checked_terms(n_pairs, term_p, term_q, term_w))

    def row_pointers_kernel(self, n_a: int, pair_src: Ints) -> Ints:
        """See :meth:`amreval.match.kernels.contract.KernelBackend.row_pointers_kernel`."""
        n_a = checked_count("n_a", n_a, 0, _INT64[1])
        return self._row_pointers(n_a, checked_sources(n_a, pair_src))

    def find_pair_kernel(self, rows: Ints, pair_tgt: Ints, i: int, j: int) -> int:
        """See :meth:`amreval.match.kernels.contract.KernelBackend.find_pair_kernel`."""
        return self._find_pair(rows, pair_tgt, int(i), int(j))

    def hill_climb_kernel(
        self, space: SearchSpace, *, restarts: int, seed: int, bound: float, init: Ints
    ) -> ClimbResult:
        """See :meth:`amreval.match.kernels.contract.KernelBackend.hill_climb_kernel`."""
        space = checked_space(space)
        return self._hill_climb(
            space,
            checked_count("restarts", restarts, 0, _INT64[1]),
            checked_count("seed", seed, *_INT64),
            float(bound),
            checked_start(space, init),
        )

    def branch_and_bound_kernel(
        self, space: SearchSpace, *, rows: Ints, init: Ints, gap: float, node_limit: int
    ) -> SearchResult:
        """See :meth:`amreval.match.kernels.contract.KernelBackend.branch_and_bound_kernel` (a ``node_limit``
        outside ``[0, 2**62]`` counts as the nearest end)."""
        space = checked_space(space)
        rows = checked_rows(space, rows)
        init = checked_incumbent(space, init)
        node_limit = min(max(int(node_limit), 0), _NODE_LIMIT_MAX)
        return self._branch_and_bound(space, rows, init, float(gap), node_limit)

    def exact_search_kernel(self, space: SearchSpace, *, rows: Ints) -> ExactSearch:
        """See :meth:`amreval.match.kernels.contract.KernelBackend.exact_search_kernel`: the space and rows are
        checked here, each call's weights (their length) and incumbent when it is made."""
        space = checked_space(space)
        rows = checked_rows(space, rows)
        n_pairs = len(space.pair_src)
        run = self._exact_search(space, rows)

        def search(pair_u: Floats, init: Ints, gap: float, node_limit: int) -> SearchResult:
            u = np.ascontiguousarray(pair_u, dtype=np.float64)
            if u.shape != (n_pairs,):
                raise InputError(f"pair_u must hold one weight for each of the {n_pairs} pairs")
            limit = min(max(int(node_limit), 0), _NODE_LIMIT_MAX)
            return run(u, checked_incumbent(space, init), float(gap), limit)

        return search

    def _exact_search(self, space: SearchSpace, rows: Ints) -> ExactSearch:
        """The backend's search over a checked space (its unary weights given with each call)."""
        return lambda u, init, gap, limit: self._branch_and_bound(space._replace(pair_u=u), rows, init, gap, limit)

    def sparse_assignment_kernel(
        self, n_rows: int, n_cols: int, row_ptr: Ints, cols: Ints, value: Floats
    ) -> AssignmentResult:
        """See :meth:`amreval.match.kernels.contract.KernelBackend.sparse_assignment_kernel`."""
        return self._sparse_assignment(*checked_assignment(n_rows, n_cols, row_ptr, cols, value))

    @abstractmethod
    def _build_problem(
        self, a: GraphArrays, b: GraphArrays, groups: GroupArrays, weights: PoolWeights, budget: Budget
    ) -> ProblemBlock: ...

    @abstractmethod
    def _adjacency(self, n_pairs: int, term_p: Ints, term_q: Ints, term_w: Floats) -> Adjacency: ...

    @abstractmethod
    def _row_pointers(self, n_a: int, pair_src: Ints) -> Ints: ...

    @abstractmethod
    def _find_pair(self, rows: Ints, pair_tgt: Ints, i: int, j: int) -> int: ...

    @abstractmethod
    def _hill_climb(self, space: SearchSpace, restarts: int, seed: int, bound: float, init: Ints) -> ClimbResult: ...

    @abstractmethod
    def _branch_and_bound(
        self, space: SearchSpace, rows: Ints, init: Ints, gap: float, node_limit: int
    ) -> SearchResult: ...

    @abstractmethod
    def _sparse_assignment(
        self, n_rows: int, n_cols: int, row_ptr: Ints, cols: Ints, value: Floats
    ) -> AssignmentResult: ...


class PythonKernels(_Checked):
    """The Python kernels (the specification of the C), behind the checks both backends make."""

    name = "python"

    def __init__(self) -> None:
        # loaded with the first Python backend, not with the package: most runs use the C
        import amreval.match.kernels._assign as assign
        import amreval.match.kernels._branch as branch
        import amreval.match.kernels._climb as climb
        import amreval.match.kernels._pool as pool

        self._pool = pool
        self._climb = climb
        self._branch = branch
        self._assign = assign

    def _build_problem(
        self, a: GraphArrays, b: GraphArrays, groups: GroupArrays, weights: PoolWeights, budget: Budget
    ) -> ProblemBlock:
        return self._pool.build_problem_kernel(a, b, groups, weights, budget)

    def _adjacency(self, n_pairs: int, term_p: Ints, term_q: Ints, term_w: Floats) -> Adjacency:
        return self._pool.adjacency_kernel(n_pairs, term_p, term_q, term_w)

    def _row_pointers(self, n_a: int, pair_src: Ints) -> Ints:
        return self._pool.row_pointers_kernel(n_a, pair_src)

    def _find_pair(self, rows: Ints, pair_tgt: Ints, i: int, j: int) -> int:
        return int(self._pool.find_pair_kernel(rows, pair_tgt, i, j))

    def _hill_climb(self, space: SearchSpace, restarts: int, seed: int, bound: float, init: Ints) -> ClimbResult:
        n_a, n_b, src, tgt, u, (ptr, nbr, w) = space
        return self._climb.hill_climb_kernel(n_a, n_b, src, tgt, u, ptr, nbr, w, restarts, seed, bound, init)

    def _branch_and_bound(
        self, space: SearchSpace, rows: Ints, init: Ints, gap: float, node_limit: int
    ) -> SearchResult:
        n_a, n_b, src, tgt, u, (ptr, nbr, w) = space
        return self._branch.branch_and_bound_kernel(n_a, n_b, src, tgt, u, ptr, nbr, w, rows, init, gap, node_limit)

    def _sparse_assignment(
        self, n_rows: int, n_cols: int, row_ptr: Ints, cols: Ints, value: Floats
    ) -> AssignmentResult:
        return self._assign.sparse_assignment_kernel(n_rows, n_cols, row_ptr, cols, value)


_I64 = ctypes.c_int64
_F64 = ctypes.c_double
_PTR = ctypes.c_void_p
_CHAR_AT = ctypes.c_char.from_buffer
_ADDRESS_OF = ctypes.addressof


class _Built(ctypes.Structure):
    """``Built`` in ``_kernels.c``: what ``amr_build_problem`` made."""

    _fields_ = [("n_pairs", _I64), ("n_terms", _I64), ("bound", _F64), ("over_terms", _I64), ("block", _PTR)]


def _addr(a: Ints | Floats) -> int:
    """The address of a contiguous array's data (the quick way where the array is writable and not empty)."""
    try:
        # ctypes' stubs take only ctypes buffers; any writable buffer works (the array's)
        return _ADDRESS_OF(_CHAR_AT(a))  # type: ignore[arg-type]
    except (TypeError, ValueError, BufferError):
        return int(a.__array_interface__["data"][0])


def _addr_or_none(a: Ints | Floats | None) -> int | None:
    return None if a is None else _addr(a)


class _PreparedSearch:
    """The C exact search over one space: the fixed arrays' addresses taken once, the arrays held with them
    (so the addresses stay valid as long as the search does)."""

    def __init__(self, call: Any, space: SearchSpace, rows: Ints) -> None:
        self._arrays = (space, rows)
        n_a, n_b, src, tgt, _, (ptr, nbr, w) = space
        self._call, self._n_a, self._n_b, self._n_pairs = call, n_a, n_b, len(src)
        self._fixed = (_addr(src), _addr(tgt))
        self._rest = (_addr(ptr), _addr(nbr), _addr(w), _addr(rows))

    def __call__(self, u: Floats, init: Ints, gap: float, limit: int, /) -> SearchResult:
        n_a, n_b = self._n_a, self._n_b
        best = init.copy()  # the kernel writes the best mapping into it
        value, nodes = _F64(), _I64()
        rc = self._call(
            n_a, n_b, self._n_pairs, *self._fixed, _addr(u), *self._rest, gap, limit, _addr(best) if n_a else None,
            ctypes.byref(value), ctypes.byref(nodes),
        )  # fmt: skip
        if rc < 0:
            raise MemoryError(f"out of memory in the exact search on {n_a} x {n_b} nodes")
        return SearchResult(best, float(value.value), rc == 1, int(nodes.value))


class CKernels(_Checked):
    """The compiled kernels (``_kernels.c`` through :mod:`ctypes`), behind the checks both backends make."""

    name = "c"

    def __init__(self, path: str) -> None:
        lib = ctypes.CDLL(path)
        lib.amr_adjacency.restype = None
        lib.amr_adjacency.argtypes = [_I64, _I64, _PTR, _PTR, _PTR, _PTR, _PTR, _PTR, _PTR]
        lib.amr_row_pointers.restype = None
        lib.amr_row_pointers.argtypes = [_I64, _I64, _PTR, _PTR]
        lib.amr_hill_climb.restype = ctypes.c_int
        lib.amr_hill_climb.argtypes = [_I64, _I64, _I64, _PTR, _PTR, _PTR, _PTR, _PTR, _PTR, _I64, _I64, _F64]
        lib.amr_hill_climb.argtypes += [_PTR, _I64, _PTR, ctypes.POINTER(_F64), ctypes.POINTER(_I64)]
        lib.amr_build_problem.restype = ctypes.c_int
        lib.amr_build_problem.argtypes = [_PTR] + [_I64] * 9 + [_PTR, ctypes.c_int, _PTR, _PTR, _PTR, _I64, _I64, _I64]
        lib.amr_build_problem.argtypes += [ctypes.POINTER(_Built)]
        lib.amr_block_layout.restype = None
        lib.amr_block_layout.argtypes = [_I64, _I64, _I64, _PTR]
        lib.amr_block_free.restype = None
        lib.amr_block_free.argtypes = [_PTR]
        lib.amr_sparse_assignment.restype = ctypes.c_int
        lib.amr_sparse_assignment.argtypes = [_I64, _I64, _PTR, _PTR, _PTR, _PTR, ctypes.POINTER(_F64)]
        lib.amr_branch_and_bound.restype = ctypes.c_int
        lib.amr_branch_and_bound.argtypes = [_I64, _I64, _I64] + [_PTR] * 7 + [_F64, _I64, _PTR]
        lib.amr_branch_and_bound.argtypes += [ctypes.POINTER(_F64), ctypes.POINTER(_I64)]
        self._lib = lib

    def block_offsets(self, counts: BlockCounts) -> list[int]:
        """The offsets ``amr_block_layout`` gives (the tests compare them with
        :func:`amreval.match.kernels.contract.block_offsets`)."""
        out = np.empty(len(BLOCK_LAYOUT) + 1, dtype=np.int64)
        self._lib.amr_block_layout(int(counts.n_a), int(counts.n_pairs), int(counts.n_terms), _addr(out))
        return [int(x) for x in out]

    def _build_problem(
        self, a: GraphArrays, b: GraphArrays, groups: GroupArrays, weights: PoolWeights, budget: Budget
    ) -> ProblemBlock:
        parts = (a.inst, a.attr, a.rel, b.inst, b.attr, b.rel, *groups[:4])
        ints = np.concatenate([x.ravel() for x in parts], dtype=np.int64)
        n_a, n_b = len(a.inst), len(b.inst)
        dense = weights.instance
        built = _Built()
        rc = self._lib.amr_build_problem(
            _addr(ints), n_a, len(a.attr), len(a.rel), n_b, len(b.attr), len(b.rel), len(groups.a_ids),
            len(groups.b_ids), groups.n_groups, _addr_or_none(dense), int(dense is not None),
            *(_addr_or_none(w) for w in weights[1:]), *budget, ctypes.byref(built),
        )  # fmt: skip
        if rc == -4:
            raise TooLarge(int(built.over_terms), int(built.n_pairs))
        if rc != 0:
            raise MemoryError(f"out of memory building the alignment problem of {n_a} x {n_b} nodes")
        offsets = block_offsets(BlockCounts(n_a, int(built.n_pairs), int(built.n_terms)))
        block = np.empty(offsets[-1], dtype=np.int64)
        try:
            ctypes.memmove(_addr(block), built.block, block.nbytes)
        finally:
            self._lib.amr_block_free(built.block)
        return block_views(block, offsets, float(built.bound))

    def _adjacency(self, n_pairs: int, term_p: Ints, term_q: Ints, term_w: Floats) -> Adjacency:
        n_terms = len(term_p)
        deg = np.empty(n_pairs + 1, dtype=np.int64)
        nbr = np.empty(2 * n_terms, dtype=np.int64)
        w = np.empty(2 * n_terms, dtype=np.float64)
        fill = np.empty(n_pairs + 1, dtype=np.int64)
        self._lib.amr_adjacency(
            n_pairs, n_terms, _addr(term_p), _addr(term_q), _addr(term_w), _addr(deg), _addr(nbr), _addr(w),
            _addr(fill),
        )  # fmt: skip
        return Adjacency(deg, nbr, w)

    def _row_pointers(self, n_a: int, pair_src: Ints) -> Ints:
        ptr = np.empty(n_a + 1, dtype=np.int64)
        self._lib.amr_row_pointers(n_a, len(pair_src), _addr(pair_src), _addr(ptr))
        return ptr

    def _find_pair(self, rows: Ints, pair_tgt: Ints, i: int, j: int) -> int:
        lo, hi = int(rows[i]), int(rows[i + 1])
        x = lo + int(np.searchsorted(pair_tgt[lo:hi], j))
        return x if x < hi and pair_tgt[x] == j else -1

    def _hill_climb(self, space: SearchSpace, restarts: int, seed: int, bound: float, init: Ints) -> ClimbResult:
        n_a, n_b, src, tgt, u, (ptr, nbr, w) = space
        best = np.empty(n_a, dtype=np.int64)
        score = _F64()
        climbs = _I64()
        rc = self._lib.amr_hill_climb(
            n_a, n_b, len(src), _addr(src), _addr(tgt), _addr(u), _addr(ptr), _addr(nbr), _addr(w), restarts, seed,
            bound, _addr(init), len(init), _addr(best), ctypes.byref(score), ctypes.byref(climbs),
        )  # fmt: skip
        if rc != 0:
            raise MemoryError(f"out of memory in hill climbing on {n_a} x {n_b} nodes")
        return ClimbResult(best, float(score.value), int(climbs.value))

    def _branch_and_bound(
        self, space: SearchSpace, rows: Ints, init: Ints, gap: float, node_limit: int
    ) -> SearchResult:
        n_a, n_b, src, tgt, u, (ptr, nbr, w) = space
        best = init.copy()  # the kernel writes the best mapping into it
        value = _F64()
        nodes = _I64()
        rc = self._lib.amr_branch_and_bound(
            n_a, n_b, len(src), _addr(src), _addr(tgt), _addr(u), _addr(ptr), _addr(nbr), _addr(w), _addr(rows),
            gap, node_limit, _addr(best) if n_a else None, ctypes.byref(value), ctypes.byref(nodes),
        )  # fmt: skip
        if rc < 0:
            raise MemoryError(f"out of memory in the exact search on {n_a} x {n_b} nodes")
        return SearchResult(best, float(value.value), rc == 1, int(nodes.value))

    def _exact_search(self, space: SearchSpace, rows: Ints) -> ExactSearch:
        return _PreparedSearch(self._lib.amr_branch_and_bound, space, rows)

    def _sparse_assignment(
        self, n_rows: int, n_cols: int, row_ptr: Ints, cols: Ints, value: Floats
    ) -> AssignmentResult:
        pairs = np.empty(n_rows, dtype=np.int64)
        total = _F64()
        rc = self._lib.amr_sparse_assignment(
            n_rows, n_cols, _addr(row_ptr), _addr(cols), _addr(value), _addr(pairs) if n_rows else None,
            ctypes.byref(total),
        )  # fmt: skip
        if rc == -1:
            raise MemoryError(f"out of memory in the assignment problem of {n_rows} x {n_cols} nodes")
        if rc != 0:  # pragma: no cover - every row has a column of its own
            raise RuntimeError("the assignment problem is infeasible")
        return AssignmentResult(pairs, float(total.value))


@cache
def kernels(which: str | None = None) -> KernelBackend:
    """The kernels to use: ``"c"``, ``"python"``, or by default the C where built (see module docs)."""
    which = which or os.environ.get(KERNELS_ENV, "").strip().lower() or None
    if which not in (None, "c", "python"):
        raise InputError(f"{KERNELS_ENV} must be 'c' or 'python', got {which!r}")
    if which == "python":
        return PythonKernels()
    try:
        extension = importlib.import_module("amreval.match.kernels._ckernels")
        return CKernels(str(extension.__file__))
    except (ImportError, OSError, AttributeError) as err:
        # not built, or built from another version of _kernels.c (a function is missing)
        if which == "c":
            raise MissingDependencyError(
                f"amreval's compiled kernels are not built or out of date ({err}); {_REINSTALL}"
            ) from err
        warnings.warn(
            f"amreval's compiled kernels are not built or out of date ({err}); {_REINSTALL}. "
            "Until then alignments run in the pure-Python kernels, one to two orders of magnitude slower",
            AmrevalWarning,
            stacklevel=2,
        )
        return PythonKernels()

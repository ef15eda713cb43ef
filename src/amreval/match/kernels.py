"""The alignment kernels: compiled C, or the same algorithm in Python where the C is not built.

:mod:`amreval.match._pool` and :mod:`amreval.match._climb` hold the kernels in
plain Python: the candidate pool and smatch's hill climbing. ``_kernels.c`` is
their translation to C, built at install time as the extension module
``amreval.match._ckernels`` and called here through :mod:`ctypes`, which
releases the GIL while a kernel runs. Both give identical results, to the last
bit (the tests compare them on random problems).

:func:`kernels` picks one on first use (importing the package loads neither):
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
from functools import cache
from typing import Any

import numpy as np

from amreval.errors import AmrevalWarning, InputError, MissingDependencyError
from amreval.match.problem import TooLarge

__all__ = ["kernels", "CKernels", "KERNELS_ENV"]

#: Set to ``python`` to run the pure-Python kernels even where the C is built (``c``: the C or an error).
KERNELS_ENV = "AMREVAL_KERNELS"
_REINSTALL = (
    "where a C compiler and the Python headers are installed (Debian: build-essential python3-dev), "
    "reinstall without pip's cached wheel: pip install --no-cache-dir --force-reinstall amreval"
)

_I64 = ctypes.c_int64
_F64 = ctypes.c_double
_PTR = ctypes.c_void_p


class _Built(ctypes.Structure):
    _fields_ = [("n_pairs", _I64), ("n_terms", _I64), ("bound", _F64), ("bad", _I64), ("block", _PTR)]


def check_encoded(side: str, inst: np.ndarray, attr: np.ndarray, rel: np.ndarray) -> None:
    """The checks ``amr_build_problem`` makes of one graph, in the same order, with the same messages.

    Raises:
        InputError: a vocabulary id beyond ±2**31 (ids are combined with group numbers in 64 bits), or a
            triple naming a node the graph does not have (the first found, in array order).
    """
    ids = np.concatenate((inst, attr[:, 1], rel[:, 0]))
    if ids.size and (ids.min() <= -_MAX_ID or ids.max() >= _MAX_ID):
        raise InputError(
            f"encoded graph {side}: vocabulary ids must lie within ±2**31 (encode_pair numbers them densely)"
        )
    nodes = np.concatenate((attr[:, 0], rel[:, 1:].ravel()))
    outside = np.flatnonzero((nodes < 0) | (nodes >= len(inst)))
    if outside.size:
        _bad_node(side, int(nodes[outside[0]]), len(inst))


_MAX_ID = 2**31


def _bad_node(side: str, node: int, n: int) -> None:
    raise InputError(f"encoded graph {side}: a triple names node {node}, the graph has {n} nodes")


def _problem_views(block: np.ndarray, n_a: int, n_p: int, n_t: int) -> tuple:
    """The arrays of one block laid out as ``amr_build_problem`` writes it (views, no copies)."""
    f = block.view(np.float64)
    at = 0
    out = []
    for n, floats in ((n_p, False), (n_p, False), (n_p, True), (n_t, False), (n_t, False), (n_t, False),
                      (n_t, False), (n_t, True), (n_p + 1, False), (2 * n_t, False), (2 * n_t, True),
                      (n_a + 1, False)):  # fmt: skip
        out.append((f if floats else block)[at : at + n])
        at += n
    return tuple(out)


def _ints(a: Any) -> np.ndarray:
    return np.ascontiguousarray(a, dtype=np.int64)


def _floats(a: Any) -> np.ndarray:
    return np.ascontiguousarray(a, dtype=np.float64)


_CHAR_AT = ctypes.c_char.from_buffer
_ADDRESS_OF = ctypes.addressof


def _addr(a: np.ndarray) -> int:
    """The address of a contiguous array's data (the quick way where the array is writable and not empty)."""
    try:
        return _ADDRESS_OF(_CHAR_AT(a))  # type: ignore[arg-type]
    except (TypeError, ValueError, BufferError):
        return int(a.__array_interface__["data"][0])


class CKernels:
    """The compiled kernels, with the signatures of the Python ones."""

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
        lib.amr_block_free.restype = None
        lib.amr_block_free.argtypes = [_PTR]
        lib.amr_sparse_assignment.restype = ctypes.c_int
        lib.amr_sparse_assignment.argtypes = [_I64, _I64, _PTR, _PTR, _PTR, _PTR, ctypes.POINTER(_F64)]
        lib.amr_branch_bound.restype = ctypes.c_int
        lib.amr_branch_bound.argtypes = [_I64, _I64, _I64] + [_PTR] * 7 + [_F64, _I64, _PTR]
        lib.amr_branch_bound.argtypes += [ctypes.POINTER(_F64), ctypes.POINTER(_I64)]
        self._lib = lib

    def sparse_assignment(self, n_rows, n_cols, row_ptr, cols, value):
        """As :func:`amreval.match._assign.sparse_assignment`: ``(pair per row or -1, total)``."""
        row_ptr, cols, value = _ints(row_ptr), _ints(cols), _floats(value)
        # what the C indexes with, checked first (a bad array would read or write out of bounds)
        if len(row_ptr) != n_rows + 1 or row_ptr[0] != 0 or row_ptr[-1] != len(cols) or len(value) != len(cols):
            raise ValueError("row_ptr must rise from 0 to len(cols) over n_rows + 1 entries, value one per col")
        if np.any(np.diff(row_ptr) < 0) or (len(cols) and (cols.min() < 0 or cols.max() >= n_cols)):
            raise ValueError(f"row_ptr must not decrease and cols must lie in [0, {n_cols})")
        pairs = np.empty(n_rows, dtype=np.int64)
        total = _F64()
        rc = self._lib.amr_sparse_assignment(
            int(n_rows), int(n_cols), _addr(row_ptr), _addr(cols), _addr(value), _addr(pairs) if n_rows else None,
            ctypes.byref(total),
        )  # fmt: skip
        if rc == -1:
            raise MemoryError(f"out of memory in the assignment problem of {n_rows} x {n_cols} nodes")
        if rc != 0:  # pragma: no cover - every row has a column of its own
            raise ValueError("the assignment problem is infeasible")
        return pairs, float(total.value)

    def branch_and_bound(self, n_a, n_b, pair_src, pair_tgt, pair_u, ptr, nbr, w, rows, init, gap, node_limit):
        """As :func:`amreval.match._branch.branch_and_bound`: ``(pairs, value, proven, nodes)``."""
        arrays = [_ints(pair_src), _ints(pair_tgt), _floats(pair_u), _ints(ptr), _ints(nbr), _floats(w), _ints(rows)]
        best = np.array(init, dtype=np.int64)  # a copy: the kernel writes the best mapping into it
        n_pairs = len(arrays[0])
        if best.shape != (n_a,) or (n_a and (best.min() < -1 or best.max() >= n_pairs)):
            raise ValueError(f"init must hold a pair index (or -1) for each of the {n_a} nodes")
        node_limit = min(max(int(node_limit), 0), 2**62)
        value = _F64()
        nodes = _I64()
        rc = self._lib.amr_branch_bound(
            int(n_a), int(n_b), len(arrays[0]), *(_addr(a) for a in arrays), float(gap), int(node_limit),
            _addr(best) if n_a else None, ctypes.byref(value), ctypes.byref(nodes),
        )  # fmt: skip
        if rc < 0:
            raise MemoryError(f"out of memory in the exact search on {n_a} x {n_b} nodes")
        return best, float(value.value), rc == 1, int(nodes.value)

    def build_problem(
        self, inst_a, attr_a, rel_a, inst_b, attr_b, rel_b, ga_ptr, ga_ids, gb_ptr, gb_ids, n_groups, inst_w,
        use_inst_w, b_weights, budget,
    ):  # fmt: skip
        """Check, count, build the pool, its adjacency and row pointers in one call (see ``amr_build_problem``).

        ``b_weights``: B's instance, attribute and relation weights, each None for all 1. Returns
        ``(pair_src, pair_tgt, pair_u, term_p, term_q, term_ta, term_tb, term_w, bound, (deg, nbr, w), rows)``.

        Raises:
            InputError: as :func:`check_encoded`.
            TooLarge: terms and gathered pairs over ``budget``, ``(bytes, bytes per term, bytes per pair)``.
        """
        parts = (inst_a, attr_a, rel_a, inst_b, attr_b, rel_b, ga_ptr, ga_ids, gb_ptr, gb_ids)
        ints = np.concatenate([x.ravel() for x in parts], dtype=np.int64, casting="unsafe")
        n_a, n_b = len(inst_a), len(inst_b)
        floats = (
            [None if w is None else _floats(w) for w in b_weights]
            if any(w is not None for w in b_weights)
            else [None, None, None]
        )
        dense = _floats(inst_w) if use_inst_w else None
        built = _Built()
        rc = self._lib.amr_build_problem(
            _addr(ints), n_a, len(attr_a), len(rel_a), n_b, len(attr_b), len(rel_b), len(ga_ids), len(gb_ids),
            int(n_groups), None if dense is None else _addr(dense), int(bool(use_inst_w)),
            *(None if w is None else _addr(w) for w in floats), *(int(x) for x in budget), ctypes.byref(built),
        )  # fmt: skip
        if rc in (-2, -3):
            _bad_node("A" if rc == -2 else "B", int(built.bad), n_a if rc == -2 else n_b)
        if rc in (-5, -6):
            raise InputError(
                f"encoded graph {'A' if rc == -5 else 'B'}: vocabulary ids must lie within ±2**31 "
                "(encode_pair numbers them densely)"
            )
        if rc == -4:
            raise TooLarge(int(built.bad), int(built.n_pairs))
        if rc != 0:
            raise MemoryError(f"out of memory building the alignment problem of {n_a} x {n_b} nodes")
        n_p, n_t = int(built.n_pairs), int(built.n_terms)
        block = np.empty(4 * n_p + 9 * n_t + n_a + 2, dtype=np.int64)
        try:
            ctypes.memmove(_addr(block), built.block, block.nbytes)
        finally:
            self._lib.amr_block_free(built.block)
        views = _problem_views(block, n_a, n_p, n_t)
        return (*views[:8], float(built.bound), views[8:11], views[11])

    def adjacency(self, n_pairs, term_p, term_q, term_w):
        term_p, term_q, term_w = _ints(term_p), _ints(term_q), _floats(term_w)
        n_terms = len(term_p)
        deg = np.empty(n_pairs + 1, dtype=np.int64)
        nbr = np.empty(2 * n_terms, dtype=np.int64)
        w = np.empty(2 * n_terms, dtype=np.float64)
        fill = np.empty(n_pairs + 1, dtype=np.int64)
        self._lib.amr_adjacency(
            int(n_pairs), n_terms, _addr(term_p), _addr(term_q), _addr(term_w), _addr(deg), _addr(nbr), _addr(w),
            _addr(fill),
        )  # fmt: skip
        return deg, nbr, w

    def row_pointers(self, n_a, pair_src):
        pair_src = _ints(pair_src)
        ptr = np.empty(n_a + 1, dtype=np.int64)
        self._lib.amr_row_pointers(int(n_a), len(pair_src), _addr(pair_src), _addr(ptr))
        return ptr

    @staticmethod
    def find_pair(cand_ptr, pair_tgt, i, j):
        lo, hi = int(cand_ptr[i]), int(cand_ptr[i + 1])
        x = lo + int(np.searchsorted(pair_tgt[lo:hi], j))
        return x if x < hi and pair_tgt[x] == j else -1

    def hill_climb(self, n_a, n_b, pair_src, pair_tgt, pair_u, ptr, nbr, w, restarts, seed, bound, init):
        ints = [_ints(a) for a in (pair_src, pair_tgt)]
        pair_u = _floats(pair_u)
        ptr, nbr, w, init = _ints(ptr), _ints(nbr), _floats(w), _ints(init)
        best = np.empty(n_a, dtype=np.int64)
        score = _F64()
        climbs = _I64()
        rc = self._lib.amr_hill_climb(
            int(n_a), int(n_b), len(ints[0]), _addr(ints[0]), _addr(ints[1]), _addr(pair_u), _addr(ptr), _addr(nbr),
            _addr(w), int(restarts), int(seed), float(bound), _addr(init), len(init), _addr(best),
            ctypes.byref(score), ctypes.byref(climbs),
        )  # fmt: skip
        if rc != 0:
            raise MemoryError(f"out of memory in hill climbing on {n_a} x {n_b} nodes")
        return best, float(score.value), int(climbs.value)


class _PythonKernels:
    """The Python kernels, gathered under the names of :class:`CKernels`."""

    name = "python"

    def __init__(self) -> None:
        from amreval.match import _assign, _branch, _climb, _pool

        self.count_terms = _pool.count_terms
        self.count_entries = _pool.count_entries
        self.build_pool = _pool.build_pool
        self.adjacency = _pool.adjacency
        self.row_pointers = _pool.row_pointers
        self.find_pair = _pool.find_pair
        self.hill_climb = _climb.hill_climb
        self.branch_and_bound = _branch.branch_and_bound
        self.sparse_assignment = _assign.sparse_assignment

    def build_problem(
        self, inst_a, attr_a, rel_a, inst_b, attr_b, rel_b, ga_ptr, ga_ids, gb_ptr, gb_ids, n_groups, inst_w,
        use_inst_w, b_weights, budget,
    ):  # fmt: skip
        """What :meth:`CKernels.build_problem` does, from the Python kernels."""
        inst_a, inst_b = _ints(inst_a), _ints(inst_b)
        attr_a, attr_b = _ints(attr_a).reshape(-1, 2), _ints(attr_b).reshape(-1, 2)
        rel_a, rel_b = _ints(rel_a).reshape(-1, 3), _ints(rel_b).reshape(-1, 3)
        check_encoded("A", inst_a, attr_a, rel_a)
        check_encoded("B", inst_b, attr_b, rel_b)
        ga_ptr, ga_ids, gb_ptr, gb_ids = (_ints(g) for g in (ga_ptr, ga_ids, gb_ptr, gb_ids))
        n_terms = self.count_terms(rel_a, rel_b, ga_ptr, ga_ids, gb_ptr, gb_ids, n_groups)
        n_entries = self.count_entries(
            inst_a, attr_a, rel_a, inst_b, attr_b, rel_b, ga_ptr, ga_ids, gb_ptr, gb_ids, n_groups, use_inst_w
        )
        limit, per_term, per_entry = budget
        if float(n_terms) * per_term + float(n_entries) * per_entry > float(limit):
            raise TooLarge(n_terms, n_entries)
        sizes = (len(inst_b), len(attr_b), len(rel_b))
        inst_bw, attr_bw, rel_bw = (np.ones(n) if w is None else _floats(w) for w, n in zip(b_weights, sizes))
        pool = self.build_pool(inst_a, attr_a, rel_a, inst_b, attr_b, rel_b, ga_ptr, ga_ids, gb_ptr, gb_ids,
                               n_groups, inst_w, use_inst_w, inst_bw, attr_bw, rel_bw)  # fmt: skip
        adjacency = self.adjacency(len(pool[0]), pool[3], pool[4], pool[7])
        return (*pool, adjacency, self.row_pointers(len(inst_a), pool[0]))


@cache
def kernels(which: str | None = None) -> Any:
    """The kernels to use: ``"c"``, ``"python"``, or by default the C where built (see module docs)."""
    which = which or os.environ.get(KERNELS_ENV, "").strip().lower() or None
    if which not in (None, "c", "python"):
        raise InputError(f"{KERNELS_ENV} must be 'c' or 'python', got {which!r}")
    if which == "python":
        return _PythonKernels()
    try:
        extension = importlib.import_module("amreval.match._ckernels")
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
        return _PythonKernels()

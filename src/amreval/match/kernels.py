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


class _Pool(ctypes.Structure):
    _fields_ = [
        ("n_pairs", _I64),
        ("n_terms", _I64),
        ("pair_src", _PTR),
        ("pair_tgt", _PTR),
        ("pair_u", _PTR),
        ("term_p", _PTR),
        ("term_q", _PTR),
        ("term_ta", _PTR),
        ("term_tb", _PTR),
        ("term_w", _PTR),
        ("bound", _F64),
    ]


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


def _take(address: int | None, n: int, dtype: Any) -> np.ndarray:
    """A copy of ``n`` items at ``address`` (memory of the C side, released by the caller)."""
    out = np.empty(n, dtype=dtype)
    if n:
        ctypes.memmove(_addr(out), int(address or 0), out.nbytes)
    return out


class CKernels:
    """The compiled kernels, with the signatures of the Python ones."""

    name = "c"

    def __init__(self, path: str) -> None:
        lib = ctypes.CDLL(path)
        lib.amr_count_terms.restype = _I64
        lib.amr_count_terms.argtypes = [_PTR, _I64, _PTR, _I64, _PTR, _PTR, _PTR, _PTR, _I64]
        lib.amr_build_pool.restype = ctypes.c_int
        graph: list[Any] = [_PTR, _I64, _PTR, _I64, _PTR, _I64]
        groups: list[Any] = [_PTR, _PTR, _PTR, _PTR, _I64]
        weights: list[Any] = [_PTR, ctypes.c_int, _PTR, _PTR, _PTR]
        lib.amr_build_pool.argtypes = graph * 2 + groups + weights + [ctypes.POINTER(_Pool)]
        lib.amr_pool_free.restype = None
        lib.amr_pool_free.argtypes = [ctypes.POINTER(_Pool)]
        lib.amr_adjacency.restype = None
        lib.amr_adjacency.argtypes = [_I64, _I64, _PTR, _PTR, _PTR, _PTR, _PTR, _PTR, _PTR]
        lib.amr_row_pointers.restype = None
        lib.amr_row_pointers.argtypes = [_I64, _I64, _PTR, _PTR]
        lib.amr_hill_climb.restype = ctypes.c_int
        lib.amr_hill_climb.argtypes = [_I64, _I64, _I64, _PTR, _PTR, _PTR, _PTR, _PTR, _PTR, _I64, _I64, _F64]
        lib.amr_hill_climb.argtypes += [_PTR, _I64, _PTR, ctypes.POINTER(_F64), ctypes.POINTER(_I64)]
        lib.amr_assignment.restype = ctypes.c_int
        lib.amr_assignment.argtypes = [_I64, _I64, _PTR, _PTR]
        self._lib = lib

    def count_terms(self, rel_a, rel_b, ga_ptr, ga_ids, gb_ptr, gb_ids, n_groups):
        rel_a, rel_b = _ints(rel_a).reshape(-1, 3), _ints(rel_b).reshape(-1, 3)
        groups = [_ints(g) for g in (ga_ptr, ga_ids, gb_ptr, gb_ids)]
        n = self._lib.amr_count_terms(
            _addr(rel_a), len(rel_a), _addr(rel_b), len(rel_b), *(_addr(g) for g in groups), int(n_groups)
        )
        if n < 0:
            raise MemoryError("out of memory counting the pairwise terms of an alignment problem")
        return int(n)

    def build_pool(
        self,
        inst_a,
        attr_a,
        rel_a,
        inst_b,
        attr_b,
        rel_b,
        ga_ptr,
        ga_ids,
        gb_ptr,
        gb_ids,
        n_groups,
        inst_w,
        use_inst_w,
        inst_bw,
        attr_bw,
        rel_bw,
    ):
        graphs = []
        for inst, attr, rel in ((inst_a, attr_a, rel_a), (inst_b, attr_b, rel_b)):
            graphs.append((_ints(inst), _ints(attr).reshape(-1, 2), _ints(rel).reshape(-1, 3)))
        groups = [_ints(g) for g in (ga_ptr, ga_ids, gb_ptr, gb_ids)]
        inst_w = _floats(inst_w)
        weights = [_floats(w) for w in (inst_bw, attr_bw, rel_bw)]
        args: list[Any] = []
        for inst, attr, rel in graphs:
            args += [_addr(inst), len(inst), _addr(attr), len(attr), _addr(rel), len(rel)]
        pool = _Pool()
        rc = self._lib.amr_build_pool(
            *args,
            *(_addr(g) for g in groups),
            int(n_groups),
            _addr(inst_w),
            int(bool(use_inst_w)),
            *(_addr(w) for w in weights),
            ctypes.byref(pool),
        )
        if rc != 0:
            raise MemoryError(
                f"out of memory building the alignment problem of {len(graphs[0][0])} x {len(graphs[1][0])} nodes"
            )
        try:
            n_p, n_t = int(pool.n_pairs), int(pool.n_terms)
            return (
                _take(pool.pair_src, n_p, np.int64),
                _take(pool.pair_tgt, n_p, np.int64),
                _take(pool.pair_u, n_p, np.float64),
                _take(pool.term_p, n_t, np.int64),
                _take(pool.term_q, n_t, np.int64),
                _take(pool.term_ta, n_t, np.int64),
                _take(pool.term_tb, n_t, np.int64),
                _take(pool.term_w, n_t, np.float64),
                float(pool.bound),
            )
        finally:
            self._lib.amr_pool_free(ctypes.byref(pool))

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

    def assignment(self, table):
        """The best one-to-one assignment of rows to columns, maximising the sum: ``(rows, cols)``.

        Finite values only; as :func:`scipy.optimize.linear_sum_assignment` with ``maximize=True``
        (the same shortest-augmenting-path algorithm), so the total is the same.
        """
        table = np.asarray(table, dtype=np.float64)
        flip = table.shape[0] > table.shape[1]
        cost = np.ascontiguousarray(-(table.T if flip else table))
        nr, nc = cost.shape
        col4row = np.empty(nr, dtype=np.int64)
        rc = self._lib.amr_assignment(nr, nc, _addr(cost), _addr(col4row))
        if rc == -1:
            raise MemoryError(f"out of memory in the assignment problem of {nr} x {nc}")
        if rc != 0:  # pragma: no cover - finite tables always have an assignment
            raise ValueError("the assignment problem is infeasible")
        rows = np.arange(nr)
        if flip:
            order = np.argsort(col4row)
            return col4row[order], rows[order]
        return rows, col4row


def _scipy_assignment(table):
    from scipy.optimize import linear_sum_assignment

    return linear_sum_assignment(table, maximize=True)


class _PythonKernels:
    """The Python kernels, gathered under the names of :class:`CKernels`."""

    name = "python"

    def __init__(self) -> None:
        from amreval.match import _climb, _pool

        self.count_terms = _pool.count_terms
        self.build_pool = _pool.build_pool
        self.adjacency = _pool.adjacency
        self.row_pointers = _pool.row_pointers
        self.find_pair = _pool.find_pair
        self.hill_climb = _climb.hill_climb
        self.assignment = _scipy_assignment


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

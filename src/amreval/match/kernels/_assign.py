"""The best one-to-one assignment over sparse candidate pairs (plain Python): the specification of
``amr_sparse_assignment``.

Rows (nodes of A) and columns (nodes of B) are joined by the candidate pairs
only, each worth a value not below zero; a row may stay unassigned (a column of
its own, worth 0, stands for that). Shortest augmenting paths, as
:func:`scipy.optimize.linear_sum_assignment` solves a dense table (Crouse's
dual updates), but each path is found by Dijkstra over the pairs with a heap,
and only the columns a path touches are reset: time and memory grow with the
pairs, never with rows times columns. Ties in the heap go to the lower column.
"""

from __future__ import annotations

import heapq

import numpy as np

from amreval.match.kernels.contract import AssignmentResult, Floats, Ints


class _Duals:
    """The search's state over rows and columns (column ``n_cols + i``: row ``i`` unassigned).

    ``u``, ``v``: the potentials of rows and columns; ``row4col``, ``col4row``, ``edge4row``: the
    assignment (the pair behind each row's column); per column, the distance of the path being grown,
    the row whose path last touched it (``seen``) and scanned it (``done``), and where it was reached
    from (``pred`` row, ``pred_e`` pair, -1 for a row's own column).
    """

    def __init__(self, n_rows: int, n_all: int, u: list[float]) -> None:
        self.u = u
        self.v = [0.0] * n_all
        self.row4col = [-1] * n_all
        self.col4row = [-1] * n_rows
        self.edge4row = [-1] * n_rows
        self.dist = [float("inf")] * n_all
        self.seen = [-1] * n_all
        self.done = [-1] * n_all
        self.pred = [-1] * n_all
        self.pred_e = [-1] * n_all


def _start_potentials(n_rows: int, row_ptr: Ints, value: Floats) -> list[float]:
    """Cost is -value; a row's potential starts at its least cost (0: unassigned), every column's at 0, so
    reduced costs are not negative and free columns stay alike (the first free column a path meets ends it)."""
    u = [0.0] * n_rows
    for i in range(n_rows):
        for e in range(row_ptr[i], row_ptr[i + 1]):
            if -value[e] < u[i]:
                u[i] = -value[e]
    return u


def _scan(
    d: _Duals, cur: int, i: int, min_val: float, n_cols: int, row_ptr: Ints, cols: Ints, value: Floats,
    touched: list[int], heap: list[tuple[float, int]],
) -> None:  # fmt: skip
    """Relax the columns of row ``i`` (its pairs, then its own column, cost 0) on row ``cur``'s path."""
    for k in range(row_ptr[i], row_ptr[i + 1] + 1):
        if k < row_ptr[i + 1]:
            e, j = k, cols[k]
            r = min_val + -value[e] - d.u[i] - d.v[j]
        else:
            e, j = -1, n_cols + i
            r = min_val + 0.0 - d.u[i] - d.v[j]
        if d.done[j] == cur:
            continue
        if d.seen[j] != cur or r < d.dist[j]:
            if d.seen[j] != cur:
                d.seen[j] = cur
                touched.append(j)
            d.dist[j] = r
            d.pred[j] = i
            d.pred_e[j] = e
            heapq.heappush(heap, (r, j))


def _augment(d: _Duals, cur: int, n_cols: int, row_ptr: Ints, cols: Ints, value: Floats) -> None:
    """Assign row ``cur`` by the shortest augmenting path (Dijkstra over the pairs), then update the duals
    of the rows and columns it scanned and flip the path."""
    touched: list[int] = []
    scanned_rows = []
    heap: list[tuple[float, int]] = []
    min_val = 0.0
    i = cur
    while True:
        scanned_rows.append(i)
        _scan(d, cur, i, min_val, n_cols, row_ptr, cols, value, touched, heap)
        while True:
            r, j = heapq.heappop(heap)
            if d.done[j] != cur and r == d.dist[j]:
                break
        min_val = r
        d.done[j] = cur
        if d.row4col[j] < 0:
            sink = j
            break
        i = d.row4col[j]
    d.u[cur] += min_val
    for i in scanned_rows[1:]:
        d.u[i] += min_val - d.dist[d.col4row[i]]
    for j in touched:
        if d.done[j] == cur:
            d.v[j] -= min_val - d.dist[j]
    j = sink
    while True:
        i = d.pred[j]
        e = d.pred_e[j]
        d.row4col[j] = i
        j, d.col4row[i] = d.col4row[i], j
        d.edge4row[i] = e
        if i == cur:
            break


def sparse_assignment_kernel(n_rows: int, n_cols: int, row_ptr: Ints, cols: Ints, value: Floats) -> AssignmentResult:
    """The best assignment: a pair per row (or -1) and their total value; ``row_ptr``/``cols``/``value``:
    each row's pairs (CSR)."""
    d = _Duals(n_rows, n_cols + n_rows, _start_potentials(n_rows, row_ptr, value))
    for cur in range(n_rows):
        _augment(d, cur, n_cols, row_ptr, cols, value)
    total = 0.0
    pairs = np.full(n_rows, -1, dtype=np.int64)
    for i in range(n_rows):
        if d.edge4row[i] >= 0:
            pairs[i] = d.edge4row[i]
            total += value[d.edge4row[i]]
    return AssignmentResult(pairs, float(total))

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


def sparse_assignment(n_rows, n_cols, row_ptr, cols, value):
    """The best assignment: ``(pair per row or -1, total value)``; ``row_ptr``/``cols``/``value``: each
    row's pairs (CSR)."""
    n_all = n_cols + n_rows  # column n_cols + i: row i unassigned
    inf = float("inf")
    # cost -value; a row's potential starts at its least cost (0: unassigned), every column's at 0, so
    # reduced costs are not negative and free columns stay alike (the first free column a path meets
    # ends it)
    u = [0.0] * n_rows
    v = [0.0] * n_all
    for i in range(n_rows):
        for e in range(row_ptr[i], row_ptr[i + 1]):
            if -value[e] < u[i]:
                u[i] = -value[e]
    row4col = [-1] * n_all
    col4row = [-1] * n_rows
    edge4row = [-1] * n_rows
    dist = [inf] * n_all
    seen = [-1] * n_all  # the row whose path last touched the column
    done = [-1] * n_all  # ... and scanned it
    pred = [-1] * n_all
    pred_e = [-1] * n_all
    for cur in range(n_rows):
        touched = []
        scanned_rows = []
        heap: list[tuple[float, int]] = []
        min_val = 0.0
        i = cur
        while True:
            scanned_rows.append(i)
            for k in range(row_ptr[i], row_ptr[i + 1] + 1):
                # the row's pairs, then its own column (unassigned, cost 0)
                if k < row_ptr[i + 1]:
                    e, j = k, cols[k]
                    r = min_val + -value[e] - u[i] - v[j]
                else:
                    e, j = -1, n_cols + i
                    r = min_val + 0.0 - u[i] - v[j]
                if done[j] == cur:
                    continue
                if seen[j] != cur or r < dist[j]:
                    if seen[j] != cur:
                        seen[j] = cur
                        touched.append(j)
                    dist[j] = r
                    pred[j] = i
                    pred_e[j] = e
                    heapq.heappush(heap, (r, j))
            while True:
                r, j = heapq.heappop(heap)
                if done[j] != cur and r == dist[j]:
                    break
            min_val = r
            done[j] = cur
            if row4col[j] < 0:
                sink = j
                break
            i = row4col[j]
        u[cur] += min_val
        for i in scanned_rows[1:]:
            u[i] += min_val - dist[col4row[i]]
        for j in touched:
            if done[j] == cur:
                v[j] -= min_val - dist[j]
        j = sink
        while True:
            i = pred[j]
            e = pred_e[j]
            row4col[j] = i
            j, col4row[i] = col4row[i], j
            edge4row[i] = e
            if i == cur:
                break
    total = 0.0
    pairs = np.full(n_rows, -1, dtype=np.int64)
    for i in range(n_rows):
        if edge4row[i] >= 0:
            pairs[i] = edge4row[i]
            total += value[edge4row[i]]
    return pairs, total

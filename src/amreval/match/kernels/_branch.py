"""Exact search by branch and bound (plain Python): the specification of ``amr_branch_and_bound``.

Depth first over the nodes of A, each given one of its candidate pairs whose
node of B is free, or none. A subtree is cut when what it could reach is no
more than ``gap`` above the best mapping found: its value so far, plus what
the nodes still open could add (:func:`_open_bound`). A pair's potential is
the most it could add: its unary weight, its terms with pairs taken, half of
each term with a pair still open (a term between two open pairs is counted at
most half at each end), so a completion adds at most its pairs' potentials.
Each open node's best potential, summed, bounds that, but counts a node of B
once for every open node whose best it is; the bound takes off, for each such
node of B, what all but the most eager of them lose by taking their second
best instead (a feasible solution of the assignment problem's dual: much
tighter where several nodes want the same one, as a document's coreference
nodes do, at the cost of the plain sum). Since it is an upper bound, the
search finds the same mappings as with the plain sum, in fewer subtrees, and
when it ends within ``node_limit`` subtrees, the best mapping found is within
``gap`` of the optimum. ``_kernels.c`` follows it step by step (the same order of nodes,
children and sums), so both give identical results.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from amreval.match.kernels.contract import Floats, Ints, SearchResult

_Bools = NDArray[np.bool_]
#: What :func:`_potential` and :func:`_best_potential` take after the pair or node: the search's state
#: (``active`` pairs, ``decided`` nodes of A, ``used`` nodes of B), the pairs, the adjacency, the rows.
_Args = tuple[_Bools, _Bools, _Bools, Ints, Ints, Floats, Ints, Ints, Floats, Ints]


def _potential(p: int, active: _Bools, decided: _Bools, used: _Bools, pair_src: Ints, pair_tgt: Ints,
               pair_u: Floats, ptr: Ints, nbr: Ints, w: Floats) -> float:  # fmt: skip
    v = pair_u[p]
    for x in range(ptr[p], ptr[p + 1]):
        q = nbr[x]
        if active[q]:
            v += w[x]
        elif not decided[pair_src[q]] and not used[pair_tgt[q]]:
            v += 0.5 * w[x]
    return v


def _best_potential(i: int, active: _Bools, decided: _Bools, used: _Bools, pair_src: Ints, pair_tgt: Ints,
                    pair_u: Floats, ptr: Ints, nbr: Ints, w: Floats, rows: Ints) -> float:  # fmt: skip
    best = 0.0
    for p in range(rows[i], rows[i + 1]):
        if not used[pair_tgt[p]]:
            v = _potential(p, active, decided, used, pair_src, pair_tgt, pair_u, ptr, nbr, w)
            if v > best:
                best = v
    return best


def _open_bound(open_nodes: list[int], args: _Args, col_sum: Floats, col_max: Floats) -> float:
    """What the open nodes could still add: each one's best potential, less, for every node of B that is
    the best of several of them, what all but the most eager lose by taking their second best instead.

    With ``d_i`` = best less second best potential of node ``i`` (none counts 0), giving node ``j`` of B
    the price ``t_j`` = the second largest ``d_i`` of the nodes whose best it is, and each node
    ``max(second, best - t_j)``, is a solution of the dual of the assignment problem over the
    potentials, so its sum bounds any completion. ``col_sum`` and ``col_max`` (one per node of B;
    ``col_max`` -1 for a node not yet seen) are work space, left as they were.
    """
    active, decided, used, pair_src, pair_tgt, pair_u, ptr, nbr, w, rows = args
    total = 0.0
    touched: list[int] = []
    for i in open_nodes:
        b1 = 0.0
        b2 = 0.0
        j = -1
        for p in range(rows[i], rows[i + 1]):
            if used[pair_tgt[p]]:
                continue
            v = _potential(p, active, decided, used, pair_src, pair_tgt, pair_u, ptr, nbr, w)
            if v > b1:
                b2 = b1
                b1 = v
                j = int(pair_tgt[p])
            elif v > b2:
                b2 = v
        total += b1
        if j >= 0:
            d = b1 - b2
            if col_max[j] < 0.0:
                touched.append(j)
                col_sum[j] = d
                col_max[j] = d
            else:
                col_sum[j] += d
                if d > col_max[j]:
                    col_max[j] = d
    for j in touched:
        total -= col_sum[j] - col_max[j]
        col_max[j] = -1.0
    return total


def _incumbent(init: Ints, pair_u: Floats, ptr: Ints, nbr: Ints, w: Floats, active: _Bools) -> tuple[Ints, float]:
    """The incumbent's pairs and value: unary weights, then each term once (from its lower pair), in pair
    order (``active`` is left as it was, all False)."""
    best = np.full(init.shape[0], -1, dtype=np.int64)
    for i in range(init.shape[0]):
        if init[i] >= 0:
            best[i] = init[i]
            active[init[i]] = True
    best_value = 0.0
    for p in range(active.shape[0]):
        if active[p]:
            best_value += pair_u[p]
            for x in range(ptr[p], ptr[p + 1]):
                if nbr[x] > p and active[nbr[x]]:
                    best_value += w[x]
    active[:] = False
    return best, best_value


def _children(i: int, args: _Args) -> list[int]:
    """Node ``i``'s children: its pairs whose node of B is free, most promising first (ties in pair order),
    then -1 (none)."""
    active, decided, used, pair_src, pair_tgt, pair_u, ptr, nbr, w, rows = args
    scored = []
    for p in range(rows[i], rows[i + 1]):
        if not used[pair_tgt[p]]:
            scored.append((_potential(p, active, decided, used, pair_src, pair_tgt, pair_u, ptr, nbr, w), p))
    scored.sort(key=lambda s: -s[0])  # stable: ties in pair order
    return [p for _, p in scored] + [-1]


def _take(p: int, active: _Bools, used: _Bools, pair_tgt: Ints, pair_u: Floats, ptr: Ints, nbr: Ints,
          w: Floats) -> float:  # fmt: skip
    """Take pair ``p`` (none: -1); returns what it adds (its unary weight and its terms with pairs taken)."""
    gain = 0.0
    if p >= 0:
        gain = pair_u[p]
        for x in range(ptr[p], ptr[p + 1]):
            if active[nbr[x]]:
                gain += w[x]
        active[p] = True
        used[pair_tgt[p]] = True
    return gain


def branch_and_bound_kernel(
    n_a: int, n_b: int, pair_src: Ints, pair_tgt: Ints, pair_u: Floats, ptr: Ints, nbr: Ints, w: Floats, rows: Ints,
    init: Ints, gap: float, node_limit: int,
) -> SearchResult:  # fmt: skip
    """The best mapping: its pairs (a pair index per node of A, -1 none), value, whether proven, subtrees.

    ``init`` (a pair per node of A, one-to-one) is the incumbent; a mapping replaces it only when it
    is more than ``gap`` better. ``proven``: the search ended within ``node_limit`` subtrees, so no
    mapping is more than ``gap`` better than the one returned.
    """
    active = np.zeros(len(pair_src), dtype=bool)
    used = np.zeros(n_b, dtype=bool)
    decided = np.zeros(n_a, dtype=bool)
    best, best_value = _incumbent(init, pair_u, ptr, nbr, w, active)
    args: _Args = (active, decided, used, pair_src, pair_tgt, pair_u, ptr, nbr, w, rows)
    # branching order: nodes with candidates, by what their best pair could add at the root (most first)
    root = [_best_potential(i, *args) for i in range(n_a)]
    order = [i for i in range(n_a) if rows[i] < rows[i + 1]]
    order.sort(key=lambda i: -root[i])
    depth_n = len(order)
    # per depth: the children (pairs, most promising first; -1 = none last), the next to try, the value
    kids: list[list[int]] = [[] for _ in range(depth_n)]
    nxt = [0] * depth_n
    value = [0.0] * (depth_n + 1)
    choice = np.full(n_a, -1, dtype=np.int64)
    col_sum = np.zeros(n_b)
    col_max = np.full(n_b, -1.0)
    nodes = 0
    depth = 0
    entering = True
    while depth >= 0:
        if entering:
            nodes += 1
            if nodes > node_limit:
                return SearchResult(best, float(best_value), False, nodes)
            if depth == depth_n:
                if value[depth] > best_value + gap:
                    best_value = value[depth]
                    best[:] = -1
                    for i in order:
                        best[i] = choice[i]
                depth -= 1
                entering = False
                continue
            bound = value[depth] + _open_bound(order[depth:], args, col_sum, col_max)
            if bound <= best_value + gap:
                depth -= 1
                entering = False
                continue
            kids[depth] = _children(order[depth], args)
            nxt[depth] = 0
            decided[order[depth]] = True
        elif choice[order[depth]] >= 0:
            # back from a child: undo its choice
            p = choice[order[depth]]
            active[p] = False
            used[pair_tgt[p]] = False
            choice[order[depth]] = -1
        i = order[depth]
        if nxt[depth] == len(kids[depth]):
            decided[i] = False
            depth -= 1
            entering = False
            continue
        p = kids[depth][nxt[depth]]
        nxt[depth] += 1
        value[depth + 1] = value[depth] + _take(p, active, used, pair_tgt, pair_u, ptr, nbr, w)
        choice[i] = p
        depth += 1
        entering = True
    return SearchResult(best, float(best_value), True, nodes)

"""Exact search by branch and bound (plain Python): the specification of ``amr_branch_bound``.

Depth first over the nodes of A, each given one of its candidate pairs whose
node of B is free, or none. A subtree is cut when what it could reach is no
more than ``gap`` above the best mapping found: its value so far, plus for
each node still open the most one of its pairs could add (the pair's unary
weight, its terms with pairs taken, half of each term with a pair still open;
a term between two open pairs is counted at most half at each end). Every
weight is not negative, so that is an upper bound and, when the search ends
within ``node_limit`` subtrees, the best mapping found is within ``gap`` of
the optimum. ``_kernels.c`` follows it step by step (the same order of nodes,
children and sums), so both give identical results.
"""

from __future__ import annotations

import numpy as np


def _potential(p, active, decided, used, pair_src, pair_tgt, pair_u, ptr, nbr, w):
    v = pair_u[p]
    for x in range(ptr[p], ptr[p + 1]):
        q = nbr[x]
        if active[q]:
            v += w[x]
        elif not decided[pair_src[q]] and not used[pair_tgt[q]]:
            v += 0.5 * w[x]
    return v


def _best_potential(i, active, decided, used, pair_src, pair_tgt, pair_u, ptr, nbr, w, rows):
    best = 0.0
    for p in range(rows[i], rows[i + 1]):
        if not used[pair_tgt[p]]:
            v = _potential(p, active, decided, used, pair_src, pair_tgt, pair_u, ptr, nbr, w)
            if v > best:
                best = v
    return best


def branch_and_bound(n_a, n_b, pair_src, pair_tgt, pair_u, ptr, nbr, w, rows, init, gap, node_limit):
    """The best mapping: ``(pairs, value, proven, nodes)``; ``pairs`` a pair index per node of A (-1 none).

    ``init`` (a pair per node of A, one-to-one) is the incumbent; a mapping replaces it only when it
    is more than ``gap`` better. ``proven``: the search ended within ``node_limit`` subtrees, so no
    mapping is more than ``gap`` better than the one returned.
    """
    n_pairs = len(pair_src)
    active = np.zeros(n_pairs, dtype=bool)
    used = np.zeros(n_b, dtype=bool)
    decided = np.zeros(n_a, dtype=bool)
    best = np.full(n_a, -1, dtype=np.int64)
    # the incumbent and its value: unary weights, then each term once (from its lower pair), in pair order
    for i in range(n_a):
        if init[i] >= 0:
            best[i] = init[i]
            active[init[i]] = True
    best_value = 0.0
    for p in range(n_pairs):
        if active[p]:
            best_value += pair_u[p]
            for x in range(ptr[p], ptr[p + 1]):
                if nbr[x] > p and active[nbr[x]]:
                    best_value += w[x]
    active[:] = False
    # branching order: nodes with candidates, by what their best pair could add at the root (most first)
    root = [
        _best_potential(i, active, decided, used, pair_src, pair_tgt, pair_u, ptr, nbr, w, rows) for i in range(n_a)
    ]
    order = [i for i in range(n_a) if rows[i] < rows[i + 1]]
    order.sort(key=lambda i: -root[i])
    depth_n = len(order)
    # per depth: the children (pairs, most promising first; -1 = none last), the next to try, the value
    kids: list[list[int]] = [[] for _ in range(depth_n)]
    nxt = [0] * depth_n
    value = [0.0] * (depth_n + 1)
    choice = np.full(n_a, -1, dtype=np.int64)
    nodes = 0
    stopped = False
    depth = 0
    entering = True
    while True:
        if entering:
            nodes += 1
            if nodes > node_limit:
                stopped = True
                break
            if depth == depth_n:
                if value[depth] > best_value + gap:
                    best_value = value[depth]
                    best[:] = -1
                    for i in order:
                        best[i] = choice[i]
                depth -= 1
                entering = False
                if depth < 0:
                    break
                continue
            bound = value[depth]
            for k in range(depth, depth_n):
                bound += _best_potential(order[k], active, decided, used, pair_src, pair_tgt, pair_u, ptr, nbr, w, rows)
            if bound <= best_value + gap:
                depth -= 1
                entering = False
                if depth < 0:
                    break
                continue
            i = order[depth]
            scored = []
            for p in range(rows[i], rows[i + 1]):
                if not used[pair_tgt[p]]:
                    scored.append((_potential(p, active, decided, used, pair_src, pair_tgt, pair_u, ptr, nbr, w), p))
            scored.sort(key=lambda s: -s[0])  # stable: ties in pair order
            kids[depth] = [p for _, p in scored] + [-1]
            nxt[depth] = 0
            decided[i] = True
        else:
            # back from a child: undo its choice
            i = order[depth]
            p = choice[i]
            if p >= 0:
                active[p] = False
                used[pair_tgt[p]] = False
                choice[i] = -1
        i = order[depth]
        if nxt[depth] == len(kids[depth]):
            decided[i] = False
            depth -= 1
            entering = False
            if depth < 0:
                break
            continue
        p = kids[depth][nxt[depth]]
        nxt[depth] += 1
        gain = 0.0
        if p >= 0:
            gain = pair_u[p]
            for x in range(ptr[p], ptr[p + 1]):
                if active[nbr[x]]:
                    gain += w[x]
            active[p] = True
            used[pair_tgt[p]] = True
        choice[i] = p
        value[depth + 1] = value[depth] + gain
        depth += 1
        entering = True
    return best, float(best_value), not stopped, nodes

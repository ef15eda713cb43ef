"""Compiled kernels of the alignment engine (Numba).

These functions work on plain integer and float arrays only; the Python side
(:mod:`amreval.match.alignment`) prepares the arrays and reads the results. With
``NUMBA_DISABLE_JIT=1`` they run as ordinary Python (slowly), which is how
the benchmark measures what compiling buys.
"""

from __future__ import annotations

import numpy as np
from numba import njit

_EPS = 1e-9


@njit(cache=True)
def build_pool(
    inst_a,
    attr_a,
    rel_a,
    inst_b,
    attr_b,
    rel_b,
    allowed,
    use_allowed,
    inst_w,
    use_inst_w,
    inst_bw,
    attr_bw,
    rel_bw,
):
    """Candidate pool, unary weights, pairwise terms and a simple upper bound.

    Returns ``(pair_id, pair_src, pair_tgt, pair_u, term_p, term_q, term_ta,
    term_tb, term_w, bound)``. ``pair_id`` is an ``n_a x n_b`` matrix of pair
    indices (-1 where (i, j) is not a candidate). Terms are one per matchable
    (relation of A, relation of B) with distinct ends; relation matches that
    need the same pair at both ends (self-loops) are folded into unary weights.
    """
    n_a = inst_a.shape[0]
    n_b = inst_b.shape[0]
    unary = np.zeros((n_a, n_b), dtype=np.float64)
    in_term = np.zeros((n_a, n_b), dtype=np.bool_)
    best_a_inst = np.zeros(n_a, dtype=np.float64)
    best_b_inst = np.zeros(n_b, dtype=np.float64)
    for i in range(n_a):
        for j in range(n_b):
            if use_allowed and not allowed[i, j]:
                continue
            if use_inst_w:
                w = inst_w[i, j] * inst_bw[j]
            elif inst_a[i] == inst_b[j]:
                w = inst_bw[j]
            else:
                w = 0.0
            if w > 0.0:
                unary[i, j] += w
                if w > best_a_inst[i]:
                    best_a_inst[i] = w
                if w > best_b_inst[j]:
                    best_b_inst[j] = w
    m_a = attr_a.shape[0]
    m_b = attr_b.shape[0]
    attr_a_best = np.zeros(m_a, dtype=np.float64)
    attr_b_best = np.zeros(m_b, dtype=np.float64)
    for s in range(m_a):
        i = attr_a[s, 0]
        for t in range(m_b):
            if attr_a[s, 1] != attr_b[t, 1]:
                continue
            j = attr_b[t, 0]
            if use_allowed and not allowed[i, j]:
                continue
            unary[i, j] += attr_bw[t]
            if attr_bw[t] > attr_a_best[s]:
                attr_a_best[s] = attr_bw[t]
            attr_b_best[t] = attr_bw[t]
    r_a = rel_a.shape[0]
    r_b = rel_b.shape[0]
    rel_a_best = np.zeros(r_a, dtype=np.float64)
    rel_b_best = np.zeros(r_b, dtype=np.float64)
    cap = 16
    t_i = np.empty(cap, dtype=np.int64)
    t_j = np.empty(cap, dtype=np.int64)
    t_k = np.empty(cap, dtype=np.int64)
    t_l = np.empty(cap, dtype=np.int64)
    t_ta = np.empty(cap, dtype=np.int64)
    t_tb = np.empty(cap, dtype=np.int64)
    t_w = np.empty(cap, dtype=np.float64)
    n_terms = 0
    for s in range(r_a):
        role = rel_a[s, 0]
        i = rel_a[s, 1]
        k = rel_a[s, 2]
        for t in range(r_b):
            if rel_b[t, 0] != role:
                continue
            j = rel_b[t, 1]
            l = rel_b[t, 2]  # noqa: E741
            if (i == k) != (j == l):
                continue
            if use_allowed and not (allowed[i, j] and allowed[k, l]):
                continue
            if rel_bw[t] > rel_a_best[s]:
                rel_a_best[s] = rel_bw[t]
            rel_b_best[t] = rel_bw[t]
            if i == k:
                unary[i, j] += rel_bw[t]
                continue
            if n_terms == cap:
                cap *= 2
                t_i = _grow_i(t_i, cap)
                t_j = _grow_i(t_j, cap)
                t_k = _grow_i(t_k, cap)
                t_l = _grow_i(t_l, cap)
                t_ta = _grow_i(t_ta, cap)
                t_tb = _grow_i(t_tb, cap)
                t_w = _grow_f(t_w, cap)
            t_i[n_terms] = i
            t_j[n_terms] = j
            t_k[n_terms] = k
            t_l[n_terms] = l
            t_ta[n_terms] = s
            t_tb[n_terms] = t
            t_w[n_terms] = rel_bw[t]
            in_term[i, j] = True
            in_term[k, l] = True
            n_terms += 1
    # pair ids, ordered by source then target
    pair_id = np.full((n_a, n_b), -1, dtype=np.int64)
    n_pairs = 0
    for i in range(n_a):
        for j in range(n_b):
            if unary[i, j] > 0.0 or in_term[i, j]:
                pair_id[i, j] = n_pairs
                n_pairs += 1
    pair_src = np.empty(n_pairs, dtype=np.int64)
    pair_tgt = np.empty(n_pairs, dtype=np.int64)
    pair_u = np.empty(n_pairs, dtype=np.float64)
    for i in range(n_a):
        for j in range(n_b):
            p = pair_id[i, j]
            if p >= 0:
                pair_src[p] = i
                pair_tgt[p] = j
                pair_u[p] = unary[i, j]
    term_p = np.empty(n_terms, dtype=np.int64)
    term_q = np.empty(n_terms, dtype=np.int64)
    for e in range(n_terms):
        term_p[e] = pair_id[t_i[e], t_j[e]]
        term_q[e] = pair_id[t_k[e], t_l[e]]
    # upper bound: every triple of A matches at most one of B and vice versa,
    # each earning at most the largest weight it can earn
    bound_a = best_a_inst.sum() + attr_a_best.sum() + rel_a_best.sum()
    bound_b = best_b_inst.sum() + attr_b_best.sum() + rel_b_best.sum()
    bound = min(bound_a, bound_b)
    return (
        pair_id,
        pair_src,
        pair_tgt,
        pair_u,
        term_p,
        term_q,
        t_ta[:n_terms].copy(),
        t_tb[:n_terms].copy(),
        t_w[:n_terms].copy(),
        bound,
    )


@njit(cache=True)
def _grow_i(a, cap):
    out = np.empty(cap, dtype=np.int64)
    out[: a.shape[0]] = a
    return out


@njit(cache=True)
def _grow_f(a, cap):
    out = np.empty(cap, dtype=np.float64)
    out[: a.shape[0]] = a
    return out


@njit(cache=True)
def adjacency(n_pairs, term_p, term_q, term_w):
    """Symmetric CSR adjacency of pairwise terms: ``(ptr, nbr, w)``."""
    deg = np.zeros(n_pairs + 1, dtype=np.int64)
    for e in range(term_p.shape[0]):
        deg[term_p[e] + 1] += 1
        deg[term_q[e] + 1] += 1
    for p in range(n_pairs):
        deg[p + 1] += deg[p]
    fill = deg[:-1].copy()
    nbr = np.empty(deg[-1], dtype=np.int64)
    w = np.empty(deg[-1], dtype=np.float64)
    for e in range(term_p.shape[0]):
        p = term_p[e]
        q = term_q[e]
        nbr[fill[p]] = q
        w[fill[p]] = term_w[e]
        fill[p] += 1
        nbr[fill[q]] = p
        w[fill[q]] = term_w[e]
        fill[q] += 1
    return deg, nbr, w


@njit(cache=True)
def _splitmix(state):
    state = (state + np.uint64(0x9E3779B97F4A7C15)) & np.uint64(0xFFFFFFFFFFFFFFFF)
    z = state
    z = ((z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)) & np.uint64(0xFFFFFFFFFFFFFFFF)
    z = ((z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)) & np.uint64(0xFFFFFFFFFFFFFFFF)
    z = z ^ (z >> np.uint64(31))
    return state, z


@njit(cache=True)
def _pair_weight(p, q, ptr, nbr, w):
    total = 0.0
    if p < 0 or q < 0:
        return total
    for x in range(ptr[p], ptr[p + 1]):
        if nbr[x] == q:
            total += w[x]
    return total


@njit(cache=True)
def _activate(p, sign, ctx, ptr, nbr, w):
    for x in range(ptr[p], ptr[p + 1]):
        ctx[nbr[x]] += sign * w[x]


@njit(cache=True)
def _climb(mapping, used, ctx, pair_src, pair_tgt, pair_u, pair_id, ptr, nbr, w, cand_ptr):
    """Steepest-ascent hill climbing from the state given; returns the gain."""
    n_a = mapping.shape[0]
    total_gain = 0.0
    while True:
        best_gain = _EPS
        best_i = -1
        best_p = -1
        best_k = -1
        best_pd = -1
        for i in range(n_a):
            cur = mapping[i]
            cur_val = 0.0
            a = -1
            if cur >= 0:
                cur_val = pair_u[cur] + ctx[cur]
                a = pair_tgt[cur]
            for p in range(cand_ptr[i], cand_ptr[i + 1]):
                if p == cur:
                    continue
                j = pair_tgt[p]
                k = used[j]
                if k < 0:
                    # a move: j is free, so i leaves cur (worth cur_val) for p; p and cur share
                    # source node i, so they have no term and ctx[p] needs no correction
                    gain = pair_u[p] + ctx[p] - cur_val
                    if gain > best_gain:
                        best_gain = gain
                        best_i = i
                        best_p = p
                        best_k = -1
                        best_pd = -1
                else:
                    # A swap: j is taken by node k (pair pb = k -> j), so i takes j (pair p)
                    # and k takes i's old target a (pair pd = k -> a), or nothing if i had none.
                    # ctx[x] is the pairwise weight between pair x and every active pair. The
                    # pairs leaving (cur, pb) and the pairs entering (p, pd) share no term with
                    # the pair they replace: two pairs of one source node, or of one target
                    # node, never form a term (a relation from a node to itself lives in the
                    # unary weight). So ctx[p] and ctx[pd], taken while cur and pb are still
                    # active, hold exactly their terms with the pairs that stay.
                    pd = -1
                    if a >= 0:
                        pd = pair_id[k, a]
                        if pd < 0:
                            continue
                    pb = mapping[k]
                    # entering: both pairs with their context, plus the term between them
                    # (inactive now, so in neither ctx)
                    new_val = pair_u[p] + ctx[p]
                    if pd >= 0:
                        new_val += pair_u[pd] + ctx[pd] + _pair_weight(p, pd, ptr, nbr, w)
                    # leaving: both pairs with their context; the term between cur and pb is in
                    # ctx[cur] and in ctx[pb], so it is counted twice and taken off once
                    old_val = cur_val + pair_u[pb] + ctx[pb]
                    if cur >= 0:
                        old_val -= _pair_weight(cur, pb, ptr, nbr, w)
                    gain = new_val - old_val
                    if gain > best_gain:
                        best_gain = gain
                        best_i = i
                        best_p = p
                        best_k = k
                        best_pd = pd
        if best_i < 0:
            return total_gain
        total_gain += best_gain
        i = best_i
        cur = mapping[i]
        if best_k < 0:
            if cur >= 0:
                _activate(cur, -1.0, ctx, ptr, nbr, w)
                used[pair_tgt[cur]] = -1
            _activate(best_p, 1.0, ctx, ptr, nbr, w)
            mapping[i] = best_p
            used[pair_tgt[best_p]] = i
        else:
            k = best_k
            pb = mapping[k]
            if cur >= 0:
                _activate(cur, -1.0, ctx, ptr, nbr, w)
            _activate(pb, -1.0, ctx, ptr, nbr, w)
            _activate(best_p, 1.0, ctx, ptr, nbr, w)
            mapping[i] = best_p
            used[pair_tgt[best_p]] = i
            if best_pd >= 0:
                _activate(best_pd, 1.0, ctx, ptr, nbr, w)
                mapping[k] = best_pd
                used[pair_tgt[best_pd]] = k
            else:
                mapping[k] = -1
                if cur >= 0:
                    used[pair_tgt[cur]] = -1


@njit(cache=True)
def _score(mapping, pair_u, ctx):
    s = 0.0
    for i in range(mapping.shape[0]):
        p = mapping[i]
        if p >= 0:
            s += pair_u[p] + 0.5 * ctx[p]
    return s


@njit(cache=True)
def hill_climb(n_a, n_b, pair_src, pair_tgt, pair_u, pair_id, ptr, nbr, w, restarts, seed, bound, init):
    """Smart start (or ``init`` when given), then ``restarts`` random starts.

    Returns ``(best_mapping_as_pairs, best_score, climbs_run)``. The search
    stops early once a climb reaches ``bound``.
    """
    n_pairs = pair_src.shape[0]
    cand_ptr = np.zeros(n_a + 1, dtype=np.int64)
    for p in range(n_pairs):
        cand_ptr[pair_src[p] + 1] += 1
    for i in range(n_a):
        cand_ptr[i + 1] += cand_ptr[i]
    best_map = np.full(n_a, -1, dtype=np.int64)
    best_score = -1.0
    mapping = np.full(n_a, -1, dtype=np.int64)
    used = np.full(n_b, -1, dtype=np.int64)
    ctx = np.zeros(n_pairs, dtype=np.float64)
    state = np.uint64(seed) * np.uint64(0x2545F4914F6CDD1D) + np.uint64(0x632BE59BD9B4E019)
    order = np.argsort(-pair_u, kind="mergesort")
    climbs = 0
    for r in range(restarts + 1):
        mapping[:] = -1
        used[:] = -1
        ctx[:] = 0.0
        if r == 0:
            if init.shape[0] == n_a:
                for i in range(n_a):
                    p = init[i]
                    if p >= 0 and used[pair_tgt[p]] < 0:
                        mapping[i] = p
                        used[pair_tgt[p]] = i
                        _activate(p, 1.0, ctx, ptr, nbr, w)
            else:
                # smart start: greedy by unary weight
                for x in range(n_pairs):
                    p = order[x]
                    if pair_u[p] <= 0.0:
                        break
                    i = pair_src[p]
                    j = pair_tgt[p]
                    if mapping[i] < 0 and used[j] < 0:
                        mapping[i] = p
                        used[j] = i
                        _activate(p, 1.0, ctx, ptr, nbr, w)
        else:
            # random start: nodes in random order, each to a random free candidate
            perm = np.arange(n_a)
            for x in range(n_a - 1, 0, -1):
                state, z = _splitmix(state)
                y = np.int64(z % np.uint64(x + 1))
                tmp = perm[x]
                perm[x] = perm[y]
                perm[y] = tmp
            for x in range(n_a):
                i = perm[x]
                free = 0
                for p in range(cand_ptr[i], cand_ptr[i + 1]):
                    if used[pair_tgt[p]] < 0:
                        free += 1
                if free == 0:
                    continue
                state, z = _splitmix(state)
                pick = np.int64(z % np.uint64(free))
                for p in range(cand_ptr[i], cand_ptr[i + 1]):
                    if used[pair_tgt[p]] < 0:
                        if pick == 0:
                            mapping[i] = p
                            used[pair_tgt[p]] = i
                            _activate(p, 1.0, ctx, ptr, nbr, w)
                            break
                        pick -= 1
        _climb(mapping, used, ctx, pair_src, pair_tgt, pair_u, pair_id, ptr, nbr, w, cand_ptr)
        climbs += 1
        score = _score(mapping, pair_u, ctx)
        if score > best_score + _EPS:
            best_score = score
            best_map[:] = mapping
        if best_score >= bound - _EPS:
            break
    return best_map, best_score, climbs

"""The kernels that build the alignment problem: candidates, weights, terms (plain Python).

They work on plain integer and float arrays only; :mod:`amreval.match.problem`
prepares the arrays and reads the results through :func:`amreval.match.kernels.kernels`.
This is the specification of the compiled kernels (``_kernels.c`` follows it
loop by loop and gives identical results) and what runs where they are not
built, or with ``AMREVAL_KERNELS=python``.
"""

from __future__ import annotations

import numpy as np


def compatible(i, j, ga_ptr, ga_ids, gb_ptr, gb_ids):
    """Whether node i of A may align with node j of B: they share a group.

    Each id of the shorter list is looked up in the longer one (both sorted),
    so a node in hundreds of sentences costs a few steps, not hundreds.
    """
    a_lo = ga_ptr[i]
    a_hi = ga_ptr[i + 1]
    b_lo = gb_ptr[j]
    b_hi = gb_ptr[j + 1]
    if a_hi - a_lo <= b_hi - b_lo:
        for x in range(a_lo, a_hi):
            y = np.searchsorted(gb_ids[b_lo:b_hi], ga_ids[x])
            if y < b_hi - b_lo and gb_ids[b_lo + y] == ga_ids[x]:
                return True
    else:
        for y in range(b_lo, b_hi):
            x = np.searchsorted(ga_ids[a_lo:a_hi], gb_ids[y])
            if x < a_hi - a_lo and ga_ids[a_lo + x] == gb_ids[y]:
                return True
    return False


def _group_index(keys, owners, gb_ptr, gb_ids, n_groups):
    """Items of B (with a key and an owner node) sorted by (key, group of the owner), one entry per group.

    Returns ``(composite, items)``: ``composite = key * n_groups + group``, ascending,
    and for each entry its item; within one composite value items ascend.
    """
    total = 0
    for t in range(keys.shape[0]):
        j = owners[t]
        total += gb_ptr[j + 1] - gb_ptr[j]
    comp = np.empty(total, dtype=np.int64)
    item = np.empty(total, dtype=np.int64)
    x = 0
    for t in range(keys.shape[0]):
        j = owners[t]
        for y in range(gb_ptr[j], gb_ptr[j + 1]):
            comp[x] = keys[t] * n_groups + gb_ids[y]
            item[x] = t
            x += 1
    order = np.argsort(comp, kind="mergesort")
    return comp[order].copy(), item[order].copy()


def _range_of(sorted_keys, key):
    """``[lo, hi)`` of ``key`` in an ascending array."""
    lo = np.searchsorted(sorted_keys, key, side="left")
    hi = np.searchsorted(sorted_keys, key, side="right")
    return lo, hi


def _count_matches(keys_a, owners_a, keys_b, owners_b, ga_ptr, ga_ids, gb_ptr, gb_ids, n_groups):
    """Matching (triple of A, triple of B) of a shared group, each once."""
    comp, item = _group_index(keys_b, owners_b, gb_ptr, gb_ids, n_groups)
    seen = np.full(keys_b.shape[0], -1, dtype=np.int64)
    count = 0
    for s in range(keys_a.shape[0]):
        i = owners_a[s]
        for g in ga_ids[ga_ptr[i] : ga_ptr[i + 1]]:
            lo, hi = _range_of(comp, keys_a[s] * n_groups + g)
            for x in range(lo, hi):
                t = item[x]
                if seen[t] == s:
                    continue
                seen[t] = s
                count += 1
    return count


def count_entries(inst_a, attr_a, rel_a, inst_b, attr_b, rel_b, ga_ptr, ga_ids, gb_ptr, gb_ids, n_groups, dense):
    """An upper bound on the node pairs :func:`build_pool` gathers before it merges them: the matching
    instance (every cell of a ``dense`` instance table), attribute and relation triples of shared groups."""
    n_a, n_b = inst_a.shape[0], inst_b.shape[0]
    groups = (ga_ptr, ga_ids, gb_ptr, gb_ids, n_groups)
    if dense:
        count = n_a * n_b
    else:
        count = _count_matches(inst_a, np.arange(n_a), inst_b, np.arange(n_b), *groups)
    count += _count_matches(attr_a[:, 1], attr_a[:, 0], attr_b[:, 1], attr_b[:, 0], *groups)
    return count + _count_matches(rel_a[:, 0], rel_a[:, 1], rel_b[:, 0], rel_b[:, 1], *groups)


def count_terms(rel_a, rel_b, ga_ptr, ga_ids, gb_ptr, gb_ids, n_groups):
    """The number of pairwise terms :func:`build_pool` will make (to check memory first)."""
    comp, item = _group_index(rel_b[:, 0], rel_b[:, 1], gb_ptr, gb_ids, n_groups)
    seen = np.full(rel_b.shape[0], -1, dtype=np.int64)
    n_terms = 0
    for s in range(rel_a.shape[0]):
        i = rel_a[s, 1]
        k = rel_a[s, 2]
        if i == k:
            continue
        for g in ga_ids[ga_ptr[i] : ga_ptr[i + 1]]:
            lo, hi = _range_of(comp, rel_a[s, 0] * n_groups + g)
            for x in range(lo, hi):
                t = item[x]
                if seen[t] == s:
                    continue
                seen[t] = s
                j = rel_b[t, 1]
                l = rel_b[t, 2]  # noqa: E741
                if j == l:
                    continue
                if compatible(k, l, ga_ptr, ga_ids, gb_ptr, gb_ids):
                    n_terms += 1
    return n_terms


def build_pool(
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
    """Candidate pool, unary weights, pairwise terms and a simple upper bound.

    Node ``i`` of A may align with node ``j`` of B when they share a group
    (``g*_ptr``/``g*_ids``: each node's groups, ascending ids below
    ``n_groups``; one group for all when unconstrained). Returns
    ``(pair_src, pair_tgt, pair_u, term_p, term_q, term_ta, term_tb, term_w,
    bound)``. Candidate pairs are ordered by source, then target. Terms are
    one per matchable (relation of A, relation of B) with distinct ends, in
    (relation of A, relation of B) order; relation matches that need the same
    pair at both ends (self-loops) are folded into unary weights. B's triples
    are looked up by (concept, attribute or role, group), so only matching
    triples of shared groups are visited, each once (a stamp per triple skips
    it under a later shared group), and nothing is allocated per node pair: time and
    memory grow with the candidates and terms.
    """
    n_a = inst_a.shape[0]
    n_b = inst_b.shape[0]
    # unary contributions as (pair key, weight) entries, in the order they are found
    e_key = np.empty(16, dtype=np.int64)
    e_w = np.empty(16, dtype=np.float64)
    n_e = 0
    best_a_inst = np.zeros(n_a, dtype=np.float64)
    best_b_inst = np.zeros(n_b, dtype=np.float64)
    if use_inst_w:
        for i in range(n_a):
            for j in range(n_b):
                if not compatible(i, j, ga_ptr, ga_ids, gb_ptr, gb_ids):
                    continue
                w = inst_w[i, j] * inst_bw[j]
                if w > 0.0:
                    e_key, e_w, n_e = _push(e_key, e_w, n_e, i * n_b + j, w)
                    if w > best_a_inst[i]:
                        best_a_inst[i] = w
                    if w > best_b_inst[j]:
                        best_b_inst[j] = w
    else:
        comp, item = _group_index(inst_b, np.arange(n_b), gb_ptr, gb_ids, n_groups)
        seen = np.full(n_b, -1, dtype=np.int64)
        for i in range(n_a):
            for g in ga_ids[ga_ptr[i] : ga_ptr[i + 1]]:
                lo, hi = _range_of(comp, inst_a[i] * n_groups + g)
                for x in range(lo, hi):
                    j = item[x]
                    # a node of B in several shared groups is met once, under the first
                    if seen[j] == i:
                        continue
                    seen[j] = i
                    w = inst_bw[j]
                    if w > 0.0:
                        e_key, e_w, n_e = _push(e_key, e_w, n_e, i * n_b + j, w)
                        if w > best_a_inst[i]:
                            best_a_inst[i] = w
                        if w > best_b_inst[j]:
                            best_b_inst[j] = w
    m_a = attr_a.shape[0]
    m_b = attr_b.shape[0]
    attr_a_best = np.zeros(m_a, dtype=np.float64)
    attr_b_best = np.zeros(m_b, dtype=np.float64)
    comp, item = _group_index(attr_b[:, 1], attr_b[:, 0], gb_ptr, gb_ids, n_groups)
    seen = np.full(m_b, -1, dtype=np.int64)
    for s in range(m_a):
        i = attr_a[s, 0]
        for g in ga_ids[ga_ptr[i] : ga_ptr[i + 1]]:
            lo, hi = _range_of(comp, attr_a[s, 1] * n_groups + g)
            for x in range(lo, hi):
                t = item[x]
                if seen[t] == s:
                    continue
                seen[t] = s
                j = attr_b[t, 0]
                e_key, e_w, n_e = _push(e_key, e_w, n_e, i * n_b + j, attr_bw[t])
                if attr_bw[t] > attr_a_best[s]:
                    attr_a_best[s] = attr_bw[t]
                attr_b_best[t] = attr_bw[t]
    r_a = rel_a.shape[0]
    r_b = rel_b.shape[0]
    rel_a_best = np.zeros(r_a, dtype=np.float64)
    rel_b_best = np.zeros(r_b, dtype=np.float64)
    t_cap = 16
    t_i = np.empty(t_cap, dtype=np.int64)
    t_j = np.empty(t_cap, dtype=np.int64)
    t_k = np.empty(t_cap, dtype=np.int64)
    t_l = np.empty(t_cap, dtype=np.int64)
    t_ta = np.empty(t_cap, dtype=np.int64)
    t_tb = np.empty(t_cap, dtype=np.int64)
    t_w = np.empty(t_cap, dtype=np.float64)
    n_terms = 0
    comp, item = _group_index(rel_b[:, 0], rel_b[:, 1], gb_ptr, gb_ids, n_groups)
    seen = np.full(r_b, -1, dtype=np.int64)
    for s in range(r_a):
        i = rel_a[s, 1]
        k = rel_a[s, 2]
        for g in ga_ids[ga_ptr[i] : ga_ptr[i + 1]]:
            lo, hi = _range_of(comp, rel_a[s, 0] * n_groups + g)
            for x in range(lo, hi):
                t = item[x]
                if seen[t] == s:
                    continue
                seen[t] = s
                j = rel_b[t, 1]
                l = rel_b[t, 2]  # noqa: E741
                if (i == k) != (j == l):
                    continue
                if not compatible(k, l, ga_ptr, ga_ids, gb_ptr, gb_ids):
                    continue
                if rel_bw[t] > rel_a_best[s]:
                    rel_a_best[s] = rel_bw[t]
                rel_b_best[t] = rel_bw[t]
                if i == k:
                    e_key, e_w, n_e = _push(e_key, e_w, n_e, i * n_b + j, rel_bw[t])
                    continue
                if n_terms == t_cap:
                    t_cap *= 2
                    t_i = _grow_i(t_i, t_cap)
                    t_j = _grow_i(t_j, t_cap)
                    t_k = _grow_i(t_k, t_cap)
                    t_l = _grow_i(t_l, t_cap)
                    t_ta = _grow_i(t_ta, t_cap)
                    t_tb = _grow_i(t_tb, t_cap)
                    t_w = _grow_f(t_w, t_cap)
                t_i[n_terms] = i
                t_j[n_terms] = j
                t_k[n_terms] = k
                t_l[n_terms] = l
                t_ta[n_terms] = s
                t_tb[n_terms] = t
                t_w[n_terms] = rel_bw[t]
                n_terms += 1
    # terms in (relation of A, relation of B) order, whatever group found them
    order = np.argsort(t_ta[:n_terms] * r_b + t_tb[:n_terms], kind="mergesort")
    t_i = t_i[order]
    t_j = t_j[order]
    t_k = t_k[order]
    t_l = t_l[order]
    t_ta = t_ta[order]
    t_tb = t_tb[order]
    t_w = t_w[order]
    # term ends are candidates even without unary weight: zero-weight entries for them
    total = n_e + 2 * n_terms
    keys_all = np.empty(total, dtype=np.int64)
    w_all = np.zeros(total, dtype=np.float64)
    keys_all[:n_e] = e_key[:n_e]
    w_all[:n_e] = e_w[:n_e]
    for e in range(n_terms):
        keys_all[n_e + 2 * e] = t_i[e] * n_b + t_j[e]
        keys_all[n_e + 2 * e + 1] = t_k[e] * n_b + t_l[e]
    in_term = np.zeros(total, dtype=np.bool_)
    in_term[n_e:] = True
    # pairs in (source, target) order; a stable sort keeps each pair's weights in the order found,
    # so they add up exactly as a scan over a dense table would
    order = np.argsort(keys_all, kind="mergesort")
    n_pairs = 0
    pair_key = np.empty(total, dtype=np.int64)
    pair_u = np.zeros(total, dtype=np.float64)
    flag = np.zeros(total, dtype=np.bool_)
    last = -1
    for x in range(total):
        y = order[x]
        key = keys_all[y]
        if key != last:
            pair_key[n_pairs] = key
            n_pairs += 1
            last = key
        pair_u[n_pairs - 1] += w_all[y]
        if in_term[y]:
            flag[n_pairs - 1] = True
    keep = np.zeros(n_pairs, dtype=np.bool_)
    n_keep = 0
    for p in range(n_pairs):
        if pair_u[p] > 0.0 or flag[p]:
            keep[p] = True
            n_keep += 1
    pair_src = np.empty(n_keep, dtype=np.int64)
    pair_tgt = np.empty(n_keep, dtype=np.int64)
    out_u = np.empty(n_keep, dtype=np.float64)
    kept_key = np.empty(n_keep, dtype=np.int64)
    q = 0
    for p in range(n_pairs):
        if keep[p]:
            pair_src[q] = pair_key[p] // n_b
            pair_tgt[q] = pair_key[p] % n_b
            out_u[q] = pair_u[p]
            kept_key[q] = pair_key[p]
            q += 1
    term_p = np.empty(n_terms, dtype=np.int64)
    term_q = np.empty(n_terms, dtype=np.int64)
    for e in range(n_terms):
        term_p[e] = np.searchsorted(kept_key, t_i[e] * n_b + t_j[e])
        term_q[e] = np.searchsorted(kept_key, t_k[e] * n_b + t_l[e])
    # upper bound: every triple of A matches at most one of B and vice versa,
    # each earning at most the largest weight it can earn
    bound_a = _sum(best_a_inst) + _sum(attr_a_best) + _sum(rel_a_best)
    bound_b = _sum(best_b_inst) + _sum(attr_b_best) + _sum(rel_b_best)
    bound = min(bound_a, bound_b)
    return (
        pair_src,
        pair_tgt,
        out_u,
        term_p,
        term_q,
        t_ta[:n_terms].copy(),
        t_tb[:n_terms].copy(),
        t_w[:n_terms].copy(),
        bound,
    )


def _sum(values):
    """The sum in index order, one addition at a time (as the C adds)."""
    total = 0.0
    for v in values:
        total += float(v)
    return total


def find_pair(cand_ptr, pair_tgt, i, j):
    """The index of candidate pair ``(i, j)``, or -1 (row ``i`` holds its targets in ascending order)."""
    lo = cand_ptr[i]
    hi = cand_ptr[i + 1]
    while lo < hi:
        mid = (lo + hi) // 2
        t = pair_tgt[mid]
        if t == j:
            return mid
        if t < j:
            lo = mid + 1
        else:
            hi = mid
    return -1


def row_pointers(n_a, pair_src):
    """Where each node's candidate pairs start (pairs are ordered by source)."""
    ptr = np.zeros(n_a + 1, dtype=np.int64)
    for p in range(pair_src.shape[0]):
        ptr[pair_src[p] + 1] += 1
    for i in range(n_a):
        ptr[i + 1] += ptr[i]
    return ptr


def _push(keys, weights, n, key, weight):
    """Append ``(key, weight)`` at position ``n``, doubling the arrays when full; returns them and ``n + 1``."""
    if n == keys.shape[0]:
        keys = _grow_i(keys, 2 * n)
        weights = _grow_f(weights, 2 * n)
    keys[n] = key
    weights[n] = weight
    return keys, weights, n + 1


def _grow_i(a, cap):
    out = np.empty(cap, dtype=np.int64)
    out[: a.shape[0]] = a
    return out


def _grow_f(a, cap):
    out = np.empty(cap, dtype=np.float64)
    out[: a.shape[0]] = a
    return out


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

"""The kernels that build the alignment problem: candidates, weights, terms (plain Python).

They work on plain integer and float arrays only, checked by
:mod:`amreval.match.kernels.checks`; :mod:`amreval.match.problem` prepares the arrays
and reads the results through :func:`amreval.match.kernels.backends.kernels`. This is the
specification of the compiled kernels (``amr_build_problem`` and the functions it
calls in ``_kernels.c`` follow it loop by loop and give identical results; the
count checked against the memory budget, :func:`count_problem`, sorts and joins
the same signatures) and what runs where they are not built, or with
``AMREVAL_KERNELS=python``.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterator
from typing import NamedTuple

import numpy as np

from amreval.errors import TooLarge
from amreval.match.kernels.contract import (
    Adjacency,
    BlockCounts,
    Budget,
    Floats,
    GraphArrays,
    GroupArrays,
    Ints,
    PoolWeights,
    ProblemArrays,
    ProblemBlock,
    pack_block,
)


def compatible(i: int, j: int, ga_ptr: Ints, ga_ids: Ints, gb_ptr: Ints, gb_ids: Ints) -> bool:
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


def _group_index(keys: Ints, owners: Ints, gb_ptr: Ints, gb_ids: Ints, n_groups: int) -> tuple[Ints, Ints]:
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


def _matches(
    keys_a: Ints, owners_a: Ints, keys_b: Ints, owners_b: Ints, groups: GroupArrays
) -> Iterator[tuple[int, int]]:
    """Each (item ``s`` of A, item ``t`` of B) of one key whose owner nodes share a group, once.

    B's items are looked up by (key, group), so only matching items of shared groups are visited; an
    item of B met under several shared groups counts under the first (a stamp per item). In order of
    ``s``, then of the groups of its owner, then of ``t``.
    """
    ga_ptr, ga_ids, gb_ptr, gb_ids, n_groups = groups
    comp, item = _group_index(keys_b, owners_b, gb_ptr, gb_ids, n_groups)
    seen = np.full(keys_b.shape[0], -1, dtype=np.int64)
    for s in range(keys_a.shape[0]):
        i = owners_a[s]
        for g in ga_ids[ga_ptr[i] : ga_ptr[i + 1]]:
            lo, hi = _range_of(comp, keys_a[s] * n_groups + g)
            for x in range(lo, hi):
                t = item[x]
                if seen[t] == s:
                    continue
                seen[t] = s
                yield s, t


def _range_of(sorted_keys: Ints, key: int) -> tuple[int, int]:
    """``[lo, hi)`` of ``key`` in an ascending array."""
    lo = np.searchsorted(sorted_keys, key, side="left")
    hi = np.searchsorted(sorted_keys, key, side="right")
    return int(lo), int(hi)


def _group_sets(ptr: Ints, ids: Ints, n_groups: int, nodes: Ints) -> Ints:
    """Each node's groups as one number: its group when it has one, ``n_groups + node`` when it has several,
    -1 when it has none (it aligns with nothing)."""
    size = ptr[nodes + 1] - ptr[nodes]
    first = ids[np.minimum(ptr[nodes], max(len(ids) - 1, 0))] if len(ids) else np.zeros(len(nodes), dtype=np.int64)
    return np.where(size == 0, -1, np.where(size == 1, first, n_groups + nodes))


def _set_groups(ptr: Ints, ids: Ints, n_groups: int, group_set: int) -> list[int]:
    """The groups of a :func:`_group_sets` number (ascending)."""
    if group_set < n_groups:
        return [group_set]
    node = group_set - n_groups
    return ids[ptr[node] : ptr[node + 1]].tolist()


#: Distinct signatures ``(key, owner's group set, target's group set)``, ascending, and the items of each.
_Signatures = tuple[list[tuple[int, int, int]], list[int]]


class _Side(NamedTuple):
    """One side's nodes' groups (``ptr``, ``ids``) and the number of groups."""

    ptr: Ints
    ids: Ints
    n_groups: int

    def groups(self, group_set: int) -> list[int]:
        return _set_groups(self.ptr, self.ids, self.n_groups, group_set)


def _signatures(keys: Ints, owners: Ints, targets: Ints | None, side: _Side) -> _Signatures:
    """The items' signatures ``(key, group set of the owner, group set of the target or 0)``, distinct and
    ascending, and how many items have each; an item whose owner or target has no group is left out.

    Items of one signature match the same items of the other side, so counting matches by signature
    costs the distinct signatures, not the node pairs."""
    owner = _group_sets(side.ptr, side.ids, side.n_groups, owners)
    target = np.zeros(len(keys), dtype=np.int64) if targets is None else _group_sets(*side, targets)
    keep = (owner >= 0) & (target >= 0)
    if not keep.any():
        return [], []
    rows = np.stack([keys[keep], owner[keep], target[keep]], axis=1)
    rows = rows[np.lexsort((rows[:, 2], rows[:, 1], rows[:, 0]))]
    starts = np.nonzero(np.concatenate(([True], np.any(rows[1:] != rows[:-1], axis=1))))[0]
    counts = np.diff(np.append(starts, len(rows)))
    return [(int(k), int(o), int(t)) for k, o, t in rows[starts].tolist()], counts.tolist()


def _meet(x: list[int], y: list[int]) -> bool:
    """Whether two ascending lists share a value."""
    a = b = 0
    while a < len(x) and b < len(y):
        if x[a] == y[b]:
            return True
        if x[a] < y[b]:
            a += 1
        else:
            b += 1
    return False


def _count_pairs(a: _Signatures, b: _Signatures, side_a: _Side, side_b: _Side, targets: bool) -> int:
    """The (item of A, item of B) of one key whose owners share a group (and, with ``targets``, whose targets
    do), from the two sides' :func:`_signatures`: for each signature of A, the signatures of B listed under
    (key, group) for each group of its owner, each once (a stamp per signature of B)."""
    (sig_a, count_a), (sig_b, count_b) = a, b
    listing = sorted((key, g, y) for y, (key, owner, _) in enumerate(sig_b) for g in side_b.groups(owner))
    heads = [(key, g) for key, g, _ in listing]
    seen = [-1] * len(sig_b)
    total = 0
    for x, (key, owner, target) in enumerate(sig_a):
        for g in side_a.groups(owner):
            lo, hi = bisect.bisect_left(heads, (key, g)), bisect.bisect_right(heads, (key, g))
            for z in range(lo, hi):
                y = listing[z][2]
                if seen[y] == x:
                    continue
                seen[y] = x
                if targets and not _meet(side_a.groups(target), side_b.groups(sig_b[y][2])):
                    continue
                total += count_a[x] * count_b[y]
    return total


def count_problem(a: GraphArrays, b: GraphArrays, groups: GroupArrays, dense: bool) -> tuple[int, int]:
    """``(terms, entries)``: the number of pairwise terms :func:`build_pool` will make, and of the unary
    entries it gathers before it merges them into pairs (matching instances, or every cell of a ``dense``
    instance table, attributes, and relations from a node to itself), counted from the triples' keys and
    groups without visiting node pairs (:func:`_count_pairs`), to check memory first. The candidate pairs
    number at most ``entries + 2 * terms``."""
    side_a = _Side(groups.a_ptr, groups.a_ids, groups.n_groups)
    side_b = _Side(groups.b_ptr, groups.b_ids, groups.n_groups)
    loop_a, loop_b = a.rel[:, 1] == a.rel[:, 2], b.rel[:, 1] == b.rel[:, 2]

    def count(rows_a: Ints, rows_b: Ints, key: int, owner: int, target: int | None) -> int:
        sig_a = _signatures(rows_a[:, key], rows_a[:, owner], None if target is None else rows_a[:, target], side_a)
        sig_b = _signatures(rows_b[:, key], rows_b[:, owner], None if target is None else rows_b[:, target], side_b)
        return _count_pairs(sig_a, sig_b, side_a, side_b, target is not None)

    n_terms = count(a.rel[~loop_a], b.rel[~loop_b], 0, 1, 2)
    nodes_a = np.stack([a.inst, np.arange(len(a.inst))], axis=1)
    nodes_b = np.stack([b.inst, np.arange(len(b.inst))], axis=1)
    entries = len(a.inst) * len(b.inst) if dense else count(nodes_a, nodes_b, 0, 1, None)
    entries += count(a.attr, b.attr, 1, 0, None)
    return n_terms, entries + count(a.rel[loop_a], b.rel[loop_b], 0, 1, None)


def build_problem_kernel(
    a: GraphArrays, b: GraphArrays, groups: GroupArrays, weights: PoolWeights, budget: Budget
) -> ProblemBlock:
    """The problem in one block (see :meth:`amreval.match.kernels.contract.KernelBackend.build_problem_kernel`):
    terms and node pairs counted against ``budget``, then :func:`build_pool`, its adjacency and row
    pointers, laid out as :data:`amreval.match.kernels.contract.BLOCK_LAYOUT` says.

    Raises:
        TooLarge: the terms and node pairs would take more than ``budget``.
    """
    n_terms, n_entries = count_problem(a, b, groups, weights.instance is not None)
    if float(n_terms) * budget.per_term + float(n_entries) * budget.per_entry > float(budget.limit):
        raise TooLarge(n_terms, n_entries)
    sizes = (len(b.inst), len(b.attr), len(b.rel))
    inst_bw, attr_bw, rel_bw = (np.ones(n) if w is None else w for w, n in zip(weights[1:], sizes))
    pool, bound = build_pool(a, b, groups, weights.instance, inst_bw, attr_bw, rel_bw)
    adjacency = adjacency_kernel(len(pool.pair_src), pool.term_p, pool.term_q, pool.term_w)
    arrays: dict[str, Ints | Floats] = dict(vars(pool))
    arrays.update(adj_ptr=adjacency.ptr, adj_nbr=adjacency.nbr, adj_w=adjacency.w)
    arrays["rows"] = row_pointers_kernel(len(a.inst), pool.pair_src)
    return pack_block(BlockCounts(len(a.inst), len(pool.pair_src), len(pool.term_p)), bound, arrays)


class _Found:
    """What the triples' matches gave: the unary entries (pair key, weight) in the order found, the
    terms ``(i, j, k, l, relation of A, relation of B, weight)``, and each triple's best weight (for
    the bound) per kind (instance, attribute, relation) and side."""

    def __init__(self, a: GraphArrays, b: GraphArrays) -> None:
        self.n_b = len(b.inst)
        self.keys: list[int] = []
        self.weights: list[float] = []
        self.terms: list[tuple[int, int, int, int, int, int, float]] = []
        self.best_a = [np.zeros(len(x), dtype=np.float64) for x in a]
        self.best_b = [np.zeros(len(x), dtype=np.float64) for x in b]

    def unary(self, i: int, j: int, weight: float) -> None:
        self.keys.append(i * self.n_b + j)
        self.weights.append(weight)


def build_pool(
    a: GraphArrays,
    b: GraphArrays,
    groups: GroupArrays,
    inst_w: Floats | None,
    inst_bw: Floats,
    attr_bw: Floats,
    rel_bw: Floats,
) -> tuple[ProblemArrays, float]:
    """Candidate pool, unary weights, pairwise terms and a simple upper bound.

    Node ``i`` of A may align with node ``j`` of B when they share a group
    (``groups``; one group for all when unconstrained). Unary weights come from
    matching instance triples (``inst_w``, or 1 for equal concepts, times B's
    weight), attribute triples and relations from a node to itself; terms are
    one per matchable (relation of A, relation of B) with distinct ends, in
    (relation of A, relation of B) order. A pair is a candidate when it earns
    unary weight or ends a term. Candidate pairs are ordered by source, then
    target. B's triples are looked up by (concept, attribute or role, group)
    (:func:`_matches`), and nothing is allocated per node pair: time and memory
    grow with the candidates and terms.
    """
    found = _Found(a, b)
    if inst_w is not None:
        _dense_instances(found, inst_w, inst_bw, groups)
    else:
        _equal_instances(found, a.inst, b.inst, inst_bw, groups)
    _attributes(found, a.attr, b.attr, attr_bw, groups)
    _relations(found, a.rel, b.rel, rel_bw, groups)
    # terms in (relation of A, relation of B) order, whatever group found them (each pair of relations once)
    found.terms.sort(key=lambda e: (e[4], e[5]))
    pair_key, pair_u = _merged_pairs(found)
    n_b = found.n_b
    terms = np.array([e[:6] for e in found.terms], dtype=np.int64).reshape(-1, 6)
    term_w = np.array([e[6] for e in found.terms], dtype=np.float64)
    term_p = np.searchsorted(pair_key, terms[:, 0] * n_b + terms[:, 1]).astype(np.int64)
    term_q = np.searchsorted(pair_key, terms[:, 2] * n_b + terms[:, 3]).astype(np.int64)
    pair_src = pair_key // n_b if n_b else pair_key.copy()
    pair_tgt = pair_key % n_b if n_b else pair_key.copy()
    # upper bound: every triple of A matches at most one of B and vice versa,
    # each earning at most the largest weight it can earn
    bound_a = _sum(found.best_a[0]) + _sum(found.best_a[1]) + _sum(found.best_a[2])
    bound_b = _sum(found.best_b[0]) + _sum(found.best_b[1]) + _sum(found.best_b[2])
    arrays = ProblemArrays(
        pair_src=pair_src, pair_tgt=pair_tgt, pair_u=pair_u, term_p=term_p, term_q=term_q,
        term_ta=terms[:, 4].copy(), term_tb=terms[:, 5].copy(), term_w=term_w,
    )  # fmt: skip
    return arrays, min(bound_a, bound_b)


def _instance_found(found: _Found, i: int, j: int, w: float) -> None:
    """A matching instance pair worth ``w`` (more than zero)."""
    found.unary(i, j, w)
    best_a, best_b = found.best_a[0], found.best_b[0]
    if w > best_a[i]:
        best_a[i] = w
    if w > best_b[j]:
        best_b[j] = w


def _dense_instances(found: _Found, inst_w: Floats, inst_bw: Floats, groups: GroupArrays) -> None:
    """Instance entries from a table: every compatible cell worth more than zero, row by row."""
    n_a, n_b = inst_w.shape
    g = groups[:4]
    for i in range(n_a):
        for j in range(n_b):
            if not compatible(i, j, *g):
                continue
            w = inst_w[i, j] * inst_bw[j]
            if w > 0.0:
                _instance_found(found, i, j, w)


def _equal_instances(found: _Found, inst_a: Ints, inst_b: Ints, inst_bw: Floats, groups: GroupArrays) -> None:
    """Instance entries of equal concepts, worth B's weight where it is more than zero."""
    for i, j in _matches(inst_a, np.arange(len(inst_a)), inst_b, np.arange(len(inst_b)), groups):
        w = inst_bw[j]
        if w > 0.0:
            _instance_found(found, i, j, w)


def _attributes(found: _Found, attr_a: Ints, attr_b: Ints, attr_bw: Floats, groups: GroupArrays) -> None:
    """Attribute entries: each matching (attribute of A, attribute of B), worth B's weight."""
    best_a, best_b = found.best_a[1], found.best_b[1]
    for s, t in _matches(attr_a[:, 1], attr_a[:, 0], attr_b[:, 1], attr_b[:, 0], groups):
        w = attr_bw[t]
        found.unary(attr_a[s, 0], attr_b[t, 0], w)
        if w > best_a[s]:
            best_a[s] = w
        best_b[t] = w


def _relations(found: _Found, rel_a: Ints, rel_b: Ints, rel_bw: Floats, groups: GroupArrays) -> None:
    """Each matching (relation of A, relation of B) whose targets may align too: a unary entry where both
    are relations from a node to itself (one pair at both ends), else a term."""
    best_a, best_b = found.best_a[2], found.best_b[2]
    g = groups[:4]
    for s, t in _matches(rel_a[:, 0], rel_a[:, 1], rel_b[:, 0], rel_b[:, 1], groups):
        i, k = rel_a[s, 1], rel_a[s, 2]
        j, l = rel_b[t, 1], rel_b[t, 2]  # noqa: E741
        if (i == k) != (j == l) or not compatible(k, l, *g):
            continue
        w = rel_bw[t]
        if w > best_a[s]:
            best_a[s] = w
        best_b[t] = w
        if i == k:
            found.unary(i, j, w)
        else:
            found.terms.append((i, j, k, l, s, t, w))


def _merged_pairs(found: _Found) -> tuple[Ints, Floats]:
    """The candidate pairs' keys (``source * n_b + target``, ascending) and unary weights.

    Each pair's entries are summed in the order found (a stable sort keeps it), so they add up
    exactly as a scan over a dense table would; term ends are candidates even without unary weight
    (zero-weight entries stand for them), other pairs only with weight above zero.
    """
    n_b, n_e = found.n_b, len(found.keys)
    keys = list(found.keys)
    for i, j, k, l, _, _, _ in found.terms:  # noqa: E741
        keys += [i * n_b + j, k * n_b + l]
    weights = found.weights + [0.0] * (len(keys) - n_e)
    order = np.argsort(np.array(keys, dtype=np.int64), kind="mergesort")
    pair_key: list[int] = []
    pair_u: list[float] = []
    in_term: list[bool] = []
    last = -1
    for y in order.tolist():
        if keys[y] != last:
            last = keys[y]
            pair_key.append(last)
            pair_u.append(0.0)
            in_term.append(False)
        pair_u[-1] += weights[y]
        if y >= n_e:
            in_term[-1] = True
    keep = [u > 0.0 or flag for u, flag in zip(pair_u, in_term)]
    return (
        np.array([x for x, k in zip(pair_key, keep) if k], dtype=np.int64),
        np.array([x for x, k in zip(pair_u, keep) if k], dtype=np.float64),
    )


def _sum(values: Floats) -> float:
    """The sum in index order, one addition at a time (as the C adds)."""
    total = 0.0
    for v in values:
        total += float(v)
    return total


def find_pair_kernel(cand_ptr: Ints, pair_tgt: Ints, i: int, j: int) -> int:
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


def row_pointers_kernel(n_a: int, pair_src: Ints) -> Ints:
    """Where each node's candidate pairs start (pairs are ordered by source)."""
    ptr = np.zeros(n_a + 1, dtype=np.int64)
    for p in range(pair_src.shape[0]):
        ptr[pair_src[p] + 1] += 1
    for i in range(n_a):
        ptr[i + 1] += ptr[i]
    return ptr


def adjacency_kernel(n_pairs: int, term_p: Ints, term_q: Ints, term_w: Floats) -> Adjacency:
    """Symmetric CSR adjacency of pairwise terms."""
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
    return Adjacency(deg, nbr, w)

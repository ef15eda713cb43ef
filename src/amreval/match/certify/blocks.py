"""The block-by-block bound of a document's problem, each block searched exactly by branch and bound.

A sentence-level problem is searched whole (:mod:`amreval.match.certify.exact`). A
document's problem is made of sentence blocks (DocSmatch's groups: a pair may
join nodes that share a sentence) that only coreference nodes, which belong to
several sentences, tie together. :func:`block_bound` bounds it block by block,
so its cost grows with the number of sentences, not faster:

* each pair lives in the home sentence of its node of A (:func:`home_groups`:
  its sentence, or for a coreference node the least crowded of its
  sentences), and gets a copy in
  each other block where one of its pairwise terms lies (a term goes to its
  pairs' block, or to the sentence of the pair whose node lies in fewer
  sentences), its unary weight split evenly between its copies;
* any mapping's value is then the sum of its restrictions' values in the
  blocks (each one-to-one within its block), so the sum of the blocks' optima,
  each searched exactly, bounds the optimum;
* a block whose search beats the mapping's restriction gives its better
  choices to the mapping where that keeps it one-to-one and raises its value;
  where it cannot (its optimum and another block's disagree on a node both
  hold), the blocks holding the disputed nodes are merged and searched again,
  for up to :data:`MERGE_ROUNDS` rounds.

The bound meets the score when the blocks agree. The certified search of a
document starts with the coupled search instead (:mod:`amreval.match.certify.coupling`,
which places pairs and terms by :func:`home_groups` as here): its first round is
a block-by-block bound of the same kind, and its later rounds make the blocks
agree where this bound could only merge them. :func:`block_bound` stays as that
simpler bound, which the benchmark of the coupled search
(``benchmarks/bench_coupling.py``) runs in its place for comparison.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from amreval.match.certify.exact import BRANCH_MAX_PAIRS, BRANCH_NODE_LIMIT
from amreval.match.kernels import backend
from amreval.match.kernels.contract import Adjacency, SearchSpace
from amreval.match.problem import Problem, is_one_to_one, nodes_to_pairs, pairs_to_nodes, sorted_distinct

__all__ = ["block_bound", "BlockBound", "home_groups", "BLOCK_GAP", "MERGE_ROUNDS"]


#: How much better than the best found a block's optimum may be: blocks split weights, so their
#: values are fractions; the bound adds it once per block.
BLOCK_GAP = 1e-10


@dataclass
class BlockBound:
    """What :func:`block_bound` found.

    Attributes:
        bound: the sum of the blocks' optima (an upper bound on the problem's optimum), or None when a
            block could not be searched (too large, or its search ran out of subtrees).
        mapping: the mapping given, with the better choices of blocks spliced in.
        blocks: number of blocks (after merging).
        nodes: subtrees entered, over all blocks.
        merges: rounds in which blocks were merged.
    """

    bound: float | None
    mapping: np.ndarray
    blocks: int
    nodes: int
    merges: int = 0


def home_groups(problem: Problem) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Each node's home group and number of groups: ``(home_a, span_a, home_b, span_b)``.

    A node in one group lives there (a node in none: group 0). A node in several (a coreference node)
    lives in the one of its groups with the fewest candidate pairs so far: each group starts with the
    pairs of the nodes of A and of B that live only there, and the nodes in several groups are placed
    widest first, those of A before those of B, each adding its pairs to its group (ties to the lower
    group; not the document's top, group 0, where it has another). So a long sentence, whose block is
    already the hardest to search, does not also gather the chains that run through it.

    Example:
        >>> from amreval.amr.read import loads_graph
        >>> from amreval.match.problem import Candidates, build_problem
        >>> from amreval.match.triples import encode_pair, graph_triples
        >>> g = graph_triples(loads_graph("(a / x :r (b / y :r (c / z)))"))
        >>> groups = Candidates.from_lists([[1, 2], [1, 2], [2]], [[1], [1, 2], [2]])
        >>> p = build_problem(encode_pair(g, g), allowed=groups)
        >>> p.pair_src.tolist(), p.pair_tgt.tolist()  # pairs: 2, 3, 2 of A's nodes; 2, 3, 2 of B's
        ([0, 0, 1, 1, 1, 2, 2], [0, 1, 0, 1, 2, 1, 2])
        >>> # groups start with A's c (2 pairs) in 2, B's a in 1 and c in 2: loads 2 and 4; A's a goes to 1
        >>> # (4), b to 1 on the tie (7), then B's b to 2
        >>> home_a, span_a, home_b, span_b = home_groups(p)
        >>> home_a.tolist(), span_a.tolist(), home_b.tolist(), span_b.tolist()
        ([1, 1, 2], [2, 2, 1], [1, 2, 2], [1, 2, 1])
    """
    g = problem.groups
    assert g is not None
    load: dict[int, int] = {}
    sides = ((g.a_ptr, g.a_ids, problem.pair_src, problem.n_a), (g.b_ptr, g.b_ids, problem.pair_tgt, problem.n_b))
    found = []
    for ptr, ids, ends, n in sides:
        span = np.diff(ptr)
        home = np.where(span > 0, ids[np.minimum(ptr[:-1], max(len(ids) - 1, 0))], 0)
        n_pairs = np.bincount(ends, minlength=n)
        single = span == 1
        # group numbers may be negative (DocSmatch's -1: nodes in no sentence)
        shift = -min(int(ids.min(initial=0)), 0)
        sums = np.bincount(home[single] + shift, weights=n_pairs[single])
        for k in np.flatnonzero(sums).tolist():
            load[k - shift] = load.get(k - shift, 0) + int(sums[k])
        found.append((ptr, ids, span, home, n_pairs))
    out: list[np.ndarray] = []
    for ptr, ids, span, home, n_pairs in found:
        multi = np.flatnonzero(span > 1)
        for v in multi[np.argsort(-span[multi], kind="stable")].tolist():
            options = [k for k in ids[ptr[v] : ptr[v + 1]].tolist() if k != 0] or [0]
            k = min(options, key=lambda k: (load.get(k, 0), k))
            load[k] = load.get(k, 0) + int(n_pairs[v])
            home[v] = k
        out += [home, span]
    return out[0], out[1], out[2], out[3]


def _copies(problem: Problem) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Where pairs and terms go: ``(copy_pair, copy_block, term_block)``.

    A pair's home is the home group of its node of A (:func:`home_groups`; so a node's pairs meet in one
    block). A term goes
    to its pairs' home when they share it; otherwise to the home of the pair whose node of A lies in
    fewer groups (a sentence's node rather than a coreference node: the sentence where the relation
    is), or else to the later home (a sentence's root rather than the document's top, group 0), and
    the other pair gets a copy there. Copies grow with pairs plus terms, never with how many
    sentences a coreference node spans.
    """
    home_a, n_groups_a, _, _ = home_groups(problem)
    home = home_a[problem.pair_src]
    tp, tq = problem.term_p, problem.term_q
    hp, hq = home[tp], home[tq]
    span_p, span_q = n_groups_a[problem.pair_src[tp]], n_groups_a[problem.pair_src[tq]]
    pick_p = (span_p < span_q) | ((span_p == span_q) & (hp >= hq))
    term_k = np.where(hp == hq, hp, np.where(pick_p, hp, hq))
    away_p = term_k != hp
    away_q = term_k != hq
    copy_p = np.concatenate((np.arange(problem.n_pairs), tp[away_p], tq[away_q]))
    copy_k = np.concatenate((home, term_k[away_p], term_k[away_q]))
    return copy_p, copy_k, term_k


#: Rounds of merging blocks whose best choices disagree, at most.
MERGE_ROUNDS = 4


@dataclass
class _Solved:
    value: float  # the block's optimum (within BLOCK_GAP)
    unary: np.ndarray  # the unary weights it was searched with (a merge elsewhere can change a pair's share)
    a_nodes: np.ndarray  # its nodes of A
    chosen: np.ndarray  # the pair its optimum gives each of them (-1 none)
    nodes: int


def block_bound(problem: Problem, mapping: np.ndarray, *, node_limit: int = BRANCH_NODE_LIMIT) -> BlockBound:
    """Bound ``problem`` block by block and improve ``mapping`` with the blocks' best choices (module docs).

    Blocks are first the groups (sentences). Where a block's optimum beats the mapping's restriction and
    its choices cannot be put into the mapping (they disagree with another block's on a node both hold),
    the blocks sharing a pair with it are merged into one and searched again, for up to
    :data:`MERGE_ROUNDS` rounds.
    """
    if problem.groups is None:
        return BlockBound(None, mapping, 0, 0)
    if problem.n_pairs == 0:
        return BlockBound(0.0, mapping, 0, 0)
    P = problem.n_pairs
    base_p, base_k, term_k = _copies(problem)
    # blocks numbered 0 .. n - 1; label[k]: the merged block that block k is part of
    names = np.sort(base_k)
    names = names[np.concatenate(([True], names[1:] != names[:-1]))]
    base_k = np.searchsorted(names, base_k)
    term_k = np.searchsorted(names, term_k)
    label = np.arange(len(names))
    solved: dict[tuple[int, ...], _Solved] = {}
    nodes = 0
    bound: float | None = None
    merges = 0
    for _ in range(MERGE_ROUNDS + 1):
        key = sorted_distinct(label[base_k] * P + base_p)
        copy_k, copy_p = key // P, key % P
        n_copies = np.bincount(copy_p, minlength=P)
        copy_u = problem.pair_u[copy_p] / n_copies[copy_p]
        t_k = label[term_k]
        cp = np.searchsorted(key, t_k * P + problem.term_p)
        cq = np.searchsorted(key, t_k * P + problem.term_q)
        members: dict[int, list[int]] = {}
        for k, lab in enumerate(label.tolist()):
            members.setdefault(lab, []).append(k)
        blocks = np.array(sorted(members), dtype=np.int64)
        c_lo = np.searchsorted(copy_k, blocks)
        c_hi = np.searchsorted(copy_k, blocks, side="right")
        t_order = np.argsort(t_k, kind="stable")
        s_k, s_p, s_q, s_w = t_k[t_order], cp[t_order], cq[t_order], problem.term_w[t_order]
        t_lo = np.searchsorted(s_k, blocks)
        t_hi = np.searchsorted(s_k, blocks, side="right")
        global_pairs = nodes_to_pairs(problem, mapping)
        active = np.zeros(P, dtype=bool)
        active[global_pairs[global_pairs >= 0]] = True
        results: list[_Solved] = []
        for b, lab in enumerate(blocks.tolist()):
            ident = tuple(members[lab])
            lo, hi = int(c_lo[b]), int(c_hi[b])
            if ident not in solved or not np.array_equal(solved[ident].unary, copy_u[lo:hi]):
                if hi - lo > BRANCH_MAX_PAIRS:
                    return BlockBound(bound, mapping, len(blocks), nodes, merges)
                found = _solve_block(
                    problem, copy_p[lo:hi], copy_u[lo:hi], s_p[t_lo[b] : t_hi[b]] - lo, s_q[t_lo[b] : t_hi[b]] - lo,
                    s_w[t_lo[b] : t_hi[b]], active, node_limit,
                )  # fmt: skip
                if found is None:
                    return BlockBound(bound, mapping, len(blocks), nodes + node_limit, merges)
                nodes += found.nodes
                solved[ident] = found
            results.append(solved[ident])
        total = float(sum(r.value for r in results))
        # the blocks' choices that differ from the mapping go in where they can
        differ = [(r.a_nodes, r.chosen) for r in results if not np.array_equal(global_pairs[r.a_nodes], r.chosen)]
        mapping = _splice(problem, mapping, differ)
        on = nodes_to_pairs(problem, mapping)
        active[:] = False
        active[on[on >= 0]] = True
        worth = np.bincount(copy_k, weights=np.where(active[copy_p], copy_u, 0.0), minlength=int(blocks.max()) + 1)
        both = active[copy_p[s_p]] & active[copy_p[s_q]]
        worth += np.bincount(s_k, weights=np.where(both, s_w, 0.0), minlength=len(worth))
        loose = [lab for b, lab in enumerate(blocks.tolist()) if results[b].value > worth[lab] + 1e-9]
        bound = total + len(blocks) * BLOCK_GAP
        if not loose:
            break
        # merge each block that beats the mapping with the blocks holding a pair of a node its optimum
        # moves (of A) or takes or frees (of B)
        before = label.copy()
        mark_a = np.full(problem.n_a, -1, dtype=np.int64)
        mark_b = np.full(problem.n_b, -1, dtype=np.int64)
        links: list[tuple[int, int]] = []
        for lab in loose:
            r = results[int(np.searchsorted(blocks, lab))]
            now = on[r.a_nodes]
            change = now != r.chosen
            picks = np.concatenate((now[change], r.chosen[change]))
            for marks, nodes_ in ((mark_a, r.a_nodes[change]), (mark_b, problem.pair_tgt[picks[picks >= 0]])):
                links += [(lab, int(x)) for x in set(marks[nodes_].tolist()) if x >= 0]
                marks[nodes_] = lab
        tied_a = mark_a[problem.pair_src[copy_p]]
        tied_b = mark_b[problem.pair_tgt[copy_p]]
        for tied in (tied_a, tied_b):
            hit = tied >= 0
            links += sorted(set(zip(tied[hit].tolist(), copy_k[hit].tolist())))
        _merge(label, links)
        if np.array_equal(before, label):
            break
        merges += 1
    return BlockBound(bound, mapping, len(blocks), nodes, merges)


def _merge(label: np.ndarray, links: list[tuple[int, int]]) -> None:
    """Give the blocks of each linked pair of labels one label (the smallest of their group), in place."""
    parent = {x: x for x in set(label.tolist())}

    def root(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for x, y in links:
        rx, ry = root(x), root(y)
        if rx != ry:
            parent[max(rx, ry)] = min(rx, ry)
    label[:] = [root(int(x)) for x in label]


def _solve_block(
    problem: Problem,
    pp: np.ndarray,
    unary: np.ndarray,
    t_p: np.ndarray,
    t_q: np.ndarray,
    t_w: np.ndarray,
    active: np.ndarray,
    node_limit: int,
) -> _Solved | None:
    """One block's optimum by branch and bound, from the mapping's restriction; None if the search ran out."""
    kernels = backend()
    a_nodes, a_local = np.unique(problem.pair_src[pp], return_inverse=True)
    b_nodes, b_local = np.unique(problem.pair_tgt[pp], return_inverse=True)
    n_a = len(a_nodes)
    adj: Adjacency = kernels.adjacency_kernel(len(pp), t_p, t_q, t_w)
    rows = kernels.row_pointers_kernel(n_a, a_local)
    init = np.full(n_a, -1, dtype=np.int64)
    on = np.nonzero(active[pp])[0]
    init[a_local[on]] = on
    space = SearchSpace(n_a, len(b_nodes), a_local, b_local, unary, adj)
    found = kernels.branch_and_bound_kernel(space, rows=rows, init=init, gap=BLOCK_GAP, node_limit=node_limit)
    if not found.proven:
        return None
    chosen = np.where(found.pairs >= 0, pp[np.maximum(found.pairs, 0)], -1)
    return _Solved(found.value, unary, a_nodes, chosen, found.nodes)


def _splice(problem: Problem, mapping: np.ndarray, better: list[tuple[np.ndarray, np.ndarray]]) -> np.ndarray:
    """``mapping`` with the blocks' choices put in, all at once or one block at a time, wherever that keeps
    it one-to-one and raises its value."""
    if not better:
        return mapping
    best = nodes_to_pairs(problem, mapping)
    best_value = problem.pairs_value(best)
    improved = False
    for attempt in [better] if len(better) == 1 else [better, *[[b] for b in better]]:
        trial = best.copy()
        for a_nodes, chosen in attempt:
            trial[a_nodes] = chosen
        if not is_one_to_one(problem.pair_tgt[trial[trial >= 0]]):
            continue
        value = problem.pairs_value(trial)
        if value > best_value + 1e-9:
            best, best_value, improved = trial, value, True
            if attempt is better:
                break
    return pairs_to_nodes(problem, best) if improved else mapping

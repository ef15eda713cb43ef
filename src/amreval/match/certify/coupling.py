"""Certified search of a document without the integer program: blocks made to agree on what they share.

A document's problem is made of sentence blocks (DocSmatch's groups) tied
together by the nodes that belong to several sentences: coreference nodes and
merged names, and on the DocAMR model everything hanging below them. The bound
of :mod:`amreval.match.certify.blocks` lets each block choose for such a node on its
own; where blocks choose differently, their optima add up to more than any
mapping can reach. Here the blocks are made to agree (a Lagrangian
decomposition):

* each candidate pair has a **copy** in the block of its node of A (the node's
  home sentence, :func:`~amreval.match.certify.blocks.home_groups`), in the block of its
  node of B (likewise), and in the block of
  each of its pairwise terms (placed as in :mod:`amreval.match.certify.blocks`); a node
  with more than :data:`HUB_PAIRS` pairs in several sentences gets a block of its
  own instead, where it takes its best pair or none. So every node's pairs meet
  in one block, which keeps it one-to-one, and a mapping's value is the sum, over
  the blocks, of its restriction's value, for **any** split of each pair's unary
  weight between its copies (the shares may be negative; they must add up to the
  weight);
* so for every split the sum of the blocks' optima (each found by the exact
  search, :mod:`amreval.match.kernels._branch`) bounds the optimum. Where the blocks'
  choices for a pair disagree, its shares move by a subgradient step (the
  Polyak step towards the best mapping's score, halved when the bound stops
  falling): the copies of blocks that take the pair get less, those that leave
  it get more, and only the blocks whose shares moved are searched again;
* when every pair's copies agree, the blocks' choices are one mapping whose
  value is the bound: it is optimal. Every few rounds the pairs that both home
  blocks take start a hill climb, whose mapping replaces the best where it
  scores higher; the search also ends when the bound proves the best mapping's
  score: within 1e-10 per block (each block's search is exact to that), or where every
  weight is a whole multiple of some ``1 / L`` (whole numbers, or DocSmatch's
  coreference tie-break, whose bonus ``eps = 1 / (2 (n + 1))`` makes every
  weight one), when no multiple lies between the score and the bound.

A **capped** search (the one after the LP, :mod:`amreval.match.certify.fixing`) stops each block's search after
:data:`CAPPED_SUBTREES` subtrees and lets the best choice it found stand for the block. The exact search
of a hard block finds its optimum early and spends most of its subtrees proving it, so the shares move
as they would, at a fraction of the cost; but a round with a stopped block gives no bound (its sum is
at most the bound). Where that sum would already prove the score, where the blocks agree, or where the
step has become too small, the stopped blocks are searched to the end under the same shares, and that
round's sum is a bound like any other.

It stops unproven after :data:`COUPLING_ROUNDS` rounds, when the step has been
halved six times without the bound falling, when one block's search needs more
than :data:`BLOCK_SUBTREES` subtrees (or the block has more than
:data:`BLOCK_MAX_COPIES` copies), or after :data:`COUPLING_SUBTREES` subtrees in
all (a round is not begun with fewer subtrees left than the last one took: cut short, it would give
no bound): counts, never the clock, so a slower machine gives the same results.
Stopped so, it climbs from the best mapping with each pair that a block takes
and the mapping lacks put in, where that loses less than one triple
(:meth:`_Run.polish`, at most :data:`POLISH_PAIRS` climbs); a better mapping found
there can still end it proven (the bound meets it) or above ``until``. The
certified search then goes on to the LP relaxation and the integer program,
with the better mapping and the lowest bound.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from amreval.errors import InputError
from amreval.match.certify.blocks import home_groups
from amreval.match.certify.proof import PROOF_TOLERANCE, proves_each, weight_quantum
from amreval.match.kernels import backend
from amreval.match.kernels.contract import ExactSearch, SearchSpace
from amreval.match.problem import Alignment, Problem, check_one_to_one, nodes_to_pairs, pairs_to_nodes, sorted_distinct

__all__ = [
    "coupled_search",
    "couple",
    "Coupled",
    "COUPLING_ROUNDS",
    "COUPLING_SUBTREES",
    "BLOCK_SUBTREES",
    "CAPPED_SUBTREES",
    "BLOCK_MAX_COPIES",
    "HUB_PAIRS",
]

#: Rounds of share updates, at most.
COUPLING_ROUNDS = 100
#: Subtrees of exact search over all blocks and rounds, at most (the same count on every machine).
COUPLING_SUBTREES = 500_000
#: Subtrees of one block's search, at most: a block that needs more ends the search.
BLOCK_SUBTREES = 50_000
#: In a capped search (``couple(capped=True)``), a block's search stops after this many subtrees; its best
#: choice stands for it until the round's sum could prove the score (:func:`couple`).
CAPPED_SUBTREES = 1_000
#: Blocks with more copies than this are not searched (the search ends).
BLOCK_MAX_COPIES = 2_000
#: A node in several groups with more candidate pairs than this gets a block of its own.
HUB_PAIRS = 32
#: Climbs from a pair the blocks want put in, at most, when a search ends unproven (:meth:`_Run.polish`),
#: and the pairs looked at for them.
POLISH_PAIRS = 16
POLISH_CANDIDATES = 256
#: How much better than the best found a block's optimum may be (as in :mod:`amreval.match.certify.blocks`).
_BLOCK_GAP = 1e-10
#: A hill climb from the blocks' choices every this many rounds.
_PRIMAL_EVERY = 3
#: The first step, as a fraction of the Polyak step (the gap over the subgradient's squared length).
_STEP = 1.5
#: Rounds without a lower bound before the step is halved; the search stops when it is this small.
_PATIENCE = 5
_MIN_SCALE = _STEP / 64
_TOL = 1e-9


def _proves(problem: Problem, score: float, bound: float | None, quantum: float) -> bool:
    """Whether ``bound`` proves ``score`` optimal (:func:`~amreval.match.certify.proof.proves_each`); False
    without one."""
    return bound is not None and bool(
        proves_each(score, np.array([bound]), integral=problem.integral, quantum=quantum)[0]
    )


@dataclass
class _Block:
    """One block searched exactly: its copies ``lo:hi`` and what the search needs, built once."""

    lo: int
    hi: int
    n_a: int
    n_b: int
    a_local: np.ndarray  # the copies' nodes of A and B, numbered within the block
    b_local: np.ndarray
    t_p: np.ndarray  # its terms, between copies numbered within the block
    t_q: np.ndarray
    t_w: np.ndarray
    loose: np.ndarray | None  # copies with no term whose node of B no other node takes here (None: none to drop)
    search: ExactSearch | None  # without loose copies: the exact search over the block, its arrays checked once
    # with loose copies: the copies the last search kept, and the exact search over them
    kept: tuple[np.ndarray, ExactSearch] | None = None


@dataclass
class _Decomposition:
    copy_p: np.ndarray  # the pair of each copy; copies sorted by block, then pair
    copy_k: np.ndarray  # the block of each copy
    n_copies: np.ndarray  # copies per pair
    home_a: np.ndarray  # the copy of each pair in its node of A's block
    home_b: np.ndarray  # the copy in its node of B's block
    blocks: list[_Block | None]  # None: a node's own block (its best pair or none)
    searched: np.ndarray  # which blocks are searched (not own blocks)
    own: np.ndarray  # the copies in own blocks


def _decompose(problem: Problem) -> _Decomposition | None:
    """The blocks and the pairs' copies (module docs); None when a block has more than
    :data:`BLOCK_MAX_COPIES` copies."""
    g = problem.groups
    assert g is not None
    P = problem.n_pairs
    src, tgt = problem.pair_src, problem.pair_tgt
    first_a, span_a, first_b, span_b = home_groups(problem)
    low = int(min(first_a.min(initial=0), first_b.min(initial=0)))
    top = int(max(first_a.max(initial=0), first_b.max(initial=0))) - low + 1
    hub_a = (np.bincount(src, minlength=problem.n_a) > HUB_PAIRS) & (span_a > 1)
    hub_b = (np.bincount(tgt, minlength=problem.n_b) > HUB_PAIRS) & (span_b > 1)
    # block keys: groups 0 .. top - 1, then own blocks of A's hubs, then of B's
    home = first_a[src] - low
    key_a = np.where(hub_a[src], top + src, home)
    key_b = np.where(hub_b[tgt], top + problem.n_a + tgt, first_b[tgt] - low)
    # a term goes where blocks.py puts it: to its pairs' home when they share it, else to the home of the
    # pair whose node of A lies in fewer groups, or else the later home; where one of the two nodes of A
    # is a hub (whose pairs are in no sentence's block), to the other's home
    tp, tq = problem.term_p, problem.term_q
    hp, hq = home[tp], home[tq]
    sp, sq = span_a[src[tp]], span_a[src[tq]]
    pick_p = (sp < sq) | ((sp == sq) & (hp >= hq))
    term_k = np.where(hp == hq, hp, np.where(pick_p, hp, hq))
    hub_p, hub_q = hub_a[src[tp]], hub_a[src[tq]]
    term_k = np.where(hub_p & ~hub_q, hq, np.where(hub_q & ~hub_p, hp, term_k))
    every = np.arange(P)
    keys = np.concatenate((key_a, key_b, term_k, term_k))
    names = sorted_distinct(keys)
    n_blocks = len(names)
    width = P
    code = sorted_distinct(np.searchsorted(names, keys) * width + np.concatenate((every, every, tp, tq)))
    copy_k, copy_p = code // width, code % width
    home_a = np.searchsorted(code, np.searchsorted(names, key_a) * width + every)
    home_b = np.searchsorted(code, np.searchsorted(names, key_b) * width + every)
    t_k = np.searchsorted(names, term_k)
    cp = np.searchsorted(code, t_k * width + tp)
    cq = np.searchsorted(code, t_k * width + tq)
    searched = names < top
    c_lo = np.searchsorted(copy_k, np.arange(n_blocks))
    c_hi = np.searchsorted(copy_k, np.arange(n_blocks), side="right")
    if np.any((c_hi - c_lo)[searched] > BLOCK_MAX_COPIES):
        return None
    order = np.argsort(t_k, kind="stable")
    s_k, s_p, s_q, s_w = t_k[order], cp[order], cq[order], problem.term_w[order]
    t_lo = np.searchsorted(s_k, np.arange(n_blocks))
    t_hi = np.searchsorted(s_k, np.arange(n_blocks), side="right")
    # nodes numbered within their block: copies are sorted by pair, so by node of A within a block
    a_of, b_of = src[copy_p], tgt[copy_p]
    starts = np.zeros(len(code), dtype=bool)
    starts[c_lo[c_lo < len(code)]] = True
    new_a = starts | np.concatenate(([True], a_of[1:] != a_of[:-1]))
    a_rank = np.cumsum(new_a) - 1
    by_b = np.lexsort((b_of, copy_k))
    new_b = np.concatenate(([True], (b_of[by_b][1:] != b_of[by_b][:-1]) | (copy_k[by_b][1:] != copy_k[by_b][:-1])))
    b_rank = np.empty(len(code), dtype=np.int64)
    b_rank[by_b] = np.cumsum(new_b) - 1
    blocks: list[_Block | None] = []
    for k in range(n_blocks):
        lo, hi = int(c_lo[k]), int(c_hi[k])
        if not searched[k] or hi == lo:
            blocks.append(None)
            continue
        a_local = a_rank[lo:hi] - a_rank[lo]
        b_local = b_rank[lo:hi] - int(b_rank[lo:hi].min())
        n_a, n_b = int(a_local[-1]) + 1, int(b_local.max()) + 1
        bt_p, bt_q, bt_w = s_p[t_lo[k] : t_hi[k]] - lo, s_q[t_lo[k] : t_hi[k]] - lo, s_w[t_lo[k] : t_hi[k]]
        degree = np.bincount(np.concatenate((bt_p, bt_q)), minlength=hi - lo)
        takers = np.bincount(b_local, minlength=n_b)
        loose = (degree == 0) & (takers[b_local] == 1)
        # a node with two or more loose copies keeps only its best one in each search (the others cannot do better)
        if loose.any() and np.any(np.bincount(a_local[loose], minlength=n_a) > 1):
            blocks.append(_Block(lo, hi, n_a, n_b, a_local, b_local, bt_p, bt_q, bt_w, loose, None))
        else:
            search = _exact_search(n_a, n_b, a_local, b_local, bt_p, bt_q, bt_w)
            blocks.append(_Block(lo, hi, n_a, n_b, a_local, b_local, bt_p, bt_q, bt_w, None, search))
    searched = np.array([b is not None for b in blocks], dtype=bool)
    return _Decomposition(
        copy_p, copy_k, np.bincount(copy_p, minlength=P), home_a, home_b, blocks, searched, ~searched[copy_k]
    )


def _exact_search(
    n_a: int, n_b: int, a_local: np.ndarray, b_local: np.ndarray, t_p: np.ndarray, t_q: np.ndarray, t_w: np.ndarray
) -> ExactSearch:
    """The exact search over a block's copies (``a_local``, ``b_local``) and terms, built once for all the
    searches of the block (:meth:`~amreval.match.kernels.contract.KernelBackend.exact_search_kernel`)."""
    kern = backend()
    adj = kern.adjacency_kernel(len(a_local), t_p, t_q, t_w)
    space = SearchSpace(n_a, n_b, a_local, b_local, np.zeros(len(a_local)), adj)
    return kern.exact_search_kernel(space, rows=kern.row_pointers_kernel(n_a, a_local))


def _search(
    block: _Block, unary: np.ndarray, pp: np.ndarray, active: np.ndarray, limit: int
) -> tuple[float, np.ndarray, bool, int]:
    """One block's optimum with its copies' unary weights ``unary`` (pairs ``pp``), searched from the
    mapping's restriction.

    Returns ``(value, copies taken (numbered within the block), proven, subtrees)``.
    """
    if block.loose is None:
        assert block.search is not None
        keep = None
        a_local, search = block.a_local, block.search
    else:
        # each node's best loose copy (the mapping's on ties, then the first) and every other copy
        idx = np.flatnonzero(block.loose)
        order = np.lexsort((~active[pp[idx]], -unary[idx], block.a_local[idx]))
        nodes = block.a_local[idx[order]]
        best = idx[order[np.concatenate(([True], nodes[1:] != nodes[:-1]))]]
        mask = ~block.loose
        mask[best] = True
        keep = np.flatnonzero(mask)
        a_local = block.a_local[keep]
        if block.kept is not None and np.array_equal(block.kept[0], keep):
            search = block.kept[1]  # the same copies as the last search (most rounds)
        else:
            at = np.full(len(unary), -1, dtype=np.int64)
            at[keep] = np.arange(len(keep))
            search = _exact_search(
                block.n_a, block.n_b, a_local, block.b_local[keep], at[block.t_p], at[block.t_q], block.t_w
            )
            block.kept = (keep, search)
        unary, pp = unary[keep], pp[keep]
    init = np.full(block.n_a, -1, dtype=np.int64)
    on = np.flatnonzero(active[pp])
    init[a_local[on]] = on
    found, value, proven, used = search(unary, init, _BLOCK_GAP, limit)
    taken = found[found >= 0]
    return float(value), taken if keep is None else keep[taken], bool(proven), int(used)


def _own_blocks(d: _Decomposition, share: np.ndarray, active: np.ndarray, x: np.ndarray, values: np.ndarray) -> None:
    """Own blocks: each takes its best copy where its share is positive (the mapping's on ties), in place."""
    own = np.flatnonzero(d.own)
    if not len(own):
        return
    k = d.copy_k[own]
    order = np.lexsort((~active[d.copy_p[own]], -share[own], k))
    first = np.concatenate(([True], k[order][1:] != k[order][:-1]))
    best = own[order[first]]
    x[own] = False
    take = share[best] > 0
    x[best[take]] = True
    values[d.copy_k[best]] = np.where(take, share[best], 0.0)


def _climb(problem: Problem, pairs: np.ndarray) -> tuple[np.ndarray, float]:
    """A hill climb (no restarts) from a mapping given as pairs: the pairs it ends with, and their value."""
    found, score, _ = backend().hill_climb_kernel(
        problem.search_space(), restarts=0, seed=0, bound=problem.bound, init=pairs
    )
    return np.asarray(found, dtype=np.int64), float(score)


@dataclass
class Coupled:
    """What :func:`couple` found.

    Attributes:
        mapping: the best mapping (the one given, the same object, unless one scores higher).
        score: its value.
        bound: the lowest bound found (an upper bound on the optimum), or None when a block's search ran
            out of subtrees before any round ended.
        proven: whether ``bound`` proves ``score`` optimal (or, with a ``floor``, that no mapping beats
            the larger of the two).
        rounds: rounds of block searches.
        subtrees: subtrees of exact search, over all blocks and rounds.
        climbs: hill climbs made from the blocks' choices.
        status: ``agreed`` (the blocks' choices are one mapping), ``bound`` (the bound met the score,
            or the ``floor`` given), ``rounds``, ``subtrees`` (a limit), ``large`` (a block too large to
            search), ``stalled`` (the step became too small), ``better`` (a mapping above ``until``) or
            ``empty`` (no pairs).
        disputed: where unproven after a round, the pair whose copies the blocks' choices disagree on
            most (the sum of the disagreements), else -1: where to branch.
        stopped: block searches stopped by the cap (``couple(capped=True)``).
    """

    mapping: np.ndarray
    score: float
    bound: float | None
    proven: bool
    rounds: int
    subtrees: int
    climbs: int
    status: str
    disputed: int = -1
    stopped: int = 0


class _Run:
    """The search's state: the shares, each block's optimum and choices, the best mapping, the counts."""

    def __init__(self, problem: Problem, d: _Decomposition, pairs: np.ndarray, score: float, subtrees: int) -> None:
        self.problem, self.d = problem, d
        self.share = problem.pair_u[d.copy_p] / d.n_copies[d.copy_p]
        self.x = np.zeros(len(d.copy_p), dtype=bool)
        self.values = np.zeros(len(d.blocks))
        self.active = np.zeros(problem.n_pairs, dtype=bool)
        self.pairs, self.score, self.improved = pairs, score, False
        self.active[pairs[pairs >= 0]] = True
        self.used, self.limit, self.climbs = 0, subtrees, 0
        self.n_searched = int(d.searched.sum())
        self.cap = 0  # subtrees of a block's search before it stops with the best found (0: no cap)
        self.stopped = np.zeros(len(d.blocks), dtype=bool)  # blocks whose last search stopped at the cap
        self.n_stopped = 0

    def search(self, k: int) -> tuple[float, np.ndarray] | None:
        """Block ``k``'s optimum and the copies it takes (numbered within the block); None when the
        subtrees ran out. A search stopped by the cap gives the best it found (marked in ``stopped``)."""
        block = self.d.blocks[k]
        assert block is not None
        lo, hi = block.lo, block.hi
        limit = min(BLOCK_SUBTREES, self.limit - self.used)
        capped = 0 < self.cap < limit
        if capped:
            limit = self.cap
        value, taken, proven, n = _search(block, self.share[lo:hi], self.d.copy_p[lo:hi], self.active, limit)
        self.used += min(n, limit)  # a search that stops counts the one past its limit
        self.stopped[k] = capped and not proven
        self.n_stopped += int(self.stopped[k])
        return (value, taken) if proven or capped else None

    def prepare(self, dirty: np.ndarray, capped: bool, to_the_end: bool) -> None:
        """Before a round: the cap of its searches, and where ``to_the_end``, the blocks stopped by the cap
        marked ``dirty`` (searched again) with no cap."""
        if to_the_end:
            dirty |= self.stopped
        self.cap = CAPPED_SUBTREES if capped and not to_the_end else 0

    def move(self, g: np.ndarray, disagree: np.ndarray, step: float, dirty: np.ndarray) -> None:
        """The subgradient step on the copies that disagree; their blocks marked ``dirty`` (own blocks aside)."""
        self.share[disagree] -= step * g[disagree]
        dirty[self.d.copy_k[disagree]] = True
        dirty &= self.d.searched

    def solve(self, blocks: np.ndarray) -> bool:
        """Search the given blocks and keep their optima and choices; False when the subtrees ran out."""
        for k in blocks.tolist():
            found = self.search(k)
            if found is None:
                return False
            block = self.d.blocks[k]
            assert block is not None
            self.values[k] = found[0]
            self.x[block.lo : block.hi] = False
            self.x[block.lo + found[1]] = True
        _own_blocks(self.d, self.share, self.active, self.x, self.values)
        return True

    def bound(self) -> float:
        """The sum of the blocks' optima: a bound where no block's search was stopped by the cap (else at
        most the bound)."""
        return float(self.values.sum()) + self.n_searched * _BLOCK_GAP

    def disagreement(self) -> np.ndarray:
        """Per copy: whether it is taken, less the share of its pair's copies taken (0 where they agree)."""
        taken = np.bincount(self.d.copy_p, weights=self.x.astype(np.float64), minlength=self.problem.n_pairs)
        return self.x - (taken / self.d.n_copies)[self.d.copy_p]

    def primal(self, climb: bool) -> None:
        """The pairs both home blocks take (one-to-one), climbed from where ``climb``; kept if better."""
        problem, d = self.problem, self.d
        chosen = np.flatnonzero(self.x[d.home_a] & self.x[d.home_b])
        start = np.full(problem.n_a, -1, dtype=np.int64)
        start[problem.pair_src[chosen]] = chosen
        if climb:
            found, value = _climb(problem, start)
            self.climbs += 1
        else:
            found, value = start, problem.pairs_value(start)
        if value > self.score + _TOL:
            self._keep(found, value)

    def _keep(self, pairs: np.ndarray, value: float) -> None:
        self.pairs, self.score, self.improved = pairs, value, True
        self.active[:] = False
        self.active[pairs[pairs >= 0]] = True

    def polish(self, until: float) -> bool:
        """Climbs from the best mapping with a pair that some block takes and the mapping lacks put in (the
        pairs clashing with it taken out): where the blocks disagree, one of them often sees a move of two
        or three nodes together that a climb, one node or swap at a time, cannot make. Of the first
        :data:`POLISH_CANDIDATES` such pairs, those whose start loses less than one whole triple (counted
        against the mapping at the start, on the pairs the start changes) are tried, the least lost
        first, up to :data:`POLISH_PAIRS`, each from the best mapping found so far; a better mapping is
        kept at once. True when one was found."""
        problem = self.problem
        want = sorted_distinct(self.d.copy_p[self.x])
        want = want[~self.active[want]][:POLISH_CANDIDATES]
        if not len(want):
            return False
        ptr, nbr, w = problem.adjacency()
        holder = np.full(problem.n_b, -1, dtype=np.int64)  # the pair of the mapping on each node of B
        mine = self.pairs[self.pairs >= 0]
        holder[problem.pair_tgt[mine]] = mine
        on = self.active.copy()

        def gain(p: int) -> float:
            """What pair ``p`` adds to the pairs ``on`` (with its terms to them)."""
            near = nbr[ptr[p] : ptr[p + 1]]
            return float(problem.pair_u[p] + w[ptr[p] : ptr[p + 1]][on[near]].sum())

        losses, tried = [], []
        for p in want.tolist():
            # the pairs the start takes out (the node of A's, the node of B's holder), then p put in
            out = [int(q) for q in (self.pairs[problem.pair_src[p]], holder[problem.pair_tgt[p]]) if q >= 0]
            lost = 0.0
            for q in out:  # each with its terms to the pairs still in
                on[q] = False
                lost += gain(q)
            on[p] = True
            loss = lost - gain(p)
            on[p] = False
            on[out] = True
            if loss < 1 - _TOL:
                losses.append(loss)
                tried.append(p)
        improved = False
        for k in np.argsort(losses, kind="stable")[:POLISH_PAIRS].tolist():
            p = tried[k]
            if self.active[p]:
                continue
            start = self.pairs.copy()
            taken = start >= 0
            start[taken & (problem.pair_tgt[np.maximum(start, 0)] == problem.pair_tgt[p])] = -1
            start[problem.pair_src[p]] = p
            found, value = _climb(problem, start)
            self.climbs += 1
            if value > self.score + _TOL:
                self._keep(found, value)
                improved = True
                if value > until + _TOL:
                    break
        return improved


def _checked(problem: Problem, mapping: np.ndarray, rounds: int, subtrees: int) -> np.ndarray:
    """:func:`couple`'s arguments checked (its ``Raises``); the mapping as an array."""
    if problem.groups is None:
        raise InputError("the coupled search needs a problem with groups (a document's sentences)")
    if rounds < 0 or subtrees < 0:
        raise InputError(f"rounds and subtrees must be >= 0, got {rounds} and {subtrees}")
    mapping = np.asarray(mapping)
    if mapping.shape != (problem.n_a,) or mapping.dtype.kind not in "iu":
        raise InputError(f"the mapping must give a target (or -1) for each of the {problem.n_a} nodes")
    check_one_to_one(mapping)
    return mapping


def couple(
    problem: Problem,
    mapping: np.ndarray,
    *,
    rounds: int = COUPLING_ROUNDS,
    subtrees: int = COUPLING_SUBTREES,
    floor: float = -np.inf,
    until: float = np.inf,
    capped: bool = False,
) -> Coupled:
    """Search a grouped problem block by block, moving the shares until the blocks agree (module docs).

    Args:
        problem: a problem with groups (a document's sentences).
        mapping: the best mapping known (target node per node of A, -1 none); one-to-one.
        rounds: rounds of block searches, at most.
        subtrees: subtrees of exact search in all, at most.
        floor: a score known elsewhere (another part of a larger search): the search also ends, proven,
            when the bound proves that no mapping here beats it or the best found.
        until: the search also ends (unproven, status ``better``) once it finds a mapping scoring above it.
        capped: each block's search stops after :data:`CAPPED_SUBTREES` subtrees, its best choice standing
            for it. A round with a block so stopped gives no bound (its sum is at most the bound) but moves
            the shares all the same; where its sum would prove the score, where the blocks agree, or where
            the step has become too small, the stopped blocks are searched to the end in the next round
            (same shares), whose sum is a bound. The exact search of a block mostly proves the choice it
            found early, so this saves most of a hard block's subtrees in the rounds far from the bound.

    Raises:
        InputError: the problem has no groups, a limit is negative, or the mapping is not one (one target
            or -1 per node of A, no target twice).
    """
    mapping = _checked(problem, mapping, rounds, subtrees)
    pairs = nodes_to_pairs(problem, mapping)
    score = problem.pairs_value(pairs)
    if problem.n_pairs == 0:
        return Coupled(mapping, score, 0.0, True, 0, 0, 0, "empty")
    quantum = weight_quantum(problem)
    d = _decompose(problem)
    if d is None:
        return Coupled(mapping, score, None, False, 0, 0, 0, "large")
    run = _Run(problem, d, pairs, score, subtrees)
    best: float | None = None
    scale, last = _STEP, 0
    status, done = "rounds", 0
    last_used = 0  # subtrees of the last round
    dirty = d.searched.copy()
    disputed = -1
    estimate: float | None = None  # the lowest sum of a round with stopped blocks
    to_the_end = False
    for done in range(1, rounds + 1):
        run.prepare(dirty, capped, to_the_end)
        to_the_end = False
        if done > 1 and run.limit - run.used < last_used:
            # fewer subtrees left than the last round took: a round cut short gives no bound
            status, done = "subtrees", done - 1
            break
        before_used = run.used
        if not run.solve(np.flatnonzero(dirty)):
            status = "subtrees"
            break
        last_used = run.used - before_used
        dirty[:] = False
        g = run.disagreement()
        disagree = np.abs(g) > 1e-12
        bound = run.bound()
        exact = not run.stopped.any()
        if exact and (best is None or bound < best - _TOL):
            best, last = bound, done
        elif not exact and (estimate is None or bound < estimate - _TOL):
            estimate, last = bound, done
        if not disagree.any() or done % _PRIMAL_EVERY == 1:
            run.primal(climb=bool(disagree.any()))
            if disagree.any() and run.score > until + _TOL:
                status = "better"
                break
        level = max(run.score, floor)
        if not exact and (not disagree.any() or _proves(problem, level, bound, quantum)):
            to_the_end = True  # the same shares, the stopped blocks searched to the end
            continue
        if not disagree.any():
            # every block's choice is the same mapping, worth the bound (unless rounding says otherwise)
            status = "agreed" if run.score >= bound - PROOF_TOLERANCE else "stalled"
            break
        if exact and _proves(problem, level, best, quantum):
            status = "bound"
            break
        by_pair = np.bincount(d.copy_p[disagree], weights=np.abs(g[disagree]), minlength=problem.n_pairs)
        disputed = int(np.argmax(by_pair))
        if done - last > _PATIENCE:
            scale, last = scale / 2, done
        if scale < _MIN_SCALE:
            if not exact:
                to_the_end = True
                continue
            status = "stalled"
            break
        run.move(g, disagree, scale * max(bound - level, PROOF_TOLERANCE) / float(g @ g), dirty)
    if status in ("rounds", "subtrees", "stalled") and run.polish(until):
        if run.score > until + _TOL:
            status = "better"
        elif _proves(problem, max(run.score, floor), best, quantum):
            status = "bound"
    proven = status in ("agreed", "bound")
    found_mapping = pairs_to_nodes(problem, run.pairs) if run.improved else mapping
    return Coupled(
        found_mapping,
        run.score,
        best,
        proven,
        done,
        run.used,
        run.climbs,
        status,
        -1 if proven else disputed,
        run.n_stopped,
    )


def coupled_search(
    problem: Problem, start: Alignment, *, rounds: int = COUPLING_ROUNDS, subtrees: int = COUPLING_SUBTREES
) -> Alignment:
    """:func:`couple` from a search's result: the better mapping (method ``coupling``), the lower bound,
    and ``optimal`` when proven (then ``bound`` is the score)."""
    found = couple(problem, start.mapping, rounds=rounds, subtrees=subtrees)
    if found.score > start.score + _TOL:
        mapping, score, method = found.mapping, found.score, "coupling"
    else:
        mapping, score, method = start.mapping, start.score, start.method
    climbs = start.climbs + found.climbs
    if found.proven:
        return Alignment(mapping, score, score, True, method, climbs)
    bound = start.bound if found.bound is None else min(start.bound, found.bound)
    return Alignment(mapping, score, bound, False, method, climbs)

"""Hill climbing (plain Python): smatch's moves and swaps, steepest ascent, seeded restarts.

They work on plain integer and float arrays only; :mod:`amreval.match.alignment`
prepares the arrays and reads the results through :func:`amreval.match.kernels.backends.kernels`.
This is the specification of the compiled kernel (``amr_hill_climb`` in
``_kernels.c`` follows it loop by loop and gives identical results) and what
runs where it is not built, or with ``AMREVAL_KERNELS=python``, which is how the
benchmark measures what compiling buys.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from amreval.match.kernels._pool import find_pair_kernel, row_pointers_kernel
from amreval.match.kernels.contract import ClimbResult, Floats, Ints

_EPS = 1e-9


def step_tolerance(bound: float) -> float:
    """The least gain a step must make: 1e-9, or 1e-12 of the bound when that is larger.

    Gains are computed from sums that carry rounding errors of about 1e-16 of the score; with
    weights in the millions a move and its reverse could each seem to gain a little, and the climb
    would never end. (Smatch's gains are multiples of 0.5, so this changes none of its steps.)
    """
    bound = float(bound)
    if bound != bound or bound in (float("inf"), float("-inf")):
        return _EPS
    return max(_EPS, 1e-12 * abs(bound))


_MASK = 0xFFFFFFFFFFFFFFFF


def _splitmix(state: int) -> tuple[int, int]:
    """SplitMix64: the next state and its output (Python ints below 2**64)."""
    state = (state + 0x9E3779B97F4A7C15) & _MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return state, z ^ (z >> 31)


def _pair_weight(p: int, q: int, ptr: Ints, nbr: Ints, w: Floats) -> float:
    total = 0.0
    if p < 0 or q < 0:
        return total
    for x in range(ptr[p], ptr[p + 1]):
        if nbr[x] == q:
            total += w[x]
    return total


def _activate(p: int, sign: float, ctx: Floats, ptr: Ints, nbr: Ints, w: Floats) -> None:
    for x in range(ptr[p], ptr[p + 1]):
        ctx[nbr[x]] += sign * w[x]


def _best_move(
    i: int, mapping: Ints, used: Ints, ctx: Floats, pair_tgt: Ints, pair_u: Floats, ptr: Ints, nbr: Ints, w: Floats,
    cand_ptr: Ints, eps: float,
) -> tuple[float, int, int, int]:  # fmt: skip
    """Node i's best move or swap: ``(gain, p, k, pd)``; gain ``-1.0`` and ``p = -1`` when none gains."""
    best_gain = eps
    best_p = -1
    best_k = -1
    best_pd = -1
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
                pd = find_pair_kernel(cand_ptr, pair_tgt, k, a)
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
                best_p = p
                best_k = k
                best_pd = pd
    if best_p < 0:
        return -1.0, -1, -1, -1
    return best_gain, best_p, best_k, best_pd


def _mark(x: int, stamp: Ints, step: int, todo: Ints, n_todo: int) -> int:
    if x >= 0 and stamp[x] != step:
        stamp[x] = step
        todo[n_todo] = x
        n_todo += 1
    return n_todo


#: What :func:`_best_move` takes after the node: the state, the pairs, the adjacency, the rows, the least gain.
_MoveArgs = tuple[Ints, Ints, Floats, Ints, Floats, Ints, Ints, Floats, Ints, float]


class _Moves:
    """Each node's best move (``gain``, ``p``, ``k``, ``pd`` as :func:`_best_move` gives them), kept."""

    def __init__(self, n_a: int) -> None:
        self.gain = np.empty(n_a, dtype=np.float64)
        self.p = np.empty(n_a, dtype=np.int64)
        self.k = np.empty(n_a, dtype=np.int64)
        self.pd = np.empty(n_a, dtype=np.int64)


def _climb(
    mapping: Ints, used: Ints, ctx: Floats, pair_src: Ints, pair_tgt: Ints, pair_u: Floats, ptr: Ints, nbr: Ints,
    w: Floats, cand_ptr: Ints, tgt_ptr: Ints, tgt_src: Ints, eps: float,
) -> float:  # fmt: skip
    """Steepest-ascent hill climbing from the state given; returns the gain.

    Each step takes the best move of all (the first node, and its first
    candidate, on ties), as a scan of every candidate would, but each node's
    best move is kept and recomputed only when the step changed something it
    depends on: its own pairs' context (the neighbours of the pairs that
    changed), the owners of the targets involved, the nodes that could move to
    a target whose owner or whose owner's context changed (:func:`_stale`). A
    step then costs about the changed neighbourhood, not the whole candidate
    pool. A last full pass confirms that no move gains before the climb ends.
    """
    n_a = mapping.shape[0]
    moves = _Moves(n_a)
    args: _MoveArgs = (mapping, used, ctx, pair_tgt, pair_u, ptr, nbr, w, cand_ptr, eps)
    everyone = range(n_a)
    _recompute(moves, everyone, args)
    total_gain = 0.0
    stamp = np.full(n_a, -1, dtype=np.int64)
    todo = np.empty(n_a, dtype=np.int64)
    changed = np.empty(4, dtype=np.int64)
    step = 0
    while True:
        best_i = _best_node(moves.gain, eps)
        if best_i < 0:
            # confirm with a full pass; the kept moves are exact, so this finds nothing
            _recompute(moves, everyone, args)
            best_i = _best_node(moves.gain, eps)
            if best_i < 0:
                return total_gain
        total_gain += moves.gain[best_i]
        k = moves.k[best_i]
        n_changed = _step(
            best_i, moves.p[best_i], k, moves.pd[best_i], mapping, used, ctx, pair_tgt, ptr, nbr, w, changed
        )
        step += 1
        n_todo = _mark(best_i, stamp, step, todo, 0)
        if k >= 0:
            n_todo = _mark(k, stamp, step, todo, n_todo)
        n_todo = _stale(changed[:n_changed], n_todo, stamp, step, todo, mapping, used, pair_src, pair_tgt, ptr, nbr,
                        tgt_ptr, tgt_src, int(cand_ptr[n_a]))  # fmt: skip
        _recompute(moves, everyone if n_todo < 0 else todo[:n_todo].tolist(), args)


def _best_node(gains: Floats, eps: float) -> int:
    """The first node whose kept move gains the most, more than ``eps``; -1 when none does."""
    best_gain = eps
    best_i = -1
    for i in range(gains.shape[0]):
        if gains[i] > best_gain:
            best_gain = gains[i]
            best_i = i
    return best_i


def _recompute(moves: _Moves, nodes: Iterable[int], args: _MoveArgs) -> None:
    """The best moves of ``nodes``, in their order (``args``: :func:`_best_move`'s after the node)."""
    mapping, used, ctx, pair_tgt, pair_u, ptr, nbr, w, cand_ptr, eps = args
    gain, move_p, move_k, move_pd = moves.gain, moves.p, moves.k, moves.pd
    for v in nodes:
        gain[v], move_p[v], move_k[v], move_pd[v] = _best_move(
            v, mapping, used, ctx, pair_tgt, pair_u, ptr, nbr, w, cand_ptr, eps
        )


def _step(
    i: int, p: int, k: int, pd: int, mapping: Ints, used: Ints, ctx: Floats, pair_tgt: Ints, ptr: Ints, nbr: Ints,
    w: Floats, changed: Ints,
) -> int:  # fmt: skip
    """Node ``i`` takes pair ``p``: a move (``k < 0``), or a swap with node ``k``, which takes ``pd`` (or
    nothing, -1). The pairs that left or entered go to ``changed``; returns how many."""
    cur = mapping[i]
    n_changed = 0
    if cur >= 0:
        changed[n_changed] = cur
        n_changed += 1
    changed[n_changed] = p
    n_changed += 1
    if k < 0:
        if cur >= 0:
            _activate(cur, -1.0, ctx, ptr, nbr, w)
            used[pair_tgt[cur]] = -1
        _activate(p, 1.0, ctx, ptr, nbr, w)
        mapping[i] = p
        used[pair_tgt[p]] = i
        return n_changed
    pb = mapping[k]
    changed[n_changed] = pb
    n_changed += 1
    if cur >= 0:
        _activate(cur, -1.0, ctx, ptr, nbr, w)
    _activate(pb, -1.0, ctx, ptr, nbr, w)
    _activate(p, 1.0, ctx, ptr, nbr, w)
    mapping[i] = p
    used[pair_tgt[p]] = i
    if pd >= 0:
        changed[n_changed] = pd
        n_changed += 1
        _activate(pd, 1.0, ctx, ptr, nbr, w)
        mapping[k] = pd
        used[pair_tgt[pd]] = k
    else:
        mapping[k] = -1
        if cur >= 0:
            used[pair_tgt[cur]] = -1
    return n_changed


def _stale(
    changed: Ints, n_todo: int, stamp: Ints, step: int, todo: Ints, mapping: Ints, used: Ints, pair_src: Ints,
    pair_tgt: Ints, ptr: Ints, nbr: Ints, tgt_ptr: Ints, tgt_src: Ints, budget: int,
) -> int:  # fmt: skip
    """Add to ``todo`` the nodes whose best move may have changed with the pairs ``changed``; returns their
    number, or -1 when finding them costs more than ``budget`` (then every node is recomputed)."""
    work = 0
    for q0 in changed:
        # whoever could take, or swap into, a target that was taken or freed
        j = pair_tgt[q0]
        work += tgt_ptr[j + 1] - tgt_ptr[j]
        for x in range(tgt_ptr[j], tgt_ptr[j + 1]):
            n_todo = _mark(tgt_src[x], stamp, step, todo, n_todo)
        for y in range(ptr[q0], ptr[q0 + 1]):
            q = nbr[y]
            # the context of q changed: its node, the owner of its target (a swap's pd),
            # and, when q is active, every node that could swap with its owner
            n_todo = _mark(pair_src[q], stamp, step, todo, n_todo)
            t = pair_tgt[q]
            n_todo = _mark(used[t], stamp, step, todo, n_todo)
            if mapping[pair_src[q]] == q:
                work += tgt_ptr[t + 1] - tgt_ptr[t]
                for x in range(tgt_ptr[t], tgt_ptr[t + 1]):
                    n_todo = _mark(tgt_src[x], stamp, step, todo, n_todo)
        if work > budget:
            return -1
    return n_todo


def target_index(n_b: int, pair_src: Ints, pair_tgt: Ints) -> tuple[Ints, Ints]:
    """For each node of B, the sources of the candidate pairs that target it (CSR)."""
    tgt_ptr = np.zeros(n_b + 1, dtype=np.int64)
    for p in range(pair_tgt.shape[0]):
        tgt_ptr[pair_tgt[p] + 1] += 1
    for j in range(n_b):
        tgt_ptr[j + 1] += tgt_ptr[j]
    fill = tgt_ptr[:-1].copy()
    tgt_src = np.empty(pair_tgt.shape[0], dtype=np.int64)
    for p in range(pair_tgt.shape[0]):
        j = pair_tgt[p]
        tgt_src[fill[j]] = pair_src[p]
        fill[j] += 1
    return tgt_ptr, tgt_src


def _score(mapping: Ints, pair_u: Floats, ctx: Floats) -> float:
    s = 0.0
    for i in range(mapping.shape[0]):
        p = mapping[i]
        if p >= 0:
            s += pair_u[p] + 0.5 * ctx[p]
    return s


def hill_climb_kernel(
    n_a: int, n_b: int, pair_src: Ints, pair_tgt: Ints, pair_u: Floats, ptr: Ints, nbr: Ints, w: Floats,
    restarts: int, seed: int, bound: float, init: Ints,
) -> ClimbResult:  # fmt: skip
    """Smart start (or ``init`` when it gives a pair per node), then ``restarts`` random starts.

    Returns the best mapping found (as pairs), its score and the climbs run. The
    search stops early once a climb reaches ``bound``.
    """
    n_pairs = pair_src.shape[0]
    eps = step_tolerance(bound)
    cand_ptr = row_pointers_kernel(n_a, pair_src)
    tgt_ptr, tgt_src = target_index(n_b, pair_src, pair_tgt)
    best_map = np.full(n_a, -1, dtype=np.int64)
    best_score = -1.0
    mapping = np.full(n_a, -1, dtype=np.int64)
    used = np.full(n_b, -1, dtype=np.int64)
    ctx = np.zeros(n_pairs, dtype=np.float64)
    state = (int(seed) * 0x2545F4914F6CDD1D + 0x632BE59BD9B4E019) & _MASK
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
                y = z % (x + 1)
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
                pick = z % free
                for p in range(cand_ptr[i], cand_ptr[i + 1]):
                    if used[pair_tgt[p]] < 0:
                        if pick == 0:
                            mapping[i] = p
                            used[pair_tgt[p]] = i
                            _activate(p, 1.0, ctx, ptr, nbr, w)
                            break
                        pick -= 1
        _climb(mapping, used, ctx, pair_src, pair_tgt, pair_u, ptr, nbr, w, cand_ptr, tgt_ptr, tgt_src, eps)
        climbs += 1
        score = _score(mapping, pair_u, ctx)
        if score > best_score + eps:
            best_score = score
            best_map[:] = mapping
        if best_score >= bound - eps:
            break
    return ClimbResult(best_map, float(best_score), climbs)

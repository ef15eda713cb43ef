"""Hill climbing (plain Python): smatch's moves and swaps, steepest ascent, seeded restarts.

They work on plain integer and float arrays only; :mod:`amreval.match.alignment`
prepares the arrays and reads the results through :func:`amreval.match.kernels.kernels`.
This is the specification of the compiled kernels (``_kernels.c`` follows it
loop by loop and gives identical results) and what runs where they are not
built, or with ``AMREVAL_KERNELS=python``, which is how the benchmark measures
what compiling buys.
"""

from __future__ import annotations

import numpy as np

from amreval.match._pool import find_pair, row_pointers

_EPS = 1e-9


def step_tolerance(bound):
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


def _splitmix(state):
    """SplitMix64: the next state and its output (Python ints below 2**64)."""
    state = (state + 0x9E3779B97F4A7C15) & _MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return state, z ^ (z >> 31)


def _pair_weight(p, q, ptr, nbr, w):
    total = 0.0
    if p < 0 or q < 0:
        return total
    for x in range(ptr[p], ptr[p + 1]):
        if nbr[x] == q:
            total += w[x]
    return total


def _activate(p, sign, ctx, ptr, nbr, w):
    for x in range(ptr[p], ptr[p + 1]):
        ctx[nbr[x]] += sign * w[x]


def _best_move(i, mapping, used, ctx, pair_tgt, pair_u, ptr, nbr, w, cand_ptr, eps):
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
                pd = find_pair(cand_ptr, pair_tgt, k, a)
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


def _mark(x, stamp, step, todo, n_todo):
    if x >= 0 and stamp[x] != step:
        stamp[x] = step
        todo[n_todo] = x
        n_todo += 1
    return n_todo


def _climb(mapping, used, ctx, pair_src, pair_tgt, pair_u, ptr, nbr, w, cand_ptr, tgt_ptr, tgt_src, eps):
    """Steepest-ascent hill climbing from the state given; returns the gain.

    Each step takes the best move of all (the first node, and its first
    candidate, on ties), as a scan of every candidate would, but each node's
    best move is kept and recomputed only when the step changed something it
    depends on: its own pairs' context (the neighbours of the pairs that
    changed), the owners of the targets involved, the nodes that could move to
    a target whose owner or whose owner's context changed. A step then costs
    about the changed neighbourhood, not the whole candidate pool. A last full
    pass confirms that no move gains before the climb ends.
    """
    n_a = mapping.shape[0]
    total_gain = 0.0
    gains = np.empty(n_a, dtype=np.float64)
    move_p = np.empty(n_a, dtype=np.int64)
    move_k = np.empty(n_a, dtype=np.int64)
    move_pd = np.empty(n_a, dtype=np.int64)
    for i in range(n_a):
        gains[i], move_p[i], move_k[i], move_pd[i] = _best_move(
            i, mapping, used, ctx, pair_tgt, pair_u, ptr, nbr, w, cand_ptr, eps
        )
    stamp = np.full(n_a, -1, dtype=np.int64)
    todo = np.empty(n_a, dtype=np.int64)
    changed = np.empty(4, dtype=np.int64)
    step = 0
    while True:
        best_gain = eps
        best_i = -1
        for i in range(n_a):
            if gains[i] > best_gain:
                best_gain = gains[i]
                best_i = i
        if best_i < 0:
            # confirm with a full pass; the kept moves are exact, so this finds nothing
            for i in range(n_a):
                gains[i], move_p[i], move_k[i], move_pd[i] = _best_move(
                    i, mapping, used, ctx, pair_tgt, pair_u, ptr, nbr, w, cand_ptr, eps
                )
                if gains[i] > best_gain:
                    best_gain = gains[i]
                    best_i = i
            if best_i < 0:
                return total_gain
        total_gain += best_gain
        i = best_i
        best_p = move_p[i]
        best_k = move_k[i]
        best_pd = move_pd[i]
        cur = mapping[i]
        n_changed = 0
        if cur >= 0:
            changed[n_changed] = cur
            n_changed += 1
        changed[n_changed] = best_p
        n_changed += 1
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
            changed[n_changed] = pb
            n_changed += 1
            if cur >= 0:
                _activate(cur, -1.0, ctx, ptr, nbr, w)
            _activate(pb, -1.0, ctx, ptr, nbr, w)
            _activate(best_p, 1.0, ctx, ptr, nbr, w)
            mapping[i] = best_p
            used[pair_tgt[best_p]] = i
            if best_pd >= 0:
                changed[n_changed] = best_pd
                n_changed += 1
                _activate(best_pd, 1.0, ctx, ptr, nbr, w)
                mapping[k] = best_pd
                used[pair_tgt[best_pd]] = k
            else:
                mapping[k] = -1
                if cur >= 0:
                    used[pair_tgt[cur]] = -1
        # the nodes whose best move may have changed; when finding them would cost more
        # than recomputing every node, every node is recomputed
        step += 1
        n_todo = 0
        n_todo = _mark(i, stamp, step, todo, n_todo)
        if best_k >= 0:
            n_todo = _mark(best_k, stamp, step, todo, n_todo)
        work = 0
        budget = cand_ptr[n_a]
        for c in range(n_changed):
            q0 = changed[c]
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
                break
        if work > budget:
            for v in range(n_a):
                gains[v], move_p[v], move_k[v], move_pd[v] = _best_move(
                    v, mapping, used, ctx, pair_tgt, pair_u, ptr, nbr, w, cand_ptr, eps
                )
            continue
        for x in range(n_todo):
            v = todo[x]
            gains[v], move_p[v], move_k[v], move_pd[v] = _best_move(
                v, mapping, used, ctx, pair_tgt, pair_u, ptr, nbr, w, cand_ptr, eps
            )


def target_index(n_b, pair_src, pair_tgt):
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


def _score(mapping, pair_u, ctx):
    s = 0.0
    for i in range(mapping.shape[0]):
        p = mapping[i]
        if p >= 0:
            s += pair_u[p] + 0.5 * ctx[p]
    return s


def hill_climb(n_a, n_b, pair_src, pair_tgt, pair_u, ptr, nbr, w, restarts, seed, bound, init):
    """Smart start (or ``init`` when given), then ``restarts`` random starts.

    Returns ``(best_mapping_as_pairs, best_score, climbs_run)``. The search
    stops early once a climb reaches ``bound``.
    """
    n_pairs = pair_src.shape[0]
    eps = step_tolerance(bound)
    cand_ptr = row_pointers(n_a, pair_src)
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
    return best_map, best_score, climbs

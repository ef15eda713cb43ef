"""Pairs the exact search cannot hold: identity proven without a search, and problems over the memory budget
aligned within it.

Two shortcuts around :func:`amreval.match.problem.build_problem`, whose problem grows with the product of
the two graphs (every node pair a candidate where the concepts repeat, as in a chain of one concept):

* :func:`identity_alignment`: two graphs whose triples are the same up to variable names, in the same order
  (their encodings equal), are aligned node for node. That mapping matches every triple of both sides, and
  no mapping matches more than every triple, so it is optimal and proven at any size, with nothing built.
* :func:`restricted_problem`: a problem over :data:`~amreval.match.problem.MEMORY_BUDGET` keeps, for each
  node of A, only its ``k`` best-matching candidates (by what the two nodes and their neighbourhoods share,
  ties broken by position in the graph), with every unary weight and pairwise term between the kept pairs,
  so that a mapping over them scores exactly the triples it matches, as the whole problem would count
  them. Its memory grows with ``n_a * k`` and the relations, not with ``n_a * n_b``; ``k`` is halved until
  the problem fits the budget. Its ``bound`` is an upper bound on the whole problem's optimum, so a climb
  that reaches it is still proven; any other score is a lower bound, reported unproven with that bound.

The bound of a restricted problem is the lower of two, each computed without the whole problem's terms:

* the *per-key bound* (:func:`_simple_bound`): per concept (or over the instance table), attribute key
  and role, the lower of the two sides' sums of what each of their triples can earn, a triple matching at
  most one of the other side;
* the *node bound* (:func:`node_bound`): every node pair is worth what
  :func:`~amreval.match.certify.bounds.assignment_bound` counts a candidate pair of the whole problem (its
  unary weight, plus at each end of its relations the lower of the two sides' sums of half the term
  weights it could take part in), computed from each node's counts per role and key, a few rows of A at a
  time, so its memory grows with the graphs, not their product. The best one-to-one assignment of those
  values bounds every mapping's score; it is solved (shortest augmenting paths over the pairs with a
  value) where A's nodes times those pairs are at most :data:`OVER_BUDGET_ASSIGNMENT_WORK`, and is then
  the whole problem's own assignment bound (the same values over the same pairs, where no sentence groups
  restrict the pairs). Above that, the lower of the sums of each row's and each column's best value
  bounds instead (a mapping earns at most one pair a row and a column).

Where the whole problem would be certified further (its LP relaxation, the integer program), those need
the terms the budget refuses: the node bound is the tightest of the certified search's bounds that can be
computed without them.
"""

from __future__ import annotations

import numpy as np

from amreval.errors import TooLarge
from amreval.match import problem as problem_module
from amreval.match.problem import Alignment, Candidates, Problem, build_problem, memory_estimate
from amreval.match.triples import EncodedPair

__all__ = [
    "identity_alignment",
    "restricted_problem",
    "build_within_budget",
    "OVER_BUDGET_CANDIDATES",
    "OVER_BUDGET_RESTARTS",
    "OVER_BUDGET_ASSIGNMENT_WORK",
    "node_bound",
]

#: Candidates kept per node of A, at most, in a problem over the memory budget (fewer where the problem
#: would not fit the budget with these).
OVER_BUDGET_CANDIDATES = 32
#: Random restarts of the climb over a restricted problem, at most (each costs a climb over the whole graph).
OVER_BUDGET_RESTARTS = 2
#: The node bound (:func:`node_bound`) solves the one-to-one assignment of its node pairs' values where the
#: number of A's nodes times the pairs with a value is at most this (the search's worst case scans every
#: pair once per node: about a second); otherwise each row's and column's best value bounds.
OVER_BUDGET_ASSIGNMENT_WORK = 100_000_000
# cells of the node-pair similarity computed at once (a few rows of A against all of B): 8 MB an array
_CHUNK_CELLS = 1_000_000


def _identity_allowed(allowed: Candidates | np.ndarray | None, n: int) -> bool:
    """Whether every node may align with the node of the same position (rows that share a group)."""
    if allowed is None:
        return True
    if isinstance(allowed, np.ndarray):
        return allowed.shape == (n, n) and bool(np.all(np.diagonal(allowed)))
    a_ptr, b_ptr = np.asarray(allowed.a_ptr), np.asarray(allowed.b_ptr)
    if len(a_ptr) != n + 1 or len(b_ptr) != n + 1:
        return False
    same = np.array_equal(a_ptr, b_ptr) and np.array_equal(np.asarray(allowed.a_ids), np.asarray(allowed.b_ids))
    return same and bool(np.all(np.diff(a_ptr) > 0))


def identity_alignment(pair: EncodedPair, allowed: Candidates | np.ndarray | None = None) -> Alignment | None:
    """The node-for-node alignment of two graphs whose encoded triples are equal (the same graph up to
    variable names, written in the same order), proven optimal without building the problem; None for
    any other pair (or where ``allowed`` forbids a node its own position).

    Its score is the number of triples of either side: every one matched, the most any mapping can match.

    Example:
        >>> from amreval.amr.read import loads_graph
        >>> from amreval.match.triples import encode_pair, graph_triples
        >>> a = graph_triples(loads_graph("(w / want-01 :ARG0 (b / boy))"))
        >>> b = graph_triples(loads_graph("(x / want-01 :ARG0 (y / boy))"))
        >>> found = identity_alignment(encode_pair(a, b))
        >>> found.score, found.optimal, found.mapping.tolist()
        (4.0, True, [0, 1])
        >>> identity_alignment(encode_pair(a, graph_triples(loads_graph("(x / want-01)")))) is None
        True
    """
    n = len(pair.inst_a)
    same = (
        np.array_equal(pair.inst_a, pair.inst_b)
        and np.array_equal(pair.attr_a, pair.attr_b)
        and np.array_equal(pair.rel_a, pair.rel_b)
    )
    if not same or not _identity_allowed(allowed, n):
        return None
    count = float(n + len(pair.attr_a) + len(pair.rel_a))
    return Alignment(np.arange(n, dtype=np.int64), count, count, True, "identity", 0)


def _keys(*columns: np.ndarray) -> np.ndarray:
    """Row ids of equal rows of the stacked columns (0 .. distinct - 1)."""
    if not len(columns[0]):
        return np.zeros(0, dtype=np.int64)
    _, ids = np.unique(np.stack(columns, axis=1), axis=0, return_inverse=True)
    return ids.reshape(-1).astype(np.int64)


def _features(pair: EncodedPair) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, int]:
    """What a node is seen by when ranking its candidates: its concept, its attributes, and per relation its
    role and direction, with and without the concept at the other end. As (node, feature id) rows of A
    and of B, over one numbering of the features, and the number of features."""
    rows = []
    for inst, attr, rel in ((pair.inst_a, pair.attr_a, pair.rel_a), (pair.inst_b, pair.attr_b, pair.rel_b)):
        nodes = np.arange(len(inst), dtype=np.int64)
        loops = rel[:, 1] == rel[:, 2]
        out, into = rel[~loops], rel[~loops]
        zero = np.zeros
        parts = [
            (nodes, zero(len(nodes), np.int64), inst, zero(len(nodes), np.int64)),
            (attr[:, 0], np.ones(len(attr), np.int64), attr[:, 1], zero(len(attr), np.int64)),
            (rel[loops, 1], np.full(int(loops.sum()), 2, np.int64), rel[loops, 0], zero(int(loops.sum()), np.int64)),
            (out[:, 1], np.full(len(out), 3, np.int64), out[:, 0], inst[out[:, 2]] + 1),
            (out[:, 1], np.full(len(out), 3, np.int64), out[:, 0], zero(len(out), np.int64)),
            (into[:, 2], np.full(len(into), 4, np.int64), into[:, 0], inst[into[:, 1]] + 1),
            (into[:, 2], np.full(len(into), 4, np.int64), into[:, 0], zero(len(into), np.int64)),
        ]
        rows.append(tuple(np.concatenate([p[x].astype(np.int64) for p in parts]) for x in range(4)))
    (na, *fa), (nb, *fb) = rows
    ids = _keys(*(np.concatenate([x, y]) for x, y in zip(fa, fb)))
    n_features = int(ids.max()) + 1 if len(ids) else 0
    return na, ids[: len(na)], nb, ids[len(na) :], n_features


def _indicator(nodes: np.ndarray, ids: np.ndarray, n_rows: int, n_cols: int):  # type: ignore[no-untyped-def]
    """A 0/1 sparse matrix with a one at each (node, id)."""
    from scipy.sparse import csr_matrix

    m = csr_matrix((np.ones(len(nodes)), (nodes, ids)), shape=(n_rows, max(n_cols, 1)))
    m.data[:] = 1.0
    return m


def _group_indicators(allowed: Candidates, n_a: int, n_b: int):  # type: ignore[no-untyped-def]
    """The nodes' groups as 0/1 sparse matrices, A's (node x group) and B's transposed (group x node): their
    product's entry (i, j) is nonzero where ``i`` and ``j`` share a group (a pair ``allowed`` keeps)."""
    n_groups = int(max(allowed.a_ids.max(initial=-1), allowed.b_ids.max(initial=-1))) + 1
    own_a = np.repeat(np.arange(n_a), np.diff(allowed.a_ptr))
    own_b = np.repeat(np.arange(n_b), np.diff(allowed.b_ptr))
    return _indicator(own_a, allowed.a_ids, n_a, n_groups), _indicator(own_b, allowed.b_ids, n_b, n_groups).T


def _ranked_candidates(
    pair: EncodedPair, allowed: Candidates | None, instance_weights: np.ndarray | None, k: int
) -> tuple[np.ndarray, np.ndarray]:
    """Each node of A's ``k`` best candidates (sharing something with it, and a group where ``allowed``
    says), as (source, target) arrays ordered by source, then target. A pair's worth is the number of
    features (:func:`_features`) the two nodes share, plus the instance table's weight where one is given;
    ties go to the targets nearest in relative position (graphs of one sentence list nodes in much the
    same order)."""
    n_a, n_b = len(pair.inst_a), len(pair.inst_b)
    if not n_a or not n_b:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    na, fa, nb, fb, n_features = _features(pair)
    if instance_weights is not None:  # the table stands for the concepts: drop the concept features
        na, fa, nb, fb = na[n_a:], fa[n_a:], nb[n_b:], fb[n_b:]
    feat_a, feat_b_t = _indicator(na, fa, n_a, n_features), _indicator(nb, fb, n_b, n_features).T.tocsr()
    groups = None if allowed is None else _group_indicators(allowed, n_a, n_b)
    position_b = np.arange(n_b) / max(n_b - 1, 1)
    src: list[np.ndarray] = []
    tgt: list[np.ndarray] = []
    step = max(1, _CHUNK_CELLS // n_b)
    for start in range(0, n_a, step):
        rows = np.arange(start, min(n_a, start + step))
        worth = np.asarray((feat_a[rows] @ feat_b_t).todense(), dtype=np.float64)
        if instance_weights is not None:
            worth += np.asarray(instance_weights[rows], dtype=np.float64)
        if groups is not None:
            worth[np.asarray((groups[0][rows] @ groups[1]).todense()) == 0] = 0.0
        worth[worth <= 0] = -np.inf
        # ties: the nearest relative position first (less than any feature's worth)
        worth -= 1e-3 * np.abs(rows[:, None] / max(n_a - 1, 1) - position_b[None, :])
        keep = min(k, n_b)
        best = (
            np.argpartition(-worth, keep - 1, axis=1)[:, :keep]
            if keep < n_b
            else np.tile(np.arange(n_b), (len(rows), 1))
        )
        ok = np.isfinite(np.take_along_axis(worth, best, axis=1))
        src.append(np.repeat(rows, ok.sum(axis=1)))
        tgt.append(best[ok])
    s, t = np.concatenate(src), np.concatenate(tgt)
    order = np.lexsort((t, s))
    return s[order].astype(np.int64), t[order].astype(np.int64)


def _lookup(sorted_keys: np.ndarray, wanted: np.ndarray) -> np.ndarray:
    """Where each wanted key is in an ascending array, or -1."""
    if not len(sorted_keys):
        return np.full(len(wanted), -1, dtype=np.int64)
    at = np.minimum(np.searchsorted(sorted_keys, wanted), len(sorted_keys) - 1)
    return np.where(sorted_keys[at] == wanted, at, -1).astype(np.int64)


def _expand(ptr: np.ndarray, owners: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For each owner, each index of its CSR row: (position in ``owners``, index)."""
    lengths = ptr[owners + 1] - ptr[owners]
    which = np.repeat(np.arange(len(owners)), lengths)
    offsets = np.arange(len(which)) - np.repeat(np.cumsum(lengths) - lengths, lengths)
    return which, ptr[owners][which] + offsets


def _simple_bound(
    pair: EncodedPair, instance_weights: np.ndarray | None, weights: tuple[np.ndarray, np.ndarray, np.ndarray]
) -> float:
    """An upper bound on the whole problem's optimum: per concept (or over the instance table), attribute
    key and role, the lower of the two sides' sums of what each of their triples can earn at most, where a
    triple matches at most one of the other side."""
    inst_bw, attr_bw, rel_bw = weights
    total = 0.0
    if instance_weights is None:
        sides = [(pair.inst_a, np.ones(len(pair.inst_a)), pair.inst_b, inst_bw)]
    else:
        earned = np.asarray(instance_weights, dtype=np.float64) * inst_bw[None, :]
        a_best = earned.max(axis=1, initial=0.0)
        b_best = earned.max(axis=0, initial=0.0)
        total += min(float(a_best.sum()), float(b_best.sum()))
        sides = []
    sides.append((pair.attr_a[:, 1], np.ones(len(pair.attr_a)), pair.attr_b[:, 1], attr_bw))
    sides.append((pair.rel_a[:, 0], np.ones(len(pair.rel_a)), pair.rel_b[:, 0], rel_bw))
    for keys_a, _, keys_b, bw in sides:
        for key in np.intersect1d(keys_a, keys_b):
            theirs = bw[keys_b == key]
            top = float(theirs.max())
            total += min(float((keys_a == key).sum()) * top, float(theirs.sum()))
    return total


def _by_node(nodes: np.ndarray, keys: np.ndarray, values: np.ndarray, n_rows: int, n_keys: int, how: str = "sum"):  # type: ignore[no-untyped-def]
    """A sparse ``n_rows x n_keys`` matrix of the ``values`` summed (or their maximum, ``how="max"``) per
    (node, key)."""
    from scipy.sparse import csr_matrix

    width = max(n_keys, 1)
    if how == "max" and len(nodes):
        cell = nodes.astype(np.int64) * width + keys.astype(np.int64)
        order = np.lexsort((values, cell))
        cell, values = cell[order], values[order]
        last = np.append(cell[1:] != cell[:-1], True)
        cell, values = cell[last], values[last]
        nodes, keys = cell // width, cell % width
    return csr_matrix((np.asarray(values, dtype=np.float64), (nodes, keys)), shape=(n_rows, width))


def _dense(product) -> np.ndarray:  # type: ignore[no-untyped-def]
    """A product of a sparse matrix with a sparse or a dense one, as a dense array."""
    return product if isinstance(product, np.ndarray) else product.toarray()


def node_bound(
    pair: EncodedPair,
    *,
    allowed: Candidates | None = None,
    instance_weights: np.ndarray | None = None,
    b_weights: tuple[np.ndarray | None, np.ndarray | None, np.ndarray | None] | None = None,
) -> float:
    """The node bound of the whole problem of ``pair`` (see the module docs): an upper bound on its optimum,
    computed without its terms, in memory that grows with the graphs (and :data:`_CHUNK_CELLS`).

    Example:
        >>> from amreval.amr.read import loads_graph
        >>> from amreval.match.triples import encode_pair, graph_triples
        >>> pair = encode_pair(graph_triples(loads_graph("(a / x :r (b / y))")),
        ...                    graph_triples(loads_graph("(a / y :r (b / x))")))
        >>> node_bound(pair)    # a->a 1.5 (TOP, half the relation), b->b 0.5, a->b and b->a 1 each
        2.0
    """
    n_a, n_b = len(pair.inst_a), len(pair.inst_b)
    if not n_a or not n_b:
        return 0.0
    sizes = (n_b, len(pair.attr_b), len(pair.rel_b))
    inst_bw, attr_bw, rel_bw = (
        np.ones(n) if w is None else np.asarray(w, dtype=np.float64) for w, n in zip(b_weights or (None,) * 3, sizes)
    )
    loop_a, loop_b = pair.rel_a[:, 1] == pair.rel_a[:, 2], pair.rel_b[:, 1] == pair.rel_b[:, 2]
    n_keys = int(max(pair.attr_a[:, 1].max(initial=-1), pair.attr_b[:, 1].max(initial=-1))) + 1
    n_roles = int(max(pair.rel_a[:, 0].max(initial=-1), pair.rel_b[:, 0].max(initial=-1))) + 1
    ones = np.ones
    # unary weights: a node pair's matching attributes and relations from a node to itself
    unary = []
    for rows_a, rows_b, bw, width in (
        (pair.attr_a, pair.attr_b, attr_bw, n_keys),
        (pair.rel_a[loop_a][:, [1, 0]], pair.rel_b[loop_b][:, [1, 0]], rel_bw[loop_b], n_roles),
    ):
        mine = _by_node(rows_a[:, 0], rows_a[:, 1], ones(len(rows_a)), n_a, width)
        unary.append((mine, _by_node(rows_b[:, 0], rows_b[:, 1], bw, n_b, width).T.tocsr()))
    # at each end (source, target) of the relations: A's triples counted per role, B's best and summed weights
    ends = []
    rel_a, rel_b, weights = pair.rel_a[~loop_a], pair.rel_b[~loop_b], rel_bw[~loop_b]
    for end in (1, 2):
        count_a = _by_node(rel_a[:, end], rel_a[:, 0], ones(len(rel_a)), n_a, n_roles)
        has_a = count_a.copy()
        has_a.data[:] = 1.0
        best_b = _by_node(rel_b[:, end], rel_b[:, 0], weights / 2.0, n_b, n_roles, "max").T.tocsr()
        sum_b = _by_node(rel_b[:, end], rel_b[:, 0], weights / 2.0, n_b, n_roles).T.tocsr()
        if best_b.shape[0] * n_b <= _CHUNK_CELLS:  # few roles: B's side dense, each product a dense one
            best_b, sum_b = best_b.toarray(), sum_b.toarray()
        ends.append((count_a, best_b, has_a, sum_b))
    groups = None if allowed is None else _group_indicators(allowed, n_a, n_b)
    rows_total, col_best = 0.0, np.zeros(n_b)
    ptr, cols, values, n_pairs, assign = [np.zeros(1, dtype=np.int64)], [], [], 0, True
    step = max(1, _CHUNK_CELLS // n_b)
    for start in range(0, n_a, step):
        rows = np.arange(start, min(n_a, start + step))
        if instance_weights is None:
            value = np.where(pair.inst_a[rows, None] == pair.inst_b[None, :], inst_bw[None, :], 0.0)
        else:
            value = np.asarray(instance_weights[rows], dtype=np.float64) * inst_bw[None, :]
        value[value < 0.0] = 0.0
        for mine, theirs in unary:  # few entries: added where they are
            cells = (mine[rows] @ theirs).tocoo()
            np.add.at(value, (cells.row, cells.col), cells.data)
        for count_a, best_b, has_a, sum_b in ends:
            value += np.minimum(_dense(count_a[rows] @ best_b), _dense(has_a[rows] @ sum_b))
        if groups is not None:
            value[np.asarray((groups[0][rows] @ groups[1]).todense()) == 0] = 0.0
        rows_total += float(value.max(axis=1).sum())
        np.maximum(col_best, value.max(axis=0), out=col_best)
        if assign:
            r, c = np.nonzero(value > 0.0)
            n_pairs += len(r)
            assign = n_pairs * n_a <= OVER_BUDGET_ASSIGNMENT_WORK
            if assign:
                ptr.append(ptr[-1][-1] + np.cumsum(np.bincount(r, minlength=len(rows))))
                cols.append(c.astype(np.int64))
                values.append(value[r, c])
            else:
                cols, values = [], []
    bound = min(rows_total, float(col_best.sum()))
    if assign:
        from amreval.match.kernels import backend

        found = backend().sparse_assignment_kernel(
            n_a,
            n_b,
            np.concatenate(ptr).astype(np.int64),
            np.concatenate(cols) if cols else np.zeros(0, dtype=np.int64),
            np.concatenate(values) if values else np.zeros(0, dtype=np.float64),
        )
        bound = min(bound, float(found.total))
    return bound


def restricted_problem(
    pair: EncodedPair,
    *,
    allowed: Candidates | None = None,
    instance_weights: np.ndarray | None = None,
    b_weights: tuple[np.ndarray | None, np.ndarray | None, np.ndarray | None] | None = None,
    budget: int | None = None,
) -> Problem:
    """The problem over each node of A's best candidates (see module docs), within ``budget`` bytes (default
    :data:`~amreval.match.problem.MEMORY_BUDGET`) by :func:`~amreval.match.problem.memory_estimate`; marked
    ``restricted``, with the lower of the whole problem's per-key bound (:func:`_simple_bound`) and node
    bound (:func:`node_bound`). Weights as :func:`~amreval.match.problem.build_problem` gives them (the
    arguments are those it checked)."""
    budget = problem_module.MEMORY_BUDGET if budget is None else budget
    sizes = (len(pair.inst_b), len(pair.attr_b), len(pair.rel_b))
    bw = b_weights or (None, None, None)
    weights = tuple(np.ones(n) if w is None else np.asarray(w, dtype=np.float64) for w, n in zip(bw, sizes))
    bound = _simple_bound(pair, instance_weights, weights)  # type: ignore[arg-type]
    bound = min(bound, node_bound(pair, allowed=allowed, instance_weights=instance_weights, b_weights=b_weights))
    k = OVER_BUDGET_CANDIDATES
    while True:
        problem = _restricted(pair, allowed, instance_weights, weights, k, budget)  # type: ignore[arg-type]
        if problem is not None or k == 1:
            break
        k //= 2
    if problem is None:  # one candidate a node over the budget: the pairs' unary weights alone
        problem = _restricted(pair, allowed, instance_weights, weights, 1, None)  # type: ignore[arg-type]
        assert problem is not None
    problem.bound = max(bound, 0.0)
    problem.integral = instance_weights is None and b_weights is None
    return problem


def _restricted(
    pair: EncodedPair,
    allowed: Candidates | None,
    instance_weights: np.ndarray | None,
    weights: tuple[np.ndarray, np.ndarray, np.ndarray],
    k: int,
    budget: int | None,
) -> Problem | None:
    """The problem over ``k`` candidates a node, or None where its terms would not fit ``budget`` (None: no
    terms at all, every unary weight kept)."""
    inst_bw, attr_bw, rel_bw = weights
    n_a, n_b = len(pair.inst_a), len(pair.inst_b)
    src, tgt = _ranked_candidates(pair, allowed, instance_weights, k)
    keys = src * max(n_b, 1) + tgt
    ptr = np.zeros(n_a + 1, dtype=np.int64)
    np.add.at(ptr, src + 1, 1)
    ptr = np.cumsum(ptr)
    unary = np.zeros(len(keys), dtype=np.float64)
    if instance_weights is None:
        unary += np.where(pair.inst_a[src] == pair.inst_b[tgt], inst_bw[tgt], 0.0)
    else:
        cell = np.asarray(instance_weights, dtype=np.float64)[src, tgt] * inst_bw[tgt]
        unary += np.where(cell > 0.0, cell, 0.0)
    # attributes and relations from a node to itself: (owner, key) is one triple a side at most
    loop_a = pair.rel_a[:, 1] == pair.rel_a[:, 2]
    loop_b = pair.rel_b[:, 1] == pair.rel_b[:, 2]
    for rows_a, rows_b, bw in (
        (pair.attr_a, pair.attr_b, attr_bw),
        (pair.rel_a[loop_a][:, [1, 0]], pair.rel_b[loop_b][:, [1, 0]], rel_bw[loop_b]),
    ):
        if not len(rows_a) or not len(rows_b):
            continue
        width = int(max(rows_a[:, 1].max(), rows_b[:, 1].max())) + 1
        b_keys = rows_b[:, 0] * width + rows_b[:, 1]
        order = np.argsort(b_keys, kind="stable")
        which, cand = _expand(ptr, rows_a[:, 0])
        at = _lookup(b_keys[order], tgt[cand] * width + rows_a[which, 1])
        hit = at >= 0
        np.add.at(unary, cand[hit], bw[order[at[hit]]])
    # terms: each relation (r, i, k) of A, each candidate l of k, each relation (r, j, l) of B into l, when
    # (i, j) is a candidate too
    ends_a = np.flatnonzero(~loop_a)
    ends_b = np.flatnonzero(~loop_b)
    into = pair.rel_b[ends_b]
    width = int(max(pair.rel_a[:, 0].max(initial=0), pair.rel_b[:, 0].max(initial=0))) + 1
    b_keys = into[:, 2] * width + into[:, 0]
    order = np.argsort(b_keys, kind="stable")
    sorted_b = b_keys[order]
    which, cand = _expand(ptr, pair.rel_a[ends_a, 2])
    wanted = tgt[cand] * width + pair.rel_a[ends_a[which], 0]
    lo, hi = np.searchsorted(sorted_b, wanted, "left"), np.searchsorted(sorted_b, wanted, "right")
    expanded = int((hi - lo).sum())
    if budget is not None and memory_estimate(expanded, len(keys)) > budget:
        return None
    lengths = hi - lo
    row = np.repeat(np.arange(len(wanted)), lengths)
    b_at = order[np.repeat(lo, lengths) + np.arange(expanded) - np.repeat(np.cumsum(lengths) - lengths, lengths)]
    s, t = ends_a[which[row]], ends_b[b_at]
    first = _lookup(keys, pair.rel_a[s, 1] * max(n_b, 1) + pair.rel_b[t, 1])
    second = cand[row]
    ok = first >= 0
    s, t, first, second = s[ok], t[ok], first[ok], second[ok]
    term_order = np.lexsort((t, s))
    s, t, first, second = s[term_order], t[term_order], first[term_order], second[term_order]
    # the pairs kept: those earning unary weight or ending a term
    used = unary > 0.0
    used[first] = True
    used[second] = True
    local = np.cumsum(used) - 1
    return Problem(
        n_a=n_a,
        n_b=n_b,
        pair_src=src[used],
        pair_tgt=tgt[used],
        pair_u=unary[used],
        term_p=local[first].astype(np.int64),
        term_q=local[second].astype(np.int64),
        term_ta=s.astype(np.int64),
        term_tb=t.astype(np.int64),
        term_w=rel_bw[t].astype(np.float64),
        bound=0.0,
        integral=False,
        restricted=True,
    )


def build_within_budget(
    pair: EncodedPair,
    *,
    strict: bool = False,
    allowed: Candidates | np.ndarray | None = None,
    instance_weights: np.ndarray | None = None,
    b_weights: tuple[np.ndarray | None, np.ndarray | None, np.ndarray | None] | None = None,
) -> Problem:
    """:func:`~amreval.match.problem.build_problem`, or where its problem is over the memory budget, the
    :func:`restricted_problem` over each node's best candidates (``strict``: the error instead).

    Raises:
        TooLarge: with ``strict``, the whole problem is over the budget.
        InputError: as :func:`~amreval.match.problem.build_problem`.
    """
    try:
        return build_problem(pair, allowed=allowed, instance_weights=instance_weights, b_weights=b_weights)
    except TooLarge:
        if strict:
            raise
    if isinstance(allowed, np.ndarray):
        allowed = Candidates.from_matrix(allowed)
    return restricted_problem(pair, allowed=allowed, instance_weights=instance_weights, b_weights=b_weights)

"""The problem the kernels build, against a reference computed the obvious slow way; its block's layout."""

from __future__ import annotations

import itertools
from dataclasses import fields

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from amreval.match import problem as problem_module
from amreval.match.kernels import backends as kernel_module
from amreval.match.kernels.contract import BLOCK_LAYOUT, BlockCounts, ProblemBlock, block_offsets, block_size
from amreval.match.problem import Candidates, build_problem
from amreval.match.triples import Triples, encode_pair

from strategies import triples


def reference_pool(pair, allowed=None, instance_weights=None, b_weights=(None, None, None)):
    """Candidate pairs ``(i, j, unary)``, terms ``(pair p, pair q, relation of A, relation of B, weight)``
    and the bound, from every node pair and every two triples.

    ``i -> j`` may align where the nodes share a group of ``allowed``. It earns its instance match
    (``instance_weights``, or 1 for equal concepts, times B's weight) and the weight of each matching
    attribute and relation from the node to itself; two relations of one role make a term between the
    pairs of their ends. A pair is a candidate when it earns weight or ends a term. The bound: each
    triple of one side counted for the most a match can earn it, the lesser of the two sides' sums.
    """
    (inst_a, attr_a, rel_a), (inst_b, attr_b, rel_b) = (
        (x.tolist() for x in (pair.inst_a, pair.attr_a, pair.rel_a)),
        (x.tolist() for x in (pair.inst_b, pair.attr_b, pair.rel_b)),
    )
    n_a, n_b = len(inst_a), len(inst_b)
    w_inst, w_attr, w_rel = (
        [1.0] * n if w is None else w.tolist() for w, n in zip(b_weights, (n_b, len(attr_b), len(rel_b)))
    )

    def ok(i, j):
        if allowed is None:
            return True
        mine = allowed.a_ids[allowed.a_ptr[i] : allowed.a_ptr[i + 1]].tolist()
        return bool(set(mine) & set(allowed.b_ids[allowed.b_ptr[j] : allowed.b_ptr[j + 1]].tolist()))

    unary, terms = {}, []
    best_a = [[0.0] * n_a, [0.0] * len(attr_a), [0.0] * len(rel_a)]
    best_b = [[0.0] * n_b, [0.0] * len(attr_b), [0.0] * len(rel_b)]

    def earn(kind, s, t, w):
        best_a[kind][s], best_b[kind][t] = max(best_a[kind][s], w), max(best_b[kind][t], w)

    for i, j in itertools.product(range(n_a), range(n_b)):
        if ok(i, j):
            same = instance_weights[i][j] if instance_weights is not None else float(inst_a[i] == inst_b[j])
            if same * w_inst[j] > 0:
                unary[i, j] = same * w_inst[j]
                earn(0, i, j, same * w_inst[j])
    for (s, (i, key)), (t, (j, key_b)) in itertools.product(enumerate(attr_a), enumerate(attr_b)):
        if key == key_b and ok(i, j):
            unary[i, j] = unary.get((i, j), 0.0) + w_attr[t]
            earn(1, s, t, w_attr[t])
    for (s, (r, i, k)), (t, (r_b, j, l)) in itertools.product(enumerate(rel_a), enumerate(rel_b)):  # noqa: E741
        if r == r_b and ok(i, j) and ok(k, l) and (i == k) == (j == l):
            earn(2, s, t, w_rel[t])
            if i == k:
                unary[i, j] = unary.get((i, j), 0.0) + w_rel[t]
            else:
                terms.append(((i, j), (k, l), s, t, w_rel[t]))
    ends = {end for term in terms for end in term[:2]}
    pairs = sorted(p for p in set(unary) | ends if unary.get(p, 0.0) > 0 or p in ends)
    index = {p: x for x, p in enumerate(pairs)}
    bound = min(sum(side[0]) + sum(side[1]) + sum(side[2]) for side in (best_a, best_b))
    return (
        [(i, j, unary.get((i, j), 0.0)) for i, j in pairs],
        [(index[p], index[q], s, t, w) for p, q, s, t, w in terms],
        bound,
    )


# small graphs with attributes, possibly empty
GRAPHS = triples(6, "abc", min_nodes=0, attributes=True, relations_per_node=2)


@settings(
    max_examples=150, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(GRAPHS, GRAPHS, st.integers(0, 2), st.data())
def test_both_kernels_build_the_reference_pool(monkeypatch, a, b, kind, data):
    pair = encode_pair(a, b)
    n_a, n_b = len(a.concepts), len(b.concepts)
    kw: dict = {}
    if kind == 1:
        # sentence groups, a node in one or two of them (DocSmatch's constraint)
        groups = st.lists(st.integers(0, 2), min_size=1, max_size=2, unique=True).map(sorted)
        kw["allowed"] = Candidates.from_lists(
            [data.draw(groups) for _ in range(n_a)], [data.draw(groups) for _ in range(n_b)]
        )
    elif kind == 2:
        # graded concept credit and weighted gold triples (S²match-like), zeros among them
        weights = st.sampled_from([0.0, 0.25, 0.5, 0.7, 1.0])
        kw["instance_weights"] = np.array([[data.draw(weights) for _ in range(n_b)] for _ in range(n_a)]).reshape(
            n_a, n_b
        )
        sizes = (n_b, len(pair.attr_b), len(pair.rel_b))
        kw["b_weights"] = tuple(np.array([data.draw(weights) for _ in range(m)]) for m in sizes)
    want_pairs, want_terms, want_bound = reference_pool(pair, **kw)
    for which in ("c", "python"):
        monkeypatch.setattr(problem_module, "backend", lambda which=which: kernel_module.kernels(which))
        p = build_problem(pair, **kw)
        assert list(zip(p.pair_src.tolist(), p.pair_tgt.tolist(), p.pair_u.tolist())) == want_pairs
        terms = zip(p.term_p.tolist(), p.term_q.tolist(), p.term_ta.tolist(), p.term_tb.tolist(), p.term_w.tolist())
        assert list(terms) == want_terms
        assert p.bound == want_bound


def test_the_reference_on_a_hand_checked_pair():
    # A: w/want :ARG0 b/boy ; B: x/want :ARG0 y/boy :ARG1 z/boy (the pool test of test_alignment.py)
    a = Triples(["w", "b"], ["want", "boy"], [("TOP", 0, "want")], [("ARG0", 0, 1)])
    b = Triples(["x", "y", "z"], ["want", "boy", "boy"], [("TOP", 0, "want")], [("ARG0", 0, 1), ("ARG1", 0, 2)])
    pairs, terms, bound = reference_pool(encode_pair(a, b))
    assert pairs == [(0, 0, 2.0), (1, 1, 1.0), (1, 2, 1.0)]
    assert terms == [(0, 1, 0, 0, 1.0)]
    # A: 2 instances, TOP, 1 relation = 4; B: 3 instances, TOP, 1 of its 2 relations matchable = 5
    assert bound == 4.0


def test_the_block_layout_is_the_table_in_python_and_in_c():
    names = [field.name for field in BLOCK_LAYOUT]
    assert names + ["bound"] == [field.name for field in fields(ProblemBlock)]
    c = kernel_module.kernels("c")
    for n_a, n_pairs, n_terms in [(0, 0, 0), (2, 3, 1), (7, 40, 123), (1000, 5, 0)]:
        counts = BlockCounts(n_a, n_pairs, n_terms)
        offsets = block_offsets(counts)
        assert c.block_offsets(counts) == offsets
        # pairs 3 arrays, terms 5, the adjacency (n_pairs + 1 and twice 2 n_terms), the rows (n_a + 1)
        assert block_size(counts) == offsets[-1] == 4 * n_pairs + 9 * n_terms + n_a + 2


@pytest.mark.parametrize("which", ["c", "python"])
def test_each_array_of_a_built_problem_lies_in_one_block_where_the_table_says(monkeypatch, which):
    monkeypatch.setattr(problem_module, "backend", lambda: kernel_module.kernels(which))
    a = Triples(["a", "b", "c"], ["x", "y", "y"], [("TOP", 0, "x")], [("r", 0, 1), ("r", 0, 2), ("s", 1, 2)])
    problem = build_problem(encode_pair(a, a))
    counts = BlockCounts(problem.n_a, problem.n_pairs, problem.n_terms)
    assert counts == (3, 5, 5)
    offsets = block_offsets(counts)
    arrays = {
        **{field.name: getattr(problem, field.name) for field in BLOCK_LAYOUT[:8]},
        **dict(zip(("adj_ptr", "adj_nbr", "adj_w"), problem.adjacency())),
        "rows": problem.rows(),
    }
    start = problem.pair_src.__array_interface__["data"][0]
    for field, at, end in zip(BLOCK_LAYOUT, offsets, offsets[1:]):
        array = arrays[field.name]
        assert array.dtype == field.dtype and len(array) == end - at, field.name
        assert array.__array_interface__["data"][0] == start + 8 * at, field.name

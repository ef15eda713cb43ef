"""Exact search by branch and bound (C and Python agree), and the block-by-block bound of documents."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from amreval import loads_graph
from amreval.match.alignment import align, hill_climb
from amreval.match.certify.blocks import block_bound
from amreval.match.certify.bounds import solve_milp
from amreval.match.certify.exact import branch_and_bound
from amreval.match.certify.proof import optimality_gap
from amreval.match.kernels.backends import kernels
from amreval.match.kernels.contract import SearchSpace
from amreval.match.options import SearchOptions
from amreval.match.problem import Candidates, build_problem, nodes_to_pairs, pairs_to_nodes
from amreval.match.triples import Triples, encode_pair, graph_triples

from strategies import problems


def search_args(problem, init_pairs, gap, limit):
    return (problem.search_space(),), {"rows": problem.rows(), "init": init_pairs, "gap": gap, "node_limit": limit}


@settings(max_examples=250, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(problems(), st.integers(0, 2**31), st.sampled_from([3, 40, 10**6]))
def test_c_and_python_search_alike_and_reach_the_optimum(problem, seed, limit):
    start = hill_climb(problem, restarts=0, seed=seed)
    args, kw = search_args(problem, nodes_to_pairs(problem, start.mapping), optimality_gap(problem.integral), limit)
    c = kernels("c").branch_and_bound_kernel(*args, **kw)
    py = kernels("python").branch_and_bound_kernel(*args, **kw)
    assert c.pairs.tolist() == py.pairs.tolist() and c[1:] == py[1:]
    pairs, value, proven, nodes = c
    assert nodes <= limit + 1
    assert value >= start.score - 1e-9
    # the mapping is one-to-one and worth what the search says
    mapping = pairs_to_nodes(problem, pairs)
    assert problem.value(mapping) == pytest.approx(value, abs=1e-9)
    optimum = solve_milp(problem)
    assert optimum.optimal
    assert value <= optimum.score + 1e-6
    if proven:
        assert value >= optimum.score - optimality_gap(problem.integral) - 1e-9
        if problem.integral:
            assert value == optimum.score
    elif limit >= 10**6:
        pytest.fail("a search with a million subtrees did not end on a problem of eight nodes")


def _random_document_problem(rng: random.Random):
    """Two random graphs over up to 8 nodes in sentence groups 0-3, some nodes in two or three (coreference)."""
    sides = []
    for _ in range(2):
        n = rng.randint(1, 8)
        concepts = [rng.choice("aabc") for _ in range(n)]
        relations = list(
            dict.fromkeys((rng.choice("rs"), rng.randrange(n), rng.randrange(n)) for _ in range(rng.randint(0, 3 * n)))
        )
        groups = [sorted(rng.sample(range(4), rng.choice([1, 1, 2, 3]))) for _ in range(n)]
        sides.append((Triples([f"v{k}" for k in range(n)], concepts, [("TOP", 0, concepts[0])], relations), groups))
    (a, ga), (b, gb) = sides
    return build_problem(encode_pair(a, b), allowed=Candidates.from_lists(ga, gb))


def test_the_block_bound_is_never_below_the_optimum_and_its_mapping_is_a_mapping():
    rng = random.Random(5)
    merged = 0
    for _ in range(400):
        problem = _random_document_problem(rng)
        start = hill_climb(problem, restarts=0, seed=rng.randrange(2**31))
        found = block_bound(problem, start.mapping, node_limit=10**6)
        optimum = solve_milp(problem)
        assert optimum.optimal
        assert found.bound is not None
        assert found.bound >= optimum.score - 1e-9
        value = problem.value(found.mapping)  # one-to-one, or this raises
        assert start.score - 1e-9 <= value <= optimum.score + 1e-9
        merged += found.merges > 0
    # blocks whose optima disagreed were merged and searched again in some of them
    assert merged >= 10


@settings(max_examples=150, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(problems(), st.integers(0, 2**31))
def test_certified_search_with_the_exact_search_reaches_the_optimum(problem, seed):
    optimum = solve_milp(problem)
    found = align(problem, SearchOptions("exact", seed=seed))
    assert found.optimal
    assert found.score == pytest.approx(optimum.score, abs=1e-6)
    assert problem.value(found.mapping) == pytest.approx(found.score, abs=1e-9)


def test_a_hand_checked_search():
    # A: a/x -r-> b/y, a -s-> c/y ; B: the same with r and s swapped between the two y nodes.
    # The optimum maps a->p and puts b, c where their role matches: 3 instances, TOP, 2 relations = 6.
    a = graph_triples(loads_graph("(a / x :r (b / y) :s (c / y))"))
    b = graph_triples(loads_graph("(p / x :s (q / y) :r (t / y))"))
    problem = build_problem(encode_pair(a, b))
    # a poor start: b->q, c->t (the roles crossed): 4
    start = np.array([0, 1, 2])
    assert problem.value(start) == 4.0
    mapping, proven, nodes = branch_and_bound(problem, start)
    assert proven and mapping.tolist() == [0, 2, 1] and problem.value(mapping) == 6.0
    # a search allowed one subtree gives the start back, unproven
    mapping, proven, nodes = branch_and_bound(problem, start, node_limit=1)
    assert (mapping is start, proven, nodes) == (True, False, 2)


def test_a_hand_checked_document_bound():
    # two sentences (groups 1, 2) and a top (group 0) with :snt edges; node e is in both sentences
    pred = loads_graph("(d / document :snt1 (g / go-02 :ARG0 (e / entity)) :snt2 (s / sleep-01 :ARG0 e))")
    gold = loads_graph("(d / document :snt1 (g / go-02 :ARG0 (e / entity)) :snt2 (s / sleep-01 :ARG0 e))")
    a, b = graph_triples(pred), graph_triples(gold)
    groups = [[0], [1], [1, 2], [2]]  # d, g, e, s in the order of graph_triples
    assert a.variables == ["d", "g", "e", "s"]
    problem = build_problem(encode_pair(a, b), allowed=Candidates.from_lists(groups, groups))
    climb = hill_climb(problem, restarts=0)
    found = block_bound(problem, climb.mapping)
    # blocks: {d}, sentence 1 {g, e}, sentence 2 {s, and a copy of e -> e for the :ARG0 there}; the
    # :snt terms go to the sentences, where d -> d gets a copy; 4 instances, TOP, 2 :snt, 2 :ARG0 = 9,
    # and the bound meets it
    assert found.blocks == 3
    assert climb.score == 9.0
    assert found.bound == pytest.approx(9.0, abs=1e-6)
    assert align(problem).method == "hillclimb"


def test_inputs_that_would_break_the_exact_search_are_errors():
    from amreval import InputError

    a = graph_triples(loads_graph("(a / x :r (b / y) :s (c / y))"))
    b = graph_triples(loads_graph("(p / x :s (q / y) :r (t / y))"))
    problem = build_problem(encode_pair(a, b))
    with pytest.raises(InputError, match="the mapping is not one-to-one"):
        branch_and_bound(problem, np.array([0, 1, 1]))
    with pytest.raises(InputError, match="a target .or -1. for each of the 3 nodes"):
        branch_and_bound(problem, np.array([0, 1]))
    with pytest.raises(
        InputError, match="node_limit must be an integer from 0 below 2\\*\\*62, got 9223372036854775808"
    ):
        branch_and_bound(problem, np.array([0, 1, 2]), node_limit=2**63)
    # a target that is no candidate (beyond B's nodes) counts as none: the start is a -> p alone, 2 + TOP
    mapping, proven, _ = branch_and_bound(problem, np.array([0, 7, -1]))
    assert proven and problem.value(mapping) == 6.0
    found = align(problem, init=np.array([0, 7, -1]))
    assert found.optimal and found.score == problem.value(found.mapping) == 6.0
    with pytest.raises(InputError, match="init is not one-to-one"):
        align(problem, init=np.array([1, 1, -1]))
    # the kernels check what they index with (a bad array would read or write out of bounds), both alike
    for which in ("c", "python"):
        with pytest.raises(InputError, match=r"cols must lie in \[0, 2\)"):
            kernels(which).sparse_assignment_kernel(1, 2, np.array([0, 1]), np.array([5]), np.array([1.0]))
        args, kw = search_args(problem, np.array([0]), 0.5, 10)
        with pytest.raises(InputError, match="init must hold a pair index .or -1. for each of the 3 nodes"):
            kernels(which).branch_and_bound_kernel(*args, **kw)


def test_term_weights_may_only_be_lowered_and_fractions_end_whole_number_proofs():
    from amreval import InputError

    # three relations r, s, t between x and y in both graphs: 2 instances, TOP, 3 relations = 6
    g = "(a / x :r (b / y) :s b :t b)"
    problem = build_problem(encode_pair(graph_triples(loads_graph(g)), graph_triples(loads_graph(g))))
    assert problem.integral and problem.n_terms == 3
    with pytest.raises(InputError, match="term weights may only be lowered"):
        problem.set_term_weights(np.array([1.0, 1.0, 2.0]))
    with pytest.raises(InputError, match="term weights must be numbers"):
        problem.set_term_weights(np.array(["a", "b", "c"]))
    problem.set_term_weights(np.array([0.3, 0.3, 0.3]))
    assert not problem.integral
    found = align(problem)
    assert found.optimal and found.score == pytest.approx(3.9)
    assert solve_milp(problem).score == pytest.approx(3.9)


def test_the_open_bound_counts_a_node_of_b_wanted_by_two_nodes_once():
    # nodes 0 and 1 of A both do best on node 0 of B: 0->0 is worth 3 and 0->1 1, 1->0 3 and 1->1 nothing.
    # Summing each node's best says 6; only one of them can have node 0 of B, the other takes its second
    # best (1 or 0): d = 2 and 3, so node 0 of B costs 2 (all but the largest d): 4, the optimum (0->1, 1->0)
    from amreval.match.kernels._branch import _best_potential, _open_bound

    src, tgt = np.array([0, 0, 1, 1]), np.array([0, 1, 0, 1])
    u = np.array([3.0, 1.0, 3.0, 0.0])
    ptr, nbr, w = np.zeros(5, dtype=np.int64), np.zeros(0, dtype=np.int64), np.zeros(0)
    rows = np.array([0, 2, 4])
    active, decided, used = np.zeros(4, dtype=bool), np.zeros(2, dtype=bool), np.zeros(2, dtype=bool)
    args = (active, decided, used, src, tgt, u, ptr, nbr, w, rows)
    col_sum, col_max = np.zeros(2), np.full(2, -1.0)
    assert sum(_best_potential(i, *args) for i in (0, 1)) == 6.0
    assert _open_bound([0, 1], args, col_sum, col_max) == 4.0
    assert col_max.tolist() == [-1.0, -1.0]  # the work space is left as it was
    # with node 0 of B taken, each node's best is its pair to node 1: both want it, d = 1 and 0: 1
    used[0] = True
    assert _open_bound([0, 1], args, col_sum, col_max) == 1.0
    # both searches find the optimum 4 from an empty start
    space = SearchSpace(2, 2, src, tgt, u, kernels("python").adjacency_kernel(4, nbr, nbr, w))
    for which in ("c", "python"):
        found = kernels(which).branch_and_bound_kernel(
            space, rows=rows, init=np.full(2, -1, dtype=np.int64), gap=1e-10, node_limit=100
        )
        assert (found.pairs.tolist(), found.value, found.proven) == ([1, 2], 4.0, True)

"""Reduced-cost fixing: the LP's reduced costs bound every mapping through a pair, and the coupled search on
the pairs left reaches the integer program's optimum."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from amreval import loads_graph
from amreval.match import alignment as alignment_module
from amreval.match.alignment import align, hill_climb
from amreval.match.certify import fixing as fixing_module
from amreval.match.certify.bounds import solve_milp
from amreval.match.certify.coupling import couple
from amreval.match.certify.fixing import fixed_milp, fixed_search, pairs_left
from amreval.match.certify.pricing import PricedLP, priced_lp
from amreval.match.certify.proof import proves_each
from amreval.match.problem import Alignment, build_problem, nodes_to_pairs, pairs_to_nodes
from amreval.match.triples import encode_pair, graph_triples
from amreval.scores.docsmatch import sentence_constraint

from strategies import check_against_optimum, random_document

# one boy in two sentences on the predicted side, a boy in each sentence on the gold side
PRED = "(d / document :snt1 (g / go-02 :ARG0 (e / boy)) :snt2 (s / sleep-01 :ARG0 e))"
GOLD = "(d / document :snt1 (g / go-02 :ARG0 (b / boy)) :snt2 (s / sleep-01 :ARG0 (c / boy)))"


def _document():
    p, g = loads_graph(PRED), loads_graph(GOLD)
    a, b = graph_triples(p), graph_triples(g)
    return build_problem(encode_pair(a, b), allowed=sentence_constraint(p, g, a, b))


def test_the_proof_rule_for_each_bound():
    bounds = np.array([8.0, 8.999, 9.0, 9.5])
    # whole numbers: a bound proves 8 while its whole part is 8
    assert proves_each(8.0, bounds, integral=True).tolist() == [True, True, False, False]
    # a quantum of 0.5: no multiple of it above 8 up to the bound (8.5 is one)
    assert proves_each(8.0, bounds, integral=False, quantum=0.5).tolist() == [True, False, False, False]
    # no quantum: the bound must meet the score
    assert proves_each(8.0, bounds, integral=False).tolist() == [True, False, False, False]


def test_pairs_left_by_hand():
    problem = _document()
    # nodes of B in reading order d, g, b, s, c; pairs (by source, then target): d->d, g->g, e->b, e->c, s->s
    assert list(zip(problem.pair_src.tolist(), problem.pair_tgt.tolist())) == [(0, 0), (1, 1), (2, 2), (2, 4), (3, 3)]
    # a bound of 9.5 with reduced costs: mappings through e->c worth at most 8.9, through e->b 9.5
    lp = PricedLP(9.5, None, 1, 5, 0, np.array([0.0, 0.0, 0.0, 0.6, 0.5]))
    # against 8 whole matches only e->c (8.9, whole part 8) is out; s->s (9.0) is left
    assert pairs_left(problem, lp, 8.0).tolist() == [True, True, True, False, True]
    assert pairs_left(problem, lp, 9.0).tolist() == [False, False, False, False, False]
    assert pairs_left(problem, PricedLP(9.5, None, 1, 5, 0), 8.0).all()  # no reduced costs: every pair


def test_fixed_search_by_hand():
    problem = _document()
    climb = hill_climb(problem, restarts=0)
    assert (climb.score, climb.mapping.tolist()) == (8.0, [0, 1, 2, 3])
    # with e->c out, the document over d->d, g->g, e->b, s->s has one mapping worth 8: proven
    lp = PricedLP(9.5, None, 1, 5, 0, np.array([0.0, 0.0, 0.0, 0.6, 0.5]))
    found = fixed_search(problem, climb, lp)
    assert (found.score, found.bound, found.optimal, found.mapping.tolist()) == (8.0, 8.0, True, [0, 1, 2, 3])
    # no pair left: the mapping is proven as it is
    none_left = fixed_search(problem, climb, PricedLP(8.5, None, 1, 5, 0, np.zeros(5)))
    assert (none_left.score, none_left.optimal) == (8.0, True)
    # no search allowed on what is left: unproven, the bound the larger of the search's and the pairs' out
    stopped = fixed_search(problem, climb, lp, subtrees=0)
    assert not stopped.optimal and stopped.bound == climb.bound


def _best_through(problem, p: int) -> float:
    """The best mapping that uses pair ``p``: the optimum once the pairs that clash with it are gone."""
    keep = (problem.pair_src != problem.pair_src[p]) & (problem.pair_tgt != problem.pair_tgt[p])
    keep[p] = True
    sub, _, _ = problem.restrict(keep)
    return solve_milp(sub).score if sub.n_pairs else 0.0


@settings(max_examples=25, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32), st.sampled_from(["whole", "tie-break", "graded"]))
def test_every_mapping_through_a_pair_is_within_its_reduced_cost(seed, weights):
    problem = random_document(random.Random(seed), weights)
    climb = hill_climb(problem, restarts=0, seed=seed)
    lp = priced_lp(problem, nodes_to_pairs(problem, climb.mapping), time_limit=30)
    assert lp.slack is not None and lp.slack.shape == (problem.n_pairs,) and np.all(lp.slack >= 0)
    for p in range(problem.n_pairs):
        assert _best_through(problem, p) <= lp.bound - lp.slack[p] + 1e-7


@settings(max_examples=100, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32), st.sampled_from(["whole", "tie-break", "graded"]), st.sampled_from([0, 10, 10**5]))
def test_the_fixed_search_never_crosses_the_optimum_and_proves_only_it(seed, weights, subtrees):
    problem = random_document(random.Random(seed), weights)
    optimum = solve_milp(problem)
    assert optimum.optimal
    climb = hill_climb(problem, restarts=0, seed=seed)
    lp = priced_lp(problem, nodes_to_pairs(problem, climb.mapping), time_limit=30)
    found = fixed_search(problem, climb, lp, subtrees=subtrees)
    result = (found.mapping, found.score, found.bound, found.optimal)
    check_against_optimum(problem, climb.score, result, optimum.score, bound_tolerance=1e-6)


def test_align_proves_random_documents_by_fixing_without_the_integer_program(monkeypatch):
    # the first coupled search and the random restarts give nothing: the LP and the fixed
    # search (branching where the blocks disagree) prove what is left
    rng = random.Random(5)
    problems = [random_document(rng, ["whole", "tie-break", "graded"][k % 3]) for k in range(90)]
    optima = [solve_milp(problem).score for problem in problems]
    monkeypatch.setattr(alignment_module, "coupled_search", lambda problem, result, **kwargs: result)
    calls = []

    def counted(problem, **kwargs):
        calls.append(problem)
        return solve_milp(problem, **kwargs)

    monkeypatch.setattr(alignment_module, "solve_milp", counted)
    fixed = 0
    for problem, optimum in zip(problems, optima):
        found = align(problem, alignment_module.SearchOptions(restarts=0))
        assert found.optimal and found.score == pytest.approx(optimum, abs=1e-9)
        fixed += found.method == "fixing"
    # none of the 90 goes on to the integer program; on 4 the fixed search finds a better mapping (on 2
    # more, the climb from the LP's rounding finds it first: 26 proven at the LP, 24 without that climb)
    assert (len(calls), fixed) == (0, 4)


def test_branching_on_a_disputed_pair_proves_what_the_coupled_search_leaves():
    rng = random.Random(17)
    tried = branched = 0
    for k in range(200):
        problem = random_document(rng, ["whole", "tie-break", "graded"][k % 3])
        climb = hill_climb(problem, restarts=0)
        lp = priced_lp(problem, nodes_to_pairs(problem, climb.mapping), time_limit=30)
        # two rounds of share updates are seldom enough alone
        sub, _, _ = problem.restrict(pairs_left(problem, lp, climb.score))
        alone = couple(sub, climb.mapping, rounds=2)
        if alone.proven or alone.disputed < 0:
            continue
        tried += 1
        found = fixed_search(problem, climb, lp, rounds=2)
        optimum = solve_milp(problem).score
        assert found.bound >= optimum - 1e-6
        if found.optimal:
            branched += 1
            assert found.score == pytest.approx(optimum, abs=1e-9)
    # 40 of the 57 proven by the branching (within its depth) and the search again over the fewer pairs
    # a better mapping found there leaves, each at the integer program's optimum. (One more is proven by
    # the two rounds alone once their climbs from the pairs the blocks want find its better mapping; on one
    # the branching began from that better mapping runs out of depth where it had found the optimum.)
    assert (tried, branched) == (57, 40)


def test_the_integer_program_over_the_pairs_left_by_hand():
    problem = _document()
    solved = []

    starts = []

    def counted(sub, **kwargs):
        solved.append(sub.n_pairs)
        starts.append(sub.value(pairs_to_nodes(sub, kwargs["start"])))
        return solve_milp(sub, **kwargs)

    # e unmapped: 6 matches (d->d, g->g, s->s and their two edges, no boy)
    start = Alignment(np.array([0, 1, -1, 3]), 6.0, 9.5, False, "hillclimb", 1)
    assert problem.value(start.mapping) == 6.0
    # e->c at most 9.5 - 3 = 6.5, whole part 6: out; over the other four pairs the optimum is 8 (e->b)
    lp = PricedLP(9.5, None, 1, 5, 0, np.array([0.0, 0.0, 0.0, 3.0, 0.0]))
    found = fixed_milp(problem, start, lp, time_limit=30, solve=counted)
    assert solved == [4]
    # the mapping known is handed on as the integer program's start, over the pairs left: worth its 6 there
    assert starts == [6.0]
    assert (found.mapping.tolist(), found.score, found.bound, found.optimal, found.method) == (
        [0, 1, 2, 3], 8.0, 8.0, True, "milp",
    )  # fmt: skip
    # from the optimum itself: what is left proves it, and the mapping stays
    best = Alignment(np.array([0, 1, 2, 3]), 8.0, 9.5, False, "coupling", 2)
    found = fixed_milp(problem, best, PricedLP(9.5, None, 1, 5, 0, np.array([0.0, 0.0, 0.0, 0.6, 0.5])), time_limit=30,
                       solve=counted)  # fmt: skip
    assert solved == [4, 4]
    assert (found.mapping.tolist(), found.score, found.bound, found.optimal, found.method) == (
        [0, 1, 2, 3], 8.0, 8.0, True, "coupling",
    )  # fmt: skip
    # no pair left: proven without the integer program; no reduced costs: the integer program of the whole
    none_left = fixed_milp(problem, best, PricedLP(8.5, None, 1, 5, 0, np.zeros(5)), time_limit=30, solve=counted)
    assert (none_left.score, none_left.bound, none_left.optimal, solved) == (8.0, 8.0, True, [4, 4])
    whole = fixed_milp(problem, start, PricedLP(9.5, None, 1, 5, 0), time_limit=30, solve=counted)
    assert (whole.score, whole.optimal, solved) == (8.0, True, [4, 4, 5])


def test_the_integer_program_over_the_pairs_left_unproven_keeps_the_larger_bound():
    problem = _document()
    start = Alignment(np.array([0, 1, -1, 3]), 6.0, 9.5, False, "hillclimb", 1)
    lp = PricedLP(9.5, None, 1, 5, 0, np.array([0.0, 0.0, 0.0, 3.0, 0.0]))

    def stopped(sub, **kwargs):  # stopped by its time limit with nothing better, its bound 8.7
        return Alignment(np.array([0, 1, -1, 3]), 6.0, 8.7, False, "milp")

    found = fixed_milp(problem, start, lp, time_limit=30, solve=stopped)
    # the pair left out is worth at most 6.5 through it: the bound is the integer program's
    assert (found.mapping.tolist(), found.score, found.bound, found.optimal, found.method) == (
        [0, 1, -1, 3], 6.0, 8.7, False, "hillclimb",
    )  # fmt: skip

    def weak(sub, **kwargs):  # a bound below the pair left out's
        return Alignment(np.array([0, 1, -1, 3]), 6.0, 6.2, False, "milp")

    assert fixed_milp(problem, start, lp, time_limit=30, solve=weak).bound == 6.5


@settings(max_examples=60, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32), st.sampled_from(["whole", "tie-break", "graded"]))
def test_the_integer_program_over_the_pairs_left_reaches_the_whole_optimum(seed, weights):
    problem = random_document(random.Random(seed), weights)
    optimum = solve_milp(problem)
    assert optimum.optimal
    climb = hill_climb(problem, restarts=0, seed=seed)
    lp = priced_lp(problem, nodes_to_pairs(problem, climb.mapping), time_limit=30)
    found = fixed_milp(problem, climb, lp, time_limit=30, solve=solve_milp)
    assert found.optimal
    check_against_optimum(problem, climb.score, (found.mapping, found.score, found.bound, found.optimal), optimum.score)


def test_align_solves_the_integer_program_over_the_pairs_left(monkeypatch):
    # no coupled search and no fixed search: every document that the climb and the LP leave unproven
    # goes on to the integer program, on the pairs the LP's reduced costs leave
    rng = random.Random(5)
    problems = [random_document(rng, ["whole", "tie-break", "graded"][k % 3]) for k in range(90)]
    optima = [solve_milp(problem).score for problem in problems]
    monkeypatch.setattr(alignment_module, "coupled_search", lambda problem, result, **kwargs: result)
    monkeypatch.setattr(fixing_module, "fixed_search", lambda problem, result, lp, **kwargs: result)
    sizes = []

    def counted(problem, **kwargs):
        sizes.append(problem.n_pairs)
        return solve_milp(problem, **kwargs)

    monkeypatch.setattr(alignment_module, "solve_milp", counted)
    reached = fewer = 0
    for problem, optimum in zip(problems, optima):
        sizes.clear()
        found = align(problem, alignment_module.SearchOptions(restarts=0))
        assert found.optimal and found.score == pytest.approx(optimum, abs=1e-9)
        assert len(sizes) <= 1
        reached += len(sizes)
        fewer += bool(sizes) and sizes[0] < problem.n_pairs
    # 6 of the 90 reach the integer program (8 without the climb from the LP's rounding, which proves 2 of
    # them at the LP); on 4 of them the reduced costs leave out some pairs
    assert (reached, fewer) == (6, 4)


def test_the_integer_program_is_tried_where_the_pairs_left_are_within_its_columns(monkeypatch):
    # the column limit applies to the integer program that would run (the pairs the LP's reduced costs leave,
    # the terms between them), not to the whole problem: at that many columns it runs, one fewer it does not
    rng = random.Random(5)
    problems = [random_document(rng, ["whole", "tie-break", "graded"][k % 3]) for k in range(90)]
    monkeypatch.setattr(alignment_module, "coupled_search", lambda problem, result, **kwargs: result)
    monkeypatch.setattr(fixing_module, "fixed_search", lambda problem, result, lp, **kwargs: result)
    seen = []
    real_columns = alignment_module.milp_columns

    def columns(problem, result, priced):
        n = real_columns(problem, result, priced)
        left = fixing_module.pairs_left(problem, priced, result.score)
        sub, _, _ = problem.restrict(left)
        assert n == sub.n_pairs + sub.n_terms  # the integer program's own columns
        seen.append((problem, n))
        return n

    monkeypatch.setattr(alignment_module, "milp_columns", columns)
    for problem in problems:
        align(problem, alignment_module.SearchOptions(restarts=0))
    fewer = [(problem, n) for problem, n in seen if n < problem.n_pairs + problem.n_terms]
    # 7 of the 90 get that far; on 5 the reduced costs leave out some pairs (on one, every pair: proven there)
    assert (len(seen), [n for _, n in fewer]) == (7, [40, 16, 0, 48, 40])
    solved = []

    def counted(problem, **kwargs):
        solved.append(problem)
        return solve_milp(problem, **kwargs)

    monkeypatch.setattr(alignment_module, "solve_milp", counted)
    for problem, n in fewer:
        if n == 0:
            continue
        for limit, tried in ((n, True), (n - 1, False)):
            monkeypatch.setattr(alignment_module, "MILP_MAX_COLUMNS", limit)
            solved.clear()
            found = align(problem, alignment_module.SearchOptions(restarts=0))
            assert found.optimal == tried and len(solved) == tried
            assert problem.n_pairs + problem.n_terms > limit  # the whole problem is over the limit either way
